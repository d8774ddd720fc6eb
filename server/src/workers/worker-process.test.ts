import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../test-support/fixtures.js';
import { tinyMlmodel } from '../test-support/model-files.js';
import { readZip } from '../test-support/page-export.js';
import {
  apiCall,
  createAdminKey,
  runPim,
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
  waitForJobState,
  type WorkerProcess,
} from '../test-support/server-process.js';
import { NO_TESSERACT, tesseractWithEnglish } from '../test-support/text-images.js';

const ALICE = fixturePath('hocr', 'alice_1.png');
const ENGLISH_MODEL = '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata';
const HAS_TESSERACT = tesseractWithEnglish();
if (!HAS_TESSERACT) console.warn(NO_TESSERACT);

/** Writes a PAGE file for the image `label`.png of w x h with one line of `text` (the stand-in tools' output). */
const WRITE_PAGE = String.raw`
const writePage = (output, label, width, height, text) => {
  const w = Number(width), h = Number(height);
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  fs.writeFileSync(output, '<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">' +
    '<Metadata><Creator>fake-htr 0.1</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>' +
    '<Page imageFilename="' + esc(label) + '.png" imageWidth="' + w + '" imageHeight="' + h + '"><TextRegion id="r"><Coords points="0,0 ' + (w - 1) + ',0 ' + (w - 1) + ',' + (h - 1) + ' 0,' + (h - 1) + '"/>' +
    '<TextLine id="l"><Coords points="10,10 200,10 200,60 10,60"/><Baseline points="10,55 200,55"/><TextEquiv><Unicode>' + esc(text) + '</Unicode></TextEquiv></TextLine></TextRegion></Page></PcGts>');
};
`;

/**
 * A stand-in for an HTR tool in a container: it checks it was given the PNG, then writes a PAGE
 * file for it with one line naming the image and the experiment. `gate` makes it wait, holding
 * the job, until the file it names exists (a test of stopping mid-job).
 */
const FAKE_HTR = String.raw`
import fs from 'node:fs';
${WRITE_PAGE}
const [image, output, label, exp, width, height, gate] = process.argv.slice(2);
const head = fs.readFileSync(image).subarray(0, 8);
if (!head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
  console.error('fake-htr: ' + image + ' is not a PNG');
  process.exit(3);
}
if (gate) {
  fs.writeFileSync(gate + '.started', '');
  while (!fs.existsSync(gate)) await new Promise((r) => setTimeout(r, 20));
}
writePage(output, label, width, height, label + ' read for ' + exp);
`;

/** A stand-in for Kraken: its line says what it found at the model's path (name, size, SHA-256) and the model's id. */
const FAKE_KRAKEN = String.raw`
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
${WRITE_PAGE}
const [output, label, width, height, model, modelId] = process.argv.slice(2);
const bytes = fs.readFileSync(model);
writePage(output, label, width, height, [path.basename(model), bytes.length, crypto.createHash('sha256').update(bytes).digest('hex'), modelId].join(' '));
`;

/**
 * A stand-in for a set-level tool (Frog over the set): it lists the images it was given, writes a
 * PAGE file named after each, and two files of its own, one in a subfolder.
 */
const FAKE_FROG = String.raw`
import fs from 'node:fs';
import path from 'node:path';
${WRITE_PAGE}
const [imagesDir, outputDir, jobId] = process.argv.slice(2);
const images = fs.readdirSync(imagesDir).sort();
for (const name of images) {
  const stem = name.replace(/\.[^.]*$/, '');
  // A PNG's width and height, from its header.
  const head = fs.readFileSync(path.join(imagesDir, name)).subarray(16, 24);
  writePage(path.join(outputDir, stem + '.xml'), stem, head.readUInt32BE(0), head.readUInt32BE(4), stem + ' seen by frog');
}
fs.writeFileSync(path.join(outputDir, 'entities.tsv'), 'job\t' + jobId + '\n' + images.join('\n') + '\n');
fs.mkdirSync(path.join(outputDir, 'log'));
fs.writeFileSync(path.join(outputDir, 'log', 'frog.log'), 'frog ran on ' + images.length + ' images\n');
`;

/**
 * `pim worker` as an operator runs it on another machine: the built server listening on a
 * random port without a built-in worker, a MINION key made with the CLI, a set with a real scan,
 * and the worker started as its own process against the server's address.
 */
