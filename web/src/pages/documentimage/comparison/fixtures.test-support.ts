import type { GroundTruthOfImage, SimpleTextLine, Transcription, TranscriptionLayout } from '@pim/contract';
import { setToken } from '../../../session/token-store';
import { documentImageFixture } from '../../../test/factories';
import { jsonResponse, signedInHandler, stubFetch } from '../../../test/render';

export const IMAGE = '55555555-5555-4555-8555-555555555555';
export const T1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
export const T2 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';
export const T3 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa3';

/** A transcription as the server presents it; override what the test is about. */
export function transcription(uuid: string, cleanText: string, overrides: Partial<Transcription> = {}): Transcription {
  return {
    uuid,
    id: uuid,
    documentImageId: IMAGE,
    format: 'page',
    transcriber: null,
    language: null,
    version: null,
    analyzed: null,
    params: null,
    status: 'done',
    cleanText,
    sourceFileName: null,
    ...overrides,
  };
}

/** A layout with nothing to draw, for the transcriptions a test gives none. */
export function emptyLayout(transcriptionId: string): TranscriptionLayout {
  return { transcriptionId, width: 2000, height: 3000, regions: [], readingOrder: [] };
}

/** A signed-in reader of the image with these transcriptions, ground truth, layouts and text lines. */
export function imageServer(transcriptions: Transcription[], groundTruth: GroundTruthOfImage = [], layouts: TranscriptionLayout[] = [], lines: SimpleTextLine[] = []) {
  setToken('tok');
  const layoutPath = new RegExp(`^/api/pim/documentimage/${IMAGE}/transcriptions/([^/]+)/layout$`);
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url) => {
      if (url.pathname === `/api/pim/documentimage/${IMAGE}`) return jsonResponse(documentImageFixture(IMAGE, 'f. 1r'));
      if (url.pathname === `/api/pim/documentimage/${IMAGE}/transcriptions`) return jsonResponse(transcriptions);
      if (url.pathname === `/api/pim/documentimage/${IMAGE}/groundtruth`) return jsonResponse(groundTruth);
      const layoutOf = layoutPath.exec(url.pathname)?.[1];
      if (layoutOf) return jsonResponse(layouts.find((l) => l.transcriptionId === layoutOf) ?? emptyLayout(layoutOf));
      const line = lines.find((l) => url.pathname === `/api/pim/pimsimpletextline/${l.uuid}`);
      if (line) return jsonResponse(line);
      if (url.pathname === `/api/pim/documentimage/${IMAGE}/drawing`) return jsonResponse({ shapes: [], updated: null });
      if (url.pathname === `/iiif/3/${IMAGE}/info.json`) return jsonResponse({ id: `http://localhost/iiif/3/${IMAGE}`, width: 2000, height: 3000 });
      if (url.pathname.startsWith(`/iiif/3/${IMAGE}/full/`)) return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}
