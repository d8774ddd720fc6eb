import type { DocumentImageListQuery } from '@pim/contract';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { TopicCache } from '../../platform/db/change-notices.js';
import { lowerCaseContainsText } from '../../platform/db/conditions.js';
import type { DB } from '../../platform/db/schema.js';

/** The column of image_set_image each sort of the image table reads: copies of the image's keys (migration 0020). */
const SORT_COLUMNS: Record<DocumentImageListQuery['sort'], string> = {
  pageorder: 'm.position',
  label: 'm.label',
  created: 'm.created_at',
  updated: 'm.updated_at',
  height: 'm.height',
  width: 'm.width',
  pagenumber: 'm.page_number',
  deskewAngle: 'm.deskew_angle',
  columnCount: 'm.column_count',
  linesCount: 'm.lines_count',
  confidence: 'm.confidence',
};

/**
 * The most label matches, in all sets, read through the trigram index; beyond it the set's own
 * rows are read instead, so a label common elsewhere costs no more than the set's size.
 */
export const LABEL_CANDIDATES = 5000;

/** A label that gives the trigram index something to look up: three letters or digits in a row. */
const TRIGRAM = /[\p{L}\p{N}]{3}/u;

const PLANNER_SWITCHES = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan', 'enable_sort', 'enable_incremental_sort'] as const;
type PlannerSwitch = (typeof PLANNER_SWITCHES)[number];
/** Rows found through an index and read in the table's order (a bitmap scan), not the index's. */
const BY_BITMAP: PlannerSwitch[] = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan'];
/**
 * Rows read from an index that holds every column the statement reads, without the table's. Index
 * scans stay on: PostgreSQL considers index-only scans only where they are.
 */
const INDEX_ONLY: PlannerSwitch[] = ['enable_seqscan', 'enable_bitmapscan'];
/** Rows read in the order of the sort's index, without sorting them. */
const IN_INDEX_ORDER: PlannerSwitch[] = ['enable_seqscan', 'enable_bitmapscan', 'enable_sort', 'enable_incremental_sort'];

/**
 * What reading and sorting a filter's match costs against testing one entry of a walk along the
 * sort's index (index-only, the filter columns in it: migration 0023); measured on PGlite at
 * 100,000 images, a size range's 10,000 matches sorted took twice the walk over 50,000 entries.
 */
const MATCH_READ_COST = 16;

/** How many of a set's images a filter matches, kept while the set's memberships and images stay as they are. */
export type MatchCounts = TopicCache<string, { total: number; candidates?: number }>;

/** The topics whose notices change a filter's count: the set's memberships (0024) and its images' labels and sizes. */
export const MATCH_COUNT_TOPICS = ['members', 'images'] as const;

/**
 * The image ids of one page of a set's image table, in order, and how many images match in all.
 * `trx` is a repeatable-read transaction, so that the count and the page agree; the planner
 * switches set here last until its end.
 *
 * The plan of each statement is chosen here, from exact counts, not left to the planner: PGlite
 * has no autovacuum, so its planner has no statistics and takes a set of 100,000 for a few hundred
 * rows. Every statement names what it reads `m`, as the conditions do. The choices:
 * - the total: without filters the kept count of the set's images; with a label, its matches in
 *   all sets through the trigram index while they are few (not tried when the planner's estimate
 *   says they are many), else the set's matches counted index-only (a size range from its
 *   column's index); a filter's count is kept in `counts` for the next page;
 * - the page: a walk along the sort's index from the nearer end (a page past the middle is read
 *   backwards from the last), skipping in the index and testing the filters there (index-only),
 *   without them when every image of the set matches; or, when the matches are few against the
 *   entries that walk would read, the matches, sorted.
 */
export async function setPage(trx: Kysely<DB>, setId: string, q: DocumentImageListQuery, counts?: MatchCounts): Promise<{ imageIds: string[]; total: number }> {
  const size = await setSize(trx, setId);
  const matching = conditions(setId, q);
  const count = () => countMatches(trx, size, matching);
  // Paging on through a filter's matches asks for the same count again: kept (see MatchCounts).
  const key = JSON.stringify([setId, ...FILTERS.map((f) => q[f] ?? null)]);
  const { total, candidates } = matching.filtered && counts ? (await counts.through(key, count))! : await count();
  const { inSet, label, filtered, setMatches } = total === size ? conditions(setId, { ...q, ...NO_FILTERS }) : matching;
  const start = q.page * q.pageSize;
  if (start >= total) return { imageIds: [], total };
  const end = Math.min(start + q.pageSize, total);
  const backwards = total - end < start;
  const skip = backwards ? total - end : start;
  const direction = q.desc !== backwards ? sql`desc` : sql`asc`;
  const sortColumn = sql.ref(SORT_COLUMNS[q.sort]);
  const page = sql`order by ${sortColumn} ${direction}, m.image_id ${direction} limit ${end - start} offset ${skip}`;
  // The rows a walk along the sort's index reads, when the matches are spread evenly over the set.
  const walked = ((skip + end - start) * size) / total;

  let ids: RawBuilder<{ image_id: string }>;
  if (candidates !== undefined && candidates * 2 < walked) {
    await plan(trx, BY_BITMAP);
    ids = sql`with m as materialized (select * from image_set_image m where ${matching.label}) select m.image_id from m where ${matching.inSet} ${page}`;
  } else if (filtered && total * MATCH_READ_COST < walked) {
    await plan(trx, BY_BITMAP);
    ids = sql`with m as materialized (select m.* from ${setMatches(sql`m.image_id, m.label_lower, ${sortColumn}`)}) select m.image_id from m ${page}`;
  } else {
    // Selecting the id alone lets PostgreSQL skip in the index without reading the rows (index-only).
    await plan(trx, IN_INDEX_ORDER);
    ids = sql`select m.image_id from image_set_image m where ${inSet} and ${label ?? sql`true`} ${page}`;
  }
  const imageIds = (await ids.execute(trx)).rows.map((r) => r.image_id);
  return { imageIds: backwards ? imageIds.reverse() : imageIds, total };
}

