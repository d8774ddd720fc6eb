import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/errors.js';
import type { FileStore, StagedFile } from '../../platform/storage/file-store.js';
import type { TesseractModel } from '../../platform/tesseract/recognise.js';
import type { WorkerPool } from '../../platform/threads/worker-pool.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { ModelService } from '../models/service.js';
import { XML_READER, type XmlReading } from '../uploads/xml-reader.js';
import { hocrTranscription, transcriptionContent, type XmlTranscription } from '../uploads/xml-transcription.js';
import type { JobMark, PageSource, RecognitionPage, RecognitionRepository, StoreOutcome } from './repository.js';

export type { JobMark, PageSource, RecognitionPage, StoreOutcome };

/** The default language when no model is chosen: Debian's tesseract-ocr always brings English. */
export const DEFAULT_TESSERACT_LANGUAGE = 'eng';

/** A Tesseract model ready to use, and how the transcriptions made with it name it. */
export interface ChosenTesseractModel extends TesseractModel {
  /** The uploaded model's uuid, or null for Tesseract's own language. */
  id: string | null;
  /** The model's label, or the language: "Tesseract 5.3.0 (<name>)". */
  name: string;
}

/** What a job stores for one image: the transcription, what marks it as the job's, and whether to replace one it made before. */
export interface JobTranscription {
  setId: string;
  imageId: string;
  /** How the transcription names its maker, e.g. "Tesseract 5.3.0 (eng)". */
  transcriber: string;
  language: string | null;
  /** The job type, run and settings; with `mark`, how later runs find it. */
  params: Record<string, unknown>;
  mark: JobMark;
  existing: 'keep' | 'replace';
  ownerId: string | null;
}

/**
 * What the jobs that recognise text on this server need of the data: the pages of a set the job
 * owner may change (WRITE on the set, as the API asks), the files and models to read them with,
 * and a way to store what they make as the upload path stores an XML transcription (the same
 * reader, in a thread, and the same rows: the transcription, its file, its text lines).
 */
export class RecognitionService {
  constructor(
    private readonly repo: RecognitionRepository,
    private readonly access: ImageSetAccess,
    private readonly models: ModelService,
    private readonly files: FileStore,
    private readonly threads: WorkerPool,
  ) {}

  /** The set's own images (not its sub-sets', as the set's downloads), each with the transcription marked as the job's. */
  async pages(principal: Principal, setId: string, mark: JobMark): Promise<RecognitionPage[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.pagesOfSet(setId, mark);
  }

  /** The set's own images with a PAGE transcription not made by `job`: the newest such of each. */
  async pageSources(principal: Principal, setId: string, job: string): Promise<(RecognitionPage & { source: PageSource })[]> {
    await this.access.requireSet(principal, setId, 'WRITE');
    return this.repo.pageSourcesOfSet(setId, job);
  }

  layoutOf(transcriptionId: string): Promise<unknown> {
    return this.repo.layoutOf(transcriptionId);
  }

  /** Where the image's file is, to read (never to change: the store's files are shared by content). */
  imagePath(page: RecognitionPage): string {
    return this.files.pathOf(page.file.sha256);
  }

  /**
   * The model to read with: the uploaded Tesseract model (which the owner must be able to see),
   * linked into `workDir/tessdata` under its language's name, as Tesseract looks it up; or
   * Tesseract's own English.
   */
  async tesseractModel(principal: Principal, modelId: string | undefined, workDir: string): Promise<ChosenTesseractModel> {
    if (!modelId) return { id: null, name: DEFAULT_TESSERACT_LANGUAGE, language: DEFAULT_TESSERACT_LANGUAGE };
    const model = await this.models.get(principal, 'tesseract4', modelId);
    const language = model.language ?? 'model';
    const tessdataDir = path.join(workDir, 'tessdata');
    await fsp.mkdir(tessdataDir, { recursive: true });
    await fsp.symlink(this.files.pathOf(model.file.sha256), path.join(tessdataDir, `${language}.traineddata`));
    return { id: model.id, name: model.label, language, tessdataDir };
  }

  /**
   * Stores the hOCR a job wrote for an image: read by the upload's hOCR reader in a thread, kept
   * as the transcription's file (a file of the set, like an uploaded one), with its text lines.
   */
  async storeHocr(principal: Principal, t: JobTranscription, hocr: { xml: string; fileName: string }): Promise<StoreOutcome> {
    await this.access.requireSet(principal, t.setId, 'WRITE');
    const staged = await this.files.stage(Buffer.from(hocr.xml, 'utf8'));
    try {
      const reading = await this.threads.run<XmlReading>({ module: XML_READER, fn: 'readXmlFile', args: [staged.path] });
      if (reading.dialect !== 'hocr') throw badRequest('Tesseract wrote something else than hOCR.');
      return await this.storeFile(principal, t, hocrTranscription(reading.hocr), { staged, fileName: hocr.fileName });
    } finally {
      await staged.discard();
    }
  }

  /**
   * Stores a transcription a job made from a file it wrote (a remote worker's PAGE, ALTO or
   * hOCR), the file kept with it as an uploaded one is. The caller discards `staged` after.
   */
  async storeFile(principal: Principal, t: JobTranscription, content: XmlTranscription, file: { staged: StagedFile; fileName: string }): Promise<StoreOutcome> {
    await this.access.requireSet(principal, t.setId, 'WRITE');
    const { staged } = file;
    const stored = {
      id: randomUUID(),
      sha256: staged.sha256,
      sizeBytes: staged.sizeBytes,
      mediaType: 'application/xml',
      originalName: file.fileName,
      ownerId: t.ownerId,
    };
    const rows = { setId: t.setId, file: stored, transcription: this.transcriptionRow(t, content) };
    return this.repo.store(rows, this.files.publication([staged]), t.mark, t.existing);
  }

  /** Stores a layout a job made (a PAGE layout with new texts), without a file of its own. */
  async storeLayout(principal: Principal, t: JobTranscription, layout: XmlTranscription): Promise<StoreOutcome> {
    await this.access.requireSet(principal, t.setId, 'WRITE');
    const rows = { setId: t.setId, file: null, transcription: this.transcriptionRow(t, layout) };
    return this.repo.store(rows, this.files.publication([]), t.mark, t.existing);
  }

  private transcriptionRow(t: JobTranscription, content: XmlTranscription) {
    return {
      id: randomUUID(),
      imageId: t.imageId,
      ...transcriptionContent({ ...content, transcriber: t.transcriber, language: t.language }),
      params: t.params,
    };
  }
}
