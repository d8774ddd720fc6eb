import fs from 'node:fs';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, type KyselyPlugin, PGliteDialect, PostgresDialect, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import pg from 'pg';
import { lowerBackendPriority } from '../processes/priority.js';
import type { PGliteThread } from './pglite-thread.js';
import { openSearchThread } from './search-database.js';
import type { DB } from './schema.js';

/**
 * The database: PGlite (PostgreSQL in-process, persisted in the data dir) by default, a
 * PostgreSQL server when a URL is given. Both run the same migrations and the same Kysely queries.
 */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Kysely<DB>;
  /**
   * For a job's bulk work (the search indexer's writes): on a PostgreSQL server, connections of
   * their own whose backends run at background CPU priority where the server is on this machine,
   * so the API's queries are served first; on PGlite the one connection, `db`, with a turn of the
   * event loop after each statement (see `TurnAfterEachStatement`).
   */
  background: Kysely<DB>;
  /**
   * The search engine's tables (search.ts, pg-store.ts): on a PostgreSQL server `db`; on PGlite a
   * database of their own in a worker thread, `searchThread` (see search-database.ts). No query
   * joins them with the other tables.
   */
  search: Kysely<DB>;
  /** On PGlite, the search database's thread: the indexer's writes run there, beside their data. */
  searchThread?: PGliteThread;
  /** A PostgreSQL server's URL, for a process of ours that opens connections of its own; none for PGlite. */
  url?: string;
  /** Runs a script of several statements (migrations); nothing else should need it. */
  execScript(sqlText: string): Promise<void>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`: from any connection to a
   * PostgreSQL server, from this process on PGlite. Resolves once listening, with the function
   * that stops it. A notification sent while a lost connection is being made again is missed, so
   * a listener also looks for itself now and then.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * As `listen`, and a NOTIFY this process sends reaches `onMessage` before the statement (or the
   * commit) that sent it returns: on PostgreSQL every pooled connection listens too. `onMissed`
   * is called when notifications may have been lost (a listening connection made again).
   */
  watch(channel: string, onMessage: (payload: string) => void, onMissed: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory' }
  | { kind: 'postgres'; url: string };

export class DatabaseInUseError extends Error {}

export interface OpenOptions {
  /**
   * Told when an idle PostgreSQL connection fails (server restart, admin termination). The pool
   * drops it and opens another for the next query; unheard, the error would end the process.
   */
  onConnectionError?: (err: Error) => void;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'postgres') {
    return openPostgres(target.url, options.onConnectionError ?? ((err) => console.warn('database connection lost:', err.message)));
  }
  if (target.kind === 'pglite-memory') return openPGlite(new PGlite({ extensions: PGLITE_EXTENSIONS }), null, async () => {});
  const dir = path.join(target.dataDir, 'pgdata');
  fs.mkdirSync(dir, { recursive: true });
  const releaseLock = acquireProcessLock(path.join(target.dataDir, 'pgdata.lock'));
  try {
    return await openPGlite(new PGlite(dir, { extensions: PGLITE_EXTENSIONS }), target.dataDir, releaseLock);
  } catch (err) {
    await releaseLock();
    throw err;
  }
}

/** Contrib extensions the migrations create (PostgreSQL servers have them in contrib). */
const PGLITE_EXTENSIONS = { pg_trgm };

async function openPGlite(client: PGlite, dataDir: string | null, onClose: () => Promise<void>): Promise<Database> {
  await client.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite: client }) });
  const searchThread = openSearchThread(client, dataDir);
  const search = searchThread.kysely();
  const listen = async (channel: string, onMessage: (payload: string) => void) => {
    const stop = await client.listen(checkedChannel(channel), onMessage);
    return async () => {
      if (!client.closed) await stop();
    };
  };
  return {
    kind: 'pglite',
    db,
    background: db.withPlugin(new TurnAfterEachStatement()),
    search,
    searchThread,
    execScript: async (sqlText) => {
      try {
        await client.exec(sqlText);
      } catch (err) {
        // A failed script that opened a transaction leaves it aborted: close it.
        await client.exec('ROLLBACK').catch(() => {});
        throw err;
      }
    },
    listen,
    // PGlite delivers a notification before the query that sent it resolves, and no one else writes.
    watch: (channel, onMessage) => listen(channel, onMessage),
    close: async () => {
      await search.destroy();
      await searchThread.close();
      await db.destroy();
      if (!client.closed) await client.close();
      await onClose();
    },
  };
}

/**
 * Gives the event loop a turn after each statement. PGlite runs a statement on this thread and its
 * promise resolves without a turn, so a job's chain of statements (a step of the search indexer
 * is hundreds, in one transaction) held every request for its whole length, 600 ms at a time in a
 * reindex. With a turn between statements, requests that need no query (cached lists, tiles and
 * thumbnails, files) are answered while the chain goes on; queries still wait for the job's
 * transaction, as PGlite has one connection.
 */
class TurnAfterEachStatement implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    await setImmediate();
    return args.result;
  }
}

async function openPostgres(url: string, onConnectionError: (err: Error) => void): Promise<Database> {
  // JIT compiles a query's expressions when its estimated cost is high, which for the short
  // queries of an API (whose estimates on small or unanalysed tables can be far off) costs more
  // than the query itself: 15 ms of compiling for a 0.1 ms list of sets.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' });
  pool.on('error', onConnectionError);
  const watched = new Map<string, Set<(payload: string) => void>>();
  const listening = new WeakMap<pg.PoolClient, Set<string>>();
  // Each connection this process writes through listens to the watched channels (LISTEN goes
  // ahead of the caller's statements in the connection's queue), so it hears its own notices.
  pool.on('acquire', (client) => {
    let channels = listening.get(client);
    if (!channels) {
      channels = new Set();
      listening.set(client, channels);
      client.on('notification', (n) => {
        for (const handler of watched.get(n.channel) ?? []) handler(n.payload ?? '');
      });
    }
    for (const channel of watched.keys()) {
      if (channels.has(channel)) continue;
      channels.add(channel);
      client.query(`LISTEN ${channel}`).catch(() => undefined);
    }
  });
  // Fail at boot with the driver's message rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const backgroundPool = new pg.Pool({ connectionString: url, max: BACKGROUND_CONNECTIONS, options: '-c jit=off', application_name: 'pim background' });
  backgroundPool.on('error', onConnectionError);
  backgroundPool.on('connect', (client) => {
    // pg keeps the backend's pid (BackendKeyData) and its socket, without typing them.
    const wire = client as unknown as { processID: number | null; connection: { stream: { localPort?: number } } };
    lowerBackendPriority({ pid: wire.processID, user: client.user ?? '', database: client.database ?? '', clientPort: wire.connection.stream.localPort });
  });
  const background = new Kysely<DB>({ dialect: new PostgresDialect({ pool: backgroundPool }) });
  const listener = new PostgresListener(url, onConnectionError);
  return {
    kind: 'postgres',
    db,
    background,
    search: db,
    url,
    execScript: async (sqlText) => {
      const conn = await pool.connect();
      try {
        // No parameters: pg uses the simple protocol, which accepts several statements.
        await conn.query(sqlText);
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        conn.release();
      }
    },
    listen: (channel, onMessage) => listener.listen(checkedChannel(channel), onMessage),
    watch: async (channel, onMessage, onMissed) => {
      let handlers = watched.get(checkedChannel(channel));
      if (!handlers) watched.set(channel, (handlers = new Set()));
      handlers.add(onMessage);
      listener.onReconnect(onMissed);
      const stop = await listener.listen(channel, onMessage);
      return async () => {
        handlers.delete(onMessage);
        listener.offReconnect(onMissed);
        await stop();
      };
    },
    close: async () => {
      await listener.close();
      await background.destroy();
      await db.destroy();
    },
  };
}

/** Connections for background work: a job's bulk writes run one at a time per job. */
const BACKGROUND_CONNECTIONS = 2;

/** A channel name goes into LISTEN as an identifier: only plain lower-case names. */
function checkedChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

/** How long to wait before making a lost listening connection again. */
const RELISTEN_MS = 1000;

/**
 * LISTEN needs a connection of its own that stays open (a pooled one goes back to the pool). It
 * is opened on the first listen; when it fails it is made again, listening on the same channels.
 */
class PostgresListener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly reconnected = new Set<() => void>();
  private lostOnce = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly onConnectionError: (err: Error) => void,
  ) {}

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.connection();
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      await client.query(`LISTEN ${channel}`);
    }
    handlers.add(onMessage);
    return async () => {
      handlers.delete(onMessage);
      if (handlers.size > 0 || this.handlers.get(channel) !== handlers) return;
      this.handlers.delete(channel);
      await this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  /** `onMissed` is called each time the connection is made again after it was lost. */
  onReconnect(onMissed: () => void): void {
    this.reconnected.add(onMissed);
  }

  offReconnect(onMissed: () => void): void {
    this.reconnected.delete(onMissed);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (n) => {
      for (const handler of this.handlers.get(n.channel) ?? []) handler(n.payload ?? '');
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    this.client = client;
    if (this.lostOnce) for (const missed of this.reconnected) missed();
    return client;
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.lostOnce = true;
    client.end().catch(() => undefined);
    if (this.closed) return;
    if (err) this.onConnectionError(err);
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed || this.handlers.size === 0) return;
      this.connection().catch((err: Error) => {
        this.onConnectionError(err);
        this.reconnectLater();
      });
    }, RELISTEN_MS);
    this.retry.unref();
  }
}

/**
 * PGlite is single-process: two processes on one data dir would corrupt it. A lock file with the
 * owner's pid keeps the CLI off a data dir the server holds, and says so clearly.
 */
function acquireProcessLock(lockFile: string): () => Promise<void> {
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = Number(fs.readFileSync(lockFile, 'utf8').trim());
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new DatabaseInUseError(
        `The embedded database in ${path.dirname(lockFile)} is in use by another PIM process (pid ${owner}). ` +
          'Stop the server first, or set DATABASE_URL to use a PostgreSQL server, which allows both at once.',
      );
    }
    // A stale lock from a process that is gone.
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return async () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
