import type { JobType } from '@pim/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, JobTable, JobWorkerRecord } from '../platform/db/schema.js';

export type JobRow = Selectable<JobTable>;

/** A job as the queue stores it when it is made. */
export interface NewJob {
  uuid: string;
  type: JobType;
  priority: number;
  settings: Record<string, unknown>;
  setId: string | null;
  ownerId: string | null;
  apiKeyId: string | null;
  wrapperId: number | null;
  maxAttempts: number;
  /** Only a remote worker may take it (a Siamese network to train, or one that cannot run here). */
  remoteOnly?: boolean;
}

/** What a run reports as its progress: `done` of `total` steps, and what it does now. */
export interface JobProgressReport {
  done: number;
  total: number | null;
  message?: string | null;
}

/** The worker that claims, as job.worker records it (its timings are added by the queue). */
export type ClaimingWorker = Omit<JobWorkerRecord, 'timings'>;

/** How a run ended, as its worker reports it. */
export interface JobOutcome {
  state: 'done' | 'failed';
  error: string | null;
  result: Record<string, unknown>;
  progress: JobProgressReport | null;
}

/** The channel on which the queue tells workers of new and withdrawn jobs. */
export const JOB_CHANNEL = 'pim_job';

/**
 * The SQL of the queue: claims, leases and state changes. Every write that ends or takes back a
 * run names the lease token it was given, so only the run that holds the job may change it.
 */
/** A job a run has just ended. */
export interface FinishedJob {
  type: string;
  setId: string | null;
  ownerId: string | null;
  apiKeyId: string | null;
}

export class JobQueueRepository {
  constructor(readonly db: Kysely<DB>) {}

  transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(trx: Kysely<DB>, jobs: NewJob[]): Promise<JobRow[]> {
    if (jobs.length === 0) return [];
    return trx
      .insertInto('job')
      .values(
        jobs.map((j) => ({
          uuid: j.uuid,
          type: j.type,
          priority: j.priority,
          settings: JSON.stringify(j.settings),
          set_id: j.setId,
          owner_id: j.ownerId,
          api_key_id: j.apiKeyId,
          wrapper_id: j.wrapperId,
          max_attempts: j.maxAttempts,
          remote_only: j.remoteOnly ?? false,
        })),
      )
      .returningAll()
      .execute();
  }

  /**
   * Takes the first queued job of the types, by priority (lower first) then age, for a worker:
   * the head of each type is read from its own index and locked with SKIP LOCKED, so concurrent
   * claimers never take the same job and never wait for each other. The built-in worker passes
   * over jobs only a remote worker may take.
   */
  async claim(types: readonly string[], worker: ClaimingWorker, leaseToken: string, leaseMs: number, builtIn = false): Promise<JobRow | undefined> {
    const result = await sql<JobRow>`
      UPDATE job SET
        state = 'running',
        lease_token = ${leaseToken},
        lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = attempts + 1,
        started_at = now(),
        finished_at = NULL,
        error = NULL,
        worker = ${JSON.stringify(worker)}::jsonb
          || jsonb_build_object('timings', jsonb_build_object('queued', queued_at, 'started', now())),
        updated_at = now()
      WHERE state = 'queued' AND id = (
        SELECT head.id
        FROM unnest(${[...types]}::text[]) AS wanted(type)
        CROSS JOIN LATERAL (
          SELECT q.id, q.priority FROM job q
          WHERE q.state = 'queued' AND q.type = wanted.type AND NOT (q.remote_only AND ${builtIn})
          ORDER BY q.priority, q.id
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        ) head
        ORDER BY head.priority, head.id
        LIMIT 1
      )
      RETURNING *`.execute(this.db);
    return result.rows[0];
  }

  /** Renews the lease (and records progress) of the run holding `token`; undefined: not its job. */
  async heartbeat(uuid: string, token: string, leaseMs: number, progress: JobProgressReport | null): Promise<Date | undefined> {
    const row = await this.db
      .updateTable('job')
      .set({
        lease_expires_at: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
        updated_at: sql`now()`,
        ...(progress && progressColumns(progress)),
      })
      .where('uuid', '=', uuid)
      .where('lease_token', '=', token)
      .where('state', '=', 'running')
      .returning('lease_expires_at')
      .executeTakeFirst();
    return row?.lease_expires_at ?? undefined;
  }

