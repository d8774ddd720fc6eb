import { readFile } from 'node:fs/promises';
import { type AltoDocument, parseAltoXml } from './alto-xml.js';
import { type HocrDocument, parseHocr } from './hocr.js';
import { type PageDocument, parsePageXml } from './page-xml.js';
import { xmlDialect } from './sniff.js';
import { checkXmlText } from './xml-check.js';
import { decodeXml } from './xml-decode.js';

/**
 * This module runs in a worker thread (see UploadService): reading a large XML file takes seconds
 * of CPU that must not hold up the event loop. It imports only the readers, never the service.
 */
export const XML_READER = new URL(import.meta.url);

/** What a PAGE, ALTO or hOCR file holds, as plain data that crosses the thread boundary. */
export type XmlReading =
  | { dialect: 'page'; page: PageDocument }
  | { dialect: 'alto'; alto: AltoDocument }
  | { dialect: 'hocr'; hocr: HocrDocument };

/** Reads the staged file at `path`: the thread loads the bytes itself, so they are never copied across. */
export async function readXmlFile(path: string): Promise<XmlReading> {
  return readXml(await readFile(path));
}

/**
 * Decodes the bytes (their encoding honoured or refused), refuses forbidden characters and deep
 * nesting before anything recurses, and hands the text to the reader of its dialect.
 */
export function readXml(bytes: Uint8Array): XmlReading {
  const xml = decodeXml(bytes);
  checkXmlText(xml);
  const dialect = xmlDialect(xml);
  if (dialect === 'alto') return { dialect, alto: parseAltoXml(xml) };
  if (dialect === 'hocr') return { dialect, hocr: parseHocr(xml) };
  // Anything else goes to the PAGE reader, which says what it expected.
  return { dialect: 'page', page: parsePageXml(xml) };
}
