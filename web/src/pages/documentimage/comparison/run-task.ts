import { computeTask, type ComparisonResults, type ComparisonTasks, type TaskKind } from './compute';

type Reply = { id: number; result: unknown } | { id: number; error: string };
type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

const pending = new Map<number, Pending>();
let nextId = 0;
// undefined: not started yet; null: none here (jsdom) or it failed to start.
let worker: Worker | null | undefined;

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  const started = new Worker(new URL('./comparison.worker.ts', import.meta.url), { type: 'module' });
  started.addEventListener('message', (event: MessageEvent<Reply>) => {
    const reply = event.data;
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new Error(reply.error));
    else waiting?.resolve(reply.result);
  });
  // A worker that cannot load: what it was asked is answered on the page, and so is what comes after.
  started.addEventListener('error', () => {
    worker = null;
    for (const waiting of pending.values()) waiting.reject(new Error('The comparison worker failed.'));
    pending.clear();
  });
  return started;
}

/** Whether tasks run off the page's thread here. */
export function hasWorker(): boolean {
  if (worker === undefined) worker = startWorker();
  return worker !== null;
}

/** Runs a task in the worker; where that fails, on the page. */
export function runTask<K extends TaskKind>(kind: K, input: ComparisonTasks[K]): Promise<ComparisonResults[K]> {
  const task = { kind, ...input };
  const onPage = () => computeTask(task);
  if (!hasWorker()) return Promise.resolve(onPage());
  const id = nextId++;
  const answer = new Promise<ComparisonResults[K]>((resolve, reject) => {
    pending.set(id, { resolve: (result) => resolve(result as ComparisonResults[K]), reject });
  });
  worker!.postMessage({ id, task });
  return answer.catch(onPage);
}
