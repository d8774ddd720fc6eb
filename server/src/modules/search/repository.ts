import { type Kysely, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleSets } from '../imagesets/access-repository.js';
import { normalizeTerm } from './analysis.js';
import { FIELD_CODES } from './engine/fields.js';
import type { SearchScope } from './query.js';
import type { SearchHitLine, SearchTextField } from '@pim/contract';

type Index = { id: string; name: string };

/**
 * What the search calls read besides the engine: indices, who may read which sets, matched lines.
 * `search` holds the search tables (PGlite's search database, or `db`): no query joins the two.
 */
export class SearchRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly search: Kysely<DB> = db,
  ) {}

  indices(names: string[] | null): Promise<Index[]> {
    let q = this.db.selectFrom('search_index').select(['id', 'name']).orderBy('name');
    if (names) q = q.where('name', 'in', names.length ? names : ['']);
    return q.execute();
  }

  /** The indices served by a published environment (the public search front-ends). */
  async publishedIndices(): Promise<Index[]> {
    const rows = await sql<Index>`
      select distinct i.id, i.name from pim_environment e join search_index i on i.id = e.search_index_id
      where coalesce((e.switches->>'publish')::boolean, false) order by i.name`.execute(this.db);
    return rows.rows;
  }

  /** The live sets of these indices the caller may read. */
  async readableSets(indexIds: string[], scope: VisibilityScope): Promise<string[]> {
    const rows = await this.db
      .selectFrom('document_image_set as s')
      .select('s.id')
      .where('s.search_index_id', 'in', indexIds.length ? indexIds : ['00000000-0000-0000-0000-000000000000'])
      .where('s.deleted_at', 'is', null)
      .where(visibleSets(scope, 's'))
      .execute();
    return rows.map((r) => r.id);
  }

  /** The live sets of these indices that are public and published: what anonymous visitors may find. */
  async publishedSets(indexIds: string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('document_image_set')
      .select('id')
      .where('search_index_id', 'in', indexIds.length ? indexIds : ['00000000-0000-0000-0000-000000000000'])
      .where('deleted_at', 'is', null)
      .where('public_document_image_set', '=', true)
      .where('publish', '=', true)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Terms of a field starting with `prefix` that readable documents contain, the most frequent first. */
  async termsStartingWith(scope: SearchScope, field: SearchTextField, prefix: string, size: number): Promise<string[]> {
    const normalised = normalizeTerm(prefix).replace(/[\\%_]/g, (c) => `\\${c}`);
    const indexIds = scope.indices.map((i) => i.id);
    const readable =
      scope.setIds === null
        ? sql`true`
        : sql`exists (select 1 from search_posting p join search_document d on d.id = p.doc_id
            where p.term_id = t.id and p.field = ${FIELD_CODES[field]} and d.index_id = any(${indexIds}::uuid[]) and d.set_ids && ${scope.setIds}::uuid[])`;
    const rows = await sql<{ term: string }>`
      select t.display as term from search_term t
      join search_term_stat s on s.term_id = t.id and s.field = ${FIELD_CODES[field]} and s.index_id = any(${indexIds}::uuid[])
      where t.term like ${`${normalised}%`} and ${readable}
      group by t.id, t.term, t.display order by sum(s.df) desc, t.term limit ${size}`.execute(this.search);
    return rows.rows.map((r) => r.term);
  }

  /** Whether the set is in an index, or has documents left in an index it has left. */
  async setIsIndexed(setId: string): Promise<boolean> {
    const inIndex = await sql<{ yes: boolean }>`
      select exists (select 1 from document_image_set where id = ${setId} and search_index_id is not null) as yes`.execute(this.db);
    if (inIndex.rows[0]?.yes) return true;
    const left = await sql<{ yes: boolean }>`select exists (select 1 from search_document where set_ids @> array[${setId}]::uuid[]) as yes`.execute(this.search);
    return left.rows[0]?.yes ?? false;
  }

  /** The live sets in an index that hold any of these images. */
  async indexedSetsHolding(imageIds: string[]): Promise<string[]> {
    const rows = await sql<{ set_id: string }>`
      select distinct m.set_id from image_set_image m join document_image_set s on s.id = m.set_id
      where m.image_id = any(${imageIds}::uuid[]) and s.deleted_at is null and s.search_index_id is not null`.execute(this.db);
    return rows.rows.map((r) => r.set_id);
  }

  /** The text lines of these images, newest transcription first, with their boxes. */
  async lines(imageIds: string[]): Promise<(SearchHitLine & { imageId: string })[]> {
    if (imageIds.length === 0) return [];
    const rows = await sql<{
      id: string;
      image_id: string;
      text: string;
      region_x: number | null;
      region_y: number | null;
      region_w: number | null;
      region_h: number | null;
    }>`
      select l.id, l.image_id, coalesce(l.ground_truth, l.text) as text, l.region_x, l.region_y, l.region_w, l.region_h
      from simple_text_line l join transcription t on t.id = l.transcription_id
      where l.image_id = any(${imageIds}::uuid[])
      order by l.image_id, t.created_at desc, t.id, l.line_index`.execute(this.db);
    return rows.rows.map((r) => ({
      id: r.id,
      imageId: r.image_id,
      text: r.text,
      box: r.region_x === null ? null : { x: r.region_x, y: r.region_y!, w: r.region_w!, h: r.region_h! },
    }));
  }
}
