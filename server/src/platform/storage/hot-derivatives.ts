import { Lru } from '../lru.js';

/** A derivative kept in memory, with when its cache file was last marked used. */
export interface HotDerivative {
  bytes: Buffer;
  usedMs: number;
}

/**
 * The derivatives read or written most recently, kept in memory up to `maxBytes` in all (by path,
 * weighed by their bytes), so a tile many viewers ask for costs no open, stat, read and close per
 * request. A derivative's cache path names its source's SHA-256 and the resolved request, so the
 * bytes under a path never change: a copy here stays right even when the file is swept from disk
 * (access is checked before the cache is read, on every request). A derivative larger than an
 * eighth of the budget is not kept, so one large image cannot push out every tile.
 */
export function hotDerivatives(maxBytes: number): Lru<string, HotDerivative> {
  return new Lru(maxBytes, 1 / 8);
}
