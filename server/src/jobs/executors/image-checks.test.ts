import { IIIF_NO_CANVASES_ERROR } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { damageStoredImage } from '../../test-support/damaged-images.js';
import { expectOwnerRights } from '../../test-support/executor-access.js';
import { runExecutor } from '../../test-support/job-context.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { generateManifests } from './generate-manifests.js';
import { setBrokenNull } from './set-broken-null.js';

describe('GenerateManifests and SetBrokenNull', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const addImage = async (setId: string, name: string, auth: Record<string, string> = owner.auth) => {
    const res = await upload(t.app, auth, setId, [{ fileName: `${name}.png`, bytes: await testImage('png', 120, 80) }]);
    expect(res.status).toBe(200);
    return res.json.documentImages[0].uuid as string;
  };
  const brokenMark = async (imageId: string) =>
    (await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${imageId}`, headers: owner.auth })).json.broken as boolean;
  const generate = (setId: string, ownerId = owner.userId) =>
    runExecutor(t.app, generateManifests, { type: 'GenerateManifests', settings: { imageSet: setId }, ownerId });
  const clearBroken = (setId: string) => runExecutor(t.app, setBrokenNull, { type: 'SetBrokenNull', settings: { imageSet: setId }, ownerId: owner.userId });

  it('builds the manifests, marks the images that cannot be served broken with the reason, and SetBrokenNull clears those that read well again', async () => {
    const setId = await createSet(t.app, owner.auth, 'Checked');
    const good = await addImage(setId, 'good');
    const cutOff = await addImage(setId, 'cut off');
    const swapped = await addImage(setId, 'swapped');
    const gone = await addImage(setId, 'gone');
    const restore = await damageStoredImage(t.app, cutOff, { truncate: true });
    await damageStoredImage(t.app, swapped, { replace: await testImage('png', 60, 40) });
    await damageStoredImage(t.app, gone, { remove: true });

    const run = await generate(setId);
    expect(run.notes).toEqual({
      images: 4,
      manifests: 5,
      broken: 3,
      newlyBroken: 3,
      brokenImages: [
        { image: cutOff, label: 'cut off', reason: 'This image file is damaged or not an image.' },
        { image: swapped, label: 'swapped', reason: 'Its file is 60 x 40 pixels, but the image is recorded as 120 x 80.' },
        { image: gone, label: 'gone', reason: 'Its stored file is missing from the data directory.' },
      ],
    });
    expect(run.progress.map((p) => p.done)).toEqual([0, 1, 2, 3, 4]);
    expect(run.progress[1]).toEqual({ done: 1, total: 4, message: 'Checking cut off' });
    expect(await Promise.all([good, cutOff, swapped, gone].map(brokenMark))).toEqual([false, true, true, true]);

    // Again: the same three, none newly marked.
    expect((await generate(setId)).notes).toMatchObject({ broken: 3, newlyBroken: 0 });

    restore();
    const cleared = await clearBroken(setId);
    expect(cleared.notes).toEqual({
      checked: 3,
      fixed: 1,
      stillBroken: 2,
      stillBrokenImages: [
        { image: swapped, label: 'swapped', reason: 'Its file is 60 x 40 pixels, but the image is recorded as 120 x 80.' },
        { image: gone, label: 'gone', reason: 'Its stored file is missing from the data directory.' },
      ],
    });
    expect(await Promise.all([good, cutOff, swapped, gone].map(brokenMark))).toEqual([false, false, true, true]);
    expect((await clearBroken(setId)).notes).toMatchObject({ checked: 2, fixed: 0, stillBroken: 2 });
  });

  it('GenerateManifests notes an image that reads well but is still marked broken, for SetBrokenNull', async () => {
    const setId = await createSet(t.app, owner.auth, 'Marked');
    const image = await addImage(setId, 'fine now');
    const restore = await damageStoredImage(t.app, image, { truncate: true });
    await generate(setId);
    restore();
    expect((await generate(setId)).notes).toMatchObject({ broken: 0, markedBrokenButReadable: 1 });
  });

  it('GenerateManifests fails on a set without images: it has no manifest', async () => {
    const setId = await createSet(t.app, owner.auth, 'Empty');
    await expect(generate(setId)).rejects.toMatchObject({ status: 404, code: IIIF_NO_CANVASES_ERROR });
  });

  it('stops between images when the job is stopped', async () => {
    const setId = await createSet(t.app, owner.auth, 'Stopped');
    const first = await addImage(setId, 'first');
    const second = await addImage(setId, 'second');
    await damageStoredImage(t.app, first, { truncate: true });
    await damageStoredImage(t.app, second, { truncate: true });
    const running = runExecutor(t.app, generateManifests, { type: 'GenerateManifests', settings: { imageSet: setId }, ownerId: owner.userId }, (run) => {
      if (run.progress.length === 1) run.controller.abort(new Error('cancelled'));
    });
    await expect(running).rejects.toThrow('cancelled');
    expect([await brokenMark(first), await brokenMark(second)]).toEqual([true, false]);
  });

  it("both act with their owner's rights", async () => {
    let imageId = '';
    const work = {
      fill: async (someone: { auth: { authorization: string } }, setId: string) => {
        imageId = await addImage(setId, 'private', someone.auth);
        await damageStoredImage(t.app, imageId, { truncate: true });
      },
      state: async () =>
        t.app.database.db.selectFrom('document_image').select('broken').where('id', '=', imageId).executeTakeFirstOrThrow(),
    };
    await expectOwnerRights(t, generateManifests, 'GenerateManifests', work);
    await expectOwnerRights(t, setBrokenNull, 'SetBrokenNull', work);
  });
});
