import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';

/** Whose jobs the dashboard counts: everyone's (an administrator) or one user's. */
export type JobScope = { all: true } | { all: false; ownerId: string | null };

export interface FailedJobRow {
  id: number;
  uuid: string;
  type: string;
  error: string | null;
  finishedAt: Date | null;
  setId: string | null;
  setName: string | null;
}

/** The job queue as the dashboard shows it, read through the queue's partial indexes. */
export class DashboardRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Running jobs, and queued jobs per type. */
  async unfinished(scope: JobScope): Promise<{ running: number; queued: { type: string; n: number }[] }> {
    const owner = scope.all ? sql`true` : scope.ownerId ? sql`owner_id = ${scope.ownerId}` : sql`false`;
    const [running, queued] = await Promise.all([
      sql<{ n: string | number }>`select count(*) as n from job where state = 'running' and ${owner}`.execute(this.db),
      sql<{ type: string; n: string | number }>`
        select type, count(*) as n from job where state = 'queued' and ${owner} group by type order by 2 desc, 1`.execute(this.db),
    ]);
    return { running: Number(running.rows[0]!.n), queued: queued.rows.map((r) => ({ type: r.type, n: Number(r.n) })) };
  }

  /** Jobs that failed since `since`: how many, and the newest `limit` of them with their set. */
  async failed(scope: JobScope, since: Date, limit: number): Promise<{ count: number; newest: FailedJobRow[] }> {
    const owner = scope.all ? sql`true` : scope.ownerId ? sql`j.owner_id = ${scope.ownerId}` : sql`false`;
    const [count, newest] = await Promise.all([
      sql<{ n: string | number }>`select count(*) as n from job j where j.state = 'failed' and j.finished_at >= ${since} and ${owner}`.execute(this.db),
      sql<FailedJobRow>`
        select j.id, j.uuid, j.type, j.error, j.finished_at as "finishedAt", s.id as "setId", coalesce(s.pretty_name, s.name) as "setName"
        from job j left join document_image_set s on s.id = j.set_id and s.deleted_at is null
        where j.state = 'failed' and j.finished_at >= ${since} and ${owner}
        order by j.finished_at desc limit ${limit}`.execute(this.db),
    ]);
    return { count: Number(count.rows[0]!.n), newest: newest.rows };
  }
}
