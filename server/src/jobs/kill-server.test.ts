import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiCall, createAdminKey, type ServerProcess, startServerProcess, waitForJobState } from '../test-support/server-process.js';

/**
 * The built server, killed with SIGKILL (no shutdown at all) and started again on the same data
 * dir: its jobs are rows of the embedded database, so they are all still there. (The PostgreSQL
 * project skips it: the embedded database in a data dir is what a crash could lose.)
 */
describe.skipIf(process.env.PIM_TEST_DB === 'postgres')('a server killed with SIGKILL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-kill-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('still has, once started again, the job queued before it was killed', async () => {
    const admin = await createAdminKey(dataDir);
    server = await startServerProcess(dataDir);
    const set = await apiCall(server, admin, 'POST', 'pim/documentimageset/create', { imageset: 'Before the crash' });
    expect(set.status).toBe(201);
    // No worker runs P2PaLA, so the job waits in the queue when the server dies.
    const queued = await apiCall(server, admin, 'POST', 'pim/jobs', { imageSet: set.json.uuid, jobType: 'P2PaLA', exp_name: 'crash', priority: 3 });
    expect(queued.status).toBe(200);

    await server.kill('SIGKILL');
    expect(server.child.signalCode).toBe('SIGKILL');

    server = await startServerProcess(dataDir);
    const after = await waitForJobState(server, admin, queued.json.uuid, () => true);
    expect(after).toMatchObject({
      id: queued.json.id,
      state: 'notStarted',
      priority: 3,
      documentImageset: { uuid: set.json.uuid, name: 'Before the crash' },
      settings: { exp_name: 'crash' },
      waitingFor: 'Waiting for a worker that runs P2PaLA.',
    });
    expect((await apiCall(server, admin, 'GET', 'pim/p2palajob')).json).toHaveLength(1);
  });
});
