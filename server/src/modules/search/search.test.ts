import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executors } from '../../jobs/executors/index.js';
import { sendToElasticSearch } from '../../jobs/executors/send-to-elastic-search.js';
import { runExecutor } from '../../test-support/job-context.js';
import { type TestApp, call, createTestApp, signedInUser } from '../../test-support/test-app.js';
import { waitForJob } from '../../test-support/jobs.js';
import { pageWithLines } from '../../test-support/text-lines.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { PgDocumentStore } from './engine/pg-store.js';

type Auth = Record<string, string>;

/** A page image and its PAGE text (one line per entry, boxes 20 px high), in a language. */
async function addPage(t: TestApp, auth: Auth, setId: string, label: string, lines: string[], language?: string) {
  const image = await upload(t.app, auth, setId, [{ fileName: `${label}.png`, bytes: await testImage('png', 400, 300) }]);
  expect(image.status, JSON.stringify(image.json)).toBe(200);
  let xml = pageWithLines(
    `${label}.png`,
    lines.map((text, i) => ({ text, points: `10,${10 + i * 25} 390,${10 + i * 25} 390,${30 + i * 25} 10,${30 + i * 25}` })),
    { width: 400, height: 300 },
  ).toString();
  if (language) xml = xml.replace('<Page ', `<Page primaryLanguage="${language}" `);
  const page = await upload(t.app, auth, setId, [{ fileName: `${label}.xml`, bytes: Buffer.from(xml) }]);
  expect(page.status, JSON.stringify(page.json)).toBe(200);
  return image.json.documentImages[0].uuid as string;
}

