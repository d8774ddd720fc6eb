import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODEL_KINDS, type ModelKind } from '@pim/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { tinyMlmodel, tinyPickle, tinySafetensors, tinyTraineddata, zipOf } from '../../test-support/model-files.js';
import { checkModelFile, checkModelHead, traineddataOffsets } from './model-formats.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-model-formats-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function staged(bytes: Buffer) {
  const file = path.join(dir, `${Math.random()}`);
  fs.writeFileSync(file, bytes);
  return { path: file, sizeBytes: bytes.length };
}

function refusal(run: () => unknown): { status: number; message: string } | undefined {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  return undefined;
}

async function fileRefusal(kind: ModelKind, bytes: Buffer) {
  try {
    await checkModelFile(kind, staged(bytes), bytes);
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  return undefined;
}

describe('the model file formats, told from their bytes', () => {
  it('takes a zip for the zip kinds and a zip or a pickle for PyLaia', async () => {
    const zip = await zipOf({ 'a.txt': 'a' });
    for (const kind of ['loghihtr', 'loghilinedetection', 'p2pala', 'siamesenetwork', 'laypa', 'pylaia'] as const) {
      expect(refusal(() => checkModelHead(kind, zip)), kind).toBeUndefined();
    }
    expect(refusal(() => checkModelHead('pylaia', tinyPickle()))).toBeUndefined();
    expect((await checkModelFile('pylaia', staged(tinyPickle()), tinyPickle())).properties).toEqual({ checkpointFormat: 'pickle protocol 2' });
  });

  it('refuses an empty zip with 400 "The zip is empty."', async () => {
    const empty = await zipOf({});
    expect(empty.subarray(0, 4).toString('latin1')).toBe('PK\x05\x06');
    expect(refusal(() => checkModelHead('loghihtr', empty))).toEqual({ status: 400, message: 'The zip is empty.' });
  });

  it('refuses every other file with 415, naming what the kind expects', () => {
    const text = Buffer.from('just some text that is no model at all');
    const expected: Record<ModelKind, string> = {
      kraken: 'A Kraken model must be a CoreML .mlmodel or a .safetensors file; this file is neither.',
      tesseract4: 'A Tesseract 4 model must be a .traineddata file; this file is not one.',
      loghihtr: 'A Loghi HTR model must be a .zip file; this file is not one.',
      loghilinedetection: 'A Loghi line detection model must be a .zip file; this file is not one.',
      p2pala: 'A P2PaLA model must be a .zip file; this file is not one.',
      pylaia: 'A PyLaia model must be a PyTorch .ckpt checkpoint; this file is not one.',
      siamesenetwork: 'A Siamese network model must be a .zip file; this file is not one.',
      laypa: 'A Laypa model must be a .zip file; this file is not one.',
    };
    for (const kind of MODEL_KINDS) expect(refusal(() => checkModelHead(kind, text)), kind).toEqual({ status: 415, message: expected[kind] });
    // Each format refuses the others' files.
    expect(refusal(() => checkModelHead('tesseract4', tinyMlmodel()))?.status).toBe(415);
    expect(refusal(() => checkModelHead('kraken', tinyTraineddata()))?.status).toBe(415);
    expect(refusal(() => checkModelHead('loghihtr', tinyPickle()))?.status).toBe(415);
    expect(refusal(() => checkModelHead('pylaia', tinyTraineddata()))?.status).toBe(415);
  });

  it('reads a traineddata offset table and refuses one whose offsets are not increasing or point past the end', async () => {
    const good = tinyTraineddata();
    expect(traineddataOffsets(good)).toEqual([28, -1, 41]);
    expect((await checkModelFile('tesseract4', staged(good), good)).properties).toEqual({ components: 2 });

    const backwards = Buffer.from(good);
    backwards.writeBigInt64LE(20n, 20);
    expect(traineddataOffsets(backwards)).toBeUndefined();
    const tooMany = Buffer.from(good);
    tooMany.writeInt32LE(500, 0);
    expect(traineddataOffsets(tooMany)).toBeUndefined();
    const allAbsent = Buffer.from(good);
    allAbsent.writeBigInt64LE(-1n, 4);
    allAbsent.writeBigInt64LE(-1n, 20);
    expect(traineddataOffsets(allAbsent)).toBeUndefined();

    const cut = good.subarray(0, 35);
    expect(refusal(() => checkModelHead('tesseract4', cut))).toBeUndefined();
    expect(await fileRefusal('tesseract4', cut)).toEqual({
      status: 415,
      message: 'A Tesseract 4 model must be a .traineddata file; this file is not one.',
    });
  });

  it('takes a CoreML protobuf and a safetensors file as Kraken models, keeping the safetensors metadata', async () => {
    expect((await checkModelFile('kraken', staged(tinyMlmodel()), tinyMlmodel())).properties).toEqual({ modelFormat: 'CoreML' });
    const safetensors = tinySafetensors();
    expect(refusal(() => checkModelHead('kraken', safetensors))).toBeUndefined();
    expect((await checkModelFile('kraken', staged(safetensors), safetensors)).properties).toEqual({
      modelFormat: 'safetensors',
      metadata: { kraken_meta: '{"model_type":["recognition"]}' },
    });
    // A header longer than the file, or one that is not JSON, is no safetensors file.
    expect(await fileRefusal('kraken', safetensors.subarray(0, 20))).toMatchObject({ status: 415 });
    const broken = Buffer.from(safetensors);
    broken.write('{not json', 8);
    expect(await fileRefusal('kraken', broken)).toMatchObject({ status: 415 });
    // A protobuf that does not start with the version field is not a CoreML model.
    expect(refusal(() => checkModelHead('kraken', Buffer.from([0x08, 0x04, 0x08, 0x01])))?.status).toBe(415);
  });
});
