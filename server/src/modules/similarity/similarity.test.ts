import type { CompareImagesResponse, ConfusionMatrix, ConfusionMatrixSummary, DateEstimate, Job, PimFieldSet, SiameseSnippetResult, SimilarityModel } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siameseNetwork } from '../../jobs/executors/siamese-network.js';
import { charterLines, SLANTED_HAND, UPRIGHT_HAND, uploadHandPage, type Hand } from '../../test-support/hands.js';
import { waitForJob } from '../../test-support/jobs.js';
import { createFieldSet, field, saveMetadata } from '../../test-support/metadata.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet } from '../../test-support/upload-files.js';
import { imageServiceUrl, setManifestUrl } from '../iiif/links.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

describe('similarity search and dating', () => {
  let t: TestApp;
  let owner: User;
  let stranger: User;
  let fields: PimFieldSet;
  const sets: Record<string, string> = {};
  const pages: Record<string, { imageId: string; lineIds: string[] }> = {};
  const fieldId = (name: string) => fields.fields.find((f) => f.name === name)!.id;
  const handOf = (imageId: string) => Object.entries(pages).find(([, p]) => p.imageId === imageId)![0].split('-')[0];

  const get = async (user: User, url: string) => call(t.app, { method: 'GET', url: `/api/pim/${url}`, headers: user.auth });
  const post = async (user: User, url: string, payload: unknown) => call(t.app, { method: 'POST', url: `/api/pim/${url}`, headers: user.auth, payload: payload as object });

  async function runJob(user: User, setId: string, extra: Record<string, unknown> = {}): Promise<Job> {
    const created = await post(user, 'jobs', { jobType: 'SiameseNetwork', imageSet: setId, ...extra });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    return waitForJob(t.app, user.auth, (created.json as Job).uuid, (j) => j.state === 'done' || j.state === 'failed');
  }

  async function page(user: User, set: string, name: string, hand: Hand, n: number, values: Record<string, string> = {}) {
    pages[name] = await uploadHandPage(t.app, user.auth, sets[set]!, name, hand, charterLines(n));
    const res = await saveMetadata(t.app, user.auth, fields, {
      uri: imageServiceUrl(t.links, pages[name]!.imageId),
      datasetUri: setManifestUrl(t.links, sets[set]!),
      ...values,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp({}, { executors: { SiameseNetwork: siameseNetwork } });
    owner = await signedInUser(t.app, { name: 'Palaeographer' });
    stranger = await signedInUser(t.app, { name: 'Stranger' });
    fields = await createFieldSet(t.app, owner.auth, {
      name: 'Dating',
      publicPimFieldSet: true,
      fields: [field('Date', 'date'), field('Script', 'script'), field('Scribe', 'text')],
    });
    for (const name of ['Evora', 'Santarem', 'Undated']) sets[name] = await createSet(t.app, owner.auth, name);
    sets.Private = await createSet(t.app, stranger.auth, 'Private');
    await page(owner, 'Evora', 'upright-1', UPRIGHT_HAND, 1, { Date: '1218-05-01', Script: 'Textualis', Scribe: 'upright' });
    await page(owner, 'Evora', 'upright-2', UPRIGHT_HAND, 2, { Date: '1220-01-01', Script: 'Textualis', Scribe: 'upright' });
    await page(owner, 'Santarem', 'slanted-1', SLANTED_HAND, 3, { Date: '1347-03-01', Script: 'Cursiva', Scribe: 'slanted' });
    await page(owner, 'Santarem', 'slanted-2', SLANTED_HAND, 4, { Date: '1350-01-01', Script: 'Cursiva', Scribe: 'slanted' });
    await page(owner, 'Undated', 'upright-undated', UPRIGHT_HAND, 5);
    pages['upright-private'] = await uploadHandPage(t.app, stranger.auth, sets.Private, 'upright-private', UPRIGHT_HAND, charterLines(6));
  });
  afterAll(() => t.close());

  it('a SiameseNetwork job cuts every outlined line into a tagged snippet and ends with a confusion matrix', async () => {
    const evora = await runJob(owner, sets.Evora!, { pimFieldSiameseLabel: fieldId('Scribe') });
    expect(evora.state, evora.error ?? '').toBe('done');
    expect(evora.result).toMatchObject({ model: 'builtin', images: 2, snippets: 10, imagesWithoutLines: 0 });
    expect(evora.result.confusionMatrix).toMatch(/fewer than two values/);
    for (const set of ['Santarem', 'Undated']) expect((await runJob(owner, sets[set]!)).state).toBe('done');
    expect((await runJob(stranger, sets.Private!)).state).toBe('done');

    const both = await runJob(owner, sets.Santarem!, { pimFieldSiameseLabel: fieldId('Scribe') });
    expect(both.result).toMatchObject({ snippets: 10 });
    const listed = (await get(owner, 'siameseconfusionmatrix')).json as ConfusionMatrixSummary[];
    // One set, one scribe: still fewer than two labels. Label Evora and Santarem together through a parent set.
    expect(listed).toEqual([]);
    const parent = await createSet(t.app, owner.auth, 'Charters');
    for (const child of [sets.Evora, sets.Santarem]) {
      const res = await call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${parent}/subsets`, headers: owner.auth, payload: { uuid: child } });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    const labelled = await runJob(owner, parent, { pimFieldSiameseLabel: fieldId('Scribe') });
    expect(labelled.state, labelled.error ?? '').toBe('done');
    const matrices = (await get(owner, 'siameseconfusionmatrix')).json as ConfusionMatrixSummary[];
    expect(matrices).toHaveLength(1);
    expect(matrices[0]).toMatchObject({ model: 'builtin', modelLabel: 'Built-in handwriting descriptor', imageSet: { uuid: parent, name: 'Charters' }, snippets: 20 });
    const detail = (await get(owner, `siameseconfusionmatrix/${matrices[0]!.uuid}`)).json as ConfusionMatrix;
    expect(detail.labels).toEqual(['slanted', 'upright']);
    expect(detail.matrix.flat().reduce((a, b) => a + b, 0)).toBe(20);
    expect(detail.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(detail.report).toMatch(/precision\s+recall\s+f1-score\s+support/);
    expect(detail.report).toMatch(/accuracy/);
    // Someone who may not read the set sees neither the list entry nor the matrix.
    expect((await get(stranger, 'siameseconfusionmatrix')).json).toEqual([]);
    expect((await get(stranger, `siameseconfusionmatrix/${detail.uuid}`)).status).toBe(404);
  });

  it('lists the models with the snippets each caller may read, and the distance algorithms', async () => {
    expect((await get(owner, 'siamese/models')).json as SimilarityModel[]).toEqual([{ id: 'builtin', label: 'Built-in handwriting descriptor', snippets: 25, dimensions: expect.any(Number) }]);
    expect(((await get(stranger, 'siamese/models')).json as SimilarityModel[])[0]).toMatchObject({ id: 'builtin', snippets: 5 });
    expect((await get(owner, 'siamese/distancealgorithms')).json).toEqual(['Euclidean', 'Taxicab', 'Chebyshev', 'Cosine']);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/siamese/models' })).status).toBe(401);
  });

  it('finds the nearest snippets of a line: the same hand first, never the line itself or what the caller may not read', async () => {
    const line = pages['upright-1']!.lineIds[0]!;
    const [snippet] = (await post(owner, 'siamese/findByModel', { model: 'builtin', imageUuid: pages['upright-1']!.imageId })).json as SiameseSnippetResult[];
    expect(snippet).toMatchObject({ documentOCRResultLineUUID: line, distance: 0, tag: 'upright', imageLocation: `pim/pimsimpletextline/${line}/image` });
    const found = (await get(owner, `siamese/find?id=${snippet!.uuid}&model=builtin`)).json as SiameseSnippetResult[];
    expect(found).toHaveLength(24);
    expect(found.map((f) => f.uuid)).not.toContain(snippet!.uuid);
    expect(found.map((f) => f.documentImageId)).not.toContain(pages['upright-private']!.imageId);
    expect(found.map((f) => f.distance)).toEqual([...found.map((f) => f.distance)].sort((a, b) => a - b));
    const nearestHands = found.slice(0, 10).map((f) => handOf(f.documentImageId));
    expect(nearestHands.filter((h) => h === 'upright').length).toBeGreaterThanOrEqual(9);

    const cosine = (await get(owner, `siamese/findsinglenew?uuid=${snippet!.uuid}&model=builtin&usecosine=true&features=1..20`)).json as SiameseSnippetResult[];
    for (const f of cosine) expect(f.distance).toBeCloseTo(1 - f.cosineFromTarget!, 5);
    const bad = await get(owner, `siamese/findsinglenew?uuid=${snippet!.uuid}&model=builtin&features=0..300`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/Features are 1-based numbers or ranges/);
    // Another person's snippet is missing to the owner, and theirs to them.
    const [theirs] = (await post(stranger, 'siamese/findByModel', { model: 'builtin', imageUuid: pages['upright-private']!.imageId })).json as SiameseSnippetResult[];
    expect((await get(owner, `siamese/find?id=${theirs!.uuid}&model=builtin`)).status).toBe(404);
    expect((await get(stranger, `siamese/find?id=${snippet!.uuid}&model=builtin`)).status).toBe(404);
    expect((await post(stranger, 'siamese/findByModel', { model: 'builtin', imageUuid: pages['upright-1']!.imageId })).status).toBe(404);
  });

  it('filters by set, by metadata value and by leaving out the same image or set', async () => {
    const [example] = (await post(owner, 'siamese/findByModel', { model: 'builtin', imageUuid: pages['upright-1']!.imageId })).json as SiameseSnippetResult[];
    const body = { model: 'builtin', exampleUuid: example!.uuid };
    const ids = async (extra: object) =>
      ((await post(owner, 'siamese/findsinglenewmetadata', { ...body, ...extra })).json as SiameseSnippetResult[]).map((f) => f.documentImageId);
    expect(new Set(await ids({ onlyDifferentImages: true }))).not.toContain(pages['upright-1']!.imageId);
    const otherSets = new Set(await ids({ onlyDifferentImageSets: true }));
    expect(otherSets).not.toContain(pages['upright-2']!.imageId);
    expect(otherSets).toContain(pages['upright-undated']!.imageId);
    expect(new Set(await ids({ imageSetUuid: sets.Santarem }))).toEqual(new Set([pages['slanted-1']!.imageId, pages['slanted-2']!.imageId]));
    expect(new Set(await ids({ pimField: fieldId('Script'), pimFieldValue: 'Cursiva' }))).toEqual(new Set([pages['slanted-1']!.imageId, pages['slanted-2']!.imageId]));
    const values = (await get(owner, `siamese/builtin/${fieldId('Script')}/metadataFieldValues/autocomplete`)).json as { results: { name: string }[] };
    expect(values.results.map((v) => v.name)).toEqual(['Cursiva', 'Textualis']);
    const setsWith = (await get(owner, 'siamese/builtin/imagesets/autocomplete?filter=an')).json as { results: { name: string }[] };
    expect(setsWith.results.map((s) => s.name)).toEqual(['Santarem']);
    const images = (await get(owner, `siamese/builtin/${sets.Evora}/images/autocomplete`)).json as { results: { name: string }[] };
    expect(images.results.map((i) => i.name)).toEqual(['upright-1', 'upright-2']);
    expect((await post(owner, 'siamese/findsinglenewmetadata', { model: 'builtin' })).status).toBe(400);
    expect((await post(owner, 'siamese/findsinglenewmetadata', { ...body, imageSetUuid: sets.Private })).status).toBe(404);
    expect((await post(owner, 'siamese/findsinglenewmetadata', { ...body, distanceAlgorithm: 'Hamming' })).status).toBe(400);
  });

  it('compares images: the same hand is nearer than another, and ranks the images of the sets', async () => {
    const compare = async (a: string, b: string) =>
      (await post(owner, 'siamese/compareimagesnippets', { model: 'builtin', imageUuid: pages[a]!.imageId, exampleUuid: pages[b]!.imageId })).json as CompareImagesResponse;
    const same = await compare('upright-undated', 'upright-1');
    const other = await compare('upright-undated', 'slanted-1');
    expect(same.pairs).toHaveLength(5);
    expect(same.pairs.every((p) => p.match.documentImageId === pages['upright-1']!.imageId)).toBe(true);
    expect(same.distance!).toBeLessThan(other.distance!);

    const ranked = (await post(owner, 'siamese/comparewithimageset', { model: 'builtin', imageUuid: pages['upright-undated']!.imageId })).json as SiameseSnippetResult[];
    expect(ranked.map((r) => handOf(r.documentImageId))).toEqual(['upright', 'upright', 'slanted', 'slanted']);
    const inSet = (await post(owner, 'siamese/comparewithimageset', { model: 'builtin', imageUuid: pages['upright-undated']!.imageId, imageSetUuid: sets.Santarem })).json as SiameseSnippetResult[];
    expect(inSet.map((r) => r.documentImageId).sort()).toEqual([pages['slanted-1']!.imageId, pages['slanted-2']!.imageId].sort());
  });

  it('dates an undated page from its dated neighbours, with an interval and the script', async () => {
    const q = `imageUuid=${pages['upright-undated']!.imageId}&model=builtin&dateField=${fieldId('Date')}&scriptField=${fieldId('Script')}`;
    const estimate = (await get(owner, `siamese/dateestimate?${q}`)).json as DateEstimate;
    expect(estimate.reason).toBeNull();
    expect(estimate.year).toBeGreaterThanOrEqual(1218);
    expect(estimate.year).toBeLessThanOrEqual(1220);
    expect(estimate.date).toBe(`${estimate.year}-07-01`);
    expect(estimate.from!).toBeLessThanOrEqual(estimate.year!);
    expect(estimate.to!).toBeGreaterThanOrEqual(estimate.year!);
    expect(estimate.script).toBe('Textualis');
    expect(estimate.neighbours.map((n) => n.documentImageId)).not.toContain(pages['upright-undated']!.imageId);
    expect(estimate.neighbours[0]!.weight).toBeGreaterThan(estimate.neighbours.at(-1)!.weight);

    // The stranger's only image has no dated neighbour they may read.
    const lonely = (await get(stranger, `siamese/dateestimate?imageUuid=${pages['upright-private']!.imageId}&dateField=${fieldId('Date')}`)).json as DateEstimate;
    expect(lonely).toMatchObject({ year: null, date: null, neighbours: [] });
    expect(lonely.reason).toMatch(/None of the similar images/);
    expect((await get(stranger, `siamese/dateestimate?${q}`)).status).toBe(404);
  });

  it('refuses unknown models, and sends training to a remote worker', async () => {
    const unknown = await get(owner, `siamese/validationsetnew?model=${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/There is no Siamese network model/);
    expect((await get(owner, 'siamese/validationsetnew?model=nonsense')).status).toBe(400);
    const labelledSet = (await get(owner, 'siamese/validationsetnew?model=builtin')).json as SiameseSnippetResult[];
    expect(labelledSet.slice(0, 2).map((s) => s.tag).sort()).toEqual(['slanted', 'upright']);

    const training = await post(owner, 'jobs', { jobType: 'SiameseNetwork', imageSet: sets.Evora, training: true });
    expect(training.status).toBe(200);
    // A job queued after it runs here; the training job still waits, for a remote worker.
    expect((await runJob(owner, sets.Undated!)).state).toBe('done');
    const row = await t.app.database.db.selectFrom('job').select(['remote_only', 'state']).where('uuid', '=', (training.json as Job).uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ remote_only: true, state: 'queued' });
    expect((training.json as Job).waitingFor).toMatch(/remote worker/);
  });

  it("reaches a set's images through its sub-sets only while the caller may read them", async () => {
    const gone = await createSet(t.app, owner.auth, 'Gone');
    const page = await uploadHandPage(t.app, owner.auth, gone, 'gone-1', SLANTED_HAND, charterLines(7));
    expect((await runJob(owner, gone)).state).toBe('done');
    const holder = await createSet(t.app, owner.auth, 'Holder');
    expect((await call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${holder}/subsets`, headers: owner.auth, payload: { uuid: gone } })).status).toBe(200);
    const imagesOf = async () =>
      new Set(((await post(owner, 'siamese/findByModel', { model: 'builtin', imageSetUuid: holder })).json as SiameseSnippetResult[]).map((s) => s.documentImageId));
    expect(await imagesOf()).toEqual(new Set([page.imageId]));
    const picked = (await get(owner, `siamese/builtin/${holder}/images/autocomplete`)).json as { results: { name: string }[] };
    expect(picked.results.map((i) => i.name)).toEqual(['gone-1']);

    expect((await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${gone}`, headers: owner.auth })).status).toBeLessThan(300);
    expect(await imagesOf()).toEqual(new Set());
    expect(((await get(owner, `siamese/builtin/${holder}/images/autocomplete`)).json as { results: unknown[] }).results).toEqual([]);
  });
});
