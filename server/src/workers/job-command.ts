import { createReadStream, createWriteStream } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { WorkerImage } from '@pim/contract';
import { streamZip } from '../modules/downloads/zip-stream.js';
import { modelValues, renderCommand, runShell } from './command-template.js';
import { commandFailed, type JobRunner, type JobTask, TemplateRunner, TRANSCRIPTION_FILE } from './runners.js';

/**
 * Runs an external tool once per job by its template (`--job-command Type='...'`), over the
 * folder holding all the job's images, writing into an empty output folder. A non-zero exit fails
 * the job with the end of its stderr; what it wrote is sorted out by `sortOutputs`.
 */
export class JobCommandRunner extends TemplateRunner implements JobRunner {

  async runJob(task: JobTask): Promise<void> {
    const { job } = task;
    const command = renderCommand(this.template, {
      ...job.settings,
      ...modelValues(job, task.models),
      imagesDir: task.imagesDir,
      outputDir: task.outputDir,
      jobId: job.id,
      jobUuid: job.uuid,
      setId: job.setId,
    });
    const result = await runShell(command, { cwd: task.workDir, signal: task.signal });
    if (result.code !== 0) throw commandFailed(`The ${this.type} job command`, result);
  }
}

/**
 * The name each image is downloaded under in `{imagesDir}`: its file name, with what a file
 * system or a shell script trips over replaced, made unique (`scan.png`, `scan-2.png`) since a set
 * may hold two uploads of the same name.
 */
export function imageFileNames(images: readonly WorkerImage[]): string[] {
  const taken = new Set<string>();
  return images.map((image, index) => {
    const safe = (image.fileName.split(/[/\\]/).pop() ?? '').replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^[.-]+/, '');
    const ext = path.extname(safe);
    const stem = safe.slice(0, safe.length - ext.length) || `image-${index + 1}`;
    let name = `${stem}${ext}`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}-${n}${ext}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** A file the job command wrote, by its path below `{outputDir}`. */
export interface WrittenFile {
  path: string;
  /** Its path relative to `{outputDir}`, with `/`: its name in the zip. */
  name: string;
}

export interface SortedOutputs {
  /** PAGE/ALTO/hOCR files named after an image (the first one found for each image). */
  transcriptions: (WrittenFile & { image: WorkerImage })[];
  /** Everything else: the job's download. */
  others: WrittenFile[];
}

/**
 * What the command wrote in `{outputDir}` (subfolders included): a PAGE/ALTO/hOCR file whose name
 * without its extension is that of one of the images as downloaded is that image's transcription;
 * every other file (and a second one for the same image) is output.
 */
export async function sortOutputs(outputDir: string, images: readonly WorkerImage[], names: readonly string[]): Promise<SortedOutputs> {
  const byStem = new Map(names.map((name, i) => [stemOf(name), images[i]!]));
  const entries = await fsp.readdir(outputDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return { path: full, name: path.relative(outputDir, full).split(path.sep).join('/') };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const sorted: SortedOutputs = { transcriptions: [], others: [] };
  const done = new Set<string>();
  for (const file of files) {
    const image = TRANSCRIPTION_FILE.test(file.name) ? byStem.get(stemOf(path.basename(file.name))) : undefined;
    if (image && !done.has(image.uuid)) {
      done.add(image.uuid);
      sorted.transcriptions.push({ ...file, image });
    } else sorted.others.push(file);
  }
  return sorted;
}

function stemOf(name: string): string {
  return name.slice(0, name.length - path.extname(name).length);
}

/** Zips the files, each under its path below `{outputDir}`, into `target` with the zip writer of the downloads. */
export async function zipFiles(files: readonly WrittenFile[], target: string): Promise<void> {
  let given = false;
  const zip = streamZip(async () => {
    if (given) return [];
    given = true;
    const mtime = new Date();
    return files.map((file) => ({ name: file.name, mtime, open: async () => createReadStream(file.path) }));
  });
  await pipeline(zip, createWriteStream(target));
}
