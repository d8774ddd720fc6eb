import fsp from 'node:fs/promises';
import { MODEL_KIND_INFO, type ModelFileFormat, type ModelKind } from '@pim/contract';
import { badRequest, unsupportedMediaType } from '../../platform/errors.js';

/** The kinds as people name them, in messages. */
export const MODEL_KIND_NAMES: Record<ModelKind, string> = {
  kraken: 'Kraken',
  tesseract4: 'Tesseract 4',
  loghihtr: 'Loghi HTR',
  loghilinedetection: 'Loghi line detection',
  p2pala: 'P2PaLA',
  pylaia: 'PyLaia',
  siamesenetwork: 'Siamese network',
  laypa: 'Laypa',
};

/** What each format must be, for the message that refuses another file. */
const EXPECTED: Record<ModelFileFormat, string> = {
  zip: 'a .zip file; this file is not one',
  traineddata: 'a .traineddata file; this file is not one',
  kraken: 'a CoreML .mlmodel or a .safetensors file; this file is neither',
  'torch-checkpoint': 'a PyTorch .ckpt checkpoint; this file is not one',
};

/** How many bytes the checks of a file's start need (the offset table of a traineddata file is the longest). */
export const MODEL_HEAD_BYTES = 4096;

/** Tesseract's TessdataManager has 24 component types; newer builds may add a few. */
const TRAINEDDATA_MAX_ENTRIES = 40;
/** safetensors caps its JSON header at 100 MB. */
const SAFETENSORS_MAX_HEADER = 100 * 1024 * 1024;
/** A safetensors header is read into the properties when it is at most this long. */
const SAFETENSORS_READ_HEADER = 1024 * 1024;

const ZIP_LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_EMPTY_ARCHIVE = Buffer.from('PK\x05\x06', 'latin1');

/** How a checked file is stored and what its bytes told about it. */
export interface FormatFacts {
  mediaType: string;
  properties: Record<string, unknown>;
}

export function wrongType(kind: ModelKind) {
  return unsupportedMediaType(`A ${MODEL_KIND_NAMES[kind]} model must be ${EXPECTED[MODEL_KIND_INFO[kind].format]}.`);
}

/**
 * Refuses, from its first bytes, a file that is not of the kind's format, before it is staged:
 * 415 naming what was expected, 400 for an empty zip.
 */
export function checkModelHead(kind: ModelKind, head: Buffer): void {
  const format = MODEL_KIND_INFO[kind].format;
  if (format === 'zip' && head.subarray(0, 4).equals(ZIP_EMPTY_ARCHIVE)) throw badRequest('The zip is empty.');
  if (!headMatches(format, head)) throw wrongType(kind);
}

function headMatches(format: ModelFileFormat, head: Buffer): boolean {
  switch (format) {
    case 'zip':
      return isZip(head);
    case 'traineddata':
      return traineddataOffsets(head) !== undefined;
    case 'kraken':
      return isCoreMl(head) || safetensorsHeaderLength(head) !== undefined;
    case 'torch-checkpoint':
      return isZip(head) || isPickle(head);
  }
}

/**
 * The checks that need the whole staged file (its size, or more than its start), and what the
 * bytes say about the model. Zips are read by model-archive.ts afterwards.
 */
export async function checkModelFile(kind: ModelKind, file: { path: string; sizeBytes: number }, head: Buffer): Promise<FormatFacts> {
  const format = MODEL_KIND_INFO[kind].format;
  switch (format) {
    case 'zip':
      return { mediaType: 'application/zip', properties: {} };
    case 'traineddata': {
      const offsets = traineddataOffsets(head) ?? [];
      if (offsets.some((offset) => offset >= file.sizeBytes)) throw wrongType(kind);
      return { mediaType: 'application/octet-stream', properties: { components: offsets.filter((o) => o >= 0).length } };
    }
    case 'kraken':
      return isCoreMl(head) ? { mediaType: 'application/octet-stream', properties: { modelFormat: 'CoreML' } } : safetensorsFacts(kind, file, head);
    case 'torch-checkpoint':
      return {
        mediaType: 'application/octet-stream',
        properties: { checkpointFormat: isZip(head) ? 'PyTorch zip' : `pickle protocol ${head[1]}` },
      };
  }
}

export function isZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(ZIP_LOCAL_HEADER);
}

/** A pickle stream starts with the PROTO opcode and its protocol (torch.save's legacy format uses 2). */
function isPickle(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x80 && head[1]! >= 2 && head[1]! <= 5;
}

/**
 * Tesseract's container: an int32 LE count of components, then as many int64 LE offsets, each -1
 * (absent) or past the table and increasing. Undefined when the bytes are not such a table.
 */
export function traineddataOffsets(head: Buffer): number[] | undefined {
  if (head.length < 4) return undefined;
  const count = head.readInt32LE(0);
  if (count < 1 || count > TRAINEDDATA_MAX_ENTRIES) return undefined;
  const tableEnd = 4 + 8 * count;
  if (head.length < tableEnd) return undefined;
  const offsets: number[] = [];
  let previous = tableEnd - 1;
  for (let i = 0; i < count; i += 1) {
    const offset = head.readBigInt64LE(4 + 8 * i);
    if (offset === -1n) {
      offsets.push(-1);
      continue;
    }
    if (offset <= BigInt(previous) || offset > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    previous = Number(offset);
    offsets.push(previous);
  }
  return offsets.some((o) => o >= 0) ? offsets : undefined;
}

/** A CoreML model is a protobuf: field 1 (specificationVersion, a varint) first, then a length-delimited field. */
function isCoreMl(head: Buffer): boolean {
  if (head[0] !== 0x08) return false;
  let i = 1;
  while (i < head.length && i <= 10 && (head[i]! & 0x80) !== 0) i += 1;
  if (i > 10 || i + 1 >= head.length) return false;
  const tag = head[i + 1]!;
  return (tag & 0x07) === 2 && tag >> 3 >= 2;
}

/** safetensors: a u64 LE header length, then that much JSON starting with '{'. */
function safetensorsHeaderLength(head: Buffer): number | undefined {
  if (head.length < 9) return undefined;
  const length = head.readBigUInt64LE(0);
  if (length < 2n || length > BigInt(SAFETENSORS_MAX_HEADER) || head[8] !== 0x7b) return undefined;
  return Number(length);
}

async function safetensorsFacts(kind: ModelKind, file: { path: string; sizeBytes: number }, head: Buffer): Promise<FormatFacts> {
  const length = safetensorsHeaderLength(head)!;
  if (8 + length > file.sizeBytes) throw wrongType(kind);
  const facts: FormatFacts = { mediaType: 'application/octet-stream', properties: { modelFormat: 'safetensors' } };
  if (length > SAFETENSORS_READ_HEADER) return facts;
  const header = await readRange(file.path, 8, length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(header.toString('utf8'));
  } catch {
    throw wrongType(kind);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw wrongType(kind);
  const metadata = (parsed as Record<string, unknown>).__metadata__;
  if (metadata && typeof metadata === 'object') facts.properties.metadata = metadata;
  return facts;
}

async function readRange(file: string, position: number, length: number): Promise<Buffer> {
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
