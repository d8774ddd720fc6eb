import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

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
