import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('lets the least recently used go first once the weights pass the limit; get is a use, peek is not', () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1);
    expect(lru.peek('b')).toBe(2);
    lru.set('d', 4);
    expect(lru.keys()).toEqual(['c', 'a', 'd']);
    expect(lru.weight).toBe(3);
  });

  it('weighs entries, replaces a key with its new weight, and keeps none heavier than its share of the limit', () => {
    const lru = new Lru<string, string>(100, 1 / 4);
    lru.set('small', 'x', 20);
    lru.set('small', 'y', 25);
    expect(lru.weight).toBe(25);
    lru.set('large', 'z', 26);
    expect(lru.peek('large')).toBeUndefined();
    lru.set('small', 'too large now', 30);
    expect(lru.peek('small')).toBeUndefined();
    expect(lru.weight).toBe(0);
  });

  it('lets go of what passes a smaller limit, and keeps nothing with none', () => {
    const lru = new Lru<number, number>(10);
    for (let i = 0; i < 5; i++) lru.set(i, i, 2);
    lru.resize(4);
    expect(lru.keys()).toEqual([3, 4]);
    lru.resize(0);
    lru.set(9, 9, 1);
    expect(lru.keys()).toEqual([]);
    lru.resize(10);
    lru.set(1, 1, 2);
    lru.delete(1);
    lru.set(2, 2, 2);
    lru.clear();
    expect([lru.keys(), lru.weight]).toEqual([[], 0]);
  });
});
