import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Job } from '@pim/contract';

/** The built server's command line: `npm run build` makes it (`npm test` builds before the tests run). */
export const SERVER_MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

/** A server started as its own process, as an operator starts it: `pim serve` on a data dir. */
export interface ServerProcess {
  /** http://127.0.0.1:PORT, where it listens. */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr), for the messages of a failing test. */
  output(): string;
  /** Sends the signal and waits until the process has exited. SIGKILL: no shutdown at all, as in a crash. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The environment of a child server: this process's (PATH, HOME), the data dir, and what the test adds. */
function childEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return { ...inherited, PIM_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env };
}

function requireBuilt(): void {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`The server is not built (${SERVER_MAIN} is missing): run \`npm run build\` first.`);
}

/** Runs a `pim` command of the built server to its end; its output, or an error with it. */
export function runPim(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  requireBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_MAIN, ...args], { env: childEnv(dataDir, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`pim ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

/** An API key with the ADMIN role made by `pim apikeys create` (the server must not be running on a PGlite data dir). */
export async function createAdminKey(dataDir: string, env: Record<string, string> = {}): Promise<{ authorization: string }> {
  const output = await runPim(dataDir, ['apikeys', 'create', '--user', 'test harness', '--roles', 'ADMIN'], env);
  const key = /Key \(shown only now, stored hashed\): (\S+)/.exec(output)?.[1];
  if (!key) throw new Error(`pim apikeys create printed no key:\n${output}`);
  return { authorization: `ApiKey ${key}` };
}

/**
 * Starts `pim serve` on the data dir on a free port and resolves once it listens. It is a
 * separate process: the test can kill it with SIGKILL mid-job and start another on the same data.
 */
export function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  requireBuilt();
  const child = spawn(process.execPath, [SERVER_MAIN, 'serve'], { env: childEnv(dataDir, env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const listening = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /PIM is running at http:\/\/localhost:(\d+)\//.exec(output)?.[1];
      if (!port) return;
      child.stdout.off('data', listening);
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      resolve({
        url: `http://127.0.0.1:${port}`,
        child,
        output: () => output,
        kill: async (signal = 'SIGKILL') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout.on('data', listening);
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`pim serve stopped before it listened (${signal ?? code}):\n${output}`)));
  });
}

/** A call to the API of a server process, with the parsed JSON answer. */
export async function apiCall(
  server: ServerProcess,
  auth: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}/api/${path}`, {
    method,
    headers: { ...auth, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/**
 * Asks the server process for the job until it is as `wanted` says: it waits for a state, not a
 * time (the test's time limit ends it if the state never comes).
 */
export async function waitForJobState(server: ServerProcess, auth: Record<string, string>, id: string | number, wanted: (job: Job) => boolean): Promise<Job> {
  for (;;) {
    const res = await apiCall(server, auth, 'GET', `pim/jobs/${id}`);
    if (res.status !== 200) throw new Error(`GET pim/jobs/${id}: ${res.status} ${JSON.stringify(res.json)}\n${server.output()}`);
    if (wanted(res.json as Job)) return res.json as Job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A `pim worker` of the built server run as its own process, as on another machine. */
export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
  /** Sends the signal (SIGTERM: stop cleanly) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startWorkerProcess(args: string[]): WorkerProcess {
  requireBuilt();
  const child = spawn(process.execPath, [SERVER_MAIN, 'worker', ...args], { env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
