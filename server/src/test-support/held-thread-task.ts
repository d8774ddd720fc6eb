// Runs in a worker thread: a task of the pool, made observable and holdable from the main thread.

/** The gate's slots: the thread sets STARTED when the task begins; the main thread sets RELEASED to let its result go. */
export const STARTED = 0;
export const RELEASED = 1;

/**
 * Calls `fn` of `module` here in the thread, as the pool would, after telling the main thread it
 * started; its result is then held until the main thread releases it. So a test knows for certain
 * that the task is under way in the thread while it checks what the event loop does meanwhile.
 */
export async function runHeld(gate: SharedArrayBuffer, module: string, fn: string, ...args: unknown[]): Promise<unknown> {
  const state = new Int32Array(gate);
  Atomics.store(state, STARTED, 1);
  Atomics.notify(state, STARTED);
  const result = await ((await import(module)) as Record<string, (...a: unknown[]) => unknown>)[fn]!(...args);
  Atomics.wait(state, RELEASED, 0);
  return result;
}
