import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { notFound, tooLarge } from '../errors.js';

export interface StoredBytes {
  sha256: string;
  sizeBytes: number;
}

/**
 * Content-addressed files under `<dataDir>/files/ab/cd/<sha256>`. A write goes to a temp file,
 * is fsynced and renamed into place, so a reader never sees a partial file; the same bytes are
 * stored once. Only this module touches the files on disk.
 */
export class FileStore {
  private readonly filesDir: string;
  private readonly tmpDir: string;
  readonly cacheDir: string;

  constructor(dataDir: string) {
    this.filesDir = path.join(dataDir, 'files');
    this.tmpDir = path.join(dataDir, 'tmp');
    this.cacheDir = path.join(dataDir, 'cache');
    for (const dir of [this.filesDir, this.tmpDir, this.cacheDir]) fs.mkdirSync(dir, { recursive: true });
  }

  /** Stores bytes; refuses (413) a stream longer than maxBytes and leaves nothing behind. */
  async put(source: Buffer | Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<StoredBytes> {
    const tmp = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
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
    try {
      // flush: fsync before close, so the rename below publishes bytes that are on disk.
      const sink = fs.createWriteStream(tmp, { flags: 'wx', flush: true });
      await pipeline(Buffer.isBuffer(source) ? Readable.from([source]) : source, measure, sink);
      const sha256 = hash.digest('hex');
      const target = this.pathOf(sha256);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
      return { sha256, sizeBytes: size };
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
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
    try {
      return await fsp.readFile(target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Writes a derivative into the cache atomically (temp + rename). */
  async putCache(target: string, bytes: Buffer): Promise<void> {
    const tmp = path.join(this.tmpDir, `cache-${Date.now()}-${randomBytes(6).toString('hex')}`);
    await fsp.writeFile(tmp, bytes);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmp, target);
  }
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / (1024 * 1024))} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
