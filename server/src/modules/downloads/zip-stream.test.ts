import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { streamZip, type ZipEntry } from './zip-stream.js';

describe('streamZip', () => {
  it('asks for the next batch only as the zip is read, and keeps the entries in order', async () => {
    const asked: number[] = [];
    let batch = 0;
    const stream = streamZip(async () => {
      batch += 1;
      asked.push(batch);
      if (batch > 3) return [];
      return [0, 1].map((i): ZipEntry => ({ name: `${batch}-${i}.txt`, mtime: new Date(0), store: true, open: async () => randomBytes(256 * 1024) }));
    });
    // Nothing has been read: the stream's buffers are full within the first entry, so only the
    // first batch and the one after it (asked for as the first entry starts) are requested.
    await vi.waitFor(() => expect(asked).toEqual([1, 2]), { timeout: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([1, 2]);
    const zip = await buffer(stream);
    expect(asked).toEqual([1, 2, 3, 4]);
    // eslint-disable-next-line no-control-regex -- the central directory signature is binary
    const names = [...zip.toString('latin1').matchAll(/PK\x01\x02[\s\S]{42}(\d-\d\.txt)/g)].map((m) => m[1]);
    expect(names).toEqual(['1-0.txt', '1-1.txt', '2-0.txt', '2-1.txt', '3-0.txt', '3-1.txt']);
  });

  it('breaks the stream when an entry fails, rather than ending a short zip', async () => {
    const stream = streamZip(async () => [
      { name: 'a.txt', mtime: new Date(0), open: async () => Buffer.from('a') },
      { name: 'b.txt', mtime: new Date(0), open: async () => Promise.reject(new Error('disk gone')) },
    ]);
    await expect(buffer(stream)).rejects.toThrow('disk gone');
  });

  it('stops opening files and closes the open one when the reader goes away', async () => {
    const opened: PassThrough[] = [];
    const stream = streamZip(async () =>
      opened.length > 0
        ? []
        : [0, 1, 2].map((i): ZipEntry => ({
            name: `${i}.bin`,
            mtime: new Date(0),
            store: true,
            open: async () => {
              const file = new PassThrough();
              file.end(randomBytes(512 * 1024));
              opened.push(file);
              return file;
            },
          })),
    );
    stream.once('data', () => stream.destroy());
    await new Promise((resolve) => stream.on('close', resolve));
    await vi.waitFor(() => expect(opened[0]?.destroyed).toBe(true), { timeout: 60_000 });
    expect(opened).toHaveLength(1);
  });

  it('stores entries marked store without deflating them', async () => {
    const bytes = Buffer.alloc(1000, 7);
    const zip = await buffer(streamZip(singleBatch([{ name: 'x.bin', mtime: new Date(0), store: true, open: async () => bytes }])));
    expect(zip.includes(bytes)).toBe(true);
    const deflated = await buffer(streamZip(singleBatch([{ name: 'y.bin', mtime: new Date(0), open: async () => bytes }])));
    expect(deflated.includes(bytes)).toBe(false);
    expect(inflateRawSync(deflated.subarray(30 + 'y.bin'.length)).subarray(0, 1000).equals(bytes)).toBe(true);
  });

  it('writes `first` before every batch as an EPUB needs its mimetype: stored, sizes in its header, no extra field', async () => {
    const first = { name: 'mimetype', bytes: Buffer.from('application/epub+zip'), mtime: new Date(0) };
    const zip = await buffer(streamZip(singleBatch([{ name: 'a.txt', mtime: new Date(0), open: async () => Buffer.from('a') }]), { first }));
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.readUInt16LE(6) & 0x8).toBe(0); // no data descriptor: the sizes are in the local header
    expect(zip.readUInt16LE(8)).toBe(0); // stored
    expect(zip.readUInt32LE(18)).toBe(first.bytes.length);
    expect(zip.readUInt16LE(28)).toBe(0); // no extra field
    expect(zip.subarray(30, 58).toString('latin1')).toBe('mimetypeapplication/epub+zip');
    const directory = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(zip.subarray(directory + 46, directory + 54).toString('latin1')).toBe('mimetype');
    expect(zip.readUInt16LE(directory + 30)).toBe(0); // no extra field in its directory record either
    expect(zip.includes(Buffer.from('a.txt'))).toBe(true);
  });
});

function singleBatch(entries: ZipEntry[]) {
  let given = false;
  return async () => {
    if (given) return [];
    given = true;
    return entries;
  };
}
