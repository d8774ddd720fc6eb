import path from 'node:path';
import { DESCRIBE_IMAGE_FILE_FIELD, DESCRIBE_IMAGE_MAX_BYTES, type DescribeImageResponse } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { badRequest, unsupportedMediaType } from '../../platform/errors.js';
import type { MultipartForm, MultipartLimits, ReadMultipartOptions } from '../../platform/http/multipart-form.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { WorkerPool } from '../../platform/threads/worker-pool.js';
import { probeImage } from '../uploads/image-probe.js';
import { SNIFF_BYTES, sniff } from '../uploads/sniff.js';
import { PageDescriber } from './describe-page.js';
import { descriptionText } from './description-text.js';
import type { ImageDescriptionRepository } from './repository.js';
import type { VisionClient } from './vision.js';

/** One image and nothing else but a few text fields, which are not used. */
export const DESCRIBE_FORM_LIMITS: MultipartLimits = { maxFileBytes: DESCRIBE_IMAGE_MAX_BYTES, maxFields: 5, maxFieldBytes: 1024 };

export const NO_IMAGE = `Choose an image to describe: the request has no file in the part named ${DESCRIBE_IMAGE_FILE_FIELD}.`;
export const NOT_AN_IMAGE = 'This file is not an image PIM can describe: send a JPEG, PNG, TIFF or WebP image.';

/** How many images are described at once; more wait their turn (each runs Tesseract twice or three times). */
const AT_ONCE = 2;

/** Reads the request's multipart form with the options the service gives. */
export type ReadDescribeForm = (options: ReadMultipartOptions) => Promise<MultipartForm>;

/**
 * Describes one uploaded image for an archivist (spec part 2 `POST pim/describeimage`), keeping
 * nothing: the image is staged, checked as uploads check images (the bytes sniffed, the pixel
 * limit, a damaged file), described and discarded. The built-in description comes from the
 * pixels and Tesseract; when PIM holds the same image (same bytes) for the caller, its newest
 * transcription gives the lines, language and first words instead; a configured vision model adds
 * its own description below.
 */
export class ImageDescriptionService {
  private readonly describer: PageDescriber;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly repo: ImageDescriptionRepository,
    readonly files: FileStore,
    threads: WorkerPool,
    /** The upload's pixel limit. */
    private readonly maxPixels: number,
    private readonly vision: VisionClient | null,
    readonly limits: MultipartLimits = DESCRIBE_FORM_LIMITS,
  ) {
    this.describer = new PageDescriber(threads, files, maxPixels);
  }

  /** The sign-in is checked before a byte of the file is read, the type from its first bytes before it is staged. */
  async describe(principal: Principal | null, readForm: ReadDescribeForm): Promise<DescribeImageResponse> {
    const caller = requireSignedIn(principal);
    const form = await readForm({
      fileField: DESCRIBE_IMAGE_FILE_FIELD,
      headBytes: SNIFF_BYTES,
      checkHead: (head) => {
        if (sniff(head)?.kind !== 'image') throw unsupportedMediaType(NOT_AN_IMAGE);
      },
    });
    const file = form.file;
    if (!file) throw badRequest(NO_IMAGE);
    try {
      await probeImage(file.staged.path, this.maxPixels);
      const stored = await this.repo.storedImages(file.staged.sha256, visibilityScope(caller, false));
      const known = stored.find((s) => s.transcription !== null) ?? stored[0] ?? null;
      const [page, vision] = await Promise.all([
        this.inTurn(() => this.describer.describe(file.staged.path, { withoutWords: known?.transcription != null })),
        this.vision?.describe(file.staged.path) ?? null,
      ]);
      const fileName = path.basename(file.fileName);
      return { [fileName]: descriptionText({ page, stored: known, vision: vision && this.vision ? { label: this.vision.label, answer: vision } : null }) };
    } finally {
      await file.staged.discard();
    }
  }

  /** Runs `work` when fewer than AT_ONCE descriptions are running, so a crowd of requests queues. */
  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    // A finished description hands its turn to the next in line, so none slips in between.
    if (this.running >= AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
