import { JOB_TYPE_INFO, JOB_TYPES, P2PALA_OPTIONS, type Job, type JobType, type SubJob } from '@pim/contract';
import { setToken } from '../../session/token-store';
import { imageSetFixture } from '../../test/factories';
import { jsonResponse, signedInHandler, stubFetch } from '../../test/render';

export const JOB_A = 'a0000000-0000-4000-8000-00000000000a';
export const JOB_B = 'a0000000-0000-4000-8000-00000000000b';
export const JOB_C = 'a0000000-0000-4000-8000-00000000000c';
export const SET = { uuid: 'b0000000-0000-4000-8000-00000000000a', name: 'Psalter' };
export const OTHER_SET = { uuid: 'b0000000-0000-4000-8000-00000000000b', name: 'Book of hours' };
export const TESSERACT_MODEL = { uuid: 'c0000000-0000-4000-8000-00000000000a', name: 'Dutch print' };
export const P2PALA_MODEL = { uuid: 'c0000000-0000-4000-8000-00000000000b', name: 'Regions 1850' };
export const FIELD_SET = { uuid: 'd0000000-0000-4000-8000-00000000000a', name: 'Letters' };
export const FIELD_WRITER = { uuid: 'd0000000-0000-4000-8000-00000000001a', name: 'writer', label: 'Writer', type: 'text' as const };
export const FIELD_YEAR = { uuid: 'd0000000-0000-4000-8000-00000000001b', name: 'year', label: 'Year', type: 'text' as const };
export const OWNER = { uuid: '11111111-1111-4111-8111-111111111111', name: 'Ada Researcher' };

/** A job as the server presents it, for tests: queued first in line unless the test says otherwise. */
export function jobFixture(uuid: string, jobType: JobType, overrides: Partial<Job> = {}): Job {
  return {
    id: 1,
    uuid,
    jobType,
    state: 'notStarted',
    startDate: null,
    endDate: null,
    done: false,
    inProgress: false,
    documentImageset: SET,
    created: '2024-06-01T09:00:00.000Z',
    updated: '2024-06-01T09:00:00.000Z',
    allData: false,
    uri: null,
    elasticSearchIndex: null,
    error: null,
    jobOrder: 1,
    priority: 50,
    downloadUri: null,
    wrapper: null,
    owner: OWNER,
    result: {},
    settingNames: {},
    progress: null,
    waitingFor: null,
    worker: null,
    attempts: 0,
    settings: {},
    ...overrides,
  };
}

/** A running job, `done` of `total` pages through. */
export function runningJob(uuid: string, jobType: JobType, done: number, total: number | null, message: string | null = null): Job {
  return jobFixture(uuid, jobType, {
    state: 'running',
    inProgress: true,
    startDate: '2024-06-01T09:01:00.000Z',
    jobOrder: null,
    progress: { done, total, message },
    worker: { name: 'built-in', host: 'pim-1', versions: { pim: '0.1.0', tesseract: '5.3.0' } },
    attempts: 1,
  });
}

export function doneJob(uuid: string, jobType: JobType, overrides: Partial<Job> = {}): Job {
  return jobFixture(uuid, jobType, {
    state: 'done',
    done: true,
    startDate: '2024-06-01T09:01:00.000Z',
    endDate: '2024-06-01T09:05:00.000Z',
    jobOrder: null,
    attempts: 1,
    ...overrides,
  });
}

export function subJobFixture(uuid: string, overrides: Partial<SubJob> = {}): SubJob {
  return {
    uuid,
    wrapper: JOB_A,
    created: '2024-06-01T09:00:00.000Z',
    updated: '2024-06-01T09:00:00.000Z',
    inProgress: false,
    startDate: null,
    done: false,
    config: { exp_name: 'experiment_name', line_color: 128 },
    errors: null,
    imageSet: SET,
    networkSpec: null,
    ...overrides,
  };
}

/** Every type as `GET pim/jobs/types` lists it: the built-in ones served, the others not unless named. */
export function jobTypeList(served: readonly JobType[] = []) {
  return JOB_TYPES.map((type) => {
    const info = JOB_TYPE_INFO[type];
    return { ...info, fields: [...info.fields], required: [...info.required], served: info.runsHere || served.includes(type) };
  });
}

interface JobServerOptions {
  /** The stored jobs, newest first; a function answers each list call anew (a job moving on between polls). */
  jobs?: Job[] | (() => Job[]);
  subJobs?: Partial<Record<'p2pala' | 'siamese', SubJob[]>>;
  /** The status a sub-job cancel answers (the spec reloads only on 204). */
  subJobCancelStatus?: number;
  served?: JobType[];
  roles?: string[];
}

