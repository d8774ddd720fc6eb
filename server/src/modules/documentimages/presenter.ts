import type { DocumentImage, DocumentImageFieldDefinition, NamedRef, Transcription } from '@pim/contract';
import { TILE_SIZE } from '../../platform/images/iiif-render.js';
import type { TranscriptionRecord } from './repository.js';
import type { DocumentImageDetail } from './service.js';

export interface Links {
  publicUrl: string;
  apiBase: string;
}

/** Formats whose clean text is OCR by Tesseract; every other format counts as HTR. */
const TESSERACT_FORMATS = new Set(['hocr', 'tesseract']);

/**
 * The API shape of a document image, field by field. `transcriptions` are the image's, newest
 * first: the newest of each kind gives the texts and the layout file.
 */
export function presentDocumentImage({ image, transcriptions }: DocumentImageDetail, links: Links): DocumentImage {
  const newestWithFile = transcriptions.find((t) => t.sourceFileId !== null);
  const tesseract = transcriptions.find((t) => TESSERACT_FORMATS.has(t.format.toLowerCase()));
  const htr = transcriptions.find((t) => !TESSERACT_FORMATS.has(t.format.toLowerCase()));
  return {
    uuid: image.id,
    uri: `${links.publicUrl}/iiif/3/${image.id}`,
    iiifManifestUri: `${links.publicUrl}${links.apiBase}pim/documentimage/${image.id}/manifest`,
    remoteuri: image.remoteUri,
    layoutXML: newestWithFile?.sourceFileId ? `${links.publicUrl}${links.apiBase}pim/pimfile/${newestWithFile.sourceFileId}` : null,
    created: image.createdAt.toISOString(),
    updated: image.updatedAt.toISOString(),
    height: image.height,
    width: image.width,
    broken: image.broken,
    pagenumber: image.pageNumber,
    pageorder: image.position === null ? null : image.position + 1,
    levels: image.tiled ? pyramidLevels(image) : null,
    types: [...new Set(transcriptions.map((t) => t.format))].sort(),
    deskewAngle: image.deskewAngle,
    columnCount: image.columnCount,
    linesCount: image.linesCount,
    tesseractText: tesseract?.cleanText ?? null,
    confidence: image.confidence,
    languageBest: image.languageBest,
    publish: image.publish,
    eadId: image.eadId,
    label: image.label,
    uploader: image.owner && { uuid: image.owner.id, name: image.owner.name },
    htrText: htr?.cleanText ?? null,
  };
}

/** Levels of the tiled pyramid: the full size, then halved until it fits one tile. */
function pyramidLevels(image: { width: number; height: number }): number {
  return 1 + Math.max(0, Math.ceil(Math.log2(Math.max(image.width, image.height) / TILE_SIZE)));
}

export function presentTranscription(t: TranscriptionRecord): Transcription {
  return {
    uuid: t.id,
    id: t.id,
    documentImageId: t.imageId,
    format: t.format,
    transcriber: t.transcriber,
    language: t.language,
    version: t.version,
    analyzed: t.analyzed?.toISOString() ?? null,
    params: t.params ?? null,
    status: t.status,
    cleanText: t.cleanText,
    sourceFileName: t.sourceFileName,
  };
}

export function presentRef(item: { id: string; name: string }): NamedRef {
  return { uuid: item.id, name: item.name };
}

/** The image table's columns; `satisfies` keeps it in step with documentImageSchema. */
const FIELD_TYPES = {
  uuid: 'string',
  uri: 'string',
  iiifManifestUri: 'string',
  remoteuri: 'string',
  layoutXML: 'string',
  created: 'date',
  updated: 'date',
  height: 'number',
  width: 'number',
  broken: 'boolean',
  pagenumber: 'number',
  pageorder: 'number',
  levels: 'number',
  types: 'string',
  deskewAngle: 'number',
  columnCount: 'number',
  linesCount: 'number',
  tesseractText: 'text',
  confidence: 'number',
  languageBest: 'string',
  publish: 'boolean',
  eadId: 'string',
  label: 'string',
  uploader: 'string',
  htrText: 'text',
} as const satisfies Record<keyof DocumentImage, DocumentImageFieldDefinition['type']>;

export function presentFieldDefinitions(): DocumentImageFieldDefinition[] {
  return Object.entries(FIELD_TYPES).map(([name, type]) => ({ name, type }));
}
