import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { UploadResult } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError, badRequest, tooLarge, unsupportedMediaType } from '../../platform/errors.js';
import { peek } from '../../platform/http/peek-stream.js';
import { type FileStore, formatBytes, type StagedFile } from '../../platform/storage/file-store.js';
import { ThreadOutOfMemory, ThreadTimeout, type WorkerPool } from '../../platform/threads/worker-pool.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import { needsPyramid } from '../../platform/images/iiif-render.js';
import { probeImage } from './image-probe.js';
import type { PdfSplitter } from './pdf-split.js';
import { baseName } from './pdf-pages.js';
import { PdfUpload } from './pdf-upload.js';
import { result, setGone } from './upload-result.js';
import type { ImageOfSet, NewDocumentImage, NewStoredFile, UploadRepository } from './repository.js';
import { SNIFF_BYTES, sniff } from './sniff.js';
import { XML_READER, type XmlReading } from './xml-reader.js';
import { transcriptionContent, transcriptionOfReading, type XmlTranscription } from './xml-transcription.js';

const IMAGE_EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/tiff': 'tif', 'image/webp': 'webp' } as const;

export const UNSUPPORTED_TYPE = 'This file type is not supported: upload JPEG, PNG, TIFF or WebP images, PDFs, or PAGE, ALTO or hOCR files.';

export interface UploadLimits {
  /** Largest accepted file, in bytes. */
  maxBytes: number;
  /** Largest accepted image, in pixels (width x height). */
  maxPixels: number;
  /** Largest accepted PAGE, ALTO or hOCR file, in bytes: XML is read whole (PIM_XML_MAX_MB). */
  maxXmlBytes: number;
  /** With a job queue, a PDF of more pages is kept and split by a SplitPDF job, not in the request. */
  pdfPagesInRequest: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxBytes: 512 * 1024 * 1024,
  maxPixels: 250_000_000,
  maxXmlBytes: 64 * 1024 * 1024,
  pdfPagesInRequest: 4,
};

/** The part of the job queue uploads use: the work that would hold up the request goes into jobs. */
export interface UploadJobs {
  /**
   * Queues a job of the type on the set for the uploader, as `POST pim/jobs` would, or names the
   * one of theirs that waits already (it reads the set when it starts).
   */
  queue(type: 'SplitPDF' | 'ConvertToTiledTiff', setId: string, owner: Principal): Promise<{ id: number; uuid: string }>;
}

/** What the upload hands on once its rows are written. */
export interface UploadHooks {
  /** Without `jobs`: told of the images an upload added (the server makes the large ones' pyramids). */
  onImagesAdded?: (imageIds: string[]) => void;
  /** Queues the pyramids of large images (ConvertToTiledTiff) and the pages of long PDFs (SplitPDF). */
  jobs?: UploadJobs;
  /** Told of each upload that changed a set's images or text, to index them (it handles its own errors). */
  searchChanged?: (caller: Principal, setId: string) => Promise<void>;
  /** Told when queueing that work fails after the upload's rows were written (the upload stands). */
  onBackgroundError?: (err: unknown, what: string) => void;
}

/** One file part of the request, and a way to learn whether the client sent more than one. */
export interface IncomingUpload {
  file(): Promise<{ fieldName: string; fileName: string; stream: Readable } | undefined>;
  hasMoreFiles(): Promise<boolean>;
}

/**
 * Turns one uploaded file into rows of a set: an image becomes a document image, a PDF one per
 * page (and is kept), a PAGE XML file a transcription of the image it names (and is kept). Files
 * are staged and checked first; they enter the store in the transaction that writes all rows, so
 * a refused or failed upload leaves no file and no row.
 */
export class UploadService {
  private readonly pdfs: PdfUpload;

  constructor(
    private readonly repo: UploadRepository,
    private readonly files: FileStore,
    private readonly access: ImageSetAccess,
    /** Where XML is read, off the event loop. */
    private readonly threads: WorkerPool,
    readonly pdfSplitter: PdfSplitter,
    readonly hooks: UploadHooks = {},
    readonly limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
  ) {
    this.pdfs = new PdfUpload(repo, files, pdfSplitter, hooks, limits, (caller, setId, images) => this.imagesAdded(caller, setId, images));
  }

