import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { Lru } from '../../../platform/lru.js';
import type { ScoringClause } from './compile.js';
import { BLOCK_SIZE, CHUNK, type DecodedList, isKept, readLists, readListsAt } from './blocks.js';
import { FIELD_CODES, bm25Idf } from './fields.js';
import { statistics } from './scoring.js';

/** A searched index with the generation its blocks are read at. */
export interface BlockedIndex {
  id: string;
  generation: string;
}

/** One list of a search: its postings in every searched index, and what a unit of weight is worth. */
interface Lane {
  slot: number;
  field: number;
  coefficient: number;
  docs: Float64Array;
  weights: Float64Array;
  languages: Uint16Array;
  chunkMax: Float64Array;
  /** The most this list adds to a score. */
  most: number;
}

export interface ListFilter {
  /** search_language ids a document must be in (null: any). */
  languages: Set<number> | null;
  /** The matches, listed beforehand, ascending (null: every document in a list matches). */
  members: Float64Array | null;
}

/** Matches at most this many times fewer than the postings of the lists are looked up one by one. */
const FEW_MEMBERS = 8;

/** Listed matches per block of every list below which only their blocks are read. */
export const FEW_PER_BLOCK = 0.5;

/**
 * Top-k by BM25 over posting blocks, in memory. The lists come whole from the blocks (or the
 * process's cache of them), and the documents are visited in id order (MaxScore): the lists
 * whose best weights together cannot lift a document past the k-th best so far are not walked,
 * only looked into for documents the others bring; a document whose lists so far leave it short
 * is dropped before the rest are looked into; and while one list is walked alone, its chunks
 * whose best weight cannot reach are skipped whole. Scores are exactly TopK's (scoring.ts).
 */
