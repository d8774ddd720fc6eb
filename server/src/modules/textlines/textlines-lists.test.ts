import { randomUUID } from 'node:crypto';
import { TEXT_LINE_PAGE_SIZE_MAX } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YELLOW, near, pixelsOf, quadrantImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { pageWithLines, uploadPageWithLines } from '../../test-support/text-lines.js';
import { createSet, upload } from '../../test-support/upload-files.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Auth = Record<string, string>;
type Page = Awaited<ReturnType<typeof uploadPageWithLines>>;

const two = (prefix: string) => [
  { text: `${prefix} one`, points: '10,10 90,10 90,30 10,30' },
  { text: `${prefix} two`, points: '10,40 90,40 90,60 10,60' },
];

/**
 * root (owner): image A; sub-set S1 (owner): image B; S1's sub-set S2 (owner): image C; and a
 * sub-set H of root that belongs to someone else and that the owner may not read: image D.
 */
describe('text lines: lists, picks within an image or set, line images, ground truth per image', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let admin: User;
  const sets: Record<'root' | 's1' | 's2' | 'h', string> = { root: '', s1: '', s2: '', h: '' };
  const pages: Record<'a' | 'b' | 'c' | 'd', Page> = {} as never;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    other = await signedInUser(t.app);
    admin = await signedInUser(t.app, { admin: true });
    sets.root = await createSet(t.app, owner.auth, 'Root');
    sets.s1 = await createSet(t.app, owner.auth, 'S1');
    sets.s2 = await createSet(t.app, owner.auth, 'S2');
    sets.h = await createSet(t.app, other.auth, 'Hidden');
    pages.a = await uploadPageWithLines(t.app, owner.auth, sets.root, 'a', two('A'));
    pages.b = await uploadPageWithLines(t.app, owner.auth, sets.s1, 'b', two('B'));
    pages.c = await uploadPageWithLines(t.app, owner.auth, sets.s2, 'c', two('C'));
    pages.d = await uploadPageWithLines(t.app, other.auth, sets.h, 'd', two('D'));
    const link = (parent: string, child: string) =>
      call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${parent}/subsets`, headers: admin.auth, payload: { uuid: child } });
    for (const [parent, child] of [[sets.root, sets.s1], [sets.s1, sets.s2], [sets.root, sets.h]] as const) {
      expect((await link(parent, child)).status).toBe(200);
    }
  });
  afterAll(() => t.close());

  const get = (auth: Auth, url: string) => call(t.app, { method: 'GET', url: `/api/pim/pimsimpletextline/${url}`, headers: auth });
  const update = (auth: Auth, uuid: string, groundtruth: string) =>
    call(t.app, { method: 'POST', url: '/api/pim/pimsimpletextline/update', headers: auth, payload: { uuid, groundtruth } });
  /** The lines a caller is given by `url` in `tries` random picks. */
  const picks = async (auth: Auth, url: string, tries = 80) => {
    const seen = new Set<string>();
    for (let i = 0; i < tries; i += 1) seen.add((await get(auth, url)).json.uuid);
    return [...seen].sort();
  };
  const idsOf = (...of: Page[]) => of.flatMap((p) => p.lineIds).sort();

  it('random/parent of a set: its images and those of its readable sub-sets at any depth, never a hidden sub-set', async () => {
    expect(await picks(owner.auth, `random/parent/${sets.root}`)).toEqual(idsOf(pages.a, pages.b, pages.c));
    expect(await picks(owner.auth, `random/parent/${sets.s1}`, 40)).toEqual(idsOf(pages.b, pages.c));
    expect(await picks(owner.auth, `random/parent/${sets.s2}`, 30)).toEqual(idsOf(pages.c));
    expect(await picks(admin.auth, `random/parent/${sets.root}`, 120)).toEqual(idsOf(pages.a, pages.b, pages.c, pages.d));
  });

  it('random/parent of an image: only its lines; 404 for what the caller may not read or what does not exist, 400 for a malformed id', async () => {
    expect(await picks(owner.auth, `random/parent/${pages.b.imageId}`, 30)).toEqual(idsOf(pages.b));
    for (const hidden of [sets.h, pages.d.imageId]) {
      const res = await get(owner.auth, `random/parent/${hidden}`);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(`There is no document image or image set with id ${hidden}.`);
    }
    expect((await get(other.auth, `random/parent/${sets.root}`)).status).toBe(404);
    expect((await get(owner.auth, `random/parent/${randomUUID()}`)).status).toBe(404);
    expect((await get(owner.auth, 'random/parent/not-a-uuid')).status).toBe(400);
    expect((await get({}, `random/parent/${sets.root}`)).status).toBe(401);
  });

  it('different: corrected lines whose ground truth is not the text, worst CER first, paged and by parent', async () => {
    expect((await get(owner.auth, 'different')).json).toEqual({ results: [], total: 0, page: 0, pageSize: 50 });
    expect((await update(owner.auth, pages.a.lineIds[0]!, 'A one')).status).toBe(200);
    expect((await update(owner.auth, pages.a.lineIds[1]!, 'A twO')).status).toBe(200);
    expect((await update(owner.auth, pages.c.lineIds[0]!, 'Cx oxe')).status).toBe(200);
    expect((await update(other.auth, pages.d.lineIds[0]!, 'nothing alike')).status).toBe(200);

    const all = await get(owner.auth, 'different');
    expect(all.json.total).toBe(2);
    expect(all.json.results.map((l: { uuid: string }) => l.uuid)).toEqual([pages.c.lineIds[0], pages.a.lineIds[1]]);
    expect(all.json.results[0]).toMatchObject({ text: 'C one', groundTruth: 'Cx oxe', documentImageId: pages.c.imageId, lineIndex: 0 });
    expect(all.json.results[0].cer).toBeGreaterThan(all.json.results[1].cer);
    expect(all.json.results[1].cer).toBeGreaterThan(0);

    const second = await get(owner.auth, 'different?page=1&pageSize=1');
    expect(second.json).toMatchObject({ total: 2, page: 1, pageSize: 1, results: [{ uuid: pages.a.lineIds[1] }] });
    expect((await get(owner.auth, `different?parentuuid=${pages.a.imageId}`)).json.results.map((l: { uuid: string }) => l.uuid)).toEqual([pages.a.lineIds[1]]);
    expect((await get(owner.auth, `different?parentuuid=${sets.s1}`)).json.results.map((l: { uuid: string }) => l.uuid)).toEqual([pages.c.lineIds[0]]);
    expect((await get(admin.auth, 'different')).json.total).toBe(3);
    expect((await get(other.auth, 'different')).json.results.map((l: { uuid: string }) => l.uuid)).toEqual([pages.d.lineIds[0]]);

    // Corrected to match its text, a line leaves the list.
    expect((await update(owner.auth, pages.c.lineIds[0]!, 'C one')).status).toBe(200);
    expect((await get(owner.auth, 'different')).json.results.map((l: { uuid: string }) => l.uuid)).toEqual([pages.a.lineIds[1]]);
  });

  it('different refuses bad paging and parents with 400/404, and anonymous callers with 401', async () => {
    for (const query of ['pageSize=0', `pageSize=${TEXT_LINE_PAGE_SIZE_MAX + 1}`, 'page=-1', 'page=x', 'parentuuid=nope']) {
      const res = await get(owner.auth, `different?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error).toBe('validation_failed');
    }
    expect((await get(owner.auth, `different?parentuuid=${sets.h}`)).status).toBe(404);
    expect((await get({}, 'different')).status).toBe(401);
  });

  it('{uuid}/image: the bounding box cut from the page as JPEG, revalidated by ETag; 404 for a line without an outline', async () => {
    const set = await createSet(t.app, owner.auth, 'Quadrants');
    const quad = await uploadPageWithLines(
      t.app,
      owner.auth,
      set,
      'quad',
      [{ text: 'in the yellow quarter', points: '110,60 190,60 190,90 110,90' }, { text: 'no outline' }],
      { png: await quadrantImage(200, 100) },
    );
    const url = `/api/pim/pimsimpletextline/${quad.lineIds[0]}/image`;
    const res = await t.app.inject({ method: 'GET', url, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const pixels = await pixelsOf(res.rawPayload);
    expect([pixels.width, pixels.height]).toEqual([81, 31]);
    expect(near(pixels.at(40, 15), YELLOW)).toBe(true);
    const etag = res.headers.etag as string;
    expect((await t.app.inject({ method: 'GET', url, headers: { ...owner.auth, 'if-none-match': etag } })).statusCode).toBe(304);

    const none = await call(t.app, { method: 'GET', url: `/api/pim/pimsimpletextline/${quad.lineIds[1]}/image`, headers: owner.auth });
    expect(none.status).toBe(404);
    expect(none.json.message).toBe(`Text line ${quad.lineIds[1]} has no outline in its transcription, so there is no line image to show.`);
    expect((await t.app.inject({ method: 'GET', url, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers: {} })).statusCode).toBe(401);
  });

  it('documentimage/{uuid}/groundtruth: each transcription oldest first, with its line count and corrected lines', async () => {
    const set = await createSet(t.app, owner.auth, 'Two transcriptions');
    const first = await uploadPageWithLines(t.app, owner.auth, set, 'twice', two('first'));
    // A second PAGE file of the same image: a second transcription.
    const xml = pageWithLines('twice.png', [...two('second'), { text: 'third line' }]);
    const again = (await upload(t.app, owner.auth, set, [{ fileName: 'twice.xml', bytes: xml }])).json.transcriptions[0];
    const lines = await t.app.database.db.selectFrom('simple_text_line').select('id').where('transcription_id', '=', again).orderBy('line_index').execute();
    expect((await update(owner.auth, lines[2]!.id, 'Third line')).status).toBe(200);
    expect((await update(owner.auth, lines[0]!.id, 'second one')).status).toBe(200);
    const url = `/api/pim/documentimage/${first.imageId}/groundtruth`;
    expect((await call(t.app, { method: 'GET', url, headers: owner.auth })).json).toEqual([
      { transcriptionId: first.transcriptionId, linesTotal: 2, lines: [] },
      {
        transcriptionId: again,
        linesTotal: 3,
        lines: [
          { lineIndex: 0, text: 'second one', groundTruth: 'second one' },
          { lineIndex: 2, text: 'third line', groundTruth: 'Third line' },
        ],
      },
    ]);
    expect((await call(t.app, { method: 'GET', url, headers: other.auth })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url, headers: {} })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/documentimage/x/groundtruth', headers: owner.auth })).status).toBe(400);
  });
});
