import type { Dashboard, Job, Statistics, StatisticName } from '@pim/contract';
import { STATISTICS_DAYS } from '@pim/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siameseNetwork } from '../../jobs/executors/siamese-network.js';
import { charterLines, UPRIGHT_HAND, uploadHandPage } from '../../test-support/hands.js';
import { waitForJob } from '../../test-support/jobs.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { pageWithLines } from '../../test-support/text-lines.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

const today = () => new Date().toISOString().slice(0, 10);
const thisMonth = () => new Date().toISOString().slice(0, 7);

/** An hOCR page as Tesseract's command line writes it (its ocr-system names it). */
const hocr = (image: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">` +
      `<html xmlns="http://www.w3.org/1999/xhtml"><head><title></title><meta name="ocr-system" content="tesseract 5.3.0"/><meta name="ocr-capabilities" content="ocr_page ocr_line ocrx_word"/></head><body>` +
      `<div class="ocr_page" id="page_1" title="image &quot;${image}&quot;; bbox 0 0 200 100; ppageno 0">` +
      `<span class="ocr_line" id="line_1_1" title="bbox 10 10 190 30"><span class="ocrx_word" id="word_1_1" title="bbox 10 10 90 30; x_wconf 90">Hello</span></span>` +
      `</div></body></html>`,
  );

