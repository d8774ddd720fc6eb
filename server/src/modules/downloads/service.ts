import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/errors.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { WorkerPool } from '../../platform/threads/worker-pool.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { DocumentImageService } from '../documentimages/service.js';
import { presentDocumentImage, presentTranscription, type Links } from '../documentimages/presenter.js';
import { storedShapes } from '../drawings/presenter.js';
import { presentImageSet } from '../imagesets/presenter.js';
import type { ImageSetService } from '../imagesets/service.js';
import type { PageDocument } from '../uploads/page-xml.js';
import { XML_READER, type XmlReading } from '../uploads/xml-reader.js';
import { exportSourceOf } from './page-source.js';
import { pageXmlFor } from './page-xml-export.js';
import { convertToJpeg, embeddableJpeg } from './pdf-images.js';
import { streamPdf, type PdfJpeg, type PdfPage } from './pdf-stream.js';
import type { DownloadImageRecord, DownloadRepository, ExportedLayoutRecord } from './repository.js';
import { streamZip, type ZipEntry } from './zip-stream.js';

/** A file to send: its name for content-disposition, its type and its bytes. */
export interface Download {
  fileName: string;
  contentType: string;
  body: Readable | Buffer;
}

const BATCH = 100;
/** The longer side of a PDF page in points (A4's height); the image keeps its full resolution. */
const PDF_PAGE_LONG_SIDE = 842;
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/tiff': 'tif', 'image/webp': 'webp' };

/** An image of a set with the transcription its exports write, when it has one. */
export interface ExportPage {
  image: DownloadImageRecord;
  transcription: ExportedLayoutRecord | null;
}

/** The four downloads of a set (spec part 1 §5): its direct images, in their order. */
export class DownloadService {
  constructor(
    private readonly repo: DownloadRepository,
    private readonly access: ImageSetAccess,
    private readonly imageSets: ImageSetService,
    private readonly documentImages: DocumentImageService,
    private readonly files: FileStore,
    /** Where a stored PAGE file is read again (see page-source.ts), off the event loop. */
    private readonly threads: WorkerPool,
  ) {}

  /** A stored PAGE file read as an upload reads it: its encoding honoured, in a thread. */
  private async readPage(sha256: string): Promise<PageDocument> {
    const reading = await this.threads.run<XmlReading>({ module: XML_READER, fn: 'readXmlFile', args: [this.files.pathOf(sha256)] });
    if (reading.dialect !== 'page') throw new Error('The stored source file is not a PAGE file.');
    return reading.page;
  }

  /**
   * set.json and images/<n>-<uuid>.json: each image's fields and its transcriptions with layout;
   * their links are on the address of the request (`links`).
   */
  async jsonZip(principal: Principal | null, setId: string, links: Links): Promise<Download> {
    const set = await this.imageSets.get(principal, setId);
    let page = -1;
    let n = 0;
    let setWritten = false;
    const body = streamZip(async () => {
      if (!setWritten) {
        setWritten = true;
        return [{ name: 'set.json', mtime: set.updatedAt, open: async () => json(presentImageSet(set, links)) }];
      }
      page += 1;
      const { details } = await this.documentImages.pageOfSet(principal, setId, {
        page,
        pageSize: BATCH,
        sort: 'pageorder',
        desc: false,
      });
      const layouts = new Map((await this.repo.layoutsOf(details.map((d) => d.image.id))).map((l) => [l.id, l.layout]));
      return details.map((detail): ZipEntry => {
        n += 1;
        const image = {
          ...presentDocumentImage(detail, links),
          // Oldest first, as `GET pim/documentimage/{uuid}/transcriptions` lists them.
          transcriptions: [...detail.transcriptions].reverse().map((t) => ({ ...presentTranscription(t), layout: layouts.get(t.id) ?? null })),
        };
        return { name: `images/${n}-${detail.image.id}.json`, mtime: detail.image.updatedAt, open: async () => json(image) };
      });
    });
    return { fileName: `${setId}_json.zip`, contentType: 'application/zip', body };
  }

  /**
   * One PAGE 2019 file per image (an empty Page without a transcription), from its newest
   * transcription imported from PAGE, else its newest of any format. Each file is made when the
   * zip reaches it, so only one source file is read at a time.
   */
  async pageZip(principal: Principal | null, setId: string): Promise<Download> {
    await this.access.requireSet(principal, setId, 'READ');
    const read = (sha256: string) => this.readPage(sha256);
    const body = this.zipOfImages(setId, async (images, numbered) => {
      const chosen = new Map((await this.repo.exportedLayoutsOf(images.map((i) => i.id))).map((l) => [l.imageId, l]));
      const drawings = await this.repo.drawingsOf(images.map((i) => i.id));
      return images.map((image, i): ZipEntry => {
        const transcription = chosen.get(image.id);
        const open = async () => {
          const source = transcription ? await exportSourceOf(transcription, read) : null;
          const xml = pageXmlFor({
            imageFilename: image.file.originalName,
            imageWidth: image.width,
            imageHeight: image.height,
            created: image.createdAt,
            lastChange: latest(image.updatedAt, transcription?.createdAt, drawings.get(image.id)?.updatedAt),
            layout: source?.layout ?? null,
            format: transcription?.format,
            language: source?.language,
            drawing: storedShapes(drawings.get(image.id)?.shapes),
            groundTruth: transcription?.groundTruth,
          });
          return Buffer.from(xml, 'utf8');
        };
        return { name: `${numbered[i]}.xml`, mtime: image.updatedAt, open };
      });
    });
    return { fileName: `${setId}_page.zip`, contentType: 'application/zip', body };
  }

