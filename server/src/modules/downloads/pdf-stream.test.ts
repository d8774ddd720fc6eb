import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import * as mupdf from 'mupdf';
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { streamPdf, type PdfJpeg, type PdfPage } from './pdf-stream.js';

const INFO = { creator: 'PIM', producer: 'PIM', created: new Date('2024-05-06T07:08:09Z') };

async function jpeg(width: number, height: number, channels: 1 | 3 = 3): Promise<PdfJpeg> {
  const data = await sharp({ create: { width, height, channels: 3, background: '#8a6d3b' } })
    .toColourspace(channels === 1 ? 'b-w' : 'srgb')
    .jpeg()
    .toBuffer();
  return { data, width, height, components: channels };
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** Each page's image XObject: its dictionary entries and its stream as stored (not decoded). */
function pageImages(pdf: PDFDocument) {
  return pdf.getPages().map((page) => {
    const image = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict).lookup(PDFName.of('Im0')) as PDFRawStream;
    const entry = (name: string) => image.dict.get(PDFName.of(name));
    return {
      filter: entry('Filter')?.toString(),
      colorSpace: entry('ColorSpace'),
      size: [entry('Width')?.toString(), entry('Height')?.toString()],
      bytes: Buffer.from(image.contents),
    };
  });
}

