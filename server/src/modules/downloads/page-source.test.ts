import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip, validatePage } from '../../test-support/page-export.js';
import { pageWithGlyphs } from '../../test-support/page-files.js';
import { pageStructure } from '../../test-support/page-structure.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage, upload } from '../../test-support/upload-files.js';

type Layout = { regions: ({ lines: Record<string, unknown>[] } & Record<string, unknown>)[] } & Record<string, unknown>;

/**
 * A PAGE layout as imports stored it before words, glyphs, languages and the reading order were
 * kept: regions with id, type, coords and lines of id, coords, baseline and text only.
 */
function olderLayout(layout: Layout): unknown {
  return {
    page: layout.page,
    regions: layout.regions.map((r) => ({
      id: r.id,
      type: r.type,
      coords: r.coords,
      lines: r.lines.map((l) => ({ id: l.id, coords: l.coords, baseline: l.baseline, text: l.text })),
    })),
  };
}

describe('PAGE zip of transcriptions imported before words were kept', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  /** A set with one image and its PAGE transcription, its layout turned into the older shape by `change`. */
  async function olderImport(name: string, change: (layout: Layout) => unknown = olderLayout) {
    const setId = await createSet(t.app, owner.auth, name);
    expect((await upload(t.app, owner.auth, setId, [{ fileName: `${name}.png`, bytes: await testImage('png', 60, 40) }])).status).toBe(200);
    const source = pageWithGlyphs(`${name}.png`);
    const xml = await upload(t.app, owner.auth, setId, [{ fileName: `${name}.xml`, bytes: source }]);
    expect(xml.status, JSON.stringify(xml.json)).toBe(200);
    const id = xml.json.transcriptions[0] as string;
    const db = t.app.database.db;
    const row = await db.selectFrom('transcription').select('layout').where('id', '=', id).executeTakeFirstOrThrow();
    const layout = JSON.stringify(change(row.layout as Layout));
    await db.updateTable('transcription').set({ layout: sql`${layout}::jsonb`, language: null }).where('id', '=', id).execute();
    const sha256 = crypto.createHash('sha256').update(source).digest('hex');
    return { setId, source, storedFile: t.app.services.files.pathOf(sha256) };
  }

  const exportOf = async (setId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/pim/imageset/${setId}/page`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    const zip = readZip(res.rawPayload);
    await validatePage(zip);
    return pageStructure([...zip.values()][0]!);
  };

  it('re-reads the uploaded PAGE file from the store, so they go out with their words, glyphs, languages and reading order', async () => {
    const { setId, source } = await olderImport('reread');
    const exported = await exportOf(setId);
    const expected = pageStructure(source);
    expect(exported.regions).toEqual(expected.regions);
    const order = exported.readingOrder as { members: { OrderedGroup: { id: string; members: unknown[] } }[] };
    expect(order.members.map((m) => [m.OrderedGroup.id, m.OrderedGroup.members.length])).toEqual([['ro', 3]]);
    expect(exported.primaryLanguage).toBe('Latin');
  });

  it('exports the stored layout as it is when the file is gone from the store, or no longer gives the stored lines', async () => {
    const gone = await olderImport('gone');
    fs.rmSync(gone.storedFile);
    const changed = await olderImport('changed', (layout) => {
      const older = olderLayout(layout) as Layout;
      older.regions[0]!.lines[0]!.text = 'Kapitel, stored';
      return older;
    });
    for (const { setId, text } of [
      { setId: gone.setId, text: 'Kapitel' },
      { setId: changed.setId, text: 'Kapitel, stored' },
    ]) {
      const exported = await exportOf(setId);
      expect(exported.regions.map((r) => r.id)).toEqual(['head', 'main', 'note']);
      expect(exported.regions[0]!.children[0]!.texts).toEqual([text]);
      expect(exported.regions.flatMap((r) => r.children.flatMap((l) => l.children))).toEqual([]);
      expect(exported.readingOrder).toBeUndefined();
    }
  });
});
