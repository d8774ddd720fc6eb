import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.js';
import { ownEntry } from './own-entry.js';

/**
 * One call to run in a thread: the exported function `fn` of `module` (a URL, usually
 * `new URL('./x.js', import.meta.url)`), with structured-cloneable arguments. Buffers listed in
 * `transfer` move to the thread instead of being copied.
 */
export interface ThreadTask {
  module: URL;
  fn: string;
  args: unknown[];
  transfer?: ArrayBuffer[];
  /** This task's time limit, instead of the pool's. */
  timeoutMs?: number;
}

export interface WorkerPoolOptions {
  /** Threads at most; further tasks wait in order. */
  size: number;
  /** The heap of one thread: a task that needs more fails alone (`ThreadOutOfMemory`), the server lives on. */
  maxHeapMb: number;
  /** A task running longer is stopped (its thread is terminated) and fails with `ThreadTimeout`. */
  timeoutMs: number;
  /** An idle thread is ended after this long, so the memory a large task took is given back. */
  idleMs?: number;
}

/** A task needed more memory than a thread may have. */
export class ThreadOutOfMemory extends Error {
  constructor() {
    super('The task needed more memory than a worker thread may use.');
    this.name = 'ThreadOutOfMemory';
  }
}

/** A task ran longer than the pool allows. */
export class ThreadTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The task ran longer than ${timeoutMs} ms and was stopped.`);
    this.name = 'ThreadTimeout';
  }
}

/** What the thread posts back (see worker-entry.ts). */
export type ThreadReply =
  | { started: true }
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string; stack?: string; status?: number; code?: string; details?: unknown } };

interface Pending {
  task: ThreadTask;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
}

const ENTRY = ownEntry('worker-entry', import.meta.url);

/**
 * A small pool of worker threads for CPU-heavy steps of a request (parsing large XML, rendering
 * PDF pages), so the event loop keeps answering other users meanwhile. Each thread has a heap cap
 * and each task a time limit; a thread that fails or is stopped is replaced by a fresh one.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Runs the task in a thread and resolves with the function's (awaited) result. */
  run<T>(task: ThreadTask): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed.'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Threads currently alive (for tests and diagnostics). */
  get threads(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('The worker pool is closed.'));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot, new Error('The worker pool is closed.'))));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.busy === null) ?? (this.slots.length < this.options.size ? this.spawn() : null);
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(ENTRY.url, {
      execArgv: ENTRY.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, busy: null, timer: null, idleTimer: null };
    worker.on('message', (reply: ThreadReply) => {
      if ('started' in reply) this.startClock(slot);
      else this.settle(slot, reply);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const error = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ThreadOutOfMemory() : err;
      void this.stop(slot, error);
    });
    worker.on('exit', () => void this.stop(slot, new Error('A worker thread ended unexpectedly.')));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.busy = pending;
    slot.worker.ref();
    const { module, fn, args, transfer } = pending.task;
    slot.worker.postMessage({ module: module.href, fn, args }, transfer ?? []);
  }

  /** The time limit counts from the call, not from starting the thread and loading the module. */
  private startClock(slot: Slot): void {
    const limit = slot.busy?.task.timeoutMs ?? this.options.timeoutMs;
    slot.timer = setTimeout(() => void this.stop(slot, new ThreadTimeout(limit)), limit);
  }

  private settle(slot: Slot, reply: Exclude<ThreadReply, { started: true }>): void {
    const pending = slot.busy;
    if (!pending) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(toError(reply.error));
    // An idle thread must not keep the process alive, and is ended after a while.
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => void this.stop(slot, null), this.options.idleMs ?? 30_000);
    slot.idleTimer.unref();
    this.dispatch();
  }

  /** Ends a thread; its task (if any) fails with `error`, and waiting tasks get a fresh thread. */
  private async stop(slot: Slot, error: Error | null): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.timer = slot.idleTimer = null;
    const pending = slot.busy;
    slot.busy = null;
    if (pending) pending.reject(error ?? new Error('A worker thread ended unexpectedly.'));
    await slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}

/** Errors cross the thread boundary as plain data; an AppError comes back as one. */
function toError(e: Extract<ThreadReply, { ok: false }>['error']): Error {
  const error = e.status !== undefined && e.code !== undefined ? new AppError(e.status, e.code, e.message, e.details) : new Error(e.message);
  if (e.stack) error.stack = e.stack;
  return error;
}

/** Threads for request work: all cores but one for the event loop, at least one, at most four. */
export function defaultThreadCount(): number {
  return Math.min(4, Math.max(1, os.availableParallelism() - 1));
}
