import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { DerivativeCache } from './derivative-cache.js';
import { FileStore } from './file-store.js';

const HOUR = 60 * 60 * 1000;

describe('the derivative cache size cap', () => {
  let dataDir: string;
  let cacheDir: string;
  const caches: DerivativeCache[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-cache-'));
    cacheDir = path.join(dataDir, 'cache');
    fs.mkdirSync(cacheDir);
  });
  afterEach(() => {
    for (const c of caches.splice(0)) c.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cacheOf = (maxBytes: number, delayMs = 0) => {
    const cache = new DerivativeCache(cacheDir, { maxBytes, delayMs });
    caches.push(cache);
    return cache;
  };
  /** A file of `size` bytes last used `ageMs` ago (atime and mtime both). */
  const cached = (relative: string, size: number, ageMs: number, root = cacheDir) => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.alloc(size, 1));
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
    return file;
  };
  const remaining = () => (fs.readdirSync(cacheDir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(cacheDir, f)).isFile()).sort();
  const cacheBytes = () => remaining().reduce((sum, f) => sum + fs.statSync(path.join(cacheDir, f)).size, 0);

  it('deletes the least recently used files down to 80% of the cap', async () => {
    for (const [name, hours] of [['a', 5], ['b', 4], ['c', 3], ['d', 2], ['e', 1]] as const) cached(`iiif/ab/${name}`, 100, hours * HOUR);
    // Read recently on a filesystem that keeps atime: counts as used now despite its old mtime.
    const read = cached('iiif/cd/read', 100, 6 * HOUR);
    fs.utimesSync(read, new Date(), fs.statSync(read).mtime);

    const result = await cacheOf(450).sweep();
    expect(result).toEqual({ keptFiles: 3, keptBytes: 300, removedFiles: 3, removedBytes: 300 });
    expect(remaining()).toEqual(['iiif/ab/d', 'iiif/ab/e', 'iiif/cd/read']);
  });

  it('leaves a cache under its cap alone', async () => {
    cached('iiif/ab/a', 100, 5 * HOUR);
    cached('iiif/ab/b', 100, 4 * HOUR);
    expect(await cacheOf(200).sweep()).toEqual({ keptFiles: 2, keptBytes: 200, removedFiles: 0, removedBytes: 0 });
    expect(remaining()).toHaveLength(2);
  });

  it('never deletes files outside cache/, not even through a symbolic link', async () => {
    const outside = [
      cached('files/ab/cd/original', 500, 10 * HOUR, dataDir),
      cached('tmp/upload', 500, 10 * HOUR, dataDir),
      cached('elsewhere/keep', 500, 10 * HOUR, dataDir),
    ];
    fs.symlinkSync(path.join(dataDir, 'elsewhere'), path.join(cacheDir, 'linked-dir'));
    fs.symlinkSync(outside[0]!, path.join(cacheDir, 'linked-file'));
    cached('iiif/ab/a', 100, HOUR);

    await cacheOf(10).sweep();
    for (const file of outside) expect(fs.existsSync(file), file).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'elsewhere', 'keep'))).toBe(true);
    expect(fs.existsSync(path.join(cacheDir, 'iiif/ab/a'))).toBe(false);
  });

  it('does not crash when files vanish under concurrent sweeps', async () => {
    const files = Array.from({ length: 200 }, (_, i) => cached(`iiif/${String(i % 7).padStart(2, '0')}/f${i}`, 50, (200 - i) * 1000));
    const one = cacheOf(2000);
    const other = cacheOf(2000);
    const sweeps = [one.sweep(), other.sweep(), one.sweep()];
    // An operator emptying part of the cache while both sweep.
    await fsp.rm(path.join(cacheDir, 'iiif', '06'), { recursive: true });
    for (const file of files.slice(0, 100)) await fsp.rm(file, { force: true });
    const results = await Promise.all(sweeps);
    // The same instance never sweeps twice at once: the second call joins the first.
    expect(results[2]).toBe(results[0]);
    expect(cacheBytes()).toBeLessThanOrEqual(2000);
    expect(remaining()).toContain('iiif/03/f199');
  });

  it('sweeps a cache dir that is gone without failing', async () => {
    fs.rmSync(cacheDir, { recursive: true });
    expect(await cacheOf(10).sweep()).toEqual({ keptFiles: 0, keptBytes: 0, removedFiles: 0, removedBytes: 0 });
  });

  it('sweeps once at start, trimming what a previous run left', async () => {
    for (let i = 0; i < 10; i++) cached(`iiif/ab/old${i}`, 100, (10 - i) * HOUR);
    cacheOf(500).start();
    await vi.waitFor(() => expect(cacheBytes()).toBeLessThanOrEqual(400));
    expect(remaining()).toEqual(['iiif/ab/old6', 'iiif/ab/old7', 'iiif/ab/old8', 'iiif/ab/old9']);
  });

  it('keeps the FileStore cache under its cap as derivatives are written, in the background', async () => {
    const store = new FileStore(dataDir, { maxBytes: 1000, delayMs: 20 });
    for (let i = 0; i < 30; i++) {
      await store.putCache(store.cachePath('iiif', 'ab', `tile${i}`), Buffer.alloc(100, i));
      // Distinct last-use times, oldest first, without waiting: mtime is what the sweep orders by.
      const when = new Date(Date.now() - (30 - i) * 1000);
      fs.utimesSync(store.cachePath('iiif', 'ab', `tile${i}`), when, when);
    }
    await vi.waitFor(() => expect(cacheBytes()).toBeLessThanOrEqual(1000));
    expect(remaining()).toContain('iiif/ab/tile29');
    expect(remaining()).not.toContain('iiif/ab/tile0');
  });

  it('refreshes the mtime of a cached file on read at most once an hour', async () => {
    const store = new FileStore(dataDir, { maxBytes: 1000, delayMs: 60_000 });
    const stale = cached('iiif/ab/stale', 10, 2 * HOUR);
    const fresh = cached('iiif/ab/fresh', 10, HOUR / 2);
    const freshMtime = fs.statSync(fresh).mtimeMs;

    expect((await store.readCache(stale))?.length).toBe(10);
    expect(Date.now() - fs.statSync(stale).mtimeMs).toBeLessThan(60_000);
    expect((await store.readCache(fresh))?.length).toBe(10);
    expect(fs.statSync(fresh).mtimeMs).toBe(freshMtime);
    expect(await store.readCache(path.join(cacheDir, 'iiif/ab/missing'))).toBeUndefined();
  });

  it('answers a derivative written in the background from memory until its file is in place; close waits for the write', async () => {
    const errors: unknown[] = [];
    const store = new FileStore(dataDir, { maxBytes: 0, onError: (err) => errors.push(err) });
    const tile = store.cachePath('iiif', 'ab', 'tile');
    store.putCacheInBackground(tile, Buffer.from('pixels'));
    expect((await store.readCache(tile))?.toString()).toBe('pixels');
    await store.close();
    expect(fs.readFileSync(tile, 'utf8')).toBe('pixels');
    expect(errors).toEqual([]);
  });

  it('reads a derivative emptied from under it as not made yet, and finds it again once written', async () => {
    const store = new FileStore(dataDir, { maxBytes: 0 });
    const tile = store.cachePath('iiif', 'ab', 'tile');
    expect(await store.readCache(tile)).toBeUndefined();
    await store.putCache(tile, Buffer.from('pixels'));
    expect((await store.readCache(tile))?.toString()).toBe('pixels');
    // An operator empties the cache (or another server's sweep takes the file).
    fs.rmSync(path.join(cacheDir, 'iiif'), { recursive: true });
    expect(await store.readCache(tile)).toBeUndefined();
    await store.putCache(tile, Buffer.from('pixels again'));
    expect((await store.readCache(tile))?.toString()).toBe('pixels again');
    await store.close();
  });

  it('reports a background cache write that fails', async () => {
    const errors: unknown[] = [];
    const store = new FileStore(dataDir, { maxBytes: 0, onError: (err) => errors.push(err) });
    fs.writeFileSync(path.join(cacheDir, 'iiif'), 'a file where the folder would go');
    const tile = store.cachePath('iiif', 'ab', 'tile');
    store.putCacheInBackground(tile, Buffer.from('pixels'));
    await store.close();
    expect(errors).toEqual([expect.objectContaining({ code: 'ENOTDIR' })]);
  });

  it('has no cap with PIM_CACHE_MAX_MB=0', async () => {
    const store = new FileStore(dataDir, { maxBytes: 0, delayMs: 0 });
    const old = cached('iiif/ab/old', 10, 2 * HOUR);
    for (let i = 0; i < 5; i++) await store.putCache(store.cachePath('iiif', 'ab', `tile${i}`), Buffer.alloc(1000));
    await store.readCache(old);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(remaining()).toHaveLength(6);
    expect(Date.now() - fs.statSync(old).mtimeMs).toBeGreaterThan(HOUR);
  });
});

