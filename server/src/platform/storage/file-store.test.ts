import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { FileStore } from './file-store.js';

describe('FileStore', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-store-'));
  const store = new FileStore(dir);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const tmpFiles = () => dataDirFiles(dir).tmp();

  it('stages bytes in a temp file with their SHA-256 and size, and publishes them under it once', async () => {
    const a = await store.stage(Buffer.from('Foral de Évora'));
    const b = await store.stage(Readable.from([Buffer.from('Foral de '), Buffer.from('Évora')]));
    expect(a.sha256).toBe(createHash('sha256').update('Foral de Évora').digest('hex'));
    expect(b.sha256).toBe(a.sha256);
    expect(a.sizeBytes).toBe(Buffer.byteLength('Foral de Évora'));
    expect((await a.read()).toString()).toBe('Foral de Évora');
    expect(fs.readFileSync(b.path, 'utf8')).toBe('Foral de Évora');
    // Staged is not stored.
    await expect(store.read(a.sha256)).rejects.toMatchObject({ status: 404 });

    await store.publish([a, b]);
    expect((await store.read(a.sha256)).toString()).toBe('Foral de Évora');
    expect(tmpFiles()).toEqual([]);
    await a.discard();
    expect((await store.read(a.sha256)).toString()).toBe('Foral de Évora');
  });

  it('leaves nothing in the store when staged bytes are discarded', async () => {
    const staged = await store.stage(Buffer.from('refused'));
    await staged.discard();
    expect(tmpFiles()).toEqual([]);
    await expect(store.read(staged.sha256)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a stream over the limit with 413 and leaves no file behind', async () => {
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store.stage(big, 1000)).rejects.toMatchObject({ status: 413 });
    expect(tmpFiles()).toEqual([]);
  });

  it('removes a stored file and lists what the store holds', async () => {
    const kept = await store.stage(Buffer.from('kept'));
    const gone = await store.stage(Buffer.from('gone'));
    await store.publish([kept, gone]);
    expect(await store.remove(gone.sha256)).toBe(true);
    expect(await store.remove(gone.sha256)).toBe(false);
    const listed = [];
    for await (const f of store.storedFiles()) listed.push(f);
    expect(listed).toContainEqual({ sha256: kept.sha256, sizeBytes: 4 });
    expect(listed.map((f) => f.sha256)).not.toContain(gone.sha256);
  });

  it('answers a missing file with 404', async () => {
    await expect(store.read('0'.repeat(64))).rejects.toMatchObject({ status: 404 });
  });
});
