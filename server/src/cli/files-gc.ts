import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../platform/db/schema.js';
import { FileStore, formatBytes, type StoredBytes } from '../platform/storage/file-store.js';
import { referencedAmong, removeUnreferenced } from '../platform/storage/stored-file-repository.js';
import { withDatabase } from './database.js';
import type { CliIO, OptionValues } from './io.js';

/** How many files one query checks for rows. */
const BATCH = 500;

/** `pim files gc [--dry-run]`: deletes the stored files no row names, and says what that freed. */
export function filesGcCommand(values: OptionValues, config: Config, io: CliIO): Promise<number> {
  return withDatabase(config, (database) => collectFileGarbage(database.db, new FileStore(config.dataDir), io, values['dry-run'] === true));
}

/**
 * First removes what crashed processes left staged in tmp/ (the folders of live servers sharing
 * the data dir stay), then finds the store's files no stored_file row names and, unless dryRun,
 * deletes each one under its content lock after checking again: an upload publishing the same
 * bytes holds that lock until its rows are committed, so a file on its way into use is never taken.
 */
export async function collectFileGarbage(db: Kysely<DB>, store: FileStore, io: CliIO, dryRun: boolean): Promise<number> {
  for (const left of store.sweepStaging(dryRun)) {
    const files = left.files === 1 ? '1 file' : `${left.files} files`;
    io.out(`${dryRun ? 'Would remove' : 'Removed'} tmp/${left.name} (${files}, ${formatBytes(left.bytes)} staged): ${left.reason}`);
  }
  let batch: StoredBytes[] = [];
  const freed: StoredBytes[] = [];
  const sweep = async () => {
    const referenced = await referencedAmong(db, batch.map((f) => f.sha256));
    const unreferenced = batch.filter((f) => !referenced.has(f.sha256));
    batch = [];
    const removed = dryRun
      ? new Set(unreferenced.map((f) => f.sha256))
      : new Set(await removeUnreferenced(db, unreferenced.map((f) => f.sha256), (sha256) => store.remove(sha256)));
    for (const file of unreferenced.filter((f) => removed.has(f.sha256))) {
      io.out(`${dryRun ? 'Would remove' : 'Removed'} ${file.sha256} (${formatBytes(file.sizeBytes)})`);
      freed.push(file);
    }
  };
  for await (const file of store.storedFiles()) {
    batch.push(file);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  io.out(summary(freed, dryRun));
  return 0;
}

function summary(freed: StoredBytes[], dryRun: boolean): string {
  if (freed.length === 0) return 'Every stored file is in use: nothing to free.';
  const files = freed.length === 1 ? '1 file' : `${freed.length} files`;
  const bytes = formatBytes(freed.reduce((sum, f) => sum + f.sizeBytes, 0));
  return dryRun ? `Would free ${files}, ${bytes} (dry run: nothing was removed).` : `Freed ${files}, ${bytes}.`;
}
