import type { AnnotatedDataset, AnnotatedImage, MetadataOverview, PimFieldSet } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const FIELD_SET = '66666666-6666-4666-8666-666666666666';
export const OTHER_FIELD_SET = '77777777-7777-4777-8777-777777777777';
export const DATASET = 'https://iiif.example.org/manifests/psalter b/manifest.json';
export const OTHER_DATASET = 'http://localhost/api/pim/imageset/22222222-2222-4222-8222-222222222222/manifest';
export const IMAGE_1 = 'https://iiif.example.org/iiif/3/psalter%2Ff001r.jp2';
export const IMAGE_2 = 'https://iiif.example.org/iiif/3/psalter%2Ff001v.jp2';

/** `GET pim/metadata/{uri}/{fieldsetid}` of DATASET under FIELD_SET: two images, a long note on the first. */
export const OVERVIEW: MetadataOverview = {
  fields: ['uri', 'datasetUri', 'script', 'notes'],
  labels: ['uri', 'Dataset uri', 'Script type', 'notes'],
  data: [
    { uri: IMAGE_1, datasetUri: DATASET, script: 'Textualis', notes: 'Line one\nLine two\nLine three\nLine four' },
    { uri: IMAGE_2, datasetUri: DATASET, script: 'Hybrida', notes: 'Rubric, "red" ink' },
  ],
};

export function fieldSetFixture(uuid: string, name: string): PimFieldSet {
  return {
    uuid,
    name,
    publicPimFieldSet: false,
    owner: null,
    editable: true,
    fields: [],
    created: '2024-03-01T10:00:00.000Z',
    updated: '2024-03-01T10:00:00.000Z',
  };
}

export const DATASETS: AnnotatedDataset[] = [
  { datasetUri: DATASET, datasetName: 'Psalter B' },
  { datasetUri: OTHER_DATASET, datasetName: 'Charters' },
];

export const IMAGES: AnnotatedImage[] = [
  { uri: IMAGE_1, label: null, fieldSets: [{ uuid: FIELD_SET, name: 'Dating' }, { uuid: OTHER_FIELD_SET, name: 'Hands' }] },
  { uri: IMAGE_2, label: 'f. 1v', fieldSets: [{ uuid: FIELD_SET, name: 'Dating' }] },
];

/** The path a URL was fetched at, still encoded as the browser sent it. */
export const overviewApiPath = (datasetUri: string, fieldSetId: string) =>
  `/api/pim/metadata/${encodeURIComponent(datasetUri)}/${fieldSetId}`;
export const datasetImagesApiPath = (datasetUri: string) => `/api/pim/metadata/annotateddatasets/${encodeURIComponent(datasetUri)}`;

type Rest = (url: URL, init: RequestInit | undefined) => Response | undefined | Promise<Response | undefined>;

/** A signed-in user; whatever `rest` does not answer is 404. */
export function metadataServer(rest: Rest) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], async (url, init) => {
      const answer = await rest(url, init);
      return answer ?? jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

/** The calls made to `path`, each with its query and Authorization header. */
export function callsTo(fetchMock: ReturnType<typeof stubFetch>, path: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), auth: new Headers(init?.headers).get('Authorization') }))
    .filter(({ url }) => url.pathname === path)
    .map(({ url, auth }) => ({ query: Object.fromEntries(url.searchParams), auth }));
}
