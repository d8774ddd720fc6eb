import fsp from 'node:fs/promises';
import type { FileStore } from '../storage/file-store.js';

/**
 * Reads a derivative that FileStore.putCache wrote (tiles, thumbnails). FileStore owns the cache
 * directory and its writes; this is its read side, kept here so the storage module stays as is.
 */
export async function readCached(files: FileStore, target: string): Promise<Buffer | undefined> {
  if (!target.startsWith(files.cacheDir)) throw new Error(`not a cache path: ${target}`);
  try {
    return await fsp.readFile(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
