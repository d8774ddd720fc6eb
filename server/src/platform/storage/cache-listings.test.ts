import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CacheListings } from './cache-listings.js';

describe('CacheListings', () => {
  let dir: string;
  const file = (...parts: string[]) => path.join(dir, ...parts);
  const write = (...parts: string[]) => {
    fs.mkdirSync(path.dirname(file(...parts)), { recursive: true });
    fs.writeFileSync(file(...parts), 'bytes');
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-listings-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers from the folder as it was listed while the listing is fresh, and reads the folder again after', async () => {
    write('a', 'old');
    const fresh = new CacheListings();
    expect(await fresh.mayHold(file('a', 'old'))).toBe(true);
    expect(await fresh.mayHold(file('a', 'new'))).toBe(false);
    // Written by someone else after the listing: a fresh listing does not know it...
    write('a', 'new');
    expect(await fresh.mayHold(file('a', 'new'))).toBe(false);
    // ...one past its freshness reads the folder again before it believes a miss.
    const stale = new CacheListings({ freshMs: -1 });
    expect(await stale.mayHold(file('a', 'other'))).toBe(false);
    write('a', 'other');
    expect(await stale.mayHold(file('a', 'other'))).toBe(true);
  });

  it('learns what this process adds and what turned out to be gone', async () => {
    const listings = new CacheListings();
    expect(await listings.mayHold(file('b', 'tile'))).toBe(false);
    write('b', 'tile');
    listings.added(file('b', 'tile'));
    expect(await listings.mayHold(file('b', 'tile'))).toBe(true);
    fs.rmSync(file('b', 'tile'));
    listings.removed(file('b', 'tile'));
    expect(await listings.mayHold(file('b', 'tile'))).toBe(false);
  });

  it('lets the open tell when a folder cannot be listed', async () => {
    write('c');
    const listings = new CacheListings();
    expect(await listings.mayHold(file('c', 'tile'))).toBe(true);
  });

  it('keeps at most maxFolders listings, the least recently asked about going first', async () => {
    const listings = new CacheListings({ maxFolders: 1 });
    expect(await listings.mayHold(file('d', 'tile'))).toBe(false);
    expect(await listings.mayHold(file('e', 'tile'))).toBe(false);
    write('d', 'tile');
    write('e', 'tile');
    expect(await listings.mayHold(file('e', 'tile'))).toBe(false);
    expect(await listings.mayHold(file('d', 'tile'))).toBe(true);
  });
});
