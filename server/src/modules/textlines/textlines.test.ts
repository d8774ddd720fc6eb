import { randomUUID } from 'node:crypto';
import { characterErrorRate } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { uploadPageWithLines } from '../../test-support/text-lines.js';
import { createSet } from '../../test-support/upload-files.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Auth = Record<string, string>;

const LINES = [
  { text: 'Jn nomine dñi amen', points: '10,10 120,8 122,30 9,31' },
  { text: 'ego  Alfonſus ⁊ 𝔄', points: '10,40 150,40 150,60 10,60' },
  { text: 'without an outline' },
];

/**
 * Each describe starts from an empty database holding the same page of an owner's set, and uses
 * the same calls; `beforeAll` fills `f`.
 */
function chartersFixture() {
  const f = {} as {
    t: TestApp;
    owner: User;
    other: User;
    admin: User;
    setId: string;
    page: Awaited<ReturnType<typeof uploadPageWithLines>>;
  };
  beforeAll(async () => {
    f.t = await createTestApp();
    f.owner = await signedInUser(f.t.app);
    f.other = await signedInUser(f.t.app);
    f.admin = await signedInUser(f.t.app, { admin: true });
    f.setId = await createSet(f.t.app, f.owner.auth, 'Charters');
    f.page = await uploadPageWithLines(f.t.app, f.owner.auth, f.setId, 'folio 1', LINES);
  });
  afterAll(() => f.t.close());
  return {
    f,
    getLine: (auth: Auth, id: string) => call(f.t.app, { method: 'GET', url: `/api/pim/pimsimpletextline/${id}`, headers: auth }),
    post: (auth: Auth, action: 'update' | 'skip', payload: unknown) =>
      call(f.t.app, { method: 'POST', url: `/api/pim/pimsimpletextline/${action}`, headers: auth, payload: payload as Record<string, unknown> }),
    makePublic: (id: string) =>
      f.t.app.database.db.updateTable('document_image_set').set({ public_document_image_set: true }).where('id', '=', id).execute(),
  };
}

describe('text lines: one line, correcting and skipping', () => {
  const { f, getLine, post, makePublic } = chartersFixture();

  it('a PAGE upload makes a line per TextLine in reading order, with the bounding box of its outline', async () => {
    expect(f.page.lineIds).toHaveLength(3);
    const lines = await Promise.all(f.page.lineIds.map(async (id) => (await getLine(f.owner.auth, id)).json));
    expect(lines.map((l) => [l.lineIndex, l.text, l.groundTruth, l.region])).toEqual([
      [0, LINES[0]!.text, null, { x: 9, y: 8, w: 114, h: 24 }],
      [1, LINES[1]!.text, null, { x: 10, y: 40, w: 141, h: 21 }],
      [2, LINES[2]!.text, null, null],
    ]);
    expect(lines[0]).toMatchObject({
      uuid: f.page.lineIds[0],
      confidence: null,
      lowestConf: null,
      documentImageId: f.page.imageId,
      documentImageLabel: 'folio 1',
      transcriptionId: f.page.transcriptionId,
    });
    expect(Date.parse(lines[0].updated)).not.toBeNaN();
  });

  it('GET one line: the f.owner and admins read it; others 404, anonymous 401, a malformed id 400, an unknown one 404', async () => {
    const id = f.page.lineIds[0]!;
    expect((await getLine(f.admin.auth, id)).status).toBe(200);
    const hidden = await getLine(f.other.auth, id);
    expect(hidden.status).toBe(404);
    expect(hidden.json.message).toBe(`There is no text line with id ${id}.`);
    expect((await getLine({}, id)).status).toBe(401);
    const malformed = await getLine(f.owner.auth, 'line-1');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toBe('validation_failed');
    const unknown = randomUUID();
    expect((await getLine(f.owner.auth, unknown)).json).toMatchObject({ error: 'not_found', message: `There is no text line with id ${unknown}.` });
  });

  it('update saves the ground truth exactly (spaces kept, the trailing line break dropped), stores its CER and returns the line', async () => {
    const id = f.page.lineIds[1]!;
    const groundTruth = ' ego  Alfonſus ⁊ 𝔄 rex ';
    const res = await post(f.owner.auth, 'update', { uuid: id, groundtruth: `${groundTruth}\r\n` });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ uuid: id, text: LINES[1]!.text, groundTruth, lineIndex: 1 });
    const row = await f.t.app.database.db.selectFrom('simple_text_line').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.ground_truth).toBe(groundTruth);
    expect(row.cer).toBeCloseTo(characterErrorRate(groundTruth, LINES[1]!.text), 12);
    expect(row.cer).toBeGreaterThan(0);
    expect(row.corrected_by).toBe(f.owner.userId);
    expect(row.corrected_at).not.toBeNull();

    const again = await post(f.admin.auth, 'update', { uuid: id, groundtruth: LINES[1]!.text });
    expect(again.json.groundTruth).toBe(LINES[1]!.text);
    const after = await f.t.app.database.db.selectFrom('simple_text_line').select(['cer', 'corrected_by']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual({ cer: 0, corrected_by: f.admin.userId });
  });

  it('update needs WRITE: a reader of a public set gets 403, anyone else 404, anonymous 401; nothing is saved', async () => {
    const set = await createSet(f.t.app, f.owner.auth, 'Public');
    const { lineIds } = await uploadPageWithLines(f.t.app, f.owner.auth, set, 'public page', LINES);
    const id = lineIds[0]!;
    expect((await post(f.other.auth, 'update', { uuid: id, groundtruth: 'x' })).status).toBe(404);
    await makePublic(set);
    expect((await getLine(f.other.auth, id)).status).toBe(200);
    const readOnly = await post(f.other.auth, 'update', { uuid: id, groundtruth: 'x' });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.message).toBe('You may read this text line but not change it: that needs WRITE permission on its image.');
    expect((await post({}, 'update', { uuid: id, groundtruth: 'x' })).status).toBe(401);
    expect((await getLine(f.owner.auth, id)).json.groundTruth).toBeNull();
  });

  it('refuses bad input with 400 and an unknown line with 404', async () => {
    const id = f.page.lineIds[0]!;
    const tooLong = await post(f.owner.auth, 'update', { uuid: id, groundtruth: 'x'.repeat(10_001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.message).toContain('A line can hold at most 10,000 characters.');
    expect((await post(f.owner.auth, 'update', { uuid: id })).json).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('groundtruth') });
    expect((await post(f.owner.auth, 'update', { groundtruth: 'x' })).json.message).toContain('uuid');
    expect((await post(f.owner.auth, 'update', { uuid: 'nope', groundtruth: 'x' })).status).toBe(400);
    expect((await post(f.owner.auth, 'skip', { uuid: id })).status).toBe(400);
    const unknown = randomUUID();
    for (const action of ['update', 'skip'] as const) {
      expect((await post(f.owner.auth, action, { uuid: unknown, groundtruth: 'x' })).json).toMatchObject({ error: 'not_found', message: `There is no text line with id ${unknown}.` });
    }
    expect((await getLine(f.owner.auth, id)).json.groundTruth).toBeNull();
  });

  it('skip needs only READ (it hides the line from the caller alone), and a signed-in user; an API key has nobody to skip for', async () => {
    const set = await createSet(f.t.app, f.owner.auth, 'Readable');
    const { lineIds } = await uploadPageWithLines(f.t.app, f.owner.auth, set, 'readable', LINES);
    expect((await post(f.other.auth, 'skip', { uuid: lineIds[0], groundtruth: '' })).status).toBe(404);
    await makePublic(set);
    expect((await post(f.other.auth, 'skip', { uuid: lineIds[0], groundtruth: '' })).status).toBe(204);
    expect((await post({}, 'skip', { uuid: lineIds[0], groundtruth: '' })).status).toBe(401);
    const { apiKey } = await f.t.app.services.apiKeys.create({ userName: 'robot', roles: ['admin'] });
    const robot = await post({ authorization: `ApiKey ${apiKey}` }, 'skip', { uuid: lineIds[0], groundtruth: '' });
    expect(robot.status).toBe(400);
    expect(robot.json.message).toBe('Skips are kept per person: an API key has no user to keep them for.');
  });
});

