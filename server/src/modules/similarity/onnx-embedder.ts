import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { SIMILARITY_MAX_FEATURES } from '@pim/contract';
import { AppError, badRequest } from '../../platform/errors.js';
import { formatBytes } from '../../platform/storage/file-store.js';
import { onnxModelEntry } from '../models/model-archive.js';
import type { LineImage } from './descriptor.js';

/**
 * Runs an uploaded Siamese network model that is an ONNX file in the server's own process
 * (onnxruntime-node, CPU): each text line becomes the feature vector the model's embedding gives
 * it, at most `SIMILARITY_MAX_FEATURES` values, of length 1.
 *
 * How a line is fed to the model: its grey pixels are stretched (not padded) to the model's width
 * and height, as TensorFlow's `image.resize` does when a Siamese network is trained on snippets
 * of a fixed size; padding a line thirty times wider than high into a square would leave a few
 * rows of ink. Values are the grey levels over 255 (ink dark, near 0; paper near 1), the grey
 * copied to every channel. Where the model's input fixes a dimension (channels, height, width,
 * batch), that wins over the options; [batch, height, width, channels] is recognised by a last
 * dimension of 1 or 3 where the second is not.
 */

export interface OnnxEmbedderOptions {
  /** The width lines are stretched to, where the model leaves its input's width open. */
  width: number;
  /** The height lines are stretched to, where the model leaves its input's height open. */
  height: number;
  /** How many copies of the grey a line has (1 grey, 3 colour), where the model leaves it open. */
  channels: number;
  /** The largest .onnx file read from the zip (default 512 MB). */
  maxModelBytes?: number;
  /** Most lines run through the model at once when its batch size is open (default 32). */
  batchSize?: number;
}

/** The image the model takes: its input's fixed dimensions win over the options. */
export interface OnnxImageInput {
  name: string;
  /** [batch, channels, height, width] or [batch, height, width, channels]. */
  layout: 'NCHW' | 'NHWC';
  /** The batch size the model is fixed to, or null when it takes any number of lines at once. */
  fixedBatch: number | null;
  channels: number;
  height: number;
  width: number;
}

export interface OnnxEmbedder {
  readonly input: OnnxImageInput;
  /** One feature vector per line, in order. */
  embed(lines: LineImage[]): Promise<Float32Array[]>;
  /** Frees the model; the embedder cannot be used afterwards. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_ONNX_BYTES = 512 * 1024 * 1024;
const DEFAULT_BATCH_SIZE = 32;
/** The most values one run's input holds (256 MB of float32), whatever the batch size. */
const MAX_BATCH_VALUES = 64 * 1024 * 1024;
const MAX_SIDE = 4096;

/** Opens the ONNX file of a stored Siamese network model zip and makes a session of it. */
export async function openOnnxEmbedder(modelZipPath: string, options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
  checkOptions(options);
  const bytes = await readOnnxFile(modelZipPath, options.maxModelBytes ?? DEFAULT_MAX_ONNX_BYTES);
  let session: InferenceSession;
  try {
    // onnxruntime's own log (warnings about the graph, errors of a run) stays quiet: what goes
    // wrong reaches the caller as a refusal with onnxruntime's message.
    session = await InferenceSession.create(bytes, { executionProviders: ['cpu'], logSeverityLevel: 4 });
  } catch (err) {
    throw badRequest(`The ONNX file of the Siamese network model cannot be loaded: ${messageOf(err)}`);
  }
  let input: OnnxImageInput;
  try {
    input = imageInputOf(session, options);
  } catch (err) {
    await session.release();
    throw err;
  }
  return new SessionEmbedder(session, input, options.batchSize ?? DEFAULT_BATCH_SIZE);
}

class SessionEmbedder implements OnnxEmbedder {
  private closed = false;
  private readonly runSize: number;

  constructor(
    private readonly session: InferenceSession,
    readonly input: OnnxImageInput,
    batchSize: number,
  ) {
    const perLine = input.channels * input.height * input.width;
    this.runSize = input.fixedBatch ?? Math.max(1, Math.min(batchSize, Math.floor(MAX_BATCH_VALUES / perLine)));
  }

