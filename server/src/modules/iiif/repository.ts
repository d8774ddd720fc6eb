import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { Publication } from '../../platform/storage/file-store.js';
import { insertStoredFiles, publishWithRows, removeUnreferenced, type NewStoredFile } from '../../platform/storage/stored-file-repository.js';

/** What the Image API and the manifests need of a document image and its stored files. */
export interface IiifImageRecord {
  id: string;
  label: string;
  width: number;
  height: number;
  sha256: string;
  ownerId: string | null;
  /** The pyramidal tiled TIFF, once it has been made. */
  tiledSha256: string | null;
}

export type { NewStoredFile };

export class IiifRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private selectImages() {
    return this.db
      .selectFrom('document_image as d')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .leftJoin('stored_file as t', 't.id', 'd.tiled_file_id')
      .select(['d.id', 'd.label', 'd.width', 'd.height', 'd.owner_id', 'f.sha256', 't.sha256 as tiled_sha256']);
  }

  async findImage(id: string): Promise<IiifImageRecord | undefined> {
    const row = await this.selectImages().where('d.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** The images of a set in their order (position, then id so equal positions stay stable). */
  async imagesOfSet(setId: string): Promise<IiifImageRecord[]> {
    const rows = await this.selectImages()
      .innerJoin('image_set_image as si', 'si.image_id', 'd.id')
      .where('si.set_id', '=', setId)
      .orderBy('si.position')
      .orderBy('d.id')
      .execute();
    return rows.map(toRecord);
  }

  /**
   * Publishes the pyramid file, records it and links it to the image, all or none (false: no such
   * image). A pyramid it replaces loses its row in the same transaction and its bytes after, unless
   * another row names them (`remove` deletes them from the store).
   */
  async attachPyramid(imageId: string, file: NewStoredFile, files: Publication, remove: (sha256: string) => Promise<boolean>): Promise<boolean> {
    let replaced: string | null = null;
    const attached = await publishWithRows(this.db, files, async (trx) => {
      const image = await trx.selectFrom('document_image').select('tiled_file_id').where('id', '=', imageId).forUpdate().executeTakeFirst();
      if (!image) return false;
      await insertStoredFiles(trx, [file]);
      await trx.updateTable('document_image').set({ tiled_file_id: file.id }).where('id', '=', imageId).execute();
      if (image.tiled_file_id) {
        const old = await trx.deleteFrom('stored_file').where('id', '=', image.tiled_file_id).returning('sha256').executeTakeFirst();
        replaced = old?.sha256 ?? null;
      }
      return true;
    });
    // What a failed removal leaves, `pim files gc` sweeps: the new pyramid is in place either way.
    if (replaced) await removeUnreferenced(this.db, [replaced], remove).catch(() => undefined);
    return attached;
  }
}

type Row = Awaited<ReturnType<ReturnType<IiifRepository['selectImages']>['executeTakeFirstOrThrow']>>;

function toRecord(r: Row): IiifImageRecord {
  return {
    id: r.id,
    label: r.label,
    width: r.width,
    height: r.height,
    sha256: r.sha256,
    ownerId: r.owner_id,
    tiledSha256: r.tiled_sha256,
  };
}
