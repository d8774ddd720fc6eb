import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { MODEL_KINDS, MODEL_KIND_INFO, modelDownloadName, modelPageSchema, modelSchema, type Model, type ModelKind } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFileGarbage } from '../../cli/files-gc.js';
import { LAYPA_YAML, LOGHI_CONFIG, modelFileFor, tinySafetensors, zipOf } from '../../test-support/model-files.js';
import { createModel } from '../../test-support/models.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { openOnnxEmbedder } from '../similarity/onnx-embedder.js';
import { rowMeanModel } from '../similarity/onnx-model.test-support.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('models: create, list, get, download, pick and delete every kind', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await signedInUser(t.app, { admin: true, name: 'Model Admin' });
    admin = a.auth;
    adminId = a.userId;
  });
  afterAll(() => t.close());

  const get = (url: string, headers = admin) => call(t.app, { method: 'GET', url, headers });
  const listOf = async (kind: ModelKind): Promise<Model[]> => {
    const info = MODEL_KIND_INFO[kind];
    const res = await get(`/api/${info.listPath}${kind === 'laypa' ? '?page=0&pageSize=50' : ''}`);
    expect(res.status).toBe(200);
    return kind === 'laypa' ? modelPageSchema.parse(res.json).results : (res.json as Model[]);
  };
  const inStore = (hash: string) => fs.existsSync(t.app.services.files.pathOf(hash));

  it.each(MODEL_KINDS)('%s: an admin uploads a model, sees it in the list, the detail, the picker and the download, then deletes it', async (kind) => {
    const info = MODEL_KIND_INFO[kind];
    const file = await modelFileFor(kind);
    const created = await createModel(t.app, admin, kind, { file, label: `My ${kind} model` });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const model = modelSchema.parse(created.json);
    expect(model).toMatchObject({
      kind,
      label: `My ${kind} model`,
      publicModel: !info.hasVisibility,
      owner: { uuid: adminId, name: 'Model Admin' },
      fileName: file.fileName,
      size: file.bytes.length,
    });
    expect(model.title).toBe(info.nameField === 'title' ? `My ${kind} model` : undefined);
    expect(model.language).toEqual(info.hasLanguage ? { code: 'nld', name: 'Dutch' } : null);

    expect((await listOf(kind)).map((m) => m.uuid)).toContain(model.uuid);
    const one = await get(`/api/${info.basePath}/${model.uuid}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(created.json);

    const picked = await get(`/api/${info.basePath}/autocomplete?filter=${encodeURIComponent(`my ${kind}`)}`);
    expect(picked.status).toBe(200);
    expect(picked.json).toEqual({ results: [{ uuid: model.uuid, name: `My ${kind} model` }], pageSize: 20 });

    const download = await get(`/api/${info.basePath}/${model.uuid}/binary`);
    expect(download.status).toBe(200);
    expect(download.res.rawPayload.equals(file.bytes)).toBe(true);
    expect(download.res.headers['content-length']).toBe(String(file.bytes.length));
    expect(download.res.headers['content-disposition']).toBe(`attachment; filename="${modelDownloadName(model)}"`);

    const hash = sha256(file.bytes);
    expect(inStore(hash)).toBe(true);
    const deleted = await call(t.app, { method: 'DELETE', url: `/api/${info.basePath}/${model.uuid}`, headers: admin });
    expect(deleted.status).toBe(204);
    expect((await get(`/api/${info.basePath}/${model.uuid}`)).status).toBe(404);
    expect((await listOf(kind)).map((m) => m.uuid)).not.toContain(model.uuid);
    expect(inStore(hash)).toBe(false);
    const rows = await t.app.database.db.selectFrom('stored_file').select('id').where('sha256', '=', hash).execute();
    expect(rows).toEqual([]);
  });

  it('names downloads as the spec says: zip, ckpt, traineddata, the Kraken file type, and Laypa by list or detail page', async () => {
    const laypa = (await createModel(t.app, admin, 'laypa')).json as Model;
    const binary = `/api/pim/laypa/model/${laypa.uuid}/binary`;
    expect((await get(binary)).res.headers['content-disposition']).toBe(`attachment; filename="laypamodel_${laypa.uuid}.zip"`);
    expect((await get(`${binary}?from=detail`)).res.headers['content-disposition']).toBe(`attachment; filename="layparmodel_${laypa.uuid}.zip"`);
    expect((await get(`${binary}?from=elsewhere`)).status).toBe(400);

    const named: [ModelKind, string][] = [
      ['loghihtr', 'zip'],
      ['p2pala', 'zip'],
      ['siamesenetwork', 'zip'],
      ['pylaia', 'ckpt'],
      ['tesseract4', 'traineddata'],
      ['kraken', 'mlmodel'],
    ];
    for (const [kind, extension] of named) {
      const model = (await createModel(t.app, admin, kind)).json as Model;
      const res = await get(`/api/${MODEL_KIND_INFO[kind].basePath}/${model.uuid}/binary`);
      expect(res.res.headers['content-disposition'], kind).toBe(`attachment; filename="${kind}model_${model.uuid}.${extension}"`);
    }
    const safetensors = (await createModel(t.app, admin, 'kraken', { file: { fileName: 'catmus.safetensors', bytes: tinySafetensors() } })).json as Model;
    expect(safetensors.properties).toMatchObject({ modelFormat: 'safetensors' });
    const res = await get(`/api/pim/krakenmodel/${safetensors.uuid}/binary`);
    expect(res.res.headers['content-disposition']).toBe(`attachment; filename="krakenmodel_${safetensors.uuid}.safetensors"`);
  });

  it("keeps the model's own configuration as its properties: Loghi's config.json, Laypa's yaml and weights", async () => {
    const loghi = (await createModel(t.app, admin, 'loghihtr')).json as Model;
    expect(loghi.properties).toEqual(LOGHI_CONFIG);
    const laypa = (await createModel(t.app, admin, 'laypa')).json as Model;
    expect(laypa.properties).toMatchObject({
      MODEL: { META_ARCHITECTURE: 'SemanticSegmentor' },
      NAME: 'baseline',
      configFile: 'baseline/config.yaml',
      weightFiles: ['baseline/model_best_mIoU.pth'],
    });
    const tesseract = (await createModel(t.app, admin, 'tesseract4')).json as Model;
    expect(tesseract.properties).toEqual({ components: 2 });
  });

  it('takes a Siamese network model as an ONNX zip, which the server can then run on line images', async () => {
    const bytes = await zipOf({ 'siamese/model.onnx': rowMeanModel(2, 3), 'siamese/notes.txt': 'exported from Keras' });
    const created = await createModel(t.app, admin, 'siamesenetwork', { file: { fileName: 'siamese-onnx.zip', bytes } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect((created.json as Model).properties).toEqual({
      modelFormat: 'ONNX',
      modelFile: 'siamese/model.onnx',
      files: ['siamese/model.onnx', 'siamese/notes.txt'],
      fileCount: 2,
    });
    const embedder = await openOnnxEmbedder(t.app.services.files.pathOf(sha256(bytes)), { width: 3, height: 2, channels: 1 });
    try {
      const [vector] = await embedder.embed([{ pixels: Uint8Array.from([0, 0, 0, 255, 255, 255]), width: 3, height: 2 }]);
      // Row means 0 and 1, scaled to length 1.
      expect([...vector!]).toEqual([0, 1]);
    } finally {
      await embedder.close();
    }
  });

  it('names a P2PaLA model after its file when no label is given, and takes ISO 639-1 codes and historical languages', async () => {
    const file = await modelFileFor('p2pala');
    const p2pala = await createModel(t.app, admin, 'p2pala', { file, label: '  ' });
    expect(p2pala.status).toBe(201);
    expect(p2pala.json.label).toBe('bozen_lines');

    const dutch = await createModel(t.app, admin, 'tesseract4', { language: 'nl' });
    expect(dutch.json.language).toEqual({ code: 'nld', name: 'Dutch' });
    const middleDutch = await createModel(t.app, admin, 'kraken', { language: 'DUM' });
    expect(middleDutch.json.language).toEqual({ code: 'dum', name: 'Middle Dutch (ca. 1050-1350)' });
  });

  it('lists Laypa models a page at a time, newest first, with the total', async () => {
    const before = (await get('/api/pim/laypa/model?page=0&pageSize=10')).json.total as number;
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) made.push(((await createModel(t.app, admin, 'laypa', { label: `Page model ${i}` })).json as Model).uuid);
    const first = await get('/api/pim/laypa/model?page=0&pageSize=10');
    expect(first.json.total).toBe(before + 3);
    expect(first.json.pageSize).toBe(10);
    expect(first.json.results.slice(0, 3).map((m: Model) => m.uuid)).toEqual([...made].reverse());
    expect((await get('/api/pim/laypa/model?page=0&pageSize=7')).status).toBe(400);
  });

  it('lists the other kinds by label', async () => {
    for (const label of ['beta', 'Alpha', 'gamma']) await createModel(t.app, admin, 'pylaia', { label: `Sorted ${label}` });
    const labels = (await listOf('pylaia')).map((m) => m.label).filter((l) => l.startsWith('Sorted'));
    expect(labels).toEqual(['Sorted Alpha', 'Sorted beta', 'Sorted gamma']);
  });

  it('keeps the file of a model that pim files gc sweeps past, and a file two models share until both are gone', async () => {
    const bytes = await zipOf({ 'saved_model.pb': 'shared bytes' });
    const file = { fileName: 'shared.zip', bytes };
    const one = (await createModel(t.app, admin, 'siamesenetwork', { file })).json as Model;
    const two = (await createModel(t.app, admin, 'siamesenetwork', { file })).json as Model;
    const lines: string[] = [];
    await collectFileGarbage(t.app.database.db, t.app.services.files, { out: (s) => lines.push(s), err: (s) => lines.push(s) }, false);
    expect(lines).toEqual(['Every stored file is in use: nothing to free.']);
    expect(inStore(sha256(bytes))).toBe(true);

    await call(t.app, { method: 'DELETE', url: `/api/pim/siamesenetworkmodel/${one.uuid}`, headers: admin });
    expect(inStore(sha256(bytes))).toBe(true);
    const download = await get(`/api/pim/siamesenetworkmodel/${two.uuid}/binary`);
    expect(download.res.rawPayload.equals(bytes)).toBe(true);
    await call(t.app, { method: 'DELETE', url: `/api/pim/siamesenetworkmodel/${two.uuid}`, headers: admin });
    expect(inStore(sha256(bytes))).toBe(false);
  });

  it('lets an API key with ADMIN add a Loghi line detection model, which then has no owner', async () => {
    const key = await call(t.app, { method: 'POST', url: '/api/pim/apikey', headers: admin, payload: { userName: 'minion', roles: ['ADMIN'] } });
    const res = await createModel(t.app, { authorization: `ApiKey ${key.json.apiKey}` }, 'loghilinedetection', { label: 'From a minion' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ owner: null, publicModel: true, properties: { files: ['lines/config.yaml', 'lines/model_final.pth'], fileCount: 2 } });
  });

  it('offers ISO 639 languages by code or name, the exact code first, living languages before historical ones', async () => {
    const user = await signedInUser(t.app);
    const search = async (filter: string, skip = 0) =>
      (await get(`/api/pim/language/autocomplete?filter=${encodeURIComponent(filter)}&skip=${skip}`, user.auth)).json as {
        results: { code: string; name: string }[];
        pageSize: number;
      };
    const dutch = await search('dutch');
    expect(dutch.pageSize).toBe(20);
    expect(dutch.results[0]).toEqual({ code: 'nld', name: 'Dutch' });
    expect(dutch.results.map((l) => l.code)).toEqual(expect.arrayContaining(['dum', 'odt']));
    expect(dutch.results.findIndex((l) => l.code === 'dum')).toBeGreaterThan(dutch.results.findIndex((l) => l.code === 'nld'));
    for (const code of ['lat', 'dum', 'enm', 'frm', 'grc']) expect((await search(code)).results[0]?.code, code).toBe(code);
    expect((await search('LATIN')).results[0]).toEqual({ code: 'lat', name: 'Latin' });
    expect((await search('nl')).results[0]).toEqual({ code: 'nld', name: 'Dutch' });
    const all = await search('');
    const next = await search('', 20);
    expect(all.results).toHaveLength(20);
    expect(next.results[0]).not.toEqual(all.results[0]);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/language/autocomplete' })).status).toBe(401);
  });

  it('keeps yaml and JSON configurations exactly as the model has them', async () => {
    const file = { fileName: 'm.zip', bytes: await zipOf({ 'a/config.yaml': LAYPA_YAML, 'a/b/other.yaml': 'NAME: deeper\n' }) };
    const laypa = (await createModel(t.app, admin, 'laypa', { file })).json as Model;
    expect(laypa.properties).toMatchObject({ NAME: 'baseline', configFile: 'a/config.yaml', weightFiles: [] });
  });
});
