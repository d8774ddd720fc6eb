import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { FileStore } from '../platform/storage/file-store.js';
import { endedProcessId, stagingFolder } from '../test-support/data-dir.js';
import { createTestApp, signedInUser, type TestApp } from '../test-support/test-app.js';
import { openTestDatabase } from '../test-support/test-db.js';
import { createSet, testImage, upload } from '../test-support/upload-files.js';
import { collectFileGarbage } from './files-gc.js';
import type { CliIO } from './io.js';
import { runCli } from './run.js';

function capture(): CliIO & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (s) => lines.push(s), err: (s) => lines.push(`error: ${s}`) };
}

describe('pim files gc', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const store = () => t.app.services.files;
  const inStore = (sha256: string) => fs.existsSync(store().pathOf(sha256));

  it('is listed with its --dry-run option', async () => {
    const io = capture();
    expect(await runCli(['files', 'gc', '--help'], {}, io)).toBe(0);
    expect(io.lines.join('\n')).toMatch(/Usage: pim files gc \[--dry-run\][\s\S]*--dry-run\s+only list what would be deleted/);
  });

  it('deletes the stored files no row names, keeps the others, and says what it freed', async () => {
    const owner = await signedInUser(t.app);
    const setId = await createSet(t.app, owner.auth);
    const res = await upload(t.app, owner.auth, setId, [{ fileName: 'kept.png', bytes: await testImage('png', 40, 30) }]);
    expect(res.status).toBe(200);
    const kept = (await t.app.database.db.selectFrom('stored_file').select('sha256').executeTakeFirstOrThrow()).sha256;
    // What a crash between publishing and committing leaves: bytes no row names.
    const orphan = await store().stage(Buffer.alloc(2048, 7));
    await store().publish([orphan]);

    const dryRun = capture();
    expect(await collectFileGarbage(t.app.database.db, store(), dryRun, true)).toBe(0);
    expect(dryRun.lines).toEqual([`Would remove ${orphan.sha256} (2 KB)`, 'Would free 1 file, 2 KB (dry run: nothing was removed).']);
    expect(inStore(orphan.sha256)).toBe(true);

    const io = capture();
    expect(await collectFileGarbage(t.app.database.db, store(), io, false)).toBe(0);
    expect(io.lines).toEqual([`Removed ${orphan.sha256} (2 KB)`, 'Freed 1 file, 2 KB.']);
    expect(inStore(orphan.sha256)).toBe(false);
    expect(inStore(kept)).toBe(true);

    const again = capture();
    await collectFileGarbage(t.app.database.db, store(), again, false);
    expect(again.lines).toEqual(['Every stored file is in use: nothing to free.']);
    expect(inStore(kept)).toBe(true);
  });

  it('at start removes what ended processes left staged and keeps a live upload; files gc does the same, and --dry-run reports it', async () => {
    // An upload of the running server, staged and not yet published.
    const inProgress = await store().stage(Buffer.alloc(4096, 3));
    const crashed = stagingFolder(t.dataDir, 'crashed-before-restart', { pid: endedProcessId() }, [2048, 2048]);

    // A restart on the same data dir (a second server would do the same).
    const database = await openTestDatabase();
    const restarted = await buildApp(t.config, { database });
    await restarted.close();
    await database.close();
    expect(fs.existsSync(crashed)).toBe(false);
    expect(fs.readFileSync(inProgress.path)).toEqual(Buffer.alloc(4096, 3));

    const pid = endedProcessId();
    const later = stagingFolder(t.dataDir, 'crashed-later', { pid }, [1024, 1024, 1024]);
    const dryRun = capture();
    await collectFileGarbage(t.app.database.db, new FileStore(t.dataDir), dryRun, true);
    expect(dryRun.lines[0]).toBe(`Would remove tmp/crashed-later (3 files, 3 KB staged): left by process ${pid}, which has ended`);
    expect(fs.existsSync(later)).toBe(true);

    const io = capture();
    await collectFileGarbage(t.app.database.db, new FileStore(t.dataDir), io, false);
    expect(io.lines[0]).toBe(`Removed tmp/crashed-later (3 files, 3 KB staged): left by process ${pid}, which has ended`);
    expect(fs.existsSync(later)).toBe(false);
    expect(fs.existsSync(inProgress.path)).toBe(true);
    await inProgress.discard();
  });
});