  async upload(principal: Principal | null, setId: string, incoming: IncomingUpload): Promise<UploadResult> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    const file = await incoming.file();
    if (!file) throw badRequest('Choose a file to upload: the request has no file in the part named filepond.');
    if (file.fieldName !== 'filepond') {
      file.stream.resume();
      throw badRequest(`The file must be sent in the multipart part named filepond, not "${file.fieldName}".`);
    }
    const fileName = cleanFileName(file.fileName);
    const { head, stream } = await peek(file.stream, SNIFF_BYTES);
    if (head.length === 0) throw badRequest('This file is empty.');
    const kind = sniff(head);
    if (!kind) {
      stream.resume();
      throw unsupportedMediaType(UNSUPPORTED_TYPE);
    }
    const staged = await this.stage(kind.kind, stream);
    try {
      if (await incoming.hasMoreFiles()) throw badRequest('Upload one file per request.');
      const original: NewStoredFile = {
        id: randomUUID(),
        sha256: staged.sha256,
        sizeBytes: staged.sizeBytes,
        mediaType: kind.mediaType,
        originalName: fileName,
        ownerId: caller.userId,
      };
      const done =
        kind.kind === 'image'
          ? await this.addImage(caller, setId, original, staged)
          : kind.kind === 'pdf'
            ? await this.pdfs.add(caller, setId, original, staged)
            : await this.addXml(setId, original, staged);
      await this.hooks.searchChanged?.(caller, setId);
      return done;
    } finally {
      await staged.discard();
    }
  }

  /** The set's image fetched from `remoteUri` (a harvested canvas), if it holds one: a harvest run again skips it. */
  async remoteImageOf(principal: Principal | null, setId: string, remoteUri: string): Promise<string | undefined> {
    await this.access.requireSet(principal, setId, 'READ');
    return this.repo.findRemoteImage(setId, remoteUri);
  }

  /**
   * An image fetched from elsewhere (a IIIF harvest) added to the set through the upload's
   * checks: staged within the size limit, sniffed (images only), probed (the pixel limit, a
   * damaged file refused), stored with its rows in one transaction. `remoteUri` says where it
   * came from; when the set holds an image from there already, nothing is added. Answers the
   * image's id, or null when it was there.
   */
  async addRemoteImage(
    principal: Principal | null,
    setId: string,
    image: { stream: Readable; label: string; remoteUri: string },
  ): Promise<string | null> {
    const caller = await this.access.requireSet(principal, setId, 'WRITE');
    const { head, stream } = await peek(image.stream, SNIFF_BYTES);
    const kind = sniff(head);
    if (kind?.kind !== 'image') {
      stream.destroy();
      throw unsupportedMediaType('This is not an image PIM can store: JPEG, PNG, TIFF or WebP.');
    }
    const staged = await this.files.stage(stream, this.limits.maxBytes);
    try {
      const { width, height } = await probeImage(staged.path, this.limits.maxPixels);
      const file: NewStoredFile = {
        id: randomUUID(),
        sha256: staged.sha256,
        sizeBytes: staged.sizeBytes,
        mediaType: kind.mediaType,
        // Named like an upload of it, so a PAGE file naming the image by its label finds it.
        originalName: `${cleanFileName(image.label.replace(/[\\/]/g, '_'))}.${IMAGE_EXTENSIONS[kind.mediaType]}`,
        ownerId: caller.userId,
      };
      const row = { id: randomUUID(), fileId: file.id, label: image.label, width, height, pageNumber: null, sourcePdfFileId: null, ownerId: caller.userId, remoteUri: image.remoteUri };
      const outcome = await this.repo.insertRemoteImage({ setId, files: [file], images: [row], setFiles: [] }, this.files.publication([staged]));
      if (outcome === 'setGone') throw setGone(setId);
      if (outcome === 'present') return null;
      this.hooks.onImagesAdded?.([row.id]);
      return row.id;
    } finally {
      await staged.discard();
    }
  }

  /** Stages the file under its kind's size limit: XML is read whole later, so it has a smaller one. */
  private async stage(kind: 'image' | 'pdf' | 'xml', stream: Readable): Promise<StagedFile> {
    if (kind !== 'xml') return this.files.stage(stream, this.limits.maxBytes);
    // Staged through a pass-through, so a refusal ends only that and not the request's stream,
    // whose rest is then read and thrown away: the client is answered at once and its connection
    // stays usable (the multipart limit is the larger one of images and PDFs). The request's
    // errors (a body that breaks off) still reach the staging.
    const limited = new PassThrough();
    stream.on('error', (err) => limited.destroy(err));
    try {
      return await this.files.stage(stream.pipe(limited), this.limits.maxXmlBytes);
    } catch (err) {
      stream.unpipe(limited);
      stream.resume();
      if (!(err instanceof AppError && err.status === 413)) throw err;
      throw tooLarge(
        `This XML file is larger than the limit of ${formatBytes(this.limits.maxXmlBytes)} for PAGE, ALTO and hOCR files: split it into one file per page.`,
      );
    }
  }

  private async addImage(caller: Principal, setId: string, file: NewStoredFile, staged: StagedFile): Promise<UploadResult> {
    const { width, height } = await probeImage(staged.path, this.limits.maxPixels);
    const image: NewDocumentImage = {
      id: randomUUID(),
      fileId: file.id,
      label: baseName(file.originalName),
      width,
      height,
      pageNumber: null,
      sourcePdfFileId: null,
      ownerId: file.ownerId,
    };
    const rows = { setId, files: [file], images: [image], setFiles: [] };
    if (!(await this.repo.insertUpload(rows, this.files.publication([staged])))) throw setGone(setId);
    await this.imagesAdded(caller, setId, [image]);
    return result('image', file.originalName, [image], `${file.originalName} was added to the set.`);
  }

  /** Large images get their pyramid: in a ConvertToTiledTiff job when there is a queue, else by the hook. */
  private async imagesAdded(caller: Principal, setId: string, images: NewDocumentImage[]): Promise<void> {
    const { jobs, onImagesAdded, onBackgroundError } = this.hooks;
    if (!jobs) {
      onImagesAdded?.(images.map((i) => i.id));
      return;
    }
    if (!images.some((i) => needsPyramid(i.width, i.height))) return;
    try {
      await jobs.queue('ConvertToTiledTiff', setId, caller);
    } catch (err) {
      // The images are in; the first tile request makes a missing pyramid too.
      onBackgroundError?.(err, `queueing the pyramids of set ${setId} failed`);
    }
  }

  /** A PAGE, ALTO or hOCR file becomes a transcription of the set's image it refers to. */
  private async addXml(setId: string, file: NewStoredFile, staged: StagedFile): Promise<UploadResult> {
    const reading = await this.readXml(staged);
    const image = await this.imageOfXml(setId, file.originalName, reading);
    return this.saveXml(setId, staged, file, image, transcriptionOfReading(reading, image));
  }

  /** The set's image the file names, else (ALTO, hOCR without a name) the one named like the file. */
  private imageOfXml(setId: string, xmlName: string, reading: XmlReading): Promise<ImageOfSet> {
    if (reading.dialect === 'page') return this.imageNamed(setId, reading.page.imageFilename);
    const named = reading.dialect === 'alto' ? reading.alto.fileName : reading.hocr.imageFilename;
    if (named) return this.imageNamed(setId, named);
    return this.imageLike(setId, xmlName, reading.dialect === 'alto' ? UNKNOWN_ALTO_IMAGE : UNKNOWN_HOCR_IMAGE);
  }

  /** Decodes, checks and parses the staged XML in a worker thread, so a large file holds up no other request. */
  async readXml(staged: StagedFile): Promise<XmlReading> {
    try {
      return await this.threads.run<XmlReading>({ module: XML_READER, fn: 'readXmlFile', args: [staged.path] });
    } catch (err) {
      if (err instanceof ThreadOutOfMemory) {
        throw tooLarge('This XML file needs more memory to read than the server gives one upload: split it into one file per page.');
      }
      if (err instanceof ThreadTimeout) {
        throw badRequest(`Reading this XML file took longer than ${duration(err.timeoutMs)} and was stopped: split it into one file per page.`);
      }
      throw err;
    }
  }

  /** The set's image a file names (any folder in the name aside), like PAGE's imageFilename. */
  private async imageNamed(setId: string, named: string): Promise<ImageOfSet> {
    const imageFile = named.split(/[\\/]/).pop() ?? named;
    const image = await this.repo.findImageOfSet(setId, imageFile, baseName(imageFile));
    if (!image) {
      throw badRequest(`This XML belongs to the image "${imageFile}", which is not in this image set: upload the image first.`);
    }
    return image;
  }

  /**
   * For a file that does not name its image: the image named like the file, else the only image
   * with the file name's number (OCR-D names PAGE_0017_ALTO.xml after INPUT_0017.tif).
   */
  private async imageLike(setId: string, xmlName: string, unclear: string): Promise<ImageOfSet> {
    const base = baseName(xmlName);
    const same = await this.repo.findImageOfSet(setId, base, base);
    if (same) return same;
    const numbers = base.match(/\d+/g) ?? [];
    const numbered = numbers.length === 1 ? await this.repo.findImagesNumbered(setId, numbers[0]!) : [];
    if (numbered.length !== 1) throw badRequest(unclear);
    return numbered[0]!;
  }

  private async saveXml(
    setId: string,
    staged: StagedFile,
    file: NewStoredFile,
    image: ImageOfSet,
    t: XmlTranscription,
  ): Promise<UploadResult> {
    const id = randomUUID();
    const transcription = { id, imageId: image.id, ...transcriptionContent(t) };
    const rows = { setId, file, transcription };
    if (!(await this.repo.insertXmlImport(rows, this.files.publication([staged])))) throw setGone(setId);
    const lines = transcription.linesCount;
    const count = lines === 1 ? '1 line' : `${lines} lines`;
    return {
      kind: 'xml',
      fileName: file.originalName,
      documentImages: [{ uuid: image.id, name: image.label }],
      transcriptions: [id],
      message: `${file.originalName}: ${count} added to the image ${image.label}.`,
    };
  }
}

export const UNKNOWN_ALTO_IMAGE =
  'Could not tell which image this ALTO file belongs to: name it like its image, or set sourceImageInformation/fileName.';
export const UNKNOWN_HOCR_IMAGE =
  'Could not tell which image this hOCR file belongs to: name it like its image, or give its ocr_page an image in its title.';

/** The name without any folder a browser may send along, control characters, or excess length. */
function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const name = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return name || 'upload';
}

/** A time limit in words: "300 ms", "90 seconds", "5 minutes". */
function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms < 120_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`;
}
