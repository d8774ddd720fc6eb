import { randomUUID } from 'node:crypto';
import type { AclPermission, JobType } from '@pim/contract';
import { ACL_PERMISSIONS, MODEL_KINDS, MODEL_KIND_INFO, type ModelKind, newPimFieldSet } from '@pim/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldSet, field } from './test-support/metadata.js';
import { modelFileFor } from './test-support/model-files.js';
import { createForm, createModel } from './test-support/models.js';
import { testFont } from './test-support/font-files.js';
import { createFont } from './test-support/fonts.js';
import { multipartBody } from './test-support/multipart-body.js';
import { uploadPageWithLines } from './test-support/text-lines.js';
import { call, createTestApp, signedInUser, type TestApp } from './test-support/test-app.js';
import { createSet, testImage, testPdf, upload } from './test-support/upload-files.js';

/**
 * The authorization matrix: every route of the OpenAPI document, called by every kind of caller,
 * answers what the policy says. A route missing from RULES fails the test, so a new route must
 * state its rule here (or an exemption with its reason) before it can land.
 */

type Actor = 'anonymous' | 'owner' | 'another user' | 'READ member' | 'WRITE member' | 'admin' | 'API key' | 'admin API key';
const ACTORS: Actor[] = ['anonymous', 'API key', 'another user', 'READ member', 'WRITE member', 'owner', 'admin', 'admin API key'];

type Rule =
  /** Anyone, signed in or not. */
  | { kind: 'open' }
  /** Every signed-in caller, API keys included; what they get is narrowed to what they may see. */
  | { kind: 'signedIn' }
  /** Creates an owned record: users, and API keys with ADMIN; a plain API key owns nothing (403). */
  | { kind: 'creator' }
  /** Signed-in users; an API key is not a user and has no own profile (404). */
  | { kind: 'user' }
  /** Administrators: users or API keys with ADMIN. */
  | { kind: 'admin' }
  /** The user the request is about (the owner in the scenario) or an administrator; others 403. */
  | { kind: 'selfOrAdmin' }
  /**
   * A permission on the scenario's private image set (ADMIN: manage its ACL); 404 to those who may
   * not read it. `open`: anonymous IIIF clients may also read it when the set is public and published.
   */
  | { kind: 'set'; permission: AclPermission; open?: true }
  /** A permission on an image of that set, through the set; `open` as for a set. */
  | { kind: 'image'; permission: AclPermission; open?: true }
  /**
   * A private record of the owner without ACL (a field set): the owner and admins; 404 to others,
   * or 400 where the request names it in its body (it is then an unknown reference).
   */
  | { kind: 'ownedPrivate'; hidden?: 400 }
  /** A rule of its own, given per actor. */
  | { kind: 'special'; expect: (actor: Actor) => number | 'ok' }
  /** Not in the matrix, with the reason. */
  | { kind: 'exempt'; why: string };

const GRANTED: Record<Actor, AclPermission | 'ALL' | null> = {
  anonymous: null,
  'API key': null,
  'another user': null,
  'READ member': 'READ',
  'WRITE member': 'WRITE',
  owner: 'ALL',
  admin: 'ALL',
  'admin API key': 'ALL',
};
const isAdminActor = (actor: Actor) => actor === 'admin' || actor === 'admin API key';
const rank = (p: AclPermission) => ACL_PERMISSIONS.indexOf(p);

/** 'ok' is any answer below 400; a number is that exact status. */
function expected(rule: Exclude<Rule, { kind: 'exempt' }>, actor: Actor): number | 'ok' {
  if (rule.kind === 'special') return rule.expect(actor);
  if (rule.kind === 'open') return 'ok';
  if (actor === 'anonymous') return 401;
  switch (rule.kind) {
    case 'signedIn':
      return 'ok';
    case 'creator':
      return actor === 'API key' ? 403 : 'ok';
    case 'user':
      return actor === 'API key' || actor === 'admin API key' ? 404 : 'ok';
    case 'admin':
      return isAdminActor(actor) ? 'ok' : 403;
    case 'selfOrAdmin':
      return actor === 'owner' || isAdminActor(actor) ? 'ok' : 403;
    case 'ownedPrivate':
      return actor === 'owner' || isAdminActor(actor) ? 'ok' : (rule.hidden ?? 404);
    case 'set':
    case 'image': {
      const granted = GRANTED[actor];
      if (granted === 'ALL') return 'ok';
      if (granted === null) return 404;
      return rank(granted) >= rank(rule.permission) ? 'ok' : 403;
    }
  }
}

/** What one scenario holds: a private set of the owner with an image, its lines, files and grants. */
interface Scenario {
  setId: string;
  imageId: string;
  transcriptionId: string;
  lineId: string;
  fileId: string;
  /** A public set of the owner, to add as a sub-set, and an image in it, to add to the set. */
  publicSetId: string;
  publicImageId: string;
  /** An ACL entry on the set that no actor depends on, to delete. */
  spareEntryId: string;
  fieldSet: { uuid: string; fields: { id: string; name: string }[] };
  /** A similarity snippet of the set's line, and a confusion matrix of the set. */
  snippetId: string;
  confusionMatrixId: string;
}

