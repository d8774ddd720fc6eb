import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/** A text field, or a file part when it has a file name and bytes. */
export type FormPart = { name: string; value: string } | { name: string; fileName: string; bytes: Buffer; contentType?: string };

export interface MultipartBody {
  payload: Buffer;
  headers: Record<string, string>;
}

/**
 * A multipart/form-data body of text fields and files, in the given order (files as
 * application/octet-stream unless told). `cutOff` leaves out the closing boundary, as the body of
 * an upload that broke off.
 */
export function multipartBody(parts: FormPart[], options: { cutOff?: boolean } = {}): MultipartBody {
  const boundary = `----pim-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'value' in p
        ? `Content-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`), 'value' in p ? Buffer.from(p.value) : p.bytes, Buffer.from('\r\n'));
  }
  if (!options.cutOff) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Text fields as form parts, in the order of the object. */
export function fieldParts(fields: Record<string, string>): FormPart[] {
  return Object.entries(fields).map(([name, value]) => ({ name, value }));
}

/**
 * A request body that sends `start` at once and then holds back, ending only when `release` is
 * called: an upload still under way, to see that the server answers before the whole body came.
 * A server that waits for the end never answers, so the request times out.
 */
export function heldBody(start: Buffer): { stream: Readable; release: () => void } {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const stream = Readable.from(
    (async function* () {
      yield start;
      await released;
    })(),
  );
  return { stream, release };
}
