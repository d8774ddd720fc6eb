import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executors } from '../../jobs/executors/index.js';
import { type TestApp, call, createTestApp, signedInUser } from '../../test-support/test-app.js';
import { pageWithLines } from '../../test-support/text-lines.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { PgDocumentStore } from './engine/pg-store.js';
import { SearchIndexer } from './indexer.js';

type Auth = Record<string, string>;

/** A page image with one line of PAGE text. */
async function addPage(t: TestApp, auth: Auth, setId: string, label: string, line: string) {
  const image = await upload(t.app, auth, setId, [{ fileName: `${label}.png`, bytes: await testImage('png', 400, 300) }]);
  expect(image.status, JSON.stringify(image.json)).toBe(200);
  const xml = pageWithLines(`${label}.png`, [{ text: line, points: '10,10 390,10 390,30 10,30' }], { width: 400, height: 300 });
  const page = await upload(t.app, auth, setId, [{ fileName: `${label}.xml`, bytes: Buffer.from(xml.toString()) }]);
  expect(page.status, JSON.stringify(page.json)).toBe(200);
  return image.json.documentImages[0].uuid as string;
}

// A process of its own opens connections to a PostgreSQL server: PGlite has only this process's.
describe.runIf(process.env.PIM_TEST_DB === 'postgres')('a large sync of search documents in a process of its own', () => {
  let t: TestApp;
  let owner: Auth;
  let index: { id: string; name: string };
  let images: string[];

  beforeAll(async () => {
    t = await createTestApp({}, { executors });
    const admin = (await signedInUser(t.app, { admin: true })).auth;
    owner = (await signedInUser(t.app)).auth;
    index = { id: (await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin, payload: { name: 'ledgers' } })).json.uuid, name: 'ledgers' };
    const setId = await createSet(t.app, owner, 'Ledgers');
    const put = await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner, payload: { uuid: setId, imageset: 'Ledgers', elasticSearchIndex: { uuid: index.id, name: 'ledgers' } } });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    images = [await addPage(t, owner, setId, 'l1', 'Rechnung der Stadt Lübeck'), await addPage(t, owner, setId, 'l2', 'Zollregister von Danzig')];
  }, 120_000);
  afterAll(() => t?.close());

  const indexer = (from = 1) => new SearchIndexer(t.app.database.db, new PgDocumentStore(t.app.database.db), { ownProcess: { url: t.app.database.url!, from } });
  const documents = async () =>
    (await sql<{ label: string }>`select source->>'label' as label from search_document where index_id = ${index.id} order by 1`.execute(t.app.database.db)).rows.map((r) => r.label);

  it('writes the same documents as a sync here, with its progress', async () => {
    await new PgDocumentStore(t.app.database.db).clear(index);
    expect(await documents()).toEqual([]);
    const progress: [number, number][] = [];
    const result = await indexer().syncImages(
      images,
      async (done, total) => {
        progress.push([done, total]);
      },
      undefined,
      { rewrite: true },
    );
    expect(result).toEqual({ indexed: 2 });
    expect(progress.at(-1)).toEqual([2, 2]);
    expect(await documents()).toEqual(['l1', 'l2']);
    const found = await call(t.app, {
      method: 'POST',
      url: '/api/pim/elastic/ledgers/_search',
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: { multi_match: { query: 'Danzig', fields: ['text', 'htr'] } } }),
    });
    expect(found.json.hits.hits.map((h: { _source: { label: string } }) => h._source.label)).toEqual(['l2']);
    // Unchanged, the documents are written again there only when asked to.
    expect(await indexer().syncImages(images)).toEqual({ indexed: 0 });
    expect(await indexer().syncImages(images, undefined, undefined, { rewrite: true })).toEqual({ indexed: 2 });
  });

  it('is stopped when the job is cancelled', async () => {
    const controller = new AbortController();
    const running = indexer().syncImages(images, undefined, controller.signal);
    controller.abort(new Error('cancelled by the user'));
    await expect(running).rejects.toThrow('cancelled by the user');
  });

  it("says why when the process could not do it, and a smaller sync stays in this one", async () => {
    const broken = new SearchIndexer(t.app.database.db, new PgDocumentStore(t.app.database.db), { ownProcess: { url: 'postgres://nobody@127.0.0.1:1/none', from: 2 } });
    await expect(broken.syncImages(images)).rejects.toThrow(/ECONNREFUSED|connect/);
    await expect(broken.syncImages([images[0]!], undefined, undefined, { rewrite: true })).resolves.toEqual({ indexed: 1 });
  });
});
