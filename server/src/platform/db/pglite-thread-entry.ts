// A PGlite of its own in a worker thread (see pglite-thread.ts): its statements, and the
// procedures of the modules it is asked to load, run here and not on the server's thread.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect } from 'kysely';
import { lowerThisThread } from '../processes/priority.js';
import type { DB } from './schema.js';

/** What the thread is asked; every request is answered once, under its id. */
export type ThreadRequest =
  | { id: number; op: 'query'; tx?: number; sql: string; params?: unknown[]; rowMode?: 'object' | 'array'; blob?: ArrayBuffer }
  | { id: number; op: 'exec'; tx?: number; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'load'; module: string }
  | { id: number; op: 'call'; module: string; name: string; args: unknown[] }
  | { id: number; op: 'close' };

/** A database error's message and fields (code, detail, constraint…), which a clone of the error would lose. */
export type ThreadError = { message: string; fields: Record<string, string | number> };

export type ThreadResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError } | { ready: true } | { failed: ThreadError };

/** What the thread was started with. */
export interface ThreadData {
  /** The PGlite data dir; none for one in memory. */
  dataDir: string | null;
  /** Whether the thread runs at background priority (see PGliteThread's `background`). */
  background: boolean;
}

/** What a module run on the thread (`load`) exports: the functions `call` may name, on the thread's own Kysely. */
export type ProcedureModule = { procedures: (db: Kysely<DB>) => Procedures };

export type Procedures = Record<string, (...args: never[]) => Promise<unknown>>;

const port = parentPort!;
const { dataDir, background } = workerData as ThreadData;
if (background) lowerThisThread();

function errorOf(err: unknown): ThreadError {
  const fields: Record<string, string | number> = {};
  if (err && typeof err === 'object') {
    for (const [key, value] of Object.entries(err)) if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { message: err instanceof Error ? err.message : String(err), fields };
}

/** An open transaction: its handle, and how it is told to end. */
interface Open {
  tx: Transaction;
  end: (commit: boolean) => void;
  ended: Promise<void>;
}

/** Raised in a transaction's callback so that PGlite rolls it back. */
class RollBack extends Error {}

async function start(): Promise<void> {
  const options = { extensions: { pg_trgm } };
  const pg = dataDir === null ? new PGlite(options) : new PGlite(dataDir, options);
  await pg.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite: pg }) });
  const modules = new Map<string, Procedures>();
  const open = new Map<number, Open>();
  let nextTx = 1;

  const begin = () =>
    new Promise<number>((begun, failed) => {
      const id = nextTx++;
      let end!: (commit: boolean) => void;
      const told = new Promise<boolean>((resolve) => (end = resolve));
      const ended = pg
        .transaction(async (tx) => {
          open.set(id, { tx, end, ended });
          begun(id);
          if (!(await told)) throw new RollBack();
        })
        .then(
          () => undefined,
          (err: unknown) => {
            if (!(err instanceof RollBack)) throw err;
          },
        )
        .finally(() => open.delete(id));
      // A transaction that could not begin (the database closed) fails its caller.
      ended.catch(failed);
    });

  const handle = async (request: ThreadRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query': {
        const target = request.tx ? open.get(request.tx)?.tx : pg;
        if (!target) throw new Error('The transaction has ended.');
        const result = await target.query(request.sql, request.params, {
          rowMode: request.rowMode,
          ...(request.blob ? { blob: new Blob([request.blob]) } : {}),
        });
        return { rows: result.rows, affectedRows: result.affectedRows, fields: result.fields, blob: result.blob ? await result.blob.arrayBuffer() : undefined };
      }
      case 'exec': {
        const target = request.tx ? open.get(request.tx)?.tx : pg;
        if (!target) throw new Error('The transaction has ended.');
        await target.exec(request.sql);
        return null;
      }
      case 'begin':
        return begin();
      case 'end': {
        const tx = open.get(request.tx);
        if (!tx) throw new Error('The transaction has ended.');
        tx.end(request.commit);
        await tx.ended;
        return null;
      }
      case 'load':
        if (!modules.has(request.module)) modules.set(request.module, ((await import(request.module)) as ProcedureModule).procedures(db));
        return null;
      case 'call': {
        const fn = modules.get(request.module)?.[request.name];
        if (!fn) throw new Error(`No procedure ${request.name} on this database's thread.`);
        return (fn as (...args: unknown[]) => Promise<unknown>)(...request.args);
      }
      case 'close':
        await db.destroy();
        if (!pg.closed) await pg.close();
        return null;
    }
  };

  port.on('message', (request: ThreadRequest) => {
    handle(request).then(
      (value) => port.postMessage({ id: request.id, ok: true, value } satisfies ThreadResponse),
      (err: unknown) => port.postMessage({ id: request.id, ok: false, error: errorOf(err) } satisfies ThreadResponse),
    );
  });
  port.postMessage({ ready: true } satisfies ThreadResponse);
}

start().catch((err: unknown) => port.postMessage({ failed: errorOf(err) } satisfies ThreadResponse));
