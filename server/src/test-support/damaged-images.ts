import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** Where the original of an image lies in the store. */
export async function storedPathOf(app: FastifyInstance, imageId: string): Promise<string> {
  const row = await app.database.db
    .selectFrom('document_image as d')
    .innerJoin('stored_file as f', 'f.id', 'd.file_id')
    .select('f.sha256')
    .where('d.id', '=', imageId)
    .executeTakeFirstOrThrow();
  return app.services.files.pathOf(row.sha256);
}

/**
 * Damages an image's stored original as a failing disk or a careless hand would: `truncate` cuts
 * it off, `replace` puts other bytes in its place, `remove` deletes it. Gives a function that puts
 * the original bytes back.
 */
export async function damageStoredImage(app: FastifyInstance, imageId: string, how: { truncate: true } | { replace: Buffer } | { remove: true }) {
  const file = await storedPathOf(app, imageId);
  const original = fs.readFileSync(file);
  if ('truncate' in how) fs.writeFileSync(file, original.subarray(0, Math.floor(original.length / 2)));
  else if ('replace' in how) fs.writeFileSync(file, how.replace);
  else fs.rmSync(file);
  return () => fs.writeFileSync(file, original);
}
