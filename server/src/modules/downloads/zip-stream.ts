import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** One file of a streamed zip; its bytes are produced only when the zip reaches it. */
export interface ZipEntry {
  name: string;
  mtime: Date;
  open: () => Promise<NodeJS.ReadableStream | Buffer>;
  /** Images are compressed already; deflating them again only costs time. */
  store?: boolean;
}

/** An entry written first, stored as it is with no extra field: an EPUB's `mimetype`. */
export interface ZipHead {
  name: string;
  bytes: Buffer;
  mtime: Date;
}

/**
 * A zip whose entries come in batches, written as the reader consumes it. `nextBatch` is asked
 * for the following batch when the zip starts on the current one, so at most two batches of
 * entry descriptions (and one entry's bytes) are held at a time; an empty batch ends the zip.
 * A failure part-way destroys the stream, so the client sees a broken download, not a short zip.
 * `first`, when given, is the zip's first entry.
 */
export function streamZip(nextBatch: () => Promise<ZipEntry[]>, options: { first?: ZipHead } = {}): Readable {
  const zip = new ZipFile();
  // A buffer's sizes are known, so its local header carries them (no data descriptor) and its text
  // starts at byte 38, where OCF (EPUB) readers look; no extended timestamp in its directory record either.
  if (options.first) zip.addBuffer(options.first.bytes, options.first.name, { compress: false, forceDosTimestamp: true, mtime: options.first.mtime });
  const output = new PassThrough();
  let current: NodeJS.ReadableStream | null = null;
  let stopped = false;
  const fail = (err: unknown) => output.destroy(err instanceof Error ? err : new Error(String(err)));
  zip.on('error', fail);
  zip.outputStream.on('error', fail);
  zip.outputStream.pipe(output);
  // A client that goes away (or a failure) stops the work: no further files are opened, and the
  // one being read is closed rather than left holding its descriptor.
  output.on('close', () => {
    if (output.readableEnded) return;
    stopped = true;
    zip.outputStream.unpipe(output);
    (current as { destroy?: () => void } | null)?.destroy?.();
  });

  const addBatch = async (): Promise<void> => {
    if (stopped) return;
    const entries = await nextBatch();
    if (entries.length === 0) {
      zip.end();
      return;
    }
    entries.forEach((entry, i) => {
      zip.addReadStreamLazy(entry.name, { mtime: entry.mtime, compress: !entry.store }, (cb) => {
        if (stopped) return;
        const ahead = i === 0 ? addBatch() : Promise.resolve();
        Promise.all([entry.open(), ahead]).then(
          ([body]) => {
            current = Buffer.isBuffer(body) ? Readable.from([body]) : body;
            cb(null, current);
          },
          (err: unknown) => cb(err, undefined as never),
        );
      });
    });
  };
  addBatch().catch(fail);
  return output;
}
