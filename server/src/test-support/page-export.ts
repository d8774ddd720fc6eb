import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { fixturePath } from './fixtures.js';

const VALIDATE_PAGE = fixturePath('schemas/validate_page.sh');
const hasXmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Validates every PAGE file with the PRImA XSD, when the validator and xmllint are there. */
export async function validatePage(zip: Map<string, Buffer>) {
  if (!fs.existsSync(VALIDATE_PAGE) || !hasXmllint) {
    console.warn('PAGE XSD validation skipped: needs ../shared/fixtures/schemas/validate_page.sh and xmllint (libxml2-utils)');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-page-'));
  try {
    const files = [...zip.values()].map((bytes, i) => {
      const file = path.join(dir, `${i}.xml`);
      fs.writeFileSync(file, bytes);
      return file;
    });
    execFileSync('sh', [VALIDATE_PAGE, ...files], { encoding: 'utf8' });
  } catch (err) {
    throw new Error(`PAGE export does not validate: ${(err as { stdout?: string }).stdout ?? err}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The entries of a zip from its central directory (no zip reader is installed; yazl writes plain zips). */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  let at = zip.readUInt32LE(eocd + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < zip.readUInt16LE(eocd + 10); i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory record at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}
