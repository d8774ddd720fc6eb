import type { Expression, Kysely, SqlBool } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { aclGrants } from './access-repository.js';

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
    let q = this.selectSets();
    if (!scope.all) {
      const { ownerId, includePublic, includeGranted } = scope;
      q = q.where((eb) => {
        const visible: Expression<SqlBool>[] = [];
        if (ownerId) visible.push(eb('s.owner_id', '=', ownerId));
        if (includePublic) visible.push(eb('s.public_document_image_set', '=', true));
        if (includeGranted && ownerId) visible.push(aclGrants(ownerId, eb.ref('s.id'), 'READ'));
        return visible.length ? eb.or(visible) : eb.val(false);
      });
    }
    const rows = await q.orderBy('s.created_at', 'desc').orderBy('s.id').execute();
    return rows.map(toRecord);
  }

  async findById(id: string): Promise<ImageSetRecord | undefined> {
    const row = await this.selectSets().where('s.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
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
