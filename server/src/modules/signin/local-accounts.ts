import type { LocalAccount, LocalAccounts } from '../../platform/auth/embedded-provider/local-sign-in.js';
import type { UserRepository, UserRow } from '../users/repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PIM's users as the embedded provider's accounts: the subject is the user's id. */
export function localAccountsOf(users: UserRepository): LocalAccounts {
  return {
    // The provider may ask for any subject it once saw; only our ids can be users.
    findById: async (id) => (UUID.test(id) ? toAccount(await users.findById(id)) : undefined),
    findByEmail: async (email) => toAccount(await users.findByEmail(email)),
  };
}

function toAccount(user: UserRow | undefined): LocalAccount | undefined {
  return (
    user && {
      id: user.id,
      email: user.email,
      name: user.name,
      passwordHash: user.password_hash,
      disabled: user.disabled || user.deleted_at !== null,
    }
  );
}
