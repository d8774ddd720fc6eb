import type { PimFieldSet } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, uploadImage } from '../../test-support/iiif-images.js';
import { createFieldSet, field, saveMetadata, storedByName } from '../../test-support/metadata.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { testImage } from '../../test-support/upload-files.js';
import { imageServiceUrl, setManifestUrl } from '../iiif/links.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** A real external manifest address: its slashes, query and long path travel as one %2F-encoded segment. */
const EXTERNAL_MANIFEST = 'https://iiif.example.net/iiif/2/collections/ms%2012/a-rather-long-path-to-exceed-the-default-limit/manifest.json?lang=nl&v=2';

describe('metadata overview, CSV export and annotated datasets', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let set: PimFieldSet;
  let imageSetId: string;
  let images: string[];
  const image = (id: string) => imageServiceUrl(t.links, id);
  const get = (who: User, url: string) => call(t.app, { method: 'GET', url: `/api/pim/metadata/${url}`, headers: who.auth });
  const overviewUrl = (datasetUri: string, fieldSet = set.uuid) => `${encodeURIComponent(datasetUri)}/${fieldSet}`;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    other = await signedInUser(t.app, { name: 'Other' });
    imageSetId = await createSet(t.app, owner.auth, 'Book of hours');
    images = [];
    for (const n of [1, 2, 3]) images.push(await uploadImage(t.app, owner.auth, imageSetId, await testImage('png', 30, 20), `folio-${n}.png`));
    set = await createFieldSet(t.app, owner.auth, {
      name: 'Description',
      publicPimFieldSet: true,
      fields: [field('hand', 'text', { label: 'Hand' }), field('scribe', 'pimuser', { label: 'Scribe' }), field('folio', 'numeric', { label: 'Folio' })],
    });
  });
  afterAll(() => t.close());

  it('lists our set’s images in the set’s order, one column per field by name, whatever order they were annotated in', async () => {
    const dataset = setManifestUrl(t.links, imageSetId);
    for (const i of [2, 0, 1]) {
      const res = await saveMetadata(t.app, owner.auth, set, { uri: image(images[i]!), datasetUri: dataset, hand: `hand ${i + 1}`, folio: i + 1 });
      expect(res.status).toBe(200);
    }
    await saveMetadata(t.app, owner.auth, set, { uri: image(images[0]!), datasetUri: dataset, hand: 'hand 1', scribe: other.userId, folio: 1 });
    const res = await get(owner, overviewUrl(dataset));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      fields: ['uri', 'datasetUri', 'hand', 'scribe', 'folio'],
      labels: ['uri', 'Dataset uri', 'Hand', 'Scribe', 'Folio'],
      data: [
        { uri: image(images[0]!), datasetUri: dataset, hand: 'hand 1', scribe: 'Other', folio: '1' },
        { uri: image(images[1]!), datasetUri: dataset, hand: 'hand 2', scribe: '', folio: '2' },
        { uri: image(images[2]!), datasetUri: dataset, hand: 'hand 3', scribe: '', folio: '3' },
      ],
    });
    // Others do not see the records of a private set's images.
    expect((await get(other, overviewUrl(dataset))).json.data).toEqual([]);
    // Another field set has its own records.
    const second = await createFieldSet(t.app, owner.auth, { name: 'Second' });
    expect((await get(owner, overviewUrl(dataset, second.uuid))).json).toEqual({ fields: ['uri', 'datasetUri'], labels: ['uri', 'Dataset uri'], data: [] });
  });

  it('takes an external manifest uri with %2F as one path segment and lists its images in the order they were annotated', async () => {
    const pages = ['https://iiif.example.net/img/f9/full', 'https://iiif.example.net/img/f1/full', 'https://iiif.example.net/img/f5/full'];
    for (const [i, uri] of pages.entries()) {
      expect((await saveMetadata(t.app, other.auth, set, { uri, datasetUri: EXTERNAL_MANIFEST, hand: `h${i}` }, 'MS 12')).status).toBe(200);
    }
    expect(encodeURIComponent(EXTERNAL_MANIFEST).length).toBeGreaterThan(100);
    const res = await get(owner, overviewUrl(EXTERNAL_MANIFEST));
    expect(res.status).toBe(200);
    expect(res.json.data.map((row: { uri: string }) => row.uri)).toEqual(pages);
    expect(res.json.data[0].datasetUri).toBe(EXTERNAL_MANIFEST);
    expect((await get(owner, `${encodeURIComponent(EXTERNAL_MANIFEST)}/${set.uuid}/`)).json.data).toHaveLength(3);
    expect((await get(owner, overviewUrl('https://iiif.example.net/other.json'))).json.data).toEqual([]);
    expect((await get(owner, overviewUrl(EXTERNAL_MANIFEST, 'x'))).status).toBe(400);
  });

  it('exports the overview as metadata.csv: BOM, RFC 4180 quoting, CRLF, non-Latin text, formulas made text', async () => {
    const dataset = 'https://iiif.example.net/manifests/tricky.json';
    const tricky = [
      ['https://iiif.example.net/img/t1', 'comma, "quoted"'],
      ['https://iiif.example.net/img/t2', 'line 1\nline 2\r\nline 3'],
      ['https://iiif.example.net/img/t3', 'Ἐν ἀρχῇ · בְּרֵאשִׁית · 永和九年 · 📜'],
      ['https://iiif.example.net/img/t4', '=HYPERLINK("http://evil.test")'],
      ['https://iiif.example.net/img/t5', ''],
    ];
    for (const [uri, hand] of tricky) expect((await saveMetadata(t.app, owner.auth, set, { uri, datasetUri: dataset, hand, folio: '-3' })).status).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: `/api/pim/metadata/${overviewUrl(dataset)}/export`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="metadata.csv"');
    const row = (uri: string, hand: string) => `${uri},${dataset},${hand},,-3\r\n`;
    const expected =
      '\uFEFFuri,datasetUri,hand,scribe,folio\r\n' +
      row(tricky[0]![0]!, '"comma, ""quoted"""') +
      row(tricky[1]![0]!, '"line 1\nline 2\r\nline 3"') +
      row(tricky[2]![0]!, 'Ἐν ἀρχῇ · בְּרֵאשִׁית · 永和九年 · 📜') +
      row(tricky[3]![0]!, '"\'=HYPERLINK(""http://evil.test"")"') +
      row(tricky[4]![0]!, '');
    expect(res.rawPayload.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const hidden = await createFieldSet(t.app, owner.auth, { name: 'Hidden' });
    expect((await t.app.inject({ method: 'GET', url: `/api/pim/metadata/${overviewUrl(dataset, hidden.uuid)}/export`, headers: other.auth })).statusCode).toBe(404);
  });

  it('lists the annotated datasets by name: our set by its live name, an external one by its saved name or uri', async () => {
    const bare = 'https://iiif.example.net/manifests/no-name.json';
    await saveMetadata(t.app, other.auth, set, { uri: 'https://iiif.example.net/img/n1', datasetUri: bare });
    const names = async (who: User, onlyOwnData = false) =>
      (await get(who, `annotateddatasets?onlyOwnData=${onlyOwnData}`)).json as { datasetUri: string; datasetName: string }[];
    const dataset = setManifestUrl(t.links, imageSetId);
    expect(await names(owner)).toEqual([
      { datasetUri: dataset, datasetName: 'Book of hours' },
      { datasetUri: bare, datasetName: bare },
      { datasetUri: 'https://iiif.example.net/manifests/tricky.json', datasetName: 'https://iiif.example.net/manifests/tricky.json' },
      { datasetUri: EXTERNAL_MANIFEST, datasetName: 'MS 12' },
    ]);
    const renamed = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: { uuid: imageSetId, imageset: 'A book of hours' },
    });
    expect(renamed.status).toBe(200);
    expect((await names(owner))[0]).toEqual({ datasetUri: dataset, datasetName: 'A book of hours' });
    // Others do not see our private set; onlyOwnData keeps the datasets one annotated (or last changed).
    expect((await names(other)).map((d) => d.datasetUri)).toEqual([bare, 'https://iiif.example.net/manifests/tricky.json', EXTERNAL_MANIFEST]);
    expect((await names(other, true)).map((d) => d.datasetUri)).toEqual([bare, EXTERNAL_MANIFEST]);
    expect((await names(owner, true)).map((d) => d.datasetUri)).toEqual([dataset, 'https://iiif.example.net/manifests/tricky.json']);
    await saveMetadata(t.app, owner.auth, set, { uri: 'https://iiif.example.net/img/n1', datasetUri: bare, hand: 'owner changed it' });
    expect((await names(owner, true)).map((d) => d.datasetUri)).toContain(bare);
    expect((await names(other, true)).map((d) => d.datasetUri)).toContain(bare);
  });

  it('lists the images of a dataset with the field sets they were annotated with', async () => {
    const dataset = setManifestUrl(t.links, imageSetId);
    const extra = await createFieldSet(t.app, owner.auth, { name: 'Another look' });
    await saveMetadata(t.app, owner.auth, extra, { uri: image(images[1]!), datasetUri: dataset });
    const res = await get(owner, `annotateddatasets/${encodeURIComponent(dataset)}`);
    expect(res.json).toEqual([
      { uri: image(images[0]!), label: 'folio-1', fieldSets: [{ uuid: set.uuid, name: 'Description' }] },
      {
        uri: image(images[1]!),
        label: 'folio-2',
        fieldSets: [
          { uuid: extra.uuid, name: 'Another look' },
          { uuid: set.uuid, name: 'Description' },
        ],
      },
      { uri: image(images[2]!), label: 'folio-3', fieldSets: [{ uuid: set.uuid, name: 'Description' }] },
    ]);
    expect((await get(other, `annotateddatasets/${encodeURIComponent(dataset)}`)).json).toEqual([]);
    const external = await get(other, `annotateddatasets/${encodeURIComponent(EXTERNAL_MANIFEST)}?onlyOwnData=true`);
    expect(external.json.map((i: { uri: string }) => i.uri)).toEqual([
      'https://iiif.example.net/img/f9/full',
      'https://iiif.example.net/img/f1/full',
      'https://iiif.example.net/img/f5/full',
    ]);
    // Images elsewhere have no label of ours: the screen shows their address.
    expect(external.json.map((i: { label: string | null }) => i.label)).toEqual([null, null, null]);
    expect((await get(owner, `annotateddatasets/${encodeURIComponent(EXTERNAL_MANIFEST)}?onlyOwnData=true`)).json).toEqual([]);
  });
});

