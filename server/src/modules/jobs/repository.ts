import type { JobType } from '@pim/contract';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { JobRef } from '../../jobs/queue.js';
import type { DB, JobRowState, JobWorkerRecord } from '../../platform/db/schema.js';

/** A job with the names the list shows: its set, owner, search index and wrapper. */
export interface JobRecord {
  id: number;
  uuid: string;
  type: JobType;
  state: JobRowState;
  priority: number;
  settings: Record<string, unknown>;
  set: { id: string; name: string } | null;
  owner: { id: string; name: string } | null;
  apiKeyId: string | null;
  wrapperUuid: string | null;
  searchIndexName: string | null;
  progress: { done: number; total: number | null; message: string | null };
  error: string | null;
  result: Record<string, unknown>;
  outputFileId: string | null;
  attempts: number;
  /** Only a remote worker may take it. */
  remoteOnly: boolean;
  worker: JobWorkerRecord | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Whose jobs a caller sees: everyone's (admins), or those a user or an API key made. */
export type JobScope = { all: true } | { ownerId: string } | { apiKeyId: string };

/** The two kinds of job records of their own screens (spec part 2 §3). */
export type SubJobKind = 'p2pala' | 'siamese';
const SUB_JOB_TABLE = { p2pala: 'p2pala_job', siamese: 'siamese_job' } as const;

/** A P2PaLA or Siamese job's record with its wrapper job. */
export interface SubJobRecord {
  id: string;
  config: Record<string, unknown>;
  networkSpec: string | null;
  createdAt: Date;
  updatedAt: Date;
  wrapper: JobRecord;
}

export interface JobFile {
  sha256: string;
  sizeBytes: number;
  mediaType: string;
  originalName: string;
}

function selectJobs(db: Kysely<DB>) {
  return db
    .selectFrom('job as j')
    .leftJoin('document_image_set as s', 's.id', 'j.set_id')
    .leftJoin('pim_user as u', 'u.id', 'j.owner_id')
    .leftJoin('job as w', 'w.id', 'j.wrapper_id')
    .leftJoin('search_index as si', (join) => join.on(sql<SqlBool>`si.id::text = j.settings->>'elasticSearchIndex'`))
    .select([
      'j.id',
      'j.uuid',
      'j.type',
      'j.state',
      'j.priority',
      'j.settings',
      'j.set_id',
      's.name as set_name',
      'j.owner_id',
      'u.name as owner_name',
      'j.api_key_id',
      'w.uuid as wrapper_uuid',
      'si.name as search_index_name',
      'j.progress_done',
      'j.progress_total',
      'j.progress_message',
      'j.error',
      'j.result',
      'j.output_file_id',
      'j.attempts',
      'j.worker',
      'j.started_at',
      'j.finished_at',
      'j.remote_only',
      'j.created_at',
      'j.updated_at',
    ]);
}

type SelectedJob = Awaited<ReturnType<ReturnType<typeof selectJobs>['executeTakeFirstOrThrow']>>;

function toRecord(r: SelectedJob): JobRecord {
  return {
    id: r.id,
    uuid: r.uuid,
    type: r.type as JobType,
    state: r.state,
    priority: r.priority,
    settings: r.settings,
    set: r.set_id ? { id: r.set_id, name: r.set_name ?? '' } : null,
    owner: r.owner_id ? { id: r.owner_id, name: r.owner_name ?? '' } : null,
    apiKeyId: r.api_key_id,
    wrapperUuid: r.wrapper_uuid,
    searchIndexName: r.search_index_name,
    progress: { done: r.progress_done, total: r.progress_total, message: r.progress_message },
    error: r.error,
    result: r.result,
    outputFileId: r.output_file_id,
    attempts: r.attempts,
    remoteOnly: r.remote_only,
    worker: r.worker,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function inScope(scope: JobScope): Expression<SqlBool> {
  if ('all' in scope) return sql<SqlBool>`true`;
  if ('ownerId' in scope) return sql<SqlBool>`j.owner_id = ${scope.ownerId}`;
  return sql<SqlBool>`j.api_key_id = ${scope.apiKeyId}`;
}

/** What the job screens read: the list, one job, places in the queue, outputs, P2PaLA and Siamese records. */
export class JobRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** A page of the jobs in scope, newest first. */
  async page(scope: JobScope, offset: number, limit: number): Promise<JobRecord[]> {
    const rows = await selectJobs(this.db).where(inScope(scope)).orderBy('j.id', 'desc').offset(offset).limit(limit).execute();
    return rows.map(toRecord);
  }

  async count(scope: JobScope): Promise<number> {
    const row = await this.db.selectFrom('job as j').select((eb) => eb.fn.countAll<string>().as('n')).where(inScope(scope)).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(ref: JobRef): Promise<JobRecord | undefined> {
    const row = await selectJobs(this.db)
      .where(ref.kind === 'id' ? sql<SqlBool>`j.id = ${ref.id}` : sql<SqlBool>`j.uuid = ${ref.uuid}`)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** A job of this type on this set, made by this user or key, that has not started yet. */
  async findQueued(type: JobType, setId: string, maker: JobScope): Promise<JobRecord | undefined> {
    const row = await selectJobs(this.db)
      .where(inScope(maker))
      .where('j.type', '=', type)
      .where('j.set_id', '=', setId)
      .where('j.state', '=', 'queued')
      .orderBy('j.id')
      .limit(1)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The labels of the models with these ids (those deleted since are missing). */
  async modelLabels(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('pim_model').select(['id', 'label']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.label]));
  }

  /**
   * The place (1: next) of each queued job among all queued jobs, by priority then age: one pass
   * over the queue's index up to the last of them, however many jobs wait behind it.
   */
  async placesInQueue(jobs: { id: number; priority: number }[]): Promise<Map<number, number>> {
    if (jobs.length === 0) return new Map();
    const last = jobs.reduce((a, b) => (b.priority > a.priority || (b.priority === a.priority && b.id > a.id) ? b : a));
    const result = await sql<{ id: number; place: string }>`
      SELECT id, place FROM (
        SELECT id, row_number() OVER (ORDER BY priority, id) AS place
        FROM job
        WHERE state = 'queued' AND (priority, id) <= (${last.priority}, ${last.id})
      ) ranked
      WHERE id = ANY(${jobs.map((j) => j.id)}::int[])`.execute(this.db);
    return new Map(result.rows.map((r) => [r.id, Number(r.place)]));
  }

  async file(fileId: string): Promise<JobFile | undefined> {
    const row = await this.db
      .selectFrom('stored_file')
      .select(['sha256', 'size_bytes', 'media_type', 'original_name'])
      .where('id', '=', fileId)
      .executeTakeFirst();
    return row && { sha256: row.sha256, sizeBytes: Number(row.size_bytes), mediaType: row.media_type, originalName: row.original_name };
  }

  async insertSubJob(
    trx: Kysely<DB>,
    kind: SubJobKind,
    record: { id: string; wrapperId: number; config: Record<string, unknown>; networkSpec: string | null },
  ): Promise<void> {
    await trx
      .insertInto(SUB_JOB_TABLE[kind])
      .values({ id: record.id, wrapper_id: record.wrapperId, config: JSON.stringify(record.config), network_spec: record.networkSpec })
      .execute();
  }

  /** The records of a kind whose wrapper job is in scope, newest first. */
  async subJobs(kind: SubJobKind, scope: JobScope): Promise<SubJobRecord[]> {
    const subs = await this.db
      .selectFrom(`${SUB_JOB_TABLE[kind]} as sub`)
      .innerJoin('job as j', 'j.id', 'sub.wrapper_id')
      .select(['sub.id', 'sub.wrapper_id', 'sub.config', 'sub.network_spec', 'sub.created_at', 'sub.updated_at'])
      .where(inScope(scope))
      .orderBy('sub.wrapper_id', 'desc')
      .execute();
    if (subs.length === 0) return [];
    const wrappers = await selectJobs(this.db)
      .where(
        'j.id',
        'in',
        subs.map((s) => s.wrapper_id),
      )
      .execute();
    const byId = new Map(wrappers.map((w) => [w.id, toRecord(w)]));
    return subs.map((s) => ({
      id: s.id,
      config: s.config,
      networkSpec: s.network_spec,
      createdAt: s.created_at,
      updatedAt: s.updated_at,
      wrapper: byId.get(s.wrapper_id)!,
    }));
  }

  /** The wrapper job of a record of the kind. */
  async wrapperOf(kind: SubJobKind, id: string): Promise<JobRecord | undefined> {
    const sub = await this.db.selectFrom(SUB_JOB_TABLE[kind]).select('wrapper_id').where('id', '=', id).executeTakeFirst();
    return sub && this.find({ kind: 'id', id: sub.wrapper_id });
  }
}
