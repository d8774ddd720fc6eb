import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the password a hash was made from and nothing else', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$15\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('treats the same text in another Unicode normal form as the same password', async () => {
    const hash = await hashPassword('Évora');
    expect(await verifyPassword('E\u0301vora', hash)).toBe(true);
  });

  it('refuses missing and malformed hashes instead of throwing', async () => {
    for (const stored of [null, undefined, '', 'not-a-hash', 'scrypt$15$8$1$$', 'scrypt$99$8$1$c2FsdA$aGFzaA', 'bcrypt$x$y$z$a$b']) {
      expect(await verifyPassword('anything', stored), String(stored)).toBe(false);
    }
  });

  it('generates long passwords without look-alike characters', () => {
    const passwords = new Set(Array.from({ length: 50 }, () => generatePassword()));
    expect(passwords.size).toBe(50);
    for (const p of passwords) {
      expect(p).toHaveLength(20);
      expect(p).toMatch(/^[a-km-zA-HJ-NP-Z2-9]+$/);
    }
  });
});
