import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkerImage } from '@pim/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run.js';
import { readZip } from '../test-support/page-export.js';
import type { ClaimedWorkerJob } from './client.js';
import { parseCommandTemplate } from './command-template.js';
import { imageFileNames, JobCommandRunner, sortOutputs, zipFiles } from './job-command.js';
import { JobFailure } from './runners.js';
import { runnersOf } from './setup.js';

function captured() {
  const err: string[] = [];
  return { io: { out: () => {}, err: (t: string) => err.push(t) }, err };
}

const worker = (...args: string[]) => ['worker', '--server', 'http://127.0.0.1:9', '--key', 'k', ...args];
const image = (fileName: string, n: number): WorkerImage => ({ uuid: `00000000-0000-4000-8000-00000000000${n}`, label: `img ${n}`, width: 10, height: 10, pageNumber: n, fileName });

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-job-command-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('job commands of pim worker (--job-command)', () => {
  it('knows the folders and the job\'s placeholders, and refuses the per-image ones, saying which it has', () => {
    const template = parseCommandTemplate('FrogNer=frog {imagesDir} {outputDir} {jobId} {jobUuid} {setId} {jobType} {priority} {allData}', 'job');
    expect(template).toMatchObject({ type: 'FrogNer', scope: 'job' });
    expect(() => parseCommandTemplate('FrogNer=frog {image} {output} {imagesDir}', 'job')).toThrow(
      'The job command (run once per job, not per image) for FrogNer names {image}, {output}, which are not known. ' +
        'It may use {imagesDir}, {outputDir}, {jobId}, {jobUuid}, {setId}, {jobType}, {priority}, {imageSet}, {allData}.',
    );
    // And the other way round: a folder of all the images is no per-image placeholder.
    expect(() => parseCommandTemplate('P2PaLA=p2pala {imagesDir}')).toThrow(/names \{imagesDir\}, which is not known/);
    expect(() => parseCommandTemplate('frog {imagesDir}', 'job')).toThrow(/^--job-command "frog \{imagesDir\}" must be Type=command/);
  });

  it('refuses at start, with exit code 2, a type with both a --command and a --job-command, and a per-image placeholder', async () => {
    const both = captured();
    expect(await runCli(worker('--types', 'FrogNer', '--command', 'FrogNer=frog {image}', '--job-command', 'FrogNer=frog {imagesDir}'), {}, both.io)).toBe(2);
    expect(both.err.join('\n')).toContain('FrogNer has a --command and a --job-command: give it one, a --command run per image or a --job-command run once per job.');

    const perImage = captured();
    expect(await runCli(worker('--types', 'PipelineKB', '--job-command', 'PipelineKB=kb {label}'), {}, perImage.io)).toBe(2);
    expect(perImage.err.join('\n')).toMatch(/^The job command \(run once per job, not per image\) for PipelineKB names \{label\}, which is not known\. It may use \{imagesDir\}/);

    const notServed = captured();
    expect(await runCli(worker('--types', 'Tesseract4Hocr', '--job-command', 'FrogNer=frog {imagesDir}'), {}, notServed.io)).toBe(2);
    expect(notServed.err.join('\n')).toContain('A command is given for FrogNer, which is not in --types.');
    expect(runnersOf({ types: 'FrogNer', commands: [], jobCommands: ['FrogNer=frog {imagesDir}'], versionOf: [] }).get('FrogNer')).toBeInstanceOf(JobCommandRunner);
  });

  it('runs the command once with every placeholder filled in and quoted, and fails the job with its stderr on a non-zero exit', async () => {
    const dir = tempDir();
    const imagesDir = path.join(dir, "the images' folder");
    const outputDir = path.join(dir, 'out');
    fs.mkdirSync(imagesDir);
    fs.mkdirSync(outputDir);
    const job = { id: 7, uuid: 'u-7', setId: 's-1', settings: { jobType: 'FrogNer', priority: 3, allData: true }, models: [] } as unknown as ClaimedWorkerJob;
    const task = { job, imagesDir, outputDir, workDir: dir, models: {}, signal: new AbortController().signal };
    const printing = parseCommandTemplate(`FrogNer=printf '%s\\n' {imagesDir} {outputDir} {jobId} {jobUuid} {setId} {jobType} {priority} {allData} > {outputDir}/args.txt`, 'job');
    await new JobCommandRunner(printing).runJob(task);
    expect(fs.readFileSync(path.join(outputDir, 'args.txt'), 'utf8')).toBe([imagesDir, outputDir, '7', 'u-7', 's-1', 'FrogNer', '3', 'true', ''].join('\n'));

    const failing = parseCommandTemplate(`FrogNer=echo 'frog: no model' >&2; exit 4`, 'job');
    const failure = new JobCommandRunner(failing).runJob(task);
    await expect(failure).rejects.toBeInstanceOf(JobFailure);
    await expect(failure).rejects.toThrow('The FrogNer job command exited with code 4: frog: no model');
  });

  it('names the downloaded images by their file names, safe and unique', () => {
    const names = imageFileNames([image('scan 1.png', 1), image('scan 1.png', 2), image('../../etc/passwd', 3), image('.hidden.tif', 4), image('', 5)]);
    expect(names).toEqual(['scan_1.png', 'scan_1-2.png', 'passwd', 'hidden.tif', 'image-5']);
  });

  it('takes a PAGE/ALTO/hOCR file named after an image as its transcription, once, and everything else as output', async () => {
    const dir = tempDir();
    const images = [image('a.png', 1), image('b.jpg', 2)];
    fs.mkdirSync(path.join(dir, 'page'));
    fs.writeFileSync(path.join(dir, 'page', 'a.xml'), '<PcGts/>');
    fs.writeFileSync(path.join(dir, 'b.hocr'), '<html/>');
    fs.writeFileSync(path.join(dir, 'b.xml'), '<alto/>');
    fs.writeFileSync(path.join(dir, 'a.csv'), 'x');
    fs.writeFileSync(path.join(dir, 'entities.tsv'), 'x');
    const sorted = await sortOutputs(dir, images, ['a.png', 'b.jpg']);
    expect(sorted.transcriptions.map((t) => [t.name, t.image.uuid])).toEqual([
      ['b.hocr', images[1]!.uuid],
      ['page/a.xml', images[0]!.uuid],
    ]);
    expect(sorted.others.map((o) => o.name)).toEqual(['a.csv', 'b.xml', 'entities.tsv']);

    const zip = path.join(tempDir(), 'out.zip');
    await zipFiles(sorted.others, zip);
    const entries = readZip(fs.readFileSync(zip));
    expect([...entries.keys()]).toEqual(['a.csv', 'b.xml', 'entities.tsv']);
    expect(entries.get('b.xml')!.toString()).toBe('<alto/>');
  });
});