describe('what changes to a field set do to stored values', () => {
  let t: TestApp;
  let owner: User;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const MANIFEST = 'https://iiif.example.net/manifests/changes.json';
  const valueRows = async () => Number((await t.app.database.db.selectFrom('metadata_value').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const recordRows = async () => Number((await t.app.database.db.selectFrom('metadata_record').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const update = async (set: PimFieldSet, change: (fields: PimFieldSet['fields']) => unknown[]) => {
    const res = await call(t.app, {
      method: 'POST',
      url: `/api/pim/pimfieldset/${set.uuid}/update`,
      headers: owner.auth,
      payload: { uuid: set.uuid, name: set.name, publicPimFieldSet: set.publicPimFieldSet, fields: change(set.fields) },
    });
    expect(res.status).toBe(200);
    return res.json as PimFieldSet;
  };

  it('removes the values of a field the update leaves out, keeps the others', async () => {
    const set = await createFieldSet(t.app, owner.auth, { fields: [field('keep', 'text'), field('drop', 'text')] });
    await saveMetadata(t.app, owner.auth, set, { uri: 'https://x.test/a', datasetUri: MANIFEST, keep: 'k', drop: 'd' });
    expect(await valueRows()).toBe(2);
    const updated = await update(set, (fields) => fields.slice(0, 3));
    expect(await valueRows()).toBe(1);
    expect(await storedByName(t.app, owner.auth, updated, 'https://x.test/a')).toEqual({ uri: 'https://x.test/a', datasetUri: MANIFEST, keep: 'k' });
  });

  it('carries values along a renamed select value, drops those of a removed one, and all of a field whose type changed', async () => {
    const set = await createFieldSet(t.app, owner.auth, {
      fields: [field('state', 'select', { possibleValues: [{ value: 'good' }, { value: 'poor' }, { value: 'bad' }] }), field('n', 'text')],
    });
    for (const [uri, state] of [['https://x.test/1', 'good'], ['https://x.test/2', 'poor'], ['https://x.test/3', 'bad']] as const) {
      expect((await saveMetadata(t.app, owner.auth, set, { uri, datasetUri: MANIFEST, state, n: '42' })).status).toBe(200);
    }
    const [good, poor] = set.fields[2]!.possibleValues;
    // good and poor swap their texts; bad is removed.
    const updated = await update(set, (fields) =>
      fields.map((f) => (f.name === 'state' ? { ...f, possibleValues: [{ uuid: good!.uuid, value: 'poor' }, { uuid: poor!.uuid, value: 'good' }] } : f)),
    );
    const state = async (uri: string) => (await storedByName(t.app, owner.auth, updated, uri)).state;
    expect([await state('https://x.test/1'), await state('https://x.test/2'), await state('https://x.test/3')]).toEqual(['poor', 'good', undefined]);

    const numeric = await update(updated, (fields) => fields.map((f) => (f.name === 'n' ? { ...f, type: 'numeric' } : f)));
    expect((await storedByName(t.app, owner.auth, numeric, 'https://x.test/1')).n).toBeUndefined();
  });

  it('deletes every record and value of a deleted field set', async () => {
    const set = await createFieldSet(t.app, owner.auth, { name: 'Doomed', fields: [field('a', 'text')] });
    const values = await valueRows();
    const records = await recordRows();
    for (const n of [1, 2]) await saveMetadata(t.app, owner.auth, set, { uri: `https://x.test/d${n}`, datasetUri: MANIFEST, a: 'x' });
    expect([await valueRows(), await recordRows()]).toEqual([values + 2, records + 2]);
    const res = await call(t.app, { method: 'DELETE', url: `/api/pim/pimfieldset/${set.uuid}`, headers: owner.auth });
    expect(res.status).toBe(204);
    expect([await valueRows(), await recordRows()]).toEqual([values, records]);
    const gone = await call(t.app, { method: 'GET', url: `/api/pim/metadata/${encodeURIComponent(MANIFEST)}/${set.uuid}`, headers: owner.auth });
    expect(gone.status).toBe(404);
  });
});
