import fs from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, quadrantImage, uploadImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { fixturePath } from '../../test-support/fixtures.js';

const SCHEMA = fixturePath('iiif', 'schema', 'iiif_3_0.json');
const haveSchema = fs.existsSync(SCHEMA);
if (!haveSchema) console.warn(`Skipping IIIF schema validation: ${SCHEMA} is absent.`);

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

describe('IIIF Presentation 3 manifests', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  let images: string[];
  let validate: ValidateFunction | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Manifest Owner' });
    setId = await createSet(t.app, owner.auth, 'Letters');
    const first = await uploadImage(t.app, owner.auth, setId, await quadrantImage(400, 300), 'page 1.png');
    const second = await uploadImage(t.app, owner.auth, setId, await quadrantImage(300, 400), 'page 2.png');
    images = [first, second];
    if (haveSchema) {
      const ajv = new Ajv({ strict: false });
      addFormats(ajv);
      validate = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA, 'utf8')));
      // The validator really rejects: an upstream fixture known to be broken fails it.
      const broken = fixturePath('iiif', 'validator_fixtures', '3', 'broken_simple_image.json');
      if (fs.existsSync(broken)) expect(validate(JSON.parse(fs.readFileSync(broken, 'utf8')))).toBe(false);
    }
  });
  afterAll(() => t.close());

  const expectValid = (manifest: unknown) => {
    if (!validate) return;
    const ok = validate(manifest);
    expect(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toBe(true);
  };

  it('describes a set: a canvas per image in order, painting annotations with the image service', async () => {
    const res = await call(t.app, { method: 'GET', url: `/api/pim/imageset/${setId}/manifest`, headers: owner.auth });
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toMatch(/^application\/ld\+json; ?profile="http:\/\/iiif.io\/api\/presentation\/3\/context.json"/);
    const m = res.json;
    const manifestId = `http://pim.test/api/pim/imageset/${setId}/manifest`;
    expect(m).toMatchObject({
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      id: manifestId,
      type: 'Manifest',
      label: { none: ['Letters'] },
    });
    expect(m.summary).toBeUndefined();
    expect(m.metadata).toEqual(
      expect.arrayContaining([
        { label: { en: ['Name'] }, value: { none: ['Letters'] } },
        { label: { en: ['Owner'] }, value: { none: ['Manifest Owner'] } },
      ]),
    );
    const service = (id: string) => `http://pim.test/iiif/3/${id}`;
    expect(m.thumbnail[0]).toMatchObject({ id: `${service(images[0]!)}/full/283,212/0/default.jpg`, type: 'Image', width: 283, height: 212 });
    expect(m.items.map((c: { label: unknown }) => c.label)).toEqual([{ none: ['page 1'] }, { none: ['page 2'] }]);
    const canvas = m.items[0];
    const canvasId = `http://pim.test/api/pim/imageset/${setId}/canvas/${images[0]}`;
    expect(canvas).toMatchObject({ id: canvasId, type: 'Canvas', width: 400, height: 300 });
    expect(canvas.items[0].type).toBe('AnnotationPage');
    expect(canvas.items[0].items[0]).toEqual({
      id: `${canvasId}/page/image`,
      type: 'Annotation',
      motivation: 'painting',
      target: canvasId,
      body: {
        id: `${service(images[0]!)}/full/max/0/default.jpg`,
        type: 'Image',
        format: 'image/jpeg',
        width: 400,
        height: 300,
        service: [{ id: service(images[0]!), type: 'ImageService3', profile: 'level2' }],
      },
    });
    expect(m.items[1]).toMatchObject({ width: 300, height: 400 });
    expectValid(m);

    // The painting body and the thumbnail are real Image API answers.
    for (const url of [canvas.items[0].items[0].body.id, m.thumbnail[0].id]) {
      const image = await t.app.inject({ method: 'GET', url: url.replace('http://pim.test', ''), headers: owner.auth });
      expect(image.statusCode).toBe(200);
    }
  });

  it('describes one image alone', async () => {
    const res = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${images[1]}/manifest`, headers: owner.auth });
    expect(res.status).toBe(200);
    const manifestId = `http://pim.test/api/pim/documentimage/${images[1]}/manifest`;
    expect(res.json).toMatchObject({ id: manifestId, type: 'Manifest', label: { none: ['page 2'] } });
    expect(res.json.items).toHaveLength(1);
    expect(res.json.items[0].id).toBe(`http://pim.test/api/pim/documentimage/${images[1]}/canvas/${images[1]}`);
    expectValid(res.json);
  });

  it('answers 404 no_canvases for a set without images: a Presentation 3 manifest needs a canvas', async () => {
    const empty = await createSet(t.app, owner.auth, 'Empty');
    const res = await call(t.app, { method: 'GET', url: `/api/pim/imageset/${empty}/manifest`, headers: owner.auth });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({
      error: 'no_canvases',
      message: 'The image set Empty has no images, so it has no manifest: a manifest needs at least one canvas.',
    });
  });

  it('carries the set settings in summary and metadata, and a public set is readable by others', async () => {
    const publicSet = await createSet(t.app, owner.auth, 'Charters');
    await uploadImage(t.app, owner.auth, publicSet, await quadrantImage(200, 100), 'charter.png');
    const update = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: {
        uuid: publicSet,
        imageset: 'Charters',
        prettyName: 'Charters of Évora',
        description: 'Royal charters, 1300-1500',
        license: 'CC BY 4.0',
        publicDocumentImageSet: true,
      },
    });
    expect(update.status, update.res.body).toBe(200);
    const other = await signedInUser(t.app);
    const res = await call(t.app, { method: 'GET', url: `/api/pim/imageset/${publicSet}/manifest`, headers: other.auth });
    expect(res.status).toBe(200);
    expect(res.json.summary).toEqual({ none: ['Royal charters, 1300-1500'] });
    expect(res.json.metadata).toEqual(
      expect.arrayContaining([
        { label: { en: ['Pretty name'] }, value: { none: ['Charters of Évora'] } },
        { label: { en: ['Description'] }, value: { none: ['Royal charters, 1300-1500'] } },
        { label: { en: ['License'] }, value: { none: ['CC BY 4.0'] } },
      ]),
    );
    expectValid(res.json);
    const tile = await t.app.inject({ method: 'GET', url: `/iiif/3/${res.json.items[0].id.split('/').pop()}/full/max/0/default.jpg`, headers: other.auth });
    expect(tile.statusCode).toBe(200);
  });

  it('keeps manifests from callers who may not read the set or image', async () => {
    const other = await signedInUser(t.app);
    for (const url of [`/api/pim/imageset/${setId}/manifest`, `/api/pim/documentimage/${images[0]}/manifest`]) {
      expect((await call(t.app, { method: 'GET', url, headers: other.auth })).status).toBe(404);
      expect((await call(t.app, { method: 'GET', url })).status).toBe(401);
    }
    const bad = await call(t.app, { method: 'GET', url: '/api/pim/imageset/nope/manifest', headers: owner.auth });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('The id must be a UUID.');
  });
});
