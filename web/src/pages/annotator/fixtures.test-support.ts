import type { CreateMetadataRequest, PimField, PimFieldSet, StoredMetadataValue } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { imageSetFixture } from '../../test/factories';
import { jsonResponse, signedInHandler, stubFetch, testUser } from '../../test/render';
import type { AnnotatorScreen } from './paths';

export const FIELD_SET = 'f0000000-0000-4000-8000-000000000001';
export const IMAGE_SET = '22222222-2222-4222-8222-222222222222';
export const ORIGIN = window.location.origin;
export const MANIFEST = `${ORIGIN}/api/pim/imageset/${IMAGE_SET}/manifest`;
export const USER = testUser();
export const RELATED_IMAGE = { uuid: '55555555-5555-4555-8555-555555555559', name: 'f. 9r' };

const imageId = (n: number) => `55555555-5555-4555-8555-55555555555${n}`;
/** The Image service id of canvas n (1-based): what the 'uri' field holds and values are stored under. */
export const serviceOf = (n: number) => `${ORIGIN}/iiif/3/${imageId(n)}`;

let fieldNumber = 0;
function field(label: string, name: string, type: PimField['type'], extra: Partial<PimField> = {}): PimField {
  fieldNumber += 1;
  const id = `d0000000-0000-4000-8000-${String(fieldNumber).padStart(12, '0')}`;
  return { uuid: id, id, label, name, description: '', type, copyValue: false, possibleValues: [], ...extra };
}

const value = (n: number, text: string) => ({ uuid: `e0000000-0000-4000-8000-00000000000${n}`, value: text, created: '2024-03-01T10:00:00.000Z' });

/** A set with one field of every type after the two fixed ones. 'Dated' and 'Script' are kept from image to image. */
export const FIELDS = {
  uri: field('uri', 'uri', 'text'),
  datasetUri: field('Dataset uri', 'datasetUri', 'text'),
  dated: field('Dated', 'dated', 'date', { copyValue: true, description: 'When the page was written' }),
  folios: field('Folios', 'folios', 'numeric'),
  reviewed: field('Reviewed', 'reviewed', 'checkbox'),
  hand: field('Hand', 'hand', 'select', { possibleValues: [value(1, 'A'), value(2, 'B')] }),
  script: field('Script', 'script', 'script', { copyValue: true }),
  annotator: field('Annotator', 'annotator', 'pimuser'),
  related: field('Related image', 'related', 'documentimage'),
  shelfmark: field('Shelfmark', 'shelfmark', 'text'),
  notes: field('Notes', 'notes', 'notes', { description: 'Anything else' }),
};
export const FIELD_LIST = Object.values(FIELDS);

export const fieldSet: PimFieldSet = {
  uuid: FIELD_SET,
  name: 'Charter dating',
  publicPimFieldSet: true,
  owner: { uuid: USER.uuid, name: USER.name },
  editable: true,
  fields: FIELD_LIST,
  created: '2024-03-01T10:00:00.000Z',
  updated: '2024-03-01T10:00:00.000Z',
};

function canvas(n: number) {
  const service = serviceOf(n);
  const id = `${MANIFEST}/canvas/${imageId(n)}`;
  return {
    id,
    type: 'Canvas',
    label: { none: [`f. ${n}r`] },
    width: 2000,
    height: 3000,
    metadata: [{ label: { en: ['Hand note'] }, value: { none: [`<b>Bold</b> note of page ${n}<img src="x" alt="injected">`] } }],
    items: [
      {
        id: `${id}/page`,
        type: 'AnnotationPage',
        items: [
          {
            id: `${id}/page/image`,
            type: 'Annotation',
            motivation: 'painting',
            body: { id: `${service}/full/max/0/default.jpg`, type: 'Image', format: 'image/jpeg', service: [{ id: service, type: 'ImageService3', profile: 'level2' }] },
            target: id,
          },
        ],
      },
    ],
  };
}

/** Our own manifest of a set of three pages. */
export const threePages = {
  '@context': 'http://iiif.io/api/presentation/3/context.json',
  id: MANIFEST,
  type: 'Manifest',
  label: { none: ['Charters of Utrecht'] },
  metadata: [{ label: { en: ['Owner'] }, value: { none: ['Ada Researcher'] } }],
  items: [canvas(1), canvas(2), canvas(3)],
};

