import type { ModelKind } from '@pim/contract';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import { containsText, visibleOwned } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';
import type { Publication } from '../../platform/storage/file-store.js';
import { insertStoredFiles, publishWithRows, type NewStoredFile, deleteWithStoredFile } from '../../platform/storage/stored-file-repository.js';

/** A model with its owner's name and its file. */
export interface ModelRecord {
  id: string;
  kind: ModelKind;
  label: string;
  language: string | null;
  isPublic: boolean;
  owner: { id: string; name: string } | null;
  file: { id: string; sha256: string; sizeBytes: number; mediaType: string; originalName: string };
  properties: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewModel {
  id: string;
  kind: ModelKind;
  label: string;
  language: string | null;
  isPublic: boolean;
  ownerId: string | null;
  properties: Record<string, unknown>;
}

/** The order of a kind's list: Laypa's paged table newest first, the others by label. */
export type ModelOrder = 'newest' | 'label';

/** SQL that is true for the models (under `m`) in the caller's scope: public_model is "everyone signed in sees it". */
function visibleModels(scope: VisibilityScope): Expression<SqlBool> {
  return visibleOwned(scope, { ownerId: 'm.owner_id', isPublic: 'm.public_model' });
}

function selectModels(db: Kysely<DB>) {
  return db
    .selectFrom('pim_model as m')
    .innerJoin('stored_file as f', 'f.id', 'm.file_id')
    .leftJoin('pim_user as u', 'u.id', 'm.owner_id')
    .select([
      'm.id',
      'm.kind',
      'm.label',
      'm.language',
      'm.public_model',
      'm.owner_id',
      'u.name as owner_name',
      'm.properties',
      'm.created_at',
      'm.updated_at',
      'f.id as file_id',
      'f.sha256',
      'f.size_bytes',
      'f.media_type',
      'f.original_name',
    ]);
}

/** Models and the stored files that hold them: the only SQL on pim_model. */
export class ModelRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async list(kind: ModelKind, scope: VisibilityScope, order: ModelOrder, page?: { offset: number; limit: number }): Promise<ModelRecord[]> {
    let query = selectModels(this.db).where('m.kind', '=', kind).where(visibleModels(scope));
    query = order === 'newest' ? query.orderBy('m.created_at', 'desc') : query.orderBy(sql`lower(m.label)`);
    query = query.orderBy('m.id');
    if (page) query = query.offset(page.offset).limit(page.limit);
    return (await query.execute()).map(toRecord);
  }

  async count(kind: ModelKind, scope: VisibilityScope): Promise<number> {
    const row = await this.db
      .selectFrom('pim_model as m')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('m.kind', '=', kind)
      .where(visibleModels(scope))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(kind: ModelKind, id: string): Promise<ModelRecord | undefined> {
    const row = await selectModels(this.db).where('m.kind', '=', kind).where('m.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** The visible models whose label contains the filter, by label, a page at a time. */
  autocomplete(kind: ModelKind, scope: VisibilityScope, q: { filter: string; skip: number; limit: number }): Promise<{ id: string; label: string }[]> {
    let query = this.db.selectFrom('pim_model as m').select(['m.id', 'm.label']).where('m.kind', '=', kind).where(visibleModels(scope));
    if (q.filter) query = query.where(containsText('m.label', q.filter));
    return query.orderBy(sql`lower(m.label)`).orderBy('m.id').offset(q.skip).limit(q.limit).execute();
  }

  /** Publishes the model's file and records it with its row in one transaction: both or neither. */
  async insert(model: NewModel, file: NewStoredFile, publication: Publication): Promise<void> {
    await publishWithRows(this.db, publication, async (trx) => {
      await insertStoredFiles(trx, [file]);
      await trx
        .insertInto('pim_model')
        .values({
          id: model.id,
          kind: model.kind,
          label: model.label,
          language: model.language,
          public_model: model.isPublic,
          owner_id: model.ownerId,
          file_id: file.id,
          properties: JSON.stringify(model.properties),
        })
        .execute();
      return true;
    });
  }

  async setPublic(kind: ModelKind, id: string, isPublic: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('pim_model')
      .set({ public_model: isPublic, updated_at: new Date() })
      .where('kind', '=', kind)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Deletes the model and the stored_file row of its file, then the file itself unless another row
   * names the same bytes. False when there was no such model. A crash between the two leaves an
   * unreferenced file, which `pim files gc` removes.
   */
  async delete(kind: ModelKind, id: string, remove: (sha256: string) => Promise<boolean>): Promise<boolean> {
    return deleteWithStoredFile(
      this.db,
      async (trx) => (await trx.deleteFrom('pim_model').where('kind', '=', kind).where('id', '=', id).returning('file_id').executeTakeFirst())?.file_id,
      remove,
    );
  }
}

type ModelRow = Awaited<ReturnType<ReturnType<typeof selectModels>['executeTakeFirstOrThrow']>>;

function toRecord(row: ModelRow): ModelRecord {
  return {
    id: row.id,
    kind: row.kind as ModelKind,
    label: row.label,
    language: row.language,
    isPublic: row.public_model,
    owner: row.owner_id && row.owner_name !== null ? { id: row.owner_id, name: row.owner_name } : null,
    file: {
      id: row.file_id,
      sha256: row.sha256,
      sizeBytes: Number(row.size_bytes),
      mediaType: row.media_type,
      originalName: row.original_name,
    },
    properties: (row.properties ?? {}) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
