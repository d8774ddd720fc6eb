import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { readZip, validatePage } from '../../test-support/page-export.js';
import { pageWithGlyphs } from '../../test-support/page-files.js';
import { pageStructure } from '../../test-support/page-structure.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';

const KANT = fixturePath('page/kant1784/data');
const IFORAL = fixturePath('page/iforal');

describe('PAGE zip: a PAGE file that came in goes out with its structure', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const pageZip = async (setId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/pim/imageset/${setId}/page`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    return readZip(res.rawPayload);
  };
  const uploadOk = async (setId: string, fileName: string, bytes: Buffer) => {
    const res = await upload(t.app, owner.auth, setId, [{ fileName, bytes }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json as { documentImages: { uuid: string }[]; transcriptions: string[] };
  };

  const fixtures = [
    { name: 'kant1784 p. 17', image: path.join(KANT, 'OCR-D-IMG/INPUT_0017.tif'), page: path.join(KANT, 'OCR-D-GT-PAGE/PAGE_0017_PAGE.xml'), words: 161 },
    { name: 'kant1784 p. 20', image: path.join(KANT, 'OCR-D-IMG/INPUT_0020.tif'), page: path.join(KANT, 'OCR-D-GT-PAGE/PAGE_0020_PAGE.xml'), words: 258 },
    ...['foral_de_evora_1218/1', 'foral_de_evora_1218/2', 'foral_de_evora_1218/3', 'foral_de_contrasta_1217/1'].map((p) => ({
      name: `iforal ${p}`,
      image: path.join(IFORAL, `${p}.jpg`),
      page: path.join(IFORAL, `${p}.xml`),
      words: 0,
    })),
  ];
  for (const f of fixtures) {
    it.skipIf(!fs.existsSync(f.page))(`${f.name}: the same regions, lines, words, glyphs and reading order (ids, outlines, texts), valid PAGE 2019`, async () => {
      const setId = await createSet(t.app, owner.auth, f.name);
      await uploadOk(setId, path.basename(f.image), fs.readFileSync(f.image));
      const source = fs.readFileSync(f.page);
      await uploadOk(setId, path.basename(f.page), source);
      const zip = await pageZip(setId);
      const exported = pageStructure([...zip.values()][0]!);
      const expected = pageStructure(source);
      expect(exported.regions).toEqual(expected.regions);
      expect(exported.readingOrder).toEqual(expected.readingOrder);
      // All the words survive (the testers' report: a page's 91 words were lost).
      expect(exported.regions.flatMap((r) => r.children.flatMap((l) => l.children))).toHaveLength(f.words);
      await validatePage(zip);
    });
  }

  it('glyphs, nested groups and languages go out; references to regions that are not exported are left out', async () => {
    const setId = await createSet(t.app, owner.auth, 'Glyphs');
    await uploadOk(setId, 'glyphs.png', await testImage('png', 60, 40));
    const source = pageWithGlyphs('glyphs.png');
    await validatePage(new Map([['source.xml', source]]));
    await uploadOk(setId, 'glyphs.xml', source);
    const zip = await pageZip(setId);
    const exported = pageStructure([...zip.values()][0]!);
    expect(exported.primaryLanguage).toBe('Latin');
    expect(exported.regions).toEqual(pageStructure(source).regions);
    const main = exported.regions[1]!.children[0]!;
    expect(main.children.map((w) => [w.id, w.texts, w.children.map((g) => [g.id, g.coords, g.texts])])).toEqual([
      ['w1', ['ꝑ&'], [['w1-g1', '1,10 5,10 5,18 1,18', ['ꝑ']], ['w1-g2', '6,10 10,10 10,18 6,18', ['&']]]],
      ['w2', ['q̄'], [['w2-g1', '20,10 24,10 24,18 20,18', ['q̄']]]],
    ]);
    // The separator is not exported: its references go, and the group that held only it.
    expect(exported.readingOrder).toEqual({
      id: undefined,
      caption: undefined,
      type: undefined,
      regionRef: undefined,
      members: [
        {
          OrderedGroup: {
            id: 'ro',
            caption: 'Regions',
            type: undefined,
            regionRef: undefined,
            members: [
              { ref: 'head', index: '0' },
              { UnorderedGroupIndexed: { id: 'notes', caption: undefined, type: 'other', regionRef: undefined, members: [{ ref: 'note', index: undefined }] }, index: '1' },
              { OrderedGroupIndexed: { id: 'body', caption: undefined, type: undefined, regionRef: undefined, members: [{ ref: 'main', index: '0' }] }, index: '2' },
            ],
          },
          index: undefined,
        },
      ],
    });
    expect([...zip.values()][0]!.toString()).toContain('<TextEquiv conf="0.75"><Unicode>ꝑ&amp;</Unicode></TextEquiv>');
    await validatePage(zip);
  });

  it('exports the PAGE transcription of an image that also has a later ALTO one, with its ground truth; the newest PAGE of several', async () => {
    const setId = await createSet(t.app, owner.auth, 'Both');
    const imageId = (await uploadOk(setId, 'both.png', await testImage('png', 60, 40))).documentImages[0]!.uuid;
    const first = pageWithGlyphs('both.png');
    await uploadOk(setId, 'both.xml', Buffer.from(first.toString().replace('>nota<', '>nota bene<')));
    const page = (await uploadOk(setId, 'both.xml', first)).transcriptions[0]!;
    const alto =
      `<?xml version="1.0" encoding="UTF-8"?><alto xmlns="http://www.loc.gov/standards/alto/ns-v4#"><Description><MeasurementUnit>pixel</MeasurementUnit>` +
      `<sourceImageInformation><fileName>both.png</fileName></sourceImageInformation></Description><Layout><Page WIDTH="60" HEIGHT="40">` +
      `<PrintSpace><TextBlock ID="alto-block"><TextLine ID="alto-line" HPOS="1" VPOS="1" WIDTH="50" HEIGHT="8"><String ID="alto-w" CONTENT="ALTO" HPOS="1" VPOS="1" WIDTH="20" HEIGHT="8"/></TextLine></TextBlock></PrintSpace></Page></Layout></alto>`;
    await uploadOk(setId, 'both-alto.xml', Buffer.from(alto));
    const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth });
    expect(list.json.map((tr: { format: string }) => tr.format)).toEqual(['page', 'page', 'alto']);

    const line = await t.app.database.db
      .selectFrom('simple_text_line')
      .select('id')
      .where('transcription_id', '=', page)
      .where('line_index', '=', 0)
      .executeTakeFirstOrThrow();
    const payload = { uuid: line.id, groundtruth: 'Kapitel I' };
    expect((await call(t.app, { method: 'POST', url: '/api/pim/pimsimpletextline/update', headers: owner.auth, payload })).status).toBe(200);

    const zip = await pageZip(setId);
    const exported = pageStructure([...zip.values()][0]!);
    expect(exported.regions.map((r) => r.id)).toEqual(['head', 'main', 'note']);
    // The newest PAGE file says "nota", the older one "nota bene".
    expect(exported.regions[2]!.children[0]!.texts).toEqual(['nota']);
    // The corrected line has its ground truth first; its region's own text, now out of date, is left out.
    expect(exported.regions[0]!.children[0]!.texts).toEqual(['Kapitel I', 'Kapitel']);
    expect(exported.regions[0]!.texts).toEqual([]);
    await validatePage(zip);
  });

  const kantAlto = path.join(KANT, 'OCR-D-GT-ALTO/PAGE_0020_ALTO.xml');
  it.skipIf(!fs.existsSync(kantAlto))('an image with only an ALTO transcription exports it with its words', async () => {
    const setId = await createSet(t.app, owner.auth, 'ALTO only');
    await uploadOk(setId, 'INPUT_0020.tif', fs.readFileSync(path.join(KANT, 'OCR-D-IMG/INPUT_0020.tif')));
    await uploadOk(setId, 'PAGE_0020_ALTO.xml', fs.readFileSync(kantAlto));
    const zip = await pageZip(setId);
    const words = pageStructure([...zip.values()][0]!).regions.flatMap((r) => r.children.flatMap((l) => l.children));
    const strings = [...fs.readFileSync(kantAlto, 'utf8').matchAll(/<String\b[^>]*\bID="([^"]+)"[^>]*\bCONTENT="([^"]*)"/g)];
    expect(words.map((w) => [w.id, w.texts[0]])).toEqual(strings.map(([, id, text]) => [id, text]));
    await validatePage(zip);
  });
});
