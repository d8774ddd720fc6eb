import { randomUUID } from 'node:crypto';
import { characterErrorRate } from '@pim/contract';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { readableSetIds, readableSetTree } from '../imagesets/access-repository.js';
import { type CorrectedLine, matchCorrections } from './ground-truth-carry.js';
import { type LayoutTextLine, linesFromLayout } from './lines-from-layout.js';

export interface TextLineRecord {
  id: string;
  transcriptionId: string;
  imageId: string;
  imageLabel: string;
  lineIndex: number;
  text: string;
  groundTruth: string | null;
  confidence: number | null;
  lowestConf: number | null;
  region: { x: number; y: number; w: number; h: number } | null;
  cer: number | null;
  updatedAt: Date;
}

/** Whose lines a list or pick may return: decided by the service, turned into SQL here. */
export type LineFilter =
  | { kind: 'readable'; scope: VisibilityScope }
  | { kind: 'image'; imageId: string }
  | { kind: 'set'; setId: string; scope: VisibilityScope };

export interface TranscriptionGroundTruth {
  transcriptionId: string;
  linesTotal: number;
  lines: { lineIndex: number; text: string; groundTruth: string }[];
}

/** What `insertLinesOf` needs of a transcription: its layout and what its numbers mean. */
export interface TranscriptionLayout {
  id: string;
  imageId: string;
  format: string;
  layout: unknown;
}

/** Rows per INSERT: 12 values each stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1000;

/**
 * Makes the text lines of a transcription, inside the caller's transaction: the upload writes
 * them with the transcription, the start-up backfill with the removal of its pending row. Answers
 * the lines made.
 */
