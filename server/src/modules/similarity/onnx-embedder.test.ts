import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { zipOf } from '../../test-support/model-files.js';
import type { LineImage } from './descriptor.js';
import { onnxModel, rowMeanModel } from './onnx-model.test-support.js';
import { openOnnxEmbedder, toFeatureVector, type OnnxEmbedder, type OnnxEmbedderOptions } from './onnx-embedder.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-onnx-embedder-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SQUARE = { width: 10, height: 10, channels: 1 };

async function storedZip(files: Record<string, string | Buffer>): Promise<string> {
  const file = path.join(dir, `${Math.random()}.zip`);
  fs.writeFileSync(file, await zipOf(files));
  return file;
}

const opened: OnnxEmbedder[] = [];
afterAll(() => Promise.all(opened.map((e) => e.close())));

async function embedderOf(model: Buffer, options: Partial<OnnxEmbedderOptions> = {}): Promise<OnnxEmbedder> {
  const embedder = await openOnnxEmbedder(await storedZip({ 'siamese/model.onnx': model }), { ...SQUARE, ...options });
  opened.push(embedder);
  return embedder;
}

async function refusal(run: () => Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await run();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('it was not refused');
}

/** A line whose pixel at (x, y) is `grey(x, y)`. */
function line(width: number, height: number, grey: (x: number, y: number) => number): LineImage {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) pixels[y * width + x] = grey(x, y);
  return { pixels, width, height };
}

/** `values` scaled to length 1, in float64. */
function unit(values: number[]): number[] {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
}

function expectClose(actual: Float32Array, expected: number[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v, `value ${i}`).toBeCloseTo(expected[i]!, 6));
}

const length = (v: Float32Array) => Math.hypot(...v);

