import { type Kysely, type Transaction, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { Lru } from '../../../platform/lru.js';
import { TimeSlice } from '../turns.js';
import { BM25_K1, bm25Norms } from './fields.js';

/**
 * Posting blocks (migration 0017): a term's postings in a field of an index, in document order,
 * up to BLOCK_SIZE to a row. A posting is its document's gap from the one before (the first from
 * `first_doc`), its term frequency, its field's length and its document's language
 * (search_language.id) as varints: about 5 bytes, so the lists of a search come from PostgreSQL in a few
 * reads of a few megabytes and are scored in memory (list-search.ts). Weights are not stored:
 * they are BM25's from the frequency, the length and the index's average length of the moment,
 * as Lucene weighs at search time, so no reweigh ever rewrites the blocks.
 */
export const BLOCK_SIZE = 512;

/** Postings per chunk that a decoded list keeps the best weight of, so scoring skips chunks. */
export const CHUNK = 128;

export interface BlockPosting {
  doc: number;
  tf: number;
  length: number;
  /** search_language.id of the document's language; 0: none. */
  language: number;
}

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** Packs postings sorted by document: gaps, frequencies, lengths and languages, each a run of varints. */
export function encodeBlock(postings: BlockPosting[]): Buffer {
  const out: number[] = [];
  let previous = postings[0]!.doc;
  for (const p of postings) {
    writeVarint(out, p.doc - previous);
    previous = p.doc;
  }
  for (const p of postings) writeVarint(out, p.tf);
  for (const p of postings) writeVarint(out, p.length);
  for (const p of postings) writeVarint(out, p.language);
  return Buffer.from(out);
}

/** A block's postings, for the writes that merge into it. */
export function decodeBlock(firstDoc: number, n: number, data: Uint8Array): BlockPosting[] {
  const postings: BlockPosting[] = [];
  const reader = { at: 0 };
  let doc = firstDoc;
  for (let i = 0; i < n; i += 1) {
    doc += readVarint(data, reader);
    postings.push({ doc, tf: 0, length: 0, language: 0 });
  }
  for (const p of postings) p.tf = readVarint(data, reader);
  for (const p of postings) p.length = readVarint(data, reader);
  for (const p of postings) p.language = readVarint(data, reader);
  return postings;
}

function readVarint(data: Uint8Array, reader: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = data[reader.at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 0x80;
  }
}

/** A posting as a write of the store adds it. */
export interface NewPosting extends BlockPosting {
  termId: number;
  field: number;
}

interface BlockRow {
  term_id: number;
  field: number;
  first_doc: string;
  last_doc: string;
  n: number;
  /** node-postgres hands a Buffer, PGlite a Uint8Array. */
  data: Uint8Array;
}

const listKey = (termId: number, field: number) => `${termId}:${field}`;

/**
 * Adds postings to the index's blocks: per term and field, the block the new documents follow
 * (when not full) and any block among them are read, merged with the new postings and written
 * again as full blocks. New documents have the highest ids, so a write usually tops up the last
 * block of each of its lists.
 */
export async function addToBlocks(trx: Transaction<DB>, indexId: string, postings: NewPosting[]): Promise<void> {
  if (postings.length === 0) return;
  const byList = new Map<string, NewPosting[]>();
  for (const p of postings) {
    const key = listKey(p.termId, p.field);
    const list = byList.get(key);
    if (list) list.push(p);
    else byList.set(key, [p]);
  }
  const keys = [...byList.keys()].sort();
  const lists = keys.map((k) => byList.get(k)!.sort((a, b) => a.doc - b.doc));
  const existing = await sql<BlockRow>`
    select b.term_id, b.field, b.first_doc, b.last_doc, b.n, b.data
    from unnest(${lists.map((l) => l[0]!.termId)}::int[], ${lists.map((l) => l[0]!.field)}::smallint[],
      ${lists.map((l) => l[0]!.doc)}::bigint[], ${lists.map((l) => l.at(-1)!.doc)}::bigint[]) as x(t, f, lo, hi)
    cross join lateral (
      (select * from search_block where index_id = ${indexId} and term_id = x.t and field = x.f and first_doc < x.lo order by first_doc desc limit 1)
      union all
      (select * from search_block where index_id = ${indexId} and term_id = x.t and field = x.f and first_doc >= x.lo and first_doc <= x.hi)
    ) b`.execute(trx);
  // Thousands of blocks are decoded and encoded again: in slices, so requests get their turns.
  const slice = new TimeSlice();
  const merged = new Map<string, BlockPosting[]>();
  const dropped: BlockRow[] = [];
  for (const row of existing.rows) {
    await slice.check();
    const key = listKey(row.term_id, row.field);
    const lo = byList.get(key)![0]!.doc;
    // A full block wholly before the new documents stays as it is.
    if (row.n >= BLOCK_SIZE && Number(row.last_doc) < lo) continue;
    dropped.push(row);
    const into = merged.get(key) ?? [];
    into.push(...decodeBlock(Number(row.first_doc), row.n, row.data));
    merged.set(key, into);
  }
  const written: { termId: number; field: number; postings: BlockPosting[] }[] = [];
  for (const [i, key] of keys.entries()) {
    await slice.check();
    const fresh = lists[i]!;
    const all = [...(merged.get(key) ?? []), ...fresh].sort((a, b) => a.doc - b.doc);
    for (let at = 0; at < all.length; at += BLOCK_SIZE) written.push({ termId: fresh[0]!.termId, field: fresh[0]!.field, postings: all.slice(at, at + BLOCK_SIZE) });
  }
  await dropBlocks(trx, indexId, dropped);
  await writeBlocks(trx, indexId, written);
}

/**
 * Takes documents out of the index's blocks: `lists` names, per document, the terms and fields it
 * has postings in (read from search_posting before the documents go).
 */
export async function removeFromBlocks(trx: Transaction<DB>, indexId: string, lists: { termId: number; field: number; doc: number }[]): Promise<void> {
  if (lists.length === 0) return;
  const rows = await sql<BlockRow>`
    select distinct on (b.term_id, b.field, b.first_doc) b.term_id, b.field, b.first_doc, b.last_doc, b.n, b.data
    from unnest(${lists.map((l) => l.termId)}::int[], ${lists.map((l) => l.field)}::smallint[], ${lists.map((l) => l.doc)}::bigint[]) as x(t, f, d)
    cross join lateral (
      select * from search_block where index_id = ${indexId} and term_id = x.t and field = x.f and first_doc <= x.d order by first_doc desc limit 1
    ) b`.execute(trx);
  const gone = new Set(lists.map((l) => l.doc));
  const written: { termId: number; field: number; postings: BlockPosting[] }[] = [];
  const slice = new TimeSlice();
  for (const row of rows.rows) {
    await slice.check();
    const kept = decodeBlock(Number(row.first_doc), row.n, row.data).filter((p) => !gone.has(p.doc));
    if (kept.length) written.push({ termId: row.term_id, field: row.field, postings: kept });
  }
  await dropBlocks(trx, indexId, rows.rows);
  await writeBlocks(trx, indexId, written);
}

/** Blocks written or dropped per statement: each statement short, its parameters quick to send. */
const BLOCKS_PER_STATEMENT = 1_000;

async function dropBlocks(trx: Transaction<DB>, indexId: string, rows: BlockRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BLOCKS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + BLOCKS_PER_STATEMENT);
    await sql`
      delete from search_block b using unnest(${chunk.map((r) => r.term_id)}::int[], ${chunk.map((r) => r.field)}::smallint[], ${chunk.map((r) => r.first_doc)}::bigint[]) as x(t, f, d)
      where b.index_id = ${indexId} and b.term_id = x.t and b.field = x.f and b.first_doc = x.d`.execute(trx);
  }
}

