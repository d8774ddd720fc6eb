import type { ChildProcess } from 'node:child_process';
import { ownEntry } from '../threads/own-entry.js';
import { forkInBackground } from './priority.js';

/** What the server asks the spawner's process. */
export type SpawnRequest =
  | { kind: 'spawn'; id: number; command: string; args: string[]; stderrKept: number }
  | { kind: 'kill'; id: number; signal: NodeJS.Signals };

/** What the spawner's process answers, once per program started. */
export type SpawnReply =
  | { kind: 'exited'; id: number; code: number | null; signal: NodeJS.Signals | null; stdout: Buffer; stderr: string }
  | { kind: 'failed'; id: number; message: string };

export interface ProgramResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** The last `stderrKept` characters the program wrote to stderr. */
  stderr: string;
}

/** The program could not be started at all (not found, no permission), or the spawner died under it. */
export class SpawnFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpawnFailed';
  }
}

const ENTRY = ownEntry('spawner-child', import.meta.url);

interface Call {
  /** The spawner's process the program was started by. */
  child: ChildProcess;
  resolve: (result: ProgramResult) => void;
  reject: (err: Error) => void;
}

/**
 * Starts programs (Tesseract, once per page) from a small process of its own instead of the
 * server's. Starting a program forks the process that starts it, and fork copies that process's
 * page tables while its thread waits: measured here, 2 ms for a 50 MB process, 55 ms at 570 MB
 * and 140 ms at 2 GB, which the server (400 MB on PGlite at rest) would spend with every request
 * held, for every page of an OCR job. The spawner's process is forked once, when first needed,
 * and again if it dies; it ends when the server does.
 */
export class Spawner {
  private child: ChildProcess | undefined;
  private readonly calls = new Map<number, Call>();
  private nextId = 1;

  run(command: string, args: string[], options: { signal?: AbortSignal; stderrKept?: number } = {}): Promise<ProgramResult> {
    const { signal, stderrKept = 4000 } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const child = this.process();
    const id = this.nextId++;
    return new Promise<ProgramResult>((resolve, reject) => {
      const abort = () => child.send({ kind: 'kill', id, signal: 'SIGKILL' } satisfies SpawnRequest);
      signal?.addEventListener('abort', abort, { once: true });
      const settle = () => {
        signal?.removeEventListener('abort', abort);
        this.calls.delete(id);
        if (this.calls.size === 0) unref(child);
      };
      this.calls.set(id, {
        child,
        resolve: (result) => {
          settle();
          if (signal?.aborted) reject(signal.reason);
          else resolve(result);
        },
        reject: (err) => {
          settle();
          reject(signal?.aborted ? signal.reason : err);
        },
      });
      ref(child);
      child.send({ kind: 'spawn', id, command, args, stderrKept } satisfies SpawnRequest);
    });
  }

  /** Ends the spawner's process (and what it runs); a later run starts another. */
  close(): void {
    this.child?.kill();
    this.child = undefined;
  }

  private process(): ChildProcess {
    if (this.child?.connected && !this.child.killed) return this.child;
    // What it starts is a job's work: at background priority (inherited), behind the API.
    const child = forkInBackground(ENTRY);
    child.on('message', (reply: SpawnReply) => {
      const call = this.calls.get(reply.id);
      if (!call) return;
      if (reply.kind === 'failed') call.reject(new SpawnFailed(reply.message));
      else call.resolve({ code: reply.code, signal: reply.signal, stdout: Buffer.from(reply.stdout), stderr: reply.stderr });
    });
    child.on('exit', () => {
      if (this.child === child) this.child = undefined;
      for (const call of [...this.calls.values()]) if (call.child === child) call.reject(new SpawnFailed('The process that starts programs ended.'));
    });
    unref(child);
    this.child = child;
    return child;
  }
}

/** While programs run, the spawner keeps this process alive; idle, it does not hold it open. */
function ref(child: ChildProcess): void {
  child.ref();
  child.channel?.ref();
}

function unref(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
}

/** The server's one spawner. */
export const spawner = new Spawner();
