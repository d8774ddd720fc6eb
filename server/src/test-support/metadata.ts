import { newPimFieldSet, type PimField, type PimFieldInput, type PimFieldSet } from '@pim/contract';
import type { FastifyInstance } from 'fastify';
import { call } from './test-app.js';

type Auth = Record<string, string>;

/** A field of a set as the edit form sends it, with the form's defaults. */
export function field(name: string, type: PimFieldInput['type'], extra: Partial<PimFieldInput> = {}): PimFieldInput {
  return { label: name, name, description: '', type, copyValue: false, possibleValues: [], ...extra };
}

/** Creates a field set through the API (the two fixed fields, then `fields`) and gives it as the server answers. */
export async function createFieldSet(
  app: FastifyInstance,
  auth: Auth,
  opts: { name?: string; publicPimFieldSet?: boolean; fields?: PimFieldInput[] } = {},
): Promise<PimFieldSet> {
  const res = await call(app, {
    method: 'POST',
    url: '/api/pim/pimfieldset/create',
    headers: auth,
    payload: {
      ...newPimFieldSet(),
      name: opts.name ?? 'Field set',
      publicPimFieldSet: opts.publicPimFieldSet ?? false,
      fields: [...newPimFieldSet().fields, ...(opts.fields ?? [])],
    },
  });
  if (res.status !== 200) throw new Error(`could not create a field set: ${res.status} ${res.res.body}`);
  return res.json as PimFieldSet;
}

/**
 * `POST pim/metadata/create` as the annotator sends it: every field of the set, the values by
 * field name ('uri' and 'datasetUri' included), the others empty.
 */
export function saveMetadata(
  app: FastifyInstance,
  auth: Auth,
  set: { fields: PimField[] },
  values: Record<string, unknown>,
  datasetName?: string,
) {
  return call(app, {
    method: 'POST',
    url: '/api/pim/metadata/create',
    headers: auth,
    payload: { fields: set.fields.map((f) => ({ id: f.id, value: values[f.name] ?? null })), datasetName },
  });
}

/** The stored values of an image under a set, by field name (their display text with `display`). */
export async function storedByName(
  app: FastifyInstance,
  auth: Auth,
  set: { uuid: string; fields: PimField[] },
  uri: string,
  key: 'value' | 'display' = 'value',
): Promise<Record<string, string>> {
  const res = await call(app, {
    method: 'GET',
    url: `/api/pim/metadata/get?uri=${encodeURIComponent(uri)}&fieldsetid=${set.uuid}`,
    headers: auth,
  });
  if (res.status !== 200) throw new Error(`could not read stored metadata: ${res.status} ${res.res.body}`);
  const nameOf = new Map(set.fields.map((f) => [f.id, f.name]));
  return Object.fromEntries((res.json as { field: { id: string }; value: string; display: string }[]).map((v) => [nameOf.get(v.field.id), v[key]]));
}
