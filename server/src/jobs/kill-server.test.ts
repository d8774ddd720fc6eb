import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturePath } from '../test-support/fixtures.js';
import { apiCall, createAdminKey, type ServerProcess, startServerProcess, waitForJobState } from '../test-support/server-process.js';

/** A real 300 dpi scan (Alice, from hocr-tools): Tesseract takes a few seconds on each copy. */
const ALICE = fixturePath('hocr', 'alice_1.png');

/**
 * The built server, killed with SIGKILL (no shutdown at all) and started again on the same data
 * dir: its jobs are rows of the embedded database, so they are all still there. (The PostgreSQL
 * project skips it: the embedded database in a data dir is what a crash could lose.)
 */
describe.skipIf(process.env.PIM_TEST_DB === 'postgres')('a server killed with SIGKILL', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-kill-'));
  });
  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = undefined;
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

  it.skipIf(!fs.existsSync(ALICE))('runs a job it was killed in the middle of again once started, and stores each page once', async () => {
    const admin = await createAdminKey(dataDir);
    server = await startServerProcess(dataDir, { PIM_JOB_CONCURRENCY: '1' });
    const set = await apiCall(server, admin, 'POST', 'pim/documentimageset/create', { imageset: 'Killed mid-job' });
    const pages = ['one', 'two', 'three', 'four'];
    for (const name of pages) {
      const form = new FormData();
      form.append('filepond', new Blob([fs.readFileSync(ALICE)], { type: 'image/png' }), `${name}.png`);
      const res = await fetch(`${server.url}/api/pim/documentimageset/postfile?dataSetId=${set.json.uuid}`, { method: 'POST', headers: admin, body: form });
      expect(res.status, await res.text()).toBe(200);
    }
    const job = await apiCall(server, admin, 'POST', 'pim/jobs', { imageSet: set.json.uuid, jobType: 'Tesseract4Hocr' });
    expect(job.status).toBe(200);
    // Killed once the first page is stored and before the last one is.
    await waitForJobState(server, admin, job.json.uuid, (j) => j.state === 'running' && (j.progress?.done ?? 0) >= 1);
    await server.kill('SIGKILL');

    server = await startServerProcess(dataDir, { PIM_JOB_CONCURRENCY: '1' });
    const done = await waitForJobState(server, admin, job.json.uuid, (j) => j.state !== 'running' && j.state !== 'notStarted');
    expect(done).toMatchObject({ state: 'done', attempts: 2 });
    const images = await apiCall(server, admin, 'GET', `pim/documentimageset/${set.json.uuid}/documentimages`);
    expect(images.status).toBe(200);
    expect(images.json.total).toBe(pages.length);
    for (const image of images.json.results as { uuid: string }[]) {
      const transcriptions = await apiCall(server, admin, 'GET', `pim/documentimage/${image.uuid}/transcriptions`);
      expect(transcriptions.json, 'one hOCR transcription per page, however often the job ran').toHaveLength(1);
    }
  });
});
