import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { WorkerPool } from '../../platform/threads/worker-pool.js';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { RELEASED, STARTED } from '../../test-support/held-thread-task.js';
import { multipartBody } from '../../test-support/multipart-body.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload, uploadRowCounts, uploadServiceOf } from '../../test-support/upload-files.js';
import { largePageXml, pageLine, pageXml } from '../../test-support/xml-files.js';
import { DEFAULT_UPLOAD_LIMITS, type IncomingUpload } from './service.js';

const HELD_TASK = new URL('../../test-support/held-thread-task.js', import.meta.url);

type WaitAsync = (array: Int32Array, index: number, value: number) => { async: boolean; value: Promise<string> | string };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/**
 * Makes the pool's tasks observable: each runs as before, in a thread of the pool, but tells when
 * it starts and keeps its result until released (see held-thread-task.ts).
 */
function holdTasksOf(pool: WorkerPool) {
  const gate = new SharedArrayBuffer(8);
  const state = new Int32Array(gate);
  const run = pool.run.bind(pool);
  const spy = vi.spyOn(pool, 'run').mockImplementation((task) =>
    run({ ...task, module: HELD_TASK, fn: 'runHeld', args: [gate, task.module.href, task.fn, ...task.args] }),
  );
  return {
    spy,
    /** Resolves once a task has started in its thread. */
    started: async () => {
      const { value } = waitAsync(state, STARTED, 0);
      await value;
    },
    release: () => {
      Atomics.store(state, RELEASED, 1);
      Atomics.notify(state, RELEASED);
    },
  };
}

/** One file as the route hands it to the upload service. */
function incoming(fileName: string, bytes: Buffer): IncomingUpload {
  return { file: async () => ({ fieldName: 'filepond', fileName, stream: Readable.from([bytes]) }), hasMoreFiles: async () => false };
}

/** A request over a real connection (the agent keeps it open), for what `inject` cannot show. */
function send(port: number, agent: http.Agent, options: { method: string; path: string; headers: Record<string, string>; body?: Buffer }) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, agent, method: options.method, path: options.path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('uploads: reading XML in a worker thread', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    setId = await createSet(t.app, owner.auth);
    await upload(t.app, owner.auth, setId, [{ fileName: 'big.png', bytes: await testImage('png', 60, 40) }]);
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  it('reads a 20 MB PAGE file of 100,000 lines in a thread, answering other requests meanwhile', { timeout: 120_000 }, async () => {
    const held = holdTasksOf(t.app.services.threads);
    const xml = largePageXml('big.png', 100_000);
    expect(xml.length).toBeGreaterThan(20 * 1024 * 1024);
    const uploading = upload(t.app, owner.auth, setId, [{ fileName: 'big.xml', bytes: xml }]);
    const answered = uploading.then(() => 'the upload was answered first' as const);
    // Without a thread the upload would be parsed (and answered) without the pool ever starting a task.
    expect(await Promise.race([held.started().then(() => 'started' as const), answered])).toBe('started');

    // The file is being read in the thread, its answer held there: the event loop is free.
    const other = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}`, headers: owner.auth });
    expect(other.status).toBe(200);
    expect(await Promise.race([answered, 'pending'])).toBe('pending');

    held.release();
    const res = await uploading;
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.message).toBe('big.xml: 100000 lines added to the image big.');
    expect(held.spy).toHaveBeenCalledTimes(1);
    const image = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${res.json.documentImages[0].uuid}`, headers: owner.auth });
    expect(image.json).toMatchObject({ types: ['page'], linesCount: 100_000 });
  });

  it('answers 400 when reading takes longer than the thread time limit, and 413 when it needs more memory than a thread has', async () => {
    const before = await uploadRowCounts(t.app);
    const serviceWith = (pool: WorkerPool) => uploadServiceOf(t.app, { threads: pool, limits: DEFAULT_UPLOAD_LIMITS });
    const slow = new WorkerPool({ size: 1, maxHeapMb: 256, timeoutMs: 300 });
    const small = new WorkerPool({ size: 1, maxHeapMb: 16, timeoutMs: 120_000 });
    try {
      // Held in the thread and never released: the pool stops it at its time limit.
      holdTasksOf(slow);
      await expect(serviceWith(slow).upload(owner.principal, setId, incoming('slow.xml', largePageXml('big.png', 10)))).rejects.toMatchObject({
        status: 400,
        message: 'Reading this XML file took longer than 300 ms and was stopped: split it into one file per page.',
      });
      await expect(serviceWith(small).upload(owner.principal, setId, incoming('big.xml', largePageXml('big.png', 100_000)))).rejects.toMatchObject({
        status: 413,
        message: 'This XML file needs more memory to read than the server gives one upload: split it into one file per page.',
      });
    } finally {
      await Promise.all([slow.close(), small.close()]);
    }
    expect(await uploadRowCounts(t.app)).toEqual(before);
    expect(dataDirFiles(t.dataDir).tmp()).toEqual([]);
  });
});