describe('an ONNX Siamese network model run in the server', () => {
  it("gives each line the model's output, scaled to length 1: here the mean grey of each pixel row", async () => {
    const embedder = await embedderOf(rowMeanModel(4, 6));
    // The model's fixed 4 x 6 overrides the 10 x 10 of the options.
    expect(embedder.input).toEqual({ name: 'line', layout: 'NCHW', fixedBatch: null, channels: 1, height: 4, width: 6 });
    const ink = line(6, 4, (x, y) => (y === 1 ? (x < 3 ? 0 : 255) : y === 2 ? 51 * x : 255));
    const paper = line(6, 4, (x, y) => 200 + y);
    const [first, second] = await embedder.embed([ink, paper]);
    // Row means over 255: 255, 127.5, 51 * (0+1+2+3+4+5) / 6 = 127.5, 255.
    expectClose(first!, unit([1, 0.5, 0.5, 1]));
    expectClose(second!, unit([200 / 255, 201 / 255, 202 / 255, 203 / 255]));
    expect(length(first!)).toBeCloseTo(1, 6);
    expect(await embedder.embed([])).toEqual([]);
  });

  it("stretches lines to the model's size, taken from the options where the model leaves it open; an empty line is blank paper", async () => {
    const embedder = await embedderOf(rowMeanModel('height', 'width'), { width: 6, height: 4 });
    expect(embedder.input).toMatchObject({ height: 4, width: 6, channels: 1 });
    const rows = [0, 100, 200, 250];
    const [same, wide, empty] = await embedder.embed([
      line(6, 4, (_, y) => rows[y]!),
      line(30, 4, (_, y) => rows[y]!),
      { pixels: new Uint8Array(0), width: 0, height: 0 },
    ]);
    // A row of one grey stays that grey when it is squeezed to 6 pixels.
    expectClose(same!, unit(rows.map((g) => g / 255)));
    expectClose(wide!, unit(rows.map((g) => g / 255)));
    expectClose(empty!, [0.5, 0.5, 0.5, 0.5]);
  });

  it('averages more than 100 values in contiguous groups to at most 100', async () => {
    // Flatten: every pixel of a 10 x 25 line is a value, 250 in all: 84 groups of 3, the last of 1.
    const flatten = onnxModel({
      inputs: [{ name: 'image', shape: ['n', 1, 10, 25] }],
      outputs: [{ name: 'all', shape: ['n', 250] }],
      nodes: [{ opType: 'Flatten', inputs: ['image'], outputs: ['all'], attributes: { axis: 1 } }],
    });
    const embedder = await embedderOf(flatten);
    const [vector] = await embedder.embed([line(25, 10, (x, y) => y * 25 + x)]);
    // Group g holds pixels 3g, 3g+1 and 3g+2, whose mean is 3g+1; the last holds pixel 249 alone.
    expectClose(vector!, unit([...Array.from({ length: 83 }, (_, g) => 3 * g + 1), 249]));
    expect(length(vector!)).toBeCloseTo(1, 6);
  });

  it('feeds a model that takes [batch, height, width, channels] in that layout, the grey in every channel', async () => {
    const nhwc = onnxModel({
      inputs: [{ name: 'pixels', shape: ['n', 4, 6, 3] }],
      outputs: [{ name: 'means', shape: ['n', 12] }],
      nodes: [
        { opType: 'ReduceMean', inputs: ['pixels'], outputs: ['rows'], attributes: { axes: [2], keepdims: 0 } },
        { opType: 'Flatten', inputs: ['rows'], outputs: ['means'], attributes: { axis: 1 } },
      ],
    });
    const embedder = await embedderOf(nhwc, { channels: 1 });
    expect(embedder.input).toEqual({ name: 'pixels', layout: 'NHWC', fixedBatch: null, channels: 3, height: 4, width: 6 });
    // Columns differ, so pixels in the wrong order would give other row means.
    const [vector] = await embedder.embed([line(6, 4, (x, y) => (x === y ? 0 : 60 * y))]);
    const rowMeans = [0, 1, 2, 3].map((y) => (60 * y * 5) / 6 / 255);
    expectClose(vector!, unit(rowMeans.flatMap((m) => [m, m, m])));
  });

  it('feeds a model of three channels first [batch, 3, height, width] the grey three times', async () => {
    const nchw = onnxModel({
      inputs: [{ name: 'rgb', shape: ['n', 3, 4, 6] }],
      outputs: [{ name: 'means', shape: ['n', 12] }],
      nodes: [
        { opType: 'ReduceMean', inputs: ['rgb'], outputs: ['rows'], attributes: { axes: [3], keepdims: 0 } },
        { opType: 'Flatten', inputs: ['rows'], outputs: ['means'], attributes: { axis: 1 } },
      ],
    });
    const embedder = await embedderOf(nchw);
    expect(embedder.input).toMatchObject({ layout: 'NCHW', channels: 3 });
    const [vector] = await embedder.embed([line(6, 4, (x, y) => (x === y ? 0 : 60 * y))]);
    const rowMeans = [0, 1, 2, 3].map((y) => (60 * y * 5) / 6 / 255);
    expectClose(vector!, unit([...rowMeans, ...rowMeans, ...rowMeans]));
  });

  it('runs a model fixed to a batch of one line by line, and an open batch a few lines at a time', async () => {
    const single = onnxModel({
      inputs: [{ name: 'line', shape: [1, 1, 2, 3] }],
      outputs: [{ name: 'features', shape: [1, 2] }],
      nodes: [
        { opType: 'ReduceMean', inputs: ['line'], outputs: ['means'], attributes: { axes: [3], keepdims: 0 } },
        { opType: 'Flatten', inputs: ['means'], outputs: ['features'], attributes: { axis: 1 } },
      ],
    });
    const lines = [0, 1, 2, 3, 4].map((k) => line(3, 2, (_, y) => (y === 0 ? 30 * (k + 1) : 255)));
    const expected = [0, 1, 2, 3, 4].map((k) => unit([(30 * (k + 1)) / 255, 1]));
    const one = await embedderOf(single);
    expect(one.input.fixedBatch).toBe(1);
    (await one.embed(lines)).forEach((v, k) => expectClose(v, expected[k]!));
    const twoAtATime = await embedderOf(rowMeanModel(2, 3), { batchSize: 2 });
    (await twoAtATime.embed(lines)).forEach((v, k) => expectClose(v, expected[k]!));
  });

  it('refuses a model whose input is not an image, that has two inputs, or that fails to run, with what onnxruntime says', async () => {
    const table = onnxModel({
      inputs: [{ name: 'features', shape: ['n', 10] }],
      outputs: [{ name: 'same', shape: ['n', 10] }],
      nodes: [{ opType: 'Identity', inputs: ['features'], outputs: ['same'] }],
    });
    expect(await refusal(() => embedderOf(table))).toEqual({
      status: 400,
      message:
        "The Siamese network model's input features is a tensor of shape [n, 10], not images: [batch, channels, height, width] or [batch, height, width, channels].",
    });
    const pair = onnxModel({
      inputs: [
        { name: 'left', shape: ['n', 1, 4, 6] },
        { name: 'right', shape: ['n', 1, 4, 6] },
      ],
      outputs: [{ name: 'difference', shape: ['n', 1, 4, 6] }],
      nodes: [{ opType: 'Sub', inputs: ['left', 'right'], outputs: ['difference'] }],
    });
    expect((await refusal(() => embedderOf(pair))).message).toBe(
      'The Siamese network model has 2 inputs (left, right): upload the network that turns one line image into its features.',
    );
    // Four values per line cannot be reshaped to three: onnxruntime finds out only when it runs.
    const broken = onnxModel({
      inputs: [{ name: 'line', shape: ['n', 1, 2, 2] }],
      outputs: [{ name: 'bad', shape: [3] }],
      nodes: [{ opType: 'Reshape', inputs: ['line', 'three'], outputs: ['bad'] }],
      int64Initializers: { three: [3] },
    });
    const embedder = await embedderOf(broken);
    const failed = await refusal(() => embedder.embed([line(2, 2, () => 0)]));
    expect(failed.status).toBe(400);
    expect(failed.message).toMatch(/^The Siamese network model failed on the line images: .*Reshape.*/s);
    expect((await refusal(() => embedderOf(Buffer.from('not a model')))).message).toMatch(
      /^The ONNX file of the Siamese network model cannot be loaded: .+/,
    );
  });

  it('refuses a zip without an ONNX file, too large an ONNX file, and encrypted entries or paths outside the folder', async () => {
    const savedModel = await storedZip({ 'net/saved_model.pb': 'pb' });
    expect(await refusal(() => openOnnxEmbedder(savedModel, SQUARE))).toEqual({
      status: 400,
      message: 'The Siamese network model zip has no ONNX file (.onnx).',
    });
    const model = await storedZip({ 'm.onnx': rowMeanModel(4, 6) });
    expect((await refusal(() => openOnnxEmbedder(model, { ...SQUARE, maxModelBytes: 10 }))).message).toBe('The ONNX file m.onnx is larger than 10 bytes.');

    const zip = await zipOf({ 'xx/m.onnx': rowMeanModel(4, 6) }, true);
    const escaping = path.join(dir, 'escaping.zip');
    // The same zip with its entry named ../m.onnx, in both of its headers.
    fs.writeFileSync(escaping, Buffer.from(zip.toString('latin1').replaceAll('xx/m.onnx', '../m.onnx'), 'latin1'));
    expect((await refusal(() => openOnnxEmbedder(escaping, SQUARE))).message).toBe(
      'The zip has an entry outside its folder (invalid relative path: ../m.onnx).',
    );
    // Deflated: yauzl refuses a stored entry flagged encrypted as damaged, it lacks the 12-byte header.
    const encrypted = Buffer.from(await zipOf({ 'm.onnx': rowMeanModel(4, 6) }));
    encrypted.writeUInt16LE(encrypted.readUInt16LE(6) | 1, 6);
    const central = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    encrypted.writeUInt16LE(encrypted.readUInt16LE(central + 8) | 1, central + 8);
    const encryptedPath = path.join(dir, 'encrypted.zip');
    fs.writeFileSync(encryptedPath, encrypted);
    expect((await refusal(() => openOnnxEmbedder(encryptedPath, SQUARE))).message).toBe(
      'The zip has encrypted (password-protected) entries: upload the model without a password.',
    );
    const damaged = path.join(dir, 'damaged.zip');
    fs.writeFileSync(damaged, zip.subarray(0, zip.length - 30));
    expect((await refusal(() => openOnnxEmbedder(damaged, SQUARE))).message).toBe('This zip file is damaged: its table of contents cannot be read.');
    expect((await refusal(() => openOnnxEmbedder(model, { ...SQUARE, channels: 2 }))).message).toBe(
      'The number of channels must be 1 (grey) or 3 (colour).',
    );
  });

  it('is closed once and for all', async () => {
    const embedder = await openOnnxEmbedder(await storedZip({ 'm.onnx': rowMeanModel(4, 6) }), SQUARE);
    await embedder.close();
    await embedder.close();
    await expect(embedder.embed([line(6, 4, () => 0)])).rejects.toThrow('The ONNX embedder is closed.');
  });
});

describe('a feature vector from the values of a model', () => {
  it('is scaled to length 1, stays all zeros when it is, and refuses values that are not numbers', () => {
    expectClose(toFeatureVector([3, 4]), [0.6, 0.8]);
    expectClose(toFeatureVector(new Float32Array(100).fill(2)), Array.from({ length: 100 }, () => 0.1));
    expect(toFeatureVector(new Float32Array(101))).toEqual(new Float32Array(51));
    expect(() => toFeatureVector([1, Number.NaN])).toThrow('The Siamese network model gave a feature that is not a number (NaN or infinite).');
  });
});
