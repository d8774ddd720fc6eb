import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, quadrantImage, uploadImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type Auth = { authorization: string };
const names = (items: { name: string }[]) => items.map((i) => i.name);

describe('image set hierarchy API', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let png: Buffer;
  let staging: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    png = await quadrantImage(8, 6);
    staging = await createSet(t.app, owner.auth, 'Uploads land here');
  });
  afterAll(() => t.close());

  const tree = (auth: Auth, setId: string, method: 'PUT' | 'DELETE', what: 'subsets' | 'documentimages', uuid: string) =>
    call(t.app, { method, url: `/api/pim/documentimageset/${setId}/${what}`, headers: auth, payload: { uuid } });
  const hierarchy = (auth: Auth, setId: string) =>
    call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}/hierarchy`, headers: auth });
  /** An image of the owner's, uploaded into a set of its own; its label is the file's base name. */
  const image = (label: string) => uploadImage(t.app, owner.auth, staging, png, `${label}.png`);

  it('answers the set with no children at first', async () => {
    const root = await createSet(t.app, owner.auth, 'Empty');
    const res = await hierarchy(owner.auth, root);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ imageset: { id: root, name: 'Empty' }, subsets: [], images: [] });
  });

  it('appends sub-sets and images in the order they are added, and adding twice changes nothing', async () => {
    const root = await createSet(t.app, owner.auth, 'Root');
    const [b, a] = [await createSet(t.app, owner.auth, 'B folder'), await createSet(t.app, owner.auth, 'A folder')];
    const [p2, p1] = [await image('page 2'), await image('page 1')];

    expect((await tree(owner.auth, root, 'PUT', 'subsets', b)).status).toBe(200);
    const afterA = await tree(owner.auth, root, 'PUT', 'subsets', a);
    expect(afterA.json.subsets).toEqual([
      { id: b, name: 'B folder' },
      { id: a, name: 'A folder' },
    ]);
    await tree(owner.auth, root, 'PUT', 'documentimages', p2);
    const afterP1 = await tree(owner.auth, root, 'PUT', 'documentimages', p1);
    expect(afterP1.json.images).toEqual([
      { id: p2, name: 'page 2' },
      { id: p1, name: 'page 1' },
    ]);

    const again = await tree(owner.auth, root, 'PUT', 'subsets', b);
    expect(again.status).toBe(200);
    expect(names(again.json.subsets)).toEqual(['B folder', 'A folder']);
    const imageAgain = await tree(owner.auth, root, 'PUT', 'documentimages', p2);
    expect(imageAgain.status).toBe(200);
    expect(names(imageAgain.json.images)).toEqual(['page 2', 'page 1']);
  });

  it('removes items, keeps the order of the rest and appends new ones after the last', async () => {
    const root = await createSet(t.app, owner.auth, 'Removals');
    const ids = [await image('one'), await image('two'), await image('three')];
    for (const id of ids) await tree(owner.auth, root, 'PUT', 'documentimages', id);
    const removed = await tree(owner.auth, root, 'DELETE', 'documentimages', ids[1]!);
    expect(removed.status).toBe(200);
    expect(names(removed.json.images)).toEqual(['one', 'three']);
    const four = await tree(owner.auth, root, 'PUT', 'documentimages', await image('four'));
    expect(names(four.json.images)).toEqual(['one', 'three', 'four']);

    const child = await createSet(t.app, owner.auth, 'Child');
    await tree(owner.auth, root, 'PUT', 'subsets', child);
    const gone = await tree(owner.auth, root, 'DELETE', 'subsets', child);
    expect(gone.json.subsets).toEqual([]);
    // The child set itself is untouched: only the link went.
    expect((await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${child}`, headers: owner.auth })).status).toBe(200);
  });

  it('answers 404 with a clear message when removing what is not there', async () => {
    const root = await createSet(t.app, owner.auth, 'Nothing here');
    const stranger = await createSet(t.app, owner.auth, 'Not a child');
    const subset = await tree(owner.auth, root, 'DELETE', 'subsets', stranger);
    expect(subset.status).toBe(404);
    expect(subset.json.message).toBe(`The image set ${stranger} is not a sub-set of this image set.`);
    const img = await image('loose');
    const missing = await tree(owner.auth, root, 'DELETE', 'documentimages', img);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`The document image ${img} is not in this image set.`);
  });

  it('refuses unknown sets and images, and bodies without a UUID', async () => {
    const root = await createSet(t.app, owner.auth, 'Picky');
    const unknown = '0b1c9a0e-7a52-4c8e-9d0e-3f5f3c1d2a10';
    expect((await tree(owner.auth, root, 'PUT', 'subsets', unknown)).status).toBe(404);
    const noImage = await tree(owner.auth, root, 'PUT', 'documentimages', unknown);
    expect(noImage.status).toBe(404);
    expect(noImage.json.message).toBe(`There is no document image with id ${unknown}.`);
    const bad = await tree(owner.auth, root, 'PUT', 'subsets', 'not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('Choose an image set or image (a UUID).');
  });

  it('never lets a set contain itself, its parent or its grandparent', async () => {
    const grand = await createSet(t.app, owner.auth, 'Grandparent');
    const parent = await createSet(t.app, owner.auth, 'Parent');
    const child = await createSet(t.app, owner.auth, 'Child');
    await tree(owner.auth, grand, 'PUT', 'subsets', parent);
    await tree(owner.auth, parent, 'PUT', 'subsets', child);
    for (const [into, what] of [
      [child, child],
      [child, parent],
      [child, grand],
      [parent, grand],
    ] as const) {
      const res = await tree(owner.auth, into, 'PUT', 'subsets', what);
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('An image set cannot contain itself or one of the sets that contain it.');
    }
    expect((await hierarchy(owner.auth, child)).json.subsets).toEqual([]);
    // A set may still sit in two places that do not contain each other.
    const elsewhere = await createSet(t.app, owner.auth, 'Elsewhere');
    expect((await tree(owner.auth, elsewhere, 'PUT', 'subsets', child)).status).toBe(200);
  });

  it('refuses the second of two racing calls that would together close a loop', async () => {
    const a = await createSet(t.app, owner.auth, 'Race A');
    const b = await createSet(t.app, owner.auth, 'Race B');
    const results = await Promise.all([tree(owner.auth, a, 'PUT', 'subsets', b), tree(owner.auth, b, 'PUT', 'subsets', a)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('sorts sub-sets and images by name in natural order, and keeps that order for later reads', async () => {
    const root = await createSet(t.app, owner.auth, 'To sort');
    for (const name of ['Volume 10', 'volume 2', 'Volume 1']) {
      await tree(owner.auth, root, 'PUT', 'subsets', await createSet(t.app, owner.auth, name));
    }
    for (const label of ['page 10', 'page 2', 'Page 1', 'page 21', 'cover']) {
      await tree(owner.auth, root, 'PUT', 'documentimages', await image(label));
    }
    const sorted = await call(t.app, { method: 'POST', url: `/api/pim/documentimageset/${root}/sort`, headers: owner.auth });
    expect(sorted.status, sorted.res.body).toBe(200);
    expect(names(sorted.json.subsets)).toEqual(['Volume 1', 'volume 2', 'Volume 10']);
    expect(names(sorted.json.images)).toEqual(['cover', 'Page 1', 'page 2', 'page 10', 'page 21']);
    expect((await hierarchy(owner.auth, root)).json).toEqual(sorted.json);
    const withBody = { method: 'POST', url: `/api/pim/documentimageset/${root}/sort`, headers: owner.auth, payload: {} } as const;
    expect((await call(t.app, withBody)).json).toEqual(sorted.json);
    const appended = await tree(owner.auth, root, 'PUT', 'documentimages', await image('page 3'));
    expect(names(appended.json.images)).toEqual(['cover', 'Page 1', 'page 2', 'page 10', 'page 21', 'page 3']);
  });

  it('lists only the sub-sets the caller may read, and never deleted ones', async () => {
    const viewer = await signedInUser(t.app);
    const root = await createSet(t.app, owner.auth, 'Shown to all');
    const open = await createSet(t.app, owner.auth, 'Open child');
    const closed = await createSet(t.app, owner.auth, 'Closed child');
    const doomed = await createSet(t.app, owner.auth, 'Doomed child');
    for (const [id, name] of [
      [root, 'Shown to all'],
      [open, 'Open child'],
    ] as const) {
      await call(t.app, {
        method: 'POST',
        url: '/api/pim/documentimageset/update',
        headers: owner.auth,
        payload: { uuid: id, imageset: name, publicDocumentImageSet: true },
      });
    }
    for (const id of [open, closed, doomed]) await tree(owner.auth, root, 'PUT', 'subsets', id);
    await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${doomed}`, headers: owner.auth });

    expect(names((await hierarchy(owner.auth, root)).json.subsets)).toEqual(['Open child', 'Closed child']);
    expect(names((await hierarchy(viewer.auth, root)).json.subsets)).toEqual(['Open child']);
  });
});
