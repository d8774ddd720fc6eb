import { MODEL_KIND_INFO, type ModelKind } from '@pim/contract';
import type { FastifyInstance } from 'fastify';
import { modelFileFor } from './model-files.js';
import { type FormPart, multipartBody } from './multipart-body.js';
import { call } from './test-app.js';

/** The create form of a kind as the web sends it: the name (title or label), the language if any, then the file. */
export function createForm(kind: ModelKind, file: { fileName: string; bytes: Buffer }, fields: { label?: string; language?: string } = {}) {
  const info = MODEL_KIND_INFO[kind];
  const parts: FormPart[] = [];
  if (fields.label !== undefined) parts.push({ name: info.nameField, value: fields.label });
  if (fields.language !== undefined) parts.push({ name: 'language', value: fields.language });
  parts.push({ name: 'file', ...file });
  return multipartBody(parts);
}

/** `POST {basePath}` with a valid file of the kind, or the given one. */
export async function createModel(
  app: FastifyInstance,
  auth: Record<string, string>,
  kind: ModelKind,
  options: { label?: string; language?: string; file?: { fileName: string; bytes: Buffer } } = {},
) {
  const info = MODEL_KIND_INFO[kind];
  const file = options.file ?? (await modelFileFor(kind));
  const fields = { label: options.label ?? `${kind} model`, language: info.hasLanguage ? (options.language ?? 'nld') : options.language };
  const { payload, headers } = createForm(kind, file, fields);
  return call(app, { method: 'POST', url: `/api/${info.basePath}`, headers: { ...auth, ...headers }, payload });
}
