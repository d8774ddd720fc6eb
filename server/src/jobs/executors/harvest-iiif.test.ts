import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_FIXTURES } from '../../test-support/fixtures.js';
import { type IiifTestServer, startIiifServer } from '../../test-support/iiif-server.js';
import { runExecutor } from '../../test-support/job-context.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { harvestIiif } from './harvest-iiif.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

describe.skipIf(!fs.existsSync(SHARED_FIXTURES))('HarvestIIIF', () => {
  let t: TestApp;
  let owner: User;
  let remote: IiifTestServer;

  beforeAll(async () => {
    t = await createTestApp({ PIM_HARVEST_ALLOW_PRIVATE: 'true', PUBLIC_URL: undefined });
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    remote = await startIiifServer();
  });
  afterEach(() => remote.close());

  const harvest = (setId: string, uri: string, ownerId = owner.userId) =>
    runExecutor(t.app, harvestIiif, { type: 'HarvestIIIF', settings: { imageSet: setId, uri }, ownerId });

  /** The set's images in order: label, size and where each came from. */
  async function imagesOf(setId: string) {
    const tree = await t.app.services.imageSetHierarchy.get(owner.principal, setId);
    const out = [];
    for (const item of tree.images) {
      const { image } = await t.app.services.documentImages.get(owner.principal, item.id);
      out.push({ label: image.label, width: image.width, height: image.height, remoteUri: image.remoteUri });
    }
    return out;
  }

  /** The set's tree of sub-sets, each with its image labels. */
  async function treeOf(setId: string): Promise<unknown> {
    const tree = await t.app.services.imageSetHierarchy.get(owner.principal, setId);
    const subsets: Record<string, unknown> = {};
    for (const subset of tree.subsets) subsets[subset.name] = await treeOf(subset.id);
    return tree.subsets.length ? subsets : tree.images.map((i) => i.name);
  }

  it('imports a Presentation 3 manifest: canvases in order with their labels, from their Image service at full size, its metadata on the set', async () => {
    const manifest = remote.serve(remote.fixture('validator_fixtures/3/full_example.json'));
    const setId = await createSet(t.app, owner.auth, 'Book');

    const result = await harvest(setId, manifest);

    expect(await imagesOf(setId)).toEqual([
      { label: 'p. 1', width: 60, height: 40, remoteUri: remote.moved('https://example.org/iiif/book1/canvas/p1') },
      { label: 'p. 2', width: 60, height: 40, remoteUri: remote.moved('https://example.org/iiif/book1/canvas/p2') },
    ]);
    expect(remote.requests).toContain('/remote/example.org/iiif/book1/page1/full/max/0/default.jpg');
    expect(remote.requests).toContain('/remote/example.org/iiif/book1/page2/full/max/0/default.jpg');
    const set = await t.app.services.imageSets.get(owner.principal, setId);
    expect(set).toMatchObject({ name: 'Book', prettyName: 'Book 1', remoteUri: manifest, license: 'http://creativecommons.org/licenses/by/4.0/' });
    expect(set.description).toBe(
      'Book 1, written be Anne Author, published in Paris around 1400.\n\n' +
        'Author: Anne Author\nPublished: Paris, circa 1400\nNotes: Text of note 1; Text of note 2\nSource: From: Some Collection\n' +
        'Attribution: Provided by Example Organization\nRights: http://creativecommons.org/licenses/by/4.0/',
    );
    expect(result.notes).toMatchObject({ documents: 1, canvases: 2, imported: 2, alreadyThere: 0, refused: 0 });
    expect(result.progress.at(-1)).toMatchObject({ done: 2, total: 2 });

    const again = await harvest(setId, manifest);
    expect(again.notes).toMatchObject({ canvases: 2, imported: 0, alreadyThere: 2 });
    expect(await imagesOf(setId)).toHaveLength(2);
  });

  it('fills only the fields of the set that are empty, within the lengths its settings form accepts', async () => {
    const manifest = remote.serve({ ...remote.fixture('validator_fixtures/3/full_example.json'), label: { en: ['𝔄'.repeat(700)] } });
    const setId = await createSet(t.app, owner.auth, 'Described');
    await t.app.services.imageSets.update(owner.principal, { uuid: setId, imageset: 'Described', description: 'Our own words.' });

    await harvest(setId, manifest);

    const set = await t.app.services.imageSets.get(owner.principal, setId);
    expect(set.description).toBe('Our own words.');
    expect(set.prettyName).toBe('𝔄'.repeat(500));
    expect(set.remoteUri).toBe(manifest);
  });

  it('imports Presentation 2: a version 2 manifest by its image resources, and version 2 Image services at full/full', async () => {
    const v2 = remote.serve(remote.fixture('validator_fixtures/2/manifest.json'));
    const v2Set = await createSet(t.app, owner.auth, 'Version 2');
    await harvest(v2Set, v2);
    expect(await imagesOf(v2Set)).toMatchObject([{ label: 'Test 2 Canvas: 1', remoteUri: remote.moved('http://iiif.io/api/presentation/2.0/example/fixtures/canvas/2/c1.json') }]);
    expect(remote.requests).toContain('/remote/iiif.io/api/presentation/2.0/example/fixtures/resources/page1-full.png');
    expect((await t.app.services.imageSets.get(owner.principal, v2Set)).description).toBe('date: some date');

    const service2 = remote.serve(remote.fixture('validator_fixtures/3/version2image.json'));
    const service2Set = await createSet(t.app, owner.auth, 'Image API 2');
    await harvest(service2Set, service2);
    expect(remote.requests).toContain('/remote/example.org/iiif2/image1/identifier/full/full/0/default.jpg');
    expect(await imagesOf(service2Set)).toMatchObject([{ label: 'p. 1' }]);
  });

  it('makes a sub-set per member of a collection, nested as its collections are, reading embedded and referenced ones', async () => {
    const book = { ...remote.fixture('validator_fixtures/3/full_example.json'), id: remote.moved('https://example.org/iiif/1/manifest') };
    remote.serve(book);
    remote.serve({ ...remote.fixture('validator_fixtures/3/version2image.json'), id: remote.moved('https://example.org/iiif/2/manifest'), label: { en: ['Book 2'] } });
    remote.serve({ ...remote.fixture('validator_fixtures/2/manifest.json'), '@id': remote.moved('https://example.org/iiif/3/manifest') });
    remote.serve({
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      id: remote.moved('https://example.org/iiif/2/collection/sub2'),
      type: 'Collection',
      label: { en: ['Sub Collection 2'] },
      items: [{ id: remote.moved('https://example.org/iiif/3/manifest'), type: 'Manifest' }],
    });
    const top = remote.serve(remote.fixture('validator_fixtures/3/collection_of_collections.json'));
    const setId = await createSet(t.app, owner.auth, 'Collections');

    const result = await harvest(setId, top);

    expect(await treeOf(setId)).toEqual({
      'Sub Collection 1': { 'Book 1': ['p. 1', 'p. 2'], 'Book 2': ['p. 1'] },
      'Sub Collection 2': { 'Test 2 Manifest: Metadata Pairs': ['Test 2 Canvas: 1'] },
    });
    const set = await t.app.services.imageSets.get(owner.principal, setId);
    expect(set).toMatchObject({ prettyName: 'Collection of Collections!', description: 'Short summary of the Collection\n\nAttribution: Provided by Example Organization' });
    expect(result.notes).toMatchObject({ canvases: 4, imported: 4, membersFailed: 0 });

    const again = await harvest(setId, top);
    expect(again.notes).toMatchObject({ canvases: 4, imported: 0, alreadyThere: 4 });
    expect(await treeOf(setId)).toEqual({
      'Sub Collection 1': { 'Book 1': ['p. 1', 'p. 2'], 'Book 2': ['p. 1'] },
      'Sub Collection 2': { 'Test 2 Manifest: Metadata Pairs': ['Test 2 Canvas: 1'] },
    });
  });

  it('fails on a loop of collections, and says what is wrong with a document that is no manifest', async () => {
    const top = remote.serve({
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      id: `${remote.base}/loop/top`,
      type: 'Collection',
      label: { en: ['Top'] },
      items: [{ id: `${remote.base}/loop/inner`, type: 'Collection' }],
    });
    remote.serve({ '@context': 'http://iiif.io/api/presentation/3/context.json', id: `${remote.base}/loop/inner`, type: 'Collection', items: [{ id: top, type: 'Collection' }] });
    const setId = await createSet(t.app, owner.auth, 'Broken');
    await expect(harvest(setId, top)).rejects.toThrow(`The collection ${remote.base}/loop/inner contains ${top}, which contains it: a loop of collections cannot be harvested.`);

    const missing = `${remote.base}/nothing/manifest.json`;
    await expect(harvest(setId, missing)).rejects.toThrow(`${missing} answered 404 Not Found.`);
    const page = remote.answer('/page.html', 200, 'text/html', '<html><body>A page</body></html>');
    await expect(harvest(setId, page)).rejects.toThrow(`${page} did not answer with JSON (it sent text/html): give the address of a IIIF manifest or collection.`);
    const annotations = remote.answer('/annotations.json', 200, 'application/json', fs.readFileSync(`${SHARED_FIXTURES}/iiif/validator_fixtures/3/annoPage.json`));
    await expect(harvest(setId, annotations)).rejects.toThrow(`${annotations} is not a IIIF Presentation manifest or collection: its type is AnnotationPage.`);
    const video = remote.serve(remote.fixture('validator_fixtures/3/simple_video.json'));
    await expect(harvest(setId, video)).rejects.toThrow(`None of the 1 canvases of the manifest ${video} shows an image (audio or video cannot be harvested).`);
  });

  it('passes by a member it cannot read, noting why; stops at collections nested too deep, and when the job is cancelled', async () => {
    const context = 'http://iiif.io/api/presentation/3/context.json';
    const book = remote.serve(remote.fixture('validator_fixtures/3/full_example.json'));
    const gone = `${remote.base}/gone/manifest`;
    const top = remote.serve({ '@context': context, id: `${remote.base}/mixed`, type: 'Collection', items: [{ id: gone, type: 'Manifest' }, { id: book, type: 'Manifest' }] });
    const setId = await createSet(t.app, owner.auth, 'Mixed');
    const result = await harvest(setId, top);
    expect(result.notes).toMatchObject({ membersFailed: 1, imported: 2, refusals: [{ id: gone, reason: `${gone} answered 404 Not Found.` }] });

    let nested: Record<string, unknown> = { id: book, type: 'Manifest' };
    for (let level = 6; level >= 1; level -= 1) nested = { id: `${remote.base}/level/${level}`, type: 'Collection', items: [nested] };
    const deep = remote.serve({ '@context': context, id: `${remote.base}/deep`, type: 'Collection', items: [nested] });
    await expect(harvest(await createSet(t.app, owner.auth, 'Deep'), deep)).rejects.toThrow(
      `The collections nest more than 5 deep (at ${remote.base}/level/6): harvest the inner collections one at a time.`,
    );

    const cancelled = runExecutor(t.app, harvestIiif, { type: 'HarvestIIIF', settings: { imageSet: await createSet(t.app, owner.auth, 'Stopped'), uri: book }, ownerId: owner.userId }, (run) => {
      if (run.progress.length === 1) run.controller.abort(new Error('The job was cancelled.'));
    });
    await expect(cancelled).rejects.toThrow('The job was cancelled.');
  });

  it('refuses a damaged image and a missing one per canvas, noting why, and imports the rest', async () => {
    const manifest = remote.fixture('validator_fixtures/3/full_example.json');
    remote.serve(manifest);
    remote.answer('/remote/example.org/iiif/book1/page1/full/max/0/default.jpg', 200, 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(200, 1)]));
    remote.answer('/remote/example.org/iiif/book1/page2/full/max/0/default.jpg', 404, 'text/plain', 'gone');
    const setId = await createSet(t.app, owner.auth, 'Damaged');
    await expect(harvest(setId, String(manifest.id))).rejects.toThrow(
      `Nothing was harvested from ${String(manifest.id)}: none of its 2 canvases could be imported (p. 1: This image file is damaged or not an image.).`,
    );

    remote.answer('/remote/example.org/iiif/book1/page2/full/max/0/default.jpg', 200, 'image/png', await testImage('png', 30, 20));
    const result = await harvest(setId, String(manifest.id));
    expect(await imagesOf(setId)).toMatchObject([{ label: 'p. 2', width: 30, height: 20 }]);
    expect(result.notes).toMatchObject({ canvases: 2, imported: 1, refused: 1, refusals: [{ label: 'p. 1', reason: 'This image file is damaged or not an image.' }] });
  });

  it('harvests a public set of our own from its manifest, and only into a set its owner may change', async () => {
    const source = await createSet(t.app, owner.auth, 'Source');
    for (const [name, size] of [['folio 1', [64, 48]], ['folio 2', [40, 70]]] as const) {
      const res = await upload(t.app, owner.auth, source, [{ fileName: `${name}.png`, bytes: await testImage('png', size[0], size[1]) }]);
      expect(res.status).toBe(200);
    }
    await t.app.services.imageSets.update(owner.principal, { uuid: source, imageset: 'Source', publish: true, publicDocumentImageSet: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const manifest = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/pim/imageset/${source}/manifest`;
    const target = await createSet(t.app, owner.auth, 'Copy');

    await harvest(target, manifest);

    expect((await imagesOf(target)).map(({ label, width, height }) => ({ label, width, height }))).toEqual([
      { label: 'folio 1', width: 64, height: 48 },
      { label: 'folio 2', width: 40, height: 70 },
    ]);

    const reader = await signedInUser(t.app);
    await expect(harvest(target, manifest, reader.userId)).rejects.toThrow(`There is no image set with id ${target}.`);
    await expect(harvest(source, manifest, reader.userId)).rejects.toThrow('You may read this image set but not change it: that needs WRITE permission on it.');
  });
});

describe('HarvestIIIF without PIM_HARVEST_ALLOW_PRIVATE', () => {
  it('refuses to fetch from this machine or its network', async () => {
    const t = await createTestApp();
    try {
      const owner = await signedInUser(t.app);
      const setId = await createSet(t.app, owner.auth, 'Guarded');
      for (const uri of ['http://127.0.0.1:9/manifest.json', 'http://169.254.169.254/latest/meta-data/', 'http://localhost:9/manifest']) {
        await expect(runExecutor(t.app, harvestIiif, { type: 'HarvestIIIF', settings: { imageSet: setId, uri }, ownerId: owner.userId })).rejects.toThrow(
          'is a loopback, private-network or link-local address, which a harvest may not fetch from',
        );
      }
    } finally {
      await t.close();
    }
  });
});
