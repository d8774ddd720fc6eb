import { hashPassword, verifyPassword } from '../passwords.js';
import { randomToken } from '../tokens.js';
import type { LoginFailureRepository } from './repository.js';

/** A local account as the embedded provider sees it. */
export interface LocalAccount {
  id: string;
  email: string | null;
  name: string;
  passwordHash: string | null;
  /** Disabled or deleted: may not sign in. */
  disabled: boolean;
}

export interface LocalAccounts {
  findById(id: string): Promise<LocalAccount | undefined>;
  findByEmail(email: string): Promise<LocalAccount | undefined>;
}

export type SignInOutcome =
  | { ok: true; accountId: string }
  | { ok: false; status: 400 | 401 | 403 | 429; message: string };

export const SIGN_IN_MESSAGES = {
  missing: 'Enter your email and password.',
  wrong: 'Wrong email or password.',
  disabled: 'This account is disabled. Ask an administrator.',
} as const;

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_IP = 20;

/**
 * The rules of the embedded provider's sign-in form: password check, disabled accounts, and a
 * rate limit on failures per email and per client address kept in the database (so it holds
 * across server processes).
 */
export class LocalSignIn {
  /** Checked when the email is unknown, so a wrong email takes as long as a wrong password. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly accounts: LocalAccounts,
    private readonly failures: LoginFailureRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async attempt(emailInput: string, password: string, ip: string): Promise<SignInOutcome> {
    const email = emailInput.trim().toLowerCase();
    if (!email || !password) return { ok: false, status: 400, message: SIGN_IN_MESSAGES.missing };

    // Every attempt counts as a failure until the password proves right: parallel guesses see
    // each other, so no burst of requests gets more tries than the limit.
    await this.failures.deleteBefore(new Date(this.now().getTime() - WINDOW_MS));
    const attemptId = await this.failures.record(email, ip, this.now());
    const retryAt = await this.blockedUntil(email, ip);
    if (retryAt) {
      // Refused attempts do not count, so waiting out the message is enough.
      await this.failures.delete(attemptId);
      const minutes = Math.max(1, Math.ceil((retryAt.getTime() - this.now().getTime()) / 60_000));
      return {
        ok: false,
        status: 429,
        message: `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
      };
    }

    const account = await this.accounts.findByEmail(email);
    this.decoyHash ??= hashPassword(randomToken());
    const matches = await verifyPassword(password, account?.passwordHash ?? (await this.decoyHash));
    if (!account || !matches) return { ok: false, status: 401, message: SIGN_IN_MESSAGES.wrong };
    await this.failures.clearEmail(email);
    // Only after the right password: guessers learn nothing about the account's state.
    if (account.disabled) return { ok: false, status: 403, message: SIGN_IN_MESSAGES.disabled };
    return { ok: true, accountId: account.id };
  }

  /**
   * When the later of the two limits lifts, if either holds now. The attempt under way is one
   * of the rows, hence limit + 1.
   */
  private async blockedUntil(email: string, ip: string): Promise<Date | undefined> {
    const since = new Date(this.now().getTime() - WINDOW_MS);
    const [byEmail, byIp] = await Promise.all([
      this.failures.nthMostRecent('email', email, MAX_FAILURES_PER_EMAIL + 1, since),
      this.failures.nthMostRecent('ip', ip, MAX_FAILURES_PER_IP + 1, since),
    ]);
    const until = [byEmail, byIp].filter((d): d is Date => d !== undefined).map((d) => d.getTime() + WINDOW_MS);
    return until.length ? new Date(Math.max(...until)) : undefined;
  }
}