export class ListSearch {
  private lanes: Lane[] = [];
  /** Per slot (clause and group): its clause's scoring and where it sits in the per-document sheet. */
  private slots: { sumFields: boolean }[] = [];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clauses: ScoringClause[],
  ) {}

  /**
   * Reads the lists. With `members` (the matches, listed beforehand, ascending) few beside a
   * list's postings, only the blocks holding them are read.
   */
  async prepare(indices: BlockedIndex[], members: Float64Array | null = null, matchesPerBlock = FEW_PER_BLOCK): Promise<void> {
    const termIds = [...new Set(this.clauses.flatMap((c) => c.groups.flatMap((g) => g.variants.map((v) => v.termId))))];
    const { docCount, averages, df: dfOf } = await statistics(this.db, indices.map((i) => i.id), termIds);
    const wanted: { slot: number; field: number; termId: number; coefficient: number }[] = [];
    this.clauses.forEach((clause) =>
      clause.groups.forEach((group) => {
        const slot = this.slots.length;
        this.slots.push({ sumFields: clause.sumFields });
        for (const variant of group.variants) {
          for (const f of clause.fields) {
            const field = FIELD_CODES[f.field];
            const n = dfOf.get(`${variant.termId}:${field}`) ?? 0;
            if (n === 0) continue;
            wanted.push({ slot, field, termId: variant.termId, coefficient: clause.boost * f.boost * variant.factor * bm25Idf(docCount.get(field) ?? n, n) });
          }
        }
      }),
    );
    const keys = [...new Map(wanted.map((w) => [`${w.termId}:${w.field}`, { termId: w.termId, field: w.field }])).values()];
    // A list with fewer matches than half its blocks, not kept already: the matches' blocks alone
    // (a phrase of common words found in a few dozen pages). More would touch most blocks anyway:
    // such a list is read whole then, and kept.
    const isFew = (indexId: string, generation: string, key: { termId: number; field: number }) =>
      members !== null &&
      members.length < matchesPerBlock * ((dfOf.get(`${key.termId}:${key.field}`) ?? 0) / BLOCK_SIZE) &&
      !isKept(indexId, generation, key);
    const perIndex = await Promise.all(
      indices.map(async (index) => {
        const averagesOf = averages.get(index.id) ?? [0, 0, 0];
        const few = keys.filter((key) => isFew(index.id, index.generation, key));
        const whole = keys.filter((key) => !few.includes(key));
        const [wholeLists, fewLists] = await Promise.all([
          readLists(this.db, index.id, index.generation, whole, averagesOf),
          few.length ? readListsAt(this.db, index.id, few, averagesOf, members!) : Promise.resolve(new Map<string, DecodedList>()),
        ]);
        return new Map([...wholeLists, ...fewLists]);
      }),
    );
    for (const w of wanted) {
      const pieces = perIndex.map((lists) => lists.get(`${w.termId}:${w.field}`)!).filter((l) => l && l.docs.length > 0);
      if (pieces.length === 0) continue;
      const list = pieces.length === 1 ? pieces[0]! : mergeLists(pieces);
      this.lanes.push({ slot: w.slot, field: w.field, coefficient: w.coefficient, ...list, most: list.maxWeight * w.coefficient });
    }
  }

  /** The matches per language of a query every document in a list matches. */
  count(filter: ListFilter): Map<number, number> {
    const byLanguage = new Map<number, number>();
    const counts = new Float64Array(65_536);
    if (this.lanes.length === 1) {
      const lane = this.lanes[0]!;
      for (let i = 0; i < lane.docs.length; i += 1) {
        const language = lane.languages[i]!;
        if (!filter.languages || filter.languages.has(language)) counts[language]! += 1;
      }
    } else if (this.lanes.length > 1) {
      let low = Infinity;
      let high = -Infinity;
      for (const lane of this.lanes) {
        low = Math.min(low, lane.docs[0]!);
        high = Math.max(high, lane.docs.at(-1)!);
      }
      // A bit per document id between the lowest and the highest: a document counts once, whatever lists hold it.
      const seen = new Uint8Array(Math.ceil((high - low + 1) / 8));
      for (const lane of this.lanes) {
        const { docs, languages } = lane;
        for (let i = 0; i < docs.length; i += 1) {
          const at = docs[i]! - low;
          const byte = at >>> 3;
          const bit = 1 << (at & 7);
          if (seen[byte]! & bit) continue;
          seen[byte]! |= bit;
          const language = languages[i]!;
          if (!filter.languages || filter.languages.has(language)) counts[language]! += 1;
        }
      }
    }
    counts.forEach((n, language) => {
      if (n > 0) byLanguage.set(language, n);
    });
    return byLanguage;
  }

  /** The best k matches, best first (ties: lower document id first). */
  best(k: number, filter: ListFilter): { docId: string; score: number }[] {
    const lanes = [...this.lanes].sort((a, b) => a.most - b.most);
    const m = lanes.length;
    if (m === 0 || k === 0) return [];
    const walked = lanes.reduce((sum, lane) => sum + lane.docs.length, 0);
    if (filter.members && filter.members.length * FEW_MEMBERS < walked) return this.bestOfMembers(k, filter.members);
    // upTo[i]: the most lanes 0..i add together.
    const upTo = new Float64Array(m);
    lanes.forEach((lane, i) => (upTo[i] = (i > 0 ? upTo[i - 1]! : 0) + lane.most));
    const at = new Int32Array(m);
    const sheet = new Float64Array(this.slots.length * 3);
    const touched: number[] = [];
    const heap = new ScoreHeap(k);
    let threshold = -Infinity;
    // Lanes below `essential` are not walked: together they cannot lift a document past the threshold.
    let essential = 0;
    let memberAt = 0;
    const members = filter.members;
    const allowed = filter.languages;
    for (;;) {
      let doc = Infinity;
      for (let i = essential; i < m; i += 1) {
        const lane = lanes[i]!;
        const p = at[i]!;
        if (p < lane.docs.length && lane.docs[p]! < doc) doc = lane.docs[p]!;
      }
      if (doc === Infinity) break;
      // One lane walked alone: skip its chunks that cannot reach the threshold.
      if (essential === m - 1 && heap.full) {
        const lane = lanes[m - 1]!;
        const rest = m > 1 ? upTo[m - 2]! : 0;
        let p = at[m - 1]!;
        while (p < lane.docs.length && lane.chunkMax[Math.floor(p / CHUNK)]! * lane.coefficient + rest <= threshold) p = (Math.floor(p / CHUNK) + 1) * CHUNK;
        if (p !== at[m - 1]) {
          at[m - 1] = p;
          continue;
        }
      }
      let partial = 0;
      let language = -1;
      for (let i = essential; i < m; i += 1) {
        const lane = lanes[i]!;
        const p = at[i]!;
        if (p < lane.docs.length && lane.docs[p] === doc) {
          const w = lane.weights[p]! * lane.coefficient;
          partial += w;
          language = lane.languages[p]!;
          note(sheet, touched, lane.slot * 3 + lane.field, w);
          at[i] = p + 1;
        }
      }
      let pass = !allowed || allowed.has(language);
      if (pass && members) {
        while (memberAt < members.length && members[memberAt]! < doc) memberAt += 1;
        pass = memberAt < members.length && members[memberAt] === doc;
      }
      if (pass && essential > 0 && partial + upTo[essential - 1]! <= threshold) pass = false;
      if (pass) {
        for (let i = essential - 1; i >= 0; i -= 1) {
          if (partial + upTo[i]! <= threshold) break;
          const lane = lanes[i]!;
          const p = seek(lane.docs, at[i]!, doc);
          at[i] = p;
          if (p < lane.docs.length && lane.docs[p] === doc) {
            const w = lane.weights[p]! * lane.coefficient;
            partial += w;
            note(sheet, touched, lane.slot * 3 + lane.field, w);
          }
        }
        // Ranked by the exact score; the sums above only bound it.
        if (partial > threshold) {
          const score = this.combine(sheet, touched);
          if (score > threshold || !heap.full) {
            heap.push(score, doc);
            if (heap.full) {
              threshold = heap.least();
              while (essential < m && upTo[essential]! <= threshold) essential += 1;
            }
          }
        }
      }
      for (const t of touched) sheet[t] = 0;
      touched.length = 0;
    }
    return heap.sorted().map((e) => ({ docId: String(e.doc), score: e.score }));
  }

  /**
   * The best k of listed matches that are few beside the lists: each is looked up in every list
   * (galloping forward, the matches in id order) instead of the lists being walked.
   */
  private bestOfMembers(k: number, members: Float64Array): { docId: string; score: number }[] {
    const lanes = this.lanes;
    const at = new Int32Array(lanes.length);
    const sheet = new Float64Array(this.slots.length * 3);
    const touched: number[] = [];
    const heap = new ScoreHeap(k);
    for (const doc of members) {
      for (let i = 0; i < lanes.length; i += 1) {
        const lane = lanes[i]!;
        const p = seek(lane.docs, at[i]!, doc);
        at[i] = p;
        if (p < lane.docs.length && lane.docs[p] === doc) note(sheet, touched, lane.slot * 3 + lane.field, lane.weights[p]! * lane.coefficient);
      }
      if (touched.length) heap.push(this.combine(sheet, touched), doc);
      for (const t of touched) sheet[t] = 0;
      touched.length = 0;
    }
    return heap.sorted().map((e) => ({ docId: String(e.doc), score: e.score }));
  }

  /** A document's score from its sheet: each group's best field (or the fields' sum), summed. */
  private combine(sheet: Float64Array, touched: number[]): number {
    let total = 0;
    // In slot order, as TopK sums its groups: the same additions in the same order.
    const slotsSeen = [...new Set(touched.map((t) => Math.floor(t / 3)))].sort((a, b) => a - b);
    for (const slot of slotsSeen) {
      const a = sheet[slot * 3]!;
      const b = sheet[slot * 3 + 1]!;
      const c = sheet[slot * 3 + 2]!;
      total += this.slots[slot]!.sumFields ? a + b + c : Math.max(a, b, c);
    }
    return total;
  }
}