interface Request {
  method: InjectOptions['method'];
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

interface Entry {
  rule: Rule;
  /** Builds the request; may create what it changes or removes, so actors do not share it. */
  request?: (s: Scenario) => Request | Promise<Request>;
  /** A scenario of its own for each actor (the request changes the set's access or contents). */
  fresh?: true;
}

describe('the authorization matrix: every route, every kind of caller', () => {
  let t: TestApp;
  const auth = {} as Record<Actor, Record<string, string>>;
  const people = {} as Record<'owner' | 'admin' | 'readMember' | 'writeMember', Awaited<ReturnType<typeof signedInUser>>>;
  let readers: string;
  let writers: string;
  let spareGroup: string;
  let searchIndexId: string;
  let shared: Scenario;
  let png: Buffer;

  const asAdmin = (req: InjectOptions) => call(t.app, { ...req, headers: { ...auth.admin, ...(req.headers ?? {}) } });
  const ok = async <T>(res: Promise<{ status: number; json: T }>, what: string): Promise<T> => {
    const r = await res;
    if (r.status >= 400) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };

  async function grant(setId: string, group: string, permission: AclPermission): Promise<{ uuid: string }[]> {
    return ok(
      call(t.app, { method: 'POST', url: `/api/pim/acl/subject/${setId}`, headers: auth.owner, payload: { group, role: 'MEMBER', permission } }),
      'grant',
    );
  }

  async function scenario(): Promise<Scenario> {
    const setId = await createSet(t.app, auth.owner, 'Private set');
    const lines = await uploadPageWithLines(
      t.app,
      auth.owner,
      setId,
      `page-${randomUUID().slice(0, 8)}`,
      [{ text: 'Anno domini', points: '2,2 37,2 37,12 2,12' }],
      { png, size: { width: 40, height: 30 } },
    );
    const pdf = await upload(t.app, auth.owner, setId, [{ fileName: 'scan.pdf', bytes: await testPdf(1) }]);
    expect(pdf.status).toBe(200);
    const file = await t.app.database.db
      .selectFrom('image_set_file')
      .select('file_id')
      .where('set_id', '=', setId)
      .executeTakeFirstOrThrow();
    await grant(setId, readers, 'READ');
    await grant(setId, writers, 'WRITE');
    const entries = await grant(setId, spareGroup, 'READ');
    const spare = entries.find((e) => (e as unknown as { group: { uuid: string } }).group.uuid === spareGroup)!;
    const publicSetId = await createSet(t.app, auth.owner, 'Public set');
    await ok(
      call(t.app, {
        method: 'POST',
        url: '/api/pim/documentimageset/update',
        headers: auth.owner,
        payload: { uuid: publicSetId, imageset: 'Public set', publicDocumentImageSet: true },
      }),
      'publish',
    );
    const publicUpload = await upload(t.app, auth.owner, publicSetId, [{ fileName: 'public.png', bytes: png }]);
    const fieldSet = await createFieldSet(t.app, auth.owner, { name: 'Private fields', fields: [field('Note', 'text')] });
    const similarity = t.app.services.similarityRepository;
    const snippetId = randomUUID();
    const region = { x: 2, y: 2, w: 36, h: 11 };
    await similarity.replaceSnippets('builtin', [lines.imageId], [{ id: snippetId, lineId: lines.lineIds[0]!, imageId: lines.imageId, region, tag: 'a', features: [1, 0, 0.5] }], null);
    const confusionMatrixId = randomUUID();
    await similarity.insertConfusionMatrix({
      id: confusionMatrixId,
      model: 'builtin',
      setId,
      jobId: null,
      ownerId: null,
      labels: ['a'],
      matrix: [[1]],
      accuracy: 1,
      snippets: 1,
      report: 'accuracy 1.00',
    });
    return {
      snippetId,
      confusionMatrixId,
      setId,
      imageId: lines.imageId,
      transcriptionId: lines.transcriptionId,
      lineId: lines.lineIds[0]!,
      fileId: file.file_id,
      publicSetId,
      publicImageId: publicUpload.json.documentImages[0].uuid,
      spareEntryId: spare.uuid,
      fieldSet,
    };
  }

  const newUser = async () => (await signedInUser(t.app)).userId;
  const newGroup = async (name = 'Matrix group') => (await ok(asAdmin({ method: 'POST', url: '/api/pim/pimgroups/create', payload: { name } }), 'group')) as { uuid: string };
  const newKey = async () =>
    (await ok(asAdmin({ method: 'POST', url: '/api/pim/apikey', payload: { userName: 'matrix', roles: [] } }), 'key')) as { uuid: string };
  const newConfiguration = async () =>
    (await ok(asAdmin({ method: 'POST', url: '/api/pim/configuration/create', payload: { key: `matrix.${randomUUID()}`, value: '' } }), 'configuration')) as {
      uuid: string;
    };
  const newEnvironment = async () =>
    (await ok(asAdmin({ method: 'POST', url: '/api/pim/environment', payload: { title: 'Matrix', path: `m-${randomUUID()}` } }), 'environment')) as {
      uuid: string;
    };

  const get = (url: string) => (): Request => ({ method: 'GET', url });
  const metadataValues = (s: Scenario, uri: string) => ({
    fields: s.fieldSet.fields.map((f) => ({
      id: f.id,
      value: f.name === 'uri' ? uri : f.name === 'datasetUri' ? 'https://example.org/manifest.json' : 'x',
    })),
  });

  const RULES: Record<string, Entry> = {
    // Search: every signed-in caller searches what they may read (search.test.ts checks which hits);
    // anonymous callers only the indices of published environments, and there is none here.
    'POST /api/pim/elastic/{index}/_search': {
      rule: { kind: 'special', expect: (a) => (a === 'anonymous' ? 401 : 'ok') },
      request: () => ({ method: 'POST', url: '/api/pim/elastic/_all/_search', payload: { query: { match_all: {} } } }),
    },
    'POST /api/pim/elastic/{index}/_msearch': {
      rule: { kind: 'special', expect: (a) => (a === 'anonymous' ? 401 : 'ok') },
      request: () => ({ method: 'POST', url: '/api/pim/elastic/_all/_msearch', headers: { 'content-type': 'application/x-ndjson' }, payload: '{}\n{}\n' }),
    },
    'POST /api/pim/elastic/{index}/_terms_enum': {
      rule: { kind: 'special', expect: (a) => (a === 'anonymous' ? 401 : 'ok') },
      request: () => ({ method: 'POST', url: '/api/pim/elastic/_all/_terms_enum', payload: { field: 'text', string: 'a' } }),
    },
    // Sign-in and session
    'GET /api/google/login': { rule: { kind: 'open' }, request: get('/api/google/login?returnURL=http://pim.test/pim/&redirect=/pim/') },
    'GET /api/google/callback': {
      rule: { kind: 'exempt', why: 'answers to the OpenID state it was sent, not to a caller; signin-flow.test.ts covers it' },
    },
    'POST /api/google/getRoles': {
      // The spec's role check: a missing or invalid session answers 403, which signs the web app out.
      rule: { kind: 'special', expect: (a) => (a === 'anonymous' ? 403 : 'ok') },
      request: () => ({ method: 'POST', url: '/api/google/getRoles' }),
    },
    'DELETE /api/google/{token}': {
      // Knowing a session token is the right to end it; an unknown token is fine.
      rule: { kind: 'open' },
      request: () => ({ method: 'DELETE', url: `/api/google/not-a-session-${randomUUID()}` }),
    },

    // Users
    'GET /api/pim/users': { rule: { kind: 'admin' }, request: get('/api/pim/users') },
    'GET /api/pim/users/self': { rule: { kind: 'user' }, request: get('/api/pim/users/self') },
    'GET /api/pim/users/{uuid}': { rule: { kind: 'selfOrAdmin' }, request: () => get(`/api/pim/users/${people.owner.userId}`)() },
    'POST /api/pim/users/{uuid}/update': {
      rule: { kind: 'selfOrAdmin' },
      request: () => ({ method: 'POST', url: `/api/pim/users/${people.owner.userId}/update`, payload: { name: 'Owner' } }),
    },
    'PUT /api/pim/users/{uuid}/enable': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'PUT', url: `/api/pim/users/${await newUser()}/enable` }),
    },
    'PUT /api/pim/users/{uuid}/disable': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'PUT', url: `/api/pim/users/${await newUser()}/disable` }),
    },
    'GET /api/pim/users/possibleroles': { rule: { kind: 'signedIn' }, request: get('/api/pim/users/possibleroles') },
    'GET /api/pim/users/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/users/autocomplete?filter=own') },

    // Groups
    'GET /api/pim/pimgroups': { rule: { kind: 'admin' }, request: get('/api/pim/pimgroups') },
    'POST /api/pim/pimgroups/create': {
      rule: { kind: 'admin' },
      request: () => ({ method: 'POST', url: '/api/pim/pimgroups/create', payload: { name: 'Made in the matrix' } }),
    },
    'POST /api/pim/pimgroups/{uuid}/update': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'POST', url: `/api/pim/pimgroups/${(await newGroup()).uuid}/update`, payload: { name: 'Renamed' } }),
    },
    'DELETE /api/pim/pimgroups/{uuid}': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'DELETE', url: `/api/pim/pimgroups/${(await newGroup()).uuid}` }),
    },
    'GET /api/pim/pimgroups/{uuid}/membershiphierarchy': {
      rule: { kind: 'admin' },
      request: () => get(`/api/pim/pimgroups/${readers}/membershiphierarchy`)(),
    },
    'PUT /api/pim/pimgroups/{id}/hierarchy/addmembership': {
      rule: { kind: 'admin' },
      request: async () => ({
        method: 'PUT',
        url: `/api/pim/pimgroups/${(await newGroup()).uuid}/hierarchy/addmembership`,
        payload: { userId: people.readMember.userId, role: 'MEMBER' },
      }),
    },
    'PUT /api/pim/pimgroups/{id}/hierarchy/removemembership': {
      rule: { kind: 'admin' },
      request: async () => {
        const group = await newGroup();
        const tree = (await ok(
          asAdmin({
            method: 'PUT',
            url: `/api/pim/pimgroups/${group.uuid}/hierarchy/addmembership`,
            payload: { userId: people.readMember.userId, role: 'EDITOR' },
          }),
          'membership',
        )) as { memberships: { id: string }[] };
        return {
          method: 'PUT',
          url: `/api/pim/pimgroups/${group.uuid}/hierarchy/removemembership`,
          payload: { membershipId: tree.memberships[0]!.id },
        };
      },
    },
    'PUT /api/pim/pimgroups/{id}/hierarchy/addSubgroup': {
      rule: { kind: 'admin' },
      request: async () => ({
        method: 'PUT',
        url: `/api/pim/pimgroups/${(await newGroup()).uuid}/hierarchy/addSubgroup`,
        payload: { uuid: (await newGroup()).uuid },
      }),
    },
    'PUT /api/pim/pimgroups/{id}/hierarchy/removeSubgroup': {
      rule: { kind: 'admin' },
      request: async () => {
        const [parent, child] = [await newGroup(), await newGroup()];
        await ok(
          asAdmin({ method: 'PUT', url: `/api/pim/pimgroups/${parent.uuid}/hierarchy/addSubgroup`, payload: { uuid: child.uuid } }),
          'subgroup',
        );
        return { method: 'PUT', url: `/api/pim/pimgroups/${parent.uuid}/hierarchy/removeSubgroup`, payload: { uuid: child.uuid } };
      },
    },
    'GET /api/pim/pimgroups/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/pimgroups/autocomplete?filter=read') },
    'GET /api/pim/pimgroups/autocomplete/{uuid}': {
      rule: { kind: 'admin' },
      request: () => get(`/api/pim/pimgroups/autocomplete/${readers}?filter=wri`)(),
    },
    'GET /api/pim/pimgroups/{id}/possibleroles': {
      // The ACL editor of a set's owner asks it after choosing a group.
      rule: { kind: 'signedIn' },
      request: () => get(`/api/pim/pimgroups/${readers}/possibleroles`)(),
    },

    // API keys
    'GET /api/pim/apikey': { rule: { kind: 'admin' }, request: get('/api/pim/apikey') },
    'GET /api/pim/apikey/possibleroles': { rule: { kind: 'admin' }, request: get('/api/pim/apikey/possibleroles') },
    'POST /api/pim/apikey': {
      rule: { kind: 'admin' },
      request: () => ({ method: 'POST', url: '/api/pim/apikey', payload: { userName: 'harvester', roles: ['MINION'] } }),
    },
    'PUT /api/pim/apikey/{key}/enable': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'PUT', url: `/api/pim/apikey/${(await newKey()).uuid}/enable` }),
    },
    'PUT /api/pim/apikey/{key}/disable': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'PUT', url: `/api/pim/apikey/${(await newKey()).uuid}/disable` }),
    },

    // Font descriptions: shared reference data; everyone signed in reads and downloads them, admins write.
    'GET /api/pim/fontdescription': { rule: { kind: 'signedIn' }, request: get('/api/pim/fontdescription') },
    'GET /api/pim/fontdescription/{uuid}': {
      rule: { kind: 'signedIn' },
      request: async () => get(`/api/pim/fontdescription/${await createFont(t.app, auth.admin)}`)(),
    },
    'GET /api/pim/fontdescription/{uuid}/binary': {
      rule: { kind: 'signedIn' },
      request: async () => get(`/api/pim/fontdescription/${await createFont(t.app, auth.admin)}/binary`)(),
    },
    'POST /api/pim/fontdescription': {
      rule: { kind: 'admin' },
      request: () => {
        const { payload, headers } = multipartBody([
          { name: 'uri', value: `https://fonts.example.org/${randomUUID()}` },
          { name: 'file', fileName: 'matrix.ttf', bytes: testFont() },
        ]);
        return { method: 'POST', url: '/api/pim/fontdescription', payload, headers };
      },
    },
    'PUT /api/pim/fontdescription/{uuid}': {
      rule: { kind: 'admin' },
      request: async () => ({
        method: 'PUT',
        url: `/api/pim/fontdescription/${await createFont(t.app, auth.admin)}`,
        payload: { name: 'Renamed', type: 'TrueType', license: '', handwritten: true, containsLongS: false, containsLigatures: false, romanScript: true, serif: false },
      }),
    },
    'DELETE /api/pim/fontdescription/{uuid}': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'DELETE', url: `/api/pim/fontdescription/${await createFont(t.app, auth.admin)}` }),
    },

    // ACL
    'GET /api/pim/acl/permissions': { rule: { kind: 'signedIn' }, request: get('/api/pim/acl/permissions') },
    'GET /api/pim/acl/allfor/{subjectId}': { rule: { kind: 'set', permission: 'READ' }, request: (s) => get(`/api/pim/acl/allfor/${s.setId}`)() },
    'POST /api/pim/acl/subject/{subjectId}': {
      rule: { kind: 'set', permission: 'ADMIN' },
      request: (s) => ({
        method: 'POST',
        url: `/api/pim/acl/subject/${s.setId}`,
        payload: { group: spareGroup, role: 'EDITOR', permission: 'READ' },
      }),
      fresh: true,
    },
    'DELETE /api/pim/acl/{uuid}': {
      rule: { kind: 'set', permission: 'ADMIN' },
      request: (s) => ({ method: 'DELETE', url: `/api/pim/acl/${s.spareEntryId}` }),
      fresh: true,
    },

    // Image sets
    'GET /api/pim/documentimageset': { rule: { kind: 'signedIn' }, request: get('/api/pim/documentimageset') },
    'GET /api/pim/documentimageset/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/documentimageset/autocomplete?filter=set') },
    'POST /api/pim/documentimageset/create': {
      rule: { kind: 'creator' },
      request: () => ({ method: 'POST', url: '/api/pim/documentimageset/create', payload: { imageset: 'Matrix set' } }),
    },
    'POST /api/pim/documentimageset/update': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: (s) => ({ method: 'POST', url: '/api/pim/documentimageset/update', payload: { uuid: s.setId, imageset: 'Private set' } }),
    },
    'DELETE /api/pim/documentimageset/{uuid}': {
      rule: { kind: 'set', permission: 'DELETE' },
      request: (s) => ({ method: 'DELETE', url: `/api/pim/documentimageset/${s.setId}` }),
      fresh: true,
    },
    'GET /api/pim/documentimageset/{uuid}': { rule: { kind: 'set', permission: 'READ' }, request: (s) => get(`/api/pim/documentimageset/${s.setId}`)() },
    'GET /api/pim/documentimageset/{uuid}/documentimages': {
      rule: { kind: 'set', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimageset/${s.setId}/documentimages`)(),
    },
    'GET /api/pim/documentimageset/{uuid}/hierarchy': {
      rule: { kind: 'set', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimageset/${s.setId}/hierarchy`)(),
    },
    'PUT /api/pim/documentimageset/{uuid}/documentimages': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: (s) => ({ method: 'PUT', url: `/api/pim/documentimageset/${s.setId}/documentimages`, payload: { uuid: s.publicImageId } }),
    },
    'DELETE /api/pim/documentimageset/{uuid}/documentimages': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: (s) => ({ method: 'DELETE', url: `/api/pim/documentimageset/${s.setId}/documentimages`, payload: { uuid: s.imageId } }),
      fresh: true,
    },
    'PUT /api/pim/documentimageset/{uuid}/subsets': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: (s) => ({ method: 'PUT', url: `/api/pim/documentimageset/${s.setId}/subsets`, payload: { uuid: s.publicSetId } }),
    },
    'DELETE /api/pim/documentimageset/{uuid}/subsets': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: async (s) => {
        await ok(
          call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${s.setId}/subsets`, headers: auth.owner, payload: { uuid: s.publicSetId } }),
          'subset',
        );
        return { method: 'DELETE', url: `/api/pim/documentimageset/${s.setId}/subsets`, payload: { uuid: s.publicSetId } };
      },
      fresh: true,
    },
    'POST /api/pim/documentimageset/{uuid}/sort': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: (s) => ({ method: 'POST', url: `/api/pim/documentimageset/${s.setId}/sort`, payload: {} }),
    },
    'POST /api/pim/documentimageset/postfile': {
      rule: { kind: 'set', permission: 'WRITE' },
      request: async (s) => {
        const { payload, headers } = multipartBody([{ name: 'filepond', fileName: 'more.png', bytes: await testImage('png', 8, 8) }]);
        return { method: 'POST', url: `/api/pim/documentimageset/postfile?dataSetId=${s.setId}`, payload, headers };
      },
    },
    // Image description keeps nothing and tells only of images the caller may read: everyone signed in.
    'POST /api/pim/describeimage': {
      rule: { kind: 'signedIn' },
      request: async () => {
        const { payload, headers } = multipartBody([{ name: 'filepond', fileName: 'page.png', bytes: await testImage('png', 8, 8) }]);
        return { method: 'POST', url: '/api/pim/describeimage', payload, headers };
      },
    },

    // Downloads and files of a set
    'GET /api/pim/imageset/{uuid}/get': { rule: { kind: 'set', permission: 'READ' }, request: (s) => get(`/api/pim/imageset/${s.setId}/get`)() },
    'GET /api/pim/imageset/{uuid}/page': { rule: { kind: 'set', permission: 'READ' }, request: (s) => get(`/api/pim/imageset/${s.setId}/page`)() },
    'GET /api/pim/imageset/{uuid}/pdf': { rule: { kind: 'set', permission: 'READ' }, request: (s) => get(`/api/pim/imageset/${s.setId}/pdf`)() },
    'GET /api/pim/imageset/{uuid}/zippedimages': {
      rule: { kind: 'set', permission: 'READ' },
      request: (s) => get(`/api/pim/imageset/${s.setId}/zippedimages`)(),
    },
    'GET /api/pim/imageset/{uuid}/manifest': { rule: { kind: 'set', permission: 'READ', open: true }, request: (s) => get(`/api/pim/imageset/${s.setId}/manifest`)() },
    'GET /api/pim/pimfile/{uuid}': { rule: { kind: 'set', permission: 'READ' }, request: (s) => get(`/api/pim/pimfile/${s.fileId}`)() },

    // Document images
    'GET /api/pim/documentimage/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/documentimage/autocomplete?filter=page') },
    'GET /api/pim/documentimage/getfielddefinition': { rule: { kind: 'signedIn' }, request: get('/api/pim/documentimage/getfielddefinition') },
    'GET /api/pim/documentimage/{uuid}': { rule: { kind: 'image', permission: 'READ' }, request: (s) => get(`/api/pim/documentimage/${s.imageId}`)() },
    'GET /api/pim/documentimage/{uuid}/documentimagesets': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/documentimagesets`)(),
    },
    'GET /api/pim/documentimage/{uuid}/transcriptions': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/transcriptions`)(),
    },
    'GET /api/pim/documentimage/{uuid}/transcriptions/{transcriptionUuid}/layout': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/transcriptions/${s.transcriptionId}/layout`)(),
    },
    'GET /api/pim/documentimage/{uuid}/groundtruth': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/groundtruth`)(),
    },
    'GET /api/pim/documentimage/{uuid}/thumbnail': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/thumbnail`)(),
    },
    'GET /api/pim/documentimage/{uuid}/manifest': {
      rule: { kind: 'image', permission: 'READ', open: true },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/manifest`)(),
    },
    'GET /api/pim/documentimage/{uuid}/drawing': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/documentimage/${s.imageId}/drawing`)(),
    },
    'PUT /api/pim/documentimage/{uuid}/drawing': {
      rule: { kind: 'image', permission: 'WRITE' },
      request: (s) => ({ method: 'PUT', url: `/api/pim/documentimage/${s.imageId}/drawing`, payload: { shapes: [] } }),
    },
    'GET /api/pim/image/{uuid}': { rule: { kind: 'image', permission: 'READ' }, request: (s) => get(`/api/pim/image/${s.imageId}`)() },
    'GET /api/pim/image/byid/{uuid}': { rule: { kind: 'image', permission: 'READ' }, request: (s) => get(`/api/pim/image/byid/${s.imageId}`)() },
    'GET /iiif/3/{id}': { rule: { kind: 'image', permission: 'READ', open: true }, request: (s) => get(`/iiif/3/${s.imageId}`)() },
    'GET /iiif/3/{id}/info.json': { rule: { kind: 'image', permission: 'READ', open: true }, request: (s) => get(`/iiif/3/${s.imageId}/info.json`)() },
    'GET /iiif/3/{id}/{region}/{size}/{rotation}/{qualityFormat}': {
      rule: { kind: 'image', permission: 'READ', open: true },
      request: (s) => get(`/iiif/3/${s.imageId}/full/max/0/default.jpg`)(),
    },

    // Text lines
    'GET /api/pim/pimsimpletextline/random': { rule: { kind: 'signedIn' }, request: get('/api/pim/pimsimpletextline/random') },
    'GET /api/pim/pimsimpletextline/different': { rule: { kind: 'signedIn' }, request: get('/api/pim/pimsimpletextline/different') },
    'GET /api/pim/pimsimpletextline/random/parent/{parentuuid}': {
      rule: { kind: 'set', permission: 'READ' },
      request: (s) => get(`/api/pim/pimsimpletextline/random/parent/${s.setId}`)(),
    },
    'GET /api/pim/pimsimpletextline/{uuid}': { rule: { kind: 'image', permission: 'READ' }, request: (s) => get(`/api/pim/pimsimpletextline/${s.lineId}`)() },
    'GET /api/pim/pimsimpletextline/{uuid}/image': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/pimsimpletextline/${s.lineId}/image`)(),
    },
    'POST /api/pim/pimsimpletextline/update': {
      rule: { kind: 'image', permission: 'WRITE' },
      request: (s) => ({ method: 'POST', url: '/api/pim/pimsimpletextline/update', payload: { uuid: s.lineId, groundtruth: 'Anno domini' } }),
    },
    'POST /api/pim/pimsimpletextline/skip': {
      // Skips are kept per person: an API key that may read the line has no user to keep them for (400).
      rule: { kind: 'special', expect: (a) => (a === 'admin API key' ? 400 : expected({ kind: 'image', permission: 'READ' }, a)) },
      request: (s) => ({ method: 'POST', url: '/api/pim/pimsimpletextline/skip', payload: { uuid: s.lineId, groundtruth: '' } }),
    },

    // Statistics and the dashboard: everyone signed in, each counting what they may read
    'GET /api/pim/statistics/{name}': { rule: { kind: 'signedIn' }, request: get('/api/pim/statistics/documentimagesetstats') },
    'GET /api/pim/dashboard': { rule: { kind: 'signedIn' }, request: get('/api/pim/dashboard') },

    // Similarity search
    'GET /api/pim/siamese/models': { rule: { kind: 'signedIn' }, request: get('/api/pim/siamese/models') },
    'GET /api/pim/siamese/distancealgorithms': { rule: { kind: 'signedIn' }, request: get('/api/pim/siamese/distancealgorithms') },
    'GET /api/pim/siamese/validationsetnew': { rule: { kind: 'signedIn' }, request: get('/api/pim/siamese/validationsetnew?model=builtin') },
    'GET /api/pim/siamese/find': { rule: { kind: 'image', permission: 'READ' }, request: (s) => get(`/api/pim/siamese/find?id=${s.snippetId}&model=builtin`)() },
    'GET /api/pim/siamese/findsinglenew': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => get(`/api/pim/siamese/findsinglenew?uuid=${s.snippetId}&model=builtin&usecosine=false&features=1..3`)(),
    },
    'POST /api/pim/siamese/findByModel': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => ({ method: 'POST', url: '/api/pim/siamese/findByModel', payload: { model: 'builtin', imageUuid: s.imageId } }),
    },
    'POST /api/pim/siamese/findsinglenewmetadata': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => ({ method: 'POST', url: '/api/pim/siamese/findsinglenewmetadata', payload: { model: 'builtin', exampleUuid: s.snippetId } }),
    },
    'POST /api/pim/siamese/compareimagesnippets': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => ({ method: 'POST', url: '/api/pim/siamese/compareimagesnippets', payload: { model: 'builtin', imageUuid: s.imageId, exampleUuid: s.imageId } }),
    },
    'POST /api/pim/siamese/comparewithimageset': {
      rule: { kind: 'image', permission: 'READ' },
      request: (s) => ({ method: 'POST', url: '/api/pim/siamese/comparewithimageset', payload: { model: 'builtin', imageUuid: s.imageId } }),
    },
    'GET /api/pim/siamese/dateestimate': {
      // The date field is of a public field set, so only the image decides.
      rule: { kind: 'image', permission: 'READ' },
      request: async (s) => {
        const dated = await createFieldSet(t.app, auth.owner, { name: 'Public dating', publicPimFieldSet: true, fields: [field('Date', 'date')] });
        return get(`/api/pim/siamese/dateestimate?imageUuid=${s.imageId}&dateField=${dated.fields.find((f) => f.name === 'Date')!.id}`)();
      },
    },
    'GET /api/pim/siamese/models/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/siamese/models/autocomplete') },
    'GET /api/pim/siamese/{model}/metadatafields/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/siamese/builtin/metadatafields/autocomplete') },
    'GET /api/pim/siamese/{model}/{field}/metadataFieldValues/autocomplete': {
      rule: { kind: 'signedIn' },
      request: (s) => get(`/api/pim/siamese/builtin/${s.fieldSet.fields[0]!.id}/metadataFieldValues/autocomplete`)(),
    },
    'GET /api/pim/siamese/{model}/imagesets/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/siamese/builtin/imagesets/autocomplete') },
    'GET /api/pim/siamese/{model}/{imageset}/images/autocomplete': {
      rule: { kind: 'set', permission: 'READ' },
      request: (s) => get(`/api/pim/siamese/builtin/${s.setId}/images/autocomplete`)(),
    },
    'GET /api/pim/siameseconfusionmatrix': { rule: { kind: 'signedIn' }, request: get('/api/pim/siameseconfusionmatrix') },
    'GET /api/pim/siameseconfusionmatrix/{uuid}': {
      rule: { kind: 'set', permission: 'READ' },
      request: (s) => get(`/api/pim/siameseconfusionmatrix/${s.confusionMatrixId}`)(),
    },

    // Search indices
    'GET /api/pim/elasticsearchindex': { rule: { kind: 'signedIn' }, request: get('/api/pim/elasticsearchindex') },
    'GET /api/pim/elasticsearchindex/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/elasticsearchindex/autocomplete') },
    'GET /api/pim/elasticsearchindex/{uuid}': { rule: { kind: 'signedIn' }, request: () => get(`/api/pim/elasticsearchindex/${searchIndexId}`)() },
    'GET /api/pim/elasticsearchindex/{uuid}/documentimagesets': {
      // Lists only the sets the caller may read.
      rule: { kind: 'signedIn' },
      request: () => get(`/api/pim/elasticsearchindex/${searchIndexId}/documentimagesets`)(),
    },
    'POST /api/pim/elasticsearchindex': {
      rule: { kind: 'admin' },
      request: () => ({ method: 'POST', url: '/api/pim/elasticsearchindex', payload: { name: `matrix-${randomUUID()}` } }),
    },
    'PUT /api/pim/elasticsearchindex/{uuid}': {
      rule: { kind: 'admin' },
      request: () => ({ method: 'PUT', url: `/api/pim/elasticsearchindex/${searchIndexId}`, payload: { name: 'matrix-index' } }),
    },

    // Configurations and environments (server settings)
    'GET /api/pim/configuration/index': { rule: { kind: 'admin' }, request: get('/api/pim/configuration/index') },
    'GET /api/pim/configuration/{id}': { rule: { kind: 'admin' }, request: async () => get(`/api/pim/configuration/${(await newConfiguration()).uuid}`)() },
    'POST /api/pim/configuration/create': {
      rule: { kind: 'admin' },
      request: () => ({ method: 'POST', url: '/api/pim/configuration/create', payload: { key: `matrix.${randomUUID()}`, value: 'v' } }),
    },
    'PUT /api/pim/configuration/{uuid}': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'PUT', url: `/api/pim/configuration/${(await newConfiguration()).uuid}`, payload: { key: `matrix.${randomUUID()}`, value: 'w' } }),
    },
    'DELETE /api/pim/configuration/{uuid}': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'DELETE', url: `/api/pim/configuration/${(await newConfiguration()).uuid}` }),
    },
    'GET /api/pim/environment': { rule: { kind: 'admin' }, request: get('/api/pim/environment') },
    'GET /api/pim/environment/{uuid}': { rule: { kind: 'admin' }, request: async () => get(`/api/pim/environment/${(await newEnvironment()).uuid}`)() },
    'POST /api/pim/environment': {
      rule: { kind: 'admin' },
      request: () => ({ method: 'POST', url: '/api/pim/environment', payload: { title: 'Matrix', path: `m-${randomUUID()}` } }),
    },
    'PUT /api/pim/environment/{uuid}': {
      rule: { kind: 'admin' },
      request: async () => ({ method: 'PUT', url: `/api/pim/environment/${(await newEnvironment()).uuid}`, payload: { title: 'Matrix 2', path: `m-${randomUUID()}` } }),
    },

    // Field sets and metadata
    'GET /api/pim/pimfieldset': { rule: { kind: 'signedIn' }, request: get('/api/pim/pimfieldset') },
    'GET /api/pim/pimfieldset/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/pimfieldset/autocomplete') },
    'POST /api/pim/pimfieldset/create': {
      rule: { kind: 'creator' },
      request: () => ({ method: 'POST', url: '/api/pim/pimfieldset/create', payload: { ...newPimFieldSet(), name: 'Matrix fields' } }),
    },
    'GET /api/pim/pimfieldset/{uuid}': { rule: { kind: 'ownedPrivate' }, request: (s) => get(`/api/pim/pimfieldset/${s.fieldSet.uuid}`)() },
    'GET /api/pim/pimfieldset/{uuid}/pimfields/autocomplete': {
      rule: { kind: 'ownedPrivate' },
      request: (s) => get(`/api/pim/pimfieldset/${s.fieldSet.uuid}/pimfields/autocomplete`)(),
    },
    'POST /api/pim/pimfieldset/{uuid}/update': {
      rule: { kind: 'ownedPrivate' },
      request: (s) => ({ method: 'POST', url: `/api/pim/pimfieldset/${s.fieldSet.uuid}/update`, payload: s.fieldSet }),
    },
    'DELETE /api/pim/pimfieldset/{uuid}': {
      rule: { kind: 'ownedPrivate' },
      request: (s) => ({ method: 'DELETE', url: `/api/pim/pimfieldset/${s.fieldSet.uuid}` }),
      fresh: true,
    },
    'GET /api/pim/metadata/fieldtypes': { rule: { kind: 'signedIn' }, request: get('/api/pim/metadata/fieldtypes') },
    'GET /api/pim/metadata/getFields': { rule: { kind: 'ownedPrivate' }, request: (s) => get(`/api/pim/metadata/getFields?id=${s.fieldSet.uuid}`)() },
    'POST /api/pim/metadata/create': {
      // The fields of a set the caller may not see are unknown fields of the request.
      rule: { kind: 'ownedPrivate', hidden: 400 },
      request: (s) => ({ method: 'POST', url: '/api/pim/metadata/create', payload: metadataValues(s, 'https://example.org/iiif/page-1') }),
    },
    'GET /api/pim/metadata/get': {
      rule: { kind: 'ownedPrivate' },
      request: (s) => get(`/api/pim/metadata/get?uri=${encodeURIComponent('https://example.org/iiif/page-1')}&fieldsetid=${s.fieldSet.uuid}`)(),
    },
    'GET /api/pim/metadata/{uri}/{fieldsetid}': {
      rule: { kind: 'ownedPrivate' },
      request: (s) => get(`/api/pim/metadata/${encodeURIComponent('https://example.org/manifest.json')}/${s.fieldSet.uuid}`)(),
    },
    'GET /api/pim/metadata/{uri}/{fieldsetid}/export': {
      rule: { kind: 'ownedPrivate' },
      request: (s) => get(`/api/pim/metadata/${encodeURIComponent('https://example.org/manifest.json')}/${s.fieldSet.uuid}/export`)(),
    },
    'GET /api/pim/metadata/annotateddatasets': { rule: { kind: 'signedIn' }, request: get('/api/pim/metadata/annotateddatasets') },
    'GET /api/pim/metadata/annotateddatasets/{datasetUri}': {
      rule: { kind: 'signedIn' },
      request: () => get(`/api/pim/metadata/annotateddatasets/${encodeURIComponent('https://example.org/manifest.json')}`)(),
    },

    ...modelRules(),
    ...jobRules(),
    ...workerRules(),
  };

  /**
   * The worker calls: API keys with the MINION role (the matrix's plain API key) and
   * administrators; every other signed-in caller 403. Each request holds a job of its own,
   * claimed through the queue, so the lease it names is valid.
   */
  function workerRules(): Record<string, Entry> {
    const worker: Rule = { kind: 'special', expect: (a) => (a === 'anonymous' ? 401 : a === 'API key' || isAdminActor(a) ? 'ok' : 403) };
    const held = async (s: Scenario, type: JobType = 'FrogNer', settings: Record<string, unknown> = {}) => {
      const queue = t.app.services.jobQueue;
      await queue.enqueue({ type, priority: 50, settings: { jobType: type, ...settings }, setId: s.setId, ownerId: people.owner.userId, apiKeyId: null });
      const run = (await queue.claim([type], { name: 'matrix', host: null, versions: {} }))!;
      return { uuid: run.row.uuid, leaseToken: run.leaseToken };
    };
    let krakenModel: Promise<string> | undefined;
    const json = (action: string, body: (leaseToken: string) => object) => async (s: Scenario): Promise<Request> => {
      const job = await held(s);
      return { method: 'POST', url: `/api/pim/workers/jobs/${job.uuid}/${action}`, payload: body(job.leaseToken) };
    };
    return {
      'POST /api/pim/workers/claim': {
        rule: worker,
        request: () => ({ method: 'POST', url: '/api/pim/workers/claim', payload: { worker: { name: 'matrix' }, types: ['ElasticSearchRemoveIndex'] } }),
      },
      'POST /api/pim/workers/jobs/{uuid}/heartbeat': { rule: worker, request: json('heartbeat', (leaseToken) => ({ leaseToken })) },
      'POST /api/pim/workers/jobs/{uuid}/complete': { rule: worker, request: json('complete', (leaseToken) => ({ leaseToken })) },
      'POST /api/pim/workers/jobs/{uuid}/fail': { rule: worker, request: json('fail', (leaseToken) => ({ leaseToken, message: 'matrix' })) },
      'POST /api/pim/workers/jobs/{uuid}/release': { rule: worker, request: json('release', (leaseToken) => ({ leaseToken })) },
      'GET /api/pim/workers/jobs/{uuid}/images/{imageId}': {
        rule: worker,
        request: async (s) => {
          const job = await held(s);
          return get(`/api/pim/workers/jobs/${job.uuid}/images/${s.imageId}?leaseToken=${job.leaseToken}`)();
        },
      },
      'GET /api/pim/workers/jobs/{uuid}/models/{modelId}': {
        rule: worker,
        request: async (s) => {
          const model = await (krakenModel ??= createModel(t.app, auth.admin, 'kraken').then((res) => res.json.uuid as string));
          const job = await held(s, 'KrakenHocr', { imageSet: s.setId, krakenModel: model });
          return get(`/api/pim/workers/jobs/${job.uuid}/models/${model}?leaseToken=${job.leaseToken}`)();
        },
      },
      'POST /api/pim/workers/jobs/{uuid}/files': {
        rule: worker,
        request: async (s) => {
          const job = await held(s);
          const { payload, headers } = multipartBody([
            { name: 'leaseToken', value: job.leaseToken },
            { name: 'kind', value: 'output' },
            { name: 'file', fileName: 'out.txt', bytes: Buffer.from('matrix') },
          ]);
          return { method: 'POST', url: `/api/pim/workers/jobs/${job.uuid}/files`, payload, headers };
        },
      },
    };
  }

  /**
   * Jobs: everyone signed in lists and makes their own (a job on a set needs WRITE on it), sees and
   * acts on their own, admins on all; a MINION key (the matrix's plain API key) is a remote
   * worker's and is refused every call of people (403): it claims through the worker calls.
   */
  function jobRules(): Record<string, Entry> {
    const notMinion = (rule: Exclude<Rule, { kind: 'exempt' }>): Rule => ({ kind: 'special', expect: (a) => (a === 'API key' ? 403 : expected(rule, a)) });
    const ownJob: Rule = {
      kind: 'special',
      expect: (a) => (a === 'anonymous' ? 401 : a === 'API key' ? 403 : a === 'owner' || isAdminActor(a) ? 'ok' : 404),
    };
    const newJob = async (s: Scenario, payload: object = {}) =>
      (await ok(call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: auth.owner, payload: { imageSet: s.setId, jobType: 'GenerateManifests', ...payload } }), 'job')) as {
        id: number;
        uuid: string;
      };
    let doneJob: Promise<string> | undefined;
    // A job of a type nothing else here makes, so the claim takes this one: done, with a file.
    const withDownload = (s: Scenario) =>
      (doneJob ??= (async () => {
        const job = await newJob(s, { jobType: 'PipelineKB2' });
        const queue = t.app.services.jobQueue;
        const run = (await queue.claim(['PipelineKB2'], { name: 'matrix', host: null, versions: {} }))!;
        await queue.attachOutput(job.uuid, run.leaseToken, await t.app.services.files.stage(Buffer.from('epub')), { fileName: 'Set.epub', mediaType: 'application/epub+zip' });
        await queue.complete(job.uuid, run.leaseToken);
        return job.uuid;
      })());
    const subJob = async (s: Scenario, path: string, jobType: string) => {
      await newJob(s, { jobType });
      const records = (await ok(call(t.app, { method: 'GET', url: `/api/pim/${path}?onlyOwnData=true`, headers: auth.owner }), path)) as { uuid: string }[];
      return records[0]!.uuid;
    };
    const rules: Record<string, Entry> = {
      'GET /api/pim/jobs': { rule: notMinion({ kind: 'signedIn' }), request: get('/api/pim/jobs') },
      'GET /api/pim/jobs/types': { rule: notMinion({ kind: 'signedIn' }), request: get('/api/pim/jobs/types') },
      'POST /api/pim/jobs': {
        rule: notMinion({ kind: 'set', permission: 'WRITE' }),
        request: (s) => ({ method: 'POST', url: '/api/pim/jobs', payload: { imageSet: s.setId, jobType: 'GenerateManifests' } }),
      },
      'GET /api/pim/jobs/{id}': { rule: ownJob, request: async (s) => get(`/api/pim/jobs/${(await newJob(s)).id}`)() },
      'POST /api/pim/jobs/{id}/cancel': { rule: ownJob, request: async (s) => ({ method: 'POST', url: `/api/pim/jobs/${(await newJob(s)).uuid}/cancel` }) },
      'POST /api/pim/jobs/{id}/restart': {
        rule: ownJob,
        request: async (s) => {
          const job = await newJob(s);
          await ok(call(t.app, { method: 'POST', url: `/api/pim/jobs/${job.id}/cancel`, headers: auth.owner }), 'cancel');
          return { method: 'POST', url: `/api/pim/jobs/${job.id}/restart` };
        },
      },
      'GET /api/pim/jobs/download/{uuid}': { rule: ownJob, request: async (s) => get(`/api/pim/jobs/download/${await withDownload(s)}`)() },
    };
    for (const list of ['approxalg', 'outmode', 'linealg', 'loglevel']) {
      rules[`GET /api/pim/p2palajob/${list}`] = { rule: notMinion({ kind: 'signedIn' }), request: get(`/api/pim/p2palajob/${list}`) };
    }
    for (const [path, jobType] of [
      ['p2palajob', 'P2PaLA'],
      ['siamesejob', 'SiameseNetwork'],
    ] as const) {
      rules[`GET /api/pim/${path}`] = { rule: notMinion({ kind: 'signedIn' }), request: get(`/api/pim/${path}`) };
      rules[`POST /api/pim/${path}/{id}/cancel`] = {
        rule: ownJob,
        request: async (s) => ({ method: 'POST', url: `/api/pim/${path}/${await subJob(s, path, jobType)}/cancel` }),
      };
    }
    return rules;
  }

  /**
   * The models of every kind: admins create, delete and publish them; everyone signed in lists,
   * picks, reads and downloads what they may see. The Loghi HTR and Laypa models used here are
   * private models of the admin, so the scenario's owner is as much a stranger to them as anyone.
   */
  function modelRules(): Record<string, Entry> {
    const admins: Rule = { kind: 'admin' };
    const privateOfAdmin: Rule = { kind: 'special', expect: (a) => (a === 'anonymous' ? 401 : isAdminActor(a) ? 'ok' : 404) };
    const existing = new Map<ModelKind, Promise<string>>();
    const newModel = async (kind: ModelKind) => {
      const res = await createModel(t.app, auth.admin, kind);
      if (res.status !== 201) throw new Error(`model: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json.uuid as string;
    };
    const model = (kind: ModelKind) => existing.get(kind) ?? existing.set(kind, newModel(kind)).get(kind)!;
    const rules: Record<string, Entry> = {
      'GET /api/pim/language/autocomplete': { rule: { kind: 'signedIn' }, request: get('/api/pim/language/autocomplete?filter=lat') },
    };
    for (const kind of MODEL_KINDS) {
      const info = MODEL_KIND_INFO[kind];
      const base = `/api/${info.basePath}`;
      const seen = info.hasVisibility ? privateOfAdmin : ({ kind: 'signedIn' } as const);
      rules[`GET /api/${info.listPath}`] = { rule: { kind: 'signedIn' }, request: get(`/api/${info.listPath}`) };
      rules[`GET ${base}/autocomplete`] = { rule: { kind: 'signedIn' }, request: get(`${base}/autocomplete?filter=model`) };
      rules[`GET ${base}/{uuid}`] = { rule: seen, request: async () => get(`${base}/${await model(kind)}`)() };
      rules[`GET ${base}/{uuid}/binary`] = { rule: seen, request: async () => get(`${base}/${await model(kind)}/binary`)() };
      rules[`POST ${base}`] = {
        rule: admins,
        request: async () => {
          const { payload, headers } = createForm(kind, await modelFileFor(kind), { label: 'Matrix model', language: info.hasLanguage ? 'lat' : undefined });
          return { method: 'POST', url: base, payload, headers };
        },
      };
      rules[`DELETE ${base}/{uuid}`] = { rule: admins, request: async () => ({ method: 'DELETE', url: `${base}/${await newModel(kind)}` }) };
      if (!info.hasVisibility) continue;
      for (const action of ['makepublic', 'makeprivate']) {
        rules[`PUT ${base}/{uuid}/${action}`] = { rule: admins, request: async () => ({ method: 'PUT', url: `${base}/${await newModel(kind)}/${action}` }) };
      }
    }
    return rules;
  }

  beforeAll(async () => {
    t = await createTestApp();
    png = await testImage('png', 40, 30);
    people.owner = await signedInUser(t.app, { name: 'Owner' });
    people.admin = await signedInUser(t.app, { name: 'Admin', admin: true });
    people.readMember = await signedInUser(t.app, { name: 'Reader' });
    people.writeMember = await signedInUser(t.app, { name: 'Writer' });
    auth.owner = people.owner.auth;
    auth.admin = people.admin.auth;
    auth['READ member'] = people.readMember.auth;
    auth['WRITE member'] = people.writeMember.auth;
    auth['another user'] = (await signedInUser(t.app, { name: 'Stranger' })).auth;
    auth.anonymous = {};
    const key = async (roles: string[]) =>
      (await ok(asAdmin({ method: 'POST', url: '/api/pim/apikey', payload: { userName: `key ${roles.join()}`, roles } }), 'key')) as {
        apiKey: string;
      };
    auth['API key'] = { authorization: `ApiKey ${(await key(['MINION'])).apiKey}` };
    auth['admin API key'] = { authorization: `ApiKey ${(await key(['ADMIN'])).apiKey}` };

    readers = (await newGroup('Readers')).uuid;
    writers = (await newGroup('Writers')).uuid;
    spareGroup = (await newGroup('Spare')).uuid;
    for (const [group, user] of [
      [readers, people.readMember],
      [writers, people.writeMember],
    ] as const) {
      await ok(
        asAdmin({ method: 'PUT', url: `/api/pim/pimgroups/${group}/hierarchy/addmembership`, payload: { userId: user.userId, role: 'MEMBER' } }),
        'membership',
      );
    }
    searchIndexId = ((await ok(asAdmin({ method: 'POST', url: '/api/pim/elasticsearchindex', payload: { name: 'matrix-index' } }), 'index')) as {
      uuid: string;
    }).uuid;
    shared = await scenario();
  }, 120_000);
  afterAll(() => t?.close());

  async function documentedRoutes(): Promise<string[]> {
    const doc = (await call(t.app, { method: 'GET', url: '/api/openapi.json' })).json as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
  }

  it('has a rule, or a justified exemption, for every route of the OpenAPI document, and no rule for a route that is gone', async () => {
    const routes = await documentedRoutes();
    expect(routes.length).toBeGreaterThan(90);
    expect(routes.filter((r) => !(r in RULES)), 'routes without a rule').toEqual([]);
    expect(Object.keys(RULES).filter((r) => !routes.includes(r)), 'rules without a route').toEqual([]);
  });

  it('answers every caller of every route as the policy says', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of await documentedRoutes()) {
      const entry = RULES[route];
      if (!entry || entry.rule.kind === 'exempt' || !entry.request) continue;
      for (const actor of ACTORS) {
        const s = entry.fresh ? await scenario() : shared;
        const req = await entry.request(s);
        const res = await call(t.app, { ...req, headers: { ...(req.headers ?? {}), ...auth[actor] } } as InjectOptions);
        const want = expected(entry.rule, actor);
        const fine = want === 'ok' ? res.status < 400 : res.status === want;
        checked += 1;
        if (!fine) failures.push(`${route} as ${actor}: ${res.status}, expected ${want} (${res.res.body.slice(0, 160)})`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(600);
  }, 600_000);

  it('opens to anonymous readers, on a public and published set, exactly the routes whose rule says open', async () => {
    await ok(
      call(t.app, {
        method: 'POST',
        url: '/api/pim/documentimageset/update',
        headers: auth.owner,
        payload: { uuid: shared.publicSetId, imageset: 'Public set', publicDocumentImageSet: true, publish: true },
      }),
      'publish',
    );
    const open: Scenario = { ...shared, setId: shared.publicSetId, imageId: shared.publicImageId };
    const failures: string[] = [];
    let opened = 0;
    for (const route of await documentedRoutes()) {
      const entry = RULES[route];
      // Reading is all a published set opens; the other methods keep their rule (the matrix above).
      if (!route.startsWith('GET ') || !entry?.request || (entry.rule.kind !== 'set' && entry.rule.kind !== 'image')) continue;
      const req = await entry.request(open);
      const res = await call(t.app, { ...req } as InjectOptions);
      const fine = entry.rule.open ? res.status < 400 : res.status === 401;
      if (entry.rule.open) opened += 1;
      if (!fine) failures.push(`${route} as anonymous on a published set: ${res.status}, expected ${entry.rule.open ? 'ok' : 401}`);
    }
    expect(failures).toEqual([]);
    expect(opened).toBe(5);
  });

  it('refuses a disabled API key with 401 on every kind of route', async () => {
    const created = (await ok(asAdmin({ method: 'POST', url: '/api/pim/apikey', payload: { userName: 'soon off', roles: ['ADMIN'] } }), 'key')) as {
      uuid: string;
      apiKey: string;
    };
    await ok(asAdmin({ method: 'PUT', url: `/api/pim/apikey/${created.uuid}/disable` }), 'disable');
    const headers = { authorization: `ApiKey ${created.apiKey}` };
    for (const url of ['/api/pim/users', '/api/pim/documentimageset', `/api/pim/documentimageset/${shared.setId}`, `/iiif/3/${shared.imageId}/info.json`]) {
      const res = await call(t.app, { method: 'GET', url, headers });
      expect(res.status, url).toBe(401);
    }
  });
});
