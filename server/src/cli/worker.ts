import fs from 'node:fs';
import { WorkerClient } from '../workers/client.js';
import { TemplateError } from '../workers/command-template.js';
import { WorkerLoop } from '../workers/loop.js';
import { JobFailure } from '../workers/runners.js';
import { identityOf, runnersOf } from '../workers/setup.js';
import { lineLog } from '../workers/worker-log.js';
import { type CliIO, type OptionValues, UsageError } from './io.js';

/** `pim worker`: runs jobs of a PIM server here until SIGINT or SIGTERM; a second signal ends it at once. */
export async function workerCommand(values: OptionValues, io: CliIO): Promise<number> {
  const server = serverUrl(String(values.server));
  const key = keyOf(values);
  const concurrency = positiveInt(values.concurrency, 'concurrency', 1);
  const pollS = positiveNumber(values['poll-s'], 'poll-s', 5);
  let runners;
  try {
    runners = runnersOf({ types: String(values.types), commands: list(values.command), jobCommands: list(values['job-command']), versionOf: list(values['version-of']) });
  } catch (err) {
    if (err instanceof TemplateError) throw new UsageError(err.message);
    throw err;
  }
  let identity;
  try {
    identity = await identityOf(runners, typeof values.name === 'string' ? values.name : undefined);
  } catch (err) {
    if (!(err instanceof JobFailure)) throw err;
    io.err(err.message);
    return 1;
  }
  const log = lineLog(io.out, io.err);
  const loop = new WorkerLoop({ client: new WorkerClient(server, key), runners, identity, concurrency, pollMs: pollS * 1000, log });
  const stop = (signal: NodeJS.Signals) => {
    log.info(`${signal} received: claiming no more jobs; the running ones go back to the queue`);
    process.once(signal, () => process.exit(130));
    loop.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await loop.run();
    log.info('stopped');
    return 0;
  } catch (err) {
    io.err(err instanceof Error ? err.message : String(err));
    return 1;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}

/** The key from --key, or from the file --key-file names (kept out of the process list and shell history). */
function keyOf(values: OptionValues): string {
  const file = values['key-file'];
  if (typeof file === 'string' && file !== '') {
    if (values.key !== undefined) throw new UsageError('Give the key with --key or --key-file, not both.');
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`--key-file ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    const key = text.trim();
    if (!key || /\s/.test(key)) throw new UsageError(`--key-file ${file} must hold the key alone, on one line.`);
    return key;
  }
  if (typeof values.key === 'string' && values.key !== '') return values.key;
  throw new UsageError('Give the API key with --key KEY or --key-file FILE.');
}

function list(value: OptionValues[string]): string[] {
  if (value === undefined || typeof value === 'boolean') return [];
  return Array.isArray(value) ? value : [value];
}

function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server must be the server's address, e.g. https://pim.example.org, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--server must be an http or https address');
  return url.href;
}

function positiveInt(value: OptionValues[string], name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--${name} must be a whole number from 1 to 64`);
  return n;
}

function positiveNumber(value: OptionValues[string], name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError(`--${name} must be a number of seconds above 0, at most 3600`);
  return n;
}