async function writeBlocks(trx: Transaction<DB>, indexId: string, blocks: { termId: number; field: number; postings: BlockPosting[] }[]): Promise<void> {
  const slice = new TimeSlice();
  for (let i = 0; i < blocks.length; i += BLOCKS_PER_STATEMENT) {
    const chunk = blocks.slice(i, i + BLOCKS_PER_STATEMENT);
    const data: string[] = [];
    for (const block of chunk) {
      await slice.check();
      data.push(encodeBlock(block.postings).toString('hex'));
    }
    // Hex text: node-postgres and PGlite pass a text array alike, where a bytea array would differ.
    await sql`
      insert into search_block (index_id, term_id, field, first_doc, last_doc, n, data)
      select ${indexId}, t, f, a, z, n, decode(h, 'hex')
      from unnest(${chunk.map((b) => b.termId)}::int[], ${chunk.map((b) => b.field)}::smallint[], ${chunk.map((b) => b.postings[0]!.doc)}::bigint[],
        ${chunk.map((b) => b.postings.at(-1)!.doc)}::bigint[], ${chunk.map((b) => b.postings.length)}::int[],
        ${data}::text[]) as x(t, f, a, z, n, h)`.execute(trx);
  }
}

/** The ids of these languages (made when new); '' and null are 0. */
export async function languageIds(trx: Transaction<DB>, codes: (string | null)[]): Promise<Map<string, number>> {
  const named = [...new Set(codes.filter((c): c is string => Boolean(c)))].sort();
  const ids = new Map<string, number>([['', 0]]);
  if (named.length === 0) return ids;
  await sql`insert into search_language (code) select c from unnest(${named}::text[]) as x(c) order by c on conflict (code) do nothing`.execute(trx);
  const rows = await sql<{ id: number; code: string }>`select id, code from search_language where code = any(${named}::text[])`.execute(trx);
  for (const row of rows.rows) ids.set(row.code, row.id);
  return ids;
}