async function search(t: TestApp, auth: Auth, body: unknown, index = '_all') {
  return call(t.app, { method: 'POST', url: `/api/pim/elastic/${index}/_search`, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

/** Searches until the answer is as wanted: indexing runs in jobs, so the test waits for the state. */
async function searchUntil(t: TestApp, auth: Auth, body: unknown, wanted: (json: any) => boolean, index = '_all') {
  for (;;) {
    const res = await search(t, auth, body, index);
    if (res.status === 200 && wanted(res.json)) return res.json;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const match = (query: string, extra: Record<string, unknown> = {}) => ({
  query: { multi_match: { query, fields: ['text', 'htr', 'persons'], fuzziness: 'AUTO' } },
  ...extra,
});
const ids = (json: any) => json.hits.hits.map((h: any) => h._source.label);

describe('full-text search', () => {
  let t: TestApp;
  let admin: Auth;
  let owner: Auth;
  let ownerId: string;
  let stranger: Auth;
  let setId: string;
  let indexId: string;
  let pages: string[];

  beforeAll(async () => {
    t = await createTestApp({}, { executors });
    admin = (await signedInUser(t.app, { admin: true })).auth;
    ({ auth: owner, userId: ownerId } = await signedInUser(t.app));
    stranger = (await signedInUser(t.app)).auth;
    indexId = (await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin, payload: { name: 'charters' } })).json.uuid;
    setId = await createSet(t.app, owner, 'Letters');
    const put = await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner, payload: { uuid: setId, imageset: 'Letters', elasticSearchIndex: { uuid: indexId, name: 'charters' } } });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    pages = [
      await addPage(t, owner, setId, 'p1', ['Die Aufkla\u0308rung in Berlin', 'Berlinische Monatsſchrift'], 'German'),
      await addPage(t, owner, setId, 'p2', ['Aufklärung Aufklärung und Vernunft', 'Kant schreibt'], 'German'),
      await addPage(t, owner, setId, 'p3', ['The enlightenment of London', 'a monthly journal'], 'English'),
    ];
    // Each page is indexed once as an image and again with its text, in jobs of their own: wait
    // until every page's text is found, not only its image.
    for (const word of ['Berlin', 'Kant', 'London']) {
      await searchUntil(t, owner, { query: { match: { htr: word } } }, (json) => json.hits.total.value === 1);
    }
    await searchUntil(t, owner, { query: { match_all: {} } }, (json) => json.hits.total.value === 3);
  }, 120_000);
  afterAll(() => t?.close());

  it('finds words despite diacritics, the long s and OCR errors, best match first', async () => {
    const plain = await search(t, owner, match('Aufklarung'));
    expect(plain.status, JSON.stringify(plain.json)).toBe(200);
    // p2 holds the word twice in a shorter text: BM25 ranks it first.
    expect(ids(plain.json)).toEqual(['p2', 'p1']);
    expect(plain.json.hits.hits[0]._score).toBeGreaterThan(plain.json.hits.hits[1]._score);
    expect(ids((await search(t, owner, match('Monatsfchrift'))).json)).toEqual(['p1']);
    expect(ids((await search(t, owner, match('Monatsschrift'))).json)).toEqual(['p1']);
    // Without fuzziness the misread word is not found.
    expect((await search(t, owner, { query: { match: { htr: 'Monatsfchrift' } } })).json.hits.total.value).toBe(0);
  });

  it('answers every hit it counts while the documents are written again', async () => {
    // A sync writes a page's document anew: a search that found it must still show it (when it got
    // a new id, 45 of 300 searches here answered a total of 2 and no hits on PostgreSQL).
    let searching = true;
    let writes = 0;
    const writer = (async () => {
      while (searching) {
        await t.app.services.searchIndexer.syncImages(pages, undefined, undefined, { rewrite: true });
        writes += 1;
      }
    })();
    const answers: string[] = [];
    try {
      for (let i = 0; i < 60; i += 1) answers.push(ids((await search(t, owner, match('Aufklarung'))).json).join());
    } finally {
      searching = false;
      await writer;
    }
    expect(writes).toBeGreaterThan(0);
    expect(answers.filter((a) => a !== 'p2,p1')).toEqual([]);
  });

  it('answers as many hits as it counts while a page leaves the index and comes back', async () => {
    // A search that counted p1 before its document went must not answer its count without it.
    const store = new PgDocumentStore(t.app.database.search);
    const index = { id: indexId, name: 'charters' };
    let searching = true;
    let removals = 0;
    const writer = (async () => {
      while (searching) {
        await store.remove(index, [pages[0]!]);
        removals += 1;
        await t.app.services.searchIndexer.syncImages([pages[0]!]);
      }
    })();
    const answers: string[] = [];
    try {
      for (let i = 0; i < 60; i += 1) {
        const json = (await search(t, owner, match('Aufklarung'))).json;
        answers.push(`${json.hits.total.value}:${ids(json).join()}`);
      }
    } finally {
      searching = false;
      await writer;
    }
    expect(removals).toBeGreaterThan(0);
    expect(answers.filter((a) => a !== '2:p2,p1' && a !== '1:p2')).toEqual([]);
    expect(ids((await search(t, owner, match('Aufklarung'))).json)).toEqual(['p2', 'p1']);
  });

  it("writes only the documents that changed when a set is sent again, every one with 'allData'", async () => {
    const db = t.app.database.db;
    // The jobs that indexed the pages as they came have ended: no one else writes the documents.
    for (;;) {
      const busy = await sql<{ n: number }>`select count(*)::int as n from job where state in ('queued', 'running')`.execute(db);
      if (busy.rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // A row written again is a new version of it (xmin).
    const versions = async () =>
      (await sql<{ image_id: string; version: string }>`select image_id, xmin::text as version from search_document where index_id = ${indexId}`.execute(t.app.database.search)).rows
        .sort((a, b) => pages.indexOf(a.image_id) - pages.indexOf(b.image_id))
        .map((r) => r.version);
    const send = (allData: boolean) => runExecutor(t.app, sendToElasticSearch, { type: 'SendToElasticSearch', settings: { imageSet: setId, allData }, ownerId });
    const before = await versions();
    expect((await send(false)).notes).toEqual({ images: 3, documentsWritten: 0 });
    expect(await versions()).toEqual(before);
    // A label changed behind the services' back (so no job is queued): only its page is written.
    await sql`update document_image set label = 'p3 renamed' where id = ${pages[2]}`.execute(db);
    try {
      expect((await send(false)).notes).toEqual({ images: 3, documentsWritten: 1 });
      const after = await versions();
      expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
      expect(after[2]).not.toBe(before[2]);
      expect(ids((await search(t, owner, match('enlightenment'))).json)).toEqual(['p3 renamed']);
    } finally {
      await sql`update document_image set label = 'p3' where id = ${pages[2]}`.execute(db);
    }
    expect((await send(false)).notes).toEqual({ images: 3, documentsWritten: 1 });
    const written = await send(true);
    expect(written.notes).toEqual({ images: 3, documentsWritten: 3 });
    expect((await versions()).filter((v, i) => v === before[i])).toEqual([]);
    expect(ids((await search(t, owner, match('Aufklarung'))).json)).toEqual(['p2', 'p1']);
  });

  it('stems words of a known language', async () => {
    expect(ids((await search(t, owner, { query: { match: { htr: 'journals' } } })).json)).toEqual(['p3']);
  });

  it('highlights the matched words and names the matched line with its box', async () => {
    const res = await search(t, owner, match('Berlin', { highlight: { fields: { htr: {} }, pre_tags: ['<b>'], post_tags: ['</b>'] } }));
    const hit = res.json.hits.hits[0];
    expect(hit.highlight.htr[0]).toContain('<b>Berlin</b>');
    expect(hit.fields.pim_lines[0]).toMatchObject({ text: 'Die Aufkla\u0308rung in Berlin', box: { x: 10, y: 10, w: 381, h: 21 } });
    expect(hit._source.thumbnail).toMatch(/^http:\/\/.*\/api\/pim\/documentimage\/.*\/thumbnail$/);
  });

  it('filters, sorts, pages and counts languages', async () => {
    const facet = await search(t, owner, { size: 0, aggs: { language: { terms: { field: 'language', size: 10 } } } });
    expect(facet.json.aggregations.language.buckets).toEqual([
      { key: 'German', doc_count: 2 },
      { key: 'English', doc_count: 1 },
    ]);
    const german = await search(t, owner, { query: { bool: { filter: [{ term: { language: 'German' } }] } }, sort: [{ pagenumber: 'desc' }] });
    expect(ids(german.json)).toEqual(['p2', 'p1']);
    expect(german.json.hits.hits[0].sort).toEqual([2]);
    const paged = await search(t, owner, { sort: [{ pagenumber: { order: 'asc' } }], from: 1, size: 1 });
    expect(ids(paged.json)).toEqual(['p2']);
    expect(paged.json.hits.total).toEqual({ value: 3, relation: 'eq' });
  });

  it('answers several searches in one _msearch', async () => {
    const body = `{"index":"charters"}\n${JSON.stringify(match('London'))}\n{}\n${JSON.stringify({ query: { nested: {} } })}\n`;
    const res = await call(t.app, { method: 'POST', url: '/api/pim/elastic/_all/_msearch', headers: { ...owner, 'content-type': 'application/x-ndjson' }, payload: body });
    expect(res.status, res.res.body).toBe(200);
    expect(ids(res.json.responses[0])).toEqual(['p3']);
    expect(res.json.responses[1]).toMatchObject({ status: 400, error: { reason: expect.stringContaining('nested') } });
  });

  it('suggests terms readers may see', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/pim/elastic/_all/_terms_enum', headers: owner, payload: { field: 'htr', string: 'berl' } });
    expect(res.json.terms).toEqual(expect.arrayContaining(['berlin', 'berlinische']));
    // Words are offered as written, diacritics kept, though they are found without them.
    const written = await call(t.app, { method: 'POST', url: '/api/pim/elastic/_all/_terms_enum', headers: owner, payload: { field: 'htr', string: 'aufkla' } });
    expect(written.json.terms).toEqual(['aufklärung']);
    // A letter written with a combining mark (as transcriptions often are) is offered composed.
    expect(written.json.terms[0]).toBe('aufklärung'.normalize('NFC'));
    const hidden = await call(t.app, { method: 'POST', url: '/api/pim/elastic/_all/_terms_enum', headers: stranger, payload: { field: 'htr', string: 'berl' } });
    expect(hidden.json.terms).toEqual([]);
  });

  it("shows only what the caller may read; anonymous visitors only published public sets of a published environment's index", async () => {
    expect((await search(t, stranger, match('Berlin'))).json.hits.total.value).toBe(0);
    expect((await search(t, admin, match('Berlin'))).json.hits.total.value).toBe(1);
    expect((await search(t, {}, match('Berlin'))).status).toBe(401);
    expect((await search(t, {}, match('Berlin'), 'charters')).status).toBe(401);
    const env = await call(t.app, {
      method: 'POST',
      url: '/api/pim/environment',
      headers: admin,
      payload: { title: 'Public letters', path: 'letters', elasticSearchIndex: { uuid: indexId }, publish: true },
    });
    expect(env.status, JSON.stringify(env.json)).toBeLessThan(300);
    const closed = await search(t, {}, match('Berlin'), 'charters');
    expect(closed.status).toBe(200);
    expect(closed.json.hits.total.value).toBe(0);
    await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner, payload: { uuid: setId, imageset: 'Letters', publicDocumentImageSet: true, publish: true } });
    const open = await search(t, {}, match('Berlin'), 'charters');
    expect(open.json.hits.total.value).toBe(1);
    expect(open.res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers bad requests in the shape of Elasticsearch', async () => {
    const unsupported = await search(t, owner, { query: { geo_distance: {} } });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error.reason).toContain('geo_distance');
    const missing = await search(t, owner, match('x'), 'nosuchindex');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    const broken = await call(t.app, { method: 'POST', url: '/api/pim/elastic/_all/_search', headers: { ...owner, 'content-type': 'application/json' }, payload: '{"query":' });
    expect(broken.status).toBe(400);
    expect(broken.json.error.reason).toContain('not valid JSON');
    const nul = await search(t, owner, { query: { bool: { filter: [{ term: { language: 'de\u0000' } }] } } });
    expect(nul.status).toBe(400);
    expect(nul.json.error.reason).toBe('The request contains a character that cannot be stored: U+0000 (NUL) in body.query.bool.filter[0].term.language.');
  });

  it('follows a correction of a line without a reindex by hand', async () => {
    const lines = await t.app.database.db.selectFrom('simple_text_line').select(['id', 'text']).where('text', '=', 'Kant schreibt').execute();
    const corrected = await call(t.app, { method: 'POST', url: '/api/pim/pimsimpletextline/update', headers: owner, payload: { uuid: lines[0]!.id, groundtruth: 'Kant schrieb Zeitungen' } });
    expect(corrected.status, JSON.stringify(corrected.json)).toBe(200);
    const found = await searchUntil(t, owner, { query: { match: { htr: 'Zeitungen' } } }, (json) => json.hits.total.value === 1);
    expect(ids(found)).toEqual(['p2']);
  });

  it('ranks the same whatever page is asked for: the top k is the prefix of the full ranking', async () => {
    const all = await search(t, owner, { query: { multi_match: { query: 'Aufklärung Berlin London Vernunft', fields: ['htr'] } }, size: 10 });
    const firstTwo = await search(t, owner, { query: { multi_match: { query: 'Aufklärung Berlin London Vernunft', fields: ['htr'] } }, size: 2 });
    expect(ids(firstTwo.json)).toEqual(ids(all.json).slice(0, 2));
    expect(firstTwo.json.hits.hits.map((h: any) => h._score)).toEqual(all.json.hits.hits.slice(0, 2).map((h: any) => h._score));
  });

  it('empties an index with ElasticSearchRemoveIndex', async () => {
    const job = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: admin, payload: { jobType: 'ElasticSearchRemoveIndex', elasticSearchIndex: indexId } });
    expect(job.status, JSON.stringify(job.json)).toBe(200);
    await searchUntil(t, admin, { query: { match_all: {} } }, (json) => json.hits.total.value === 0, 'charters');
    const again = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: admin, payload: { jobType: 'SendToElasticSearch', elasticSearchIndex: indexId } });
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    await searchUntil(t, admin, { query: { match_all: {} } }, (json) => json.hits.total.value === 3, 'charters');
    const ended = await waitForJob(t.app, admin, again.json.uuid, (job) => job.state === 'done' || job.state === 'failed');
    expect(ended.error).toBeNull();
    expect(ended.state).toBe('done');
  });

  it('moves the documents with a set that moves to another index', async () => {
    const other = (await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin, payload: { name: 'archive' } })).json.uuid;
    const moved = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner,
      payload: { uuid: setId, imageset: 'Letters', elasticSearchIndex: { uuid: other, name: 'archive' } },
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    await searchUntil(t, admin, { query: { match_all: {} } }, (json) => json.hits.total.value === 3, 'archive');
    await searchUntil(t, admin, { query: { match_all: {} } }, (json) => json.hits.total.value === 0, 'charters');
    // The old index's rows go in the same job, after the new index's: wait for that state too.
    for (;;) {
      const rows = await t.app.database.search.selectFrom('search_document').select(['index_id']).execute();
      if (rows.length === 3 && rows.every((row) => row.index_id === other)) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
});
