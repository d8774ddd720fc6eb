import { type Kysely, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import { containsText } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleSets } from './access-repository.js';

/** An image set row with the names of what it refers to. */
export interface ImageSetRecord {
  id: string;
  name: string;
  longName: string | null;
  prettyName: string | null;
  description: string | null;
  remoteUri: string | null;
  tag: string | null;
  license: string | null;
  publicDocumentImageSet: boolean;
  publicDataSet: boolean;
  publish: boolean;
  searchIndex: { id: string; name: string } | null;
  owner: { id: string; name: string } | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Fields of a set that `update` may change; undefined means unchanged. */
export interface ImageSetChanges {
  name?: string;
  prettyName?: string | null;
  description?: string | null;
  searchIndexId?: string | null;
  publish?: boolean;
  license?: string | null;
  publicDataSet?: boolean;
  publicDocumentImageSet?: boolean;
  /** Where the set was harvested from. */
  remoteUri?: string | null;
}

export class ImageSetRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private selectSets() {
    return this.db
      .selectFrom('document_image_set as s')
      .leftJoin('search_index as i', 'i.id', 's.search_index_id')
      .leftJoin('pim_user as u', 'u.id', 's.owner_id')
      .select([
        's.id',
        's.name',
        's.long_name',
        's.pretty_name',
        's.description',
        's.remote_uri',
        's.tag',
        's.license',
        's.public_document_image_set',
        's.public_data_set',
        's.publish',
        's.owner_id',
        'u.name as owner_name',
        's.search_index_id',
        'i.name as search_index_name',
        's.created_at',
        's.updated_at',
        's.deleted_at',
      ])
      .where('s.deleted_at', 'is', null);
  }

  async list(scope: VisibilityScope): Promise<ImageSetRecord[]> {
    const rows = await this.selectSets().where(visibleSets(scope, 's')).orderBy('s.created_at', 'desc').orderBy('s.id').execute();
    return rows.map(toRecord);
  }

  /** A page of the sets in `scope` whose name contains `filter` (any case), by name. */
  autocomplete(
    scope: VisibilityScope,
    query: { filter: string; exclude?: string; skip: number; limit: number },
  ): Promise<{ id: string; name: string }[]> {
    let q = this.db
      .selectFrom('document_image_set as s')
      .select(['s.id', 's.name'])
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'));
    if (query.filter) q = q.where(containsText('s.name', query.filter));
    if (query.exclude) q = q.where('s.id', '<>', query.exclude);
    return q.orderBy(sql`lower(s.name)`).orderBy('s.id').offset(query.skip).limit(query.limit).execute();
  }

  async findById(id: string): Promise<ImageSetRecord | undefined> {
    const row = await this.selectSets().where('s.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async searchIndexExists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('search_index').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /** Changes the given fields (undefined ones stay) and stamps the update. */
  async update(id: string, changes: ImageSetChanges): Promise<void> {
    await this.db
      .updateTable('document_image_set')
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.prettyName !== undefined && { pretty_name: changes.prettyName }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...(changes.searchIndexId !== undefined && { search_index_id: changes.searchIndexId }),
        ...(changes.publish !== undefined && { publish: changes.publish }),
        ...(changes.license !== undefined && { license: changes.license }),
        ...(changes.publicDataSet !== undefined && { public_data_set: changes.publicDataSet }),
        ...(changes.publicDocumentImageSet !== undefined && { public_document_image_set: changes.publicDocumentImageSet }),
        ...(changes.remoteUri !== undefined && { remote_uri: changes.remoteUri }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Marks the set deleted; its rows stay, every query of live sets skips it. */
  async softDelete(id: string): Promise<void> {
    await this.db
      .updateTable('document_image_set')
      .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  async create(values: { id: string; name: string; ownerId: string | null }): Promise<void> {
    await this.db
      .insertInto('document_image_set')
      .values({ id: values.id, name: values.name, owner_id: values.ownerId })
      .execute();
  }
}

type Row = Awaited<ReturnType<ReturnType<ImageSetRepository['selectSets']>['executeTakeFirstOrThrow']>>;

function toRecord(r: Row): ImageSetRecord {
  return {
    id: r.id,
    name: r.name,
    longName: r.long_name,
    prettyName: r.pretty_name,
    description: r.description,
    remoteUri: r.remote_uri,
    tag: r.tag,
    license: r.license,
    publicDocumentImageSet: r.public_document_image_set,
    publicDataSet: r.public_data_set,
    publish: r.publish,
    searchIndex: r.search_index_id && r.search_index_name ? { id: r.search_index_id, name: r.search_index_name } : null,
    owner: r.owner_id ? { id: r.owner_id, name: r.owner_name ?? '' } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}
