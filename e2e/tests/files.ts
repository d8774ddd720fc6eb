import { PDFDocument, rgb } from 'pdf-lib';
import sharp from 'sharp';

/** A page-like PNG with a coloured band, so each file has different bytes. */
export async function pagePng(hue: number, width = 1200, height = 1600): Promise<Buffer> {
  const band = await sharp({ create: { width, height: 200, channels: 3, background: { r: hue, g: 90, b: 255 - hue } } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 245, g: 240, b: 225 } } })
    .composite([{ input: band, top: 100, left: 0 }])
    .png()
    .toBuffer();
}

/** A PDF of the given number of pages, each with a drawn rectangle. */
export async function pagesPdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([420, 595]);
    page.drawRectangle({ x: 40, y: 400, width: 340, height: 120, color: rgb(0.2, 0.3 + i * 0.2, 0.6) });
  }
  return Buffer.from(await doc.save());
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A line of a printed page: its text and its box in pixels. */
export interface PrintedLine {
  text: string;
  box: { x: number; y: number; w: number; h: number };
}

/**
 * A printed page as a scan shows it: black serif text on paper, one line per entry, 48 px apart,
 * so Tesseract reads it; with the boxes of its lines for a PAGE file.
 */
export async function printedPage(lines: string[], { width = 1654, height = 2339, fontSize = 34 } = {}): Promise<{ png: Buffer; lines: PrintedLine[] }> {
  const left = 160;
  const top = 200;
  const step = Math.round(fontSize * 1.45);
  const placed = lines.map((text, i) => ({ text, box: { x: left - 10, y: top + i * step - fontSize, w: width - 2 * left + 20, h: Math.round(fontSize * 1.3) } }));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fbf8f0"/>` +
    lines.map((text, i) => `<text x="${left}" y="${top + i * step}" font-family="DejaVu Serif" font-size="${fontSize}" fill="#111">${escapeXml(text)}</text>`).join('') +
    '</svg>';
  return { png: await sharp(Buffer.from(svg)).png().toBuffer(), lines: placed };
}

/**
 * A PAGE 2019 file of a printed page whose lines stand in regions (groups of consecutive lines),
 * read in the order `readingOrder` gives the regions (by index), which may differ from the file's.
 */
export function printedPageXml(imageFilename: string, size: { width: number; height: number }, regions: PrintedLine[][], readingOrder: number[]): string {
  const points = ({ x, y, w, h }: PrintedLine['box']) => `${x},${y} ${x + w},${y} ${x + w},${y + h} ${x},${y + h}`;
  const body = regions
    .map((lines, r) => {
      const first = lines[0]!.box;
      const last = lines.at(-1)!.box;
      const area = { x: first.x, y: first.y, w: first.w, h: last.y + last.h - first.y };
      const textLines = lines
        .map((line, i) => `<TextLine id="r${r}l${i}"><Coords points="${points(line.box)}"/><TextEquiv><Unicode>${escapeXml(line.text)}</Unicode></TextEquiv></TextLine>`)
        .join('');
      return `<TextRegion id="r${r}"><Coords points="${points(area)}"/>${textLines}</TextRegion>`;
    })
    .join('');
  const order = readingOrder.map((r, i) => `<RegionRefIndexed index="${i}" regionRef="r${r}"/>`).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">` +
    `<Metadata><Creator>e2e</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>` +
    `<Page imageFilename="${imageFilename}" imageWidth="${size.width}" imageHeight="${size.height}"><ReadingOrder><OrderedGroup id="ro">${order}</OrderedGroup></ReadingOrder>${body}</Page></PcGts>`
  );
}
