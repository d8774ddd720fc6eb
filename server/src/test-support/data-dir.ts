import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OWNER_FILE } from '../platform/storage/staging.js';

/** The files below `dir`, relative to it (none when it does not exist). */
function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

/** What a test's data dir holds: the file store's files (sorted) and what is staged in tmp (the staging folders' owner files aside). */
export function dataDirFiles(dataDir: string): { store: () => string[]; tmp: () => string[] } {
  return {
    store: () => filesIn(path.join(dataDir, 'files')).sort(),
    tmp: () => filesIn(path.join(dataDir, 'tmp')).filter((f) => path.basename(f) !== OWNER_FILE),
  };
}

/** A process id that no process has any more: that of a child that has exited. */
export function endedProcessId(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (!child.pid) throw new Error('could not start a child process');
  return child.pid;
}

/**
 * A staging folder under `<dataDir>/tmp` as another process leaves it: its owner file (touched
 * `touchedAgoMs` ago) and some staged files of the given sizes.
 */
export function stagingFolder(dataDir: string, name: string, owner: { host?: string; pid: number; touchedAgoMs?: number }, sizes: number[]): string {
  const dir = path.join(dataDir, 'tmp', name);
  fs.mkdirSync(dir, { recursive: true });
  sizes.forEach((size, i) => fs.writeFileSync(path.join(dir, `staged-${i}`), Buffer.alloc(size, 1)));
  const ownerFile = path.join(dir, OWNER_FILE);
  fs.writeFileSync(ownerFile, JSON.stringify({ host: owner.host ?? os.hostname(), pid: owner.pid, started: new Date().toISOString() }));
  const touched = new Date(Date.now() - (owner.touchedAgoMs ?? 0));
  fs.utimesSync(ownerFile, touched, touched);
  return dir;
}
