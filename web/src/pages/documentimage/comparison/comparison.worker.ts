import { computeTask, type ComparisonTask } from './compute';

/** The comparison's measures and alignments, off the page's thread: a long page takes a good part of a second. */
self.addEventListener('message', (event: MessageEvent<{ id: number; task: ComparisonTask }>) => {
  const { id, task } = event.data;
  try {
    self.postMessage({ id, result: computeTask(task) });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
});
