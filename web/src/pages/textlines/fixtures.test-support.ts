import type { DifferentTextLine, SimpleTextLine } from '@pim/contract';
import enTextlines from '../../../public/locales/en/textlines.json';
import { i18n } from '../../i18n/translations';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

// The app loads this namespace over HTTP on first use; the tests bundle the real English texts.
i18n.addResourceBundle('en', 'textlines', enTextlines);

export const IMAGE = '55555555-5555-4555-8555-555555555555';
export const SET = '22222222-2222-4222-8222-222222222222';
export const LINE_1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
export const LINE_2 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';
export const TRANSCRIPTION = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

/** A text line as the server presents it; override what the test is about. */
export function textLine(uuid: string, text: string, overrides: Partial<SimpleTextLine> = {}): SimpleTextLine {
  return {
    uuid,
    text,
    groundTruth: null,
    confidence: null,
    lowestConf: null,
    documentImageId: IMAGE,
    documentImageLabel: 'f. 1r',
    transcriptionId: TRANSCRIPTION,
    lineIndex: 0,
    region: { x: 10, y: 20, w: 800, h: 60 },
    updated: '2024-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function differentLine(uuid: string, text: string, groundTruth: string, cer: number, lineIndex = 0): DifferentTextLine {
  return { ...textLine(uuid, text, { lineIndex }), groundTruth, cer };
}

export const noContent = () => new Response(null, { status: 204 });

type Rest = (url: URL, init: RequestInit | undefined) => Response | undefined;

/** A signed-in user; line images answer a few JPEG bytes, anything else `rest` does not answer is 404. */
export function textLineServer(rest: Rest) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url, init) => {
      const answer = rest(url, init);
      if (answer) return answer;
      if (/^\/api\/pim\/pimsimpletextline\/[^/]+\/image$/.test(url.pathname)) {
        return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), { headers: { 'Content-Type': 'image/jpeg' } });
      }
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

/** The bodies POSTed to `path`, parsed. */
export function postedBodies(fetchMock: ReturnType<typeof stubFetch>, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => init?.method === 'POST' && new URL(String(input), 'http://localhost').pathname === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}
