import { forkInBackground } from '../../platform/processes/priority.js';
import { ownEntry } from '../../platform/threads/own-entry.js';
import type { IndexProgress, SyncOptions } from './indexer.js';

/** What the server asks the indexer's process: one sync, then it ends. */
export interface IndexerRequest {
  kind: 'sync';
  url: string;
  imageIds: string[];
  batch: number;
  sync: SyncOptions;
}

/** What the indexer's process answers. */
export type IndexerReply =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; indexed: number }
  | { kind: 'failed'; message: string };

const ENTRY = ownEntry('indexer-child', import.meta.url);

/**
 * Syncs the search documents of these images in a process of its own, at background priority,
 * on connections of its own to the PostgreSQL server at `url`: the analysis of the pages, the
 * encoding of the posting blocks and the garbage they leave take the server's thread from the
 * API's requests otherwise (a reindex of thousands of pages held list calls for tens of
 * milliseconds at a time). Each batch is a transaction there as here; when `signal` aborts, the
 * process is ended, leaving the batches it committed, as an aborted sync here does.
 */
export function syncInOwnProcess(
  url: string,
  imageIds: string[],
  batch: number,
  progress?: IndexProgress,
  signal?: AbortSignal,
  sync: SyncOptions = {},
): Promise<{ indexed: number }> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const child = forkInBackground(ENTRY);
  return new Promise((resolve, reject) => {
    // Progress is written in order, and the sync ends after its last progress is written.
    let reported = Promise.resolve();
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      reported.then(finish, reject);
    };
    const abort = () => {
      child.kill('SIGKILL');
      settle(() => reject(signal!.reason));
    };
    signal?.addEventListener('abort', abort, { once: true });
    child.on('message', (reply: IndexerReply) => {
      if (reply.kind === 'progress') reported = reported.then(() => progress?.(reply.done, reply.total));
      else if (reply.kind === 'done') settle(() => resolve({ indexed: reply.indexed }));
      else settle(() => reject(new Error(reply.message)));
    });
    child.on('error', (err) => settle(() => reject(err)));
    child.on('exit', (code, killed) => settle(() => reject(new Error(`The indexing process ended before its sync did (${killed ?? `exit code ${code}`}).`))));
    child.send({ kind: 'sync', url, imageIds, batch, sync } satisfies IndexerRequest);
  });
}
