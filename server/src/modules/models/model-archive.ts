import path from 'node:path';
import type { ModelKind } from '@pim/contract';
import { parse as parseYaml } from 'yaml';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppError, badRequest } from '../../platform/errors.js';
import { formatBytes } from '../../platform/storage/file-store.js';
import { MODEL_KIND_NAMES } from './model-formats.js';

/** What reading a model's zip may cost, and what it may keep. */
export interface ArchiveLimits {
  /** Most entries a model zip may have. */
  maxEntries: number;
  /** Largest configuration file that is read (config.json, the yaml). */
  maxConfigBytes: number;
  /** Largest properties kept for the detail page, as JSON. */
  maxPropertiesBytes: number;
  /** Most file names kept in the properties. */
  maxListedFiles: number;
  /**
   * A zip that would unpack to more than this many times its own size, and to more than
   * `bombMinBytes`, is taken for a zip bomb: model weights hardly compress.
   */
  bombRatio: number;
  bombMinBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 100_000,
  maxConfigBytes: 1024 * 1024,
  maxPropertiesBytes: 256 * 1024,
  maxListedFiles: 200,
  bombRatio: 100,
  bombMinBytes: 1024 * 1024 * 1024,
};

interface ArchiveEntry {
  entry: Entry;
  name: string;
}

/**
 * Opens a staged model zip (its central directory, read at random from the file, never loaded
 * whole), refuses one that is damaged, encrypted or a zip bomb, and reads what the kind keeps of
 * it: Loghi HTR's config.json, Laypa's yaml and weight files, the file list of the others. A
 * refusal is a 400 that says what is wrong.
 */
export async function readModelArchive(
  kind: ModelKind,
  file: { path: string; sizeBytes: number },
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<Record<string, unknown>> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file.path, { lazyEntries: true, autoClose: false, decodeStrings: true, strictFileNames: false });
  } catch {
    throw damaged();
  }
  try {
    const entries = await listEntries(zip, file.sizeBytes, limits);
    const properties = await propertiesOf(kind, zip, entries, limits);
    if (serializedLength(properties) > limits.maxPropertiesBytes) {
      throw badRequest(`The model's configuration is too large to keep (over ${formatBytes(limits.maxPropertiesBytes)}).`);
    }
    return properties;
  } finally {
    zip.close();
  }
}

async function listEntries(zip: ZipFile, sizeBytes: number, limits: ArchiveLimits): Promise<ArchiveEntry[]> {
  if (zip.entryCount === 0) throw badRequest('The zip is empty.');
  if (zip.entryCount > limits.maxEntries) throw badRequest(`The zip has ${zip.entryCount} entries; a model may have at most ${limits.maxEntries}.`);
  const entries: ArchiveEntry[] = [];
  let unpacked = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.isEncrypted()) throw badRequest('The zip has encrypted (password-protected) entries: upload the model without a password.');
      unpacked += entry.uncompressedSize;
      if (entry.fileName.endsWith('/')) continue;
      const name = entry.fileName.replace(/\\/g, '/');
      entries.push({ entry, name });
    }
  } catch (err) {
    throw err instanceof AppError ? err : damaged();
  }
  if (unpacked > limits.bombMinBytes && unpacked > limits.bombRatio * sizeBytes) {
    throw badRequest(`The zip would unpack to ${formatBytes(unpacked)} from ${formatBytes(sizeBytes)}: that is a zip bomb, not a model.`);
  }
  if (entries.length === 0) throw badRequest('The zip holds only folders, no files.');
  return entries;
}

async function propertiesOf(kind: ModelKind, zip: ZipFile, entries: ArchiveEntry[], limits: ArchiveLimits): Promise<Record<string, unknown>> {
  switch (kind) {
    case 'loghihtr':
      return loghiProperties(zip, entries, limits);
    case 'laypa':
      return laypaProperties(zip, entries, limits);
    case 'siamesenetwork':
      return siameseProperties(entries, limits);
    default:
      return fileList(entries, limits);
  }
}

/** Loghi HTR keeps its settings in config.json beside the model: the shallowest one is the model's. */
async function loghiProperties(zip: ZipFile, entries: ArchiveEntry[], limits: ArchiveLimits): Promise<Record<string, unknown>> {
  const config = shallowest(entries.filter((e) => baseName(e) === 'config.json'));
  if (!config) throw badRequest(`A ${MODEL_KIND_NAMES.loghihtr} model zip must contain the model's config.json.`);
  const text = await readText(zip, config, limits);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badRequest(`${config.name} in the zip is not valid JSON: ${(err as Error).message}`);
  }
  if (!isRecord(parsed)) throw badRequest(`${config.name} in the zip must hold a JSON object of settings.`);
  return parsed;
}

