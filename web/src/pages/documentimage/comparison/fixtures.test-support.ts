import type { GroundTruthOfImage, Transcription } from '@pim/contract';
import { setToken } from '../../../app/token-store';
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
    ...overrides,
  };
}

/** A signed-in reader of the image with these transcriptions and ground truth. */
export function imageServer(transcriptions: Transcription[], groundTruth: GroundTruthOfImage = []) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url) => {
      if (url.pathname === `/api/pim/documentimage/${IMAGE}`) return jsonResponse(documentImageFixture(IMAGE, 'f. 1r'));
      if (url.pathname === `/api/pim/documentimage/${IMAGE}/transcriptions`) return jsonResponse(transcriptions);
      if (url.pathname === `/api/pim/documentimage/${IMAGE}/groundtruth`) return jsonResponse(groundTruth);
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}
