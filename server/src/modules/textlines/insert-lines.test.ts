import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { pageLine, pageXml } from '../../test-support/xml-files.js';
import { insertLinesOf } from './repository.js';

describe('making the text lines of a long transcription', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives the event loop a turn between chunks, so other requests are not held up by a long page', async () => {
    const owner = await signedInUser(t.app);
    const setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'p.png', bytes: await testImage('png', 60, 40) }]);
    const xml = await upload(t.app, owner.auth, setId, [{ fileName: 'p.xml', bytes: Buffer.from(pageXml('p.png', pageLine('l0', 'one'))) }]);
    expect(xml.status).toBe(200);
    const transcriptionId = xml.json.transcriptions[0] as string;
    const imageId = xml.json.documentImages[0].uuid as string;
    const db = t.app.database.db;
    await db.deleteFrom('simple_text_line').where('transcription_id', '=', transcriptionId).execute();
    const lines = Array.from({ length: 3500 }, (_, i) => ({ id: `l${i}`, coords: '0,0 10,0 10,5 0,5', baseline: null, text: `Line ${i}` }));
    const layout = { page: { imageFilename: 'p.png', imageWidth: 60, imageHeight: 40 }, regions: [{ id: 'r', type: 'paragraph', coords: null, lines }] };

    // Turns of the event loop while the lines are written (the embedded database answers
    // synchronously: without a turn given back, none would happen until all chunks are in).
    let turns = 0;
    let writing = true;
    const turn = () => {
      if (!writing) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    await db.transaction().execute((trx) => insertLinesOf(trx, { id: transcriptionId, imageId, format: 'page', layout }));
    writing = false;

    expect(turns).toBeGreaterThanOrEqual(3);
    const stored = await db.selectFrom('simple_text_line').select(db.fn.countAll().as('n')).where('transcription_id', '=', transcriptionId).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(3500);
  });
});
