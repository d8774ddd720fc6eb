import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';

/** A PDF object: its dictionary, and the already encoded bytes of its stream if it has one. */
interface PdfObject {
  dict: string;
  stream?: Buffer;
}

/** A one-page A4 PDF written by hand: objects 1 and 2 are the catalog and page tree, 3 the page. */
function onePagePdf(pageResources: string, content: Buffer, extra: PdfObject[]): Buffer {
  const objects: PdfObject[] = [
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { dict: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources ${pageResources} /Contents 4 0 R >>` },
    { dict: '<< /Filter /FlateDecode >>', stream: zlib.deflateSync(content) },
    ...extra,
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const add = (part: Buffer | string) => {
    const bytes = Buffer.isBuffer(part) ? part : Buffer.from(part, 'latin1');
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((object, i) => {
    offsets.push(length);
    if (!object.stream) return add(`${i + 1} 0 obj\n${object.dict}\nendobj\n`);
    add(`${i + 1} 0 obj\n${object.dict.replace(/>>$/, `/Length ${object.stream.length} >>`)}\nstream\n`);
    add(object.stream);
    add('\nendstream\nendobj\n');
  });
  const xref = length;
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * A one-page PDF whose page shows one white 1-bit image of width x height pixels, Flate
 * compressed: 65000 x 65000 takes about 500 KB, while decoding it takes 4 billion pixels.
 */
export async function pdfWithImage(width: number, height: number): Promise<Buffer> {
  const row = Buffer.alloc(Math.ceil(width / 8), 0xff);
  const rowsPerChunk = Math.max(1, Math.floor((1 << 20) / row.length));
  const chunk = Buffer.concat(Array.from({ length: rowsPerChunk }, () => row));
  function* rows() {
    for (let done = 0; done < height; done += rowsPerChunk) yield chunk.subarray(0, Math.min(rowsPerChunk, height - done) * row.length);
  }
  const pixels = await buffer(Readable.from(rows()).pipe(zlib.createDeflate()));
  const image: PdfObject = {
    dict: `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode >>`,
    stream: pixels,
  };
  return onePagePdf('<< /XObject << /Im0 5 0 R >> >>', Buffer.from('q 595 0 0 842 0 0 cm /Im0 Do Q'), [image]);
}

/**
 * A one-page PDF that takes minutes to render: a million filled rectangles, each as large as
 * the page (a few KB compressed). Opening it and counting its pages is quick.
 */
export function pdfWithSlowPage(): Buffer {
  return onePagePdf('<< >>', Buffer.from('0.5 g 0 0 595 842 re f\n'.repeat(1_000_000)), []);
}
