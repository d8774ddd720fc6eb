import type { DocumentImageListQuery, TypeaheadQuery } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { type ChangeNotices, TopicCache } from '../../platform/db/change-notices.js';
import { notFound } from '../../platform/errors.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { DocumentImageRecord, DocumentImageRepository, StoredFileRecord, TranscriptionRecord } from './repository.js';
import { MATCH_COUNT_TOPICS, type MatchCounts } from './set-page.js';

export const AUTOCOMPLETE_PAGE_SIZE = 20;

/** An image with the transcriptions the table and detail page summarise. */
export interface DocumentImageDetail {
  image: DocumentImageRecord;
  transcriptions: TranscriptionRecord[];
}

/** Reading document images, their files and transcriptions; every decision goes through ImageSetAccess. */
export class DocumentImageService {
  /** How many images each filter of a set's image table matched, while the sets' memberships stay. */
  private readonly counts: MatchCounts;

  constructor(
    private readonly repo: DocumentImageRepository,
    private readonly access: ImageSetAccess,
    private readonly files: FileStore,
    changes: ChangeNotices,
  ) {
    this.counts = new TopicCache(changes, MATCH_COUNT_TOPICS, 1000);
  }

  /** The image table's column definitions are the same for everyone, but only for those signed in. */
  fieldDefinitions(principal: Principal | null): void {
    requireSignedIn(principal);
  }

  async get(principal: Principal | null, id: string): Promise<DocumentImageDetail> {
    await this.access.requireImage(principal, id, 'READ');
    const image = await this.repo.findById(id);
    if (!image) throw notFound(`There is no document image with id ${id}.`);
    return { image, transcriptions: await this.repo.transcriptionsOf([id]) };
  }

  /** Oldest first, the order they were made in. */
  async transcriptions(principal: Principal | null, id: string): Promise<TranscriptionRecord[]> {
    await this.access.requireImage(principal, id, 'READ');
    return (await this.repo.transcriptionsOf([id])).reverse();
  }

  /** One transcription's stored layout with the image it is drawn on. */
  async layout(
    principal: Principal | null,
    imageId: string,
    transcriptionId: string,
  ): Promise<{ image: DocumentImageRecord; layout: unknown }> {
    await this.access.requireImage(principal, imageId, 'READ');
    const [image, found] = await Promise.all([this.repo.findById(imageId), this.repo.layoutOf(imageId, transcriptionId)]);
    if (!image) throw notFound(`There is no document image with id ${imageId}.`);
    if (!found) throw notFound(`The document image ${imageId} has no transcription with id ${transcriptionId}.`);
    return { image, layout: found.layout };
  }

  async setsOfImage(principal: Principal | null, id: string): Promise<{ id: string; name: string }[]> {
    const caller = await this.access.requireImage(principal, id, 'READ');
    return this.repo.setsOfImage(id, visibilityScope(caller, false));
  }

  async autocomplete(
    principal: Principal | null,
    q: TypeaheadQuery & { setUuid?: string },
  ): Promise<{ id: string; label: string }[]> {
    const caller = q.setUuid ? await this.access.requireSet(principal, q.setUuid, 'READ') : requireSignedIn(principal);
    const scope = visibilityScope(caller, q.onlyOwnData);
    return this.repo.autocomplete(scope, { filter: q.filter, skip: q.skip, limit: AUTOCOMPLETE_PAGE_SIZE, setId: q.setUuid });
  }

  async pageOfSet(
    principal: Principal | null,
    setId: string,
    q: DocumentImageListQuery,
  ): Promise<{ details: DocumentImageDetail[]; total: number }> {
    await this.access.requireSet(principal, setId, 'READ');
    const { rows, total } = await this.repo.pageOfSet(setId, q, this.counts);
    const transcriptions = await this.repo.transcriptionsOf(rows.map((r) => r.id));
    return {
      details: rows.map((image) => ({ image, transcriptions: transcriptions.filter((t) => t.imageId === image.id) })),
      total,
    };
  }

  /** The original bytes of an image, to stream. */
  async imageFile(principal: Principal | null, id: string): Promise<{ file: StoredFileRecord; open: () => NodeJS.ReadableStream }> {
    await this.access.requireImage(principal, id, 'READ');
    const file = await this.repo.imageFile(id);
    if (!file) throw notFound(`There is no document image with id ${id}.`);
    return { file, open: () => this.files.stream(file.sha256) };
  }

  /** A PDF or XML file uploaded into a set the caller may read. */
  async setFile(principal: Principal | null, fileId: string): Promise<{ file: StoredFileRecord; open: () => NodeJS.ReadableStream }> {
    const caller = requireSignedIn(principal);
    const found = await this.repo.setFile(fileId);
    for (const setId of found?.setIds ?? []) {
      if (found && (await this.access.may(caller, setId, 'READ'))) {
        return { file: found.file, open: () => this.files.stream(found.file.sha256) };
      }
    }
    throw notFound(`There is no file with id ${fileId}.`);
  }
}
