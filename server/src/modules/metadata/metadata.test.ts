import { randomUUID } from 'node:crypto';
import type { PimFieldSet } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, uploadImage } from '../../test-support/iiif-images.js';
import { createFieldSet, field, saveMetadata, storedByName } from '../../test-support/metadata.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { testImage } from '../../test-support/upload-files.js';
import { imageServiceUrl, setManifestUrl } from '../iiif/links.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

const EXTERNAL_MANIFEST = 'https://iiif.example.net/manifests/ms-12/manifest.json';
const externalImage = (n: number) => `https://iiif.example.net/images/ms-12-f${n}`;

describe('metadata of an image: save and read', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let admin: User;
  let set: PimFieldSet;
  let privateSetId: string;
  let privateImage: string;
  let publicSetId: string;
  let publicImage: string;
  const image = (id: string) => imageServiceUrl(t.links, id);
  const manifest = (id: string) => setManifestUrl(t.links, id);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    other = await signedInUser(t.app, { name: 'Other Annotator' });
    admin = await signedInUser(t.app, { admin: true });
    privateSetId = await createSet(t.app, owner.auth, 'Private charters');
    privateImage = await uploadImage(t.app, owner.auth, privateSetId, await testImage('png', 40, 30), 'charter-1.png');
    publicSetId = await createSet(t.app, owner.auth, 'Public charters');
    publicImage = await uploadImage(t.app, owner.auth, publicSetId, await testImage('png', 40, 30), 'public-1.png');
    const published = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: { uuid: publicSetId, imageset: 'Public charters', publicDocumentImageSet: true },
    });
    expect(published.status).toBe(200);
    set = await createFieldSet(t.app, owner.auth, {
      name: 'Every type',
      publicPimFieldSet: true,
      fields: [
        field('checked', 'checkbox'),
        field('date', 'date', { label: 'Date' }),
        field('page', 'documentimage', { label: 'Related page' }),
        field('folios', 'numeric', { label: 'Folios' }),
        field('scribe', 'pimuser', { label: 'Scribe' }),
        field('script', 'script', { label: 'Script' }),
        field('state', 'select', { label: 'State', possibleValues: [{ value: 'good' }, { value: 'poor' }] }),
        field('title', 'text', { label: 'Title' }),
        field('notes', 'notes', { label: 'Notes' }),
      ],
    });
  });
  afterAll(() => t.close());

  const stored = (who: User, uri: string, key: 'value' | 'display' = 'value') => storedByName(t.app, who.auth, set, uri, key);

  it('stores every type, answers what is stored with display texts, and reads it back', async () => {
    const uri = image(privateImage);
    const saved = await saveMetadata(
      t.app,
      owner.auth,
      set,
      {
        uri,
        datasetUri: manifest(privateSetId),
        checked: true,
        date: '2023-02-28',
        page: privateImage.toUpperCase(),
        folios: ' 12.50 ',
        scribe: other.userId,
        script: 'Textualis',
        state: 'poor',
        title: 'Ἐν ἀρχῇ, "the beginning"',
        notes: 'line 1\nline 2',
      },
      'ignored for our own set',
    );
    expect(saved.status).toBe(200);
    const byField = (f: string) => set.fields.find((x) => x.name === f)!.id;
    expect(saved.json[0]).toEqual({ field: { id: byField('uri') }, value: uri, display: uri });
    expect(saved.json.find((v: { field: { id: string } }) => v.field.id === byField('scribe'))).toEqual({
      field: { id: byField('scribe') },
      value: other.userId,
      display: 'Other Annotator',
    });
    expect(await stored(owner, uri)).toEqual({
      uri,
      datasetUri: manifest(privateSetId),
      checked: 'true',
      date: '2023-02-28',
      page: privateImage,
      folios: '12.5',
      scribe: other.userId,
      script: 'Textualis',
      state: 'poor',
      title: 'Ἐν ἀρχῇ, "the beginning"',
      notes: 'line 1\nline 2',
    });
    expect(await stored(owner, uri, 'display')).toMatchObject({ page: 'charter-1', scribe: 'Other Annotator', folios: '12.5' });
    const res = await call(t.app, { method: 'GET', url: `/api/pim/metadata/get?uri=${encodeURIComponent(uri)}&fieldsetid=${set.uuid}`, headers: owner.auth });
    expect(res.json.map((v: { field: { id: string } }) => v.field.id)).toEqual(set.fields.map((f) => f.id));
    expect(saved.json).toEqual(res.json);
  });

  it('replaces the values on every save: an absent or empty value removes what was stored', async () => {
    const uri = externalImage(1);
    expect((await saveMetadata(t.app, other.auth, set, { uri, datasetUri: EXTERNAL_MANIFEST, title: 'First', folios: 3, notes: 'n' })).status).toBe(200);
    expect((await saveMetadata(t.app, other.auth, set, { uri, datasetUri: EXTERNAL_MANIFEST, title: 'Second', folios: '' })).status).toBe(200);
    expect(await stored(other, uri)).toEqual({ uri, datasetUri: EXTERNAL_MANIFEST, title: 'Second' });
    // A field left out of the request entirely is emptied too.
    const onlyFixed = await call(t.app, {
      method: 'POST',
      url: '/api/pim/metadata/create',
      headers: other.auth,
      payload: { fields: set.fields.slice(0, 2).map((f) => ({ id: f.id, value: f.name === 'uri' ? uri : EXTERNAL_MANIFEST })) },
    });
    expect(onlyFixed.status).toBe(200);
    expect(await stored(other, uri)).toEqual({ uri, datasetUri: EXTERNAL_MANIFEST });
    // Nothing stored for an image: an empty list.
    expect(await stored(other, externalImage(99))).toEqual({});
  });

  it('refuses a value its field cannot take, with the field named, and writes nothing', async () => {
    const uri = externalImage(2);
    const good = { uri, datasetUri: EXTERNAL_MANIFEST, title: 'Kept', folios: 7, date: '2020-01-01' };
    expect((await saveMetadata(t.app, owner.auth, set, good)).status).toBe(200);
    const before = await stored(owner, uri);
    const cases: [Record<string, unknown>, string][] = [
      [{ folios: 'twelve' }, "'Folios' takes a number, not 'twelve'."],
      [{ folios: '12abc' }, "'Folios' takes a number, not '12abc'."],
      [{ state: 'lost' }, "'lost' is not one of the values of 'State'."],
      [{ date: '2023-02-30' }, "'Date' takes a date as YYYY-MM-DD, not '2023-02-30'."],
      [{ date: '01-02-2023' }, "'Date' takes a date as YYYY-MM-DD"],
      [{ checked: 'yes' }, "'checked' is a checkbox: its value is true or false."],
      [{ script: 'Gothic' }, "'Gothic' is not a script type"],
      [{ scribe: 'someone' }, "'Scribe' takes a user: choose one in the picker."],
      [{ page: 'a page' }, "'Related page' takes an image: choose one in the picker."],
      [{ title: 'x'.repeat(2001) }, "'Title' can be at most 2000 characters long."],
      [{ scribe: randomUUID() }, "'Scribe' names the user"],
      [{ page: privateImage }, `'Related page' names the image ${privateImage}, which does not exist or which you may not see.`],
      [{ page: randomUUID() }, 'which does not exist or which you may not see.'],
    ];
    for (const [change, message] of cases) {
      const res = await saveMetadata(t.app, other.auth, set, { ...good, title: 'Changed', ...change });
      expect(res.status, message).toBe(400);
      expect(res.json.message).toContain(message);
      expect(await stored(owner, uri)).toEqual(before);
    }
    const two = await saveMetadata(t.app, other.auth, set, { ...good, folios: 'x', state: 'y' });
    expect(two.json.message).toBe("'Folios' takes a number, not 'x'. 'y' is not one of the values of 'State'.");
    // A disabled user still exists: an annotation may name them.
    const left = await signedInUser(t.app, { name: 'Left' });
    await t.app.services.users.setDisabled(left.userId, true);
    expect((await saveMetadata(t.app, other.auth, set, { ...good, scribe: left.userId })).status).toBe(200);
    expect((await stored(other, uri, 'display')).scribe).toBe('Left');
  });

  it('needs the uri of the image and of its manifest, as absolute http(s) URLs', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ datasetUri: EXTERNAL_MANIFEST }, 'The uri field needs the uri of the image.'],
      [{ uri: '  ', datasetUri: EXTERNAL_MANIFEST }, 'The uri field needs the uri of the image.'],
      [{ uri: externalImage(3) }, 'The Dataset uri field needs the uri of the manifest the image belongs to.'],
      [{ uri: 'urn:x-page:3', datasetUri: EXTERNAL_MANIFEST }, "The uri field needs an absolute http or https URL, not 'urn:x-page:3'."],
      [{ uri: externalImage(3), datasetUri: 'manifest.json' }, "The Dataset uri field needs an absolute http or https URL, not 'manifest.json'."],
      [{ uri: externalImage(3), datasetUri: `https://x.test/${'m'.repeat(2000)}` }, 'A uri can be at most 2000 characters long.'],
      [{ uri: manifest(publicSetId), datasetUri: manifest(publicSetId) }, 'The uri field needs the uri of an image (its IIIF service), not of a manifest'],
      [{ uri: image(publicImage), datasetUri: image(publicImage) }, 'The Dataset uri field needs the uri of a manifest, not of an image'],
    ];
    for (const [values, message] of cases) {
      const res = await saveMetadata(t.app, other.auth, set, values);
      expect(res.status, message).toBe(400);
      expect(res.json.message).toContain(message);
    }
    expect(await stored(other, externalImage(3))).toEqual({});
  });

  it('lets others annotate our images only where they may read them (404 like every image call)', async () => {
    const hidden = await saveMetadata(t.app, other.auth, set, { uri: image(privateImage), datasetUri: EXTERNAL_MANIFEST, title: 'Nope' });
    expect(hidden.status).toBe(404);
    expect(hidden.json.message).toBe(`There is no document image with id ${privateImage}.`);
    const asRequest = await saveMetadata(t.app, other.auth, set, { uri: `${image(privateImage)}/full/max/0/default.jpg`, datasetUri: EXTERNAL_MANIFEST });
    expect(asRequest.status).toBe(404);
    const hiddenSet = await saveMetadata(t.app, other.auth, set, { uri: externalImage(4), datasetUri: manifest(privateSetId), title: 'Nope' });
    expect(hiddenSet.status).toBe(404);
    expect(hiddenSet.json.message).toBe(`There is no image set with id ${privateSetId}.`);
    const ours = `http://pim.test/api/pim/documentimage/${privateImage}/manifest`;
    expect((await saveMetadata(t.app, other.auth, set, { uri: externalImage(4), datasetUri: ours })).status).toBe(404);
    expect(await stored(owner, externalImage(4))).toEqual({});

    // A record in a dataset the caller cannot read is not theirs to overwrite, even under an external image uri.
    const shared = externalImage(6);
    expect((await saveMetadata(t.app, owner.auth, set, { uri: shared, datasetUri: manifest(privateSetId), title: 'Owner’s' })).status).toBe(200);
    const overwrite = await saveMetadata(t.app, other.auth, set, { uri: shared, datasetUri: EXTERNAL_MANIFEST, title: 'Overwritten' });
    expect(overwrite.status).toBe(403);
    expect(overwrite.json.message).toBe(
      'This image is described with this field set in a dataset you may not see, so you cannot change that description.',
    );
    expect(await stored(owner, shared)).toEqual({ uri: shared, datasetUri: manifest(privateSetId), title: 'Owner’s' });

    const allowed = await saveMetadata(t.app, other.auth, set, { uri: image(publicImage), datasetUri: manifest(publicSetId), title: 'Public page' });
    expect(allowed.status).toBe(200);
    expect((await stored(owner, image(publicImage))).title).toBe('Public page');
    expect((await saveMetadata(t.app, admin.auth, set, { uri: image(privateImage), datasetUri: manifest(privateSetId), title: 'Admin' })).status).toBe(200);
  });

  it('checks access to our image and manifest whatever address or spelling names them', async () => {
    const upper = privateImage.toUpperCase();
    const encoded = [...privateImage].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const spellings = [
      `http://pim.test//iiif/3/${privateImage}`,
      `http://pim.test/iiif/3/${encoded}`,
      `http://pim.test:80/iiif/3/${upper}/`,
      `http://pim.test/iiif/3/x/../${privateImage}`,
      `http://localhost:8080/iiif/3/${privateImage}`,
      `http://127.0.0.1:8080/iiif/3/${privateImage}`,
      `http://[::1]:8080/iiif/3/${privateImage}/info.json`,
      `https://pim.lan/%69iif/3/${privateImage}`,
    ];
    for (const uri of spellings) {
      const refused = await saveMetadata(t.app, other.auth, set, { uri, datasetUri: EXTERNAL_MANIFEST, title: 'Sneaked in' });
      expect(refused.status, uri).toBe(404);
      expect(refused.json.message).toBe(`There is no document image with id ${privateImage}.`);
    }
    const setSpelling = `http://127.0.0.1:8080//api/pim/imageset/${privateSetId.toUpperCase()}/manifest/`;
    expect((await saveMetadata(t.app, other.auth, set, { uri: externalImage(7), datasetUri: setSpelling })).status).toBe(404);

    // The owner's record under another spelling is bound to the image: hidden from those who cannot read it.
    const ownersSpelling = `http://127.0.0.1:8080/iiif/3/${upper}`;
    expect((await saveMetadata(t.app, owner.auth, set, { uri: ownersSpelling, datasetUri: EXTERNAL_MANIFEST, title: 'Mine' })).status).toBe(200);
    expect((await stored(owner, ownersSpelling)).title).toBe('Mine');
    expect(await stored(other, ownersSpelling)).toEqual({});

    // A URI of our shape whose id is not ours names another server's record: external.
    const foreign = `https://other-pim.example.org/iiif/3/${randomUUID()}`;
    expect((await saveMetadata(t.app, other.auth, set, { uri: foreign, datasetUri: EXTERNAL_MANIFEST, title: 'Elsewhere' })).status).toBe(200);
  });

  it('hides the records of images a caller can no longer read', async () => {
    const uri = image(publicImage);
    expect((await saveMetadata(t.app, other.auth, set, { uri, datasetUri: manifest(publicSetId), title: 'Seen' })).status).toBe(200);
    const unpublish = (isPublic: boolean) =>
      call(t.app, {
        method: 'POST',
        url: '/api/pim/documentimageset/update',
        headers: owner.auth,
        payload: { uuid: publicSetId, imageset: 'Public charters', publicDocumentImageSet: isPublic },
      });
    expect((await unpublish(false)).status).toBe(200);
    expect(await stored(other, uri)).toEqual({});
    expect((await stored(owner, uri)).title).toBe('Seen');
    expect((await unpublish(true)).status).toBe(200);
    expect((await stored(other, uri)).title).toBe('Seen');
  });

  it('takes the fields of one set the caller may see', async () => {
    const privateFieldSet = await createFieldSet(t.app, owner.auth, { name: 'Owner only', fields: [field('x', 'text')] });
    const otherSet = await createFieldSet(t.app, other.auth, { name: 'Mine', fields: [field('y', 'text')] });
    const send = (fields: { id: string; value?: unknown }[]) =>
      call(t.app, { method: 'POST', url: '/api/pim/metadata/create', headers: other.auth, payload: { fields } });
    const fixedOf = (s: PimFieldSet) => [
      { id: s.fields[0]!.id, value: externalImage(5) },
      { id: s.fields[1]!.id, value: EXTERNAL_MANIFEST },
    ];
    const unknown = randomUUID();
    const cases: [{ id: string; value?: unknown }[], number, string][] = [
      [[...fixedOf(otherSet), { id: unknown, value: 'x' }], 400, `There is no field with id ${unknown}: send the fields of one field set.`],
      [fixedOf(privateFieldSet), 400, `There is no field with id ${privateFieldSet.fields[0]!.id}`],
      [[...fixedOf(otherSet), { id: set.fields[9]!.id, value: 'x' }], 400, 'The fields belong to more than one field set'],
      [[...fixedOf(otherSet), fixedOf(otherSet)[0]!], 400, `The field ${otherSet.fields[0]!.id} is sent twice`],
      [[], 400, 'Send the fields of the form.'],
      [[{ id: 'nope' }], 400, 'Every field needs the id of a field of the set.'],
    ];
    for (const [fields, status, message] of cases) {
      const res = await send(fields);
      expect(res.status, message).toBe(status);
      expect(res.json.message).toContain(message);
    }
    expect((await send(fixedOf(otherSet))).status).toBe(200);
    const anonymous = await call(t.app, { method: 'POST', url: '/api/pim/metadata/create', payload: { fields: fixedOf(otherSet) } });
    expect(anonymous.status).toBe(401);
  });

  it('gives the fields of a visible set, and 404 for an unknown or private one', async () => {
    const res = await call(t.app, { method: 'GET', url: `/api/pim/metadata/getFields?id=${set.uuid}`, headers: other.auth });
    expect(res.json).toEqual(set.fields);
    const hidden = await createFieldSet(t.app, owner.auth, { name: 'Hidden' });
    for (const id of [hidden.uuid, randomUUID()]) {
      const missing = await call(t.app, { method: 'GET', url: `/api/pim/metadata/getFields?id=${id}`, headers: other.auth });
      expect(missing.status).toBe(404);
      expect(missing.json.message).toBe(`There is no field set with id ${id}.`);
      const values = await call(t.app, { method: 'GET', url: `/api/pim/metadata/get?uri=${externalImage(1)}&fieldsetid=${id}`, headers: other.auth });
      expect(values.status).toBe(404);
    }
    expect((await call(t.app, { method: 'GET', url: '/api/pim/metadata/getFields?id=x', headers: other.auth })).status).toBe(400);
  });
});
