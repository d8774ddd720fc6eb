import { Readable } from 'node:stream';

/**
 * Reads the first `n` bytes of a stream (fewer if it ends sooner) and gives back a stream that
 * still yields every byte, so the upload can be sniffed and then streamed on without buffering.
 */
export async function peek(source: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    yield head;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: head.subarray(0, n), stream: Readable.from(rest(), { objectMode: false }) };
}
