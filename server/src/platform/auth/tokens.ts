import { createHash, randomBytes } from 'node:crypto';

/** A random 256-bit secret, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as this hash: a leaked table grants nothing. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
