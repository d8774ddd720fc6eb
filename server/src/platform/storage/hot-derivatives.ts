/** A derivative kept in memory, with when its cache file was last marked used. */
export interface HotDerivative {
  bytes: Buffer;
  usedMs: number;
}

/**
 * The derivatives read or written most recently, kept in memory up to `maxBytes` in all, so a tile
 * many viewers ask for costs no open, stat, read and close per request. A derivative's cache path
 * names its source's SHA-256 and the resolved request, so the bytes under a path never change: a
 * copy here stays right even when the file is swept from disk (access is checked before the cache
 * is read, on every request). A derivative larger than an eighth of the budget is not kept, so one
 * large image cannot push out every tile.
 */
export class HotDerivatives {
  /** In order of use, least recent first (a Map keeps insertion order). */
  private readonly entries = new Map<string, HotDerivative>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(target: string): HotDerivative | undefined {
    const entry = this.entries.get(target);
    if (entry) {
      this.entries.delete(target);
      this.entries.set(target, entry);
    }
    return entry;
  }

  put(target: string, bytes: Buffer, usedMs: number): void {
    if (bytes.length > this.maxBytes / 8) return;
    const before = this.entries.get(target);
    if (before) {
      this.entries.delete(target);
      this.bytes -= before.bytes.length;
    }
    this.entries.set(target, { bytes, usedMs });
    this.bytes += bytes.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes.length;
    }
  }

  /** The bytes held now. */
  get size(): number {
    return this.bytes;
  }
}