const autocomplete = (results: unknown[]) => jsonResponse({ results, pageSize: 20 });

const AUTOCOMPLETES: Record<string, unknown[]> = {
  '/api/pim/documentimageset/autocomplete': [SET, OTHER_SET],
  '/api/pim/tesseract4model/autocomplete': [TESSERACT_MODEL],
  '/api/pim/p2palamodel/autocomplete': [P2PALA_MODEL],
  '/api/pim/pimfieldset/autocomplete': [FIELD_SET],
  [`/api/pim/pimfieldset/${FIELD_SET.uuid}/pimfields/autocomplete`]: [FIELD_WRITER, FIELD_YEAR],
};

function subJobAnswer(url: URL, method: string, options: JobServerOptions): Response | undefined {
  const match = /^\/api\/pim\/(p2palajob|siamesejob)(?:\/([^/]+)\/cancel)?$/.exec(url.pathname);
  if (!match) return undefined;
  const kind = match[1] === 'p2palajob' ? 'p2pala' : 'siamese';
  const stored = options.subJobs?.[kind] ?? [];
  if (!match[2] && method === 'GET') return jsonResponse(stored);
  if (match[2] && method === 'POST') {
    const status = options.subJobCancelStatus ?? 204;
    if (status === 204) stored.splice(stored.findIndex((job) => job.uuid === match[2]), 1);
    return status === 204 ? new Response(null, { status }) : jsonResponse({ cancelled: false }, status);
  }
  return undefined;
}

function jobAnswer(url: URL, method: string, body: unknown, jobs: () => Job[]): Response | undefined {
  if (url.pathname === '/api/pim/jobs' && method === 'GET') {
    const all = jobs();
    const page = Number(url.searchParams.get('page'));
    const pageSize = Number(url.searchParams.get('pageSize'));
    return jsonResponse({ results: all.slice(page * pageSize, (page + 1) * pageSize), total: all.length, pageSize });
  }
  if (url.pathname === '/api/pim/jobs' && method === 'POST') {
    const request = body as { jobType: JobType };
    return jsonResponse(jobFixture(JOB_C, request.jobType, { settings: request }), 201);
  }
  const action = /^\/api\/pim\/jobs\/([^/]+)\/(cancel|restart)$/.exec(url.pathname);
  if (action && method === 'POST') return new Response(null, { status: 204 });
  if (url.pathname.startsWith('/api/pim/jobs/download/')) {
    // As the server names a remote worker's zip: `<jobType>-<jobId>.zip`, in ASCII and in UTF-8.
    const disposition = `attachment; filename="Fr_g-12.zip"; filename*=UTF-8''${encodeURIComponent('Frög-12.zip')}`;
    return new Response(new Blob(['PK zip']), { headers: { 'content-disposition': disposition } });
  }
  return undefined;
}

/**
 * A signed-in user (an admin unless `roles` says otherwise) and the job calls of the contract: the
 * paged list, the types, create, cancel, restart, download, the option lists, the pickers and the
 * P2PaLA and Siamese jobs. Each request body is kept in `bodies`, by "METHOD path".
 */
export function jobServer(options: JobServerOptions = {}) {
  setToken('tok');
  const stored = options.jobs ?? [];
  const jobs = typeof stored === 'function' ? stored : () => stored;
  const bodies: Record<string, unknown> = {};
  const fetchMock = stubFetch(
    signedInHandler(options.roles ?? ['AUTHENTICATED', 'ADMIN'], (url, init) => {
      const method = init?.method ?? 'GET';
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      if (body !== undefined) bodies[`${method} ${url.pathname}`] = body;
      if (url.pathname === '/api/pim/jobs/types') return jsonResponse(jobTypeList(options.served));
      const list = /^\/api\/pim\/p2palajob\/(approxalg|outmode|linealg|loglevel)$/.exec(url.pathname);
      if (list) return jsonResponse(P2PALA_OPTIONS[list[1] as keyof typeof P2PALA_OPTIONS]);
      const picked = AUTOCOMPLETES[url.pathname];
      if (picked) return autocomplete(picked);
      for (const set of [SET, OTHER_SET]) {
        if (url.pathname === `/api/pim/documentimageset/${set.uuid}`) return jsonResponse(imageSetFixture(set.uuid, set.name));
      }
      return (
        subJobAnswer(url, method, options) ??
        jobAnswer(url, method, body, jobs) ??
        jsonResponse({ error: 'not_found', message: 'Not found' }, 404)
      );
    }),
  );
  return { fetchMock, bodies };
}