export const imageSet = imageSetFixture(IMAGE_SET, 'Charters of Utrecht', { remoteUri: MANIFEST });

interface ServerOptions {
  manifest?: unknown;
  /** Answers getFields instead of the field list, e.g. a 404. */
  fields?: () => Response;
  /** What is stored per image uri before the test starts. */
  stored?: Record<string, StoredMetadataValue[]>;
  /** Answers the save instead of storing, e.g. a failure. */
  save?: () => Response;
  /** Holds back the stored values until it resolves, e.g. to type while they load. */
  storedAfter?: Promise<void>;
}

export const storedValue = (target: PimField, text: string, display = text): StoredMetadataValue => ({ field: { id: target.id }, value: text, display });

const NAMES: Record<string, string> = { [USER.uuid]: USER.name, [RELATED_IMAGE.uuid]: RELATED_IMAGE.name };

/**
 * A signed-in user and the server of the annotator: the fields, the manifest, info.json of every
 * image, the pickers, and the stored values, which a save replaces as the real server does.
 */
export function annotatorServer({ manifest = threePages, fields, stored = {}, save, storedAfter }: ServerOptions = {}) {
  setToken('tok');
  const store = new Map(Object.entries(stored));
  const fetchMock = stubFetch(
    signedInHandler(['AUTHENTICATED'], async (url, init) => {
      const path = url.pathname;
      if (path === '/api/pim/metadata/getFields') return fields ? fields() : jsonResponse(FIELD_LIST);
      if (path === `/api/pim/pimfieldset/${FIELD_SET}`) return jsonResponse(fieldSet);
      if (path === `/api/pim/documentimageset/${IMAGE_SET}`) return jsonResponse(imageSet);
      if (url.href.startsWith(MANIFEST) && path === new URL(MANIFEST).pathname) return jsonResponse(manifest);
      const info = /^\/iiif\/3\/([^/]+)\/info\.json$/.exec(path);
      if (info) return jsonResponse({ id: `${ORIGIN}/iiif/3/${info[1]}`, type: 'ImageService3', width: 2000, height: 3000 });
      if (path === '/api/pim/users/autocomplete') return jsonResponse({ results: [{ uuid: USER.uuid, name: USER.name }], pageSize: 20 });
      if (path === '/api/pim/documentimage/autocomplete') return jsonResponse({ results: [RELATED_IMAGE], pageSize: 20 });
      if (path === `/api/pim/metadata/${encodeURIComponent(MANIFEST)}/${FIELD_SET}/export`) {
        return new Response('uri,Dataset uri\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      }
      if (path === '/api/pim/metadata/get') {
        await storedAfter;
        return jsonResponse(store.get(url.searchParams.get('uri') ?? '') ?? []);
      }
      if (path === '/api/pim/metadata/create' && init?.method === 'POST') {
        if (save) return save();
        const body = JSON.parse(String(init.body)) as CreateMetadataRequest;
        const entries = body.fields
          .filter((entry) => entry.value !== null && entry.value !== undefined && entry.value !== '')
          .map((entry) => ({ field: { id: entry.id }, value: String(entry.value), display: NAMES[String(entry.value)] ?? String(entry.value) }));
        const uri = String(body.fields.find((entry) => entry.id === FIELDS.uri.id)?.value);
        store.set(uri, entries);
        return jsonResponse(entries);
      }
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
  return { fetchMock, store };
}

/** The bodies POSTed to save metadata, parsed. */
export function savedBodies(fetchMock: ReturnType<typeof stubFetch>): CreateMetadataRequest[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => init?.method === 'POST' && new URL(String(input), 'http://localhost').pathname === '/api/pim/metadata/create')
    .map(([, init]) => JSON.parse(String(init?.body)) as CreateMetadataRequest);
}

/** The annotator's address (the spec's screen, or the newer one) for the manifest and field set, optionally at an image. */
export function annotatorPath(imageUri?: string, screen: AnnotatorScreen = 'analyzeimagemanual'): string {
  const query = new URLSearchParams({ uri: MANIFEST, fieldsetid: FIELD_SET });
  if (imageUri) query.set('imageUri', imageUri);
  return `/${screen}?${query.toString()}`;
}
