import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { Database } from '../../platform/db/database.js';
import { migrate, readMigrations } from '../../platform/db/migrate.js';
import { openTestDatabase } from '../../test-support/test-db.js';

const LAYOUTS = {
  page: {
    page: { imageFilename: 'old.png', imageWidth: 100, imageHeight: 50 },
    regions: [
      { id: 'r1', type: 'paragraph', coords: '0,0 99,0 99,49', lines: [{ id: 'a', coords: '5,5 50,5 50,15 5,15', baseline: null, text: 'erste Zeile' }] },
      { id: 'r2', type: 'text', coords: null, lines: [{ id: 'b', coords: null, baseline: null, text: ' zweite  Zeile ' }] },
    ],
  },
  alto: {
    page: { imageFilename: null, imageWidth: 100, imageHeight: 50 },
    regions: [
      {
        id: 'b1',
        type: 'text',
        coords: null,
        lines: [
          {
            id: 'l1',
            coords: '2,3 42,3 42,13 2,13',
            baseline: null,
            text: 'Was ist',
            words: [
              { id: 's1', coords: null, text: 'Was', confidence: 0.9 },
              { id: 's2', coords: null, text: 'ist', confidence: 0.7 },
            ],
          },
        ],
      },
    ],
  },
  hocr: {
    page: { imageFilename: null, imageWidth: 100, imageHeight: 50 },
    regions: [{ id: null, type: 'text', coords: null, lines: [{ id: 'line_1', coords: '0,20 200,20 200,30 0,30', baseline: null, text: 'Alice', words: [{ id: 'w', coords: null, text: 'Alice', confidence: 93 }] }] }],
  },
};

/** Transcriptions as the uploads of the previous version stored them: before migration 0004, without lines. */
async function storeOldTranscriptions(database: Database): Promise<{ imageId: string; ids: Record<keyof typeof LAYOUTS, string> }> {
  const { db } = database;
  const userId = randomUUID();
  const fileId = randomUUID();
  const imageId = randomUUID();
  await db.insertInto('pim_user').values({ id: userId, name: 'Old owner', email: 'old@example.org', password_hash: null, persistent_id: null, google_id: null, avatar: null, deleted_at: null }).execute();
  await db.insertInto('stored_file').values({ id: fileId, sha256: 'a'.repeat(64), size_bytes: 10, media_type: 'image/png', original_name: 'old.png', owner_id: userId }).execute();
  await db
    .insertInto('document_image')
    .values({ id: imageId, file_id: fileId, label: 'old', width: 100, height: 50, page_number: 1, source_pdf_file_id: null, tiled_file_id: null, remote_uri: null, ead_id: null, deskew_angle: null, column_count: null, lines_count: 2, confidence: null, language_best: null, owner_id: userId })
    .execute();
  const ids = { page: randomUUID(), alto: randomUUID(), hocr: randomUUID() };
  for (const format of ['page', 'alto', 'hocr'] as const) {
    await db
      .insertInto('transcription')
      .values({ id: ids[format], image_id: imageId, format, source_file_id: null, transcriber: null, language: null, version: null, analyzed: null, params: null, clean_text: '', layout: JSON.stringify(LAYOUTS[format]) })
      .execute();
  }
  return { imageId, ids };
}

describe('text lines of transcriptions stored before text lines existed', () => {
  let database: Database;
  let dataDir: string;
  let stored: Awaited<ReturnType<typeof storeOldTranscriptions>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    await migrate(database, readMigrations().filter((m) => m.version < 4));
    stored = await storeOldTranscriptions(database);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-test-'));
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () => buildApp(loadConfig({ PIM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://pim.test' }), { database });
  const linesOf = (transcriptionId: string) =>
    database.db
      .selectFrom('simple_text_line')
      .select(['line_index', 'text', 'ground_truth', 'confidence', 'lowest_conf', 'region_x', 'region_y', 'region_w', 'region_h', 'image_id'])
      .where('transcription_id', '=', transcriptionId)
      .orderBy('line_index')
      .execute();

  it('are made at the first start after the migration, as an upload makes them, and only once', async () => {
    const app = await start();
    try {
      const noBox = { region_x: null, region_y: null, region_w: null, region_h: null };
      const common = { image_id: stored.imageId, ground_truth: null };
      expect(await linesOf(stored.ids.page)).toEqual([
        { ...common, line_index: 0, text: 'erste Zeile', confidence: null, lowest_conf: null, region_x: 5, region_y: 5, region_w: 46, region_h: 11 },
        { ...common, line_index: 1, text: ' zweite  Zeile ', confidence: null, lowest_conf: null, ...noBox },
      ]);
      const [alto] = await linesOf(stored.ids.alto);
      expect(alto).toMatchObject({ ...common, line_index: 0, text: 'Was ist', lowest_conf: 0.7, region_x: 2, region_y: 3, region_w: 41, region_h: 11 });
      expect(alto!.confidence).toBeCloseTo(0.8, 12);
      // hOCR's x_wconf is a percentage; the box is clamped to the 100 x 50 image.
      expect(await linesOf(stored.ids.hocr)).toEqual([
        { ...common, line_index: 0, text: 'Alice', confidence: 0.93, lowest_conf: 0.93, region_x: 0, region_y: 20, region_w: 100, region_h: 11 },
      ]);
      expect(await database.db.selectFrom('text_line_backfill').selectAll().execute()).toEqual([]);
      expect(await app.services.textLines.backfill()).toBe(0);
    } finally {
      await app.close();
    }
    const again = await start();
    await again.close();
    const count = await database.db.selectFrom('simple_text_line').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(4);
  });
});
