import fs from 'node:fs';
import * as mupdf from 'mupdf';
import { PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, incoming, testImage, testPdf, upload, uploadServiceOf } from '../../test-support/upload-files.js';
import { DAMAGED_IMAGE } from './image-probe.js';
import { EMPTY_PDF, ENCRYPTED_PDF } from './pdf-split.js';
import { XML_WITH_DTD } from './safe-xml.js';

const PAGE_NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15';

/** A minimal PAGE 2013 file with one line, for the image it names. */
function pageXml(imageFilename: string, prolog = ''): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>${prolog}<PcGts xmlns="${PAGE_NS}"><Metadata><Creator>Test</Creator></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="60" imageHeight="40"><TextRegion id="r1"><Coords points="0,0 60,0 60,40"/>` +
      `<TextLine id="l1"><Coords points="0,0 10,0 10,10"/><TextEquiv><Unicode>Foral</Unicode></TextEquiv></TextLine></TextRegion></Page></PcGts>`,
  );
}

/** A PDF whose page tree claims one page more than it has: the last page cannot be rendered. */
async function pdfWithBrokenLastPage(): Promise<Buffer> {
  const pdf = await PDFDocument.load(await testPdf(2));
  pdf.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(3));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

describe('uploads: no file, no row', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const storeFiles = () => dataDirFiles(t.dataDir).store();
  const tmpFiles = () => dataDirFiles(t.dataDir).tmp();
  const rowCounts = async () => {
    const tables = ['stored_file', 'document_image', 'image_set_image', 'image_set_file', 'transcription'] as const;
    const counts: Record<string, number> = {};
    for (const table of tables) {
      counts[table] = Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    }
    return counts;
  };
  const shasOfRows = async () => (await db().selectFrom('stored_file').select('sha256').execute()).map((r) => r.sha256);
  /** The upload service with small limits, on the app's database and file store. */
  const limited = () =>
    uploadServiceOf(t.app, { limits: { maxBytes: 4096, maxPixels: 100 * 100, maxXmlBytes: 4096 } });

  it('publishes the files of an image, a PDF and a PAGE file, each named by its rows', async () => {
    const setId = await createSet(t.app, owner.auth);
    for (const [fileName, bytes] of [
      ['scan 1.png', await testImage('png', 60, 40)],
      ['letters.pdf', await testPdf(2)],
      ['scan 1.xml', pageXml('scan 1.png')],
    ] as const) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName, bytes }]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    const shas = await shasOfRows();
    // The image, the PDF and its 2 pages, the PAGE file.
    expect(new Set(shas).size).toBe(5);
    for (const sha256 of shas) expect(fs.existsSync(t.app.services.files.pathOf(sha256)), sha256).toBe(true);
    expect(storeFiles()).toHaveLength(5);
    expect(tmpFiles()).toEqual([]);
  });

  it('leaves no row, no stored file and no temp file when it refuses an upload', async () => {
    const setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'p1.png', bytes: await testImage('png', 60, 40) }]);
    const jpeg = await testImage('jpeg', 400, 300);
    const encrypted = mupdf.PDFDocument.openDocument(await testPdf(1), 'application/pdf') as mupdf.PDFDocument;
    const cases: { label: string; fileName: string; bytes: Buffer; message: string }[] = [
      { label: 'damaged image', fileName: 'a.jpg', bytes: jpeg.subarray(0, jpeg.length / 2), message: DAMAGED_IMAGE },
      {
        label: 'encrypted PDF',
        fileName: 'b.pdf',
        bytes: Buffer.from(encrypted.saveToBuffer('encrypt=aes-256,user-password=secret,owner-password=owner').asUint8Array()),
        message: ENCRYPTED_PDF,
      },
      { label: 'empty PDF', fileName: 'c.pdf', bytes: await testPdf(0), message: EMPTY_PDF },
      { label: 'PDF whose last page fails', fileName: 'd.pdf', bytes: await pdfWithBrokenLastPage(), message: 'Page 3 of this PDF cannot be rendered' },
      { label: 'XML with a DTD', fileName: 'e.xml', bytes: pageXml('p1.png', '<!DOCTYPE PcGts [<!ENTITY e "boom">]>'), message: XML_WITH_DTD },
      { label: 'XML for a missing image', fileName: 'f.xml', bytes: pageXml('p9.png'), message: 'which is not in this image set' },
    ];
    const rows = await rowCounts();
    const files = storeFiles();
    for (const c of cases) {
      const res = await upload(t.app, owner.auth, setId, [{ fileName: c.fileName, bytes: c.bytes }]);
      expect(res.status, c.label).toBe(400);
      expect(res.json.message, c.label).toContain(c.message);
      expect(await rowCounts(), c.label).toEqual(rows);
      expect(storeFiles(), c.label).toEqual(files);
      expect(tmpFiles(), c.label).toEqual([]);
    }

    const tooMany = await sharp({ create: { width: 200, height: 60, channels: 3, background: '#fff' } }).png().toBuffer();
    await expect(limited().upload(owner.principal, setId, incoming('big.png', tooMany))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('the limit is 10,000 pixels'),
    });
    await expect(limited().upload(owner.principal, setId, incoming('huge.png', await testImage('png', 90, 90)))).rejects.toMatchObject({
      status: 413,
    });
    expect(await rowCounts()).toEqual(rows);
    expect(storeFiles()).toEqual(files);
    expect(tmpFiles()).toEqual([]);
  });

  it('keeps the file another upload of the same bytes uses when an upload fails after publishing it', async () => {
    const bytes = await testImage('png', 50, 30);
    const kept = await createSet(t.app, owner.auth, 'Kept');
    const deleted = await createSet(t.app, owner.auth, 'Deleted during the upload');
    let first: Awaited<ReturnType<typeof upload>> | undefined;
    // While the second upload is staged, the same bytes arrive in another set and its set is deleted.
    const second = t.app.services.uploads.upload(
      owner.principal,
      deleted,
      incoming('same.png', bytes, async () => {
        first = await upload(t.app, owner.auth, kept, [{ fileName: 'same.png', bytes }]);
        await t.app.services.imageSets.delete(owner.principal, deleted);
      }),
    );
    await expect(second).rejects.toMatchObject({ status: 404, message: `There is no image set with id ${deleted}: it was deleted during the upload.` });
    expect(first?.status).toBe(200);
    const rows = await db().selectFrom('stored_file').select('sha256').where('original_name', '=', 'same.png').execute();
    expect(rows).toHaveLength(1);
    expect(fs.existsSync(t.app.services.files.pathOf(rows[0]!.sha256))).toBe(true);
    expect(tmpFiles()).toEqual([]);
  });

  it('removes the file again when an upload fails after publishing it and nothing else uses the bytes', async () => {
    const setId = await createSet(t.app, owner.auth, 'Deleted during the upload');
    const rows = await rowCounts();
    const files = storeFiles();
    const res = t.app.services.uploads.upload(
      owner.principal,
      setId,
      incoming('alone.png', await testImage('png', 40, 30), () => t.app.services.imageSets.delete(owner.principal, setId)),
    );
    await expect(res).rejects.toMatchObject({ status: 404 });
    expect(await rowCounts()).toEqual(rows);
    expect(storeFiles()).toEqual(files);
    expect(tmpFiles()).toEqual([]);
  });
});