/** Random picks see every line a caller may read, so these start from an empty database. */
describe('text lines: random picks', () => {
  const { f, getLine, post, makePublic } = chartersFixture();

  it('random: admins pick among everyone’s lines, others never see lines of sets they may not read, anonymous 401', async () => {
    const stranger = await signedInUser(f.t.app);
    expect((await call(f.t.app, { method: 'GET', url: '/api/pim/pimsimpletextline/random', headers: stranger.auth })).status).toBe(204);
    const picked = await call(f.t.app, { method: 'GET', url: `/api/pim/pimsimpletextline/random/parent/${f.setId}`, headers: f.admin.auth });
    expect(picked.status).toBe(200);
    expect(f.page.lineIds).toContain(picked.json.uuid);
    const anyLine = await call(f.t.app, { method: 'GET', url: '/api/pim/pimsimpletextline/random', headers: f.admin.auth });
    expect(anyLine.status).toBe(200);
    expect((await call(f.t.app, { method: 'GET', url: '/api/pim/pimsimpletextline/random', headers: {} })).status).toBe(401);
  });
  it('random gives an uncorrected line the caller may read and has not skipped, then 204 with an empty body', async () => {
    const user = await signedInUser(f.t.app);
    const set = await createSet(f.t.app, user.auth, 'Mine');
    const mine = await uploadPageWithLines(f.t.app, user.auth, set, 'mine', LINES);
    const random = () => call(f.t.app, { method: 'GET', url: '/api/pim/pimsimpletextline/random', headers: user.auth });

    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 3; i += 1) {
      const res = await random();
      expect(res.status).toBe(200);
      expect(mine.lineIds).toContain(res.json.uuid);
      seen.add(res.json.uuid);
    }
    expect(seen.size).toBe(3);

    expect((await post(user.auth, 'update', { uuid: mine.lineIds[0], groundtruth: 'corrected' })).status).toBe(200);
    // A skip stores nothing of its ground truth: Skip means "not now".
    expect((await post(user.auth, 'skip', { uuid: mine.lineIds[1], groundtruth: 'typed, then skipped' })).status).toBe(204);
    expect((await getLine(user.auth, mine.lineIds[1]!)).json.groundTruth).toBeNull();
    for (let i = 0; i < 5; i += 1) expect((await random()).json.uuid).toBe(mine.lineIds[2]);

    expect((await post(user.auth, 'skip', { uuid: mine.lineIds[2], groundtruth: '' })).status).toBe(204);
    expect((await post(user.auth, 'skip', { uuid: mine.lineIds[2], groundtruth: '' })).status).toBe(204);
    const none = await random();
    expect(none.status).toBe(204);
    expect(none.res.body).toBe('');

    // Skips are the skipper's own: the f.owner of the f.other set still gets the line when it is theirs to see.
    await makePublic(set);
    const others = new Set<string>();
    for (let i = 0; i < 60; i += 1) {
      const res = await call(f.t.app, { method: 'GET', url: `/api/pim/pimsimpletextline/random/parent/${set}`, headers: f.other.auth });
      others.add(res.json.uuid);
    }
    expect([...others].sort()).toEqual([mine.lineIds[1], mine.lineIds[2]].sort());
  });
});
