import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, upload } from '../../test-support/upload-files.js';

const IFORAL = fixturePath('page', 'iforal');
const HOCR = fixturePath('hocr');
if (!fs.existsSync(IFORAL)) console.warn(`Skipping the iforal text-line conformance test: ${IFORAL} is absent.`);
if (!fs.existsSync(HOCR)) console.warn(`Skipping the hOCR text-line conformance test: ${HOCR} is absent.`);

describe('text lines from real transcriptions (shared/fixtures)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** Uploads an image and its transcription into a new set; gives the image and its text lines in reading order. */
  async function importPage(folder: string, imageFile: string, xmlFile: string) {
    const setId = await createSet(t.app, owner.auth, `${folder} ${imageFile}`);
    const image = await upload(t.app, owner.auth, setId, [{ fileName: path.basename(imageFile), bytes: fs.readFileSync(path.join(folder, imageFile)) }]);
    expect(image.status, JSON.stringify(image.json)).toBe(200);
    const xml = await upload(t.app, owner.auth, setId, [{ fileName: path.basename(xmlFile), bytes: fs.readFileSync(path.join(folder, xmlFile)) }]);
    expect(xml.status, JSON.stringify(xml.json)).toBe(200);
    const imageId = image.json.documentImages[0].uuid as string;
    const lines = await t.app.database.db
      .selectFrom('simple_text_line')
      .selectAll()
      .where('transcription_id', '=', xml.json.transcriptions[0])
      .orderBy('line_index')
      .execute();
    const { width, height } = await t.app.database.db.selectFrom('document_image').select(['width', 'height']).where('id', '=', imageId).executeTakeFirstOrThrow();
    return { imageId, lines, width, height };
  }

  it.skipIf(!fs.existsSync(IFORAL))('the iforal PAGE pages: one line per TextLine, texts exactly as expected_lines.tsv, in order, boxed inside the page', async () => {
    const expected = fs
      .readFileSync(path.join(IFORAL, 'expected_lines.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((row) => row.split('\t') as [string, string, string]);
    const pages = [...new Set(expected.map(([file]) => file))];
    expect(pages.length).toBe(4);
    for (const xmlFile of pages) {
      const { imageId, lines, width, height } = await importPage(IFORAL, xmlFile.replace(/\.xml$/, '.jpg'), xmlFile);
      expect(lines.map((l) => l.text)).toEqual(expected.filter(([file]) => file === xmlFile).map(([, , text]) => text));
      expect(lines.map((l) => l.line_index)).toEqual(lines.map((_, i) => i));
      for (const l of lines) {
        expect(l.region_x, `${xmlFile} line ${l.line_index}`).not.toBeNull();
        expect(l.region_x! + l.region_w!).toBeLessThanOrEqual(width);
        expect(l.region_y! + l.region_h!).toBeLessThanOrEqual(height);
      }
      const picked = await call(t.app, { method: 'GET', url: `/api/pim/pimsimpletextline/random/parent/${imageId}`, headers: owner.auth });
      expect(lines.map((l) => l.id)).toContain(picked.json.uuid);
      const crop = await t.app.inject({ method: 'GET', url: `/api/pim/pimsimpletextline/${picked.json.uuid}/image`, headers: owner.auth });
      expect(crop.statusCode).toBe(200);
      const { width: w, height: h } = await sharp(crop.rawPayload).metadata();
      expect([w, h]).toEqual([picked.json.region.w, picked.json.region.h]);
    }
  });

  it.skipIf(!fs.existsSync(HOCR))('tess.hocr: 37 lines with word confidences scaled to 0..1, the lowest not above the mean', async () => {
    const { lines } = await importPage(HOCR, 'alice_1.png', 'tess.hocr');
    expect(lines).toHaveLength(37);
    for (const l of lines) {
      expect(l.confidence).toBeGreaterThan(0);
      expect(l.confidence).toBeLessThanOrEqual(1);
      expect(l.lowest_conf).toBeLessThanOrEqual(l.confidence!);
    }
  });
});
