import { type DifferentTextLinesQuery, type TextLineCorrection, characterErrorRate } from '@pim/contract';
import type { AclPermission } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { lacksPermission, requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { IiifService, RenderedImage } from '../iiif/service.js';
import type { LineFilter, TextLineRecord, TextLineRepository, TranscriptionGroundTruth } from './repository.js';

/**
 * A pick is made among this many lines that follow a random point on the random-key index:
 * any line is then as likely as another on a small page, and on a large collection the chance of
 * a line no longer depends on the one gap before its key alone.
 */
const RANDOM_CANDIDATES = 16;
/** Transcriptions per backfill transaction: small enough to keep each one short. */
const BACKFILL_BATCH = 50;

/**
 * Correcting text lines: picking the next one, saving ground truth, skipping, and the list of
 * lines whose ground truth differs from their text. Only lines of images the caller may read are
 * ever shown (ImageSetAccess decides); saving needs WRITE on the image.
 */
export class TextLineService {
  constructor(
    private readonly repo: TextLineRepository,
    private readonly access: ImageSetAccess,
    private readonly iiif: IiifService,
    /** Told of the image whose text a correction changed, to index it again. */
    private readonly onTextChanged: (caller: Principal, imageId: string) => Promise<void> = async () => {},
  ) {}

  /** A random uncorrected line the caller may read and has not skipped; undefined when none is left. */
  async random(principal: Principal | null, parentId?: string): Promise<TextLineRecord | undefined> {
    const caller = requireSignedIn(principal);
    const filter = parentId ? await this.parentFilter(caller, parentId) : readable(caller);
    const candidates = await this.repo.uncorrectedFrom(filter, caller.userId, Math.random(), RANDOM_CANDIDATES);
    return candidates[Math.floor(Math.random() * candidates.length)];
  }

  async get(principal: Principal | null, id: string): Promise<TextLineRecord> {
    return (await this.requireLine(principal, id, 'READ')).line;
  }

  async different(principal: Principal | null, q: DifferentTextLinesQuery): Promise<{ rows: TextLineRecord[]; total: number }> {
    const caller = requireSignedIn(principal);
    const filter = q.parentuuid ? await this.parentFilter(caller, q.parentuuid) : readable(caller);
    return this.repo.different(filter, q.page, q.pageSize);
  }

  /**
   * Saves the ground truth exactly as given (inner and leading spaces kept), except the line
   * breaks a text field may leave at its end: a line has none. Its CER against the recognised
   * text is stored with it, so the 'different' list sorts by it.
   */
  async update(principal: Principal | null, correction: TextLineCorrection): Promise<TextLineRecord> {
    const { caller, line } = await this.requireLine(principal, correction.uuid, 'WRITE');
    const groundTruth = correction.groundtruth.replace(/[\r\n]+$/, '');
    const cer = characterErrorRate(groundTruth, line.text);
    const saved = await this.repo.saveGroundTruth(line.id, groundTruth, cer, caller.userId);
    if (!saved) throw lineMissing(line.id);
    await this.onTextChanged(caller, saved.imageId);
    return saved;
  }

  /**
   * Hides the line from the caller's random picks. The ground truth in the request is ignored:
   * Skip means "not now", and text the person did not choose to save is no ground truth. A skip
   * changes nothing anyone else sees, so reading the line is enough.
   */
  async skip(principal: Principal | null, correction: TextLineCorrection): Promise<void> {
    const { caller, line } = await this.requireLine(principal, correction.uuid, 'READ');
    if (caller.userId === null) throw badRequest('Skips are kept per person: an API key has no user to keep them for.');
    await this.repo.skip(line.id, caller.userId);
  }

  /** The line's bounding box cut from its page, through the IIIF renderer (pyramids, derivative cache). */
  async lineImage(principal: Principal | null, id: string, ifNoneMatch?: string): Promise<RenderedImage> {
    const { caller, line } = await this.requireLine(principal, id, 'READ');
    if (!line.region) throw notFound(`Text line ${id} has no outline in its transcription, so there is no line image to show.`);
    const { x, y, w, h } = line.region;
    const parts = { region: `${x},${y},${w},${h}`, size: 'max', rotation: '0', qualityFormat: 'default.jpg' };
    return this.iiif.render(caller, line.imageId, parts, ifNoneMatch);
  }

  async groundTruthOfImage(principal: Principal | null, imageId: string): Promise<TranscriptionGroundTruth[]> {
    await this.access.requireImage(principal, imageId, 'READ');
    return this.repo.groundTruthOfImage(imageId);
  }

  /** Makes the lines of transcriptions stored before text lines existed; returns how many it did. */
  async backfill(): Promise<number> {
    let done = 0;
    for (let n = await this.repo.backfillBatch(BACKFILL_BATCH); n > 0; n = await this.repo.backfillBatch(BACKFILL_BATCH)) done += n;
    return done;
  }

  /** The line, when the caller holds the permission on its image: 404 when they may not read it. */
  private async requireLine(principal: Principal | null, id: string, permission: AclPermission) {
    const caller = requireSignedIn(principal);
    const line = await this.repo.findById(id);
    if (!line) throw lineMissing(id);
    try {
      await this.access.requireImage(caller, line.imageId, permission);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) throw lineMissing(id);
      if (err instanceof AppError && err.status === 403) {
        throw lacksPermission('this text line', permission, 'on its image');
      }
      throw err;
    }
    return { caller, line };
  }

  /** One image, or a set with its sub-sets, that the caller may read: 404 otherwise. */
  private async parentFilter(caller: Principal, parentId: string): Promise<LineFilter> {
    const missing = () => notFound(`There is no document image or image set with id ${parentId}.`);
    const kind = await this.repo.kindOf(parentId);
    if (kind === 'set' && (await this.access.may(caller, parentId, 'READ'))) {
      return { kind: 'set', setId: parentId, scope: visibilityScope(caller, false) };
    }
    if (kind === 'image') {
      await this.access.requireImage(caller, parentId, 'READ').catch((err: unknown) => {
        throw err instanceof AppError && err.status === 404 ? missing() : err;
      });
      return { kind: 'image', imageId: parentId };
    }
    throw missing();
  }
}

const readable = (caller: Principal): LineFilter => ({ kind: 'readable', scope: visibilityScope(caller, false) });

const lineMissing = (id: string) => notFound(`There is no text line with id ${id}.`);
