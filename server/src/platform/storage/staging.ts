import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The file in each staging folder that says which process it belongs to. */
export const OWNER_FILE = 'owner.json';
/** How often a live process touches its owner file. */
const HEARTBEAT_MS = 60_000;
/** An owner file untouched this long belongs to a process that has ended (or hung as long). */
export const STALE_MS = 5 * 60_000;

interface Owner {
  host: string;
  pid: number;
  started: string;
}

/** What a sweep found in `<dataDir>/tmp` that no live process owns. */
export interface StagingLeftover {
  /** The folder (or loose file) under tmp/. */
  name: string;
  files: number;
  bytes: number;
  /** Whose it was, in words. */
  reason: string;
}

/**
 * This process's own folder under `<dataDir>/tmp`, where it stages uploads and derivatives before
 * renaming them into place. It is made on first use with an owner file (host, pid) that a timer
 * touches every minute, so another process sharing the data dir (several servers on one
 * PostgreSQL database, or `pim files gc`) can tell it from the leftovers of one that crashed.
 */
export class StagingArea {
  private dir: string | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly root: string) {}

  /** The folder's name under tmp/, once it is made. */
  get name(): string | undefined {
    return this.dir && path.basename(this.dir);
  }

  /** The folder, made with its owner file on first use. */
  path(): string {
    if (this.dir) return this.dir;
    const dir = path.join(this.root, `${process.pid}-${randomBytes(4).toString('hex')}`);
    writeOwner(dir);
    this.dir = dir;
    this.heartbeat = setInterval(() => this.touch(dir), HEARTBEAT_MS);
    this.heartbeat.unref();
    return dir;
  }

  /** Stops the heartbeat and removes the folder with whatever is still staged in it. */
  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = this.heartbeat = undefined;
  }

  /** Marks the folder as alive; makes it again if something removed it meanwhile. */
  private touch(dir: string): void {
    const now = new Date();
    try {
      fs.utimesSync(path.join(dir, OWNER_FILE), now, now);
    } catch {
      writeOwner(dir);
    }
  }
}

function writeOwner(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const owner: Owner = { host: os.hostname(), pid: process.pid, started: new Date().toISOString() };
  fs.writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify(owner));
}

/**
 * Removes (or, in a dry run, only lists) what is in `root` that no live process owns: folders of
 * processes that have ended (same host, pid gone) or have not touched their owner file for
 * STALE_MS (another host, or a pid taken over by another program), folders without an owner file
 * that old, and loose files, which no version that stages into owned folders writes.
 */
export function sweepStaging(root: string, options: { dryRun: boolean; keep?: string }): StagingLeftover[] {
  const leftovers: StagingLeftover[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (entry.name === options.keep) continue;
    const full = path.join(root, entry.name);
    const reason = entry.isDirectory() ? whyLeftover(full) : 'a loose file that no process owns';
    if (!reason) continue;
    leftovers.push({ name: entry.name, ...measure(full), reason });
    if (!options.dryRun) fs.rmSync(full, { recursive: true, force: true });
  }
  return leftovers;
}

/** Why a staging folder is a leftover, or undefined while its process may still use it. */
function whyLeftover(dir: string): string | undefined {
  const ownerFile = path.join(dir, OWNER_FILE);
  const touched = fs.statSync(ownerFile, { throwIfNoEntry: false })?.mtimeMs;
  const owner = touched === undefined ? undefined : readOwner(ownerFile);
  if (!owner) {
    // A folder being made gets its owner file a moment later.
    const made = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    return Date.now() - made > STALE_MS ? 'a folder without an owner' : undefined;
  }
  if (owner.host === os.hostname() && !processRuns(owner.pid)) return `left by process ${owner.pid}, which has ended`;
  const unseen = Date.now() - touched!;
  if (unseen > STALE_MS) return `left by process ${owner.pid} on ${owner.host}, not seen for ${Math.round(unseen / 60_000)} minutes`;
  return undefined;
}

function readOwner(file: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Owner>;
    return typeof owner.host === 'string' && Number.isInteger(owner.pid) ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The files below a folder (or the one file) and their bytes. */
function measure(target: string): { files: number; bytes: number } {
  const stat = fs.lstatSync(target, { throwIfNoEntry: false });
  if (!stat) return { files: 0, bytes: 0 };
  if (!stat.isDirectory()) return { files: 1, bytes: stat.size };
  let files = 0;
  let bytes = 0;
  for (const name of fs.readdirSync(target, { recursive: true, encoding: 'utf8' })) {
    if (path.basename(name) === OWNER_FILE) continue;
    const file = fs.lstatSync(path.join(target, name), { throwIfNoEntry: false });
    if (file?.isFile()) {
      files += 1;
      bytes += file.size;
    }
  }
  return { files, bytes };
}
