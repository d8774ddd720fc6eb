import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endedProcessId, stagingFolder } from '../../test-support/data-dir.js';
import { FileStore } from './file-store.js';
import { OWNER_FILE, STALE_MS } from './staging.js';

describe('staging folders and their owners', () => {
  let dataDir: string;
  const tmp = () => path.join(dataDir, 'tmp');
  const inTmp = () => fs.readdirSync(tmp()).sort();
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-staging-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('stages into a folder of this process, made on first use with an owner file, and removed on close', async () => {
    const store = new FileStore(dataDir);
    expect(inTmp()).toEqual([]);
    const staged = await store.stage(Buffer.from('Foral de Évora'));
    const [folder] = inTmp();
    expect(folder).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{8}$`));
    expect(path.dirname(staged.path)).toBe(path.join(tmp(), folder!));
    expect(JSON.parse(fs.readFileSync(path.join(tmp(), folder!, OWNER_FILE), 'utf8'))).toMatchObject({ host: os.hostname(), pid: process.pid });
    await store.putCache(store.cachePath('a', 'b'), Buffer.from('tile'));
    expect(inTmp()).toEqual([folder]);
    await store.close();
    expect(inTmp()).toEqual([]);
  });

  it('removes what ended processes left, whatever its age, and keeps what live processes are staging', async () => {
    const live = new FileStore(dataDir);
    const upload = await live.stage(Buffer.alloc(100, 7));
    const ended = endedProcessId();
    stagingFolder(dataDir, 'ended-here', { pid: ended }, [1000, 24]);
    stagingFolder(dataDir, 'silent-elsewhere', { host: 'other-host', pid: 4242, touchedAgoMs: STALE_MS + 60_000 }, [10]);
    stagingFolder(dataDir, 'alive-elsewhere', { host: 'other-host', pid: 4242 }, [10]);
    fs.writeFileSync(path.join(tmp(), 'loose-upload'), 'half');
    fs.mkdirSync(path.join(tmp(), 'being-made'));
    const ownerless = path.join(tmp(), 'ownerless');
    fs.mkdirSync(ownerless);
    const old = new Date(Date.now() - STALE_MS - 60_000);
    fs.utimesSync(ownerless, old, old);

    // What a restarted server (or a second one on the same data dir) finds at its start.
    const dryRun = new FileStore(dataDir).sweepStaging(true);
    expect(dryRun.map((l) => l.name).sort()).toEqual(['ended-here', 'loose-upload', 'ownerless', 'silent-elsewhere']);
    expect(inTmp()).toHaveLength(7);

    const removed = new FileStore(dataDir).sweepStaging();
    expect(removed.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'ended-here', files: 2, bytes: 1024, reason: `left by process ${ended}, which has ended` },
      { name: 'loose-upload', files: 1, bytes: 4, reason: 'a loose file that no process owns' },
      { name: 'ownerless', files: 0, bytes: 0, reason: 'a folder without an owner' },
      { name: 'silent-elsewhere', files: 1, bytes: 10, reason: expect.stringMatching(/^left by process 4242 on other-host, not seen for \d+ minutes$/) },
    ]);
    expect(inTmp()).toEqual(['alive-elsewhere', 'being-made', path.basename(path.dirname(upload.path))].sort());
    expect(fs.readFileSync(upload.path)).toEqual(Buffer.alloc(100, 7));
    await live.close();
  });
});
