import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../platform/http/error-handler.js';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { fixturePath } from '../../test-support/fixtures.js';
import { type FormPart, multipartBody } from '../../test-support/multipart-body.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { NO_TESSERACT, tesseractWithEnglish } from '../../test-support/text-images.js';
import { createSet, testPdf, upload } from '../../test-support/upload-files.js';
import { ImageDescriptionRepository } from './repository.js';
import { imageDescriptionRoutes } from './routes.js';
import { ImageDescriptionService, NO_IMAGE, NOT_AN_IMAGE } from './service.js';

const KANT = fixturePath('page', 'kant1784', 'data');
const KANT_IMAGE = path.join(KANT, 'OCR-D-IMG', 'INPUT_0017.tif');
const ALICE = fixturePath('hocr', 'alice_1.png');
const EVORA = fixturePath('page', 'iforal', 'foral_de_evora_1218', '1.jpg');
const HAS_FIXTURES = [KANT_IMAGE, ALICE, EVORA].every((f) => fs.existsSync(f));
const HAS_TESSERACT = tesseractWithEnglish();
if (!HAS_FIXTURES) console.warn(`Skipping the image description tests of real pages: ${KANT_IMAGE}, ${ALICE} or ${EVORA} is absent.`);
if (!HAS_TESSERACT) console.warn(NO_TESSERACT);

/** `POST pim/describeimage` with the given parts (a file in `filepond` unless named otherwise). */
function describeImage(app: FastifyInstance, headers: Record<string, string>, parts: FormPart[]) {
  const body = multipartBody(parts);
  return call(app, { method: 'POST', url: '/api/pim/describeimage', headers: { ...headers, ...body.headers }, payload: body.payload });
}

const filePart = (fileName: string, bytes: Buffer): FormPart => ({ name: 'filepond', fileName, bytes });

