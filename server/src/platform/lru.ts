/**
 * A map that keeps what was used last within a budget: each entry weighs something (its bytes, or
 * 1 to count entries), and once the sum passes the limit the least recently used entries go. `get`
 * is a use, `peek` is not. An entry heavier than `maxShare` of the limit is not kept, so one large
 * value cannot push out everything else.
 */
export class Lru<K, V> {
  /** Least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private limit: number,
    private readonly maxShare = 1,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    if (weight > this.limit * this.maxShare) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    this.trim();
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** The keys, least recently used first. */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  /** The weight of what is kept now. */
  get weight(): number {
    return this.total;
  }

  /** A new limit; what passes it goes now. */
  resize(limit: number): void {
    this.limit = limit;
    this.trim();
  }

  private trim(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.limit) break;
      this.entries.delete(key);
      this.total -= entry.weight;
    }
  }
}
