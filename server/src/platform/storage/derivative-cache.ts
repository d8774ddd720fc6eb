import type { FileHandle } from 'node:fs/promises';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * How stale a cached file's mtime may get before a read refreshes it. Many disks are mounted
 * noatime, so the sweeper cannot rely on atime; refreshing mtime on reads keeps "last used" on
 * disk (it survives restarts and is shared by several servers on one data dir, unlike an index in
 * memory), and doing it at most hourly keeps hot tiles from costing a metadata write per request.
 */
const TOUCH_AFTER_MS = 60 * 60 * 1000;
/** A sweep deletes down to this share of the cap, so the next few writes do not start another. */
const LOW_WATER = 0.8;
/** Writes that go over the cap wait this long for their sweep, so a burst of tiles is swept once. */
const DEFAULT_DELAY_MS = 10_000;

export interface DerivativeCacheOptions {
  /** The size cap of the cache in bytes; 0: no cap. */
  maxBytes: number;
  delayMs?: number;
  /**
   * Told when a sweep fails (the cache keeps working, only unbounded until the next sweep) and when
   * a write of FileStore.putCacheInBackground fails (the derivative is made again when next asked for).
   */
  onError?: (err: unknown) => void;
}

export interface SweepResult {
  keptFiles: number;
  keptBytes: number;
  removedFiles: number;
  removedBytes: number;
}

interface CachedFile {
  path: string;
  size: number;
  lastUse: number;
}

/**
 * Keeps the derivative cache (tiles, thumbnails: all rebuilt on demand) under its size cap by
 * deleting the least recently used files. Writes only add to an estimate of the size; the sweep,
 * which walks the directory, runs in the background once at start and after the estimate passes
 * the cap, never twice at once, and tolerates files vanishing under it (another server sweeping
 * the same dir, an operator emptying it).
 */
export class DerivativeCache {
  private estimate = 0;
  private writtenDuringSweep = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: DerivativeCacheOptions,
  ) {}

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The cache's size as last swept plus what was written since (the dashboard's figure). */
  get estimatedBytes(): number {
    return this.estimate;
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  /** Sweeps once, soon, to learn the size left by the previous run (and trim it if over the cap). */
  start(): void {
    this.schedule();
  }

  /** A file of this size was put into the cache. */
  written(bytes: number): void {
    this.estimate += bytes;
    if (this.running) this.writtenDuringSweep += bytes;
    else if (this.estimate > this.options.maxBytes) this.schedule();
  }

  /**
   * A cached file was read (`mtimeMs` from its stat): refresh its mtime when it is stale, so the
   * sweep keeps it. Gives the mtime the file has now.
   */
  async used(handle: FileHandle, mtimeMs: number): Promise<number> {
    if (!this.stale(mtimeMs)) return mtimeMs;
    const now = new Date();
    try {
      await handle.utimes(now, now);
      return now.getTime();
    } catch {
      // Recency is only a hint for the sweep: a read-only or odd filesystem must not fail the read.
      return mtimeMs;
    }
  }

  /**
   * A cached file was answered from a copy in memory that last marked it used at `usedMs`: refresh
   * its mtime when that is stale, in the background, as `used` does for a read. Gives the time to
   * note now.
   */
  usedInMemory(file: string, usedMs: number): number {
    if (!this.stale(usedMs)) return usedMs;
    const now = new Date();
    // A file swept or removed meanwhile is made again when next asked for; the copy stays right.
    fsp.utimes(file, now, now).catch(() => undefined);
    return now.getTime();
  }

  private stale(mtimeMs: number): boolean {
    return this.enabled && Date.now() - mtimeMs >= TOUCH_AFTER_MS;
  }

  /** Sweeps now, or joins the sweep already running. */
  sweep(): Promise<SweepResult> {
    this.running ??= this.trim().finally(() => {
      this.running = undefined;
      if (this.writtenDuringSweep > 0 && this.estimate > this.options.maxBytes) this.schedule();
    });
    return this.running;
  }

  /** Stops a sweep that is waiting to start (a running one finishes). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || !this.enabled) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sweep().catch((err: unknown) => this.options.onError?.(err));
    }, this.options.delayMs ?? DEFAULT_DELAY_MS);
    // A pending sweep must not keep a CLI command or a test process alive.
    this.timer.unref();
  }

  private async trim(): Promise<SweepResult> {
    this.writtenDuringSweep = 0;
    const files = await listFiles(this.dir);
    let kept = files.reduce((sum, f) => sum + f.size, 0);
    const result: SweepResult = { keptFiles: files.length, keptBytes: kept, removedFiles: 0, removedBytes: 0 };
    if (kept > this.options.maxBytes) {
      const target = this.options.maxBytes * LOW_WATER;
      files.sort((a, b) => a.lastUse - b.lastUse);
      let failure: unknown;
      for (const file of files) {
        if (kept <= target) break;
        try {
          await removeFile(file.path);
        } catch (err) {
          failure ??= err;
          continue;
        }
        kept -= file.size;
        result.removedFiles += 1;
        result.removedBytes += file.size;
      }
      if (failure) this.options.onError?.(failure);
    }
    result.keptFiles -= result.removedFiles;
    result.keptBytes = kept;
    this.estimate = kept + this.writtenDuringSweep;
    return result;
  }
}

/**
 * Every regular file under root with its size and last use. Symbolic links are neither followed
 * nor counted, so the sweep never reaches outside the cache.
 */
async function listFiles(root: string): Promise<CachedFile[]> {
  const found: CachedFile[] = [];
  const dirs = [root];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(unlessMissing([]));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) dirs.push(full);
      if (!entry.isFile()) continue;
      const stat = await fsp.lstat(full).catch(unlessMissing(undefined));
      // atime when the filesystem keeps it, else the mtime that reads refresh (see TOUCH_AFTER_MS).
      if (stat?.isFile()) found.push({ path: full, size: stat.size, lastUse: Math.max(stat.atimeMs, stat.mtimeMs) });
    }
  }
  return found;
}

/** Gone already (another sweep, an operator) is as good as deleted. */
async function removeFile(file: string): Promise<void> {
  await fsp.unlink(file).catch(unlessMissing(undefined));
}

function unlessMissing<T>(fallback: T): (err: NodeJS.ErrnoException) => T {
  return (err) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return fallback;
    throw err;
  };
}
