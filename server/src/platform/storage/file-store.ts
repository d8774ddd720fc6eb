import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { notFound, tooLarge } from '../errors.js';
import { CacheListings } from './cache-listings.js';
import { DerivativeCache, type DerivativeCacheOptions } from './derivative-cache.js';
import type { Lru } from '../lru.js';
import { type HotDerivative, hotDerivatives } from './hot-derivatives.js';
import { StagingArea, type StagingLeftover, sweepStaging } from './staging.js';

export interface StoredBytes {
  sha256: string;
  sizeBytes: number;
}

/** Bytes written to this process's folder in `<dataDir>/tmp` and measured, not in the store yet: check them, then publish or discard. */
export interface StagedFile extends StoredBytes {
  /** The temp file, readable until it is published or discarded. */
  readonly path: string;
  read(): Promise<Buffer>;
  /** Up to `length` bytes from `offset` (fewer at the end of the file), to check a part of a large file. */
  readRange(offset: number, length: number): Promise<Buffer>;
  /** Removes the temp file; once published there is none, and this does nothing. */
  discard(): Promise<void>;
}

/**
 * Staged files on their way into the store, handed to the transaction that records them
 * (`publishWithRows` in stored-file-repository.ts), which holds their content locks meanwhile.
 */
export interface Publication {
  sha256s: string[];
  /** Moves the staged files into the store. */
  publish(): Promise<void>;
  /** Deletes a stored file (false: it was not there). */
  remove(sha256: string): Promise<boolean>;
}

/**
 * Content-addressed files under `<dataDir>/files/ab/cd/<sha256>`. A write is staged in a temp
 * file (fsynced) and only renamed into place by the transaction that records it, so a reader
 * never sees a partial file and a refused upload leaves nothing; the same bytes are stored once.
 * Only this module touches the files on disk.
 */
export class FileStore {
  private readonly filesDir: string;
  private readonly tmpDir: string;
  /** This process's folder in tmpDir, where everything it writes is staged first. */
  private readonly staging: StagingArea;
  readonly cacheDir: string;
  /** Keeps cache/ under its size cap; none without a cap. */
  private readonly derivatives: DerivativeCache | undefined;
  /** The derivatives used most recently, in memory; none without a budget. */
  private readonly hot: Lru<string, HotDerivative> | undefined;
  /** Derivatives whose cache files are being written, by path: readCache answers from these meanwhile. */
  private readonly cacheWrites = new Map<string, { bytes: Buffer; written: Promise<void> }>();
  /** What the cache's folders hold, so a derivative not made yet costs no failed open. */
  private readonly listings = new CacheListings();
  private readonly onCacheError: ((err: unknown) => void) | undefined;

  constructor(dataDir: string, cache?: DerivativeCacheOptions & { memoryBytes?: number }) {
    this.filesDir = path.join(dataDir, 'files');
    this.tmpDir = path.join(dataDir, 'tmp');
    this.cacheDir = path.join(dataDir, 'cache');
    this.derivatives = cache?.maxBytes ? new DerivativeCache(this.cacheDir, cache) : undefined;
    this.derivatives?.start();
    this.hot = cache?.memoryBytes ? hotDerivatives(cache.memoryBytes) : undefined;
    this.onCacheError = cache?.onError;
    for (const dir of [this.filesDir, this.tmpDir, this.cacheDir]) fs.mkdirSync(dir, { recursive: true });
    this.staging = new StagingArea(this.tmpDir);
  }

  /**
   * Removes (dry run: lists) what crashed processes left in `<dataDir>/tmp`: every staging folder
   * whose process has ended, whatever its age, while the folders of live processes sharing the
   * data dir stay. The server runs it at start, `pim files gc` too.
   */
  sweepStaging(dryRun = false): StagingLeftover[] {
    return sweepStaging(this.tmpDir, { dryRun, keep: this.staging.name });
  }