const WEIGHT_FILE = /\.(pth|pt|pkl|bin|safetensors|ckpt)$/i;

/** Laypa (detectron2) keeps its settings in a yaml file beside the weights. */
async function laypaProperties(zip: ZipFile, entries: ArchiveEntry[], limits: ArchiveLimits): Promise<Record<string, unknown>> {
  const yamls = entries.filter((e) => /\.ya?ml$/i.test(e.name));
  const config = shallowest(yamls.filter((e) => /^config\.ya?ml$/i.test(baseName(e)))) ?? shallowest(yamls);
  if (!config) throw badRequest(`A ${MODEL_KIND_NAMES.laypa} model zip must contain the model's yaml configuration (config.yaml).`);
  const text = await readText(zip, config, limits);
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw badRequest(`${config.name} in the zip is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(parsed)) throw badRequest(`${config.name} in the zip must hold a mapping of settings.`);
  return { ...parsed, configFile: config.name, weightFiles: names(entries.filter((e) => WEIGHT_FILE.test(e.name)), limits) };
}

/**
 * A Siamese network model is an ONNX file, which the server runs itself, or the folder of a
 * TensorFlow SavedModel or a Keras file, which a worker runs. A zip with an ONNX file is taken as
 * ONNX whatever else it holds: a SavedModel beside it is most likely what it was exported from.
 */
function siameseProperties(entries: ArchiveEntry[], limits: ArchiveLimits): Record<string, unknown> {
  const onnx = onnxModelEntry(entries);
  const savedModel = shallowest(entries.filter((e) => baseName(e) === 'saved_model.pb'));
  const keras = shallowest(entries.filter((e) => /\.(keras|h5)$/i.test(e.name)));
  const model = onnx ?? savedModel ?? keras;
  if (!model) {
    throw badRequest(
      `A ${MODEL_KIND_NAMES.siamesenetwork} model zip must contain an ONNX file (.onnx), a TensorFlow SavedModel (saved_model.pb) or a Keras file (.keras or .h5).`,
    );
  }
  const modelFormat = model === onnx ? 'ONNX' : model === savedModel ? 'TensorFlow SavedModel' : 'Keras';
  return { modelFormat, modelFile: model.name, ...fileList(entries, limits) };
}

/** The ONNX file of a Siamese network zip: the shallowest `.onnx` entry (the first by name among equals). */
export function onnxModelEntry<T extends { name: string }>(entries: T[]): T | undefined {
  return shallowest(entries.filter((e) => /\.onnx$/i.test(e.name)));
}

function fileList(entries: ArchiveEntry[], limits: ArchiveLimits): Record<string, unknown> {
  return { files: names(entries, limits), fileCount: entries.length };
}

function names(entries: ArchiveEntry[], limits: ArchiveLimits): string[] {
  return entries.slice(0, limits.maxListedFiles).map((e) => e.name);
}

function shallowest<T extends { name: string }>(entries: T[]): T | undefined {
  const depth = (e: T) => e.name.split('/').length;
  return [...entries].sort((a, b) => depth(a) - depth(b) || a.name.localeCompare(b.name))[0];
}

const baseName = (e: ArchiveEntry) => path.posix.basename(e.name);

async function readText(zip: ZipFile, { entry, name }: ArchiveEntry, limits: ArchiveLimits): Promise<string> {
  if (entry.uncompressedSize > limits.maxConfigBytes) {
    throw badRequest(`${name} in the zip is larger than ${formatBytes(limits.maxConfigBytes)}: that is not a model's configuration.`);
  }
  const chunks: Buffer[] = [];
  try {
    // yauzl checks the entry's real size against its recorded one, so this stays within the cap.
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  } catch {
    throw badRequest(`${name} in the zip cannot be read: the zip is damaged.`);
  }
  return Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
}

/** The length of the properties as JSON; a configuration nested too deeply to write counts as too large. */
function serializedLength(properties: Record<string, unknown>): number {
  try {
    return JSON.stringify(properties).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function damaged() {
  return badRequest('This zip file is damaged: its table of contents cannot be read.');
}
