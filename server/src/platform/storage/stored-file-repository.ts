import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Publication } from './file-store.js';

/** A file the store holds, about to be recorded (`stored_file`). */
export interface NewStoredFile {
  id: string;
  sha256: string;
  sizeBytes: number;
  mediaType: string;
  originalName: string;
  ownerId: string | null;
}

/** Records stored files, inside the caller's transaction: with the rows that name them. */
export async function insertStoredFiles(trx: Kysely<DB>, files: NewStoredFile[]): Promise<void> {
  if (files.length === 0) return;
  await trx
    .insertInto('stored_file')
    .values(
      files.map((f) => ({
        id: f.id,
        sha256: f.sha256,
        size_bytes: f.sizeBytes,
        media_type: f.mediaType,
        original_name: f.originalName,
        owner_id: f.ownerId,
      })),
    )
    .execute();
}

/** The two-key advisory locks of file contents live in this space (the one-key locks are elsewhere). */
const CONTENT_LOCK_SPACE = 727004;

/** A file's lock key: 32 bits of its SHA-256 (two files sharing one only wait for each other). */
function contentLockKey(sha256: string): number {
  return Number.parseInt(sha256.slice(0, 8), 16) | 0;
}

/**
 * Takes the content lock of each file until trx ends. Whoever renames a file into the store or
 * deletes one from it holds its lock; in ascending key order, so two transactions never wait for
 * each other in a circle.
 */
export async function lockContent(trx: Kysely<DB>, sha256s: string[]): Promise<void> {
  const keys = [...new Set(sha256s.map(contentLockKey))].sort((a, b) => a - b);
  if (keys.length === 0) return;
  await sql`select pg_advisory_xact_lock(${CONTENT_LOCK_SPACE}, k) from unnest(${keys}::int4[]) as k`.execute(trx);
}

/**
 * Publishes files and records the rows naming them in one transaction: takes the files' content
 * locks, renames them into the store, then runs `write`, which says whether it recorded anything.
 * When it throws or records nothing, the files go again unless other rows name them: every other
 * publisher holds the lock from its rename to its commit, so that check cannot race it.
 */
export async function publishWithRows(db: Kysely<DB>, files: Publication, write: (trx: Kysely<DB>) => Promise<boolean>): Promise<boolean> {
  let recorded: boolean;
  try {
    recorded = await db.transaction().execute(async (trx) => {
      await lockContent(trx, files.sha256s);
      await files.publish();
      return write(trx);
    });
  } catch (err) {
    // The caller needs the first failure; what a failed clean-up leaves, `pim files gc` removes.
    await removeUnreferenced(db, files.sha256s, files.remove).catch(() => undefined);
    throw err;
  }
  if (!recorded) await removeUnreferenced(db, files.sha256s, files.remove);
  return recorded;
}

/**
 * Calls `remove` for each file no stored_file row names, each in its own transaction under its
 * content lock; returns the removed ones. Read committed: the check after the lock sees the rows
 * of a publisher that held it until its commit.
 */
export async function removeUnreferenced(
  db: Kysely<DB>,
  sha256s: Iterable<string>,
  remove: (sha256: string) => Promise<boolean>,
): Promise<string[]> {
  const removed: string[] = [];
  for (const sha256 of new Set(sha256s)) {
    const gone = await db
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        await lockContent(trx, [sha256]);
        return (await referencedAmong(trx, [sha256])).size === 0 && remove(sha256);
      });
    if (gone) removed.push(sha256);
  }
  return removed;
}

/**
 * Deletes a record that owns one stored file. `deleteRecord` removes the record inside the
 * transaction and answers its file id (null: it has none; undefined: there is no such record). The
 * file's stored_file row goes in the same transaction, the bytes after the commit unless another row
 * names them. A failed removal leaves an unreferenced file for `pim files gc`: the record is gone
 * either way. False when there was no such record.
 */
export async function deleteWithStoredFile(
  db: Kysely<DB>,
  deleteRecord: (trx: Kysely<DB>) => Promise<string | null | undefined>,
  remove: (sha256: string) => Promise<boolean>,
): Promise<boolean> {
  const deleted = await db.transaction().execute(async (trx) => {
    const fileId = await deleteRecord(trx);
    if (fileId === undefined) return undefined;
    if (fileId === null) return { sha256: null };
    const file = await trx.deleteFrom('stored_file').where('id', '=', fileId).returning('sha256').executeTakeFirst();
    return { sha256: file?.sha256 ?? null };
  });
  if (!deleted) return false;
  if (deleted.sha256) await removeUnreferenced(db, [deleted.sha256], remove).catch(() => undefined);
  return true;
}

/** Those of the files that a stored_file row names. */
export async function referencedAmong(db: Kysely<DB>, sha256s: string[]): Promise<Set<string>> {
  if (sha256s.length === 0) return new Set();
  const rows = await db.selectFrom('stored_file').select('sha256').distinct().where('sha256', 'in', sha256s).execute();
  return new Set(rows.map((r) => r.sha256));
}
