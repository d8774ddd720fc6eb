import { randomUUID } from 'node:crypto';
import { DOCUMENT_IMAGE_SORTABLE } from '@pim/contract';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../platform/db/schema.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';
import { LABEL_CANDIDATES } from './set-page.js';

/** Rows made in SQL: the list must page a big set without loading it, and that needs a big set. */
const BULK = 1000;

describe('images of a set: GET pim/documentimageset/{uuid}/documentimages', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Olga' });
    setId = await createSet(t.app, owner.auth, 'Big');
    const first = await upload(t.app, owner.auth, setId, [{ fileName: 'seed.png', bytes: await testImage('png', 10, 10) }]);
    const seed = await t.app.database.db
      .selectFrom('document_image')
      .select('file_id')
      .where('id', '=', first.json.documentImages[0].uuid)
      .executeTakeFirstOrThrow();
    // Labels img 0001..img 1000; width 1000 + n; height 500 + n % 10; positions 1..1000 after the seed;
    // the analysis values with ties and nulls, for the sorts.
    await sql`
      insert into document_image (id, file_id, label, width, height, page_number, deskew_angle, column_count, lines_count, confidence, owner_id)
      select gen_random_uuid(), ${seed.file_id}::uuid, 'img ' || lpad(g::text, 4, '0'), 1000 + g, 500 + g % 10, g,
        case when g % 4 <> 0 then (g % 7) / 2.0 end, 1 + g % 3, case when g % 5 <> 0 then g % 40 end, case when g % 3 <> 0 then (g % 11) / 10.0 end,
        ${owner.userId}::uuid
      from generate_series(1, ${BULK}::int) g`.execute(t.app.database.db);
    await sql`
      insert into image_set_image (set_id, image_id, position)
      select ${setId}::uuid, id, page_number from document_image where label like 'img %'`.execute(t.app.database.db);
  });
  afterAll(() => t.close());

  const list = (query: string, who: { auth: Record<string, string> } | null = owner) =>
    call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}/documentimages${query}`, headers: who?.auth ?? {} });
  const labels = (res: { json: { results: { label: string }[] } }) => res.json.results.map((r) => r.label);

  it('pages in set order by default (10 a page)', async () => {
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.json.total).toBe(BULK + 1);
    expect(first.json.pageSize).toBe(10);
    expect(labels(first)).toEqual(['seed', ...Array.from({ length: 9 }, (_, i) => `img ${String(i + 1).padStart(4, '0')}`)]);
    expect(first.json.results[0]).toMatchObject({ pageorder: 1, uploader: { uuid: owner.userId, name: 'Olga' } });
    const later = await list('?page=50&pageSize=20');
    expect(labels(later)[0]).toBe('img 1000');
    expect(later.json.results[0].pageorder).toBe(1001);
    expect(later.json.results).toHaveLength(1);
    const past = await list('?page=99&pageSize=50');
    expect(past.json.results).toEqual([]);
    expect(past.json.total).toBe(BULK + 1);
  });

  it('sorts by a column either way', async () => {
    expect(labels(await list('?sort=width&desc=true&pageSize=20')).slice(0, 3)).toEqual(['img 1000', 'img 0999', 'img 0998']);
    expect(labels(await list('?sort=width&pageSize=20')).slice(0, 2)).toEqual(['seed', 'img 0001']);
    expect(labels(await list('?sort=label&desc=true')).at(0)).toBe('seed');
    expect(labels(await list('?sort=pageorder&desc=true')).at(0)).toBe('img 1000');
  });

  it('filters by label and by width and height ranges, counting only the matches', async () => {
    const byLabel = await list('?label=IMG%2005&pageSize=50');
    expect(byLabel.json.total).toBe(100);
    expect(labels(byLabel).every((l) => l.startsWith('img 05'))).toBe(true);
    const ranged = await list('?minWidth=1100&maxWidth=1200&minHeight=503&maxHeight=503&pageSize=50');
    // n in 100..200 with n % 10 = 3.
    expect(ranged.json.total).toBe(10);
    expect(labels(ranged)[0]).toBe('img 0103');
  });

  it('pages every sort either way in one order, ties by id, from the first page or backwards from the last', async () => {
    const ids = (res: { json: { results: { uuid: string }[] } }) => res.json.results.map((r) => r.uuid);
    for (const sort of DOCUMENT_IMAGE_SORTABLE) {
      for (const desc of [false, true]) {
        const expected = await imagesInOrder(t.app.database.db, setId, sort, desc);
        const all = [];
        for (let page = 0; page * 500 < BULK + 1; page += 1) all.push(...ids(await list(`?sort=${sort}&desc=${desc}&pageSize=500&page=${page}`)));
        expect(all, `${sort}${desc ? ' desc' : ''}`).toEqual(expected);
        // Pages before the middle are read forwards, those after it backwards from the last.
        for (const page of [1, 49, 51, 99, 100]) {
          expect(ids(await list(`?sort=${sort}&desc=${desc}&pageSize=10&page=${page}`)), `${sort} page ${page}`).toEqual(expected.slice(page * 10, page * 10 + 10));
        }
      }
    }
  });

  it('counts and pages filtered images alike, few or many, from either end', async () => {
    const cases = [
      ['minWidth=1100&maxWidth=1120', (n: number) => n >= 100 && n <= 120],
      ['minHeight=505', (n: number) => n % 10 >= 5],
      ['label=IMG%200&maxWidth=1500&minHeight=502', (n: number) => n <= 500 && n % 10 >= 2],
    ] as const;
    for (const [filter, matches] of cases) {
      const expected = Array.from({ length: BULK }, (_, i) => `img ${String(i + 1).padStart(4, '0')}`).filter((_, i) => matches(i + 1));
      for (const sort of ['label', 'height'] as const) {
        const ordered = sort === 'label' ? expected : [...expected].sort((a, b) => (Number(a.slice(4)) % 10) - (Number(b.slice(4)) % 10));
        const first = await list(`?${filter}&sort=${sort}&pageSize=10`);
        expect(first.json.total, filter).toBe(expected.length);
        if (sort === 'label') expect(labels(first)).toEqual(ordered.slice(0, 10));
        const lastPage = Math.ceil(expected.length / 10) - 1;
        const last = await list(`?${filter}&sort=${sort}&pageSize=10&page=${lastPage}`);
        expect(last.json.total).toBe(expected.length);
        expect(last.json.results).toHaveLength(expected.length - lastPage * 10);
        if (sort === 'label') expect(labels(last)).toEqual(ordered.slice(lastPage * 10));
        else expect(labels(last).every((l) => expected.includes(l))).toBe(true);
      }
    }
    // A filter every image passes pages as no filter does.
    const everyImage = await list('?minWidth=1&sort=width&page=60');
    expect(everyImage.json.total).toBe(BULK + 1);
    expect(labels(everyImage)).toEqual(labels(await list('?sort=width&page=60')));
  });

  it('keeps each image\'s sort keys in the set as the image changes, joins and leaves', async () => {
    const db = t.app.database.db;
    await sql`update document_image set label = 'renamed', width = 5000 where label = 'img 0007'`.execute(db);
    expect(labels(await list('?sort=width&desc=true')).at(0)).toBe('renamed');
    expect((await list('?label=img%200007')).json.total).toBe(0);
    expect(labels(await list('?label=RENAMED'))).toEqual(['renamed']);
    const renamed = (await list('?label=renamed')).json.results[0].uuid;
    const other = await createSet(t.app, owner.auth, 'Other');
    await call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${other}/documentimages`, headers: owner.auth, payload: { uuid: renamed } });
    const otherList = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${other}/documentimages?minWidth=4000`, headers: owner.auth });
    expect(otherList.json).toMatchObject({ total: 1, results: [{ label: 'renamed', width: 5000 }] });
    await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${setId}/documentimages`, headers: owner.auth, payload: { uuid: renamed } });
    expect((await list('')).json.total).toBe(BULK);
    expect((await list('?label=renamed')).json.total).toBe(0);
  });

  it("counts a filter's matches again once the set's images change, though the count was kept for the next page", async () => {
    const db = t.app.database.db;
    const nineHundreds = async () => (await list('?label=img%2009&pageSize=20&page=2')).json.total;
    expect(await nineHundreds()).toBe(100);
    expect(await nineHundreds()).toBe(100);
    const added = await upload(t.app, owner.auth, setId, [{ fileName: 'img 09 extra.png', bytes: await testImage('png', 10, 10) }]);
    expect(added.status).toBe(200);
    expect(await nineHundreds()).toBe(101);
    await sql`update document_image set label = 'img 1901' where label = 'img 0901'`.execute(db);
    expect(await nineHundreds()).toBe(100);
    await sql`delete from image_set_image where set_id = ${setId}::uuid and image_id = (select id from document_image where label = 'img 0902')`.execute(db);
    expect(await nineHundreds()).toBe(99);
    const wide = async () => (await list('?minWidth=1995')).json.total;
    expect(await wide()).toBe(6);
    await sql`update document_image set width = 900 where label = 'img 0999'`.execute(db);
    expect(await wide()).toBe(5);
  });

  it('refuses bad queries with 400 and unknown or hidden sets with 404', async () => {
    const badSize = await list('?pageSize=7');
    expect(badSize.status).toBe(400);
    expect(badSize.json.message).toContain('pageSize must be 10, 20, 30, 40, 50 or 500');
    expect((await list('?sort=nonsense')).status).toBe(400);
    const stranger = await signedInUser(t.app);
    expect((await list('', stranger)).status).toBe(404);
    expect((await list('', null)).status).toBe(401);
    const unknown = await call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${randomUUID()}/documentimages`, headers: owner.auth });
    expect(unknown.status).toBe(404);
    const malformed = await call(t.app, { method: 'GET', url: '/api/pim/documentimageset/x/documentimages', headers: owner.auth });
    expect(malformed.status).toBe(400);
    const admin = await signedInUser(t.app, { admin: true });
    expect((await list('', admin)).status).toBe(200);
  });
});

/** Labels with LIKE's own characters (%, _ and the backslash) and mixed case: the filter must match them as written. */
const SPECIAL_LABELS = ['Scan 100%_done', 'scan 100x done', 'Back\\Slash', 'back-slash', 'MiXeD Case', 'under_score'];

/** Filters and the labels they match. */
const LABEL_FILTERS: [string, string[]][] = [
  ['100%', ['Scan 100%_done']],
  ['%_D', ['Scan 100%_done']],
  ['%', ['Scan 100%_done']],
  ['_', ['Scan 100%_done', 'under_score']],
  ['\\', ['Back\\Slash']],
  ['mixed CASE', ['MiXeD Case']],
  ['SLASH', ['Back\\Slash', 'back-slash']],
  ['SCAN 100', ['Scan 100%_done', 'scan 100x done']],
  ['zz%not_there', []],
];

// A set larger than LABEL_CANDIDATES looks labels up in the trigram index first; a smaller one
// reads its own rows. The same filter must find the same images either way.
describe.each([
  { name: 'a small set', bulk: 200 },
  { name: 'a set larger than the trigram look-up', bulk: LABEL_CANDIDATES + 100 },
])('the label filter of $name', ({ bulk }) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    setId = await createSet(t.app, owner.auth, 'Labels');
    const otherSet = await createSet(t.app, owner.auth, 'Elsewhere');
    const uploaded = await upload(t.app, owner.auth, setId, [{ fileName: 'seed.png', bytes: await testImage('png', 10, 10) }]);
    const db = t.app.database.db;
    const seed = await db.selectFrom('document_image').select('file_id').where('id', '=', uploaded.json.documentImages[0].uuid).executeTakeFirstOrThrow();
    const labels = [...SPECIAL_LABELS, ...Array.from({ length: bulk }, (_, i) => `img ${i}`)];
    await sql`
      insert into document_image (id, file_id, label, width, height, owner_id)
      select gen_random_uuid(), ${seed.file_id}::uuid, l, 100, 100, ${owner.userId}::uuid from unnest(${labels}::text[]) as l`.execute(db);
    await sql`insert into image_set_image (set_id, image_id, position) select ${setId}::uuid, id, 1 from document_image where label <> 'seed'`.execute(db);
    // The same labels in another set must not count here.
    await sql`
      insert into document_image (id, file_id, label, width, height, owner_id)
      select gen_random_uuid(), ${seed.file_id}::uuid, l || ' elsewhere', 100, 100, ${owner.userId}::uuid from unnest(${SPECIAL_LABELS}::text[]) as l`.execute(db);
    await sql`insert into image_set_image (set_id, image_id, position) select ${otherSet}::uuid, id, 1 from document_image where label like '% elsewhere'`.execute(db);
  });
  afterAll(() => t.close());

  const list = (query: Record<string, string>) =>
    call(t.app, { method: 'GET', url: `/api/pim/documentimageset/${setId}/documentimages?${new URLSearchParams({ sort: 'label', pageSize: '50', ...query })}`, headers: owner.auth });

  it.each(LABEL_FILTERS)('"%s" matches as written, in any case', async (label, expected) => {
    const res = await list({ label });
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(expected.length);
    expect(res.json.results.map((r: { label: string }) => r.label).sort()).toEqual([...expected].sort());
  });

  it('finds the same once the tables are analysed, when a common label skips the trigram look-up', async () => {
    await sql`analyze image_set_image`.execute(t.app.database.db);
    for (const [label, expected] of LABEL_FILTERS) expect((await list({ label })).json.total, label).toBe(expected.length);
    expect((await list({ label: 'IMG ' })).json.total).toBe(bulk);
    expect((await list({ label: 'img 1' })).json.total).toBe(Array.from({ length: bulk }, (_, i) => `img ${i}`).filter((l) => l.includes('img 1')).length);
  });

  it('counts a label common to most images and pages it from either end', async () => {
    const first = await list({ label: 'IMG ' });
    expect(first.json.total).toBe(bulk);
    const lastPage = Math.ceil(bulk / 50) - 1;
    const last = await list({ label: 'IMG ', page: String(lastPage), desc: 'true' });
    expect(last.json.results).toHaveLength(bulk - lastPage * 50);
    expect(last.json.results.at(-1).label).toBe('img 0');
  });
});

/** The set's image ids in the order the sort gives them, as read from the images themselves. */
async function imagesInOrder(db: Kysely<DB>, setId: string, sort: (typeof DOCUMENT_IMAGE_SORTABLE)[number], desc: boolean): Promise<string[]> {
  const columns = {
    pageorder: 'm.position',
    label: 'd.label',
    created: 'd.created_at',
    updated: 'd.updated_at',
    height: 'd.height',
    width: 'd.width',
    pagenumber: 'd.page_number',
    deskewAngle: 'd.deskew_angle',
    columnCount: 'd.column_count',
    linesCount: 'd.lines_count',
    confidence: 'd.confidence',
  };
  const direction = desc ? sql`desc` : sql`asc`;
  const { rows } = await sql<{ id: string }>`
    select d.id from document_image d join image_set_image m on m.image_id = d.id and m.set_id = ${setId}::uuid
    order by ${sql.ref(columns[sort])} ${direction}, d.id ${direction}`.execute(db);
  return rows.map((r) => r.id);
}