/** The best weight of a group's variants in one field (TopK's scoreOf: the max per field). */
function note(sheet: Float64Array, touched: number[], cell: number, w: number): void {
  if (sheet[cell] === 0) touched.push(cell);
  if (w > sheet[cell]!) sheet[cell] = w;
}

/** The first position at or after `from` whose document is at least `doc` (galloping). */
function seek(docs: Float64Array, from: number, doc: number): number {
  let low = from;
  let step = 1;
  let high = from;
  while (high < docs.length && docs[high]! < doc) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, docs.length);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (docs[mid]! < doc) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The lists of one term and field in several indices as one, in document order. */
function mergeLists(pieces: DecodedList[]): DecodedList {
  const n = pieces.reduce((sum, p) => sum + p.docs.length, 0);
  const order: [number, number][] = [];
  pieces.forEach((p, j) => p.docs.forEach((_, i) => order.push([j, i])));
  order.sort((a, b) => pieces[a[0]]!.docs[a[1]]! - pieces[b[0]]!.docs[b[1]]!);
  const docs = new Float64Array(n);
  const weights = new Float64Array(n);
  const languages = new Uint16Array(n);
  order.forEach(([j, i], at) => {
    docs[at] = pieces[j]!.docs[i]!;
    weights[at] = pieces[j]!.weights[i]!;
    languages[at] = pieces[j]!.languages[i]!;
  });
  const chunkMax = new Float64Array(Math.ceil(n / CHUNK));
  for (let i = 0; i < n; i += 1) chunkMax[Math.floor(i / CHUNK)] = Math.max(chunkMax[Math.floor(i / CHUNK)]!, weights[i]!);
  return { docs, weights, languages, chunkMax, maxWeight: Math.max(...pieces.map((p) => p.maxWeight)) };
}