/** The image table's filters: a page without them, and a filter's kept count, are made from this list. */
const FILTERS = ['label', 'minWidth', 'maxWidth', 'minHeight', 'maxHeight'] as const satisfies readonly (keyof DocumentImageListQuery)[];
const NO_FILTERS = Object.fromEntries(FILTERS.map((f) => [f, undefined])) as Partial<Pick<DocumentImageListQuery, (typeof FILTERS)[number]>>;

interface Conditions {
  /** The set and the size filters. */
  inSet: Expression<SqlBool>;
  label: Expression<SqlBool> | undefined;
  /** Whether the label gives the trigram index something to look up. */
  labelHasTrigrams: boolean;
  filtered: boolean;
  /**
   * The set's matches, found through the set's own indexes: the fence (offset 0) keeps the label
   * out of that search, so it is never the trigram index's matches in every set.
   */
  setMatches: (columns: RawBuilder<unknown>) => RawBuilder<unknown>;
}

function conditions(setId: string, q: DocumentImageListQuery): Conditions {
  const bounds = [
    ['m.width', '>=', q.minWidth],
    ['m.width', '<=', q.maxWidth],
    ['m.height', '>=', q.minHeight],
    ['m.height', '<=', q.maxHeight],
  ] as const;
  const sizes = bounds.flatMap(([column, op, value]) => (value === undefined ? [] : [sql<SqlBool>`${sql.ref(column)} ${sql.raw(op)} ${value}`]));
  const inSet = sql<SqlBool>`${sql.join([sql`m.set_id = ${setId}::uuid`, ...sizes], sql` and `)}`;
  const label = q.label ? lowerCaseContainsText('m.label_lower', q.label) : undefined;
  return {
    inSet,
    label,
    labelHasTrigrams: TRIGRAM.test(q.label ?? ''),
    filtered: label !== undefined || sizes.length > 0,
    setMatches: (columns) => sql`(select ${columns} from image_set_image m where ${inSet} offset 0) m where ${label ?? sql`true`}`,
  };
}

/**
 * How many of the set's images match; with `candidates`, how many images of all sets the label
 * matches, when they were few enough to read through the trigram index.
 */
async function countMatches(trx: Kysely<DB>, size: number, matching: Conditions): Promise<{ total: number; candidates?: number }> {
  const { inSet, label, labelHasTrigrams, filtered } = matching;
  if (!filtered) return { total: size };
  if (label && labelHasTrigrams && size > LABEL_CANDIDATES && !(await manyMatchesExpected(trx, label))) {
    await plan(trx, BY_BITMAP);
    const found = await one<{ candidates: string; total: string }>(trx, sql`
      with m as materialized (select set_id, width, height from image_set_image m where ${label} limit ${LABEL_CANDIDATES + 1})
      select count(*) as candidates, count(*) filter (where ${inSet}) as total from m`);
    if (Number(found.candidates) <= LABEL_CANDIDATES) return { total: Number(found.total), candidates: Number(found.candidates) };
  }
  // From an index alone: each sort's index holds the filter columns (migration 0023); where the
  // visibility map is not yet set, an index-only scan reads the table's rows too.
  await plan(trx, INDEX_ONLY);
  return { total: Number((await one<{ n: string }>(trx, sql`select count(*) as n from image_set_image m where ${inSet} and ${label ?? sql`true`}`)).n) };
}

/**
 * Whether the planner expects the label to match far more images, in all sets, than the trigram
 * look-up reads: a bitmap of the trigram index is built whole before its LIMIT applies, so for a
 * label common to most images (every "Scan ...") the look-up costs as much as counting the set.
 * The estimate is good once the table has been analysed (autovacuum; PgliteUpkeep on PGlite);
 * before that the planner's default guess is small, and the look-up is tried as before.
 */
async function manyMatchesExpected(trx: Kysely<DB>, label: Expression<SqlBool>): Promise<boolean> {
  const { rows } = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json) select 1 from image_set_image m where ${label}`.execute(trx);
  return (rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0) > 2 * LABEL_CANDIDATES;
}

/** The images the set holds, as the triggers of the statistics count them (migration 0019): a row per day at most. */
async function setSize(trx: Kysely<DB>, setId: string): Promise<number> {
  const row = await trx
    .selectFrom('statistic_count')
    .select((eb) => eb.fn.sum<string | null>('n').as('n'))
    .where('kind', '=', 'image')
    .where('scope', '=', setId)
    .where('variant', '=', '')
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

/** Switches the given plans off, and every other one on, for the rest of the transaction. */
async function plan(trx: Kysely<DB>, off: PlannerSwitch[]): Promise<void> {
  await sql`select ${sql.join(PLANNER_SWITCHES.map((s) => sql`set_config(${s}, ${off.includes(s) ? 'off' : 'on'}, true)`))}`.execute(trx);
}

async function one<Row>(trx: Kysely<DB>, query: RawBuilder<unknown>): Promise<Row> {
  return (await query.execute(trx)).rows[0] as Row;
}
