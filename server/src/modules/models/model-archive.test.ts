import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModelKind } from '@pim/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { LAYPA_YAML, LOGHI_CONFIG, zipOf } from '../../test-support/model-files.js';
import { rowMeanModel } from '../similarity/onnx-model.test-support.js';
import { DEFAULT_ARCHIVE_LIMITS, readModelArchive, type ArchiveLimits } from './model-archive.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-model-archive-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function staged(bytes: Buffer) {
  const file = path.join(dir, `${Math.random()}.zip`);
  fs.writeFileSync(file, bytes);
  return { path: file, sizeBytes: bytes.length };
}

async function read(kind: ModelKind, bytes: Buffer, limits?: Partial<ArchiveLimits>) {
  return readModelArchive(kind, staged(bytes), { ...DEFAULT_ARCHIVE_LIMITS, ...limits });
}

async function refusal(kind: ModelKind, bytes: Buffer, limits?: Partial<ArchiveLimits>): Promise<{ status: number; message: string }> {
  try {
    await read(kind, bytes, limits);
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('the archive was taken');
}

/** Sets the "encrypted" flag of every entry, in its local and its central directory header. */
function markEncrypted(zip: Buffer): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i < out.length - 4; i += 1) {
    const signature = out.readUInt32LE(i);
    if (signature === 0x04034b50) out.writeUInt16LE(out.readUInt16LE(i + 6) | 1, i + 6);
    if (signature === 0x02014b50) out.writeUInt16LE(out.readUInt16LE(i + 8) | 1, i + 8);
  }
  return out;
}

