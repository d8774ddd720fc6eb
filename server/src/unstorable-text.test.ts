import { randomUUID } from 'node:crypto';
import { MODEL_KIND_INFO, MODEL_KINDS } from '@pim/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testFont } from './test-support/font-files.js';
import { modelFileFor } from './test-support/model-files.js';
import { type FormPart, multipartBody } from './test-support/multipart-body.js';
import { call, createTestApp, signedInUser, type TestApp } from './test-support/test-app.js';

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/** One request with a bad character in one place, and where the answer must say it is. */
interface Probe {
  route: string;
  request: InjectOptions;
  where: string;
}

const NUL = 'U+0000 (NUL)';
const refusal = (character: string, where: string) => ({
  error: 'bad_request',
  message: `The request contains a character that cannot be stored: ${character} in ${where}.`,
});

/**
 * Every route of the OpenAPI document, called by an admin with U+0000 in each path parameter,
 * each query parameter and each top-level field of its JSON body in turn, answers 400 with the
 * one message that says where: never a 500 from the database, never a route's own error first.
 */
describe('characters that cannot be stored, on every route', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { admin: true })).auth;
  });
  afterAll(() => t.close());

  async function probes(): Promise<Probe[]> {
    const doc = (await call(t.app, { method: 'GET', url: '/api/openapi.json' })).json as { paths: Record<string, Record<string, Operation>> };
    const found: Probe[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path}`;
        const params = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        const url = (bad?: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === bad ? '%00' : randomUUID()));
        const base = { method: method.toUpperCase() as InjectOptions['method'], headers: admin };
        for (const name of params) found.push({ route, request: { ...base, url: url(name) }, where: `params.${name}` });
        for (const p of (op.parameters ?? []).filter((q) => q.in === 'query')) {
          found.push({ route, request: { ...base, url: `${url()}?${p.name}=%00` }, where: `query.${p.name}` });
        }
        const json = op.requestBody?.content['application/json'];
        if (!json) continue;
        const fields = Object.keys(json.schema?.properties ?? {});
        for (const field of fields.length > 0 ? fields : ['note']) {
          found.push({ route, request: { ...base, url: url(), payload: { [field]: 'a\u0000b' } }, where: `body.${field}` });
        }
      }
    }
    return found;
  }

  it('refuses U+0000 in every path parameter, query parameter and JSON body field with 400', async () => {
    const all = await probes();
    const routes = new Set(all.map((p) => p.route));
    expect(routes.size).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const probe of all) {
      const res = await call(t.app, probe.request);
      const plain = refusal(NUL, probe.where);
      // The search calls answer in Elasticsearch's error shape, with the same sentence.
      const elastic = { type: 'bad_request', reason: plain.message };
      const want = probe.route.includes('/pim/elastic/') ? { error: { ...elastic, root_cause: [elastic] }, status: 400 } : plain;
      if (res.status !== 400 || JSON.stringify(res.json) !== JSON.stringify(want)) {
        failures.push(`${probe.route} (${probe.where}): ${res.status} ${res.res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a lone surrogate in a JSON body, a nested field and a field name too', async () => {
    const create = (payload: unknown) => call(t.app, { method: 'POST', url: '/api/pim/pimgroups/create', headers: admin, payload: payload as object });
    const lone = 'U+D800 (half of a surrogate pair, without its other half)';
    expect((await create({ name: 'Half \uD800' })).json).toEqual(refusal(lone, 'body.name'));
    const fieldSet = await call(t.app, {
      method: 'POST',
      url: '/api/pim/pimfieldset/create',
      headers: admin,
      payload: { name: 'Set', publicPimFieldSet: false, fields: [{ name: 'ok', type: 'text' }, { name: 'bad\u0000', type: 'text' }] },
    });
    expect(fieldSet.json).toEqual(refusal(NUL, 'body.fields[1].name'));
    expect((await create({ name: 'x', '\u0000': 1 })).json).toEqual(refusal(NUL, 'the name of body["\\u0000"]'));
  });

  it('refuses U+0000 in the text fields and the file name of the font and model forms', async () => {
    const forms: { url: string; parts: FormPart[]; where: string }[] = [
      {
        url: '/api/pim/fontdescription/',
        parts: [{ name: 'uri', value: 'https://fonts.example.org/\u0000' }, { name: 'file', fileName: 'a.ttf', bytes: testFont() }],
        where: 'the form field "uri"',
      },
      {
        url: '/api/pim/fontdescription/',
        parts: [{ name: 'uri', value: 'https://fonts.example.org/x' }, { name: 'file', fileName: 'a\u0000.ttf', bytes: testFont() }],
        where: 'the file name',
      },
    ];
    for (const kind of MODEL_KINDS) {
      const info = MODEL_KIND_INFO[kind];
      const file = await modelFileFor(kind);
      forms.push({
        url: `/api/${info.basePath}`,
        parts: [{ name: info.nameField, value: 'Model \u0000' }, { name: 'file', ...file }],
        where: `the form field "${info.nameField}"`,
      });
    }
    for (const form of forms) {
      const { payload, headers } = multipartBody(form.parts);
      const res = await call(t.app, { method: 'POST', url: form.url, headers: { ...admin, ...headers }, payload });
      expect(res.status, `${form.url} ${form.where}`).toBe(400);
      expect(res.json, `${form.url} ${form.where}`).toEqual(refusal(NUL, form.where));
    }
    const stored = await t.app.database.db.selectFrom('stored_file').select('id').execute();
    expect(stored).toEqual([]);
  });
});
