import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { multipartBody } from '../../test-support/multipart-body.js';
import { createSet, testImage, testPdf, upload } from '../../test-support/upload-files.js';
import { DAMAGED_IMAGE } from './image-probe.js';
import { UNKNOWN_XML } from './page-xml.js';
import { EMPTY_PDF, ENCRYPTED_PDF, UNREADABLE_PDF } from './pdf-split.js';
import { UNSUPPORTED_TYPE } from './service.js';

describe('uploads: postfile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const imagesOf = (setId: string) =>
    db()
      .selectFrom('image_set_image as m')
      .innerJoin('document_image as d', 'd.id', 'm.image_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height', 'd.page_number', 'd.source_pdf_file_id', 'd.owner_id', 'm.position', 'f.media_type'])
      .where('m.set_id', '=', setId)
      .orderBy('m.position')
      .execute();
  const counts = async () => {
    const n = async (table: 'stored_file' | 'document_image' | 'image_set_image' | 'image_set_file') =>
      Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    return { files: await n('stored_file'), images: await n('document_image'), links: await n('image_set_image'), setFiles: await n('image_set_file') };
  };

  it('stores JPEG, PNG, TIFF and WebP images in upload order with their sizes, sniffed from the bytes', async () => {
    const alice = await signedInUser(t.app, { name: 'Alice' });
    const setId = await createSet(t.app, alice.auth);
    const files = [
      { fileName: 'folio 1r.jpg', bytes: await testImage('jpeg', 120, 80) },
      // The name lies: the bytes are PNG, and that is what counts.
      { fileName: 'folio 1v.tif', bytes: await testImage('png', 100, 90) },
      { fileName: 'folio 2r.tiff', bytes: await testImage('tiff', 64, 48) },
      { fileName: 'folio 2v.webp', bytes: await testImage('webp', 50, 70) },
    ];
    for (const file of files) {
      const res = await upload(t.app, alice.auth, setId, [file]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json).toMatchObject({ kind: 'image', fileName: file.fileName, transcriptions: [] });
      expect(res.json.documentImages).toEqual([{ uuid: expect.any(String), name: file.fileName.replace(/\.[^.]+$/, '') }]);
      expect(res.json.message).toContain(file.fileName);
    }
    const rows = await imagesOf(setId);
    expect(rows.map((r) => [r.label, r.width, r.height, r.media_type, r.position, r.page_number])).toEqual([
      ['folio 1r', 120, 80, 'image/jpeg', 0, 1],
      ['folio 1v', 100, 90, 'image/png', 1, 2],
      ['folio 2r', 64, 48, 'image/tiff', 2, 3],
      ['folio 2v', 50, 70, 'image/webp', 3, 4],
    ]);
    expect(rows.every((r) => r.owner_id === alice.userId)).toBe(true);
  });

  it('splits a PDF into page images in page order and keeps the PDF', async () => {
    const alice = await signedInUser(t.app);
    const setId = await createSet(t.app, alice.auth);
    await upload(t.app, alice.auth, setId, [{ fileName: 'cover.png', bytes: await testImage('png', 40, 40) }]);
    const res = await upload(t.app, alice.auth, setId, [{ fileName: 'Letters 1780.pdf', bytes: await testPdf(2) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ kind: 'pdf', fileName: 'Letters 1780.pdf', message: 'Letters 1780.pdf: 2 pages were added to the set.' });
    expect(res.json.documentImages.map((d: { name: string }) => d.name)).toEqual(['Letters 1780 p. 1', 'Letters 1780 p. 2']);

    const rows = await imagesOf(setId);
    expect(rows.map((r) => [r.label, r.position, r.page_number, r.media_type])).toEqual([
      ['cover', 0, 1, 'image/png'],
      ['Letters 1780 p. 1', 1, 1, 'image/jpeg'],
      ['Letters 1780 p. 2', 2, 2, 'image/jpeg'],
    ]);
    // A4 at 200 dpi.
    expect([rows[1]!.width, rows[1]!.height]).toEqual([1653, 2339]);
    const pdf = await db()
      .selectFrom('image_set_file as l')
      .innerJoin('stored_file as f', 'f.id', 'l.file_id')
      .select(['f.id', 'f.media_type', 'f.original_name', 'l.kind'])
      .where('l.set_id', '=', setId)
      .executeTakeFirstOrThrow();
    expect(pdf).toMatchObject({ media_type: 'application/pdf', original_name: 'Letters 1780.pdf', kind: 'pdf' });
    expect(rows[1]!.source_pdf_file_id).toBe(pdf.id);
    expect(rows[2]!.source_pdf_file_id).toBe(pdf.id);
  });

  it('refuses bad files with a 4xx and a clear message, and stores no rows', async () => {
    const alice = await signedInUser(t.app);
    const setId = await createSet(t.app, alice.auth);
    const jpeg = await testImage('jpeg', 400, 300);
    const onePage = await testPdf(1);
    const encrypted = mupdf.PDFDocument.openDocument(onePage, 'application/pdf') as mupdf.PDFDocument;
    const cases: { label: string; parts: Parameters<typeof upload>[3]; status: number; message: string }[] = [
      { label: 'cut-off JPEG', parts: [{ fileName: 'a.jpg', bytes: jpeg.subarray(0, jpeg.length / 2) }], status: 400, message: DAMAGED_IMAGE },
      { label: 'text named .jpg', parts: [{ fileName: 'b.jpg', bytes: Buffer.from('just some notes\n') }], status: 415, message: UNSUPPORTED_TYPE },
      {
        label: 'encrypted PDF',
        parts: [{ fileName: 'c.pdf', bytes: Buffer.from(encrypted.saveToBuffer('encrypt=aes-256,user-password=secret,owner-password=owner').asUint8Array()) }],
        status: 400,
        message: ENCRYPTED_PDF,
      },
      { label: 'empty PDF', parts: [{ fileName: 'd.pdf', bytes: await testPdf(0) }], status: 400, message: EMPTY_PDF },
      { label: 'broken PDF', parts: [{ fileName: 'e.pdf', bytes: Buffer.from('%PDF-1.7\nnothing here\n') }], status: 400, message: UNREADABLE_PDF },
      { label: 'other XML', parts: [{ fileName: 'f.xml', bytes: Buffer.from('<?xml version="1.0"?><html/>') }], status: 415, message: UNKNOWN_XML },
      { label: 'empty file', parts: [{ fileName: 'g.jpg', bytes: Buffer.alloc(0) }], status: 400, message: 'This file is empty.' },
      {
        label: 'two files',
        parts: [
          { fileName: 'h1.jpg', bytes: jpeg },
          { fileName: 'h2.jpg', bytes: jpeg },
        ],
        status: 400,
        message: 'Upload one file per request.',
      },
      { label: 'wrong part name', parts: [{ name: 'file', fileName: 'i.jpg', bytes: jpeg }], status: 400, message: 'part named filepond' },
      { label: 'no file', parts: [], status: 400, message: 'the request has no file in the part named filepond' },
    ];
    const before = await counts();
    for (const c of cases) {
      const res = await upload(t.app, alice.auth, setId, c.parts);
      expect(res.status, c.label).toBe(c.status);
      expect(res.json.message, c.label).toContain(c.message);
      expect(typeof res.json.error, c.label).toBe('string');
    }
    const notMultipart = await call(t.app, {
      method: 'POST',
      url: `/api/pim/documentimageset/postfile?dataSetId=${setId}`,
      headers: alice.auth,
      payload: { file: 'x' },
    });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.json.message).toContain('multipart/form-data');
    const fieldOnly = multipartBody([]);
    const onlyAField = await call(t.app, {
      method: 'POST',
      url: `/api/pim/documentimageset/postfile?dataSetId=${setId}`,
      headers: { ...alice.auth, ...fieldOnly.headers },
      payload: Buffer.concat([
        Buffer.from(`--${fieldOnly.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
        fieldOnly.payload,
      ]),
    });
    expect(onlyAField.status).toBe(400);
    expect(await counts()).toEqual(before);
    expect(await imagesOf(setId)).toEqual([]);
  });
});
