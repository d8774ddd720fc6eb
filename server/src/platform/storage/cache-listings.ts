import fsp from 'node:fs/promises';
import path from 'node:path';
import { Lru } from '../lru.js';

/**
 * How long a folder's listing may answer "not there" by itself. Another server on the same data
 * dir may have written the file since; past this the folder is read again before a miss is
 * believed, so such a file is made twice at most within this time.
 */
const FRESH_MS = 60_000;
/** Folders kept (a derivative folder holds one source image's tiles and thumbnail). */
const MAX_FOLDERS = 2_000;

interface Listing {
  names: Set<string>;
  listedAt: number;
}

/**
 * The names in the derivative cache's folders, as this process last saw them: a folder is read
 * once when first asked about and kept up to date by this process's own writes, so a derivative
 * not made yet (every first tile of an image) costs no failed open, a round trip through libuv's
 * threads that took 0.3 ms of a cold tile's time (and ms under load). A hint only: a listed file
 * that turns out to be gone (swept, or the folder emptied by hand) is read as a miss and
 * forgotten, and the bytes under a cache path never change, so a file missed is only made again.
 */
export class CacheListings {
  private readonly folders: Lru<string, Promise<Listing>>;
  private readonly freshMs: number;

  constructor(options: { maxFolders?: number; freshMs?: number } = {}) {
    this.folders = new Lru(options.maxFolders ?? MAX_FOLDERS);
    this.freshMs = options.freshMs ?? FRESH_MS;
  }

  /** False when `file` is surely not there: not in its folder's listing, and the listing is fresh. */
  async mayHold(file: string): Promise<boolean> {
    const folder = path.dirname(file);
    const name = path.basename(file);
    try {
      const known = await (this.folders.get(folder) ?? this.list(folder));
      if (known.names.has(name)) return true;
      if (Date.now() - known.listedAt <= this.freshMs) return false;
      return (await this.list(folder)).names.has(name);
    } catch {
      // A folder that cannot be listed (permissions, a file in its place): let the open tell.
      return true;
    }
  }

  /** This process put `file` in place. */
  added(file: string): void {
    void this.folders.peek(path.dirname(file))?.then(
      (listing) => listing.names.add(path.basename(file)),
      () => {},
    );
  }

  /** `file` was listed but is gone. */
  removed(file: string): void {
    void this.folders.peek(path.dirname(file))?.then(
      (listing) => listing.names.delete(path.basename(file)),
      () => {},
    );
  }

  private list(folder: string): Promise<Listing> {
    const listedAt = Date.now();
    const listing = fsp.readdir(folder).then(
      (names) => ({ names: new Set(names), listedAt }),
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return { names: new Set<string>(), listedAt };
        throw err;
      },
    );
    this.folders.set(folder, listing);
    listing.catch(() => {
      if (this.folders.peek(folder) === listing) this.folders.delete(folder);
    });
    return listing;
  }
}