describe('statistics and the dashboard', () => {
  let t: TestApp;
  let admin: User;
  let owner: User;
  let stranger: User;
  let letters: string;
  let charters: string;
  const images: Record<string, string> = {};

  const get = (user: User | null, url: string) => call(t.app, { method: 'GET', url: `/api/pim/${url}`, headers: user?.auth ?? {} });
  async function statistic(user: User, name: StatisticName, query = ''): Promise<Statistics> {
    const res = await get(user, `statistics/${name}${query}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json as Statistics;
  }
  const series = (s: Statistics, name: string) => s.series.find((x) => x.name === name)!;
  const point = (s: Statistics, name: string, key: string) => series(s, name).points.find((p) => p.key === key)?.count ?? 0;

  async function image(user: User, setId: string, label: string): Promise<string> {
    const res = await upload(t.app, user.auth, setId, [{ fileName: `${label}.png`, bytes: await testImage('png', 200, 100) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return (images[label] = res.json.documentImages[0].uuid as string);
  }
  async function xml(user: User, setId: string, fileName: string, bytes: Buffer) {
    const res = await upload(t.app, user.auth, setId, [{ fileName, bytes }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }
  /** What the triggers counted must be what the tables hold: the counts of every set, recounted. */
  async function expectCountsMatchTables() {
    const db = t.app.database.db;
    const kept = await sql<{ kind: string; scope: string; n: string }>`
      select kind, scope::text as scope, sum(n)::text as n from statistic_count where kind in ('image', 'transcription', 'snippet')
      group by 1, 2 having sum(n) <> 0 order by 1, 2`.execute(db);
    const recounted = await sql<{ kind: string; scope: string; n: string }>`
      select kind, scope, n::text as n from (
        select 'image' as kind, set_id::text as scope, count(*) as n from image_set_image group by 2
        union all
        select 'transcription', m.set_id::text, count(*) from transcription tr join image_set_image m on m.image_id = tr.image_id group by 2
        union all
        select 'snippet', m.set_id::text, count(*) from similarity_snippet sn join image_set_image m on m.image_id = sn.image_id group by 2
      ) c order by 1, 2`.execute(db);
    expect(kept.rows).toEqual(recounted.rows);
  }

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        executors: {
          SiameseNetwork: siameseNetwork,
          GenerateManifests: async () => {
            throw new Error('The manifest could not be written: the disk is full.');
          },
        },
      },
    );
    admin = await signedInUser(t.app, { admin: true });
    owner = await signedInUser(t.app, { name: 'Owner' });
    stranger = await signedInUser(t.app, { name: 'Stranger' });
    letters = await createSet(t.app, owner.auth, 'Letters');
    charters = await createSet(t.app, owner.auth, 'Charters');
    for (const label of ['a', 'b', 'c']) await image(owner, letters, label);
    await image(owner, charters, 'd');
    // Two PAGE layouts (one made by Transkribus) and one hOCR of Tesseract's command line.
    await xml(owner, letters, 'a.xml', pageWithLines('a.png', [{ text: 'Lieber Freund', points: '10,10 190,10 190,30 10,30' }]));
    const transkribus = pageWithLines('b.png', [{ text: 'Hochgeehrter Herr', points: '10,10 190,10 190,30 10,30' }])
      .toString()
      .replace('<Creator>Test</Creator>', '<Creator>prov=University of Innsbruck:name=PyLaia@TranskribusPlatform</Creator>');
    await xml(owner, letters, 'b.xml', Buffer.from(transkribus));
    await xml(owner, letters, 'c.hocr', hocr('c.png'));
  });
  afterAll(() => t.close());

  it('counts the sets, images and transcriptions made, today and this month', async () => {
    const sets = await statistic(admin, 'documentimagesetstats');
    expect(sets.scope).toBe('all');
    expect(sets.total).toBe(4);
    expect(point(sets, 'imagesPerDay', today())).toBe(4);
    expect(series(sets, 'imagesPerDay').points).toHaveLength(STATISTICS_DAYS);
    expect(series(sets, 'imagesPerDay').points.at(-1)!.key).toBe(today());
    expect(point(sets, 'imagesPerMonth', thisMonth())).toBe(4);
    expect(point(sets, 'imageSetsPerMonth', thisMonth())).toBe(2);
    expect(series(sets, 'imagesPerSet').points).toEqual([
      { key: 'Letters', count: 3 },
      { key: 'Charters', count: 1 },
    ]);

    const ocr = await statistic(admin, 'documentocrresultstats');
    expect(ocr.total).toBe(3);
    expect(series(ocr, 'byFormat').points).toEqual([
      { key: 'page', count: 2 },
      { key: 'hocr', count: 1 },
    ]);
    expect(series(ocr, 'byOrigin').points).toEqual([
      { key: 'upload', count: 2 },
      { key: 'transkribus', count: 1 },
    ]);
    expect(point(ocr, 'perDay', today())).toBe(3);
    expect(point(ocr, 'perMonth', thisMonth())).toBe(3);

    expect((await statistic(admin, 'layoutpagexmlstats')).total).toBe(2);
    const last2weeks = await statistic(admin, 'layoutpagexmllast2weeks');
    expect(point(last2weeks, 'perDay', today())).toBe(2);
    const transkribus = await statistic(admin, 'transkribusstats');
    expect(transkribus.total).toBe(1);
    expect(point(transkribus, 'perMonth', thisMonth())).toBe(1);
    expect((await statistic(admin, 'customtesseractpagexmlstats')).total).toBe(0);
    await expectCountsMatchTables();
  });

  it("counts for others only what they may read, and with 'Own data only' what they own", async () => {
    expect((await statistic(stranger, 'documentimagesetstats')).total).toBe(0);
    expect((await statistic(stranger, 'documentocrresultstats')).scope).toBe('readable');
    const shared = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: { uuid: letters, imageset: 'Letters', publicDocumentImageSet: true },
    });
    expect(shared.status, JSON.stringify(shared.json)).toBe(200);
    const readable = await statistic(stranger, 'documentimagesetstats');
    expect(readable.total).toBe(3);
    expect(series(readable, 'imagesPerSet').points).toEqual([{ key: 'Letters', count: 3 }]);
    expect((await statistic(stranger, 'documentocrresultstats')).total).toBe(3);
    expect((await statistic(stranger, 'documentimagesetstats', '?onlyOwnData=true')).total).toBe(0);
    expect((await statistic(owner, 'documentimagesetstats', '?onlyOwnData=true')).total).toBe(4);
    expect((await statistic(admin, 'documentimagesetstats', '?onlyOwnData=true')).total).toBe(0);
  });

  it('follows images into and out of sets, and leaves deleted sets out', async () => {
    const added = await call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${charters}/documentimages`, headers: owner.auth, payload: { uuid: images.a } });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    // An image in two sets counts in each, with its transcription.
    expect((await statistic(owner, 'documentimagesetstats')).total).toBe(5);
    expect((await statistic(owner, 'documentocrresultstats')).total).toBe(4);
    await expectCountsMatchTables();
    const removed = await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${letters}/documentimages`, headers: owner.auth, payload: { uuid: images.c } });
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect((await statistic(owner, 'documentimagesetstats')).total).toBe(4);
    expect((await statistic(owner, 'documentocrresultstats')).total).toBe(3);
    await expectCountsMatchTables();

    const scratch = await createSet(t.app, owner.auth, 'Scratch');
    await image(owner, scratch, 'e');
    expect((await statistic(admin, 'documentimagesetstats')).total).toBe(5);
    const deleted = await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${scratch}`, headers: owner.auth });
    expect(deleted.status).toBe(204);
    const after = await statistic(admin, 'documentimagesetstats');
    expect(after.total).toBe(4);
    expect(series(after, 'imagesPerSet').points.map((p) => p.key)).not.toContain('Scratch');
  });

  it('counts similarity snippets and searches, each caller their own searches', async () => {
    const hands = await createSet(t.app, owner.auth, 'Hands');
    const page = await uploadHandPage(t.app, owner.auth, hands, 'hand-1', UPRIGHT_HAND, charterLines(1));
    const job = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: owner.auth, payload: { jobType: 'SiameseNetwork', imageSet: hands } });
    expect(job.status, JSON.stringify(job.json)).toBe(200);
    const done = await waitForJob(t.app, owner.auth, (job.json as Job).uuid, (j) => j.state === 'done' || j.state === 'failed');
    expect(done.error).toBeNull();

    const snippets = await statistic(owner, 'siamesesnippetslast2weeks');
    expect(snippets.total).toBe(page.lineIds.length);
    expect(point(snippets, 'perDay', today())).toBe(page.lineIds.length);
    expect(series(snippets, 'byModel').points).toEqual([{ key: 'Built-in handwriting descriptor', count: page.lineIds.length }]);
    expect((await statistic(stranger, 'siamesesnippetslast2weeks')).total).toBe(0);
    await expectCountsMatchTables();

    const snippet = (await t.app.database.db.selectFrom('similarity_snippet').select('id').where('line_id', '=', page.lineIds[0]!).executeTakeFirstOrThrow()).id;
    for (let i = 0; i < 2; i++) expect((await get(owner, `siamese/find?id=${snippet}&model=builtin`)).status).toBe(200);
    expect((await get(owner, `siamese/findsinglenew?uuid=${snippet}&model=builtin&usecosine=true&features=1..20`)).status).toBe(200);
    const searches = await statistic(owner, 'siameselast2weeks');
    expect(searches.total).toBe(3);
    expect(point(searches, 'perDay', today())).toBe(3);
    expect(series(searches, 'byKind').points).toEqual([
      { key: 'find', count: 2 },
      { key: 'findsinglenew', count: 1 },
    ]);
    expect((await statistic(stranger, 'siameselast2weeks')).total).toBe(0);
    expect((await statistic(admin, 'siameselast2weeks')).total).toBe(3);
  });

  it('counts search documents per index', async () => {
    const index = await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin.auth, payload: { name: 'letters' } });
    expect(index.status).toBe(200);
    const put = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: { uuid: letters, imageset: 'Letters', publicDocumentImageSet: true, elasticSearchIndex: { uuid: index.json.uuid, name: 'letters' } },
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    await t.app.services.searchIndexer.syncImages([images.a!, images.b!]);
    const documents = await statistic(stranger, 'elasticsearchstats');
    expect(documents.total).toBe(2);
    expect(series(documents, 'byIndex').points).toEqual([{ key: 'letters', count: 2 }]);
  });

  it('answers 401 without a sign-in and 400 for a statistic that does not exist', async () => {
    expect((await get(null, 'statistics/documentimagesetstats')).status).toBe(401);
    const unknown = await get(owner, 'statistics/everything');
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toContain('There is no such statistic');
    expect((await get(null, 'dashboard')).status).toBe(401);
  });

  it("shows admins the whole queue, failures and storage, and others their own jobs and files", async () => {
    const waiting = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: owner.auth, payload: { jobType: 'P2PaLA', imageSet: letters } });
    expect(waiting.status, JSON.stringify(waiting.json)).toBe(200);
    const failing = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: admin.auth, payload: { jobType: 'GenerateManifests', imageSet: letters } });
    expect(failing.status, JSON.stringify(failing.json)).toBe(200);
    await waitForJob(t.app, admin.auth, (failing.json as Job).uuid, (j) => j.state === 'failed');

    const all = (await get(admin, 'dashboard')).json as Dashboard;
    expect(all.scope).toBe('all');
    expect(all.jobs.queued).toContainEqual({ key: 'P2PaLA', count: 1 });
    expect(all.jobs.failedRecently).toBe(1);
    expect(all.jobs.failed[0]).toMatchObject({ jobType: 'GenerateManifests', error: expect.stringContaining('the disk is full'), imageSet: { uuid: letters, name: 'Letters' } });
    const stored = await sql<{ files: string; bytes: string }>`select count(*)::text as files, sum(size_bytes)::text as bytes from stored_file`.execute(t.app.database.db);
    expect(all.storage.files).toBe(Number(stored.rows[0]!.files));
    expect(all.storage.bytes).toBe(Number(stored.rows[0]!.bytes));
    expect(all.storage.byMediaType.map((m) => m.key)).toContain('image/png');
    expect(all.storage.server).not.toBeNull();
    expect(all.storage.server!.diskTotalBytes).toBeGreaterThan(0);

    const mine = (await get(owner, 'dashboard')).json as Dashboard;
    expect(mine.scope).toBe('own');
    expect(mine.jobs.queued).toContainEqual({ key: 'P2PaLA', count: 1 });
    expect(mine.jobs.failedRecently).toBe(0);
    expect(mine.storage.server).toBeNull();
    const own = await sql<{ bytes: string }>`select sum(size_bytes)::text as bytes from stored_file where owner_id = ${owner.userId}`.execute(t.app.database.db);
    expect(mine.storage.bytes).toBe(Number(own.rows[0]!.bytes));
    const strangers = (await get(stranger, 'dashboard')).json as Dashboard;
    expect(strangers.jobs.queued).toEqual([]);
    expect(strangers.storage.files).toBe(0);
  });
});
