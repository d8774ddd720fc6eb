import { randomUUID } from 'node:crypto';
import type { DrawingShape } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

const polygon = (label: DrawingShape['label'], points: [number, number][]): DrawingShape => ({ id: randomUUID(), kind: 'polygon', label, points });
const line = (label: DrawingShape['label'], points: [number, number][]): DrawingShape => ({ id: randomUUID(), kind: 'line', label, points });

describe('drawings API', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let admin: User;
  let imageId: string;
  let publicImageId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    other = await signedInUser(t.app, { name: 'Other' });
    admin = await signedInUser(t.app, { admin: true });
    const privateSet = await createSet(t.app, owner.auth, 'Private');
    const uploadOne = async (setId: string) =>
      (await upload(t.app, owner.auth, setId, [{ fileName: 'folio.png', bytes: await testImage('png', 120, 80) }])).json.documentImages[0].uuid as string;
    imageId = await uploadOne(privateSet);
    const publicSet = await createSet(t.app, owner.auth, 'Public');
    publicImageId = await uploadOne(publicSet);
    const published = await call(t.app, {
      method: 'POST',
      url: '/api/pim/documentimageset/update',
      headers: owner.auth,
      payload: { uuid: publicSet, imageset: 'Public', publicDocumentImageSet: true },
    });
    expect(published.status).toBe(200);
  });
  afterAll(() => t.close());

  const url = (id: string) => `/api/pim/documentimage/${id}/drawing`;
  const get = (id: string, who: User | null = owner) => call(t.app, { method: 'GET', url: url(id), headers: who?.auth ?? {} });
  const put = (id: string, shapes: unknown, who: User | null = owner) =>
    call(t.app, { method: 'PUT', url: url(id), headers: who?.auth ?? {}, payload: { shapes } });

  it('starts empty, saves shapes, replaces them whole and clears them with an empty list', async () => {
    expect((await get(imageId)).json).toEqual({ shapes: [], updated: null });

    const region = polygon('region', [[10, 10], [110, 10], [110, 70], [10, 70]]);
    const baseline = line('baseline', [[12, 40], [60, 42], [108, 40]]);
    const saved = await put(imageId, [region, baseline]);
    expect(saved.status).toBe(200);
    expect(saved.json.shapes).toEqual([region, baseline]);
    expect(Date.parse(saved.json.updated)).toBeGreaterThan(Date.now() - 60_000);
    expect((await get(imageId)).json).toEqual(saved.json);

    // The image's far edge is on the image (PAGE counts imageWidth,imageHeight as its corner).
    const edge = polygon('decoration', [[0, 0], [120, 0], [120, 80]]);
    const replaced = await put(imageId, [edge]);
    expect(replaced.status).toBe(200);
    expect((await get(imageId)).json.shapes).toEqual([edge]);

    const cleared = await put(imageId, []);
    expect(cleared.json).toEqual({ shapes: [], updated: null });
    expect((await get(imageId)).json).toEqual({ shapes: [], updated: null });
  });

  it('lets the owner and admins read and write, others only read a public set, anonymous nothing', async () => {
    const shapes = [polygon('marginalia', [[1, 1], [20, 1], [20, 20]])];
    expect((await put(imageId, shapes, admin)).status).toBe(200);
    expect((await get(imageId, admin)).json.shapes).toEqual(shapes);

    // A private set's image does not exist for others; a public one may be read but not changed.
    expect((await get(imageId, other)).status).toBe(404);
    expect((await put(imageId, [], other)).status).toBe(404);
    expect((await put(publicImageId, shapes, owner)).status).toBe(200);
    const read = await get(publicImageId, other);
    expect(read.status).toBe(200);
    expect(read.json.shapes).toEqual(shapes);
    const refused = await put(publicImageId, [], other);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('You may read this image but not change it: that needs WRITE permission on an image set that holds it.');

    expect((await get(imageId, null)).status).toBe(401);
    expect((await put(imageId, [], null)).status).toBe(401);
    // Nothing refused was written.
    expect((await get(imageId)).json.shapes).toEqual(shapes);
    expect((await get(publicImageId)).json.shapes).toEqual(shapes);
  });

  it('answers 404 for an unknown image and 400 for a malformed id', async () => {
    const unknown = randomUUID();
    expect((await get(unknown)).status).toBe(404);
    const missing = await put(unknown, []);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`There is no document image with id ${unknown}.`);
    const bad = await get('nope');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('The document image id must be a UUID.');
  });

  it('refuses malformed shapes with a message saying what is wrong, and writes nothing', async () => {
    const kept = [line('text-line', [[5, 5], [50, 5]])];
    expect((await put(imageId, kept)).status).toBe(200);
    const id = randomUUID();
    const cases: [unknown, string][] = [
      [[polygon('region', [[1, 1], [2, 2]])], 'shapes.0.points: A polygon needs at least 3 points.'],
      [[line('baseline', [[1, 1]])], 'shapes.0.points: A line needs at least 2 points.'],
      [[{ ...line('baseline', [[1, 1], [2, 2]]), kind: 'circle' }], "shapes.0.kind: A shape's kind is 'line' or 'polygon'."],
      [[{ ...line('baseline', [[1, 1], [2, 2]]), label: 'heading' }], "shapes.0.label: A shape's label is one of text-line, baseline, region, marginalia, decoration, page-number."],
      [[line('baseline', [[1.5, 1], [2, 2]])], 'Coordinates are whole pixels of the page image.'],
      [[line('baseline', [[-1, 1], [2, 2]])], 'Coordinates cannot be negative.'],
      [[{ ...line('baseline', [[2, 2], [2, 2]]), points: [[1, 1, 1], [2, 2]] }], 'A point is a pair [x, y].'],
      [[{ ...line('baseline', [[1, 1], [2, 2]]), id: 'one' }], 'shapes.0.id: A shape id must be a UUID.'],
      [[{ ...line('baseline', [[1, 1], [2, 2]]), id }, { ...line('region', [[3, 3], [4, 4]]), id }], `shapes.1.id: Shape ids must be unique; ${id} is used twice.`],
      [Array.from({ length: 2001 }, () => line('baseline', [[1, 1], [2, 2]])), 'A drawing can have at most 2,000 shapes.'],
      [[line('baseline', Array.from({ length: 5001 }, (_, i) => [i % 100, 1]))], 'A shape can have at most 5,000 points.'],
      [Array.from({ length: 21 }, () => line('baseline', Array.from({ length: 5000 }, () => [1, 1]))), 'A drawing can have at most 100,000 points in all; this one has 105,000.'],
    ];
    for (const [shapes, message] of cases) {
      const res = await put(imageId, shapes);
      expect(res.status, message).toBe(400);
      expect(res.json.message).toContain(message);
    }
    expect((await call(t.app, { method: 'PUT', url: url(imageId), headers: owner.auth, payload: {} })).status).toBe(400);
    expect((await get(imageId)).json.shapes).toEqual(kept);
  });

  it('refuses points outside the image, naming the shape', async () => {
    const inside = polygon('region', [[0, 0], [10, 0], [10, 10]]);
    const outside = line('baseline', [[10, 10], [121, 30]]);
    const res = await put(imageId, [inside, outside]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      `Shape 2 (Baseline line, id ${outside.id}) has the point 121,30 outside the image, which is 120 x 80 pixels.`,
    );
    const below = await put(imageId, [polygon('page-number', [[1, 1], [5, 81], [9, 1]])]);
    expect(below.status).toBe(400);
    expect(below.json.message).toContain('has the point 5,81 outside the image');
    expect((await get(imageId)).json.shapes).not.toContainEqual(inside);
  });
});
