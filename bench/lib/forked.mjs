import { fork } from 'node:child_process';

/**
 * A bench script in a child process, spoken to over IPC: `next(kind)` waits for its next message
 * of a kind (an `{ kind: 'error', message }` rejects), `ask(message, kind)` sends and waits,
 * `close()` sends `{ kind: 'close' }` and waits for it to end.
 */
export function forked(script, { env = {}, execArgv = [] } = {}) {
  const proc = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (kind) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m.kind !== kind && m.kind !== 'error') return;
        proc.off('message', onMessage);
        proc.off('exit', onExit);
        if (m.kind === 'error') reject(new Error(m.message));
        else resolve(m);
      };
      const onExit = (code) => reject(new Error(`${script} ended with code ${code} before "${kind}"`));
      proc.on('message', onMessage);
      proc.on('exit', onExit);
    });
  return {
    next,
    send: (message) => proc.send(message),
    ask(message, kind) {
      const answer = next(kind);
      proc.send(message);
      return answer;
    },
    async close() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const ended = new Promise((resolve) => proc.once('exit', resolve));
      proc.send({ kind: 'close' });
      await ended;
    },
  };
}
