/** Where the worker says what it does: a line per event, with the time. */
export interface WorkerLog {
  info(message: string): void;
  warn(message: string): void;
}

export function lineLog(out: (line: string) => void, err: (line: string) => void): WorkerLog {
  const stamp = () => new Date().toISOString();
  return { info: (m) => out(`${stamp()} ${m}`), warn: (m) => err(`${stamp()} ${m}`) };
}

/** Waits `ms`, or less when `signal` aborts meanwhile (it never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
