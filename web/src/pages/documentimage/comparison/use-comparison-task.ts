import { useEffect, useState } from 'react';
import { computeTask, type ComparisonResults, type ComparisonTasks, type TaskKind } from './compute';
import { hasWorker, runTask } from './run-task';

/**
 * Recent results, so that going back to the comparison tab (which unmounts when left) or to a
 * choice just left shows them at once.
 */
const recent = new Map<string, unknown>();
const RECENT = 12;

function remember(key: string, result: unknown) {
  recent.delete(key);
  recent.set(key, result);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
}

function keyOf(kind: TaskKind, input: object): string {
  // The texts may be long: one key string, compared by value, rather than a hash of our own.
  // Each value led by its length, so no text can run into the next whatever it holds.
  return [kind, ...Object.values(input).map(String)].map((value) => `${value.length}:${value}`).join('');
}

export interface TaskState<T> {
  /** The result of the task asked for, or while it is computed the last one this component had. */
  result: T | undefined;
  /** Whether `result` is not yet the one asked for. */
  busy: boolean;
}

/**
 * A comparison task's result, computed in the comparison's worker so that a long page does not
 * hold up the page; where there is no worker, computed at once, as a memo would.
 */
export function useComparisonTask<K extends TaskKind>(kind: K, input: ComparisonTasks[K]): TaskState<ComparisonResults[K]> {
  const key = keyOf(kind, input);
  let ready = recent.get(key) as ComparisonResults[K] | undefined;
  if (ready === undefined && !hasWorker()) {
    ready = computeTask({ kind, ...input });
    remember(key, ready);
  }
  const [arrived, setArrived] = useState<{ key: string; result: ComparisonResults[K] }>();
  // The key stands for the input: the effect runs again exactly when the input changes.
  const [asked, setAsked] = useState({ key, input });
  if (asked.key !== key) setAsked({ key, input });
  useEffect(() => {
    if (recent.has(asked.key)) return;
    let current = true;
    void runTask(kind, asked.input).then((result) => {
      remember(asked.key, result);
      if (current) setArrived({ key: asked.key, result });
    });
    return () => {
      current = false;
    };
  }, [kind, asked]);
  if (ready !== undefined) return { result: ready, busy: false };
  return { result: arrived?.result, busy: arrived?.key !== key };
}
