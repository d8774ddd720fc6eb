import type { Database } from './database.js';
import { Lru } from '../lru.js';

/** The kinds of facts the server keeps in memory; migration 0021 says which tables tell which. */
export type ChangeTopic = 'auth' | 'acl' | 'sets' | 'images' | 'members';
const TOPICS: readonly ChangeTopic[] = ['auth', 'acl', 'sets', 'images', 'members'];
export const CHANGE_CHANNEL = 'pim_change';

/**
 * What changed, as versions: each notice on the channel pim_change (sent by the triggers of
 * migration 0021) bumps its topic's version, and a cache made from facts of that topic is stale
 * once the version moved. A notice this process sent arrives before the statement that sent it
 * returns, so a revoked key or ACL takes effect here at once; one from another process (several
 * servers on one PostgreSQL) within milliseconds. When notices may have been missed (a lost
 * listening connection) every topic is bumped.
 */
export class ChangeNotices {
  private readonly versions = new Map<ChangeTopic, number>(TOPICS.map((t) => [t, 0]));
  private stop: (() => Promise<void>) | null = null;

  /** Whether notices are heard: until then (and in CLI commands, which never start them) caches are passed by. */
  get live(): boolean {
    return this.stop !== null;
  }

  async start(database: Database): Promise<void> {
    this.stop = await database.watch(CHANGE_CHANNEL, (payload) => this.bump(payload), () => this.bumpAll());
  }

  async close(): Promise<void> {
    const stop = this.stop;
    this.stop = null;
    this.bumpAll();
    await stop?.();
  }

  bump(payload: string): void {
    const topic = payload as ChangeTopic;
    if (this.versions.has(topic)) this.versions.set(topic, this.versions.get(topic)! + 1);
    else this.bumpAll();
  }

  bumpAll(): void {
    for (const topic of TOPICS) this.bump(topic);
  }

  /** One number for the topics' versions together: it changes whenever one of them does. */
  stamp(topics: readonly ChangeTopic[]): number {
    let sum = 0;
    for (const topic of topics) sum += this.versions.get(topic)!;
    return sum;
  }
}

/**
 * A read-through cache of facts from `topics`, emptied when one of them changes. A value is kept
 * only if no notice arrived while it was read, so a read that raced a change is not kept. At most
 * `max` entries: beyond that the least recently used goes.
 */
export class TopicCache<K, V> {
  private readonly entries: Lru<K, V>;
  private stamp: number;

  constructor(
    private readonly notices: ChangeNotices,
    private readonly topics: readonly ChangeTopic[],
    max = 10_000,
  ) {
    this.entries = new Lru(max);
    this.stamp = notices.stamp(topics);
  }

  get(key: K): V | undefined {
    if (!this.notices.live) return undefined;
    this.refresh();
    return this.entries.get(key);
  }

  /** The cached value, or `load`'s, kept when it is not undefined. */
  async through(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const before = this.stamp;
    const value = await load();
    if (!this.notices.live) return value;
    this.refresh();
    if (value !== undefined && this.stamp === before) this.entries.set(key, value);
    return value;
  }

  private refresh(): void {
    const now = this.notices.stamp(this.topics);
    if (now === this.stamp) return;
    this.stamp = now;
    this.entries.clear();
  }
}
