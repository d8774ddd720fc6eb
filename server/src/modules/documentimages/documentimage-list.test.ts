import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';

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
    // Labels img 0001..img 1000; width 1000 + n; height 500 + n % 10; positions 1..1000 after the seed.
    await sql`
      insert into document_image (id, file_id, label, width, height, page_number, owner_id)
      select gen_random_uuid(), ${seed.file_id}::uuid, 'img ' || lpad(g::text, 4, '0'), 1000 + g, 500 + g % 10, g, ${owner.userId}::uuid
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
