import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * Passwords of local accounts: salted scrypt. The stored string carries its own parameters
 * (`scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`), so the cost can be raised later and old hashes
 * still verify.
 */
const LOG2_N = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 64;
/** Enough for N = 2^16 with r = 8 (128 · N · r bytes); the default 32 MiB is not. */
const MAX_MEMORY = 128 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: 2 ** LOG2_N, r: BLOCK_SIZE, p: PARALLELISM }, KEY_LENGTH);
  return ['scrypt', LOG2_N, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for anything that is not a hash we made (e.g. no password set). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.options, parsed.hash.length);
  return timingSafeEqual(key, parsed.hash);
}

function parse(stored: string | null | undefined) {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const hash = Buffer.from(parts[5]!, 'base64url');
  const sane = [log2N, r, p].every((n) => Number.isInteger(n) && n > 0) && log2N <= 20 && r <= 32 && p <= 16;
  if (!sane || salt.length === 0 || hash.length < 16) return null;
  return { options: { N: 2 ** log2N, r, p }, salt, hash };
}

/**
 * A password people can type: 20 characters from an alphabet without look-alikes (about 110
 * bits). Used for the first admin and for accounts created without one.
 */
export function generatePassword(length = 20): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character equally likely.
      if (byte < 256 - (256 % alphabet.length) && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}
