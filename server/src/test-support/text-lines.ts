import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { testImage, upload } from './upload-files.js';

export interface PageLineSpec {
  text: string;
  /** PAGE points; no Coords element when absent. */
  points?: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A PAGE 2019 file for `imageFilename` with one region holding the given lines. */
export function pageWithLines(imageFilename: string, lines: PageLineSpec[], size = { width: 200, height: 100 }): Buffer {
  const body = lines
    .map(
      (l, i) =>
        `<TextLine id="l${i}">${l.points ? `<Coords points="${l.points}"/>` : ''}<TextEquiv><Unicode>${escape(l.text)}</Unicode></TextEquiv></TextLine>`,
    )
    .join('');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">` +
      `<Metadata><Creator>Test</Creator><Created>2020-01-01T00:00:00</Created><LastChange>2020-01-01T00:00:00</LastChange></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="${size.width}" imageHeight="${size.height}"><TextRegion id="r1">` +
      `<Coords points="0,0 ${size.width - 1},0 ${size.width - 1},${size.height - 1} 0,${size.height - 1}"/>${body}</TextRegion></Page></PcGts>`,
  );
}

/**
 * Uploads a PNG named `label` (`png`, or a noisy one of `size`) and a PAGE file with the given
 * lines into the set, through the API; gives the image, the transcription and the text lines'
 * ids in reading order.
 */
export async function uploadPageWithLines(
  app: FastifyInstance,
  auth: Record<string, string>,
  setId: string,
  label: string,
  lines: PageLineSpec[],
  { size = { width: 200, height: 100 }, png }: { size?: { width: number; height: number }; png?: Buffer } = {},
): Promise<{ imageId: string; transcriptionId: string; lineIds: string[] }> {
  const bytes = png ?? (await testImage('png', size.width, size.height));
  const image = await upload(app, auth, setId, [{ fileName: `${label}.png`, bytes }]);
  expect(image.status, JSON.stringify(image.json)).toBe(200);
  const xml = await upload(app, auth, setId, [{ fileName: `${label}.xml`, bytes: pageWithLines(`${label}.png`, lines, size) }]);
  expect(xml.status, JSON.stringify(xml.json)).toBe(200);
  const transcriptionId = xml.json.transcriptions[0] as string;
  const rows = await app.database.db
    .selectFrom('simple_text_line')
    .select('id')
    .where('transcription_id', '=', transcriptionId)
    .orderBy('line_index')
    .execute();
  return { imageId: image.json.documentImages[0].uuid as string, transcriptionId, lineIds: rows.map((r) => r.id) };
}
