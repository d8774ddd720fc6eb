import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JobType, WorkerImage } from '@pim/contract';
import type { ClaimedWorkerJob } from './client.js';
import { type CommandResult, type CommandTemplate, modelValues, renderCommand, runShell } from './command-template.js';
import type { JobModels } from './job-models.js';

/** One image of a claimed job, downloaded, for a runner to make its transcription file of. */
export interface ImageTask {
  job: ClaimedWorkerJob;
  image: WorkerImage;
  /** The downloaded original. */
  imagePath: string;
  /** A folder of this image's own, removed after. */
  workDir: string;
  /** The models the job names, downloaded once for all its images. */
  models: JobModels;
  signal: AbortSignal;
}

/** The file a runner made for an image: uploaded as the image's transcription. */
export interface MadeFile {
  path: string;
  fileName: string;
}

interface RunnerBase {
  type: JobType;
  /** The versions of its tool, asked once at start, for the jobs' provenance. */
  versions(): Promise<Record<string, string>>;
  /** Refuses a job it cannot run before its first image (an AppError-like sentence for its user). */
  check?(job: ClaimedWorkerJob): void;
}

/** What runs the images of one job type on this worker, one at a time: a command template, or a built-in tool. */
export interface ImageRunner extends RunnerBase {
  runImage(task: ImageTask): Promise<MadeFile>;
}

/** All the images of a claimed job, downloaded into one folder, for a command run once per job. */
export interface JobTask {
  job: ClaimedWorkerJob;
  imagesDir: string;
  /** An empty folder: what the command writes here is uploaded. */
  outputDir: string;
  /** The job's own folder, the command's working directory. */
  workDir: string;
  models: JobModels;
  signal: AbortSignal;
}

/** What runs a job of one type on this worker once, over all its images (`--job-command`). */
export interface JobRunner extends RunnerBase {
  runJob(task: JobTask): Promise<void>;
}

export type Runner = ImageRunner | JobRunner;

/** The image cannot be read by the tool (damaged, unreadable): noted, and the job goes on. */
export class ImageSkipped extends Error {}

/** A failure the job's user reads as it is. */
export class JobFailure extends Error {}

/** Files a tool may write for an image: PAGE, ALTO, hOCR. */
export const TRANSCRIPTION_FILE = /\.(xml|hocr|html?)$/i;

/** A runner of an operator's command template: its type, and the versions its jobs record. */
export abstract class TemplateRunner {
  readonly type: JobType;

  constructor(
    protected readonly template: CommandTemplate,
    /** `--version-of Type='cmd --version'`: asked once; else the template's first word is recorded. */
    private readonly versionCommand?: string,
  ) {
    this.type = template.type;
  }

  versions(): Promise<Record<string, string>> {
    return templateVersions(this.template, this.versionCommand);
  }
}

/**
 * Runs an external tool per image by its command template (`--command Type='...'`): the image's
 * path, where to write, the job's settings and its models' paths filled in, each shell-quoted. After it exits 0, the
 * file at `{output}` (else the one PAGE/ALTO/hOCR file it wrote in `{outputDir}`, else, for a
 * template naming neither, what it printed) is the image's transcription. A non-zero exit fails
 * the job with the end of its stderr.
 */
export class CommandRunner extends TemplateRunner implements ImageRunner {

  async runImage(task: ImageTask): Promise<MadeFile> {
    const outputDir = path.join(task.workDir, 'out');
    await fsp.mkdir(outputDir);
    const output = path.join(outputDir, 'page.xml');
    const { job, image } = task;
    const command = renderCommand(this.template, {
      ...job.settings,
      ...modelValues(job, task.models),
      image: task.imagePath,
      output,
      outputDir,
      imageId: image.uuid,
      label: image.label,
      fileName: image.fileName,
      width: image.width,
      height: image.height,
      jobId: job.id,
      jobUuid: job.uuid,
      setId: job.setId,
    });
    const result = await runShell(command, { cwd: task.workDir, signal: task.signal });
    if (result.code !== 0) throw commandFailed(`The ${this.type} command`, result, ` on the image ${image.label}`);
    if (!this.template.writesFile) {
      if (result.stdout.length === 0) throw new JobFailure(`The ${this.type} command printed nothing for the image ${image.label}.`);
      await fsp.writeFile(output, result.stdout);
      return { path: output, fileName: `${image.label}.xml` };
    }
    const made = await writtenFile(output, outputDir);
    if (!made) {
      throw new JobFailure(`The ${this.type} command exited 0 but wrote no PAGE, ALTO or hOCR file at {output} or in {outputDir} for the image ${image.label}.`);
    }
    return { path: made, fileName: `${image.label}${path.extname(made) || '.xml'}` };
  }
}

/** The version of a template's tool: what `--version-of` prints first, else the template's first word. */
async function templateVersions(template: CommandTemplate, versionCommand: string | undefined): Promise<Record<string, string>> {
  if (!versionCommand) return { [template.type]: template.template.split(/\s+/)[0] ?? '' };
  const result = await runShell(versionCommand, { cwd: os.tmpdir() });
  const text = `${result.stdout.toString('utf8')}\n${result.stderr}`;
  const line = text.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  if (result.code !== 0 || !line) throw new JobFailure(`--version-of ${template.type} ("${versionCommand}") failed${result.stderr ? `: ${result.stderr}` : ''}.`);
  return { [template.type]: line.slice(0, 200) };
}

/** A command's non-zero exit as the job's failure, with the end of its stderr. */
export function commandFailed(what: string, result: CommandResult, where = ''): JobFailure {
  const how = result.code === null ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
  return new JobFailure(`${what} ${how}${where}${result.stderr ? `: ${result.stderr}` : '.'}`);
}

/** `{output}` when the tool wrote it, else the only transcription file anywhere in `{outputDir}`. */
async function writtenFile(output: string, outputDir: string): Promise<string | undefined> {
  if (await fsp.stat(output).then((s) => s.isFile(), () => false)) return output;
  const entries = await fsp.readdir(outputDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && TRANSCRIPTION_FILE.test(e.name)).map((e) => path.join(e.parentPath, e.name));
  return files.length === 1 ? files[0] : undefined;
}