describe.skipIf(process.env.PIM_TEST_DB === 'postgres' || !fs.existsSync(ALICE))('pim worker against a running server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-worker-e2e-'));
  const toolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-fake-htr-'));
  const script = path.join(toolDir, 'fake-htr.mjs');
  const krakenScript = path.join(toolDir, 'fake-kraken.mjs');
  const frogScript = path.join(toolDir, 'fake-frog.mjs');
  let server: ServerProcess;
  let admin: { authorization: string };
  let minionKey: string;
  let setId: string;
  let imageId: string;
  const workers: WorkerProcess[] = [];

  const worker = (...args: string[]) => {
    // The key from a file, as OPERATIONS advises: it stays out of the process list.
    const keyFile = path.join(toolDir, 'minion.key');
    fs.writeFileSync(keyFile, `${minionKey}\n`, { mode: 0o600 });
    const w = startWorkerProcess(['--server', server.url, '--key-file', keyFile, '--poll-s', '0.2', ...args]);
    workers.push(w);
    return w;
  };
  const finished = (job: Job) => job.state === 'done' || job.state === 'failed';
  const queue = async (payload: object, imageSet = setId): Promise<Job> => {
    const res = await apiCall(server, admin, 'POST', 'pim/jobs', { imageSet, ...payload });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json;
  };
  const transcriptions = async () => (await apiCall(server, admin, 'GET', `pim/documentimage/${imageId}/transcriptions`)).json as { cleanText: string; transcriber: string; format: string }[];

  beforeAll(async () => {
    fs.writeFileSync(script, FAKE_HTR);
    fs.writeFileSync(krakenScript, FAKE_KRAKEN);
    fs.writeFileSync(frogScript, FAKE_FROG);
    admin = await createAdminKey(dataDir);
    const made = await runPim(dataDir, ['apikeys', 'create', '--user', 'gpu-1', '--roles', 'MINION']);
    minionKey = /Key \(shown only now, stored hashed\): (\S+)/.exec(made)![1]!;
    server = await startServerProcess(dataDir, { PIM_WORKER: 'false' });
    ({ setId, imageId } = await aliceSet('Alice'));
  }, 120_000);

  /** A set holding the scan of Alice's first page. */
  async function aliceSet(name: string): Promise<{ setId: string; imageId: string }> {
    const set = (await apiCall(server, admin, 'POST', 'pim/documentimageset/create', { imageset: name })).json.uuid as string;
    const form = new FormData();
    form.set('filepond', new Blob([fs.readFileSync(ALICE)]), 'alice_1.png');
    const res = await fetch(`${server.url}/api/pim/documentimageset/postfile?dataSetId=${set}`, { method: 'POST', headers: admin, body: form });
    return { setId: set, imageId: ((await res.json()) as { documentImages: { uuid: string }[] }).documentImages[0]!.uuid };
  }

  /** An uploaded model of the kind (Kraken, Tesseract 4: with a title and a language), as the model screens send it. */
  async function uploadModel(basePath: string, file: { name: string; bytes: Buffer }, fields: Record<string, string>): Promise<string> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set('file', new Blob([file.bytes]), file.name);
    const res = await fetch(`${server.url}/api/${basePath}`, { method: 'POST', headers: admin, body: form });
    const body = (await res.json()) as { uuid: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.uuid;
  }

  afterAll(async () => {
    for (const w of workers) await w.stop('SIGKILL');
    await server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(toolDir, { recursive: true, force: true });
  });

  it('runs a P2PaLA job through a command template and stores the PAGE it writes as the image\'s transcription', async () => {
    const job = await queue({ jobType: 'P2PaLA', exp_name: 'alice' });
    expect(job.waitingFor).toBe('Waiting for a worker that runs P2PaLA.');
    const w = worker('--types', 'P2PaLA', '--name', 'gpu-1', '--command', `P2PaLA=${process.execPath} ${script} {image} {output} {label} {exp_name} {width} {height}`);
    const done = await waitForJobState(server, admin, job.uuid, finished);
    expect(done, w.output()).toMatchObject({ state: 'done', worker: { name: 'gpu-1', versions: { P2PaLA: process.execPath } }, progress: { done: 1, total: 1 } });
    expect(done.worker?.versions.pim).toEqual(expect.any(String));
    const page = (await transcriptions()).find((t) => t.format === 'page');
    expect(page).toMatchObject({ cleanText: 'alice_1 read for alice', transcriber: 'fake-htr 0.1' });
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it('gives a job back to the queue when stopped mid-job, and fails one whose command fails, with its stderr', async () => {
    const gate = path.join(toolDir, 'gate');
    // A set of its own: the set of the test before has its P2PaLA transcription, so a P2PaLA job there has nothing to do.
    const held = await queue({ jobType: 'P2PaLA', exp_name: 'held' }, (await aliceSet('Held')).setId);
    const w = worker('--types', 'P2PaLA', '--command', `P2PaLA=${process.execPath} ${script} {image} {output} {label} {exp_name} {width} {height} ${gate}`);
    await waitForJobState(server, admin, held.uuid, (j) => j.state === 'running' && j.progress?.message === 'Image 1 of 1: alice_1');
    while (!fs.existsSync(`${gate}.started`)) await new Promise((r) => setTimeout(r, 20));
    expect(await w.stop('SIGTERM')).toBe(0);
    expect(w.output()).toContain(`job ${held.id} went back to the queue: this worker is stopping`);
    expect(await waitForJobState(server, admin, held.uuid, () => true)).toMatchObject({ state: 'notStarted', attempts: 0 });

    const broken = worker('--types', 'P2PaLA', '--command', `P2PaLA=${process.execPath} ${script} ${script} {output} {label} {exp_name} {width} {height}`);
    const failed = await waitForJobState(server, admin, held.uuid, finished);
    expect(failed.state).toBe('failed');
    expect(failed.error).toBe(`The P2PaLA command exited with code 3 on the image alice_1: fake-htr: ${script} is not a PNG`);
    expect(await broken.stop('SIGTERM')).toBe(0);
  });

  it.skipIf(!HAS_TESSERACT)('runs Tesseract4Hocr built in, on a server that runs no jobs itself, and the text is on the image', async () => {
    const job = await queue({ jobType: 'Tesseract4Hocr' });
    const w = worker('--types', 'Tesseract4Hocr', '--name', 'ocr-box');
    const done = await waitForJobState(server, admin, job.uuid, finished);
    expect(done, w.output()).toMatchObject({ state: 'done', worker: { name: 'ocr-box', versions: { tesseract: expect.stringMatching(/^\d/) } } });
    const hocr = (await transcriptions()).find((t) => t.format === 'hocr');
    expect(hocr?.cleanText.replace(/\s+/g, ' ')).toContain('Alice was beginning to get very tired of sitting by her sister on the bank');
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it('gives a KrakenHocr command the downloaded model file at {krakenModel}, its name and bytes intact, and its uuid at {krakenModelId}', async () => {
    const bytes = tinyMlmodel();
    const model = await uploadModel('pim/krakenmodel', { name: 'catmus medieval.mlmodel', bytes }, { title: 'CATMuS', language: 'lat' });
    const { setId: krakenSet, imageId: krakenImage } = await aliceSet('Kraken');
    const job = await queue({ jobType: 'KrakenHocr', krakenModel: model }, krakenSet);
    const w = worker('--types', 'KrakenHocr', '--command', `KrakenHocr=${process.execPath} ${krakenScript} {output} {label} {width} {height} {krakenModel} {krakenModelId}`);
    const done = await waitForJobState(server, admin, job.uuid, finished);
    expect(done, w.output()).toMatchObject({ state: 'done', progress: { done: 1, total: 1 } });
    const made = (await apiCall(server, admin, 'GET', `pim/documentimage/${krakenImage}/transcriptions`)).json as { cleanText: string }[];
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(made.map((t) => t.cleanText)).toEqual([`catmus_medieval.mlmodel ${bytes.length} ${sha256} ${model}`]);
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it('runs a FrogNer job once over all its images with a --job-command: the PAGE named after the image is its transcription, the other files the job\'s zip', async () => {
    const { setId: frogSet, imageId: frogImage } = await aliceSet('Frog');
    const job = await queue({ jobType: 'FrogNer' }, frogSet);
    const w = worker('--types', 'FrogNer', '--job-command', `FrogNer=${process.execPath} ${frogScript} {imagesDir} {outputDir} {jobId}`);
    const done = await waitForJobState(server, admin, job.uuid, finished);
    expect(done, w.output()).toMatchObject({ state: 'done', progress: { done: 1, total: 1 }, result: { images: 1, stored: 1, outputFiles: 2 } });
    expect(done.downloadUri).toBe(`pim/jobs/download/${job.uuid}`);
    const made = (await apiCall(server, admin, 'GET', `pim/documentimage/${frogImage}/transcriptions`)).json as { cleanText: string; format: string }[];
    expect(made.map((t) => [t.format, t.cleanText])).toEqual([['page', 'alice_1 seen by frog']]);

    const res = await fetch(`${server.url}/api/pim/jobs/download/${job.uuid}`, { headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename="FrogNer-${job.id}.zip"`);
    const entries = readZip(Buffer.from(await res.arrayBuffer()));
    expect([...entries.keys()]).toEqual(['entities.tsv', 'log/frog.log']);
    expect(entries.get('entities.tsv')!.toString()).toBe(`job\t${job.id}\nalice_1.png\n`);
    expect(entries.get('log/frog.log')!.toString()).toBe('frog ran on 1 images\n');
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it('keeps a job command\'s single output file as it is, and completes one that wrote nothing with a note saying so', async () => {
    const kb = await queue({ jobType: 'PipelineKB', baseOutputFileName: 'kb run' }, (await aliceSet('KB')).setId);
    const frog = await queue({ jobType: 'FrogNer' }, (await aliceSet('Frog, silent')).setId);
    const w = worker(
      '--types', 'PipelineKB,FrogNer',
      '--job-command', `PipelineKB=ls {imagesDir} > {outputDir}/{baseOutputFileName}.csv`,
      '--job-command', 'FrogNer=test -d {imagesDir} && test -d {outputDir}',
    );
    const kbDone = await waitForJobState(server, admin, kb.uuid, finished);
    expect(kbDone, w.output()).toMatchObject({ state: 'done', result: { images: 1, stored: 0, outputFiles: 1 } });
    const res = await fetch(`${server.url}/api/pim/jobs/download/${kb.uuid}`, { headers: admin });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('filename="kb run.csv"');
    expect(await res.text()).toBe('alice_1.png\n');

    const frogDone = await waitForJobState(server, admin, frog.uuid, finished);
    expect(frogDone, w.output()).toMatchObject({ state: 'done', downloadUri: null, result: { stored: 0, outputFiles: 0, note: 'The FrogNer command exited 0 but wrote nothing in {outputDir}.' } });
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it.skipIf(!HAS_TESSERACT || !fs.existsSync(ENGLISH_MODEL))('runs Tesseract4Hocr built in with the job\'s uploaded Tesseract model, under its language', async () => {
    // Debian's English model uploaded as a Latin one: Tesseract has no "lat" of its own here, so
    // the text can only come from the uploaded file, found under its language's name.
    const model = await uploadModel('pim/tesseract4model', { name: 'eng.traineddata', bytes: fs.readFileSync(ENGLISH_MODEL) }, { title: 'English', language: 'lat' });
    const { setId: ocrSet, imageId: ocrImage } = await aliceSet('Tesseract with a model');
    const job = await queue({ jobType: 'Tesseract4Hocr', tesseract4model: model }, ocrSet);
    const w = worker('--types', 'Tesseract4Hocr', '--name', 'ocr-box');
    const done = await waitForJobState(server, admin, job.uuid, finished);
    expect(done, w.output()).toMatchObject({ state: 'done', progress: { done: 1, total: 1 } });
    const made = (await apiCall(server, admin, 'GET', `pim/documentimage/${ocrImage}/transcriptions`)).json as { cleanText: string; format: string }[];
    expect(made).toHaveLength(1);
    expect(made[0]!.cleanText.replace(/\s+/g, ' ')).toContain('Alice was beginning to get very tired of sitting by her sister on the bank');
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it('says so when the server cannot be reached, and goes on once it is back', async () => {
    const port = new URL(server.url).port;
    await server.kill('SIGTERM');
    const w = worker('--types', 'P2PaLA', '--command', `P2PaLA=${process.execPath} ${script} {image} {output} {label} {exp_name} {width} {height}`);
    while (!/cannot reach .*; trying again in \d+ s/.test(w.output())) await new Promise((r) => setTimeout(r, 20));
    server = await startServerProcess(dataDir, { PIM_WORKER: 'false', PORT: port });
    const job = await queue({ jobType: 'P2PaLA', exp_name: 'back' }, (await aliceSet('After the outage')).setId);
    expect(await waitForJobState(server, admin, job.uuid, finished), w.output()).toMatchObject({ state: 'done' });
    expect(w.output()).toContain('reached the server again');
    expect(await w.stop('SIGTERM')).toBe(0);
  });
});
