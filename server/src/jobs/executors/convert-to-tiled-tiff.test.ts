import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { damageStoredImage } from '../../test-support/damaged-images.js';
import { expectOwnerRights } from '../../test-support/executor-access.js';
import { runExecutor } from '../../test-support/job-context.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, incoming, testImage, uploadServiceOf } from '../../test-support/upload-files.js';
import { convertToTiledTiff } from './convert-to-tiled-tiff.js';

const TYPE = 'ConvertToTiledTiff';

describe('ConvertToTiledTiff', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** Adds an image through the upload service without the app's hook, so no pyramid is made in the background. */
  const addImage = async (principal: typeof owner.principal, setId: string, name: string, width: number, height: number) => {
    const result = await uploadServiceOf(t.app).upload(principal, setId, incoming(`${name}.jpg`, await testImage('jpeg', width, height)));
    return result.documentImages[0]!.uuid;
  };
  const pyramids = async (imageIds: string[]) => {
    const rows = await t.app.database.db
      .selectFrom('document_image as d')
      .leftJoin('stored_file as f', 'f.id', 'd.tiled_file_id')
      .select(['d.id', 'd.tiled_file_id', 'f.media_type'])
      .where('d.id', 'in', imageIds)
      .execute();
    return imageIds.map((id) => rows.find((r) => r.id === id)!);
  };
  const tiffRows = async () =>
    Number((await t.app.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<string>().as('n')).where('media_type', '=', 'image/tiff').executeTakeFirstOrThrow()).n);
  const tile = (settings: { imageSet: string; allData?: boolean }) => runExecutor(t.app, convertToTiledTiff, { type: TYPE, settings, ownerId: owner.userId });

  it("makes the pyramids of the set's large images that have none, and with allData makes them again in place of the old ones", async () => {
    const setId = await createSet(t.app, owner.auth, 'Large scans');
    const wide = await addImage(owner.principal, setId, 'wide', 4200, 300);
    const small = await addImage(owner.principal, setId, 'small', 300, 200);
    const tall = await addImage(owner.principal, setId, 'tall', 300, 4100);
    expect((await pyramids([wide, small, tall])).map((p) => p.tiled_file_id)).toEqual([null, null, null]);
    const tiffsBefore = await tiffRows();

    const run = await tile({ imageSet: setId });
    expect(run.notes).toEqual({ images: 3, tiled: 2, hadOne: 0, small: 1, failed: 0 });
    expect(run.progress).toEqual([
      { done: 0, total: 3, message: 'Tiling wide' },
      { done: 1, total: 3, message: 'Tiling small' },
      { done: 2, total: 3, message: 'Tiling tall' },
      { done: 3, total: 3, message: '2 pyramids made' },
    ]);
    const made = await pyramids([wide, small, tall]);
    expect(made.map((p) => p.media_type)).toEqual(['image/tiff', null, 'image/tiff']);
    expect(await tiffRows()).toBe(tiffsBefore + 2);
    // A tile is read from the pyramid.
    const fromPyramid = await t.app.services.iiif.render(owner.principal, wide, { region: '2048,0,2048,300', size: '512,', rotation: '0', qualityFormat: 'default.jpg' });
    expect(fromPyramid.mediaType).toBe('image/jpeg');

    expect((await tile({ imageSet: setId })).notes).toEqual({ images: 3, tiled: 0, hadOne: 2, small: 1, failed: 0 });
    expect(await pyramids([wide, small, tall])).toEqual(made);

    expect((await tile({ imageSet: setId, allData: true })).notes).toEqual({ images: 3, tiled: 2, hadOne: 0, small: 1, failed: 0 });
    const again = await pyramids([wide, small, tall]);
    expect(again[0]!.tiled_file_id).not.toBe(made[0]!.tiled_file_id);
    expect(again[2]!.tiled_file_id).not.toBe(made[2]!.tiled_file_id);
    // The old pyramids' rows went with them.
    expect(await tiffRows()).toBe(tiffsBefore + 2);
  });

  it('notes a large image whose file cannot be tiled and goes on with the others', async () => {
    const setId = await createSet(t.app, owner.auth, 'One damaged');
    const damaged = await addImage(owner.principal, setId, 'damaged', 4200, 300);
    const fine = await addImage(owner.principal, setId, 'fine', 4200, 300);
    await damageStoredImage(t.app, damaged, { truncate: true });
    const run = await tile({ imageSet: setId });
    expect(run.notes).toMatchObject({ images: 2, tiled: 1, failed: 1, failedImages: [{ image: damaged, label: 'damaged' }] });
    expect((run.notes.failedImages as { reason: string }[])[0]!.reason).toMatch(/^Its file could not be tiled: /);
    expect((await pyramids([damaged, fine])).map((p) => p.media_type)).toEqual([null, 'image/tiff']);
  });

  it('stops between images when the job is stopped', async () => {
    const setId = await createSet(t.app, owner.auth, 'Stopped');
    const first = await addImage(owner.principal, setId, 'first', 4200, 300);
    const second = await addImage(owner.principal, setId, 'second', 4200, 300);
    const running = runExecutor(t.app, convertToTiledTiff, { type: TYPE, settings: { imageSet: setId }, ownerId: owner.userId }, (run) => {
      if (run.progress.length === 1) run.controller.abort(new Error('cancelled'));
    });
    await expect(running).rejects.toThrow('cancelled');
    expect((await pyramids([first, second])).map((p) => p.media_type)).toEqual(['image/tiff', null]);
  });

  it("acts with its owner's rights", async () => {
    let imageId = '';
    await expectOwnerRights(t, convertToTiledTiff, TYPE, {
      fill: async (someone, setId) => {
        imageId = await addImage(someone.principal, setId, 'private', 4200, 300);
      },
      state: async () => pyramids([imageId]),
    });
  });
});
