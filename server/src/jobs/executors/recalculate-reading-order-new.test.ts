import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOwnerRights } from '../../test-support/executor-access.js';
import { runExecutor } from '../../test-support/job-context.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { recalculateReadingOrderNew } from './recalculate-reading-order-new.js';

const TYPE = 'RecalculateReadingOrderNew';
const rect = (l: number, t: number, r: number, b: number) => `${l},${t} ${r},${t} ${r},${b} ${l},${b}`;

/**
 * A PAGE 2019 file of a 400 x 300 page in two columns, each a region of three lines. The file
 * lists the regions in `regionOrder` and each region's lines bottom to top, as a careless tool would.
 */
function twoColumnPage(imageFilename: string, { regionOrder = ['right', 'left'], direction }: { regionOrder?: string[]; direction?: string } = {}): Buffer {
  const columns: Record<string, [number, number]> = { left: [10, 190], right: [210, 390] };
  const regions = regionOrder.map((name) => {
    const [l, r] = columns[name]!;
    const lines = [3, 2, 1].map((n) => {
      const top = 20 + (n - 1) * 90;
      return (
        `<TextLine id="${name}${n}"><Coords points="${rect(l, top, r, top + 80)}"/><Baseline points="${l},${top + 70} ${r},${top + 70}"/>` +
        `<TextEquiv><Unicode>${name} ${n}</Unicode></TextEquiv></TextLine>`
      );
    });
    return `<TextRegion id="${name}" type="paragraph"><Coords points="${rect(l, 20, r, 280)}"/>${lines.join('')}</TextRegion>`;
  });
  const order = regionOrder.map((name, i) => `<RegionRefIndexed index="${i}" regionRef="${name}"/>`).join('');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">` +
      `<Metadata><Creator>Test</Creator><Created>2020-01-01T00:00:00</Created><LastChange>2020-01-01T00:00:00</LastChange></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="400" imageHeight="300"${direction ? ` readingDirection="${direction}"` : ''}>` +
      `<ReadingOrder><OrderedGroup id="ro1" caption="As the tool wrote it">${order}</OrderedGroup></ReadingOrder>${regions.join('')}</Page></PcGts>`,
  );
}