  async embed(lines: LineImage[]): Promise<Float32Array[]> {
    if (this.closed) throw new Error('The ONNX embedder is closed.');
    const vectors: Float32Array[] = [];
    for (let start = 0; start < lines.length; start += this.runSize) {
      vectors.push(...(await this.run(lines.slice(start, start + this.runSize))));
    }
    return vectors;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.release();
  }

  /** One run of the model; a model of a fixed batch size gets blank lines to fill it. */
  private async run(lines: LineImage[]): Promise<Float32Array[]> {
    const { name, layout, fixedBatch, channels, height, width } = this.input;
    const rows = fixedBatch ?? lines.length;
    const perLine = channels * height * width;
    const data = new Float32Array(rows * perLine).fill(1);
    for (const [i, line] of lines.entries()) {
      writeLine(data, i * perLine, await stretchedGrey(line, width, height), this.input);
    }
    const dims = layout === 'NCHW' ? [rows, channels, height, width] : [rows, height, width, channels];
    let output: Tensor;
    try {
      const results = await this.session.run({ [name]: new Tensor('float32', data, dims) });
      output = results[this.session.outputNames[0]!]!;
    } catch (err) {
      throw badRequest(`The Siamese network model failed on the line images: ${messageOf(err)}`);
    }
    return lines.map((_, i) => toFeatureVector(rowOf(output, i, rows)));
  }
}

/**
 * Makes a model's output for one line a feature vector: more than `SIMILARITY_MAX_FEATURES`
 * values are averaged in contiguous groups of ceil(n / max) values (the last group may be
 * shorter), then the vector is scaled to length 1; all zeros stays zeros.
 */
export function toFeatureVector(values: ArrayLike<number>): Float32Array {
  const group = Math.ceil(values.length / SIMILARITY_MAX_FEATURES) || 1;
  const vector = new Float32Array(Math.ceil(values.length / group));
  for (let g = 0; g < vector.length; g += 1) {
    const end = Math.min(values.length, (g + 1) * group);
    let sum = 0;
    for (let i = g * group; i < end; i += 1) sum += values[i]!;
    vector[g] = sum / (end - g * group);
  }
  let norm = 0;
  for (const v of vector) {
    if (!Number.isFinite(v)) throw badRequest('The Siamese network model gave a feature that is not a number (NaN or infinite).');
    norm += v * v;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i]! /= norm;
  return vector;
}

function checkOptions({ width, height, channels }: OnnxEmbedderOptions): void {
  const side = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_SIDE;
  if (!side(width) || !side(height)) throw badRequest(`The image width and height must be whole numbers of pixels from 1 to ${MAX_SIDE}.`);
  if (channels !== 1 && channels !== 3) throw badRequest('The number of channels must be 1 (grey) or 3 (colour).');
}

/** The model's one input, which must be an image tensor; its fixed dimensions win over the options. */
function imageInputOf(session: InferenceSession, options: OnnxEmbedderOptions): OnnxImageInput {
  if (session.inputNames.length !== 1) {
    throw badRequest(
      `The Siamese network model has ${session.inputNames.length} inputs (${session.inputNames.join(', ')}): upload the network that turns one line image into its features.`,
    );
  }
  const meta = session.inputMetadata[0]!;
  const notImage = (what: string) =>
    badRequest(`The Siamese network model's input ${meta.name} is ${what}, not images: [batch, channels, height, width] or [batch, height, width, channels].`);
  if (!meta.isTensor) throw notImage('not a tensor');
  if (meta.shape.length !== 4) throw notImage(`a tensor of shape [${meta.shape.join(', ')}]`);
  if (meta.type !== 'float32') throw notImage(`of ${meta.type} values`);
  const fixed = (dim: number | string | undefined) => (typeof dim === 'number' && dim > 0 ? dim : null);
  const isChannels = (dim: number | string | undefined) => dim === 1 || dim === 3;
  const [batch, d1, d2, d3] = meta.shape;
  let layout: OnnxImageInput['layout'];
  if (isChannels(d1)) layout = 'NCHW';
  else if (isChannels(d3)) layout = 'NHWC';
  else if (fixed(d1) === null) layout = 'NCHW';
  else throw notImage(`a tensor of shape [${meta.shape.join(', ')}] with neither 1 nor 3 channels`);
  const [channels, height, width] = layout === 'NCHW' ? [d1, d2, d3] : [d3, d1, d2];
  return {
    name: meta.name,
    layout,
    fixedBatch: fixed(batch),
    channels: fixed(channels) ?? options.channels,
    height: fixed(height) ?? options.height,
    width: fixed(width) ?? options.width,
  };
}

/** The line's grey stretched to width x height; an empty line (no pixels) is blank paper. */
async function stretchedGrey(line: LineImage, width: number, height: number): Promise<Uint8Array> {
  if (line.pixels.length !== line.width * line.height) throw new Error(`A ${line.width}x${line.height} line image has ${line.pixels.length} pixels.`);
  if (line.width === 0 || line.height === 0) return new Uint8Array(width * height).fill(255);
  if (line.width === width && line.height === height) return line.pixels;
  return sharp(line.pixels, { raw: { width: line.width, height: line.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
}

/** Writes a line's grey, over 255, into every channel of its place in the batch. */
function writeLine(data: Float32Array, offset: number, grey: Uint8Array, { layout, channels, height, width }: OnnxImageInput): void {
  const plane = height * width;
  for (let i = 0; i < plane; i += 1) {
    const value = grey[i]! / 255;
    for (let c = 0; c < channels; c += 1) data[offset + (layout === 'NCHW' ? c * plane + i : i * channels + c)] = value;
  }
}

/** The output values of the `index`th line of a run of `rows`. */
function rowOf(output: Tensor, index: number, rows: number): ArrayLike<number> {
  if (output.type !== 'float32' && output.type !== 'float64') {
    throw badRequest(`The Siamese network model's output is of ${output.type} values, not float32 features.`);
  }
  const data = output.data as Float32Array | Float64Array;
  if (output.dims[0] !== rows || data.length % rows !== 0) {
    throw badRequest(`The Siamese network model's output [${output.dims.join(', ')}] does not have one row for each of the ${rows} line images.`);
  }
  const per = data.length / rows;
  return data.subarray(index * per, (index + 1) * per);
}

/** Reads the zip's ONNX file into memory (never to disk), refusing what model-archive.ts refuses. */
async function readOnnxFile(zipPath: string, maxBytes: number): Promise<Buffer> {
  let zip: ZipFile;
  try {
    // Names are decoded here, not by yauzl, so a path that leaves the folder gets its own refusal.
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, decodeStrings: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code) throw err;
    throw damaged();
  }
  try {
    const model = onnxModelEntry(await listFiles(zip));
    if (!model) throw badRequest('The Siamese network model zip has no ONNX file (.onnx).');
    if (model.entry.uncompressedSize > maxBytes) {
      throw badRequest(`The ONNX file ${model.name} is larger than ${formatBytes(maxBytes)}.`);
    }
    const chunks: Buffer[] = [];
    try {
      // yauzl checks the bytes unpacked against the entry's recorded size, so this stays within the cap.
      for await (const chunk of await zip.openReadStreamPromise(model.entry)) chunks.push(chunk as Buffer);
    } catch {
      throw badRequest(`${model.name} in the zip cannot be read: the zip is damaged.`);
    }
    return Buffer.concat(chunks);
  } finally {
    zip.close();
  }
}

async function listFiles(zip: ZipFile): Promise<{ entry: Entry; name: string }[]> {
  const files: { entry: Entry; name: string }[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.isEncrypted()) throw badRequest('The zip has encrypted (password-protected) entries: upload the model without a password.');
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      const unsafe = yauzl.validateFileName(name);
      if (unsafe) throw badRequest(`The zip has an entry outside its folder (${unsafe}).`);
      if (!name.endsWith('/')) files.push({ entry, name });
    }
  } catch (err) {
    throw err instanceof AppError ? err : damaged();
  }
  return files;
}

function damaged() {
  return badRequest('This zip file is damaged: its table of contents cannot be read.');
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
