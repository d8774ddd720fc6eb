// The spawner's process (see spawner.ts): a small Node process that starts programs for the
// server and sends back what they wrote. It ends, and ends what it started, when the server does.
import { type ChildProcess, spawn } from 'node:child_process';
import type { SpawnReply, SpawnRequest } from './spawner.js';

const running = new Map<number, ChildProcess>();

function reply(message: SpawnReply): void {
  process.send?.(message);
}

function start({ id, command, args, stderrKept }: Extract<SpawnRequest, { kind: 'spawn' }>): void {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.set(id, child);
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-stderrKept);
  });
  child.on('error', (err) => {
    running.delete(id);
    reply({ kind: 'failed', id, message: err.message });
  });
  child.on('close', (code, signal) => {
    if (!running.delete(id)) return;
    reply({ kind: 'exited', id, code, signal, stdout: Buffer.concat(stdout), stderr });
  });
}

process.on('message', (message: SpawnRequest) => {
  if (message.kind === 'spawn') start(message);
  else running.get(message.id)?.kill(message.signal);
});

/** Ends what it started, then itself: when the server goes (its IPC channel closes) or closes it. */
function end(): void {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
}

process.on('disconnect', end);
// It leads a session of its own (priority.ts), out of reach of the signals the server's terminal
// sends its group: when the server closes it (SIGTERM) it ends what it runs too.
process.on('SIGTERM', end);