/** Marks a write of the index: what processes keep of its blocks is stale from now on. */
export async function bumpGeneration(trx: Transaction<DB>, indexId: string): Promise<void> {
  await sql`
    insert into search_generation (index_id, generation) values (${indexId}, 1)
    on conflict (index_id) do update set generation = search_generation.generation + 1`.execute(trx);
}

/** A list read and weighed for search: documents ascending, BM25 weights without idf, languages. */
export interface DecodedList {
  docs: Float64Array;
  weights: Float64Array;
  languages: Uint16Array;
  /** The best weight of each CHUNK postings. */
  chunkMax: Float64Array;
  maxWeight: number;
}

/**
 * The lists a process has read, while their index's generation holds: the words people search
 * for follow Zipf's law, so the common lists that cost most to read are the ones asked again.
 * Bounded by bytes (PIM_SEARCH_CACHE_MB, 512 by default: limitListCache), least recently used first out.
 */
class ListCache {
  private readonly entries: Lru<string, DecodedList>;
  private readonly generations = new Map<string, string>();

  constructor(limit: number) {
    this.entries = new Lru(limit);
  }

  resize(limit: number): void {
    this.entries.resize(limit);
  }

  get(indexId: string, generation: string, key: string): DecodedList | undefined {
    return this.entries.get(`${indexId}:${generation}:${key}`);
  }

  has(indexId: string, generation: string, key: string): boolean {
    return this.entries.peek(`${indexId}:${generation}:${key}`) !== undefined;
  }

  set(indexId: string, generation: string, key: string, list: DecodedList): void {
    if (this.generations.get(indexId) !== generation) {
      // A newer write: what was kept of the index before it is of no use.
      for (const id of this.entries.keys()) if (id.startsWith(`${indexId}:`)) this.entries.delete(id);
      this.generations.set(indexId, generation);
    }
    const bytes = list.docs.byteLength + list.weights.byteLength + list.languages.byteLength + list.chunkMax.byteLength;
    this.entries.set(`${indexId}:${generation}:${key}`, list, bytes);
  }
}

const cache = new ListCache(512 * 1024 * 1024);

/** How many bytes of decoded lists this process keeps (PIM_SEARCH_CACHE_MB; 0: none). */
export function limitListCache(bytes: number): void {
  cache.resize(bytes);
}

/** Whether this process keeps the list, read at this generation of the index. */
export function isKept(indexId: string, generation: string, list: { termId: number; field: number }): boolean {
  return cache.has(indexId, generation, listKey(list.termId, list.field));
}

/**
 * The lists of these terms and fields in an index, weighed with the index's average field
 * lengths (`averages[field]`): from the cache when the index was not written since, else read.
 */
export async function readLists(
  db: Kysely<DB>,
  indexId: string,
  generation: string,
  wanted: { termId: number; field: number }[],
  averages: number[],
): Promise<Map<string, DecodedList>> {
  const found = new Map<string, DecodedList>();
  const missing: { termId: number; field: number }[] = [];
  for (const w of wanted) {
    const key = listKey(w.termId, w.field);
    const hit = cache.get(indexId, generation, key);
    if (hit) found.set(key, hit);
    else missing.push(w);
  }
  if (missing.length === 0) return found;
  const rows = await sql<BlockRow>`
    select b.term_id, b.field, b.first_doc, b.n, b.data
    from unnest(${missing.map((m) => m.termId)}::int[], ${missing.map((m) => m.field)}::smallint[]) as x(t, f)
    join search_block b on b.index_id = ${indexId} and b.term_id = x.t and b.field = x.f
    order by b.term_id, b.field, b.first_doc`.execute(db);
  const byList = new Map<string, BlockRow[]>();
  for (const row of rows.rows) {
    const key = listKey(row.term_id, row.field);
    const list = byList.get(key);
    if (list) list.push(row);
    else byList.set(key, [row]);
  }
  for (const m of missing) {
    const key = listKey(m.termId, m.field);
    const list = decodeList(byList.get(key) ?? [], averages[m.field] ?? 0);
    cache.set(indexId, generation, key, list);
    found.set(key, list);
  }
  return found;
}

