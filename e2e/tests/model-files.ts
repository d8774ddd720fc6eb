import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Tiny files in the formats each model kind must have, built byte by byte from the format
 * definitions so the server's checks see the real thing.
 */

/** A zip of stored (uncompressed) entries: local headers, the central directory, its end record. */
export function storedZip(files: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Tesseract's container: a count of component slots, their offsets (-1 absent), then the components. */
export function tinyTraineddata(): Buffer {
  const components = [Buffer.from('unicharset 1\n'), Buffer.from('lstm weights')];
  const count = 3;
  const tableEnd = 4 + 8 * count;
  const table = Buffer.alloc(tableEnd);
  table.writeInt32LE(count, 0);
  table.writeBigInt64LE(BigInt(tableEnd), 4);
  table.writeBigInt64LE(-1n, 12);
  table.writeBigInt64LE(BigInt(tableEnd + components[0]!.length), 20);
  return Buffer.concat([table, ...components]);
}

/** A CoreML protobuf: specificationVersion (field 1, varint) then the description (field 2, bytes). */
export function tinyMlmodel(): Buffer {
  const description = Buffer.from('e2e kraken model');
  return Buffer.concat([Buffer.from([0x08, 0x05, 0x12, description.length]), description]);
}

/** A protocol 2 pickle of an empty dict, as torch.save's legacy format writes a checkpoint. */
export function tinyCheckpoint(): Buffer {
  return Buffer.from([0x80, 0x02, 0x7d, 0x71, 0x00, 0x2e]);
}

export const LAYPA_CONFIG = [
  'NAME: e2e-baseline',
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
  '',
].join('\n');

export const laypaZip = () => storedZip({ 'baseline/config.yaml': LAYPA_CONFIG, 'baseline/model_best_mIoU.pth': randomBytes(64) });
export const loghiZip = () =>
  storedZip({ 'generic/config.json': JSON.stringify({ model_name: 'e2e-generic', channels: 4, augment: true }), 'generic/charlist.txt': 'abc', 'generic/model.keras': randomBytes(64) });
export const siameseZip = () => storedZip({ 'siamese/saved_model.pb': randomBytes(32), 'siamese/variables/variables.index': randomBytes(16) });
export const p2palaZip = () => storedZip({ 'checkpoint.pth': randomBytes(64) });
export const lineDetectionZip = () => storedZip({ 'lines/config.yaml': LAYPA_CONFIG, 'lines/model_final.pth': randomBytes(64) });
