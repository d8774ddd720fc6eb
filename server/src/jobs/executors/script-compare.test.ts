import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_BOM } from '../../modules/metadata/csv.js';
import { fixturePath, SHARED_FIXTURES } from '../../test-support/fixtures.js';
import { runExecutor } from '../../test-support/job-context.js';
import { pageWithLines } from '../../test-support/text-lines.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { altoXml } from '../../test-support/xml-files.js';
import { scriptCompare } from './script-compare.js';

const KANT = fixturePath('page/kant1784/data');

/** The report's three tables, each as rows of cells (a plain reader: the cells here hold no quotes or line breaks). */
function tablesOf(csv: string): string[][][] {
  expect(csv.startsWith(CSV_BOM)).toBe(true);
  return csv
    .slice(1)
    .split('\r\n\r\n')
    .map((table) => table.split('\r\n').filter(Boolean).map(cells));
}

function cells(row: string): string[] {
  const out: string[] = [];
  for (const m of row.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
    out.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replaceAll('""', '"') : m[1]!);
    if (m[2] === '') break;
  }
  return out;
}

/** The code points of a page's line texts (the fixture's own list) joined by single spaces, as the comparison counts them. */
function pageTextLength(pageXml: string): number {
  const lines = fs
    .readFileSync(fixturePath('page/kant1784/expected_lines_from_PAGE.tsv'), 'utf8')
    .split('\n')
    .map((row) => row.split('\t'))
    .filter((cells) => cells[0] === pageXml)
    .map((cells) => cells[2]!);
  return [...lines.join(' ').replace(/\s+/g, ' ').trim()].length;
}

/** A table's rows as objects by its header. */
function records(table: string[][]): Record<string, string>[] {
  const [header, ...rows] = table;
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i] ?? ''])));
}

