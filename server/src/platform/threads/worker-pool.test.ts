import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { ThreadOutOfMemory, ThreadTimeout, WorkerPool } from './worker-pool.js';

const tasks = new URL('../../test-support/thread-tasks.js', import.meta.url);
let pool: WorkerPool;
afterEach(() => pool?.close());

describe('WorkerPool', () => {
  it('runs an exported function in a thread and returns its result, Buffers included', async () => {
    pool = new WorkerPool({ size: 2, maxHeapMb: 64, timeoutMs: 60_000 });
    expect(await pool.run({ module: tasks, fn: 'add', args: [2, 3] })).toBe(5);
    const buffer = await pool.run<Uint8Array>({ module: tasks, fn: 'bytes', args: [1024] });
    expect(buffer.byteLength).toBe(1024);
    expect(buffer[1023]).toBe(7);
  });

  it('gives back an AppError thrown in the thread with its status and code', async () => {
    pool = new WorkerPool({ size: 1, maxHeapMb: 64, timeoutMs: 60_000 });
    const err = await pool.run({ module: tasks, fn: 'refuse', args: ['No, thanks.'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, code: 'bad_request', message: 'No, thanks.' });
    await expect(pool.run({ module: tasks, fn: 'missing', args: [] })).rejects.toThrow(/has no function missing/);
  });

  it('keeps the event loop free while a task holds its thread', async () => {
    pool = new WorkerPool({ size: 1, maxHeapMb: 64, timeoutMs: 60_000 });
    const flag = new SharedArrayBuffer(4);
    const held = pool.run<string>({ module: tasks, fn: 'waitForFlag', args: [flag] });
    // The thread is blocked until we say so; this side still runs timers and promises.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 1));
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    expect(await held).toBe('released');
  });

  it('queues tasks beyond its size and runs them in order', async () => {
    pool = new WorkerPool({ size: 1, maxHeapMb: 64, timeoutMs: 60_000 });
    const flag = new SharedArrayBuffer(4);
    const order: string[] = [];
    const first = pool.run({ module: tasks, fn: 'waitForFlag', args: [flag] }).then(() => order.push('first'));
    const second = pool.run({ module: tasks, fn: 'add', args: [1, 1] }).then(() => order.push('second'));
    expect(pool.threads).toBe(1);
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });

  it('fails a task that outgrows the heap cap, and goes on working with a fresh thread', async () => {
    pool = new WorkerPool({ size: 1, maxHeapMb: 32, timeoutMs: 120_000 });
    await expect(pool.run({ module: tasks, fn: 'exhaustMemory', args: [] })).rejects.toBeInstanceOf(ThreadOutOfMemory);
    expect(await pool.run({ module: tasks, fn: 'add', args: [20, 22] })).toBe(42);
  });

  it('stops a task that runs past the time limit', async () => {
    pool = new WorkerPool({ size: 1, maxHeapMb: 64, timeoutMs: 300 });
    const never = new SharedArrayBuffer(4);
    await expect(pool.run({ module: tasks, fn: 'waitForFlag', args: [never] })).rejects.toBeInstanceOf(ThreadTimeout);
    expect(await pool.run({ module: tasks, fn: 'add', args: [1, 2], timeoutMs: 60_000 })).toBe(3);
  });
});
