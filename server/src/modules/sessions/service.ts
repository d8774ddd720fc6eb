import { ROLE } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { hashSecret, randomToken } from '../../platform/auth/tokens.js';
import { type ChangeNotices, TopicCache } from '../../platform/db/change-notices.js';
import { forbidden } from '../../platform/errors.js';
import type { ActiveSession, SessionRepository } from './repository.js';

/** Every principal has AUTHENTICATED; the rest are its own roles, without case-insensitive repeats. */
export function effectiveRoles(own: readonly string[]): string[] {
  const seen = new Set<string>();
  const roles: string[] = [];
  for (const role of [ROLE.AUTHENTICATED, ...own]) {
    if (seen.has(role.toLowerCase())) continue;
    seen.add(role.toLowerCase());
    roles.push(role);
  }
  return roles;
}

export class SessionService {
  /** Live sessions by token hash, until a session, user or role changes (every request asks). */
  private readonly active: TopicCache<string, ActiveSession>;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly ttlHours: number,
    changes: ChangeNotices,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.active = new TopicCache(changes, ['auth']);
  }

  /** Starts a session for a user who has just signed in; the token is returned once, stored hashed. */
  async start(userId: string): Promise<string> {
    const token = randomToken();
    const expiresAt = new Date(this.now().getTime() + this.ttlHours * 3600_000);
    await this.sessions.create(hashSecret(token), userId, expiresAt);
    // Housekeeping on the side: expired sessions are never valid, this only keeps the table small.
    await this.sessions.deleteExpired(this.now());
    return token;
  }

  async authenticate(token: string): Promise<Principal | null> {
    const now = this.now();
    const hash = hashSecret(token);
    const s = await this.active.through(hash, () => this.sessions.findActive(hash, now));
    if (!s || s.expiresAt <= now) return null;
    return { kind: 'user', userId: s.userId, name: s.name, email: s.email, roles: effectiveRoles(s.roles) };
  }

  /** `POST google/getRoles`: an invalid or expired token gets 403, which signs the web app out. */
  roles(principal: Principal | null): string[] {
    if (!principal) throw forbidden('Your session is not valid or has expired. Log in again.');
    return principal.roles;
  }

  /** Ends the session of a token. Knowing the token is the right to end it; unknown tokens are fine. */
  async end(token: string): Promise<void> {
    await this.sessions.delete(hashSecret(token));
  }

  async endAllFor(userId: string): Promise<void> {
    await this.sessions.deleteForUser(userId);
  }
}
