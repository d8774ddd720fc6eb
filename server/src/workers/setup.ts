import { createRequire } from 'node:module';
import os from 'node:os';
import { type JobType, jobTypeSchema, type WorkerIdentity } from '@pim/contract';
import { parseCommandTemplate, TemplateError } from './command-template.js';
import { JobCommandRunner } from './job-command.js';
import { CommandRunner, type Runner } from './runners.js';
import { TesseractRunner } from './tesseract-runner.js';

/** The types a worker runs without a template: those it can do without the database. */
const BUILT_IN: Partial<Record<JobType, () => Runner>> = { Tesseract4Hocr: () => new TesseractRunner() };

export interface WorkerSettings {
  types: string;
  commands: string[];
  /** `--job-command Type=template`: run once per job over all its images. */
  jobCommands?: string[];
  versionOf: string[];
}

const version: string = createRequire(import.meta.url)('../../package.json').version;

/**
 * The runner of each type the worker is asked to serve: its `--command` or `--job-command` template, else a built-in
 * runner. A type with neither, a template or `--version-of` for a type not served, an unknown
 * placeholder: a TemplateError saying what to fix, before anything is claimed.
 */
export function runnersOf(settings: WorkerSettings): Map<JobType, Runner> {
  const types = settings.types.split(',').map((t) => t.trim()).filter(Boolean);
  if (types.length === 0) throw new TemplateError('Name the job types this worker runs with --types, e.g. --types P2PaLA,KrakenHocr.');
  const templates = new Map(settings.commands.map((spec) => {
    const template = parseCommandTemplate(spec);
    return [template.type, template] as const;
  }));
  for (const spec of settings.jobCommands ?? []) {
    const template = parseCommandTemplate(spec, 'job');
    const other = templates.get(template.type);
    if (other) {
      throw new TemplateError(
        `${template.type} has ${other.scope === 'image' ? 'a --command and a --job-command' : 'two --job-command'}: give it one, a --command run per image or a --job-command run once per job.`,
      );
    }
    templates.set(template.type, template);
  }
  const versionCommands = new Map(settings.versionOf.map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new TemplateError(`--version-of "${spec}" must be Type=command, e.g. P2PaLA='p2pala --version'.`);
    return [spec.slice(0, eq).trim(), spec.slice(eq + 1).trim()] as const;
  }));
  const runners = new Map<JobType, Runner>();
  for (const name of types) {
    const type = jobTypeSchema.safeParse(name);
    if (!type.success) throw new TemplateError(`--types names "${name}", which is no job type. The types: ${jobTypeSchema.options.join(', ')}.`);
    const template = templates.get(type.data);
    const builtIn = BUILT_IN[type.data];
    if (template?.scope === 'job') runners.set(type.data, new JobCommandRunner(template, versionCommands.get(type.data)));
    else if (template) runners.set(type.data, new CommandRunner(template, versionCommands.get(type.data)));
    else if (builtIn) runners.set(type.data, builtIn());
    else {
      throw new TemplateError(
        `This worker cannot run ${type.data} jobs: give it a command with --command ${type.data}='...' (per image) or --job-command ${type.data}='...' (once per job) (it runs by itself only ${Object.keys(BUILT_IN).join(', ')}).`,
      );
    }
  }
  for (const type of [...templates.keys(), ...versionCommands.keys()]) {
    if (!runners.has(type as JobType)) throw new TemplateError(`A command is given for ${type}, which is not in --types.`);
  }
  return runners;
}

/** The worker's name (this host's unless given) and the versions of PIM, Node and every tool it runs. */
export async function identityOf(runners: Map<JobType, Runner>, name: string | undefined): Promise<WorkerIdentity> {
  const versions: Record<string, string> = { pim: version, node: process.versions.node };
  for (const runner of runners.values()) Object.assign(versions, await runner.versions());
  return { name: name?.trim() || `${os.hostname()} worker`, versions };
}
