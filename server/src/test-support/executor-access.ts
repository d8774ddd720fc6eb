import { JOB_MAKER_INACTIVE } from '../jobs/queue.js';
import type { JobType } from '@pim/contract';
import { expect } from 'vitest';
import type { Executor } from '../jobs/executor.js';
import { runExecutor } from './job-context.js';
import { call, signedInUser, type TestApp } from './test-app.js';

type SignedInUser = Awaited<ReturnType<typeof signedInUser>>;
import { createSet } from './upload-files.js';

/** What an executor would work on: `fill` puts it into the owner's set, `state` reads what it would change. */
export interface ExecutorWork {
  fill(owner: SignedInUser, setId: string): Promise<void>;
  state(setId: string): Promise<unknown>;
}

/**
 * Checks that an executor acts with its job owner's rights, as the API checks them: a set the owner
 * cannot see is not found, one they may only read is refused naming WRITE, a disabled owner is
 * acted for no more, a job without a set is refused, and in each case nothing is changed.
 */
export async function expectOwnerRights(t: TestApp, executor: Executor, type: JobType, work: ExecutorWork): Promise<void> {
  const owner = await signedInUser(t.app);
  const setId = await createSet(t.app, owner.auth, 'Someone else\'s set');
  await work.fill(owner, setId);
  const before = await work.state(setId);
  const unchanged = () => work.state(setId);

  const stranger = await signedInUser(t.app);
  await expect(runExecutor(t.app, executor, { type, settings: { imageSet: setId }, ownerId: stranger.userId })).rejects.toMatchObject({
    status: 404,
    message: `There is no image set with id ${setId}.`,
  });

  const published = await call(t.app, {
    method: 'POST',
    url: '/api/pim/documentimageset/update',
    headers: owner.auth,
    payload: { uuid: setId, imageset: 'Someone else\'s set', publicDocumentImageSet: true },
  });
  expect(published.status).toBe(200);
  await expect(runExecutor(t.app, executor, { type, settings: { imageSet: setId }, ownerId: stranger.userId })).rejects.toMatchObject({
    status: 403,
    message: 'You may read this image set but not change it: that needs WRITE permission on it.',
  });

  await t.app.services.users.setDisabled(owner.userId, true);
  await expect(runExecutor(t.app, executor, { type, settings: { imageSet: setId }, ownerId: owner.userId })).rejects.toMatchObject({
    status: 403,
    message: JOB_MAKER_INACTIVE,
  });

  await expect(runExecutor(t.app, executor, { type, settings: {}, ownerId: stranger.userId })).rejects.toMatchObject({
    status: 400,
    message: `A ${type} job works on an image set: create it again with one.`,
  });
  expect(await unchanged()).toEqual(before);
}
