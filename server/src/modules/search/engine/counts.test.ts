import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchSource } from '@pim/contract';
import { type TestApp, createTestApp } from '../../../test-support/test-app.js';
import { parseSearchRequest } from '../dsl.js';
import type { IndexedDocument, SearchScope } from '../query.js';
import { countByLanguage, coverageOf } from './counts.js';
import { PgDocumentStore } from './pg-store.js';
import { runSearch } from './search.js';

/** A fixed pseudo-random sequence, so a failure can be run again. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = Array.from({ length: 40 }, (_, i) => `wort${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`);
const LANGUAGES = ['de', 'nl', 'fr', null] as const;
const FIELDS = ['text', 'htr', 'persons'];

interface Doc {
  id: string;
  sets: string[];
  language: string | null;
  words: Set<string>;
  source: SearchSource;
}

describe('match counts from the term statistics', () => {
  let t: TestApp;
  let index: { id: string; name: string };
  let setA: string;
  let setB: string;
  const docs = new Map<string, Doc>();
  let store: PgDocumentStore;

  function makeDoc(id: string, random: () => number, sets: string[]): Doc {
    const pick = () => WORDS[Math.floor(WORDS.length * random() ** 2)]!;
    const text = Array.from({ length: 2 + Math.floor(random() * 20) }, pick);
    // Some words only in the HTR or among the persons: a term counts once per document, whatever its fields.
    const htr = random() < 0.3 ? Array.from({ length: 1 + Math.floor(random() * 5) }, pick) : [];
    const persons = random() < 0.1 ? [pick()] : [];
    const language = LANGUAGES[Math.floor(random() * LANGUAGES.length)]!;
    const source: SearchSource = {
      imageUuid: id, imageSetUuid: sets, imageSet: sets.map(() => 'Set'), index: index.name, label: id, text: text.join(' '), htr: htr.join(' '),
      persons, language, pagenumber: 1, height: 10, width: 10, ocrConfidence: null, deskew: null, columnCount: null, lineCount: null,
      wordCount: text.length, date: new Date(0).toISOString(), thumbnail: '',
    };
    return { id, sets, language, words: new Set([...text, ...htr, ...persons]), source };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.database.db;
    const random = seeded(3);
    index = { id: randomUUID(), name: 'counted' };
    setA = randomUUID();
    setB = randomUUID();
    const fileId = randomUUID();
    await db.insertInto('search_index').values(index).execute();
    await db.insertInto('document_image_set').values([{ id: setA, name: 'A', search_index_id: index.id }, { id: setB, name: 'B', search_index_id: index.id }]).execute();
    await db.insertInto('stored_file').values({ id: fileId, sha256: 'x', size_bytes: 1, media_type: 'image/png', original_name: 'x.png' }).execute();
    store = new PgDocumentStore(db);
    const written: IndexedDocument[] = [];
    for (let i = 0; i < 240; i++) {
      const id = randomUUID();
      await db.insertInto('document_image').values({ id, file_id: fileId, label: id, width: 10, height: 10 }).execute();
      const doc = makeDoc(id, random, i % 10 === 0 ? [setA, setB] : i % 3 === 0 ? [setB] : [setA]);
      docs.set(id, doc);
      written.push({ id, source: doc.source });
    }
    for (let i = 0; i < written.length; i += 40) await store.upsert(index, written.slice(i, i + 40));
    // Changes after the first writing: some documents removed, some written again with other words and languages.
    const ids = [...docs.keys()];
    const removed = ids.filter((_, i) => i % 7 === 1);
    await store.remove(index, removed);
    for (const id of removed) docs.delete(id);
    const rewritten = ids.filter((_, i) => i % 5 === 2 && docs.has(id(i)));
    function id(i: number) {
      return ids[i]!;
    }
    const again = rewritten.map((docId) => makeDoc(docId, random, docs.get(docId)!.sets));
    for (const doc of again) docs.set(doc.id, doc);
    await store.upsert(index, again.map((d) => ({ id: d.id, source: d.source })));
  }, 120_000);
  afterAll(() => t?.close());

  const everything = (): SearchScope => ({ indices: [index], setIds: [setA, setB] });

  /** The matches of "any of these words, in these languages", counted here from the documents. */
  function expectedCounts(words: string[], languages: string[] | null, visible: (d: Doc) => boolean) {
    const byLanguage = new Map<string, number>();
    for (const doc of docs.values()) {
      if (!visible(doc) || !words.some((w) => doc.words.has(w))) continue;
      if (languages && !languages.includes(doc.language ?? '')) continue;
      byLanguage.set(doc.language ?? '', (byLanguage.get(doc.language ?? '') ?? 0) + 1);
    }
    return byLanguage;
  }

  it('keeps the statistics what the documents say through removals and rewrites', async () => {
    const db = t.app.database.db;
    const stats = await sql<{ term: string; language: string; df: number }>`
      select t.term, s.language, s.df from search_term_language_stat s join search_term t on t.id = s.term_id where s.index_id = ${index.id}`.execute(db);
    const want = new Map<string, number>();
    for (const doc of docs.values()) for (const w of doc.words) want.set(`${w}/${doc.language ?? ''}`, (want.get(`${w}/${doc.language ?? ''}`) ?? 0) + 1);
    expect(new Map(stats.rows.map((r) => [`${r.term}/${r.language}`, r.df]))).toEqual(want);

    const sets = await sql<{ set_id: string; docs: number }>`select set_id, docs from search_set_stat where index_id = ${index.id}`.execute(db);
    const perSet = new Map<string, number>();
    for (const doc of docs.values()) for (const s of doc.sets) perSet.set(s, (perSet.get(s) ?? 0) + 1);
    expect(new Map(sets.rows.map((r) => [r.set_id, r.docs]))).toEqual(perSet);
  });

  it('counts the matches of one or more terms per language exactly, for a caller who reads every set', async () => {
    const random = seeded(5);
    for (let q = 0; q < 30; q++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => WORDS[Math.floor(WORDS.length * random())]!);
      const languages = random() < 0.5 ? ['de', 'fr'] : null;
      const counted = await countByLanguage(t.app.database.db, everything(), await coverageOf(t.app.database.db, everything()), { terms: words, languages }, null);
      expect(counted).not.toBeNull();
      const want = expectedCounts(words, languages, () => true);
      expect(new Map([...counted!.byLanguage].filter(([, n]) => n > 0))).toEqual(want);
      expect(counted!.total).toBe([...want.values()].reduce((a, b) => a + b, 0));
      expect(counted!.atLeast).toBe(false);
    }
  });

  it('answers searches as checking every match does: hits, scores, totals, capped totals and the language facet', async () => {
    const random = seeded(9);
    const db = t.app.database.db;
    // The reference reads its lists in the order of the weights stored when each posting was
    // written; weighed again, they are the weights of now, as the blocks weigh.
    await store.reweigh(index);
    for (let q = 0; q < 60; q++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 2) }, () => WORDS[Math.floor(WORDS.length * random())]!);
      // Any of the words (the lists vouch for their documents), all of them or a phrase (the matches are listed first).
      const form = random();
      const how = form < 0.5 ? { ...(random() < 0.3 && { fuzziness: 'AUTO' }) } : form < 0.75 ? { operator: 'and' } : { type: 'phrase' };
      const match = { multi_match: { query: words.join(' '), fields: FIELDS, ...how } };
      const language = random() < 0.5 ? LANGUAGES[Math.floor(random() * 3)] : null;
      const body = {
        query: language ? { bool: { must: [match], filter: [{ term: { language } }] } } : match,
        size: 5,
        track_total_hits: random() < 0.3 ? 7 : true,
        ...(random() < 0.7 && { aggs: { language: { terms: { field: 'language', size: 10 } } } }),
      };
      // Also through the top-k lists with few matches (scoreAllBelow 0), where the shortcuts are taken.
      const scoreAllBelow = random() < 0.5 ? 0 : undefined;
      const fast = await runSearch(db, everything(), parseSearchRequest(body), { scoreAllBelow });
      const slow = await runSearch(db, everything(), parseSearchRequest(body), { shortcuts: false, scoreAllBelow });
      expect(fast.hits.total).toEqual(slow.hits.total);
      expect(fast.aggregations).toEqual(slow.aggregations);
      expect(fast.hits.hits.map((h) => [h._id, h._score])).toEqual(slow.hits.hits.map((h) => [h._id, h._score]));
    }
  });

  it('counts match by match for a caller who may not read every set the documents name', async () => {
    const db = t.app.database.db;
    const onlyA: SearchScope = { indices: [index], setIds: [setA] };
    expect(await coverageOf(db, onlyA)).toEqual({ everyDocumentOfIndices: false, everyDocument: false });
    expect(await countByLanguage(db, onlyA, await coverageOf(db, onlyA), { terms: [WORDS[0]!], languages: null }, null)).toBeNull();
    const res = await runSearch(db, onlyA, parseSearchRequest({ query: { multi_match: { query: WORDS[0], fields: FIELDS } }, aggs: { l: { terms: { field: 'language' } } } }));
    const want = expectedCounts([WORDS[0]!], null, (d) => d.sets.includes(setA));
    expect(res.hits.total.value).toBe([...want.values()].reduce((a, b) => a + b, 0));
    const buckets = (res.aggregations!.l as { buckets: { key: string; doc_count: number }[] }).buckets;
    expect(new Map(buckets.map((b) => [b.key, b.doc_count]))).toEqual(new Map([...want].filter(([l]) => l !== '')));
  });

  it('stops counting at the first term when only the capped total is asked', async () => {
    const common = WORDS[0]!;
    const counted = await countByLanguage(t.app.database.db, everything(), await coverageOf(t.app.database.db, everything()), { terms: [common, WORDS[1]!], languages: null }, 3);
    expect(counted!.atLeast).toBe(true);
    expect(counted!.total).toBeGreaterThanOrEqual(3);
  });
});