/** A PNG whose header claims `side` x `side` pixels around a few bytes of image data: a decompression bomb. */
async function claimedSize(side: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const ihdr = png.indexOf('IHDR');
  png.writeUInt32BE(side, ihdr + 4);
  png.writeUInt32BE(side, ihdr + 8);
  png.writeUInt32BE(crc32(png.subarray(ihdr, ihdr + 17)), ihdr + 17);
  return png;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('POST pim/describeimage', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** The description of one file, expecting a 200 keyed by its name. */
  async function described(fileName: string, bytes: Buffer, auth = user.auth): Promise<string> {
    const res = await describeImage(t.app, auth, [filePart(fileName, bytes)]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(Object.keys(res.json)).toEqual([fileName]);
    return res.json[fileName] as string;
  }

  it.skipIf(!HAS_FIXTURES || !HAS_TESSERACT)('describes a German Fraktur print: size and resolution, colour, lines, Fraktur, German', async () => {
    const text = await described('INPUT_0017.tif', fs.readFileSync(KANT_IMAGE));
    expect(text).toContain('Size: 1,457 × 2,083 pixels at 300 dpi (12.3 × 17.6 cm), portrait.');
    expect(text).toContain('Colour: colour.');
    // The PAGE ground truth has 24 lines (a drop capital and a catchword among them); the scan shows 23 rows of text.
    const lines = Number(/Text: about (\d+) lines in one column \(estimated from the image\)/.exec(text)?.[1]);
    expect(lines).toBeGreaterThanOrEqual(20);
    expect(lines).toBeLessThanOrEqual(26);
    expect(text).toMatch(/^Orientation: the text is upright \(Tesseract, confidence \d+\.\d\)\.$/m);
    expect(text).toMatch(/^Script: Fraktur \(Tesseract, confidence \d+\.\d\)\.$/m);
    expect(text).toMatch(/^Language: German \(\d+ of \d+ words read are common German words\)\.$/m);
  });

  it.skipIf(!HAS_FIXTURES || !HAS_TESSERACT)('describes an English print: greyscale, no stated resolution, lines, Latin script, English, its first words', async () => {
    const text = await described('alice_1.png', fs.readFileSync(ALICE));
    // The PNG's pHYs chunk gives an aspect ratio only (unit 0): no resolution.
    expect(text).toContain('Size: 2,488 × 3,507 pixels (the file states no resolution), portrait.');
    expect(text).toContain('Colour: greyscale.');
    // Tesseract 3's hOCR beside it has 37 lines.
    const lines = Number(/Text: about (\d+) lines in one column/.exec(text)?.[1]);
    expect(lines).toBeGreaterThanOrEqual(35);
    expect(lines).toBeLessThanOrEqual(39);
    expect(text).toMatch(/^Script: Latin \(Tesseract, confidence \d+\.\d\)\.$/m);
    expect(text).toMatch(/^Language: English \(\d+ of \d+ words/m);
    expect(text).toMatch(/^First words: "1 Down the Rabbit-Hole Alice was beginning to get very tired/m);
  });

  it.skipIf(!HAS_FIXTURES || !HAS_TESSERACT)('describes a medieval charter without stating what Tesseract was unsure of', async () => {
    const text = await described('1.jpg', fs.readFileSync(EVORA));
    // Its JFIF header says 96 dpi, as software writes when it knows none: no size in cm is made of it.
    expect(text).toContain("Size: 1,496 × 2,008 pixels at 96 dpi (a common software default, not a scan resolution: the page's real size is unknown), portrait.");
    expect(text).toMatch(/^Text: about \d+ lines in 2 columns \(estimated from the image\)/m);
    // Orientation and script detection calls this page "Arabic" or "Fraktur", turned 180 degrees, with confidences of 0.4 to 1.9.
    expect(text).not.toMatch(/Arabic|Fraktur|upside down|turned \d+°/);
    expect(text).toContain('Script: not recognised with confidence (handwriting, or a script Tesseract does not know).');
    expect(text).toContain('Language: not determined');
    expect(text).toContain('First words: could not be read reliably.');
  });

  it.skipIf(!HAS_FIXTURES || !HAS_TESSERACT)('turns a page Tesseract is sure is upside down upright, says so, and reads it', async () => {
    const text = await described('alice upside down.png', await sharp(ALICE).rotate(180).png().toBuffer());
    expect(text).toMatch(/^Orientation: the text is upside down \(Tesseract, confidence \d+\.\d\); turn the image 180° to read it\./m);
    expect(text).toMatch(/^Language: English /m);
    expect(text).toMatch(/^First words: "1 Down the Rabbit-Hole Alice was beginning/m);
  });

  it('says a blank page is blank', async () => {
    // Stained, unevenly lit paper and no ink.
    const paper = await sharp({ create: { width: 1200, height: 1700, channels: 3, background: '#e8dcc0', noise: { type: 'gaussian', mean: 200, sigma: 6 } } })
      .jpeg()
      .toBuffer();
    const text = await described('blank.jpg', paper);
    expect(text).toContain('Size: 1,200 × 1,700 pixels');
    expect(text).toContain('Content: a blank page: no text or drawing was found on it.');
    expect(text).not.toMatch(/^(Text|Script|Language|First words):/m);
  });

  it('refuses what it cannot describe with a clear 4xx, and keeps nothing', async () => {
    const before = { stored: dataDirFiles(t.dataDir).store(), tmp: dataDirFiles(t.dataDir).tmp() };
    const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const cases: { label: string; parts: FormPart[]; status: number; error: string; message: string }[] = [
      { label: 'text named .jpg', parts: [filePart('notes.jpg', Buffer.from('Not an image at all.\n'))], status: 415, error: 'unsupported_media_type', message: NOT_AN_IMAGE },
      { label: 'a PDF', parts: [filePart('scan.pdf', await testPdf(1))], status: 415, error: 'unsupported_media_type', message: NOT_AN_IMAGE },
      { label: 'no file', parts: [{ name: 'note', value: 'hello' }], status: 400, error: 'bad_request', message: NO_IMAGE },
      { label: 'two files', parts: [filePart('a.png', image), filePart('b.png', image)], status: 400, error: 'bad_request', message: 'Upload one file per request.' },
      { label: 'another part', parts: [{ name: 'file', fileName: 'a.png', bytes: image }], status: 400, error: 'bad_request', message: 'Send the file in the part named "filepond", not "file".' },
      { label: 'empty', parts: [filePart('empty.png', Buffer.alloc(0))], status: 400, error: 'bad_request', message: 'The file empty.png is empty.' },
      { label: 'cut off', parts: [filePart('cut.png', (await sharp({ create: { width: 300, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer()).subarray(0, 3000))], status: 400, error: 'bad_request', message: 'This image file is damaged or not an image.' },
      {
        label: 'a decompression bomb',
        parts: [filePart('bomb.png', await claimedSize(30_000))],
        status: 400,
        error: 'bad_request',
        message: 'This image has 30000 x 30000 = 900,000,000 pixels; the limit is 250,000,000 pixels (250 megapixels).',
      },
    ];
    for (const c of cases) {
      const res = await describeImage(t.app, user.auth, c.parts);
      expect({ label: c.label, status: res.status, body: res.json }).toEqual({ label: c.label, status: c.status, body: { error: c.error, message: c.message } });
    }
    expect(dataDirFiles(t.dataDir).store()).toEqual(before.stored);
    expect(dataDirFiles(t.dataDir).tmp()).toEqual(before.tmp);
  });

  it('answers 401 without a sign-in, before reading the file', async () => {
    const res = await describeImage(t.app, {}, [filePart('a.png', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer())]);
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: 'unauthorized', message: 'You need to log in to do this.' });
  });

  it.skipIf(!HAS_FIXTURES)("uses PIM's transcription of the same image for a caller who may read it, and only for them", async () => {
    const owner = await signedInUser(t.app);
    const setId = await createSet(t.app, owner.auth, 'Berlinische Monatsschrift');
    const bytes = fs.readFileSync(KANT_IMAGE);
    expect((await upload(t.app, owner.auth, setId, [{ fileName: 'INPUT_0017.tif', bytes }])).status).toBe(200);
    const xml = fs.readFileSync(path.join(KANT, 'OCR-D-GT-PAGE', 'PAGE_0017_PAGE.xml'));
    expect((await upload(t.app, owner.auth, setId, [{ fileName: 'PAGE_0017_PAGE.xml', bytes: xml }])).status).toBe(200);

    const text = await described('copy of 17.tif', bytes, owner.auth);
    expect(text).toContain(
      'In PIM: this image is stored as "INPUT_0017"; the lines, language and first words below are from its newest transcription (PAGE XML file PAGE_0017_PAGE.xml).',
    );
    expect(text).toMatch(/^Text: 24 lines in PIM's transcription; one column found in the image/m);
    expect(text).toContain('Language: German (from PIM\'s transcription).');
    expect(text).toContain('First words (from PIM\'s transcription): "Berliniſche Monatsſchrift. 1784 . Zwoͤlftes Stuͤk . December . 1. Beantwortung der Frage: Was …".');

    // Someone who may not read the set is told nothing of it.
    const stranger = await described('copy of 17.tif', bytes);
    expect(stranger).not.toContain('In PIM');
    expect(stranger).not.toContain('Berliniſche');
  });

  describe('with a small size limit', () => {
    let small: FastifyInstance;
    beforeAll(async () => {
      const service = new ImageDescriptionService(new ImageDescriptionRepository(t.app.database.db), t.app.services.files, t.app.services.threads, 250_000_000, null, {
        maxFileBytes: 4096,
        maxFields: 5,
      });
      // The route alone, with a caller fixed to the signed-in user.
      small = Fastify();
      small.setValidatorCompiler(validatorCompiler);
      small.setSerializerCompiler(serializerCompiler);
      installErrorHandler(small, '/api/');
      small.decorateRequest('principal', null);
      small.addHook('onRequest', async (req) => {
        req.principal = user.principal;
      });
      await small.register(imageDescriptionRoutes, { imageDescriptions: service, prefix: '/api' });
    });
    afterAll(() => small.close());

    it('refuses a file over the limit with 413 and keeps nothing of it', async () => {
      const before = dataDirFiles(t.dataDir).tmp();
      const noisy = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
      const res = await describeImage(small, {}, [filePart('big.png', noisy)]);
      expect({ status: res.status, body: res.json }).toEqual({ status: 413, body: { error: 'too_large', message: 'The file is larger than the limit of 4 KB.' } });
      expect(dataDirFiles(t.dataDir).tmp()).toEqual(before);
    });
  });
});
