import fs from 'node:fs';
import path from 'node:path';
import { characterErrorRate, compareTexts, editDistance } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, upload } from '../../test-support/upload-files.js';

const KANT = fixturePath('page', 'kant1784');
if (!fs.existsSync(KANT)) console.warn(`Skipping the kant1784 CER test: ${KANT} is absent.`);

/** The textbook table, written here so the library's bit-parallel answer is checked against something else. */
function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= y.length; j += 1) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[y.length]!;
}

describe('comparing two transcriptions of one page (kant1784: PAGE and ALTO ground truth)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  it.skipIf(!fs.existsSync(KANT))('computes the CER between them as the plain dynamic programme does', async () => {
    const setId = await createSet(t.app, owner.auth, 'Kant CER');
    const tif = await upload(t.app, owner.auth, setId, [
      { fileName: 'INPUT_0017.tif', bytes: fs.readFileSync(path.join(KANT, 'data/OCR-D-IMG/INPUT_0017.tif')) },
    ]);
    const imageId = tif.json.documentImages[0].uuid;
    for (const [folder, file] of [
      ['OCR-D-GT-PAGE', 'PAGE_0017_PAGE.xml'],
      ['OCR-D-GT-ALTO', 'PAGE_0017_ALTO.xml'],
    ]) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: file!, bytes: fs.readFileSync(path.join(KANT, 'data', folder!, file!)) }]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    const list = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}/transcriptions`, headers: owner.auth });
    const byFormat = Object.fromEntries((list.json as { format: string; cleanText: string }[]).map((tr) => [tr.format, tr.cleanText]));
    const page = byFormat.page!;
    const alto = byFormat.alto!;
    expect(page.length).toBeGreaterThan(500);

    const distance = levenshtein(page, alto);
    const cer = distance / [...page].length;
    expect(editDistance(page, alto)).toBe(distance);
    expect(characterErrorRate(page, alto)).toBeCloseTo(cer, 12);
    expect(compareTexts(page, alto).cer).toBeCloseTo(cer, 12);
    // The two differ in the text's spacing only (ALTO joins words with single spaces): apart from
    // whitespace they are the same characters, so the distance is small but not nothing.
    expect(page.replace(/\s/g, '')).toBe(alto.replace(/\s/g, ''));
    expect(distance).toBeGreaterThan(0);
    expect(cer).toBeLessThan(0.05);
  });
});
