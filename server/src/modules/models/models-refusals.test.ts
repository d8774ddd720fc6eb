import { randomUUID } from 'node:crypto';
import { MODEL_KINDS, MODEL_KIND_INFO, type ModelKind } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFileFor, zipOf } from '../../test-support/model-files.js';
import { createForm, createModel } from '../../test-support/models.js';
import { type FormPart, heldBody, multipartBody } from '../../test-support/multipart-body.js';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

/** What a refused create must leave unchanged: model rows, stored files, files in the store and in tmp. */
async function leftovers(t: TestApp): Promise<number[]> {
  const db = t.app.database.db;
  const count = async (table: 'pim_model' | 'stored_file') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const files = dataDirFiles(t.dataDir);
  return [await count('pim_model'), await count('stored_file'), files.store().length, files.tmp().length];
}

describe('models: what is refused, and that a refusal leaves nothing', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let user: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { admin: true })).auth;
    user = (await signedInUser(t.app)).auth;
  });
  afterAll(() => t.close());

  const post = (kind: ModelKind, form: { payload: Buffer; headers: Record<string, string> }, auth = admin) =>
    call(t.app, { method: 'POST', url: `/api/${MODEL_KIND_INFO[kind].basePath}`, headers: { ...auth, ...form.headers }, payload: form.payload });

  async function refused(kind: ModelKind, form: { payload: Buffer; headers: Record<string, string> }, status: number, message: string | RegExp) {
    const before = await leftovers(t);
    const res = await post(kind, form);
    expect(res.status, `${kind}: ${JSON.stringify(res.json)}`).toBe(status);
    if (typeof message === 'string') expect(res.json.message).toBe(message);
    else expect(res.json.message).toMatch(message);
    expect(await leftovers(t)).toEqual(before);
  }

  it.each(MODEL_KINDS)('%s: refuses a file of the wrong type with 415, and the files of the other formats', async (kind) => {
    const info = MODEL_KIND_INFO[kind];
    const label = { label: 'Wrong', language: info.hasLanguage ? 'lat' : undefined };
    const text = { fileName: `model${info.accept[0]}`, bytes: Buffer.from('This is a text file, whatever its name says.\n'.repeat(10)) };
    await refused(kind, createForm(kind, text, label), 415, /^A .+ model must be .+; this file is (not one|neither)\.$/);
    const others = MODEL_KINDS.filter((k) => MODEL_KIND_INFO[k].format !== info.format && !(info.format === 'torch-checkpoint' && MODEL_KIND_INFO[k].format === 'zip'));
    for (const other of others) await refused(kind, createForm(kind, await modelFileFor(other), label), 415, /must be/);
  });

  it('refuses an empty zip, a damaged zip, a Loghi zip without config.json and a Siamese zip without a model', async () => {
    await refused('laypa', createForm('laypa', { fileName: 'empty.zip', bytes: await zipOf({}) }, { label: 'Empty' }), 400, 'The zip is empty.');
    const good = (await modelFileFor('loghihtr')).bytes;
    await refused(
      'loghihtr',
      createForm('loghihtr', { fileName: 'cut.zip', bytes: good.subarray(0, good.length - 40) }, { label: 'Cut' }),
      400,
      'This zip file is damaged: its table of contents cannot be read.',
    );
    await refused(
      'loghihtr',
      createForm('loghihtr', { fileName: 'noconfig.zip', bytes: await zipOf({ 'model/charlist.txt': 'abc' }) }, { label: 'No config' }),
      400,
      "A Loghi HTR model zip must contain the model's config.json.",
    );
    await refused('siamesenetwork', createForm('siamesenetwork', { fileName: 's.zip', bytes: await zipOf({ 'x.txt': 'x' }) }, { label: 'S' }), 400, /SavedModel/);
  });

  it('wants a label (a title for Kraken and Tesseract 4) of at most 255 characters, a known language and a file', async () => {
    const laypa = await modelFileFor('laypa');
    await refused('laypa', createForm('laypa', laypa), 400, 'Give the model a label.');
    await refused('laypa', createForm('laypa', laypa, { label: '   ' }), 400, 'Give the model a label.');
    await refused('laypa', createForm('laypa', laypa, { label: 'x'.repeat(256) }), 400, 'A label can be at most 255 characters.');
    const tesseract = await modelFileFor('tesseract4');
    await refused('tesseract4', createForm('tesseract4', tesseract, { language: 'nld' }), 400, 'Give the model a title.');
    await refused('tesseract4', createForm('tesseract4', tesseract, { label: 'T' }), 400, 'Choose the language of the Tesseract 4 model.');
    await refused('kraken', createForm('kraken', await modelFileFor('kraken'), { label: 'K', language: 'klingonish' }), 400, '"klingonish" is not an ISO 639 language code.');
    await refused('laypa', multipartBody([{ name: 'label', value: 'No file' }]), 400, 'Choose the model file: the form has no file in the part named "file".');
    await refused(
      'laypa',
      multipartBody([{ name: 'label', value: 'Wrong part' }, { name: 'model', fileName: 'm.zip', bytes: laypa.bytes }]),
      400,
      'Send the file in the part named "file", not "model".',
    );
    const json = await call(t.app, { method: 'POST', url: '/api/pim/laypa/model', headers: admin, payload: { label: 'json' } });
    expect(json.status).toBe(400);
  });

  it('refuses bad fields sent before the file when the file starts, staging none of it, while the upload still runs', async () => {
    for (const [kind, fields, message] of [
      ['kraken', [{ name: 'title', value: ' ' }, { name: 'language', value: 'nld' }], 'Give the model a title.'],
      ['kraken', [{ name: 'title', value: 'K' }, { name: 'language', value: 'klingonish' }], '"klingonish" is not an ISO 639 language code.'],
      ['laypa', [{ name: 'label', value: 'x'.repeat(256) }], 'A label can be at most 255 characters.'],
    ] as [ModelKind, FormPart[], string][]) {
      const before = await leftovers(t);
      const file = await modelFileFor(kind);
      const bytes = Buffer.concat([file.bytes, Buffer.alloc(4 * 1024 * 1024, 1)]);
      const { payload, headers } = multipartBody([...fields, { name: 'file', fileName: file.fileName, bytes }], { cutOff: true });
      const body = heldBody(payload);
      const res = await call(t.app, { method: 'POST', url: `/api/${MODEL_KIND_INFO[kind].basePath}`, headers: { ...admin, ...headers }, payload: body.stream });
      expect(await leftovers(t)).toEqual(before);
      body.release();
      expect({ status: res.status, message: res.json.message }).toEqual({ status: 400, message });
    }
  });

  it('refuses a file over PIM_MODEL_MAX_MB with 413 and keeps nothing of it', async () => {
    const small = await createTestApp({ PIM_MODEL_MAX_MB: '0.01' });
    try {
      const smallAdmin = (await signedInUser(small.app, { admin: true })).auth;
      const big = { fileName: 'big.zip', bytes: await zipOf({ 'config.json': '{}', 'weights.bin': Buffer.alloc(20_000, 1) }, true) };
      const before = await leftovers(small);
      const res = await createModel(small.app, smallAdmin, 'loghihtr', { file: big });
      expect(res.status).toBe(413);
      expect(res.json.message).toBe('The file is larger than the limit of 10 KB.');
      expect(await leftovers(small)).toEqual(before);
      const fits = await createModel(small.app, smallAdmin, 'loghihtr');
      expect(fits.status).toBe(201);
    } finally {
      await small.close();
    }
  });

  it('lets only admins create, delete and publish (403), nobody anonymous (401)', async () => {
    const model = (await createModel(t.app, admin, 'laypa')).json;
    const before = await leftovers(t);
    expect((await createModel(t.app, user, 'laypa')).status).toBe(403);
    expect((await createModel(t.app, {}, 'kraken')).status).toBe(401);
    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/laypa/model/${model.uuid}`, headers: user })).status).toBe(403);
    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/laypa/model/${model.uuid}` })).status).toBe(401);
    expect((await call(t.app, { method: 'PUT', url: `/api/pim/laypa/model/${model.uuid}/makepublic`, headers: user })).status).toBe(403);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/laypa/model' })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: `/api/pim/laypa/model/${model.uuid}/binary` })).status).toBe(401);
    expect(await leftovers(t)).toEqual(before);
  });

  it('answers 404 for an unknown model, one of another kind, and make public on a kind without it; 400 for a malformed id', async () => {
    const kraken = (await createModel(t.app, admin, 'kraken')).json;
    const unknown = randomUUID();
    for (const [method, url] of [
      ['GET', `/api/pim/laypa/model/${unknown}`],
      ['GET', `/api/pim/laypa/model/${unknown}/binary`],
      ['DELETE', `/api/pim/laypa/model/${unknown}`],
      ['PUT', `/api/pim/laypa/model/${unknown}/makepublic`],
      ['PUT', `/api/pim/loghihtr/model/${unknown}/makeprivate`],
      ['GET', `/api/pim/tesseract4model/${kraken.uuid}`],
      ['DELETE', `/api/pim/pylaiamodel/${kraken.uuid}`],
      ['PUT', `/api/pim/krakenmodel/${kraken.uuid}/makepublic`],
    ] as const) {
      const res = await call(t.app, { method, url, headers: admin });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect((await call(t.app, { method: 'GET', url: `/api/pim/laypa/model/${unknown}`, headers: admin })).json.message).toBe(
      `There is no Laypa model with id ${unknown}.`,
    );
    for (const [method, url] of [
      ['GET', '/api/pim/krakenmodel/not-a-uuid'],
      ['GET', '/api/pim/krakenmodel/not-a-uuid/binary'],
      ['DELETE', '/api/pim/krakenmodel/12345'],
      ['PUT', '/api/pim/laypa/model/12345/makepublic'],
    ] as const) {
      const res = await call(t.app, { method, url, headers: admin });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.json.message).toMatch(/The model id must be a UUID/);
    }
    expect((await call(t.app, { method: 'GET', url: `/api/pim/krakenmodel/${kraken.uuid}`, headers: admin })).status).toBe(200);
  });
});
