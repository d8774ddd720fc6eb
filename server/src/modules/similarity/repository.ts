import { type Kysely, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { containsText } from '../../platform/db/conditions.js';
import { readableSetIds, readableSetTree, visibleSets } from '../imagesets/access-repository.js';
import { visibleRecords } from '../metadata/repository.js';
import type { SnippetVector } from './vector-index.js';

/** A snippet as results show it: where it was cut from, and its tag. */
export interface SnippetDetails {
  id: string;
  model: string;
  imageId: string;
  imageLabel: string;
  lineId: string;
  lineText: string | null;
  region: { x: number; y: number; w: number; h: number };
  tag: string | null;
}

/** A text line to cut a snippet from. */
export interface LineToCut {
  lineId: string;
  imageId: string;
  region: { x: number; y: number; w: number; h: number };
}

/** One snippet to store. */
export interface NewSnippet extends LineToCut {
  id: string;
  tag: string | null;
  features: number[];
}

export interface ConfusionMatrixRecord {
  id: string;
  model: string;
  modelLabel: string | null;
  setId: string | null;
  setName: string | null;
  labels: string[];
  matrix: number[][];
  accuracy: number;
  snippets: number;
  report: string;
  createdAt: Date;
}

/** Rows per INSERT: 11 values each stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;
/** Suggestions a picker shows per page. */
export const PICKER_PAGE = 20;

/** The SQL of similarity search: snippets, their vectors, the sets and metadata that filter them. */
export class SimilarityRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The generation of a model's snippets: it changes with every write to them. */
  async generation(model: string): Promise<string> {
    const row = await this.db.selectFrom('similarity_generation').select('generation').where('model', '=', model).executeTakeFirst();
    return String(row?.generation ?? 0);
  }

  /**
   * The model's vectors. They travel as text and are split here: node-postgres parses a real[]
   * character by character, which at 100,000 vectors took seconds.
   */
  async vectorsOf(model: string): Promise<SnippetVector[]> {
    const rows = await sql<{ id: string; image_id: string; features: string }>`
      select id, image_id, array_to_string(features, ',') as features
      from similarity_snippet where model = ${model} order by id`.execute(this.db);
    return rows.rows.map((r) => ({ id: r.id, imageId: r.image_id, features: r.features.split(',').map(Number) }));
  }

  /** Every model with snippets, with its label when it is an uploaded model. */
  async models(): Promise<{ model: string; label: string | null }[]> {
    const rows = await sql<{ model: string; label: string | null }>`
      select g.model, m.label from similarity_generation g
      left join pim_model m on m.id::text = g.model
      where exists (select 1 from similarity_snippet s where s.model = g.model)
      order by g.model = 'builtin' desc, m.label, g.model`.execute(this.db);
    return rows.rows;
  }

  /**
   * The images a caller may read: their own and those held by the live sets they may read; null:
   * all. The sets are found first, each checked once, then their images by the set index.
   */
  async readableImages(scope: VisibilityScope): Promise<Set<string> | null> {
    if (scope.all) return null;
    const sets = await readableSetIds(this.db, scope);
    const rows = await sql<{ id: string }>`
      select held.image_id as id from image_set_image held where held.set_id = any(${sets}::uuid[])
      union
      select d.id from document_image d where ${scope.ownerId ? sql`d.owner_id = ${scope.ownerId}` : sql`false`}`.execute(this.db);
    return new Set(rows.rows.map((r) => r.id));
  }

  /** The images of a set and of its sub-sets the scope may read, at any depth. */
  async imagesOfSetTree(setId: string, scope: VisibilityScope): Promise<Set<string>> {
    const rows = await sql<{ id: string }>`
      ${readableSetTree(sql`${setId}::uuid`, scope)}
      select distinct held.image_id as id from image_set_image held join tree on held.set_id = tree.id`.execute(this.db);
    return new Set(rows.rows.map((r) => r.id));
  }

  /** The images that share a live set with the image (itself included). */
  async imagesSharingASet(imageId: string): Promise<Set<string>> {
    const rows = await sql<{ id: string }>`
      select distinct other.image_id as id from image_set_image mine
      join image_set_image other on other.set_id = mine.set_id
      join document_image_set s on s.id = mine.set_id and s.deleted_at is null
      where mine.image_id = ${imageId}`.execute(this.db);
    return new Set([imageId, ...rows.rows.map((r) => r.id)]);
  }

  async details(ids: string[]): Promise<Map<string, SnippetDetails>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('similarity_snippet as s')
      .innerJoin('document_image as d', 'd.id', 's.image_id')
      .leftJoin('simple_text_line as l', 'l.id', 's.line_id')
      .select(['s.id', 's.model', 's.image_id', 'd.label', 's.line_id', 'l.text', 's.region_x', 's.region_y', 's.region_w', 's.region_h', 's.tag'])
      .where('s.id', 'in', ids)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          model: r.model,
          imageId: r.image_id,
          imageLabel: r.label,
          lineId: r.line_id,
          lineText: r.text,
          region: { x: r.region_x, y: r.region_y, w: r.region_w, h: r.region_h },
          tag: r.tag,
        },
      ]),
    );
  }

  /** The snippets of images, in the images' line order. */
  async snippetIdsOfImages(model: string, imageIds: string[], limit: number): Promise<string[]> {
    if (imageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('similarity_snippet as s')
      .innerJoin('simple_text_line as l', 'l.id', 's.line_id')
      .select('s.id')
      .where('s.model', '=', model)
      .where('s.image_id', 'in', imageIds)
      .orderBy('s.image_id')
      .orderBy('l.line_index')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The lines to cut snippets from, per image: those with an outline, of the image's newest
   * transcription that has any.
   */
  async linesToCut(imageIds: string[]): Promise<LineToCut[]> {
    if (imageIds.length === 0) return [];
    const rows = await sql<{ id: string; image_id: string; region_x: number; region_y: number; region_w: number; region_h: number }>`
      with newest as (
        select distinct on (t.image_id) t.id from transcription t
        where t.image_id = any(${imageIds}::uuid[])
          and exists (select 1 from simple_text_line l where l.transcription_id = t.id and l.region_x is not null)
        order by t.image_id, t.created_at desc, t.id desc
      )
      select l.id, l.image_id, l.region_x, l.region_y, l.region_w, l.region_h
      from simple_text_line l join newest on newest.id = l.transcription_id
      where l.region_x is not null
      order by l.image_id, l.line_index`.execute(this.db);
    return rows.rows.map((r) => ({ lineId: r.id, imageId: r.image_id, region: { x: r.region_x, y: r.region_y, w: r.region_w, h: r.region_h } }));
  }

  /** The stored file of each image, by its content hash. */
  async imageFiles(imageIds: string[]): Promise<Map<string, string>> {
    if (imageIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('document_image as d')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'f.sha256'])
      .where('d.id', 'in', imageIds)
      .execute();
    return new Map(rows.map((r) => [r.id, r.sha256]));
  }

  /**
   * Makes the model's snippets of these images exactly the given ones, in one transaction: those
   * of lines not given go, a line cut before keeps its snippet's id (links to it stay good).
   */
  async replaceSnippets(model: string, imageIds: string[], snippets: NewSnippet[], jobId: number | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (imageIds.length > 0) {
        let stale = trx.deleteFrom('similarity_snippet').where('model', '=', model).where('image_id', 'in', imageIds);
        if (snippets.length > 0) stale = stale.where('line_id', 'not in', snippets.map((s) => s.lineId));
        await stale.execute();
      }
      for (let start = 0; start < snippets.length; start += INSERT_CHUNK) {
        await trx
          .insertInto('similarity_snippet')
          .values(
            snippets.slice(start, start + INSERT_CHUNK).map((s) => ({
              id: s.id,
              model,
              image_id: s.imageId,
              line_id: s.lineId,
              region_x: s.region.x,
              region_y: s.region.y,
              region_w: s.region.w,
              region_h: s.region.h,
              tag: s.tag,
              features: s.features,
              job_id: jobId,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['model', 'line_id']).doUpdateSet((eb) => ({
              image_id: eb.ref('excluded.image_id'),
              region_x: eb.ref('excluded.region_x'),
              region_y: eb.ref('excluded.region_y'),
              region_w: eb.ref('excluded.region_w'),
              region_h: eb.ref('excluded.region_h'),
              tag: eb.ref('excluded.tag'),
              features: eb.ref('excluded.features'),
              job_id: eb.ref('excluded.job_id'),
            })),
          )
          .execute();
      }
    });
  }

  /** The tags of a model's snippets on these images. */
  async tagsOf(model: string, imageIds: string[]): Promise<Map<string, string>> {
    if (imageIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('similarity_snippet')
      .select(['id', 'tag'])
      .where('model', '=', model)
      .where('image_id', 'in', imageIds)
      .where('tag', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [r.id, r.tag!]));
  }

  /** Labelled snippets of a model, a page per tag in turn, among the images given (null: all). */
  async labelledSnippetIds(model: string, imageIds: string[] | null, limit: number): Promise<string[]> {
    const rows = await sql<{ id: string }>`
      select id from (
        select s.id, s.tag, row_number() over (partition by s.tag order by s.image_id, s.id) as n
        from similarity_snippet s
        where s.model = ${model} and s.tag is not null
          ${imageIds === null ? sql`` : sql`and s.image_id = any(${imageIds}::uuid[])`}
      ) ranked
      order by n, tag
      limit ${limit}`.execute(this.db);
    return rows.rows.map((r) => r.id);
  }

  // Pickers -----------------------------------------------------------------------------------

  /** Live sets the caller may read that hold, themselves or in sub-sets they may read, images with snippets of the model. */
  async setsWithSnippets(model: string, scope: VisibilityScope, filter: string, skip: number) {
    return this.db
      .selectFrom('document_image_set as s')
      .select(['s.id as uuid', 's.name'])
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'))
      .where(containsText('s.name', filter))
      .where(
        sql<boolean>`exists (
          ${readableSetTree(sql`s.id`, scope)}
          select 1 from tree
          join image_set_image held on held.set_id = tree.id
          join similarity_snippet p on p.image_id = held.image_id and p.model = ${model}
        )`,
      )
      .orderBy(sql`lower(s.name)`)
      .orderBy('s.id')
      .offset(skip)
      .limit(PICKER_PAGE)
      .execute();
  }

  /** Images of a set and its readable sub-sets with snippets of the model, by label. */
  async imagesWithSnippets(model: string, setId: string, scope: VisibilityScope, filter: string, skip: number) {
    const rows = await sql<{ uuid: string; name: string }>`
      ${readableSetTree(sql`${setId}::uuid`, scope)}
      select d.id as uuid, d.label as name from document_image d
      where strpos(lower(d.label), lower(${filter})) > 0
        and exists (select 1 from image_set_image held join tree on tree.id = held.set_id where held.image_id = d.id)
        and exists (select 1 from similarity_snippet p where p.image_id = d.id and p.model = ${model})
      order by lower(d.label), d.id offset ${skip} limit ${PICKER_PAGE}`.execute(this.db);
    return rows.rows;
  }

  /** Metadata fields with values the caller may see on images with snippets of the model. */
  async fieldsWithValues(model: string, scope: VisibilityScope, filter: string, skip: number) {
    const rows = await sql<{ uuid: string; name: string }>`
      select f.id as uuid, f.label as name from pim_field f
      where strpos(lower(f.label), lower(${filter})) > 0 and exists (
        select 1 from metadata_value v join metadata_record r on r.id = v.record_id
        where v.field_id = f.id and ${visibleRecords(scope, 'r')}
          and exists (select 1 from similarity_snippet p where p.image_id = r.image_id and p.model = ${model})
      )
      order by lower(f.label), f.id offset ${skip} limit ${PICKER_PAGE}`.execute(this.db);
    return rows.rows;
  }

  /** The values of a field on images with snippets of the model. */
  async fieldValues(model: string, fieldId: string, scope: VisibilityScope, filter: string, skip: number) {
    const rows = await sql<{ value: string }>`
      select distinct v.value from metadata_value v join metadata_record r on r.id = v.record_id
      where v.field_id = ${fieldId} and strpos(lower(v.value), lower(${filter})) > 0 and ${visibleRecords(scope, 'r')}
        and exists (select 1 from similarity_snippet p where p.image_id = r.image_id and p.model = ${model})
      order by v.value offset ${skip} limit ${PICKER_PAGE}`.execute(this.db);
    return rows.rows.map((r) => ({ uuid: r.value, name: r.value }));
  }

  // Confusion matrices ------------------------------------------------------------------------

  async insertConfusionMatrix(row: {
    id: string;
    model: string;
    setId: string | null;
    jobId: number | null;
    ownerId: string | null;
    labels: string[];
    matrix: number[][];
    accuracy: number;
    snippets: number;
    report: string;
  }): Promise<void> {
    await this.db
      .insertInto('siamese_confusion_matrix')
      .values({
        id: row.id,
        model: row.model,
        set_id: row.setId,
        job_id: row.jobId,
        owner_id: row.ownerId,
        labels: JSON.stringify(row.labels),
        matrix: JSON.stringify(row.matrix),
        accuracy: row.accuracy,
        snippets: row.snippets,
        report: row.report,
      })
      .execute();
  }

  /** The matrices of sets the caller may read (and, for admins, those whose set is gone). */
  async confusionMatrices(scope: VisibilityScope, id?: string): Promise<ConfusionMatrixRecord[]> {
    let query = this.db
      .selectFrom('siamese_confusion_matrix as c')
      .leftJoin('document_image_set as s', 's.id', 'c.set_id')
      .leftJoin('pim_model as m', (join) => join.on(sql<boolean>`m.id::text = c.model`))
      .select([
        'c.id',
        'c.model',
        'm.label as modelLabel',
        'c.set_id',
        's.name as setName',
        'c.labels',
        'c.matrix',
        'c.accuracy',
        'c.snippets',
        'c.report',
        'c.created_at',
      ])
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id');
    if (!scope.all) query = query.where('s.deleted_at', 'is', null).where(visibleSets(scope, 's'));
    if (id) query = query.where('c.id', '=', id);
    const rows = await query.execute();
    return rows.map((r) => ({
      id: r.id,
      model: r.model,
      modelLabel: r.modelLabel,
      setId: r.set_id,
      setName: r.setName,
      labels: r.labels,
      matrix: r.matrix,
      accuracy: r.accuracy,
      snippets: r.snippets,
      report: r.report,
      createdAt: r.created_at,
    }));
  }
}
