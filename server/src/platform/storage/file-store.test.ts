import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStore } from './file-store.js';

describe('FileStore', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-store-'));
  const store = new FileStore(dir);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores bytes under their SHA-256 once, and reads them back', async () => {
    const a = await store.put(Buffer.from('Foral de Évora'));
    const b = await store.put(Readable.from([Buffer.from('Foral de '), Buffer.from('Évora')]));
    expect(a).toEqual(b);
    expect(a.sha256).toBe(createHash('sha256').update('Foral de Évora').digest('hex'));
    expect(a.sizeBytes).toBe(Buffer.byteLength('Foral de Évora'));
    expect((await store.read(a.sha256)).toString()).toBe('Foral de Évora');
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('refuses a stream over the limit with 413 and leaves no file behind', async () => {
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store.put(big, 1000)).rejects.toMatchObject({ status: 413 });
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('answers a missing file with 404', async () => {
    await expect(store.read('0'.repeat(64))).rejects.toMatchObject({ status: 404 });
  });
});