/**
 * The postings of a few documents in these lists, weighed as readLists weighs: only the blocks
 * whose range holds one of `docs` (ascending) are read, their headers first. Not kept: the
 * lists are not whole.
 */
export async function readListsAt(
  db: Kysely<DB>,
  indexId: string,
  wanted: { termId: number; field: number }[],
  averages: number[],
  docs: Float64Array,
): Promise<Map<string, DecodedList>> {
  const headers = await sql<{ term_id: number; field: number; first_doc: string; last_doc: string }>`
    select b.term_id, b.field, b.first_doc, b.last_doc
    from unnest(${wanted.map((w) => w.termId)}::int[], ${wanted.map((w) => w.field)}::smallint[]) as x(t, f)
    join search_block b on b.index_id = ${indexId} and b.term_id = x.t and b.field = x.f
    order by b.term_id, b.field, b.first_doc`.execute(db);
  const chosen: { t: number; f: number; first: string }[] = [];
  let key = '';
  let at = 0;
  for (const h of headers.rows) {
    const k = listKey(h.term_id, h.field);
    if (k !== key) {
      key = k;
      at = 0;
    }
    const first = Number(h.first_doc);
    const last = Number(h.last_doc);
    while (at < docs.length && docs[at]! < first) at += 1;
    if (at < docs.length && docs[at]! <= last) chosen.push({ t: h.term_id, f: h.field, first: h.first_doc });
  }
  const rows = chosen.length
    ? await sql<BlockRow>`
        select b.term_id, b.field, b.first_doc, b.n, b.data
        from unnest(${chosen.map((c) => c.t)}::int[], ${chosen.map((c) => c.f)}::smallint[], ${chosen.map((c) => c.first)}::bigint[]) as x(t, f, a)
        join search_block b on b.index_id = ${indexId} and b.term_id = x.t and b.field = x.f and b.first_doc = x.a
        order by b.term_id, b.field, b.first_doc`.execute(db)
    : { rows: [] as BlockRow[] };
  const byList = new Map<string, BlockRow[]>();
  for (const row of rows.rows) {
    const k = listKey(row.term_id, row.field);
    const list = byList.get(k);
    if (list) list.push(row);
    else byList.set(k, [row]);
  }
  return new Map(wanted.map((w) => [listKey(w.termId, w.field), decodeList(byList.get(listKey(w.termId, w.field)) ?? [], averages[w.field] ?? 0)]));
}

/** Reads `count` varints from `at` into `out`; where they end. Runs once per posting of every list a search reads. */
function readRun(data: Uint8Array, at: number, count: number, out: Float64Array): number {
  let p = at;
  for (let i = 0; i < count; i += 1) {
    let byte = data[p++]!;
    let value = byte & 0x7f;
    let scale = 0x80;
    while (byte >= 0x80) {
      byte = data[p++]!;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    out[i] = value;
  }
  return p;
}

function decodeList(blocks: BlockRow[], average: number): DecodedList {
  const n = blocks.reduce((sum, b) => sum + b.n, 0);
  const docs = new Float64Array(n);
  const weights = new Float64Array(n);
  const languages = new Uint16Array(n);
  const gaps = new Float64Array(BLOCK_SIZE);
  const tfs = new Float64Array(BLOCK_SIZE);
  const lengths = new Float64Array(BLOCK_SIZE);
  // bm25Weight, inline.
  const { base, perLength } = bm25Norms(average);
  let at = 0;
  for (const block of blocks) {
    const data = block.data;
    const count = block.n;
    let p = 0;
    let doc = Number(block.first_doc);
    p = readRun(data, p, count, gaps);
    for (let i = 0; i < count; i += 1) docs[at + i] = doc += gaps[i]!;
    p = readRun(data, p, count, tfs);
    p = readRun(data, p, count, lengths);
    for (let i = 0; i < count; i += 1) weights[at + i] = (tfs[i]! * (BM25_K1 + 1)) / (tfs[i]! + base + perLength * lengths[i]!);
    p = readRun(data, p, count, gaps);
    for (let i = 0; i < count; i += 1) languages[at + i] = gaps[i]!;
    at += count;
  }
  const chunkMax = new Float64Array(Math.ceil(n / CHUNK));
  let maxWeight = 0;
  for (let c = 0; c < chunkMax.length; c += 1) {
    let best = 0;
    const end = Math.min(n, (c + 1) * CHUNK);
    for (let i = c * CHUNK; i < end; i += 1) if (weights[i]! > best) best = weights[i]!;
    chunkMax[c] = best;
    if (best > maxWeight) maxWeight = best;
  }
  return { docs, weights, languages, chunkMax, maxWeight };
}
