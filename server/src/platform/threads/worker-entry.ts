import { parentPort } from 'node:worker_threads';
import type { ThreadReply } from './worker-pool.js';

/**
 * The thread side of the worker pool: imports the task's module, calls the named export and posts
 * the result, or the error as plain data (status and code included, so an AppError survives).
 */
parentPort?.on('message', async (task: { module: string; fn: string; args: unknown[] }) => {
  let reply: Exclude<ThreadReply, { started: true }>;
  try {
    const module = (await import(task.module)) as Record<string, unknown>;
    const fn = module[task.fn];
    if (typeof fn !== 'function') throw new Error(`${task.module} has no function ${task.fn}.`);
    parentPort?.postMessage({ started: true } satisfies ThreadReply);
    reply = { ok: true, value: await (fn as (...args: unknown[]) => unknown)(...task.args) };
  } catch (err) {
    type Detailed = Error & { status?: unknown; code?: unknown; details?: unknown };
    const e: Detailed = err instanceof Error ? err : new Error(String(err));
    reply = {
      ok: false,
      error: {
        name: e.name,
        message: e.message,
        ...(e.stack !== undefined && { stack: e.stack }),
        ...(typeof e.status === 'number' && typeof e.code === 'string' && { status: e.status, code: e.code, details: e.details }),
      },
    };
  }
  parentPort?.postMessage(reply, transferables(reply));
});

/** A Buffer or typed array in the result moves back without a copy when it owns its whole buffer. */
function transferables(reply: Exclude<ThreadReply, { started: true }>): ArrayBuffer[] {
  if (!reply.ok) return [];
  const found: ArrayBuffer[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 3 || value === null || typeof value !== 'object') return;
    if (ArrayBuffer.isView(value)) {
      const { buffer, byteOffset, byteLength } = value;
      if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength && !found.includes(buffer)) found.push(buffer);
      return;
    }
    for (const item of Object.values(value)) visit(item, depth + 1);
  };
  visit(reply.value, 0);
  return found;
}
