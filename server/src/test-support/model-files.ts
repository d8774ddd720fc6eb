import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ModelKind } from '@pim/contract';
import { ZipFile } from 'yazl';

/**
 * Small files in the real formats of each model kind, for the model tests and the end-to-end
 * tests: built byte by byte as the formats define them, not copied from real models. Nothing of
 * the server is imported here, so a Playwright test can use them too.
 */

/** A Tesseract container: 3 component slots (one absent), each offset past the table and increasing. */
export function tinyTraineddata(): Buffer {
  const count = 3;
  const tableEnd = 4 + 8 * count;
  const components = [Buffer.from('unicharset 1\n'), Buffer.from('lstm network bytes')];
  const head = Buffer.alloc(tableEnd);
  head.writeInt32LE(count, 0);
  head.writeBigInt64LE(BigInt(tableEnd), 4);
  head.writeBigInt64LE(-1n, 12);
  head.writeBigInt64LE(BigInt(tableEnd + components[0]!.length), 20);
  return Buffer.concat([head, ...components]);
}

/** A CoreML-like protobuf: specificationVersion 4 (field 1, varint), then a description (field 2, bytes). */
export function tinyMlmodel(): Buffer {
  const description = Buffer.from('kraken test model');
  return Buffer.concat([Buffer.from([0x08, 0x04, 0x12, description.length]), description]);
}

/** A safetensors file: its JSON header with metadata, then one float32 tensor. */
export function tinySafetensors(): Buffer {
  const header = Buffer.from(
    JSON.stringify({ __metadata__: { kraken_meta: '{"model_type":["recognition"]}' }, weight: { dtype: 'F32', shape: [1], data_offsets: [0, 4] } }),
  );
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, Buffer.alloc(4)]);
}

/** A pickle stream of protocol 2 holding an empty dict: torch.save's legacy checkpoint format. */
export function tinyPickle(): Buffer {
  return Buffer.from([0x80, 0x02, 0x7d, 0x71, 0x00, 0x2e]);
}

/** A zip of the given files (deflated unless `store`). */
export function zipOf(files: Record<string, string | Buffer>, store = false): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress: !store });
  zip.end();
  return collect(zip.outputStream);
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const LOGHI_CONFIG = { model_name: 'generic-2023', channels: 4, batch_size: 16, charlist: 'abc', augment: true, layers: [{ units: 256 }] };
export const LAYPA_YAML = [
  'MODEL:',
  '  META_ARCHITECTURE: SemanticSegmentor',
  '  WEIGHTS: model_best_mIoU.pth',
  'INPUT:',
  '  RESIZE_MODE: scaling',
  '  SCALING_TRAIN: 0.5',
  'PREPROCESS:',
  '  REGIONS:',
  '    - paragraph',
  '    - marginalia',
  'NAME: baseline',
  '',
].join('\n');

/** A valid file for each kind, with its name. */
export async function modelFileFor(kind: ModelKind): Promise<{ fileName: string; bytes: Buffer }> {
  switch (kind) {
    case 'kraken':
      return { fileName: 'catmus.mlmodel', bytes: tinyMlmodel() };
    case 'tesseract4':
      return { fileName: 'nld.traineddata', bytes: tinyTraineddata() };
    case 'loghihtr':
      return { fileName: 'generic.zip', bytes: await zipOf({ 'generic/config.json': JSON.stringify(LOGHI_CONFIG), 'generic/charlist.txt': 'abc', 'generic/model.keras': randomBytes(64) }) };
    case 'laypa':
      return { fileName: 'baseline.zip', bytes: await zipOf({ 'baseline/config.yaml': LAYPA_YAML, 'baseline/model_best_mIoU.pth': randomBytes(64) }) };
    case 'siamesenetwork':
      return { fileName: 'siamese.zip', bytes: await zipOf({ 'siamese/saved_model.pb': randomBytes(32), 'siamese/variables/variables.index': randomBytes(16) }) };
    case 'pylaia':
      return { fileName: 'weights.ckpt', bytes: tinyPickle() };
    case 'p2pala':
      return { fileName: 'bozen_lines.zip', bytes: await zipOf({ 'checkpoint.pth': randomBytes(64) }) };
    case 'loghilinedetection':
      return { fileName: 'lines.zip', bytes: await zipOf({ 'lines/config.yaml': LAYPA_YAML, 'lines/model_final.pth': randomBytes(64) }) };
  }
}

/**
 * A stored (uncompressed) zip of a Loghi HTR model made on the fly: its config.json and one entry
 * of `size` bytes, produced chunk by chunk so the whole is never in memory.
 */
export function streamedLoghiZip(size: number): Readable {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(LOGHI_CONFIG)), 'model/config.json');
  const chunk = randomBytes(1024 * 1024);
  let left = size;
  const weights = new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
  zip.addReadStream(weights, 'model/variables/variables.data-00000-of-00001', { compress: false, size });
  zip.end();
  return zip.outputStream as Readable;
}
