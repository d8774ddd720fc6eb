import type { Readable } from 'node:stream';
import { AppError } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { JobContext } from '../../executor.js';
import { fitSetName } from '../../set-name.js';
import { descriptionOf, type IiifCanvas, type IiifDocument, type IiifMember, readIiifDocument } from './iiif-document.js';

/** Collections inside collections, at most. */
export const MAX_DEPTH = 5;
/** Manifests and collections one harvest reads, at most. */
export const MAX_DOCUMENTS = 1000;
/** The largest manifest or collection document read. */
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
/** Refusals kept in the job's notes, each with its reason. */
const REFUSALS_KEPT = 20;

/** What ends the whole harvest rather than one member of a collection: the limits and loops. */
class HarvestStop extends AppError {
  constructor(message: string) {
    super(400, 'bad_request', message);
  }
}

export interface HarvestCounts {
  documents: number;
  canvases: number;
  imported: number;
  alreadyThere: number;
  refused: number;
  membersFailed: number;
}

/**
 * One run of a IIIF harvest into a set: a manifest's canvases become images of the set (each
 * fetched at full size, through the upload's checks, known by the canvas id as its remoteUri, so
 * a run again skips what is there); a collection becomes a sub-set per member, made from the
 * member's id, nested as the collections are. Each set filled gets what its document says of
 * itself in its empty fields. A canvas whose image cannot be fetched or is refused, and a member
 * that cannot be read, are noted and passed by; a root that cannot be read, a loop of
 * collections and the limits end the run.
 */
export class Harvester {
  readonly counts: HarvestCounts = { documents: 0, canvases: 0, imported: 0, alreadyThere: 0, refused: 0, membersFailed: 0 };
  readonly refusals: { id: string; label: string; reason: string }[] = [];
  /** The collections being harvested, outermost first: one that contains itself is a loop. */
  private readonly path: string[] = [];
  private readonly seen = new Set<string>();
  private total: number | null = null;

  constructor(
    private readonly ctx: JobContext,
    private readonly owner: Principal,
  ) {}

  async run(uri: string, setId: string): Promise<void> {
    const root = await this.read(uri);
    if (root.kind === 'manifest') this.total = root.canvases.length;
    await this.harvest(root, setId, 0);
  }

  private async read(uri: string): Promise<IiifDocument> {
    this.ctx.signal.throwIfAborted();
    if ((this.counts.documents += 1) > MAX_DOCUMENTS) {
      throw new HarvestStop(`This harvest reaches more than ${MAX_DOCUMENTS} manifests and collections: harvest its parts one at a time.`);
    }
    const { url, json } = await this.ctx.services.remoteFetch.getJson(uri, { maxBytes: MAX_DOCUMENT_BYTES, signal: this.ctx.signal });
    return readIiifDocument(json, url);
  }

  private async harvest(doc: IiifDocument, setId: string, depth: number): Promise<void> {
    this.seen.add(doc.source.id);
    await this.ctx.services.imageSets.fillFromSource(this.owner, setId, {
      remoteUri: doc.source.id,
      prettyName: doc.source.label || null,
      description: descriptionOf(doc.source),
      license: doc.source.rights,
    });
    if (doc.kind === 'manifest') {
      for (const canvas of doc.canvases) await this.canvas(canvas, setId);
      return;
    }
    this.path.push(doc.source.id);
    for (const member of doc.members) await this.member(member, doc.source.id, setId, depth);
    this.path.pop();
  }

  private async member(member: IiifMember, parentId: string, setId: string, depth: number): Promise<void> {
    this.checkLoop(member.id, parentId);
    if (this.seen.has(member.id)) return;
    if (member.kind === 'collection' && depth + 1 > MAX_DEPTH) {
      throw new HarvestStop(`The collections nest more than ${MAX_DEPTH} deep (at ${member.id}): harvest the inner collections one at a time.`);
    }
    let doc: IiifDocument;
    try {
      doc = member.embedded ? readIiifDocument(member.embedded, member.id) : await this.read(member.id);
      this.checkLoop(doc.source.id, parentId);
    } catch (err) {
      if (this.ctx.signal.aborted || err instanceof HarvestStop) throw err;
      this.counts.membersFailed += 1;
      this.refuse({ id: member.id, label: member.id, reason: messageOf(err) });
      return;
    }
    if (this.seen.has(doc.source.id)) return;
    const name = fitSetName(doc.source.label || doc.source.id);
    const subset = await this.ctx.services.imageSetHierarchy.subsetNamed(this.owner, setId, name, doc.source.id);
    await this.harvest(doc, subset.id, depth + 1);
  }

  private checkLoop(id: string, parentId: string): void {
    if (!this.path.includes(id)) return;
    throw new HarvestStop(`The collection ${parentId} contains ${id}, which contains it: a loop of collections cannot be harvested.`);
  }

  private async canvas(canvas: IiifCanvas, setId: string): Promise<void> {
    this.ctx.signal.throwIfAborted();
    this.counts.canvases += 1;
    const { uploads, remoteFetch } = this.ctx.services;
    if (await uploads.remoteImageOf(this.owner, setId, canvas.id)) {
      this.counts.alreadyThere += 1;
    } else {
      let firstError: unknown;
      for (const url of canvas.imageUrls) {
        let body: Readable | undefined;
        try {
          body = (await remoteFetch.get(url, { accept: 'image/*', maxBytes: uploads.limits.maxBytes, signal: this.ctx.signal })).body;
          const added = await uploads.addRemoteImage(this.owner, setId, { stream: body, label: canvas.label, remoteUri: canvas.id });
          this.counts[added ? 'imported' : 'alreadyThere'] += 1;
          firstError = undefined;
          break;
        } catch (err) {
          body?.destroy(); // a refused image's rest is not read: its connection is closed
          if (this.ctx.signal.aborted) throw err;
          firstError ??= err;
        }
      }
      if (firstError !== undefined) {
        this.counts.refused += 1;
        this.refuse({ id: canvas.id, label: canvas.label, reason: messageOf(firstError) });
      }
    }
    const done = this.counts.canvases;
    await this.ctx.progress(done, this.total, this.total === null ? `Canvas ${done}` : `Canvas ${done} of ${this.total}`);
  }

  private refuse(refusal: { id: string; label: string; reason: string }): void {
    if (this.refusals.length < REFUSALS_KEPT) this.refusals.push(refusal);
    this.ctx.log.warn(`${refusal.label} (${refusal.id}) was not harvested: ${refusal.reason}`);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
