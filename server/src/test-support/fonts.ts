import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { testFont } from './font-files.js';
import { call } from './test-app.js';

export type FontFormPart = { name: string; value: string } | { name: string; fileName: string; bytes: Buffer; contentType?: string };

/** A multipart/form-data body of text fields and files, in the given order. */
export function formBody(parts: FontFormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----pim-font-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      'value' in p
        ? `Content-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: ${p.contentType ?? 'font/ttf'}\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${disposition}`), 'value' in p ? Buffer.from(p.value) : p.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

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
  const parts: FontFormPart[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (file) parts.push({ name: 'file', ...file });
  const { payload, headers } = formBody(parts);
  return call(app, { method: 'POST', url: '/api/pim/fontdescription/', headers: { ...auth, ...headers }, payload });
}

/** Creates a font description as the given admin and gives its id. */
export async function createFont(app: FastifyInstance, adminAuth: Record<string, string>, fields: Record<string, string> = {}): Promise<string> {
  const res = await postFont(app, adminAuth, { uri: `https://fonts.example.org/${randomBytes(8).toString('hex')}`, ...fields });
  if (res.status !== 201) throw new Error(`could not create a font description: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.uuid as string;
}
