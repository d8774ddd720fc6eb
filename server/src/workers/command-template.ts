import { spawn } from 'node:child_process';
import { JOB_MODEL_FIELD_NAMES, JOB_TYPE_INFO, type JobModelField, type JobType, jobTypeSchema } from '@pim/contract';
import type { ClaimedWorkerJob } from './client.js';
import type { JobModels } from './job-models.js';

/** The placeholders every per-image template (`--command`) may use, besides the job's settings of its type. */
export const IMAGE_PLACEHOLDERS = ['image', 'output', 'outputDir', 'imageId', 'label', 'fileName', 'width', 'height', 'jobId', 'jobUuid', 'setId'] as const;

/** The placeholders of a per-job template (`--job-command`): the folders of all the images and of the output, and the job's. */
export const JOB_PLACEHOLDERS = ['imagesDir', 'outputDir', 'jobId', 'jobUuid', 'setId'] as const;

/** Whether a template runs once per image (`--command`) or once per job (`--job-command`). */
export type TemplateScope = 'image' | 'job';

const OPTION: Record<TemplateScope, string> = { image: '--command', job: '--job-command' };

/** A command run per image, or once per job, for jobs of a type: `sh -c` with its placeholders filled in, each quoted. */
export interface CommandTemplate {
  type: JobType;
  scope: TemplateScope;
  template: string;
  /** The placeholders it names, checked against what a job of its type has. */
  placeholders: string[];
  /** Whether it names `{output}` or `{outputDir}`; if not, what the command prints is the file. */
  writesFile: boolean;
}

export class TemplateError extends Error {}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Reads `Type=template` (from `--command`, or `--job-command` for the job scope): the type must be
 * a job type, and every `{name}` in the template one of the scope's placeholders or a setting of
 * that type (`{exp_name}`, `{krakenModel}`).
 */
export function parseCommandTemplate(spec: string, scope: TemplateScope = 'image'): CommandTemplate {
  const option = OPTION[scope];
  const eq = spec.indexOf('=');
  if (eq <= 0) {
    const example = scope === 'image' ? "P2PaLA='p2pala --in {image} --out {output}'" : "FrogNer='frog-ner {imagesDir} {outputDir}'";
    throw new TemplateError(`${option} "${spec}" must be Type=command, e.g. ${example}.`);
  }
  const typeName = spec.slice(0, eq).trim();
  const template = spec.slice(eq + 1).trim();
  const type = jobTypeSchema.safeParse(typeName);
  if (!type.success) throw new TemplateError(`${option} names the job type "${typeName}", which does not exist. The types: ${jobTypeSchema.options.join(', ')}.`);
  if (!template) throw new TemplateError(`${option} for ${typeName} has no command after the =.`);
  const placeholders = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  const known = knownPlaceholders(type.data, scope);
  const unknown = placeholders.filter((p) => !known.includes(p));
  if (unknown.length > 0) {
    const what = scope === 'image' ? 'The command' : `The job command (run once per job, not per image)`;
    throw new TemplateError(
      `${what} for ${type.data} names ${unknown.map((u) => `{${u}}`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not known. ` +
        `It may use ${known.map((k) => `{${k}}`).join(', ')}.`,
    );
  }
  return { type: type.data, scope, template, placeholders, writesFile: placeholders.includes('output') || placeholders.includes('outputDir') };
}

/**
 * What a template of this type may name: the image's (per image) or the folders' (per job), the
 * job's, the settings of its type, and for each model setting of its type the model file's path
 * and the model's uuid.
 */
export function knownPlaceholders(type: JobType, scope: TemplateScope = 'image'): string[] {
  const fields = JOB_TYPE_INFO[type].fields;
  const models = JOB_MODEL_FIELD_NAMES.filter((f) => fields.includes(f)).flatMap((f) => [MODEL_PLACEHOLDERS[f].path, MODEL_PLACEHOLDERS[f].id]);
  const own = scope === 'image' ? IMAGE_PLACEHOLDERS : JOB_PLACEHOLDERS;
  return [...new Set([...own, 'jobType', 'priority', ...fields, ...models])];
}

/**
 * The placeholders of each model setting in a command template: the downloaded file's path and
 * the model's uuid (for operators who keep the models themselves, by id).
 */
export const MODEL_PLACEHOLDERS: Record<JobModelField, { path: string; id: string }> = {
  tesseract4model: { path: 'tesseract4model', id: 'tesseract4modelId' },
  krakenModel: { path: 'krakenModel', id: 'krakenModelId' },
  p2palamodel: { path: 'p2palamodel', id: 'p2palamodelId' },
  // The setting is named as an id, so it stays the uuid; the file is {siameseNetworkModel}.
  siameseNetworkModelId: { path: 'siameseNetworkModel', id: 'siameseNetworkModelId' },
};

/** The template values of the model settings: each file's path and each model's uuid, empty when the job names none. */
export function modelValues(job: ClaimedWorkerJob, models: JobModels): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [setting, names] of Object.entries(MODEL_PLACEHOLDERS) as [JobModelField, { path: string; id: string }][]) {
    const id = job.settings[setting];
    values[names.path] = models[setting]?.path ?? '';
    values[names.id] = typeof id === 'string' ? id : '';
  }
  return values;
}

/** Quotes a value for sh: one word whatever it holds (spaces, quotes, $, backticks). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A setting as a command-line word: lists joined by commas, absent ones empty. */
function wordOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The template with every placeholder replaced by its value, shell-quoted. */
export function renderCommand(template: CommandTemplate, values: Record<string, unknown>): string {
  return template.template.replace(PLACEHOLDER, (_match, name: string) => shellQuote(wordOf(values[name])));
}

/** How much of a command's stderr a failure message quotes. */
const STDERR_TAIL = 2000;

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** The last part of what it wrote to stderr. */
  stderr: string;
}

/**
 * Runs a command line with `sh -c` in `cwd`, in a process group of its own so that an abort
 * (the job taken away, the worker stopping) ends it and everything it started.
 */
export function runShell(command: string, options: { cwd: string; signal?: AbortSignal; maxStdoutBytes?: number }): Promise<CommandResult> {
  const { signal, maxStdoutBytes = 256 * 1024 * 1024 } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // It ended already.
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= maxStdoutBytes) stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    signal?.addEventListener('abort', killGroup, { once: true });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', killGroup);
      reject(err);
    });
    child.on('close', (code, closeSignal) => {
      signal?.removeEventListener('abort', killGroup);
      if (signal?.aborted) return reject(signal.reason);
      if (stdoutBytes > maxStdoutBytes) return reject(new Error(`the command printed more than ${maxStdoutBytes} bytes`));
      resolve({ code, signal: closeSignal, stdout: Buffer.concat(stdout), stderr: stderr.trim() });
    });
  });
}