export async function insertLinesOf(trx: Kysely<DB>, t: TranscriptionLayout): Promise<LayoutTextLine[]> {
  const image = await trx.selectFrom('document_image').select(['width', 'height']).where('id', '=', t.imageId).executeTakeFirstOrThrow();
  const lines = linesFromLayout(t.layout, t.format, image);
  for (let start = 0; start < lines.length; start += INSERT_CHUNK) {
    await trx
      .insertInto('simple_text_line')
      .values(
        lines.slice(start, start + INSERT_CHUNK).map((l) => ({
          id: randomUUID(),
          transcription_id: t.id,
          image_id: t.imageId,
          line_index: l.lineIndex,
          text: l.text,
          confidence: l.confidence,
          lowest_conf: l.lowestConf,
          region_x: l.region?.x ?? null,
          region_y: l.region?.y ?? null,
          region_w: l.region?.w ?? null,
          region_h: l.region?.h ?? null,
        })),
      )
      .execute();
    // The embedded database answers synchronously, so the awaits above never let the event loop
    // run: give it a turn between chunks, or a page of 100,000 lines holds every request for seconds.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return lines;
}

/** The lines of a transcription that someone gave ground truth, before it is replaced. */
export async function correctedLinesOf(trx: Kysely<DB>, transcriptionId: string): Promise<CorrectedLine[]> {
  const rows = await trx
    .selectFrom('simple_text_line')
    .select(['region_x', 'region_y', 'region_w', 'region_h', 'ground_truth', 'corrected_by', 'corrected_at'])
    .where('transcription_id', '=', transcriptionId)
    .where('ground_truth', 'is not', null)
    .orderBy('line_index')
    .execute();
  return rows.map((r) => ({
    region: r.region_x === null ? null : { x: r.region_x, y: r.region_y!, w: r.region_w!, h: r.region_h! },
    groundTruth: r.ground_truth!,
    correctedBy: r.corrected_by,
    correctedAt: r.corrected_at,
  }));
}

/**
 * Gives the new lines of a replaced transcription the ground truth of the corrected old lines in
 * the same place (`matchCorrections`), with its CER against the new text; answers how many
 * corrections were kept and how many had no line to go to.
 */
export async function carryGroundTruth(
  trx: Kysely<DB>,
  transcriptionId: string,
  corrected: CorrectedLine[],
  lines: LayoutTextLine[],
): Promise<{ groundTruthKept: number; groundTruthDropped: number }> {
  const matches = matchCorrections(corrected, lines);
  for (const [lineIndex, c] of matches) {
    await trx
      .updateTable('simple_text_line')
      .set({
        ground_truth: c.groundTruth,
        cer: characterErrorRate(c.groundTruth, lines[lineIndex]!.text),
        corrected_by: c.correctedBy,
        corrected_at: c.correctedAt,
      })
      .where('transcription_id', '=', transcriptionId)
      .where('line_index', '=', lineIndex)
      .execute();
  }
  return { groundTruthKept: matches.size, groundTruthDropped: corrected.length - matches.size };
}

/**
 * Gives text lines of a transcription new indices inside the caller's transaction (its layout was
 * put in another order): each row keeps its text, ground truth and corrections, only its place
 * changes. The moved rows first step aside above every index in use, as (transcription_id,
 * line_index) is unique at every row, then take their new indices, which are the old ones of the
 * same rows in another order. A move naming no row (its lines not made yet) changes nothing.
 */
export async function renumberLinesOf(trx: Kysely<DB>, transcriptionId: string, moves: { from: number; to: number }[]): Promise<void> {
  if (moves.length === 0) return;
  const top = await trx
    .selectFrom('simple_text_line')
    .select(sql<number>`coalesce(max(line_index), -1)`.as('top'))
    .where('transcription_id', '=', transcriptionId)
    .executeTakeFirstOrThrow();
  const aside = moves.reduce((most, m) => Math.max(most, m.from, m.to), Number(top.top)) + 1;
  for (let start = 0; start < moves.length; start += INSERT_CHUNK) {
    const chunk = moves.slice(start, start + INSERT_CHUNK);
    await trx
      .updateTable('simple_text_line')
      .set({ line_index: sql<number>`line_index + ${aside}` })
      .where('transcription_id', '=', transcriptionId)
      .where('line_index', 'in', chunk.map((m) => m.from))
      .execute();
  }
  for (let start = 0; start < moves.length; start += INSERT_CHUNK) {
    const chunk = moves.slice(start, start + INSERT_CHUNK);
    await sql`
      update simple_text_line l set line_index = m.to_index
      from unnest(${chunk.map((m) => m.from + aside)}::int4[], ${chunk.map((m) => m.to)}::int4[]) as m(from_index, to_index)
      where l.transcription_id = ${transcriptionId} and l.line_index = m.from_index`.execute(trx);
    // As insertLinesOf: the embedded database holds the event loop while it works.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export class TextLineRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private selectLines() {
    return this.db
      .selectFrom('simple_text_line as l')
      .innerJoin('document_image as d', 'd.id', 'l.image_id')
      .select([
        'l.id',
        'l.transcription_id',
        'l.image_id',
        'd.label',
        'l.line_index',
        'l.text',
        'l.ground_truth',
        'l.confidence',
        'l.lowest_conf',
        'l.region_x',
        'l.region_y',
        'l.region_w',
        'l.region_h',
        'l.cer',
        'l.updated_at',
      ]);
  }

  async findById(id: string): Promise<TextLineRecord | undefined> {
    const row = await this.selectLines().where('l.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** 'set' (live), 'image', or undefined: what a parentuuid names. */
  async kindOf(id: string): Promise<'set' | 'image' | undefined> {
    const set = await this.db.selectFrom('document_image_set').select('id').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    if (set) return 'set';
    const image = await this.db.selectFrom('document_image').select('id').where('id', '=', id).executeTakeFirst();
    return image ? 'image' : undefined;
  }

  /**
   * Up to `limit` uncorrected lines the filter allows and `userId` has not skipped: those from
   * `key` (0..1) on along the random-key index, continued from its start when the end comes
   * first. Each line's key was drawn at random when it was made, so the walk starts at a random
   * place; it stops after `limit` matches, so no query sorts or counts all the lines.
   */
  async uncorrectedFrom(lines: LineFilter, userId: string | null, key: number, limit: number): Promise<TextLineRecord[]> {
    const filter = await this.resolve(lines);
    const walk = (from: number, below: number | null, n: number) =>
      this.selectLines()
        .where('l.ground_truth', 'is', null)
        .where('l.random_key', '>=', from)
        .$if(below !== null, (q) => q.where('l.random_key', '<', below!))
        .where(lineFilter(filter))
        .$if(userId !== null, (q) =>
          q.where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('text_line_skip as k').select('k.line_id').whereRef('k.line_id', '=', 'l.id').where('k.user_id', '=', userId!))),
          ),
        )
        .orderBy('l.random_key')
        .limit(n)
        .execute();
    const after = await walk(key, null, limit);
    const before = after.length < limit && key > 0 ? await walk(0, key, limit - after.length) : [];
    return [...after, ...before].map(toRecord);
  }

  /** Corrected lines whose ground truth is not the text, worst CER first, one page of them. */
  async different(lines: LineFilter, page: number, pageSize: number): Promise<{ rows: TextLineRecord[]; total: number }> {
    const filter = await this.resolve(lines);
    const differs = sql<SqlBool>`l.ground_truth is not null and l.ground_truth <> l.text`;
    const rows = await this.selectLines()
      .where(differs)
      .where(lineFilter(filter))
      .orderBy('l.cer', 'desc')
      .orderBy('l.id')
      .offset(page * pageSize)
      .limit(pageSize)
      .execute();
    const count = await this.db
      .selectFrom('simple_text_line as l')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(differs)
      .where(lineFilter(filter))
      .executeTakeFirstOrThrow();
    return { rows: rows.map(toRecord), total: Number(count.n) };
  }

  /**
   * Readable: the live sets the scope may read, and the images its user owns (the rule of
   * ImageSetAccess.requireImage). A set: it and its live sub-sets the scope may read, at any depth
   * (UNION stops on a loop). Looked up first because the planner cannot estimate a visibility
   * rule: it would walk the random-key index for a caller who sees a few lines in a million.
   */
  private async resolve(filter: LineFilter): Promise<ResolvedFilter> {
    if (filter.kind === 'image') return { imageId: filter.imageId };
    if (filter.kind === 'readable') {
      const { scope } = filter;
      if (scope.all) return { all: true };
      return { setIds: await readableSetIds(this.db, scope), ownerId: scope.ownerId };
    }
    const { rows } = await sql<{ id: string }>`${readableSetTree(sql`${filter.setId}::uuid`, filter.scope)} select id from tree`.execute(this.db);
    return { setIds: rows.map((r) => r.id), ownerId: null };
  }

  /** Stores the ground truth and its CER; undefined when the line is gone. */
  async saveGroundTruth(id: string, groundTruth: string, cer: number, userId: string | null): Promise<TextLineRecord | undefined> {
    const saved = await this.db
      .updateTable('simple_text_line')
      .set({ ground_truth: groundTruth, cer, corrected_by: userId, corrected_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(saved.numUpdatedRows) > 0 ? this.findById(id) : undefined;
  }

  /** Hides the line from the user's random picks; skipping again only moves the time. */
  async skip(lineId: string, userId: string): Promise<void> {
    await this.db
      .insertInto('text_line_skip')
      .values({ line_id: lineId, user_id: userId })
      .onConflict((oc) => oc.columns(['user_id', 'line_id']).doUpdateSet({ skipped_at: sql<Date>`now()` }))
      .execute();
  }

  /** Each transcription of the image, oldest first, with its number of lines and its corrected ones. */
  async groundTruthOfImage(imageId: string): Promise<TranscriptionGroundTruth[]> {
    const transcriptions = await this.db
      .selectFrom('transcription as t')
      .select(['t.id', (eb) => eb.selectFrom('simple_text_line as l').select((c) => c.fn.countAll<string>().as('n')).whereRef('l.transcription_id', '=', 't.id').as('total')])
      .where('t.image_id', '=', imageId)
      .orderBy('t.created_at')
      .orderBy('t.id', 'desc')
      .execute();
    const corrected = await this.db
      .selectFrom('simple_text_line')
      .select(['transcription_id', 'line_index', 'text', 'ground_truth'])
      .where('image_id', '=', imageId)
      .where('ground_truth', 'is not', null)
      .orderBy('transcription_id')
      .orderBy('line_index')
      .execute();
    return transcriptions.map((t) => ({
      transcriptionId: t.id,
      linesTotal: Number(t.total ?? 0),
      lines: corrected
        .filter((l) => l.transcription_id === t.id)
        .map((l) => ({ lineIndex: l.line_index, text: l.text, groundTruth: l.ground_truth! })),
    }));
  }

  /**
   * Makes the lines of up to `limit` transcriptions still waiting for them, each with the removal
   * of its pending row in one transaction; SKIP LOCKED lets two servers starting at once share
   * the work. Returns how many were done: 0 when none wait.
   */
  async backfillBatch(limit: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const pending = await trx
        .selectFrom('text_line_backfill as b')
        .innerJoin('transcription as t', 't.id', 'b.transcription_id')
        .select(['t.id', 't.image_id', 't.format', 't.layout'])
        .orderBy('b.transcription_id')
        .limit(limit)
        .forUpdate('b')
        .skipLocked()
        .execute();
      for (const t of pending) {
        await insertLinesOf(trx, { id: t.id, imageId: t.image_id, format: t.format, layout: t.layout });
      }
      if (pending.length > 0) {
        await trx.deleteFrom('text_line_backfill').where('transcription_id', 'in', pending.map((t) => t.id)).execute();
      }
      return pending.length;
    });
  }
}

