import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { PdfSplitter } from '../modules/uploads/pdf-split.js';
import { UploadRepository } from '../modules/uploads/repository.js';
import { type IncomingUpload, type UploadHooks, type UploadLimits, UploadService } from '../modules/uploads/service.js';
import type { WorkerPool } from '../platform/threads/worker-pool.js';
import { multipartBody } from './multipart-body.js';
import { call } from './test-app.js';

/** A small noisy image in the given format (noise, so a cut-off file really is damaged). */
export function testImage(format: 'jpeg' | 'png' | 'tiff' | 'webp', width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#8a6d3b', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .toFormat(format)
    .toBuffer();
}

/** A PDF with `pages` A4 pages, each with an embedded PNG; 0 pages makes an empty PDF. */
export async function testPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(await testImage('png', 300, 200));
  for (let i = 0; i < pages; i += 1) {
    const page = pdf.addPage([595, 842]);
    page.drawImage(png, { x: 50, y: 400, width: 300, height: 200 });
    page.drawText(`Page ${i + 1}`, { x: 50, y: 700, size: 24 });
  }
  return Buffer.from(await pdf.save({ addDefaultPage: false }));
}

/** A file part as FilePond sends it (part name filepond unless told). */
export interface FilePart {
  name?: string;
  fileName: string;
  bytes: Buffer;
  contentType?: string;
}

/** `POST pim/documentimageset/postfile` with the given parts. */
export function upload(app: FastifyInstance, auth: Record<string, string>, setId: string, parts: FilePart[]) {
  const { payload, headers } = multipartBody(parts.map((p) => ({ ...p, name: p.name ?? 'filepond' })));
  return call(app, {
    method: 'POST',
    url: `/api/pim/documentimageset/postfile?dataSetId=${setId}`,
    headers: { ...auth, ...headers },
    payload,
  });
}

/** Creates a set through the API and gives its id. */
export async function createSet(app: FastifyInstance, auth: Record<string, string>, name = 'Uploads'): Promise<string> {
  const res = await call(app, { method: 'POST', url: '/api/pim/documentimageset/create', headers: auth, payload: { imageset: name } });
  if (res.status !== 201) throw new Error(`could not create a set: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.uuid as string;
}

/** How many stored files, transcriptions and set files exist: a refused upload must not change them. */
export async function uploadRowCounts(app: FastifyInstance): Promise<number[]> {
  const count = async (table: 'stored_file' | 'transcription' | 'image_set_file') =>
    Number((await app.database.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  return [await count('stored_file'), await count('transcription'), await count('image_set_file')];
}

/** One file as the upload service receives it from the route, and a hook run when it asks for more. */
export function incoming(fileName: string, bytes: Buffer, onAskedForMore: () => Promise<void> = async () => {}): IncomingUpload {
  return {
    file: async () => ({ fieldName: 'filepond', fileName, stream: Readable.from([bytes]) }),
    hasMoreFiles: async () => {
      await onAskedForMore();
      return false;
    },
  };
}

/**
 * The app's upload service made again with other parts or limits (smaller limits, another
 * thread pool or PDF splitter, a job queue), on the app's database, files and access rules;
 * without hooks, so nothing runs in the background after an upload.
 */
export function uploadServiceOf(
  app: FastifyInstance,
  with_: { threads?: WorkerPool; pdfSplitter?: PdfSplitter; limits?: Partial<UploadLimits>; hooks?: UploadHooks } = {},
): UploadService {
  const { services } = app;
  return new UploadService(
    new UploadRepository(app.database.db),
    services.files,
    services.imageSetAccess,
    with_.threads ?? services.threads,
    with_.pdfSplitter ?? services.uploads.pdfSplitter,
    with_.hooks ?? {},
    { ...services.uploads.limits, ...with_.limits },
  );
}