/** The k best (score, doc) so far: a min-heap on score, the higher doc id the lesser among equals. */
class ScoreHeap {
  private readonly scores: number[] = [];
  private readonly docs: number[] = [];

  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.scores.length >= this.k;
  }

  least(): number {
    return this.scores[0]!;
  }

  private less(i: number, j: number): boolean {
    return this.scores[i]! < this.scores[j]! || (this.scores[i] === this.scores[j] && this.docs[i]! > this.docs[j]!);
  }

  private swap(i: number, j: number): void {
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
    [this.docs[i], this.docs[j]] = [this.docs[j]!, this.docs[i]!];
  }

  push(score: number, doc: number): void {
    if (this.full) {
      // Documents come in id order: an equal score does not displace an earlier document.
      if (score <= this.scores[0]!) return;
      this.scores[0] = score;
      this.docs[0] = doc;
      this.down(0);
      return;
    }
    this.scores.push(score);
    this.docs.push(doc);
    let i = this.scores.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(start: number): void {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < this.scores.length && this.less(l, least)) least = l;
      if (r < this.scores.length && this.less(r, least)) least = r;
      if (least === i) return;
      this.swap(i, least);
      i = least;
    }
  }

  sorted(): { score: number; doc: number }[] {
    return this.scores.map((score, i) => ({ score, doc: this.docs[i]! })).sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

/**
 * The searched indices with their generations, when every document of them is in blocks (null
 * otherwise: some were written before migration 0017 and wait for a reindex).
 */
export async function blockedIndices(db: Kysely<DB>, scope: { indices: { id: string }[] }): Promise<BlockedIndex[] | null> {
  const indexIds = scope.indices.map((i) => i.id);
  if (indexIds.length === 0) return null;
  const row = await sql<{ unblocked: boolean; generations: Record<string, string> | null }>`
    select exists (select 1 from search_unblocked where index_id = any(${indexIds}::uuid[])) as unblocked,
      (select json_object_agg(index_id, generation::text) from search_generation where index_id = any(${indexIds}::uuid[])) as generations`.execute(db);
  const { unblocked, generations } = row.rows[0]!;
  if (unblocked) return null;
  return indexIds.map((id) => ({ id, generation: generations?.[id] ?? '0' }));
}

/** search_language ids of these codes ('' or none: 0), and every id's code; null codes: just the latter. */
export async function languageIdsOf(db: Kysely<DB>, codes: string[] | null): Promise<{ ids: Set<number>; codes: Map<number, string> }> {
  const rows = await sql<{ id: number; code: string }>`select id, code from search_language`.execute(db);
  const byCode = new Map(rows.rows.map((r) => [r.code, r.id]));
  const names = new Map<number, string>([[0, ''], ...rows.rows.map((r) => [r.id, r.code] as [number, string])]);
  const ids = new Set<number>();
  for (const code of codes ?? []) {
    const id = code === '' ? 0 : byCode.get(code);
    if (id !== undefined) ids.add(id);
  }
  return { ids, codes: names };
}

/** A query's listed matches (ascending) and their count per language. */
export interface Listing {
  members: Float64Array;
  counted: Map<string, number>;
}

/**
 * The listed matches of recent queries, good while the generations of the indices they were
 * listed in hold: as Elasticsearch's request cache keeps a shard's results until its next
 * refresh. Phrases are asked as words are, the common ones again and again, and listing their
 * tens of thousands of matches is most of what they cost. At most 64 MB of matches.
 */
class ListingCache {
  private readonly entries = new Lru<string, Listing>(64 * 1024 * 1024);

  get(key: string): Listing | undefined {
    return this.entries.get(key);
  }

  set(key: string, listing: Listing): void {
    this.entries.set(key, listing, listing.members.byteLength + 64 * listing.counted.size + key.length);
  }
}

export const listings = new ListingCache();

/** The key of a listing: the indices at their generations and the statement's text and values. */
export function listingKey(indices: BlockedIndex[], statement: { sql: string; parameters: readonly unknown[] }): string {
  return JSON.stringify([indices.map((i) => [i.id, i.generation]), statement.sql, statement.parameters]);
}