describe('streamPdf', () => {
  it('writes a page per image at the given size, with the JPEG stored byte for byte', async () => {
    const images = [await jpeg(60, 40), await jpeg(30, 80, 1), await jpeg(50, 50)];
    const sizes = [[842, 561.3333], [315.75, 842], [842, 842]] as const;
    const pages: PdfPage[] = images.map((image, i) => ({ width: sizes[i]![0], height: sizes[i]![1], image }));
    const pdf = await PDFDocument.load(await buffer(streamPdf(from(pages), INFO)), { updateMetadata: false });

    expect(pdf.getPageCount()).toBe(3);
    pdf.getPages().forEach((page, i) => {
      expect(page.getWidth()).toBeCloseTo(sizes[i]![0], 3);
      expect(page.getHeight()).toBeCloseTo(sizes[i]![1], 3);
    });
    const embedded = pageImages(pdf);
    embedded.forEach((image, i) => {
      expect(image.filter).toBe('/DCTDecode');
      expect(image.bytes.equals(images[i]!.data)).toBe(true);
      expect(image.size).toEqual([String(images[i]!.width), String(images[i]!.height)]);
    });
    expect(embedded.map((i) => i.colorSpace?.toString())).toEqual(['/DeviceRGB', '/DeviceGray', '/DeviceRGB']);
  });

  it('names an embedded ICC profile as the image colour space', async () => {
    const image = await jpeg(20, 10);
    const icc = (await sharp(await sharp(image.data).withIccProfile('p3').toBuffer()).metadata()).icc!;
    const pdf = await PDFDocument.load(await buffer(streamPdf(from([{ width: 842, height: 421, image: { ...image, icc } }]), INFO)));
    const space = pageImages(pdf)[0]!.colorSpace as PDFArray;
    expect(space.get(0)).toBe(PDFName.of('ICCBased'));
    const profile = pdf.context.lookup(space.get(1)) as PDFRawStream;
    expect(profile.dict.get(PDFName.of('N'))?.toString()).toBe('3');
    expect(Buffer.from(profile.contents).equals(icc)).toBe(true);
  });

  it('has an Info dictionary with the title in any script, creator, producer and creation date', async () => {
    const title = 'Brieven — ſ̃ 𝔄 (1784) \\ <>';
    const pdf = await PDFDocument.load(await buffer(streamPdf(from([{ width: 842, height: 842, image: await jpeg(8, 8) }]), { ...INFO, title })), {
      updateMetadata: false,
    });
    expect(pdf.getTitle()).toBe(title);
    expect(pdf.getCreator()).toBe('PIM');
    expect(pdf.getProducer()).toBe('PIM');
    expect(pdf.getCreationDate()?.toISOString()).toBe('2024-05-06T07:08:09.000Z');
  });

  it('has a cross-reference table whose every entry points at its object', async () => {
    const pages = await Promise.all([jpeg(10, 20), jpeg(20, 10)]);
    const bytes = await buffer(streamPdf(from(pages.map((image) => ({ width: 421, height: 842, image }))), INFO));
    const text = bytes.toString('latin1');
    expect(text.startsWith('%PDF-1.7\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);

    const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(start))!;
    expect(first).toBe('0');
    const table = start + `xref\n0 ${count}\n`.length;
    for (let n = 0; n < Number(count); n += 1) {
      const entry = text.slice(table + n * 20, table + (n + 1) * 20);
      expect(entry).toMatch(/^\d{10} \d{5} [fn]\r\n$/);
      if (n === 0) {
        expect(entry).toBe('0000000000 65535 f\r\n');
        continue;
      }
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${n} 0 obj\n`.length), `object ${n}`).toBe(`${n} 0 obj\n`);
    }
    expect(text.slice(table + Number(count) * 20)).toMatch(new RegExp(`^trailer\\n<< /Size ${count} /Root 1 0 R /Info 3 0 R /ID \\[<[0-9a-f]{32}> <[0-9a-f]{32}>\\] >>`));
    // Every object written is in the table: 3 reserved, then per page an image, a content stream and the page.
    expect(Number(count)).toBe(4 + 2 * 3);
    // mupdf, unlike pdf-lib, notices a table that does not match and rebuilds it.
    const opened = mupdf.Document.openDocument(bytes, 'application/pdf') as mupdf.PDFDocument;
    expect(opened.countPages()).toBe(2);
    expect(opened.wasRepaired()).toBe(false);
  });

  it('writes a valid document without pages', async () => {
    const pdf = await PDFDocument.load(await buffer(streamPdf(from([]), INFO)));
    expect(pdf.getPageCount()).toBe(0);
    expect(pdf.catalog.Pages().lookup(PDFName.of('Kids'), PDFArray).size()).toBe(0);
  });

  it('asks for the next page only when the reader has taken the image before it', async () => {
    // Image data larger than the stream buffer, so the buffer alone cannot hold two of them.
    const data = Array.from({ length: 6 }, () => randomBytes(200_000));
    let received = 0;
    const receivedAtRequest: number[] = [];
    async function* pages(): AsyncGenerator<PdfPage> {
      for (const bytes of data) {
        receivedAtRequest.push(received);
        yield { width: 842, height: 842, image: { data: bytes, width: 100, height: 100, components: 3 } };
      }
    }
    const stream = streamPdf(pages(), INFO);
    let requestedAtFirstChunk = -1;
    for await (const chunk of stream) {
      if (requestedAtFirstChunk < 0) requestedAtFirstChunk = receivedAtRequest.length;
      received += (chunk as Buffer).length;
    }

    expect(requestedAtFirstChunk).toBeLessThanOrEqual(1);
    expect(receivedAtRequest).toHaveLength(data.length);
    // Page k is asked for only after the reader has received at least the images of pages before k - 1.
    receivedAtRequest.forEach((at, k) => expect(at, `page ${k}`).toBeGreaterThanOrEqual(Math.max(0, k - 1) * 200_000));
  });

  it('stops asking for pages when the reader goes away', async () => {
    let requested = 0;
    let closed = false;
    async function* pages(): AsyncGenerator<PdfPage> {
      try {
        for (;;) {
          requested += 1;
          yield { width: 842, height: 842, image: { data: randomBytes(200_000), width: 100, height: 100, components: 3 } };
        }
      } finally {
        closed = true;
      }
    }
    const stream = streamPdf(pages(), INFO);
    stream.on('data', (chunk: Buffer) => {
      if (chunk.length >= 200_000) stream.destroy();
    });
    await new Promise((resolve) => stream.on('close', resolve));
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 60_000 });
    expect(requested).toBeLessThanOrEqual(2);
  });

  it('breaks the stream when a page fails, rather than ending a short PDF', async () => {
    async function* pages(): AsyncGenerator<PdfPage> {
      yield { width: 842, height: 842, image: await jpeg(8, 8) };
      throw new Error('disk gone');
    }
    await expect(buffer(streamPdf(pages(), INFO))).rejects.toThrow('disk gone');
  });
});
