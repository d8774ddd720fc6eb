import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload, uploadRowCounts } from '../../test-support/upload-files.js';
import type { LayoutRegion } from './alto-xml.js';
import { XML_WITH_DTD } from './safe-xml.js';
import { UNKNOWN_HOCR_IMAGE } from './service.js';
import { fixturePath } from '../../test-support/fixtures.js';

const HOCR = fixturePath('hocr');
if (!fs.existsSync(HOCR)) console.warn(`Skipping the hOCR conformance tests: ${HOCR} is absent.`);

const XHTML_DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"\n "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** A small Tesseract-style hOCR page; `body` goes inside the ocr_page. */
function hocr(title: string, body: string, { doctype = XHTML_DOCTYPE, meta = true } = {}): Buffer {
  const head = meta ? `<meta name='ocr-system' content='tesseract 5.3.0'/><meta name='ocr-capabilities' content='ocr_page ocr_line ocrx_word'/>` : '';
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title></title>${head}</head>` +
      `<body><div class='ocr_page' id='page_1' title='${title}'>${body}</div></body></html>`,
  );
}

const word = (id: string, text: string, conf = 90) => `<span class='ocrx_word' id='${id}' title='bbox 1 2 3 4; x_wconf ${conf}'>${text}</span>`;

describe('uploads: hOCR', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const rowCounts = () => uploadRowCounts(t.app);
  const stored = (id: string) =>
    db().selectFrom('transcription').select(['layout', 'clean_text', 'format', 'transcriber']).where('id', '=', id).executeTakeFirstOrThrow();
  const linesOf = (layout: unknown) => (layout as { regions: LayoutRegion[] }).regions.flatMap((r) => r.lines);

  it('imports lines of words, line text, entities, bboxes, baselines and word confidences', async () => {
    const setId = await createSet(t.app, owner.auth);
    const img = await upload(t.app, owner.auth, setId, [{ fileName: 'page 3.png', bytes: await testImage('png', 100, 50) }]);
    const body =
      `<div class='ocr_carea' id='block_1' title='bbox 0 0 100 50'><p class='ocr_par' id='par_1' title='bbox 0 0 100 40'>` +
      `<span class='ocr_line' id='line_1' title='bbox 10 20 90 30; baseline 0.1 -2; x_size 10'>${word('w1', 'A&amp;B')} ${word('w2', '<strong>&#x204A;</strong>&nbsp;x', 55)}</span>` +
      `<span class='ocr_header' id='line_2' title='bbox 10 30 90 40'>${word('w3', 'Kopf')}</span></p></div>` +
      `<span class='ocr_line' id='line_3' title='bbox 0 40 100 50'>  plain\n  text </span>`;
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'out.hocr', bytes: hocr('image "/tmp/ocr/page 3.png"; bbox 0 0 100 50; ppageno 0', body) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ documentImages: [{ uuid: img.json.documentImages[0].uuid }], message: 'out.hocr: 3 lines added to the image page 3.' });
    const row = await stored(res.json.transcriptions[0]);
    expect(row).toMatchObject({ format: 'hocr', transcriber: 'tesseract 5.3.0', clean_text: 'A&B ⁊\u00a0x\nKopf\nplain text' });
    const layout = row.layout as { page: unknown; regions: LayoutRegion[] };
    expect(layout.page).toEqual({ imageFilename: '/tmp/ocr/page 3.png', imageWidth: 100, imageHeight: 50 });
    expect(layout.regions.map((r) => [r.id, r.type, r.lines.map((l) => l.id)])).toEqual([
      ['par_1', 'paragraph', ['line_1', 'line_2']],
      [null, 'text', ['line_3']],
    ]);
    expect(layout.regions[0]!.lines[0]).toMatchObject({ coords: '10,20 90,20 90,30 10,30', baseline: '10,28 90,36' });
    expect(layout.regions[0]!.lines[0]!.words).toEqual([
      { id: 'w1', coords: '1,2 3,2 3,4 1,4', text: 'A&B', confidence: 90 },
      { id: 'w2', coords: '1,2 3,2 3,4 1,4', text: '⁊\u00a0x', confidence: 55 },
    ]);
  });

  it('refuses DTD subsets, entities, bad structure and unknown images, storing no rows', async () => {
    const setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'p1.png', bytes: await testImage('png', 60, 40) }]);
    const line = `<span class='ocr_line' title='bbox 0 0 10 10'>x</span>`;
    const before = await rowCounts();
    const cases = [
      { name: 'a.html', bytes: hocr('image "p1.png"', line, { doctype: '<!DOCTYPE html [<!ENTITY e "boom">]>' }), message: XML_WITH_DTD },
      { name: 'b.html', bytes: hocr('image "p1.png"', `<span class='ocr_line'>&eacute;</span>`), message: XML_WITH_DTD },
      { name: 'c.html', bytes: hocr('image "p1.png"', `<!ENTITY x "y">${line}`), message: XML_WITH_DTD },
      { name: 'd.html', bytes: hocr('image "p9.png"', line), message: 'This XML belongs to the image "p9.png", which is not in this image set' },
      { name: 'e.html', bytes: hocr('bbox 0 0 60 40', line), message: UNKNOWN_HOCR_IMAGE },
      { name: 'f.html', bytes: hocr('image "p1.png"', line, { meta: false }), message: '<meta name="ocr-system"> is missing' },
      { name: 'g.html', bytes: hocr('image "p1.png"', `<br>${line}`), message: 'This hOCR file is not well-formed' },
      { name: 'h.html', bytes: hocr('image "p1.png"', `</div><div class='ocr_page' title='image "p1.png"'>${line}`), message: 'has 2 pages' },
    ];
    for (const c of cases) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: c.name, bytes: c.bytes }]);
      expect(res.status, c.message).toBe(400);
      expect(res.json.message).toContain(c.message);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it.skipIf(!fs.existsSync(HOCR))('imports tess.hocr (37 lines, 503 words) and litver.html (105 lines); page bbox = PNG size', async () => {
    for (const [png, file, lineCount, wordCount] of [
      ['alice_1.png', 'tess.hocr', 37, 503],
      ['litver.png', 'litver.html', 105, 0],
    ] as const) {
      const setId = await createSet(t.app, owner.auth, file);
      const bytes = fs.readFileSync(path.join(HOCR, png));
      const img = await upload(t.app, owner.auth, setId, [{ fileName: png, bytes }]);
      expect(img.status, JSON.stringify(img.json)).toBe(200);
      const res = await upload(t.app, owner.auth, setId, [{ fileName: file, bytes: fs.readFileSync(path.join(HOCR, file)) }]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.documentImages[0].uuid).toBe(img.json.documentImages[0].uuid);
      const row = await stored(res.json.transcriptions[0]);
      const lines = linesOf(row.layout);
      expect(lines).toHaveLength(lineCount);
      expect(lines.flatMap((l) => l.words)).toHaveLength(wordCount);
      expect(lines.every((l) => l.coords && l.text)).toBe(true);
      const { width, height } = await sharp(bytes).metadata();
      const page = (row.layout as { page: { imageWidth: number; imageHeight: number } }).page;
      expect([page.imageWidth, page.imageHeight]).toEqual([width, height]);
      const image = await db().selectFrom('document_image').select(['lines_count']).where('id', '=', img.json.documentImages[0].uuid).executeTakeFirstOrThrow();
      expect(image.lines_count).toBe(lineCount);
    }
  });

  it.skipIf(!fs.existsSync(HOCR))('accepts the hocr-check ok files and refuses the notok ones with a clear message', async () => {
    const setId = await createSet(t.app, owner.auth);
    const refusals: Record<string, string> = {
      'notok-carea.html': 'has an ocr_carea outside any ocr_page',
      'notok-line.html': 'has an ocr_line outside any ocr_page',
      'notok-par.html': 'has an ocr_par outside any ocr_page',
      'notok-system.html': '<meta name="ocr-system"> is missing',
      'notok-typo.html': '<meta name="ocr-capabilities"> is missing',
    };
    for (const folder of ['ancestor', 'meta']) {
      for (const name of fs.readdirSync(path.join(HOCR, 'hocr-check', folder)).sort()) {
        // These files name no image: they are matched to an image named like them.
        await upload(t.app, owner.auth, setId, [{ fileName: name.replace(/\.html$/, '.png'), bytes: await testImage('png', 20, 20) }]);
        const res = await upload(t.app, owner.auth, setId, [{ fileName: name, bytes: fs.readFileSync(path.join(HOCR, 'hocr-check', folder, name)) }]);
        if (name.startsWith('ok-')) {
          expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(200);
        } else {
          expect(res.status, name).toBe(400);
          expect(res.json.message, name).toContain(refusals[name]);
        }
      }
    }
  });
});
