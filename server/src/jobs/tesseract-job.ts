import type { Principal } from '../platform/auth/principal.js';
import { AppError, badRequest } from '../platform/errors.js';
import { TesseractError, tesseractVersion } from '../platform/tesseract/cli.js';
import { PageImageError } from '../platform/tesseract/page-image.js';
import type { ChosenTesseractModel, StoreOutcome } from '../modules/recognition/service.js';
import type { JobContext } from './executor.js';
import { jobPrincipal, jobSetId } from './job-owner.js';

/** Everything a Tesseract job needs before its first page. */
export interface TesseractJob {
  principal: Principal;
  setId: string;
  /** "5.3.0", as `tesseract --version` says. */
  version: string;
  model: ChosenTesseractModel;
}

/** Images named in a job's notes at most; the count says how many there were. */
const NOTED_FAILURES = 100;

/**
 * The owner's rights, the set (WRITE needed), the installed Tesseract (its version noted for the
 * job's provenance) and the model, checked before any page is read.
 */
export async function startTesseractJob(ctx: JobContext): Promise<TesseractJob> {
  const principal = jobPrincipal(ctx);
  const setId = jobSetId(ctx);
  await ctx.services.imageSetAccess.requireSet(principal, setId, 'WRITE');
  const version = await tesseractVersion().catch((err: unknown) => {
    throw jobError(err, null);
  });
  ctx.note({ tesseract: version });
  const model = await ctx.services.recognition.tesseractModel(principal, ctx.job.settings.tesseract4model, ctx.workDir);
  return { principal, setId, version, model };
}

/** Pages that could not be read, noted by image: the job goes on without them. */
export class FailedPages {
  private readonly noted: { image: string; label: string; error: string }[] = [];
  count = 0;

  constructor(private readonly ctx: JobContext) {}

  /**
   * Notes the page when the error is its own (its image damaged, Tesseract unable to read it),
   * and rethrows what would fail every page alike (no Tesseract, a model it cannot load) or
   * ends the run (an abort).
   */
  add(page: { id: string; label: string }, err: unknown, model: ChosenTesseractModel): void {
    if (this.ctx.signal.aborted) throw this.ctx.signal.reason ?? err;
    if (err instanceof TesseractError && err.failure !== 'input') throw jobError(err, model);
    const own = err instanceof PageImageError || err instanceof TesseractError || (err instanceof AppError && err.status === 400);
    if (!own) throw err;
    this.count += 1;
    this.ctx.log.warn(`${page.label} (${page.id}) was skipped: ${err.message}${err instanceof TesseractError ? ` ${err.stderr}` : ''}`);
    if (this.noted.length < NOTED_FAILURES) this.noted.push({ image: page.id, label: page.label, error: err.message });
  }

  /** For the job's notes: how many failed, and which (the first hundred). */
  toNote() {
    return { failed: this.count, failedImages: this.noted };
  }
}

/** What became of the pages read, for the job's notes. */
export class StoredPages {
  private readonly counts = { stored: 0, replaced: 0, kept: 0, gone: 0, groundTruthKept: 0, groundTruthDropped: 0 };

  add(stored: StoreOutcome): void {
    this.counts[stored.outcome] += 1;
    if (stored.outcome === 'replaced') {
      this.counts.groundTruthKept += stored.groundTruthKept;
      this.counts.groundTruthDropped += stored.groundTruthDropped;
    }
  }

  /** `skipped`: pages left out before reading, done by an earlier run. */
  toNote(images: number, skipped: number) {
    const { stored, replaced, kept, gone, groundTruthKept, groundTruthDropped } = this.counts;
    return { images, alreadyDone: skipped + kept, recognised: stored, replaced, leftTheSet: gone, groundTruthKept, groundTruthDropped };
  }
}

/** A Tesseract failure that every page would share, as the job's error. */
function jobError(err: unknown, model: ChosenTesseractModel | null): unknown {
  if (!(err instanceof TesseractError)) return err;
  if (err.failure === 'missing') return new AppError(503, 'tesseract_missing', err.message);
  if (model?.id) {
    return badRequest(`Tesseract could not load the model "${model.name}": it must be a .traineddata file of Tesseract 4 or later.`);
  }
  const language = model?.language ?? 'eng';
  return new AppError(
    503,
    'tesseract_language_missing',
    `Tesseract has no "${language}" language on this server: install Debian's tesseract-ocr-${language}, or choose a Tesseract model.`,
  );
}

/** "Recognising page 3 of 12: f. 2r". */
export function pageMessage(index: number, total: number, label: string): string {
  return `Page ${index + 1} of ${total}: ${label}`;
}