describe('RecalculateReadingOrderNew', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** Uploads a page image and its PAGE file into the set; gives the image and transcription ids. */
  async function uploadPage(auth: Record<string, string>, setId: string, name: string, xml: Buffer) {
    const image = await upload(t.app, auth, setId, [{ fileName: `${name}.png`, bytes: await testImage('png', 400, 300) }]);
    const page = await upload(t.app, auth, setId, [{ fileName: `${name}.xml`, bytes: xml }]);
    expect(page.status, JSON.stringify(page.json)).toBe(200);
    return { imageId: image.json.documentImages[0].uuid as string, transcriptionId: page.json.transcriptions[0] as string };
  }

  /** The transcription's lines as stored, in index order: text and ground truth. */
  const storedLines = (transcriptionId: string) =>
    t.app.database.db
      .selectFrom('simple_text_line')
      .select(['id', 'line_index', 'text', 'ground_truth'])
      .where('transcription_id', '=', transcriptionId)
      .orderBy('line_index')
      .execute();
  const layoutOf = async (imageId: string, transcriptionId: string) =>
    (await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions/${transcriptionId}/layout`, headers: owner.auth })).json as {
      regions: { id: string; lines: { id: string; index: number }[] }[];
    };

  it('puts the regions and lines of the set\'s layouts in reading order, keeping each line\'s ground truth with it', async () => {
    const setId = await createSet(t.app, owner.auth, 'Two columns');
    const { imageId, transcriptionId } = await uploadPage(owner.auth, setId, 'folio 1', twoColumnPage('folio 1.png'));
    const before = await storedLines(transcriptionId);
    expect(before.map((l) => l.text)).toEqual(['right 3', 'right 2', 'right 1', 'left 3', 'left 2', 'left 1']);
    for (const [text, groundtruth] of [['left 1', 'Left one.'], ['right 3', 'Right three.']]) {
      const line = before.find((l) => l.text === text)!;
      const saved = await call(t.app, { method: 'POST', url: '/api/pim/pimsimpletextline/update', headers: owner.auth, payload: { uuid: line.id, groundtruth } });
      expect(saved.status).toBe(200);
    }

    const run = await runExecutor(t.app, recalculateReadingOrderNew, { type: TYPE, settings: { imageSet: setId }, ownerId: owner.userId });

    const after = await storedLines(transcriptionId);
    expect(after.map((l) => [l.line_index, l.text])).toEqual([
      [0, 'left 1'],
      [1, 'left 2'],
      [2, 'left 3'],
      [3, 'right 1'],
      [4, 'right 2'],
      [5, 'right 3'],
    ]);
    // The same rows, moved: their ids and ground truth went with them.
    expect(after.find((l) => l.text === 'left 1')).toMatchObject({ id: before.find((l) => l.text === 'left 1')!.id, ground_truth: 'Left one.' });
    expect(after.find((l) => l.text === 'right 3')).toMatchObject({ id: before.find((l) => l.text === 'right 3')!.id, ground_truth: 'Right three.' });
    expect(after.filter((l) => l.ground_truth !== null)).toHaveLength(2);

    const layout = await layoutOf(imageId, transcriptionId);
    expect(layout.regions.map((r) => r.id)).toEqual(['left', 'right']);
    expect(layout.regions.flatMap((r) => r.lines.map((l) => `${l.index}:${l.id}`))).toEqual(['0:left1', '1:left2', '2:left3', '3:right1', '4:right2', '5:right3']);
    const stored = await t.app.database.db.selectFrom('transcription').select(['clean_text', 'layout']).where('id', '=', transcriptionId).executeTakeFirstOrThrow();
    expect(stored.clean_text).toBe('left 1\nleft 2\nleft 3\nright 1\nright 2\nright 3');
    expect((stored.layout as { readingOrder: unknown }).readingOrder).toMatchObject({
      kind: 'ordered',
      id: 'ro1',
      members: [
        { kind: 'region', regionRef: 'left', index: 0 },
        { kind: 'region', regionRef: 'right', index: 1 },
      ],
    });
    expect(run.notes).toEqual({ images: 1, transcriptions: 1, reordered: 1, alreadyInOrder: 0 });
    expect(run.progress.at(-1)).toMatchObject({ done: 1, total: 1 });

    // Again: everything is in order, nothing is written.
    const again = await runExecutor(t.app, recalculateReadingOrderNew, { type: TYPE, settings: { imageSet: setId }, ownerId: owner.userId });
    expect(again.notes).toEqual({ images: 1, transcriptions: 1, reordered: 0, alreadyInOrder: 1 });
    expect(await storedLines(transcriptionId)).toEqual(after);
  });

  it('reads the columns of a right-to-left PAGE page from the right', async () => {
    const setId = await createSet(t.app, owner.auth, 'Right to left');
    const xml = twoColumnPage('rtl.png', { regionOrder: ['left', 'right'], direction: 'right-to-left' });
    const { transcriptionId } = await uploadPage(owner.auth, setId, 'rtl', xml);
    await runExecutor(t.app, recalculateReadingOrderNew, { type: TYPE, settings: { imageSet: setId }, ownerId: owner.userId });
    expect((await storedLines(transcriptionId)).map((l) => l.text)).toEqual(['right 1', 'right 2', 'right 3', 'left 1', 'left 2', 'left 3']);
  });

  it('stops between images when the job is stopped, after finishing the image at hand', async () => {
    const setId = await createSet(t.app, owner.auth, 'Stopped');
    const first = await uploadPage(owner.auth, setId, 'first', twoColumnPage('first.png'));
    const second = await uploadPage(owner.auth, setId, 'second', twoColumnPage('second.png'));
    const running = runExecutor(t.app, recalculateReadingOrderNew, { type: TYPE, settings: { imageSet: setId }, ownerId: owner.userId }, (run) => {
      if (run.progress.length === 1) run.controller.abort(new Error('cancelled'));
    });
    await expect(running).rejects.toThrow('cancelled');
    expect((await storedLines(first.transcriptionId))[0]!.text).toBe('left 1');
    expect((await storedLines(second.transcriptionId))[0]!.text).toBe('right 3');
  });

  it('runs a job without an owner, made with an ADMIN API key (no other key may change a set), on any set', async () => {
    const setId = await createSet(t.app, owner.auth, 'By a key');
    const { transcriptionId } = await uploadPage(owner.auth, setId, 'keyed', twoColumnPage('keyed.png'));
    await runExecutor(t.app, recalculateReadingOrderNew, { type: TYPE, settings: { imageSet: setId }, ownerId: null });
    expect((await storedLines(transcriptionId))[0]!.text).toBe('left 1');
  });

  it("acts with its owner's rights", async () => {
    let transcriptionId = '';
    await expectOwnerRights(t, recalculateReadingOrderNew, TYPE, {
      fill: async (someone, setId) => {
        ({ transcriptionId } = await uploadPage(someone.auth, setId, 'private', twoColumnPage('private.png')));
      },
      state: () => storedLines(transcriptionId),
    });
  });
});
