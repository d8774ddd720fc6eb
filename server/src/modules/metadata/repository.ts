import { randomUUID } from 'node:crypto';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleFieldSets } from '../fieldsets/repository.js';
import { visibleImages, visibleSets } from '../imagesets/access-repository.js';
import type { OwnUri } from './own-uris.js';

/** What is known of one image under one field set, apart from the values of its fields. */
export interface MetadataRecord {
  id: string;
  imageUri: string;
  datasetUri: string;
}

/** A record as a save writes it; the ids name our own image, set or image manifest behind the URIs. */
export interface RecordToSave {
  fieldSetId: string;
  imageUri: string;
  datasetUri: string;
  datasetName: string | null;
  imageId: string | null;
  imageSetId: string | null;
  datasetImageId: string | null;
  userId: string | null;
}

/** A stored value with the text a person reads for it (a user's name, an image's label, else the value). */
export interface StoredValueRecord {
  recordId: string;
  fieldId: string;
  value: string;
  display: string;
}

/** Which records a list shows: those the caller may see; with onlyOwnData, of those only the ones they made or last changed. */
export interface RecordFilter {
  scope: VisibilityScope;
  onlyOwnData: boolean;
  userId: string | null;
}

/** SQL that is true when the image `imageId` names may be read in `scope`. */
function readableImage(scope: VisibilityScope, imageId: Expression<string | null>): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`true`;
  return sql<SqlBool>`exists (select 1 from document_image di where di.id = ${imageId} and ${visibleImages(scope, 'di')})`;
}

/**
 * SQL that is true for the records (under `alias`) a caller may see: the field set is visible to
 * them, and where the image, the set or the image manifest is ours, they may read it.
 */
export function visibleRecords(scope: VisibilityScope, alias: string): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref<string | null>(`${alias}.${name}`);
  return sql<SqlBool>`(
    exists (select 1 from pim_field_set fs where fs.id = ${col('field_set_id')} and ${visibleFieldSets(scope, 'fs')})
    and (${col('image_id')} is null or ${readableImage(scope, col('image_id'))})
    and (${col('dataset_image_id')} is null or ${readableImage(scope, col('dataset_image_id'))})
    and (${col('image_set_id')} is null or exists (
      select 1 from document_image_set s where s.id = ${col('image_set_id')} and s.deleted_at is null and ${visibleSets(scope, 's')}
    ))
  )`;
}

