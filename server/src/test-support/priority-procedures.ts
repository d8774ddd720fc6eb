// Loaded by a database's thread in tests (pglite-thread.ts `call`): the niceness the thread runs at.
import fs from 'node:fs';
import os from 'node:os';
import type { Procedures } from '../platform/db/pglite-thread-entry.js';

/** The niceness of the calling thread (Linux: its own task under /proc/thread-self). */
export function threadNice(): number {
  return os.getPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').at(-1)));
}

export function procedures(): Procedures {
  return {
    nice: async () => threadNice(),
  };
}
