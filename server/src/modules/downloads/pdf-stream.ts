import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/** A JPEG placed as it is (DCTDecode): its bytes, pixel size and colour components. */
export interface PdfJpeg {
  data: Buffer;
  width: number;
  height: number;
  components: 1 | 3;
  /** The embedded ICC profile, when it describes the same components; else the device space. */
  icc?: Buffer;
}

/** One page, its size in points, with the image drawn over all of it. */
export interface PdfPage {
  width: number;
  height: number;
  image: PdfJpeg;
}

export interface PdfInfo {
  title?: string;
  creator: string;
  producer: string;
  created: Date;
}

// Reserved up front, so each page can name its parent before the page tree is written last.
const CATALOG = 1;
const PAGES = 2;
const INFO = 3;
const FIRST_FREE = 4;
const KIDS_PER_LINE = 10;

/**
 * A PDF written as the reader consumes it: each page's objects go out as soon as its image is
 * there, and the next page is asked for only when the reader has taken the bytes before it, so
 * one image at a time is held whatever the number of pages. The page tree, catalog and
 * cross-reference table come last, as only then are the pages and their offsets known.
 */
export function streamPdf(pages: AsyncIterable<PdfPage>, info: PdfInfo): Readable {
  return Readable.from(writePdf(pages, info), { objectMode: false });
}

async function* writePdf(pages: AsyncIterable<PdfPage>, info: PdfInfo): AsyncGenerator<Buffer> {
  const out = new ObjectWriter();
  // A comment with bytes above 127 tells transfer tools that the file is binary.
  yield out.raw(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  yield out.object(INFO, infoDictionary(info));
  const kids: number[] = [];
  for await (const page of pages) kids.push(yield* pageObjects(out, page));
  yield out.object(PAGES, `<< /Type /Pages /Count ${kids.length}\n/Kids [${kidsList(kids)}] >>`);
  yield out.object(CATALOG, `<< /Type /Catalog /Pages ${PAGES} 0 R >>`);
  yield out.trailer();
}

/** The objects of one page, its image first; returns the number of the page object. */
function* pageObjects(out: ObjectWriter, { width, height, image }: PdfPage): Generator<Buffer, number> {
  let colorSpace = image.components === 1 ? '/DeviceGray' : '/DeviceRGB';
  if (image.icc) {
    const icc = out.next();
    yield* out.stream(icc, `/N ${image.components} /Alternate ${colorSpace}`, image.icc);
    colorSpace = `[/ICCBased ${icc} 0 R]`;
  }
  const xobject = out.next();
  yield* out.stream(
    xobject,
    `/Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} ` +
      `/ColorSpace ${colorSpace} /BitsPerComponent 8 /Filter /DCTDecode`,
    image.data,
  );
  // The image space is the unit square; scaling it to the page draws the image over all of it.
  const contents = out.next();
  yield* out.stream(contents, '', Buffer.from(`q ${num(width)} 0 0 ${num(height)} 0 0 cm /Im0 Do Q\n`, 'latin1'));
  const page = out.next();
  yield out.object(
    page,
    `<< /Type /Page /Parent ${PAGES} 0 R /MediaBox [0 0 ${num(width)} ${num(height)}]\n` +
      `/Resources << /XObject << /Im0 ${xobject} 0 R >> >> /Contents ${contents} 0 R >>`,
  );
  return page;
}

/** Numbers objects and remembers where each starts, for the cross-reference table. */
class ObjectWriter {
  private offset = 0;
  private readonly offsets: number[] = [];
  private count = FIRST_FREE;

  next(): number {
    this.count += 1;
    return this.count - 1;
  }

  raw(bytes: Buffer): Buffer {
    this.offset += bytes.length;
    return bytes;
  }

  object(n: number, body: string): Buffer {
    this.offsets[n] = this.offset;
    return this.raw(Buffer.from(`${n} 0 obj\n${body}\nendobj\n`, 'latin1'));
  }

  /** In three pieces, so the data (an image) is passed on rather than copied. */
  stream(n: number, entries: string, data: Buffer): Buffer[] {
    this.offsets[n] = this.offset;
    const head = `${n} 0 obj\n<< ${entries}${entries ? ' ' : ''}/Length ${data.length} >>\nstream\n`;
    return [this.raw(Buffer.from(head, 'latin1')), this.raw(data), this.raw(Buffer.from('\nendstream\nendobj\n', 'latin1'))];
  }

  trailer(): Buffer {
    const start = this.offset;
    // Each entry is exactly 20 bytes, its line end included, so a reader can seek to entry n.
    const entries = ['0000000000 65535 f\r\n'];
    for (let n = 1; n < this.count; n += 1) entries.push(`${String(this.offsets[n]).padStart(10, '0')} 00000 n\r\n`);
    const id = `<${randomBytes(16).toString('hex')}>`;
    return this.raw(
      Buffer.from(
        `xref\n0 ${this.count}\n${entries.join('')}trailer\n` +
          `<< /Size ${this.count} /Root ${CATALOG} 0 R /Info ${INFO} 0 R /ID [${id} ${id}] >>\n` +
          `startxref\n${start}\n%%EOF\n`,
        'latin1',
      ),
    );
  }
}

function infoDictionary(info: PdfInfo): string {
  const title = info.title ? `/Title ${text(info.title)} ` : '';
  const created = `(D:${info.created.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z)`;
  return `<< ${title}/Creator ${text(info.creator)} /Producer ${text(info.producer)} /CreationDate ${created} >>`;
}

/** A text string as UTF-16BE with its byte order mark, in hex: any character, nothing to escape. */
function text(value: string): string {
  return `<FEFF${Buffer.from(value, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}

/** A real number as PDF writes it: no exponent, a few decimals at most. */
function num(value: number): string {
  return String(Number(value.toFixed(4)));
}

/** Short lines: some readers cope badly with lines of thousands of characters. */
function kidsList(kids: number[]): string {
  const lines: string[] = [];
  for (let i = 0; i < kids.length; i += KIDS_PER_LINE) {
    lines.push(
      kids
        .slice(i, i + KIDS_PER_LINE)
        .map((k) => `${k} 0 R`)
        .join(' '),
    );
  }
  return lines.join('\n');
}
