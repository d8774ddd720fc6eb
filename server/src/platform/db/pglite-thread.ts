import { Worker } from 'node:worker_threads';
import { Kysely, PGliteDialect } from 'kysely';
import { ownEntry } from '../threads/own-entry.js';
import type { ThreadData, ThreadError, ThreadRequest, ThreadResponse } from './pglite-thread-entry.js';
import type { DB } from './schema.js';

const ENTRY = ownEntry('pglite-thread-entry', import.meta.url);

/** What a statement answers, as PGlite's `query` does. */
export interface ThreadQueryResult<T> {
  rows: T[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
  blob?: Blob;
}

export interface ThreadQueryOptions {
  rowMode?: 'object' | 'array';
  /** The data `COPY … FROM '/dev/blob'` reads. */
  blob?: Blob;
}

/** What a statement can run on: the database, or one of its transactions. */
export interface ThreadQueryable {
  query<T>(sqlText: string, params?: unknown[], options?: ThreadQueryOptions): Promise<ThreadQueryResult<T>>;
  exec(sqlText: string): Promise<void>;
}

/** What `prepare` runs its statements on, before anyone else's. */
export type ThreadSession = ThreadQueryable & { transaction<T>(fn: (tx: ThreadQueryable) => Promise<T>): Promise<T> };

/** The database's thread ended, or was never there: what is asked of it fails with this. */
export class DatabaseThreadGone extends Error {}

/**
 * A PGlite that runs in a worker thread of its own, so its statements (and the procedures of the
 * modules it loads, see `call`) take none of this thread's time: a second embedded
 * database for work that must not hold the API's requests. It answers as much of PGlite's client
 * as Kysely's `PGliteDialect` asks for (`query`, `transaction`, `close`, `ready`, `waitReady`), so
 * `kysely()` gives the same query builder as the main database.
 */
export class PGliteThread implements ThreadQueryable {
  closed = false;
  private worker: Worker | undefined;
  private opening: Promise<void> | undefined;
  private isReady = false;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private readonly loaded = new Map<string, Promise<unknown>>();
  private nextId = 1;
  private gone: Error | undefined;
  /** The thread's statements before anyone else's: what `prepare` runs on. */
  private readonly raw: ThreadSession = {
    query: (sqlText, params, options) => this.statement(undefined, sqlText, params, options),
    exec: (sqlText) => this.ask({ op: 'exec', sql: sqlText }) as Promise<void>,
    transaction: (fn) => this.inTransaction(fn),
  };

  /**
   * `dataDir`: where it keeps its files, none for memory. The thread starts with the first
   * statement asked of it (most processes never need it), and `prepare` (its migrations) runs
   * before any other statement. `background`: the thread runs at background priority, so that
   * when it and the server's thread want the CPU at the same moment, the server's thread gets it.
   */
  constructor(
    private readonly options: { dataDir: string | null; prepare?: (thread: ThreadSession) => Promise<void>; background?: boolean },
  ) {}

  /** Whether the thread was started and prepared (Kysely asks). */
  get ready(): boolean {
    return this.isReady;
  }

  /** Starts the thread if it is not, and resolves once it is prepared (Kysely asks). */
  get waitReady(): Promise<void> {
    return this.opened();
  }

  /** Whether the thread was ever started. */
  get started(): boolean {
    return this.worker !== undefined;
  }

  async query<T>(sqlText: string, params?: unknown[], options?: ThreadQueryOptions): Promise<ThreadQueryResult<T>> {
    await this.opened();
    return this.raw.query<T>(sqlText, params, options);
  }

  async exec(sqlText: string): Promise<void> {
    await this.opened();
    return this.raw.exec(sqlText);
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: ThreadQueryable) => Promise<T>): Promise<T> {
    await this.opened();
    return this.inTransaction(fn);
  }