  /**
   * What the data dir holds and has left: the derivative cache's size and cap (null without a cap,
   * when nothing measures it), and the free and total bytes of the disk under the data dir.
   */
  async usage(): Promise<{ cacheBytes: number | null; cacheLimitBytes: number | null; diskFreeBytes: number | null; diskTotalBytes: number | null }> {
    const disk = await fsp.statfs(this.filesDir).catch(() => undefined);
    return {
      cacheBytes: this.derivatives ? this.derivatives.estimatedBytes : null,
      cacheLimitBytes: this.derivatives ? this.derivatives.maxBytes : null,
      diskFreeBytes: disk ? disk.bavail * disk.bsize : null,
      diskTotalBytes: disk ? disk.blocks * disk.bsize : null,
    };
  }

  /**
   * Waits for the cache writes under way, then stops the staging folder's heartbeat and removes the
   * folder: call once no request stages any more.
   */
  async close(): Promise<void> {
    this.derivatives?.stop();
    await this.cacheWritesDone();
    this.staging.close();
  }

  /** Settles once the cache writes under way now have ended, each either way. */
  async cacheWritesDone(): Promise<void> {
    await Promise.allSettled([...this.cacheWrites.values()].map((w) => w.written));
  }

  /**
   * Writes bytes to a temp file, measuring and hashing them; refuses (413) a stream longer than
   * maxBytes and leaves nothing behind. The caller publishes or discards the result.
   */
  async stage(source: Buffer | Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<StagedFile> {
    const tmp = path.join(this.staging.path(), `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(tooLarge(`The file is larger than the limit of ${formatBytes(maxBytes)}.`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // flush: fsync before close, so a later rename publishes bytes that are on disk.
    const sink = fs.createWriteStream(tmp, { flags: 'wx', flush: true });
    try {
      await pipeline(Buffer.isBuffer(source) ? Readable.from([source]) : source, measure, sink);
    } catch (err) {
      // The pipeline fails (a stream too long) before the file stream has opened and closed its
      // file: removed sooner, the file would be made after the removal and left behind.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    return {
      sha256: hash.digest('hex'),
      sizeBytes: size,
      path: tmp,
      read: () => fsp.readFile(tmp),
      readRange: (offset, length) => readRange(tmp, offset, length),
      discard: () => fsp.rm(tmp, { force: true }),
    };
  }

  /** Stages a copy of a file written elsewhere in the data dir (a job's output in its work folder). */
  stageFile(file: string, maxBytes = Number.POSITIVE_INFINITY): Promise<StagedFile> {
    return this.stage(fs.createReadStream(file), maxBytes);
  }

  /**
   * A new empty folder in this process's staging area, for a job's temporary files: removed with
   * removeWorkDir, with the staging area when the store closes, or by the sweep after a crash.
   */
  makeWorkDir(prefix: string): Promise<string> {
    return fsp.mkdtemp(path.join(this.staging.path(), `${prefix}-`));
  }

  async removeWorkDir(dir: string): Promise<void> {
    if (path.dirname(dir) !== this.staging.path()) throw new Error(`not a work folder of this process: ${dir}`);
    await fsp.rm(dir, { recursive: true, force: true });
  }

  /** The staged files as a publication for the transaction that records them. */
  publication(staged: StagedFile[]): Publication {
    return {
      sha256s: staged.map((f) => f.sha256),
      publish: () => this.publish(staged),
      remove: (sha256) => this.remove(sha256),
    };
  }

  /**
   * Renames staged files into place. A file already there holds the same bytes (same SHA-256), so
   * its temp is dropped instead. Callers hold the files' content locks, so no removal of the same
   * file runs meanwhile.
   */
  async publish(staged: StagedFile[]): Promise<void> {
    for (const file of staged) {
      const target = this.pathOf(file.sha256);
      const dir = path.dirname(target);
      await fsp.mkdir(dir, { recursive: true });
      if (await exists(target)) {
        await file.discard();
        continue;
      }
      await fsp.rename(file.path, target);
      // The rename itself on disk before the rows naming the file commit.
      await syncDirectory(dir);
    }
  }

  /** Deletes a stored file; callers hold its content lock and know that no row names it. */
  async remove(sha256: string): Promise<boolean> {
    try {
      await fsp.unlink(this.pathOf(sha256));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  /** Every file in the store, for `pim files gc`. */
  async *storedFiles(): AsyncGenerator<StoredBytes> {
    for (const ab of await fsp.readdir(this.filesDir)) {
      for (const cd of await fsp.readdir(path.join(this.filesDir, ab)).catch(() => [])) {
        for (const name of await fsp.readdir(path.join(this.filesDir, ab, cd)).catch(() => [])) {
          if (!/^[0-9a-f]{64}$/.test(name)) continue;
          const stat = await fsp.stat(path.join(this.filesDir, ab, cd, name)).catch(() => undefined);
          if (stat?.isFile()) yield { sha256: name, sizeBytes: stat.size };
        }
      }
    }
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.filesDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async read(sha256: string): Promise<Buffer> {
    try {
      return await fsp.readFile(this.pathOf(sha256));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('The stored file is missing.');
      throw err;
    }
  }

  stream(sha256: string): fs.ReadStream {
    return fs.createReadStream(this.pathOf(sha256));
  }

  /** A cache file path for a derivative (thumbnails, tiles); the caller writes it atomically. */
  cachePath(...parts: string[]): string {
    return path.join(this.cacheDir, ...parts);
  }

  /** A derivative from the cache, or undefined when it has not been made yet. */
  async readCache(target: string): Promise<Buffer | undefined> {
    if (!target.startsWith(this.cacheDir + path.sep)) throw new Error(`not a cache path: ${target}`);
    const writing = this.cacheWrites.get(target);
    if (writing) return writing.bytes;
    const copy = this.hot?.get(target);
    if (copy) {
      if (this.derivatives) copy.usedMs = this.derivatives.usedInMemory(target, copy.usedMs);
      return copy.bytes;
    }
    if (!(await this.listings.mayHold(target))) return undefined;
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(target, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.listings.removed(target);
      return undefined;
    }
    try {
      // One fstat for the size and the cache's "last used" (readFile would make its own).
      const stats = await handle.stat();
      const bytes = Buffer.allocUnsafe(stats.size);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      const usedMs = this.derivatives ? await this.derivatives.used(handle, stats.mtimeMs) : stats.mtimeMs;
      if (read < bytes.length) return bytes.subarray(0, read);
      this.hot?.set(target, { bytes, usedMs }, bytes.length);
      return bytes;
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes a derivative into the cache atomically (temp + rename). readCache finds it from this
   * call on, from memory until the file is in place; a second write of the same path joins the first.
   */
  putCache(target: string, bytes: Buffer): Promise<void> {
    const under = this.cacheWrites.get(target);
    if (under) return under.written;
    const written = this.writeCache(target, bytes).finally(() => this.cacheWrites.delete(target));
    this.cacheWrites.set(target, { bytes, written });
    return written;
  }

  /**
   * putCache for a caller that answers without waiting for the disk (a rendered tile: its client
   * need not wait for five file operations). A failure goes to the cache's onError, and the
   * derivative is made again when next asked for; close() waits for these writes.
   */
  putCacheInBackground(target: string, bytes: Buffer): void {
    this.putCache(target, bytes).catch((err: unknown) => this.onCacheError?.(err));
  }

  private async writeCache(target: string, bytes: Buffer): Promise<void> {
    const tmp = path.join(this.staging.path(), `cache-${Date.now()}-${randomBytes(6).toString('hex')}`);
    await fsp.writeFile(tmp, bytes);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmp, target);
    this.listings.added(target);
    this.derivatives?.written(bytes.length);
    this.hot?.set(target, { bytes, usedMs: Date.now() }, bytes.length);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fsp.stat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

async function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / (1024 * 1024))} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
