import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, testPdf, upload } from '../../test-support/upload-files.js';

describe('document images API', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let bob: Awaited<ReturnType<typeof signedInUser>>;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  let jpeg: Buffer;
  let imageId: string;
  let pdfPages: string[];
  beforeAll(async () => {
    t = await createTestApp();
    alice = await signedInUser(t.app, { name: 'Alice' });
    bob = await signedInUser(t.app, { name: 'Bob' });
    admin = await signedInUser(t.app, { admin: true });
    setId = await createSet(t.app, alice.auth, 'Charters');
    jpeg = await testImage('jpeg', 120, 80);
    imageId = (await upload(t.app, alice.auth, setId, [{ fileName: 'Charter 12.jpg', bytes: jpeg }])).json.documentImages[0].uuid;
    const pdf = await upload(t.app, alice.auth, setId, [{ fileName: 'Register.pdf', bytes: await testPdf(2) }]);
    pdfPages = pdf.json.documentImages.map((d: { uuid: string }) => d.uuid);
  });
  afterAll(() => t.close());

  const get = (url: string, who: { auth: Record<string, string> } | null = alice, headers: Record<string, string> = {}) =>
    call(t.app, { method: 'GET', url: `/api/${url}`, headers: { ...(who?.auth ?? {}), ...headers } });

  it('shows one image with its links, sizes and uploader', async () => {
    const res = await get(`pim/documentimage/${imageId}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      uuid: imageId,
      uri: `http://pim.test/iiif/3/${imageId}`,
      iiifManifestUri: `http://pim.test/api/pim/documentimage/${imageId}/manifest`,
      label: 'Charter 12',
      width: 120,
      height: 80,
      pagenumber: 1,
      pageorder: null,
      levels: null,
      types: [],
      layoutXML: null,
      tesseractText: null,
      htrText: null,
      broken: false,
      publish: false,
      uploader: { uuid: alice.userId, name: 'Alice' },
    });
    const page2 = await get(`pim/documentimage/${pdfPages[1]}`);
    expect(page2.json).toMatchObject({ label: 'Register p. 2', pagenumber: 2 });
  });

  it('answers 404 for unknown or hidden images, 400 for malformed ids, 401 for anonymous', async () => {
    const unknown = randomUUID();
    for (const path of ['', '/transcriptions', '/documentimagesets']) {
      expect((await get(`pim/documentimage/${unknown}${path}`)).status).toBe(404);
      expect((await get(`pim/documentimage/${imageId}${path}`, bob)).status).toBe(404);
      expect((await get(`pim/documentimage/${imageId}${path}`, null)).status).toBe(401);
      const bad = await get(`pim/documentimage/nope${path}`);
      expect(bad.status).toBe(400);
      expect(bad.json.message).toContain('The document image id must be a UUID.');
    }
    expect((await get(`pim/documentimage/${imageId}`, admin)).status).toBe(200);
    expect((await get(`pim/image/${unknown}`)).status).toBe(404);
    expect((await get('pim/image/nope')).status).toBe(400);
    expect((await get(`pim/pimfile/${unknown}`)).status).toBe(404);
  });

  it('lists transcriptions oldest first and summarises them on the image', async () => {
    const db = t.app.database.db;
    const xmlFile = randomUUID();
    await db
      .insertInto('stored_file')
      .values({ id: xmlFile, sha256: 'a'.repeat(64), size_bytes: 10, media_type: 'application/xml', original_name: 'c12.xml', owner_id: alice.userId })
      .execute();
    const older = randomUUID();
    const newer = randomUUID();
    await db
      .insertInto('transcription')
      .values([
        { id: older, image_id: imageId, format: 'hocr', clean_text: 'ocr text', layout: JSON.stringify({ lines: [] }), created_at: new Date('2026-01-01T00:00:00Z') },
        { id: newer, image_id: imageId, format: 'page', source_file_id: xmlFile, transcriber: 'Loghi', clean_text: 'In nomine\nDomini', layout: JSON.stringify({ lines: [] }) },
      ])
      .execute();
    const list = await get(`pim/documentimage/${imageId}/transcriptions`);
    expect(list.status).toBe(200);
    expect(list.json.map((x: { uuid: string }) => x.uuid)).toEqual([older, newer]);
    expect(list.json[1]).toMatchObject({ id: newer, documentImageId: imageId, format: 'page', transcriber: 'Loghi', status: 'done', cleanText: 'In nomine\nDomini' });
    const image = await get(`pim/documentimage/${imageId}`);
    expect(image.json).toMatchObject({
      types: ['hocr', 'page'],
      tesseractText: 'ocr text',
      htrText: 'In nomine\nDomini',
      layoutXML: `http://pim.test/api/pim/pimfile/${xmlFile}`,
    });
  });

  it('lists the sets holding an image that the caller may read', async () => {
    const bobsSet = await createSet(t.app, bob.auth, 'Bob private');
    const second = await createSet(t.app, alice.auth, 'Another');
    await t.app.database.db
      .insertInto('image_set_image')
      .values([
        { set_id: bobsSet, image_id: imageId, position: 0 },
        { set_id: second, image_id: imageId, position: 0 },
      ])
      .execute();
    const mine = await get(`pim/documentimage/${imageId}/documentimagesets`);
    expect(mine.json).toEqual([
      { uuid: second, name: 'Another' },
      { uuid: setId, name: 'Charters' },
    ]);
    const all = await get(`pim/documentimage/${imageId}/documentimagesets`, admin);
    expect(all.json.map((s: { name: string }) => s.name)).toEqual(['Another', 'Bob private', 'Charters']);
    // Bob reaches the image through his own set, but still sees only the sets he may read.
    expect((await get(`pim/documentimage/${imageId}/documentimagesets`, bob)).json).toEqual([{ uuid: bobsSet, name: 'Bob private' }]);
    await t.app.database.db.deleteFrom('image_set_image').where('set_id', 'in', [bobsSet, second]).execute();
  });

  it('describes the image table columns', async () => {
    const res = await get('pim/documentimage/getfielddefinition');
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(25);
    expect(res.json).toContainEqual({ name: 'width', type: 'number' });
    expect(res.json).toContainEqual({ name: 'tesseractText', type: 'text' });
    expect(res.json).toContainEqual({ name: 'created', type: 'date' });
  });

  it('suggests readable images by label, a page at a time, optionally of one set', async () => {
    const res = await get('pim/documentimage/autocomplete?filter=REGISTER');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      results: [
        { uuid: pdfPages[0], name: 'Register p. 1' },
        { uuid: pdfPages[1], name: 'Register p. 2' },
      ],
      pageSize: 20,
    });
    expect((await get('pim/documentimage/autocomplete?filter=register&skip=1')).json.results).toHaveLength(1);
    expect((await get('pim/documentimage/autocomplete?filter=register', bob)).json.results).toEqual([]);
    expect((await get('pim/documentimage/autocomplete?filter=register&onlyOwnData=true', admin)).json.results).toEqual([]);
    expect((await get('pim/documentimage/autocomplete?filter=register', admin)).json.results).toHaveLength(2);
    const ofSet = await get(`pim/documentimage/autocomplete?setUuid=${setId}`);
    expect(ofSet.json.results.map((r: { name: string }) => r.name)).toEqual(['Charter 12', 'Register p. 1', 'Register p. 2']);
    expect((await get(`pim/documentimage/autocomplete?setUuid=${setId}`, bob)).status).toBe(404);
    expect((await get('pim/documentimage/autocomplete?setUuid=x')).status).toBe(400);
    expect((await get('pim/documentimage/autocomplete', null)).status).toBe(401);
  });

  it('serves the original image bytes with type, caching headers and an ETag', async () => {
    for (const path of [`pim/image/${imageId}`, `pim/image/byid/${imageId}`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.res.rawPayload.equals(jpeg)).toBe(true);
      expect(res.res.headers['content-type']).toBe('image/jpeg');
      expect(res.res.headers['cache-control']).toBe('private, max-age=3600');
      const etag = String(res.res.headers.etag);
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect((await get(path, alice, { 'if-none-match': etag })).status).toBe(304);
    }
    expect((await get(`pim/image/${imageId}`, bob)).status).toBe(404);
    expect((await get(`pim/image/${imageId}`, null)).status).toBe(401);
    expect((await get(`pim/image/${imageId}`, admin)).status).toBe(200);
  });

  it('downloads the kept PDF of a set as an attachment with its name', async () => {
    const page = await t.app.database.db
      .selectFrom('document_image')
      .select('source_pdf_file_id')
      .where('id', '=', pdfPages[0]!)
      .executeTakeFirstOrThrow();
    const res = await get(`pim/pimfile/${page.source_pdf_file_id}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toBe('application/pdf');
    expect(res.res.headers['content-disposition']).toBe(`attachment; filename="Register.pdf"; filename*=UTF-8''Register.pdf`);
    expect(res.res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(`pim/pimfile/${page.source_pdf_file_id}`, bob)).status).toBe(404);
    // An image's own file is not a file of the set.
    const imageFile = await t.app.database.db.selectFrom('document_image').select('file_id').where('id', '=', imageId).executeTakeFirstOrThrow();
    expect((await get(`pim/pimfile/${imageFile.file_id}`)).status).toBe(404);
  });
});
