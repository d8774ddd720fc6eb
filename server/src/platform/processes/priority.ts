import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * The niceness of background work (a job's programs, its database backend): when the API wants
 * the CPU at the same moment, the API gets it. On an idle machine background work runs as fast.
 */
export const BACKGROUND_NICE = 19;

/** Lowers a process of this machine to background priority; false where the system refuses (gone, or another user's). */
export function lowerPriority(pid: number): boolean {
  try {
    os.setPriority(pid, BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lowers the thread that calls it (a worker thread of background work) to background priority,
 * the server's other threads staying as they are: Linux schedules threads as tasks of their own,
 * each with its niceness, and `/proc/thread-self` names the caller's. The threads of one process
 * share its scheduling group, so within it the server's thread goes first. False where the system
 * has no such file or refuses.
 */
export function lowerThisThread(): boolean {
  const tid = thisThreadId();
  return tid !== null && lowerPriority(tid);
}

/** The system's number for the calling thread (Linux: `/proc/thread-self`); null where there is none. */
export function thisThreadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the scheduling group of a process that leads a session of its own. Where Linux groups a
 * session's processes for scheduling (autogroups, on by default), the groups share the CPU
 * evenly whatever their processes' niceness: a job's program at nice 19 whose group holds nothing
 * else weighs as much as the group of PostgreSQL's backends, and the API's queries ran at half
 * speed beside it. Only for our own session leaders: writing it for a process of the server's
 * session would lower the server. False where the kernel has no autogroups or refuses.
 */
function lowerSessionGroup(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(BACKGROUND_NICE));
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a Node process of ours (see ownEntry) that talks over IPC, at background priority: what
 * it does, and what it starts, comes after the API's requests. It leads a session of its own so
 * its scheduling group can be lowered too; it ends when its IPC channel closes, as with the server.
 */
export function forkInBackground(entry: { url: URL; execArgv: string[] }): ChildProcess {
  const child = fork(entry.url, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
  if (child.pid) {
    lowerPriority(child.pid);
    lowerSessionGroup(child.pid);
  }
  return child;
}

/**
 * Lowers the priority of the PostgreSQL backend serving one of our connections, where that server
 * runs on this machine. The process is checked first: `pid` is the server's number for it, which
 * on another host (or in another container) names some other process here, so it is lowered only
 * when its title is a PostgreSQL backend's for this connection (`postgres: user db
 * 127.0.0.1(port) ...`, or `[local]` over a socket).
 */
export function lowerBackendPriority(backend: { pid: number | null; user: string; database: string; clientPort: number | undefined }): boolean {
  if (!backend.pid) return false;
  let title: string;
  try {
    title = fs.readFileSync(`/proc/${backend.pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return false;
  }
  const client = backend.clientPort === undefined ? '[local]' : `(${backend.clientPort})`;
  if (!title.startsWith('postgres: ') || !title.includes(` ${backend.user} ${backend.database} `) || !title.includes(client)) return false;
  return lowerPriority(backend.pid);
}