describe("reading a model's zip", () => {
  it("keeps Loghi HTR's shallowest config.json as the properties", async () => {
    const zip = await zipOf({
      'model/checkpoints/old/config.json': JSON.stringify({ model_name: 'old' }),
      'model/config.json': JSON.stringify(LOGHI_CONFIG),
      'model/charlist.txt': 'abc',
    });
    expect(await read('loghihtr', zip)).toEqual(LOGHI_CONFIG);
  });

  it('refuses a Loghi HTR zip without config.json, or with one that is not a JSON object', async () => {
    expect(await refusal('loghihtr', await zipOf({ 'model/charlist.txt': 'abc' }))).toEqual({
      status: 400,
      message: "A Loghi HTR model zip must contain the model's config.json.",
    });
    expect((await refusal('loghihtr', await zipOf({ 'config.json': '{"a": ' }))).message).toMatch(/^config\.json in the zip is not valid JSON/);
    expect((await refusal('loghihtr', await zipOf({ 'config.json': '[1, 2]' }))).message).toBe('config.json in the zip must hold a JSON object of settings.');
  });

  it("keeps Laypa's yaml settings with the names of its weight files", async () => {
    const zip = await zipOf({ 'baseline/config.yaml': LAYPA_YAML, 'baseline/model_best_mIoU.pth': 'w', 'baseline/notes.txt': 'n' });
    expect(await read('laypa', zip)).toEqual({
      MODEL: { META_ARCHITECTURE: 'SemanticSegmentor', WEIGHTS: 'model_best_mIoU.pth' },
      INPUT: { RESIZE_MODE: 'scaling', SCALING_TRAIN: 0.5 },
      PREPROCESS: { REGIONS: ['paragraph', 'marginalia'] },
      NAME: 'baseline',
      configFile: 'baseline/config.yaml',
      weightFiles: ['baseline/model_best_mIoU.pth'],
    });
    expect((await refusal('laypa', await zipOf({ 'model.pth': 'w' }))).message).toBe(
      "A Laypa model zip must contain the model's yaml configuration (config.yaml).",
    );
    expect((await refusal('laypa', await zipOf({ 'config.yaml': 'a: [1, 2' }))).message).toMatch(/^config\.yaml in the zip is not valid YAML/);
  });

  it('wants an ONNX file, a SavedModel or a Keras file in a Siamese network zip, ONNX first', async () => {
    expect(await read('siamesenetwork', await zipOf({ 'net/export/siamese.onnx': rowMeanModel(4, 6), 'net/readme.txt': 'r' }))).toEqual({
      modelFormat: 'ONNX',
      modelFile: 'net/export/siamese.onnx',
      files: ['net/export/siamese.onnx', 'net/readme.txt'],
      fileCount: 2,
    });
    const both = await zipOf({ 'net/saved_model.pb': 'pb', 'net/onnx/deeper.onnx': 'x', 'net/siamese.ONNX': 'o' });
    expect(await read('siamesenetwork', both)).toMatchObject({ modelFormat: 'ONNX', modelFile: 'net/siamese.ONNX' });
    expect(await read('siamesenetwork', await zipOf({ 'net/saved_model.pb': 'pb', 'net/variables/variables.index': 'i' }))).toEqual({
      modelFormat: 'TensorFlow SavedModel',
      modelFile: 'net/saved_model.pb',
      files: ['net/saved_model.pb', 'net/variables/variables.index'],
      fileCount: 2,
    });
    expect(await read('siamesenetwork', await zipOf({ 'siamese.h5': 'h5' }))).toMatchObject({ modelFormat: 'Keras', modelFile: 'siamese.h5' });
    expect(await refusal('siamesenetwork', await zipOf({ 'weights.bin': 'w' }))).toEqual({
      status: 400,
      message:
        'A Siamese network model zip must contain an ONNX file (.onnx), a TensorFlow SavedModel (saved_model.pb) or a Keras file (.keras or .h5).',
    });
  });

  it('lists the files of the other kinds, up to a limit', async () => {
    const zip = await zipOf({ 'a.pth': 'a', 'b/c.txt': 'c', 'b/d.txt': 'd' });
    expect(await read('p2pala', zip)).toEqual({ files: ['a.pth', 'b/c.txt', 'b/d.txt'], fileCount: 3 });
    expect(await read('loghilinedetection', zip, { maxListedFiles: 2 })).toEqual({ files: ['a.pth', 'b/c.txt'], fileCount: 3 });
  });

  it('refuses damaged and encrypted zips, zip bombs, oversized configurations and too many entries', async () => {
    const zip = await zipOf({ 'config.json': JSON.stringify(LOGHI_CONFIG), 'weights.bin': Buffer.alloc(4096) });
    expect(await refusal('loghihtr', zip.subarray(0, zip.length - 30))).toEqual({
      status: 400,
      message: 'This zip file is damaged: its table of contents cannot be read.',
    });
    expect((await refusal('loghihtr', markEncrypted(zip))).message).toBe(
      'The zip has encrypted (password-protected) entries: upload the model without a password.',
    );
    // 4 KB of zeros deflate to a few bytes: far more unpacked than packed.
    expect((await refusal('loghihtr', zip, { bombMinBytes: 1024, bombRatio: 5 })).message).toMatch(/that is a zip bomb, not a model\.$/);
    expect((await refusal('loghihtr', zip, { maxConfigBytes: 10 })).message).toBe(
      'config.json in the zip is larger than 10 bytes: that is not a model\'s configuration.',
    );
    expect((await refusal('loghihtr', zip, { maxPropertiesBytes: 20 })).message).toBe("The model's configuration is too large to keep (over 20 bytes).");
    expect((await refusal('p2pala', zip, { maxEntries: 1 })).message).toBe('The zip has 2 entries; a model may have at most 1.');
    const deep = await zipOf({ 'config.json': `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}` });
    expect(await refusal('loghihtr', deep)).toMatchObject({ status: 400 });
  });

  it('refuses a zip whose config.json does not unpack', async () => {
    const zip = await zipOf({ 'config.json': JSON.stringify(LOGHI_CONFIG).repeat(20) });
    const damaged = Buffer.from(zip);
    // Garble the deflated bytes of the only entry (after its 30-byte local header and name).
    for (let i = 30 + 'config.json'.length; i < 30 + 'config.json'.length + 20; i += 1) damaged[i] = 0xff;
    expect(await refusal('loghihtr', damaged)).toEqual({ status: 400, message: 'config.json in the zip cannot be read: the zip is damaged.' });
  });
});
