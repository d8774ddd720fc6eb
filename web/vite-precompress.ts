import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser fetches: images in other formats and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|map|webmanifest)$/;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else if (COMPRESSIBLE.test(entry.name)) yield file;
  }
}

/** Writes `compressed` beside `file` when it saves something; a copy that does not is left out and the file goes as it is. */
async function writeIfSmaller(file: string, suffix: string, original: Buffer, compressed: Buffer): Promise<void> {
  if (compressed.length < original.length) await fs.writeFile(`${file}${suffix}`, compressed);
}

async function precompressFile(file: string): Promise<void> {
  const bytes = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeIfSmaller(file, '.br', bytes, br), writeIfSmaller(file, '.gz', bytes, gz)]);
}

/**
 * Brotli and gzip copies beside every text file of the build (`x.js.br`, `x.js.gz`), made once
 * here at the highest levels, so the server sends them as they are (@fastify/static's
 * `preCompressed`) instead of compressing on every request or not at all.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'pim:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files: string[] = [];
      for await (const file of filesUnder(outDir)) files.push(file);
      // zlib runs on libuv's threads: a few files at a time keep them busy without queueing all at once.
      const queue = [...files];
      const worker = async () => {
        for (let file = queue.pop(); file !== undefined; file = queue.pop()) await precompressFile(file);
      };
      await Promise.all(Array.from({ length: 4 }, worker));
    },
  };
}