describe('ScriptCompare', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const run = (setId: string, ownerId = owner.userId) =>
    runExecutor(t.app, scriptCompare, { type: 'ScriptCompare', settings: { imageSet: setId }, ownerId });

  async function put(setId: string, fileName: string, bytes: Buffer) {
    const res = await upload(t.app, owner.auth, setId, [{ fileName, bytes }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json;
  }

  it.skipIf(!fs.existsSync(SHARED_FIXTURES))('compares the PAGE and ALTO ground truth of the same Fraktur pages: they differ only in spacing', async () => {
    const setId = await createSet(t.app, owner.auth, 'Kant 1784');
    for (const n of ['0017', '0020']) {
      await put(setId, `INPUT_${n}.tif`, fs.readFileSync(path.join(KANT, `OCR-D-IMG/INPUT_${n}.tif`)));
      await put(setId, `PAGE_${n}_ALTO.xml`, fs.readFileSync(path.join(KANT, `OCR-D-GT-ALTO/PAGE_${n}_ALTO.xml`)));
      await put(setId, `PAGE_${n}_PAGE.xml`, fs.readFileSync(path.join(KANT, `OCR-D-GT-PAGE/PAGE_${n}_PAGE.xml`)));
    }

    const result = await run(setId);

    expect(result.output).toMatchObject({ fileName: 'Kant 1784 comparison.csv', mediaType: 'text/csv; charset=utf-8' });
    const [images, summary, confusions] = tablesOf(result.output!.bytes.toString('utf8'));
    const rows = records(images!);
    expect(rows.map((r) => r.label)).toEqual(['INPUT_0017', 'INPUT_0020']);
    for (const [i, n] of ['0017', '0020'].entries()) {
      expect(rows[i]!.reference).toMatch(new RegExp(`^PAGE · PAGE_${n}_PAGE\\.xml · \\d{4}-\\d\\d-\\d\\d$`));
      expect(rows[i]!.hypothesis).toMatch(new RegExp(`^ALTO · PAGE_${n}_ALTO\\.xml · `));
      expect(Number(rows[i]!['reference characters'])).toBe(pageTextLength(`data/OCR-D-GT-PAGE/PAGE_${n}_PAGE.xml`));
      expect(Number(rows[i]!.CER)).toBeLessThan(0.05);
    }
    const totals = Object.fromEntries(summary!.slice(1));
    expect(totals).toMatchObject({ 'image set': 'Kant 1784', images: '2', 'images compared': '2', 'images without a pair to compare': '0', normalisation: 'Collapse whitespace' });
    const characters = rows.reduce((sum, r) => sum + Number(r['reference characters']), 0);
    const errors = rows.reduce((sum, r) => sum + Number(r['character errors']), 0);
    expect(Number(totals['reference characters'])).toBe(characters);
    expect(totals.CER).toBe((errors / characters).toFixed(4));
    // ALTO joins the words of a line with spaces where PAGE's line text has none (or the reverse):
    // the same ground truth otherwise, so every confusion is a space added or dropped.
    for (const c of records(confusions!)) {
      expect([c['reference code point'], c['hypothesis code point']].sort(), JSON.stringify(c)).toEqual(['', 'U+0020']);
    }
    expect(result.progress.at(-1)).toMatchObject({ done: 2, total: 2 });
  });

  it('measures recognised text against PAGE, else corrected lines against what was read, and says why an image has no measures', async () => {
    const setId = await createSet(t.app, owner.auth, 'Mixed');
    const png = await testImage('png', 60, 40);
    // 1: PAGE against ALTO, two errors: I read as l, a space dropped.
    await put(setId, 'one.png', png);
    await put(setId, 'one.xml', pageWithLines('one.png', [{ text: 'Ich bin da' }], { width: 60, height: 40 }));
    await put(setId, 'one-alto.xml', Buffer.from(altoXml('one.png', ['lch', 'binda'])));
    // 2: only PAGE, one line corrected.
    await put(setId, 'two.png', png);
    const two = await put(setId, 'two.xml', pageWithLines('two.png', [{ text: 'Recht' }, { text: 'lch' }], { width: 60, height: 40 }));
    const [line] = await t.app.database.db.selectFrom('simple_text_line').select('id').where('transcription_id', '=', two.transcriptions[0]).where('line_index', '=', 1).execute();
    await t.app.services.textLines.update(owner.principal, { uuid: line!.id, groundtruth: 'Ich' });
    // 3: no transcription; 4: one transcription, nothing corrected.
    await put(setId, 'three.png', png);
    await put(setId, 'four.png', png);
    await put(setId, 'four.xml', pageWithLines('four.png', [{ text: 'allein' }], { width: 60, height: 40 }));

    const result = await run(setId);

    const [images, summary, confusions] = tablesOf(result.output!.bytes.toString('utf8'));
    const rows = records(images!);
    expect(rows.map((r) => [r.label, r['reference characters'], r['character errors'], r.CER, r['reference words'], r['word errors'], r.WER])).toEqual([
      ['one', '10', '2', '0.2000', '3', '3', '1.0000'],
      ['two', '3', '1', '0.3333', '1', '1', '1.0000'],
      ['three', '', '', '', '', '', ''],
      ['four', '', '', '', '', '', ''],
    ]);
    expect(rows[1]!.reference).toBe('Ground truth of 1 of 2 lines');
    expect(rows[1]!.hypothesis).toMatch(/^PAGE · two\.xml · /);
    expect(rows[2]!.note).toBe('No transcription.');
    expect(rows[3]!.note).toBe('Only one transcription and no ground truth: nothing to compare it with.');
    expect(Object.fromEntries(summary!.slice(1))).toMatchObject({ images: '4', 'images compared': '2', 'images without a pair to compare': '2', CER: (3 / 13).toFixed(4) });
    expect(records(confusions!)).toEqual([
      { 'reference character': 'I', 'reference code point': 'U+0049', 'hypothesis character': 'l', 'hypothesis code point': 'U+006C', count: '2' },
      { 'reference character': ' ', 'reference code point': 'U+0020', 'hypothesis character': '', 'hypothesis code point': '', count: '1' },
    ]);
    expect(result.notes).toMatchObject({ images: 4, compared: 2, skipped: 2 });
  });

  it('reads only sets its owner may read, and stops between images when cancelled', async () => {
    const setId = await createSet(t.app, owner.auth, 'Private');
    const stranger = await signedInUser(t.app);
    await expect(run(setId, stranger.userId)).rejects.toThrow(`There is no image set with id ${setId}.`);

    for (const name of ['a', 'b', 'c']) await put(setId, `${name}.png`, await testImage('png', 20, 20));
    const cancelled = runExecutor(t.app, scriptCompare, { type: 'ScriptCompare', settings: { imageSet: setId }, ownerId: owner.userId }, (r) => {
      if (r.progress.length === 1) r.controller.abort(new Error('The job was cancelled.'));
    });
    await expect(cancelled).rejects.toThrow('The job was cancelled.');
  });
});
