import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchSource } from '@pim/contract';
import { type TestApp, createTestApp } from '../../../test-support/test-app.js';
import { parseSearchRequest } from '../dsl.js';
import type { SearchScope } from '../query.js';
import { TermExpander } from './expand.js';
import { PgDocumentStore } from './pg-store.js';
import { runSearch } from './search.js';

const PAGES: Record<string, { text: string; htr?: string }> = {
  a: { text: 'Was ist Aufklärung? Aufklärung ist der Ausgang des Menschen' },
  b: { text: 'der Ausgang\nder Menschen aus seiner Unmündigkeit' },
  c: { text: 'Menschen des Ausgang ist der' },
  d: { text: 'eine andere Seite', htr: 'der Ausgang des Menschen' },
  e: { text: 'Ausgang des' },
};

describe('phrases through word-pair lexemes', () => {
  let t: TestApp;
  let scope: SearchScope;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.database.db;
    const index = { id: randomUUID(), name: 'phrases' };
    const setId = randomUUID();
    const fileId = randomUUID();
    await db.insertInto('search_index').values(index).execute();
    await db.insertInto('document_image_set').values({ id: setId, name: 'P', search_index_id: index.id }).execute();
    await db.insertInto('stored_file').values({ id: fileId, sha256: 'x', size_bytes: 1, media_type: 'image/png', original_name: 'x.png' }).execute();
    const docs = [];
    for (const [name, page] of Object.entries(PAGES)) {
      const id = randomUUID();
      ids.set(id, name);
      await db.insertInto('document_image').values({ id, file_id: fileId, label: name, width: 10, height: 10 }).execute();
      const source: SearchSource = {
        imageUuid: id, imageSetUuid: [setId], imageSet: ['P'], index: index.name, label: name, text: page.text, htr: page.htr ?? '', persons: [],
        language: 'de', pagenumber: 1, height: 10, width: 10, ocrConfidence: null, deskew: null, columnCount: null, lineCount: null,
        wordCount: 0, date: new Date(0).toISOString(), thumbnail: '',
      };
      docs.push({ id, source });
    }
    await new PgDocumentStore(db).upsert(index, docs);
    scope = { indices: [index], setIds: [setId] };
  }, 60_000);
  afterAll(() => t?.close());

  async function found(query: object): Promise<string[]> {
    const res = await runSearch(t.app.database.db, scope, parseSearchRequest({ query, size: 20 }));
    return res.hits.hits.map((h) => ids.get(h._id)!).sort();
  }

  const everywhere = (text: string) => ({ multi_match: { query: text, fields: ['text', 'htr', 'persons'], type: 'phrase' } });

  it('finds two and three words in their order, across a line end, in any field', async () => {
    const db = t.app.database.db;
    // Each pair of neighbours is a lexeme of the document, and the searches read them.
    const holding = await sql<{ n: number }>`select count(*)::int as n from search_document d where d.terms @@ ${"'ausgang des'"}::tsquery`.execute(db);
    expect(holding.rows[0]!.n).toBe(3);
    expect(await new TermExpander(db, [scope.indices[0]!.id]).phrasesIndexed()).toBe(true);
    expect(await found(everywhere('Ausgang des'))).toEqual(['a', 'd', 'e']);
    expect(await found(everywhere('der Ausgang des Menschen'))).toEqual(['a', 'd']);
    expect(await found(everywhere('Ausgang der Menschen'))).toEqual(['b']);
    expect(await found(everywhere('des Ausgang'))).toEqual(['c']);
  });

  it('keeps to the fields asked for', async () => {
    expect(await found({ match_phrase: { text: 'Ausgang des' } })).toEqual(['a', 'e']);
    expect(await found({ match_phrase: { htr: 'Ausgang des Menschen' } })).toEqual(['d']);
  });

  it('finds the same in documents written before word pairs were, by their positions', async () => {
    const db = t.app.database.db;
    await sql`
      update search_document set bigrams = false,
        terms = ts_delete(terms, array(select u.lexeme from unnest(terms) u where u.lexeme like '% %'))
      where index_id = ${scope.indices[0]!.id}`.execute(db);
    const pairs = await sql<{ n: number }>`select count(*)::int as n from search_document d, unnest(d.terms) u where u.lexeme like '% %'`.execute(db);
    expect(pairs.rows[0]!.n).toBe(0);
    expect(await new TermExpander(db, [scope.indices[0]!.id]).phrasesIndexed()).toBe(false);
    expect(await found(everywhere('Ausgang des'))).toEqual(['a', 'd', 'e']);
    expect(await found(everywhere('der Ausgang des Menschen'))).toEqual(['a', 'd']);
    expect(await found({ match_phrase: { text: 'Ausgang des' } })).toEqual(['a', 'e']);
  });
});
