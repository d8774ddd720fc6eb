import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import type { FileStore, StagedFile } from './file-store.js';
import { insertStoredFiles, publishWithRows, removeUnreferenced } from './stored-file-repository.js';

describe('publishing stored files with their rows', () => {
  let t: TestApp;
  let store: FileStore;
  beforeAll(async () => {
    t = await createTestApp();
    store = t.app.services.files;
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const row = (staged: StagedFile) => ({
    id: randomUUID(),
    sha256: staged.sha256,
    sizeBytes: staged.sizeBytes,
    mediaType: 'text/plain',
    originalName: 'note.txt',
    ownerId: null,
  });
  const inStore = (sha256: string) => fs.existsSync(store.pathOf(sha256));
  const tmpFiles = () => dataDirFiles(t.dataDir).tmp();
  const rowsNaming = async (sha256: string) =>
    (await db().selectFrom('stored_file').select('id').where('sha256', '=', sha256).execute()).length;

  it('publishes the files with the rows that name them', async () => {
    const staged = await store.stage(Buffer.from(`published ${randomUUID()}`));
    expect(await publishWithRows(db(), store.publication([staged]), (trx) => insertStoredFiles(trx, [row(staged)]).then(() => true))).toBe(true);
    expect(inStore(staged.sha256)).toBe(true);
    expect(await rowsNaming(staged.sha256)).toBe(1);
    expect(tmpFiles()).toEqual([]);
  });

  it('removes the published files again when the transaction fails or records nothing', async () => {
    const failing = await store.stage(Buffer.from(`failing ${randomUUID()}`));
    const failure = publishWithRows(db(), store.publication([failing]), async (trx) => {
      await insertStoredFiles(trx, [row(failing)]);
      expect(inStore(failing.sha256)).toBe(true);
      throw new Error('the rows could not be written');
    });
    await expect(failure).rejects.toThrow('the rows could not be written');
    expect(inStore(failing.sha256)).toBe(false);
    expect(await rowsNaming(failing.sha256)).toBe(0);

    const idle = await store.stage(Buffer.from(`nothing recorded ${randomUUID()}`));
    expect(await publishWithRows(db(), store.publication([idle]), async () => false)).toBe(false);
    expect(inStore(idle.sha256)).toBe(false);
    expect(tmpFiles()).toEqual([]);
  });

  it('keeps a file that other rows name when a second publication of the same bytes fails', async () => {
    const bytes = Buffer.from(`shared ${randomUUID()}`);
    const first = await store.stage(bytes);
    await publishWithRows(db(), store.publication([first]), (trx) => insertStoredFiles(trx, [row(first)]).then(() => true));
    const second = await store.stage(bytes);
    await expect(
      publishWithRows(db(), store.publication([second]), () => Promise.reject(new Error('refused after publishing'))),
    ).rejects.toThrow('refused after publishing');
    expect(inStore(first.sha256)).toBe(true);
    expect(await rowsNaming(first.sha256)).toBe(1);
    expect(tmpFiles()).toEqual([]);
  });

  it('makes a clean-up wait for a publisher of the same bytes until it commits, then keeps the file', async () => {
    const bytes = Buffer.from(`raced ${randomUUID()}`);
    const orphan = await store.stage(bytes);
    // A failed upload's file, published but never recorded: the clean-up's target.
    await store.publish([orphan]);
    const staged = await store.stage(bytes);
    let published!: () => void;
    const isPublished = new Promise<void>((resolve) => (published = resolve));
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    const publishing = publishWithRows(db(), store.publication([staged]), async (trx) => {
      published();
      await mayCommit;
      await insertStoredFiles(trx, [row(staged)]);
      return true;
    });
    await isPublished;
    let cleanedUp: string[] | undefined;
    const cleanup = removeUnreferenced(db(), [staged.sha256], (sha256) => store.remove(sha256)).then((removed) => (cleanedUp = removed));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cleanedUp).toBeUndefined();
    commit();
    await publishing;
    await cleanup;
    expect(cleanedUp).toEqual([]);
    expect(inStore(staged.sha256)).toBe(true);
    expect(await rowsNaming(staged.sha256)).toBe(1);
  });
});
