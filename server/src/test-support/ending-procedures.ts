// Loaded by a database's thread in tests (pglite-thread.ts `call`): a procedure that ends the thread, as a crash would.
import type { Procedures } from '../platform/db/pglite-thread-entry.js';

export function procedures(): Procedures {
  return {
    end: async () => process.exit(3),
  };
}
