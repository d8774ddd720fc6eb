import { METADATA_FIELD_TYPES, type PimField, type PimFieldSet, type PimFieldSetSummary } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { jsonResponse, signedInHandler, stubFetch, testUser } from '../../test/render';

export const SET_A = 'f0000000-0000-4000-8000-00000000000a';
export const SET_B = 'f0000000-0000-4000-8000-00000000000b';
export const NEW_SET = 'f0000000-0000-4000-8000-00000000000c';
export const USER = testUser();
export const LIST_PATH = '/api/pim/pimfieldset/';
export const CREATE_PATH = '/api/pim/pimfieldset/create';
export const setPath = (uuid: string) => `/api/pim/pimfieldset/${uuid}`;
export const updatePath = (uuid: string) => `/api/pim/pimfieldset/${uuid}/update`;

const CREATED = '2024-03-01T10:00:00.000Z';
let lastId = 0;
const nextId = (prefix: string) => {
  lastId += 1;
  return `${prefix}0000000-0000-4000-8000-${String(lastId).padStart(12, '0')}`;
};

/** A field as the server presents it, with fresh ids. */
export function pimField(label: string, name: string, type: PimField['type'], extra: Partial<PimField> = {}): PimField {
  const id = nextId('d');
  return { uuid: id, id, label, name, description: '', type, copyValue: false, possibleValues: [], ...extra };
}

export function selectValue(value: string) {
  return { uuid: nextId('e'), value, created: CREATED };
}

/** A saved set: the two fixed fields, then `extra`. */
export function fieldSetFixture(uuid: string, name: string, extra: PimField[] = [], overrides: Partial<PimFieldSet> = {}): PimFieldSet {
  return {
    uuid,
    name,
    publicPimFieldSet: false,
    owner: { uuid: USER.uuid, name: USER.name },
    editable: true,
    fields: [pimField('uri', 'uri', 'text'), pimField('Dataset uri', 'datasetUri', 'text'), ...extra],
    created: CREATED,
    updated: '2024-03-02T11:30:00.000Z',
    ...overrides,
  };
}

export function summaryOf({ fields, ...set }: PimFieldSet): PimFieldSetSummary {
  return { ...set, fieldCount: fields.length };
}

type Rest = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** A signed-in user and the field types; `rest` answers the rest, anything else is a 404. */
export function fieldSetServer(rest: Rest) {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], async (url, init) => {
      if (url.pathname === '/api/pim/metadata/fieldtypes') return jsonResponse(METADATA_FIELD_TYPES);
      return (await rest(url, init)) ?? jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

/** The JSON bodies sent with `method` to `path`, in order. */
export function sentBodies(fetchMock: ReturnType<typeof stubFetch>, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path)
    .map(([, init]) => (init?.body === undefined ? undefined : JSON.parse(String(init.body))));
}