  /** Ends the run holding `token` as done or failed; false: not its job. */
  /** Ends the run's job; what it was, or undefined when the run no longer holds it. */
  async finish(uuid: string, token: string, outcome: JobOutcome): Promise<FinishedJob | undefined> {
    const result = await this.db
      .updateTable('job')
      .set({
        state: outcome.state,
        error: outcome.error,
        result: JSON.stringify(outcome.result),
        lease_token: null,
        lease_expires_at: null,
        finished_at: sql`now()`,
        worker: sql`jsonb_set(worker, '{timings,finished}', to_jsonb(now()))`,
        updated_at: sql`now()`,
        ...(outcome.progress && progressColumns(outcome.progress)),
      })
      .where('uuid', '=', uuid)
      .where('lease_token', '=', token)
      .where('state', '=', 'running')
      .returning(['type', 'set_id', 'owner_id', 'api_key_id'])
      .executeTakeFirst();
    return result && { type: result.type, setId: result.set_id, ownerId: result.owner_id, apiKeyId: result.api_key_id };
  }

  /** Puts the run's job back in the queue without counting the run (its worker is stopping); false: not its job. */
  async release(uuid: string, token: string, message: string): Promise<JobRow | undefined> {
    return this.db
      .updateTable('job')
      .set({
        ...requeued(message),
        attempts: sql`greatest(attempts - 1, 0)`,
      })
      .where('uuid', '=', uuid)
      .where('lease_token', '=', token)
      .where('state', '=', 'running')
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Takes back every running job whose lease has expired: queued again, or failed once it has
   * been started max_attempts times. Safe to run in several processes at once.
   */
  async reapExpired(requeueMessage: string, failure: (attempts: number) => string): Promise<JobRow[]> {
    const expired = await this.db
      .selectFrom('job')
      .select(['id', 'attempts', 'max_attempts'])
      .where('state', '=', 'running')
      .where('lease_expires_at', '<=', sql<Date>`now()`)
      .execute();
    const reaped: JobRow[] = [];
    for (const job of expired) {
      const failed = job.attempts >= job.max_attempts;
      const row = await this.db
        .updateTable('job')
        .set(
          failed
            ? {
                state: 'failed',
                error: failure(job.attempts),
                lease_token: null,
                lease_expires_at: null,
                finished_at: sql`now()`,
                updated_at: sql`now()`,
              }
            : requeued(requeueMessage),
        )
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .where('lease_expires_at', '<=', sql<Date>`now()`)
        .returningAll()
        .executeTakeFirst();
      if (row) reaped.push(row);
    }
    return reaped;
  }

  /** The running jobs that built-in workers on this host hold, to find those of processes that have ended. */
  builtInRunsOn(host: string): Promise<Pick<JobRow, 'uuid' | 'lease_token' | 'worker'>[]> {
    return this.db
      .selectFrom('job')
      .select(['uuid', 'lease_token', 'worker'])
      .where('state', '=', 'running')
      .where(sql<boolean>`worker->>'host' = ${host} AND worker->'builtIn' IS NOT NULL`)
      .execute();
  }

  /** Ends the lease of a run now, so the reaper takes the job back. */
  async expireLease(uuid: string, token: string): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ lease_expires_at: sql`now()` })
      .where('uuid', '=', uuid)
      .where('lease_token', '=', token)
      .where('state', '=', 'running')
      .execute();
  }

  /** The job, locked until the transaction ends, by its serial id or uuid. */
  lock(trx: Kysely<DB>, ref: JobRef): Promise<JobRow | undefined> {
    return trx
      .selectFrom('job')
      .selectAll()
      .where(ref.kind === 'id' ? sql<boolean>`id = ${ref.id}` : sql<boolean>`uuid = ${ref.uuid}`)
      .forUpdate()
      .executeTakeFirst();
  }

  /** Queues the job again from the start, with no run holding it; answers the output file it had. */
  async requeue(trx: Kysely<DB>, id: number, message: string): Promise<JobRow> {
    return trx
      .updateTable('job')
      .set({
        ...requeued(message),
        attempts: 0,
        result: '{}',
        output_file_id: null,
        progress_done: 0,
        progress_total: null,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async cancel(trx: Kysely<DB>, id: number, message: string): Promise<JobRow> {
    return trx
      .updateTable('job')
      .set({
        state: 'cancelled',
        lease_token: null,
        lease_expires_at: null,
        finished_at: sql`now()`,
        progress_message: message,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The job of the run holding `token`, locked until the transaction ends; undefined: not its job. */
  lockRun(trx: Kysely<DB>, uuid: string, token: string): Promise<Pick<JobRow, 'id' | 'owner_id' | 'output_file_id'> | undefined> {
    return trx
      .selectFrom('job')
      .select(['id', 'owner_id', 'output_file_id'])
      .where('uuid', '=', uuid)
      .where('lease_token', '=', token)
      .where('state', '=', 'running')
      .forUpdate()
      .executeTakeFirst();
  }

  async setOutput(trx: Kysely<DB>, id: number, fileId: string): Promise<void> {
    await trx.updateTable('job').set({ output_file_id: fileId, updated_at: sql`now()` }).where('id', '=', id).execute();
  }

  /** Deletes a stored_file row no record names any more; its sha256 (the bytes go after the commit). */
  async dropStoredFile(trx: Kysely<DB>, fileId: string): Promise<string | undefined> {
    return (await trx.deleteFrom('stored_file').where('id', '=', fileId).returning('sha256').executeTakeFirst())?.sha256;
  }

  async notify(trx: Kysely<DB>, payloads: string[]): Promise<void> {
    for (const payload of payloads) await sql`SELECT pg_notify(${JOB_CHANNEL}, ${payload})`.execute(trx);
  }

  async markSeen(worker: string, types: readonly string[], details: Record<string, unknown>): Promise<void> {
    if (types.length === 0) return;
    await this.db
      .insertInto('job_worker_seen')
      .values(types.map((type) => ({ type, worker, details: JSON.stringify(details) })))
      .onConflict((oc) => oc.columns(['type', 'worker']).doUpdateSet({ details: (eb) => eb.ref('excluded.details'), seen_at: sql`now()` }))
      .execute();
  }

  /** The types some worker asked for within the window; with `remoteOnly`, a remote worker (not a server's built-in one). */
  async typesSeenWithin(seconds: number, remoteOnly = false): Promise<string[]> {
    let query = this.db
      .selectFrom('job_worker_seen')
      .select('type')
      .distinct()
      .where('seen_at', '>', sql<Date>`now() - make_interval(secs => ${seconds})`);
    if (remoteOnly) query = query.where(sql<boolean>`coalesce((details->>'builtIn')::boolean, false) = false`);
    const rows = await query.execute();
    return rows.map((r) => r.type);
  }


  /** The user, or the API key, a job acts for, when they may still act. */
  async activeOwner(ownerId: string | null, apiKeyId: string | null) {
    if (ownerId) {
      const user = await this.db
        .selectFrom('pim_user')
        .select(['id', 'name', 'email', 'roles'])
        .where('id', '=', ownerId)
        .where('disabled', '=', false)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return user && { kind: 'user' as const, ...user };
    }
    if (!apiKeyId) return undefined;
    const key = await this.db
      .selectFrom('api_key')
      .select(['id', 'user_name', 'roles'])
      .where('id', '=', apiKeyId)
      .where('disabled', '=', false)
      .executeTakeFirst();
    return key && { kind: 'apikey' as const, ...key };
  }
}

/** A job named by the serial id of the spec or by its uuid. */
export type JobRef = { kind: 'id'; id: number } | { kind: 'uuid'; uuid: string };

function progressColumns(p: JobProgressReport) {
  return {
    progress_done: Math.max(0, Math.floor(p.done)),
    progress_total: p.total === null ? null : Math.max(0, Math.floor(p.total)),
    ...(p.message !== undefined && { progress_message: p.message === null ? null : p.message.slice(0, 1000) }),
  };
}

/** The columns of a job waiting in the queue again, with no run holding it. */
function requeued(message: string) {
  return {
    state: 'queued' as const,
    lease_token: null,
    lease_expires_at: null,
    started_at: null,
    finished_at: null,
    error: null,
    queued_at: sql<Date>`now()`,
    progress_message: message,
    updated_at: sql<Date>`now()`,
  };
}