function madeBy(userId: string | null, alias: string): Expression<SqlBool> {
  if (userId === null) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.ref(`${alias}.created_by`)} = ${userId} or ${sql.ref(`${alias}.updated_by`)} = ${userId})`;
}

/** The records and values annotators store, and the lists built from them. */
export class MetadataRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in one transaction with a repository bound to it; a throw rolls it all back. */
  transaction<T>(work: (tx: MetadataRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MetadataRepository(trx)));
  }

  /**
   * Holds the field set's row (shared) until the transaction ends and tells whether the set is
   * still as it was when it was read (`updatedAt`): a save of the set meanwhile has bumped it, so
   * values checked against the old fields are not written under the new ones.
   */
  async lockFieldSet(fieldSetId: string, updatedAt: Date): Promise<boolean> {
    const set = await this.db.selectFrom('pim_field_set').select('updated_at').where('id', '=', fieldSetId).forShare().executeTakeFirst();
    return set !== undefined && set.updated_at.getTime() === updatedAt.getTime();
  }

  /**
   * Whether the image has a record under the set, and whether `scope` may see it; holds the
   * record's row until the transaction ends.
   */
  async recordAccess(fieldSetId: string, imageUri: string, scope: VisibilityScope): Promise<'none' | 'visible' | 'hidden'> {
    const row = await this.db
      .selectFrom('metadata_record as r')
      .select(visibleRecords(scope, 'r').as('visible'))
      .where('r.field_set_id', '=', fieldSetId)
      .where('r.image_uri', '=', imageUri)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return 'none';
    return row.visible ? 'visible' : 'hidden';
  }

  /** Inserts or updates the record of the image under the set; the first author stays its creator. */
  async saveRecord(record: RecordToSave): Promise<string> {
    const row = await this.db
      .insertInto('metadata_record')
      .values({
        id: randomUUID(),
        field_set_id: record.fieldSetId,
        image_uri: record.imageUri,
        dataset_uri: record.datasetUri,
        dataset_name: record.datasetName,
        image_id: record.imageId,
        image_set_id: record.imageSetId,
        dataset_image_id: record.datasetImageId,
        created_by: record.userId,
        updated_by: record.userId,
      })
      .onConflict((oc) =>
        oc.columns(['field_set_id', 'image_uri']).doUpdateSet((eb) => ({
          dataset_uri: eb.ref('excluded.dataset_uri'),
          dataset_name: eb.ref('excluded.dataset_name'),
          image_id: eb.ref('excluded.image_id'),
          image_set_id: eb.ref('excluded.image_set_id'),
          dataset_image_id: eb.ref('excluded.dataset_image_id'),
          updated_by: eb.ref('excluded.updated_by'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Makes the record's values exactly `values`. */
  async replaceValues(recordId: string, values: { fieldId: string; value: string }[]): Promise<void> {
    await this.db.deleteFrom('metadata_value').where('record_id', '=', recordId).execute();
    if (values.length === 0) return;
    await this.db
      .insertInto('metadata_value')
      .values(values.map((v) => ({ record_id: recordId, field_id: v.fieldId, value: v.value })))
      .execute();
  }

  /** Of the given user ids, those of users who exist and are not deleted. */
  async liveUserIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('pim_user').select('id').where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Whether the image or set a URI of our shape names is one of ours (a deleted set too: it is still not the caller's to name unchecked). */
  async exists(uri: OwnUri): Promise<boolean> {
    const row =
      uri.kind === 'setManifest'
        ? await this.db.selectFrom('document_image_set').select('id').where('id', '=', uri.setId).executeTakeFirst()
        : await this.db.selectFrom('document_image').select('id').where('id', '=', uri.imageId).executeTakeFirst();
    return row !== undefined;
  }

  findRecord(fieldSetId: string, imageUri: string, scope: VisibilityScope): Promise<MetadataRecord | undefined> {
    return this.db
      .selectFrom('metadata_record as r')
      .select(['r.id', 'r.image_uri as imageUri', 'r.dataset_uri as datasetUri'])
      .where('r.field_set_id', '=', fieldSetId)
      .where('r.image_uri', '=', imageUri)
      .where(visibleRecords(scope, 'r'))
      .executeTakeFirst();
  }

  /**
   * The records of a dataset under a set, as the overview lists them: for our own set in the set's
   * order of images, else (and for images no longer in the set) in the order they were made.
   */
  overviewRecords(fieldSetId: string, datasetUri: string, scope: VisibilityScope): Promise<MetadataRecord[]> {
    return this.db
      .selectFrom('metadata_record as r')
      .leftJoin('image_set_image as p', (join) => join.onRef('p.set_id', '=', 'r.image_set_id').onRef('p.image_id', '=', 'r.image_id'))
      .select(['r.id', 'r.image_uri as imageUri', 'r.dataset_uri as datasetUri'])
      .where('r.field_set_id', '=', fieldSetId)
      .where('r.dataset_uri', '=', datasetUri)
      .where(visibleRecords(scope, 'r'))
      .orderBy(sql`p.position asc nulls last`)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute();
  }

  /**
   * The values of the records in field order, each with its display text: a pimuser value shows
   * the user's name, a documentimage value the image's label when the caller may read the image.
   */
  async valuesOf(recordIds: string[], scope: VisibilityScope): Promise<StoredValueRecord[]> {
    if (recordIds.length === 0) return [];
    return this.db
      .selectFrom('metadata_value as v')
      .innerJoin('pim_field as f', 'f.id', 'v.field_id')
      .leftJoin('pim_user as u', (join) => join.on(sql<SqlBool>`f.type = 'pimuser' and u.id::text = v.value`))
      .leftJoin('document_image as d', (join) =>
        join.on(sql<SqlBool>`f.type = 'documentimage' and d.id::text = v.value and ${visibleImages(scope, 'd')}`),
      )
      .select([
        'v.record_id as recordId',
        'v.field_id as fieldId',
        'v.value',
        sql<string>`coalesce(u.name, d.label, v.value)`.as('display'),
      ])
      .where('v.record_id', 'in', recordIds)
      .orderBy('f.position')
      .execute();
  }

  /**
   * The values of one field stored for our images (by the records' image ids), with their display
   * text, from the records `scope` may see; an image described under several of its URIs may
   * have several.
   */
  async valuesOfImages(fieldId: string, imageIds: string[], scope: VisibilityScope): Promise<{ imageId: string; display: string }[]> {
    if (imageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('metadata_record as r')
      .innerJoin('metadata_value as v', 'v.record_id', 'r.id')
      .innerJoin('pim_field as f', 'f.id', 'v.field_id')
      .leftJoin('pim_user as u', (join) => join.on(sql<SqlBool>`f.type = 'pimuser' and u.id::text = v.value`))
      .leftJoin('document_image as d', (join) =>
        join.on(sql<SqlBool>`f.type = 'documentimage' and d.id::text = v.value and ${visibleImages(scope, 'd')}`),
      )
      .select(['r.image_id', sql<string>`coalesce(u.name, d.label, v.value)`.as('display')])
      .where('v.field_id', '=', fieldId)
      .where('r.image_id', 'in', imageIds)
      .where(visibleRecords(scope, 'r'))
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute();
    return rows.map((r) => ({ imageId: r.image_id!, display: r.display }));
  }

  /**
   * The datasets with records the filter lets through, by name: our set's live name when the
   * dataset is our set, else the latest name a save gave it, else its uri.
   */
  async datasets(filter: RecordFilter): Promise<{ datasetUri: string; datasetName: string }[]> {
    const latest = this.db
      .selectFrom('metadata_record as r')
      .leftJoin('document_image_set as s', 's.id', 'r.image_set_id')
      .distinctOn('r.dataset_uri')
      .select(['r.dataset_uri as datasetUri', sql<string>`coalesce(s.name, r.dataset_name, r.dataset_uri)`.as('datasetName')])
      .where(this.filtered(filter, 'r'))
      .orderBy('r.dataset_uri')
      .orderBy(sql`coalesce(s.name, r.dataset_name) is null`)
      .orderBy('r.updated_at', 'desc');
    return this.db
      .selectFrom(latest.as('d'))
      .select(['d.datasetUri', 'd.datasetName'])
      .orderBy(sql`lower(d."datasetName")`)
      .orderBy('d.datasetUri')
      .execute();
  }

  /**
   * The annotated images of a dataset with the sets they were annotated with, in the overview's
   * order; `imageLabel` is our image's label when the uri names one the caller may read.
   */
  datasetImages(
    datasetUri: string,
    filter: RecordFilter,
  ): Promise<{ imageUri: string; imageLabel: string | null; fieldSetId: string; fieldSetName: string }[]> {
    return this.db
      .selectFrom('metadata_record as r')
      .innerJoin('pim_field_set as fs', 'fs.id', 'r.field_set_id')
      .leftJoin('image_set_image as p', (join) => join.onRef('p.set_id', '=', 'r.image_set_id').onRef('p.image_id', '=', 'r.image_id'))
      .leftJoin('document_image as d', (join) => join.on(sql<SqlBool>`d.id = r.image_id and ${visibleImages(filter.scope, 'd')}`))
      .select(['r.image_uri as imageUri', 'd.label as imageLabel', 'fs.id as fieldSetId', 'fs.name as fieldSetName'])
      .where('r.dataset_uri', '=', datasetUri)
      .where(this.filtered(filter, 'r'))
      .orderBy(sql`p.position asc nulls last`)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute();
  }

  private filtered(filter: RecordFilter, alias: string): Expression<SqlBool> {
    const visible = visibleRecords(filter.scope, alias);
    return filter.onlyOwnData ? sql<SqlBool>`(${visible} and ${madeBy(filter.userId, alias)})` : visible;
  }
}
