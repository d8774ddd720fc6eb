import { JOB_MAKER_INACTIVE } from '../queue.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EPUBCHECK_MISSING, epubcheck, epubcheckInstalled } from '../../test-support/epubcheck.js';
import { fixturePath, SHARED_FIXTURES } from '../../test-support/fixtures.js';
import { runExecutor } from '../../test-support/job-context.js';
import { readZip } from '../../test-support/page-export.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { epubify } from './epubify.js';
import { pipelineKb2 } from './pipeline-kb2.js';

const EVORA = fixturePath('page/iforal/foral_de_evora_1218');
const hasFixtures = fs.existsSync(SHARED_FIXTURES);

/** The expected text of each TextLine of the iForal pages, by page file, in document order. */
function expectedLines(pageXml: string): string[] {
  return fs
    .readFileSync(fixturePath('page/iforal/expected_lines.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((row) => row.split('\t'))
    .filter((cells) => cells[0] === pageXml)
    .map((cells) => cells[2]!);
}

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The lines of a chapter's text as a reader gets them: paragraphs, their lines split at <br/>. */
function chapterText(xhtml: string): string[][] {
  return [...xhtml.matchAll(/<p class="region">([\s\S]*?)<\/p>/g)].map((m) => m[1]!.split('<br/>').map(unescape));
}

function writeEpub(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pim-epub-')), 'book.epub');
  fs.writeFileSync(file, bytes);
  return file;
}

/** A PAGE 2019 page with two regions whose reading order puts the second first, in `language`. */
function twoRegionPage(imageFilename: string, language: string): Buffer {
  const line = (id: string, text: string) => `<TextLine id="${id}"><Coords points="1,1 50,1 50,9 1,9"/><TextEquiv><Unicode>${text}</Unicode></TextEquiv></TextLine>`;
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">` +
      `<Metadata><Creator>Test</Creator><Created>2020-01-01T00:00:00</Created><LastChange>2020-01-01T00:00:00</LastChange></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="60" imageHeight="40" primaryLanguage="${language}">` +
      `<ReadingOrder><OrderedGroup id="ro"><RegionRefIndexed index="0" regionRef="second"/><RegionRefIndexed index="1" regionRef="first"/></OrderedGroup></ReadingOrder>` +
      `<TextRegion id="first"><Coords points="0,0 59,0 59,19 0,19"/>${line('a1', 'Erste Zeile &amp; mehr')}${line('a2', 'zweite Zeile')}</TextRegion>` +
      `<TextRegion id="second"><Coords points="0,20 59,20 59,39 0,39"/>${line('b1', 'Überschrift')}</TextRegion>` +
      `</Page></PcGts>`,
  );
}

describe('Epubify', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  it.skipIf(!hasFixtures)('makes an EPUB 3 of real medieval charters that epubcheck accepts, their abbreviation marks intact', async () => {
    const setId = await createSet(t.app, owner.auth, 'Foral de Évora 1218');
    for (const n of [1, 2, 3]) {
      const image = await upload(t.app, owner.auth, setId, [{ fileName: `${n}.jpg`, bytes: fs.readFileSync(path.join(EVORA, `${n}.jpg`)) }]);
      expect(image.status, JSON.stringify(image.json)).toBe(200);
      const xml = await upload(t.app, owner.auth, setId, [{ fileName: `${n}.xml`, bytes: fs.readFileSync(path.join(EVORA, `${n}.xml`)) }]);
      expect(xml.status, JSON.stringify(xml.json)).toBe(200);
    }
    await t.app.services.imageSets.update(owner.principal, {
      uuid: setId,
      imageset: 'Foral de Évora 1218',
      prettyName: 'The charter of Évora',
      description: 'Three pages of the foral.\nTranscribed in eScriptorium.',
      license: 'CC-BY 4.0',
    });

    const run = await runExecutor(t.app, epubify, { type: 'Epubify', settings: { imageSet: setId }, ownerId: owner.userId });

    expect(run.output).toMatchObject({ fileName: 'Foral de Évora 1218.epub', mediaType: 'application/epub+zip' });
    const bytes = run.output!.bytes;
    // OCF: the mimetype entry first, stored, with no extra field, so its text sits at byte 38.
    expect(bytes.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect(bytes.subarray(38, 58).toString('latin1')).toBe('application/epub+zip');
    const files = readZip(bytes);
    const chapters = [...files.keys()].filter((name) => /^EPUB\/page-\d{4}\.xhtml$/.test(name)).sort();
    expect(chapters).toEqual(['EPUB/page-0001.xhtml', 'EPUB/page-0002.xhtml', 'EPUB/page-0003.xhtml']);
    for (const [i, chapter] of chapters.entries()) {
      const xhtml = files.get(chapter)!.toString('utf8');
      expect(xhtml).toContain(`<h1>${i + 1}</h1>`);
      expect(chapterText(xhtml).flat()).toEqual(expectedLines(`foral_de_evora_1218/${i + 1}.xml`));
      expect(xhtml).toContain(`src="images/page-000${i + 1}.jpg"`);
    }
    expect(files.get('EPUB/page-0001.xhtml')!.toString('utf8')).toContain('⁊');
    const title = files.get('EPUB/title.xhtml')!.toString('utf8');
    expect(title).toContain('<h1>Foral de Évora 1218</h1>');
    expect(title).toContain('The charter of Évora');
    expect(title).toContain('<p class="description">Three pages of the foral.<br/>Transcribed in eScriptorium.</p>');
    expect(title).toContain('CC-BY 4.0');
    const opf = files.get('EPUB/package.opf')!.toString('utf8');
    expect(opf).toContain(`<dc:identifier id="pub-id">urn:uuid:${setId}</dc:identifier>`);
    expect(opf).toMatch(/<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/meta>/);
    // The charters' PAGE files name no language.
    expect(opf).toContain('<dc:language>und</dc:language>');
    expect(files.get('EPUB/fonts/junicode-regular.woff2')!.length).toBeGreaterThan(100_000);
    expect(run.notes).toMatchObject({ pages: 3, withText: 3, withoutTranscription: 0, imagesLeftOut: 0, fontEmbedded: true });
    expect(run.progress.at(-1)).toMatchObject({ done: 3, total: 3 });

    if (!epubcheckInstalled) return console.warn(`Skipping the epubcheck run: ${EPUBCHECK_MISSING}`);
    const check = await epubcheck(writeEpub(bytes));
    expect(check.ok, check.report).toBe(true);
  });

  it('puts regions in reading order with the ground truth of corrected lines, in the language of the transcription', async () => {
    const setId = await createSet(t.app, owner.auth, 'Aufklärung');
    await upload(t.app, owner.auth, setId, [{ fileName: 'seite.png', bytes: await testImage('png', 60, 40) }]);
    const xml = await upload(t.app, owner.auth, setId, [{ fileName: 'seite.xml', bytes: twoRegionPage('seite.png', 'German') }]);
    expect(xml.status, JSON.stringify(xml.json)).toBe(200);
    await upload(t.app, owner.auth, setId, [{ fileName: 'leer.png', bytes: await testImage('png', 40, 60) }]);
    const [second] = await t.app.database.db
      .selectFrom('simple_text_line')
      .select('id')
      .where('transcription_id', '=', xml.json.transcriptions[0])
      .where('line_index', '=', 1)
      .execute();
    await t.app.services.textLines.update(owner.principal, { uuid: second!.id, groundtruth: 'zweyte Zeile' });

    const run = await pipelineKb2Run(setId);

    const files = readZip(run.output!.bytes);
    const page = files.get('EPUB/page-0001.xhtml')!.toString('utf8');
    expect(page).toContain('xml:lang="de"');
    expect(chapterText(page)).toEqual([['Überschrift'], ['Erste Zeile & mehr', 'zweyte Zeile']]);
    expect(files.get('EPUB/page-0002.xhtml')!.toString('utf8')).toContain('This page has no transcription.');
    expect(files.get('EPUB/package.opf')!.toString('utf8')).toContain('<dc:language>de</dc:language>');
    expect(run.notes).toMatchObject({ pages: 2, withText: 1, withoutTranscription: 1, language: 'de' });
    if (!epubcheckInstalled) return console.warn(`Skipping the epubcheck run: ${EPUBCHECK_MISSING}`);
    const check = await epubcheck(writeEpub(run.output!.bytes));
    expect(check.ok, check.report).toBe(true);
  });

  it('refuses a set without images, and acts with the rights its owner has now', async () => {
    const empty = await createSet(t.app, owner.auth, 'Empty');
    await expect(pipelineKb2Run(empty)).rejects.toThrow('The image set Empty has no images to put in an EPUB: add images first.');

    const stranger = await signedInUser(t.app);
    await expect(
      runExecutor(t.app, epubify, { type: 'Epubify', settings: { imageSet: empty }, ownerId: stranger.userId }),
    ).rejects.toThrow(`There is no image set with id ${empty}.`);

    const leaving = await signedInUser(t.app);
    const own = await createSet(t.app, leaving.auth, 'Left behind');
    await t.app.services.users.setDisabled(leaving.userId, true);
    await expect(runExecutor(t.app, epubify, { type: 'Epubify', settings: { imageSet: own }, ownerId: leaving.userId })).rejects.toThrow(
      JOB_MAKER_INACTIVE,
    );
  });

  it('stops between pages when the job is cancelled, and writes no book', async () => {
    const setId = await createSet(t.app, owner.auth, 'Long');
    for (let i = 1; i <= 3; i += 1) await upload(t.app, owner.auth, setId, [{ fileName: `p${i}.png`, bytes: await testImage('png', 30, 20) }]);
    const cancelled = runExecutor(t.app, epubify, { type: 'Epubify', settings: { imageSet: setId }, ownerId: owner.userId }, (run) => {
      if (run.progress.at(-1)?.done === 1) run.controller.abort(new Error('The job was cancelled.'));
    });
    await expect(cancelled).rejects.toThrow('The job was cancelled.');
  });

  function pipelineKb2Run(setId: string) {
    return runExecutor(t.app, pipelineKb2, { type: 'PipelineKB2', settings: { imageSet: setId }, ownerId: owner.userId });
  }
});