  /**
   * Calls the function `name` of `module`'s `procedures(db)` on the thread (the module is
   * imported there once), with structured-cloneable arguments: work that runs beside the
   * database and its data, not on this thread.
   */
  async call<T>(module: { url: URL }, name: string, ...args: unknown[]): Promise<T> {
    await this.opened();
    const href = module.url.href;
    let loading = this.loaded.get(href);
    if (!loading) this.loaded.set(href, (loading = this.ask({ op: 'load', module: href })));
    await loading;
    return this.ask({ op: 'call', module: href, name, args }) as Promise<T>;
  }

  /** A query builder whose statements run on the thread. */
  kysely(): Kysely<DB> {
    // Kysely asks its client only for what this class answers.
    return new Kysely<DB>({ dialect: new PGliteDialect({ pglite: this as never }) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.gone = new DatabaseThreadGone("The search database's thread was closed.");
    const worker = this.worker;
    if (!worker) return;
    await this.opening?.catch(() => undefined);
    await this.send(worker, { op: 'close' }).catch(() => undefined);
    await worker.terminate();
  }

  private opened(): Promise<void> {
    if (this.gone) return Promise.reject(this.gone);
    this.opening ??= this.open();
    return this.opening;
  }

  /**
   * Starts the thread and prepares it. When the thread fails (at the start or later, its memory
   * exhausted, say), what was asked of it fails, and the next statement starts it again.
   */
  private async open(): Promise<void> {
    const worker = new Worker(ENTRY.url, { execArgv: ENTRY.execArgv, workerData: { dataDir: this.options.dataDir, background: this.options.background ?? false } satisfies ThreadData });
    this.worker = worker;
    const ended = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.opening = undefined;
      this.isReady = false;
      this.loaded.clear();
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
      void worker.terminate();
    };
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (err: Error) => {
          ended(err);
          reject(err);
        };
        worker.on('message', (message: ThreadResponse) => {
          if ('ready' in message) resolve();
          else if ('failed' in message) fail(rebuilt(message.failed));
          else {
            const waiting = this.pending.get(message.id);
            this.pending.delete(message.id);
            if (message.ok) waiting?.resolve(message.value);
            else waiting?.reject(rebuilt(message.error));
          }
        });
        worker.on('error', (err) => fail(new DatabaseThreadGone(`The search database's thread failed: ${err.message}`)));
        worker.on('exit', (code) => fail(this.gone ?? new DatabaseThreadGone(`The search database's thread ended (exit code ${code}).`)));
      });
      await this.options.prepare?.(this.raw);
    } catch (err) {
      ended(err as Error);
      throw err;
    }
    this.isReady = true;
  }

  private async inTransaction<T>(fn: (tx: ThreadQueryable) => Promise<T>): Promise<T> {
    const tx = (await this.ask({ op: 'begin' })) as number;
    let value: T;
    try {
      value = await fn({
        query: <R>(sqlText: string, params?: unknown[], options?: ThreadQueryOptions) => this.statement<R>(tx, sqlText, params, options),
        exec: (sqlText: string) => this.ask({ op: 'exec', tx, sql: sqlText }) as Promise<void>,
      });
    } catch (err) {
      await this.ask({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw err;
    }
    await this.ask({ op: 'end', tx, commit: true });
    return value;
  }

  private async statement<T>(tx: number | undefined, sqlText: string, params?: unknown[], options?: ThreadQueryOptions): Promise<ThreadQueryResult<T>> {
    const result = (await this.ask({
      op: 'query',
      tx,
      sql: sqlText,
      params,
      rowMode: options?.rowMode,
      blob: options?.blob ? await options.blob.arrayBuffer() : undefined,
    })) as Omit<ThreadQueryResult<T>, 'blob'> & { blob?: ArrayBuffer };
    return { ...result, blob: result.blob ? new Blob([result.blob]) : undefined };
  }

  private ask(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    if (!this.worker) return Promise.reject(new DatabaseThreadGone("The search database's thread is not running."));
    return this.send(this.worker, request);
  }

  private send(worker: Worker, request: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function rebuilt(error: ThreadError): Error {
  return Object.assign(new Error(error.message), error.fields);
}
