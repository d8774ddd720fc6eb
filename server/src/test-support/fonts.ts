import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { testFont } from './font-files.js';
import { fieldParts, multipartBody } from './multipart-body.js';
import { call } from './test-app.js';

/**
 * `POST /pim/fontdescription/` as the web form sends it: the fields first, the file last in the
 * part `file` (no file when `file` is null).
 */
export function postFont(
  app: FastifyInstance,
  auth: Record<string, string>,
  fields: Record<string, string>,
  file: { fileName: string; bytes: Buffer } | null = { fileName: 'test.ttf', bytes: testFont() },
) {
  const parts = fieldParts(fields);
  if (file) parts.push({ name: 'file', contentType: 'font/ttf', ...file });
  const { payload, headers } = multipartBody(parts);
  return call(app, { method: 'POST', url: '/api/pim/fontdescription/', headers: { ...auth, ...headers }, payload });
}

/** Creates a font description as the given admin and gives its id. */
export async function createFont(app: FastifyInstance, adminAuth: Record<string, string>, fields: Record<string, string> = {}): Promise<string> {
  const res = await postFont(app, adminAuth, { uri: `https://fonts.example.org/${randomBytes(8).toString('hex')}`, ...fields });
  if (res.status !== 201) throw new Error(`could not create a font description: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.uuid as string;
}