/** A LineFilter with its sets looked up: ids the planner can estimate, unlike a visibility rule. */
type ResolvedFilter = { all: true } | { imageId: string } | { setIds: string[]; ownerId: string | null };

/** The resolved filter as SQL on `l` (simple_text_line). */
function lineFilter(filter: ResolvedFilter): Expression<SqlBool> {
  if ('all' in filter) return sql<SqlBool>`true`;
  if ('imageId' in filter) return sql<SqlBool>`l.image_id = ${filter.imageId}`;
  const owned = filter.ownerId ? sql`union all select d.id from document_image d where d.owner_id = ${filter.ownerId}` : sql``;
  return sql<SqlBool>`l.image_id in (select m.image_id from image_set_image m where m.set_id = any(${filter.setIds}::uuid[]) ${owned})`;
}

type LineRow = {
  id: string;
  transcription_id: string;
  image_id: string;
  label: string;
  line_index: number;
  text: string;
  ground_truth: string | null;
  confidence: number | null;
  lowest_conf: number | null;
  region_x: number | null;
  region_y: number | null;
  region_w: number | null;
  region_h: number | null;
  cer: number | null;
  updated_at: Date;
};

function toRecord(r: LineRow): TextLineRecord {
  return {
    id: r.id,
    transcriptionId: r.transcription_id,
    imageId: r.image_id,
    imageLabel: r.label,
    lineIndex: r.line_index,
    text: r.text,
    groundTruth: r.ground_truth,
    confidence: r.confidence,
    lowestConf: r.lowest_conf,
    region:
      r.region_x === null || r.region_y === null || r.region_w === null || r.region_h === null
        ? null
        : { x: r.region_x, y: r.region_y, w: r.region_w, h: r.region_h },
    cer: r.cer,
    updatedAt: r.updated_at,
  };
}