  /** The original files, named <n>-<label>.<ext>. */
  async imagesZip(principal: Principal | null, setId: string): Promise<Download> {
    await this.access.requireSet(principal, setId, 'READ');
    const body = this.zipOfImages(setId, async (images, numbered) =>
      images.map((image, i) => ({
        name: `${numbered[i]}.${EXTENSIONS[image.file.mediaType] ?? 'bin'}`,
        mtime: image.createdAt,
        store: true,
        open: async () => this.files.stream(image.file.sha256),
      })),
    );
    return { fileName: `${setId}_images.zip`, contentType: 'application/zip', body };
  }

  /**
   * A page per image at the image's aspect, streamed: each image is read (and converted if need
   * be) only when the client has taken the pages before it. A set without images is refused
   * before anything is sent, as a PDF without pages is one that many readers will not open.
   */
  async pdf(principal: Principal | null, setId: string): Promise<Download> {
    const set = await this.imageSets.get(principal, setId);
    if ((await this.repo.imagesAfter(setId, null, 1)).length === 0) {
      throw badRequest('This image set has no images to put in a PDF.');
    }
    const body = streamPdf(this.pdfPages(setId), { title: set.name, creator: 'PIM', producer: 'PIM', created: new Date() });
    return { fileName: `${setId}.pdf`, contentType: 'application/pdf', body };
  }

  private async *pdfPages(setId: string): AsyncGenerator<PdfPage> {
    for await (const record of this.images(setId)) {
      const image = await this.embed(record);
      // The size of the bytes embedded, not the record's: conversion may have turned the image.
      const scale = PDF_PAGE_LONG_SIDE / Math.max(image.width, image.height);
      yield { width: image.width * scale, height: image.height * scale, image };
    }
  }

  /** The original JPEG when a PDF can hold it unchanged, else the image converted to one. */
  private async embed(image: DownloadImageRecord): Promise<PdfJpeg> {
    const path = this.files.pathOf(image.file.sha256);
    const meta = await sharp(path, { limitInputPixels: false }).metadata();
    const asIs = meta.format === 'jpeg' ? embeddableJpeg(await this.files.read(image.file.sha256), meta) : null;
    return asIs ?? convertToJpeg(path);
  }

  /**
   * For exports made by jobs (the EPUB): how many direct images the set has, and the images in
   * order, a batch at a time, each with the transcription the PAGE export would write (the newest
   * imported from PAGE, else the newest). The caller must be able to read the set.
   */
  async exportPages(principal: Principal | null, setId: string): Promise<{ total: number; batches: AsyncGenerator<ExportPage[]> }> {
    await this.access.requireSet(principal, setId, 'READ');
    return { total: await this.repo.countImages(setId), batches: this.exportBatches(setId) };
  }

  private async *exportBatches(setId: string): AsyncGenerator<ExportPage[]> {
    for await (const images of this.imageBatches(setId)) {
      const chosen = new Map((await this.repo.exportedLayoutsOf(images.map((i) => i.id))).map((t) => [t.imageId, t]));
      yield images.map((image) => ({ image, transcription: chosen.get(image.id) ?? null }));
    }
  }

  /** A zip of the set's images in batches; `entriesOf` makes the entries of one batch. */
  private zipOfImages(
    setId: string,
    entriesOf: (images: DownloadImageRecord[], numbered: string[]) => Promise<ZipEntry[]>,
  ): Readable {
    let after: { position: number; id: string } | null = null;
    let n = 0;
    return streamZip(async () => {
      const images = await this.repo.imagesAfter(setId, after, BATCH);
      const last = images.at(-1);
      if (last) after = { position: last.position, id: last.id };
      const numbered = images.map((image) => `${(n += 1)}-${safeName(image.label)}`);
      return entriesOf(images, numbered);
    });
  }

  private async *images(setId: string): AsyncGenerator<DownloadImageRecord> {
    for await (const images of this.imageBatches(setId)) yield* images;
  }

  private async *imageBatches(setId: string): AsyncGenerator<DownloadImageRecord[]> {
    let after: { position: number; id: string } | null = null;
    for (;;) {
      const images = await this.repo.imagesAfter(setId, after, BATCH);
      if (images.length === 0) return;
      yield images;
      const last = images.at(-1)!;
      after = { position: last.position, id: last.id };
    }
  }
}

/** The newest of the given times. */
function latest(first: Date, ...others: (Date | undefined)[]): Date {
  return others.reduce<Date>((newest, d) => (d && d > newest ? d : newest), first);
}

function json(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
}

/** A label as one zip path component: no folders, no control characters. */
function safeName(label: string): string {
  // eslint-disable-next-line no-control-regex
  return label.replace(/[\\/\u0000-\u001f\u007f]/g, '_').trim().slice(0, 200) || 'image';
}
