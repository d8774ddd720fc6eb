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