describe('derivatives kept in memory (PIM_CACHE_MEMORY_MB)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-hot-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('answers a derivative read once from memory, even after its file is gone from disk', async () => {
    const store = new FileStore(dataDir, { maxBytes: 0, memoryBytes: 1000 });
    const tile = store.cachePath('iiif', 'ab', 'tile');
    fs.mkdirSync(path.dirname(tile), { recursive: true });
    fs.writeFileSync(tile, 'pixels');
    expect((await store.readCache(tile))?.toString()).toBe('pixels');
    // The bytes under a cache path never change, so a copy read before is still the derivative.
    fs.rmSync(tile);
    expect((await store.readCache(tile))?.toString()).toBe('pixels');
    expect(await store.readCache(store.cachePath('iiif', 'ab', 'never-made'))).toBeUndefined();
    await store.close();
  });

  it('keeps what it wrote and read most recently within its budget, and nothing larger than an eighth of it', async () => {
    const store = new FileStore(dataDir, { maxBytes: 0, memoryBytes: 800 });
    const tile = (i: number) => store.cachePath('iiif', 'ab', `tile${i}`);
    for (let i = 0; i < 10; i++) await store.putCache(tile(i), Buffer.alloc(100, i));
    await store.readCache(tile(2));
    await store.putCache(store.cachePath('iiif', 'ab', 'large'), Buffer.alloc(101));
    fs.rmSync(store.cacheDir, { recursive: true });
    const kept = [];
    for (let i = 0; i < 10; i++) if (await store.readCache(tile(i))) kept.push(i);
    // Tiles 2..9 were used last: 8 of 100 bytes fill the 800.
    expect(kept).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await store.readCache(store.cachePath('iiif', 'ab', 'large'))).toBeUndefined();
    await store.close();
  });

  it("refreshes the file's mtime at most once an hour when a copy in memory answers, so the sweep keeps a hot tile", async () => {
    const store = new FileStore(dataDir, { maxBytes: 1000, delayMs: 60_000, memoryBytes: 1000 });
    const tile = store.cachePath('iiif', 'ab', 'tile');
    await store.putCache(tile, Buffer.from('pixels'));
    const written = fs.statSync(tile).mtimeMs;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(written + HOUR / 2);
      await store.readCache(tile);
      expect(fs.statSync(tile).mtimeMs).toBe(written);
      vi.setSystemTime(written + 2 * HOUR);
      await store.readCache(tile);
      await vi.waitFor(() => expect(fs.statSync(tile).mtimeMs).toBeGreaterThanOrEqual(written + 2 * HOUR - 1000));
    } finally {
      vi.useRealTimers();
    }
    await store.close();
  });

  it('defaults to 64 MB; 0 keeps none', () => {
    expect(loadConfig({}).cacheMemoryBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ PIM_CACHE_MEMORY_MB: '0' }).cacheMemoryBytes).toBe(0);
    expect(() => loadConfig({ PIM_CACHE_MEMORY_MB: 'lots' })).toThrow(ConfigError);
  });
});

describe('PIM_CACHE_MAX_MB', () => {
  it('defaults to 2048 MB; 0 means no cap', () => {
    expect(loadConfig({}).cacheMaxBytes).toBe(2048 * 1024 * 1024);
    expect(loadConfig({ PIM_CACHE_MAX_MB: '512' }).cacheMaxBytes).toBe(512 * 1024 * 1024);
    expect(loadConfig({ PIM_CACHE_MAX_MB: '0' }).cacheMaxBytes).toBe(0);
  });

  it.each([
    ['-1', 'PIM_CACHE_MAX_MB must be 0 (no limit) or more megabytes'],
    ['1.5', 'PIM_CACHE_MAX_MB must be a whole number of megabytes (0: no limit)'],
    ['lots', 'PIM_CACHE_MAX_MB must be a number of megabytes (0: no limit)'],
  ])('refuses %s with a clear message', (value, message) => {
    expect(() => loadConfig({ PIM_CACHE_MAX_MB: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PIM_CACHE_MAX_MB: value })).toThrow(`PIM_CACHE_MAX_MB: ${message}`);
  });
});
