import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { modelSchema } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGHI_CONFIG, streamedLoghiZip } from '../../test-support/model-files.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

const MB = 1024 * 1024;
const MODEL_BYTES = 300 * MB;
/** How much the process may grow while 300 MB pass through it. */
const MAX_RISE = 150 * MB;

/** Samples the process's resident memory every 25 ms until stopped; the highest value seen. */
function watchMemory(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

/** Passes bytes on while hashing and counting them. */
function measure(): Transform & { sha256(): string; bytes: number } {
  const hash = createHash('sha256');
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      t.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { sha256(): string; bytes: number };
  t.bytes = 0;
  t.sha256 = () => hash.digest('hex');
  return t;
}

describe('a large model upload', () => {
  let t: TestApp;
  let port: number;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await signedInUser(t.app, { admin: true })).auth;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('streams 300 MB into the store and back out with bounded memory', async () => {
    const boundary = `----pim-large-${randomBytes(8).toString('hex')}`;
    const opening = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="label"\r\n\r\nA large Loghi model\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    );
    const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
    const sent = measure();
    const zip = streamedLoghiZip(MODEL_BYTES).pipe(sent);
    const body = Readable.from(
      (async function* () {
        yield opening;
        for await (const chunk of zip) yield chunk as Buffer;
        yield closing;
      })(),
    );

    const before = process.memoryUsage().rss;
    const memory = watchMemory();
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/pim/loghihtr/model', headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      pipeline(body, req).catch(reject);
    });
    const uploadPeak = memory.stop();
    expect(answer.status, answer.text).toBe(201);
    const model = modelSchema.parse(JSON.parse(answer.text));
    expect(sent.bytes).toBeGreaterThan(MODEL_BYTES);
    expect(model.size).toBe(sent.bytes);
    expect(model.properties).toEqual(LOGHI_CONFIG);
    const uploaded = sent.sha256();
    expect(fs.statSync(t.app.services.files.pathOf(uploaded)).size).toBe(sent.bytes);
    expect(uploadPeak - before, `memory rose by ${Math.round((uploadPeak - before) / MB)} MB`).toBeLessThan(MAX_RISE);

    const downloadMemory = watchMemory();
    const received = measure();
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: `/api/pim/loghihtr/model/${model.uuid}/binary`, headers: auth }, resolve).on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(sent.bytes));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="loghihtrmodel_${model.uuid}.zip"`);
    await pipeline(res, received, async function* (source) {
      for await (const _chunk of source) yield* [];
    });
    const downloadPeak = downloadMemory.stop();
    expect(received.bytes).toBe(sent.bytes);
    expect(received.sha256()).toBe(uploaded);
    expect(downloadPeak - before, `memory rose by ${Math.round((downloadPeak - before) / MB)} MB`).toBeLessThan(MAX_RISE);
  }, 120_000);
});
