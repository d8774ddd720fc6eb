// Loaded by a database's thread in tests (pglite-thread.ts `call`): the niceness the thread runs at.
import os from 'node:os';
import type { Procedures } from '../platform/db/pglite-thread-entry.js';
import { thisThreadId } from '../platform/processes/priority.js';

/** The niceness of the calling thread. */
export function threadNice(): number {
  return os.getPriority(thisThreadId()!);
}

export function procedures(): Procedures {
  return {
    nice: async () => threadNice(),
  };
}
