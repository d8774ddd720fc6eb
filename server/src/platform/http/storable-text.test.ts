import { describe, expect, it } from 'vitest';
import { findUnstorable, unstorableCharacter } from './storable-text.js';

describe('characters that cannot be stored', () => {
  it('finds U+0000 and lone surrogates, and lets every real character through', () => {
    expect(unstorableCharacter('Foral de Évora, 𝔄nno 1280 ✓ 漢字')).toBeUndefined();
    expect(unstorableCharacter('a\u0000b')).toBe('U+0000 (NUL)');
    expect(unstorableCharacter('high \uD800 alone')).toBe('U+D800 (half of a surrogate pair, without its other half)');
    expect(unstorableCharacter('low \uDC00 alone')).toBe('U+DC00 (half of a surrogate pair, without its other half)');
    expect(unstorableCharacter('reversed \uDD04\uD835')).toBe('U+DD04 (half of a surrogate pair, without its other half)');
    expect(unstorableCharacter('ends with \uD835')).toBe('U+D835 (half of a surrogate pair, without its other half)');
  });

  it('says where in a parsed body the first one is, keys included', () => {
    const body = { name: 'ok', fields: [{ name: 'fine' }, { name: 'fine', values: ['x', 'y\u0000'] }] };
    expect(findUnstorable(body, 'body')).toEqual({ character: 'U+0000 (NUL)', where: 'body.fields[1].values[1]' });
    expect(findUnstorable({ 'odd key': { '\u0000': 1 } }, 'body')).toEqual({
      character: 'U+0000 (NUL)',
      where: 'the name of body["odd key"]["\\u0000"]',
    });
    expect(findUnstorable('\uD800', 'body')).toMatchObject({ where: 'body' });
    expect(findUnstorable({ a: 1, b: true, c: null, d: [2.5, 'fine'] }, 'body')).toBeUndefined();
  });

  it('walks a deeply nested body without running out of stack, and leaves Buffers alone', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(findUnstorable(deep, 'body')?.character).toBe('U+0000 (NUL)');
    expect(findUnstorable(Buffer.from([0, 0xd8]), 'body')).toBeUndefined();
  });
});