describe('uploads: PIM_XML_MAX_MB', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp({ PIM_XML_MAX_MB: '0.0625' });
    owner = await signedInUser(t.app);
    setId = await createSet(t.app, owner.auth);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  it('defaults to 64 MB and refuses a value that is not a positive number of megabytes', () => {
    expect(loadConfig({}).xmlMaxBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ PIM_XML_MAX_MB: '0.5' }).xmlMaxBytes).toBe(512 * 1024);
    expect(t.app.services.uploads.limits.maxXmlBytes).toBe(64 * 1024);
    for (const [value, message] of [
      ['0', 'PIM_XML_MAX_MB must be more than 0 megabytes'],
      ['lots', 'PIM_XML_MAX_MB must be a number of megabytes'],
    ]) {
      expect(() => loadConfig({ PIM_XML_MAX_MB: value })).toThrow(ConfigError);
      expect(() => loadConfig({ PIM_XML_MAX_MB: value })).toThrow(`PIM_XML_MAX_MB: ${message}`);
    }
  });

  it('refuses a larger XML file with 413 before reading it, keeping nothing, and still takes images over that size', async () => {
    const image = await testImage('png', 300, 300);
    expect(image.length).toBeGreaterThan(64 * 1024);
    expect((await upload(t.app, owner.auth, setId, [{ fileName: 'p1.png', bytes: image }])).status).toBe(200);
    const lines = (count: number) => Array.from({ length: count }, (_, i) => pageLine(`l${i}`, 'Foral')).join('');
    const fits = Buffer.from(pageXml('p1.png', lines(300)));
    expect(fits.length).toBeLessThan(64 * 1024);
    expect((await upload(t.app, owner.auth, setId, [{ fileName: 'fits.xml', bytes: fits }])).status).toBe(200);

    const before = await uploadRowCounts(t.app);
    const files = dataDirFiles(t.dataDir).store();
    const run = vi.spyOn(t.app.services.threads, 'run');
    const over = Buffer.from(pageXml('p1.png', lines(1000)));
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'over.xml', bytes: over }]);
    expect(res.status).toBe(413);
    expect(res.json.message).toBe('This XML file is larger than the limit of 64 KB for PAGE, ALTO and hOCR files: split it into one file per page.');
    expect(run).not.toHaveBeenCalled();
    expect(await uploadRowCounts(t.app)).toEqual(before);
    expect(dataDirFiles(t.dataDir).store()).toEqual(files);
    expect(dataDirFiles(t.dataDir).tmp()).toEqual([]);
  });

  it('refuses an XML upload that breaks off with 400, keeping nothing of it', async () => {
    const before = await uploadRowCounts(t.app);
    const xml = Buffer.from(pageXml('p1.png', pageLine('l1', 'x'.repeat(32 * 1024))));
    const { payload, headers } = multipartBody([{ name: 'filepond', fileName: 'cut.xml', bytes: xml }], { cutOff: true });
    const res = await call(t.app, { method: 'POST', url: `/api/pim/documentimageset/postfile?dataSetId=${setId}`, headers: { ...owner.auth, ...headers }, payload });
    expect({ status: res.status, message: res.json.message }).toEqual({ status: 400, message: 'The upload was interrupted before the whole file arrived. Try again.' });
    expect(await uploadRowCounts(t.app)).toEqual(before);
    expect(dataDirFiles(t.dataDir).tmp()).toEqual([]);
  });

  it('answers the refusal at once and reads the rest of the body, so the connection serves the next request', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    // One connection, kept open: the next request waits for this one's body to be read.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const xml = Buffer.from(pageXml('p1.png', pageLine('l1', 'x'.repeat(4 * 1024 * 1024))));
      const { payload, headers } = multipartBody([{ name: 'filepond', fileName: 'huge.xml', bytes: xml }]);
      const path = `/api/pim/documentimageset/postfile?dataSetId=${setId}`;
      const refused = await send(port, agent, { method: 'POST', path, headers: { ...owner.auth, ...headers }, body: payload });
      expect(refused.status).toBe(413);
      const next = await send(port, agent, { method: 'GET', path: `/api/pim/documentimageset/${setId}`, headers: owner.auth });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
    expect(dataDirFiles(t.dataDir).tmp()).toEqual([]);
  });
});
