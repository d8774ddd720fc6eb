import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { countTerms } from './analysis.js';
import type { IndexedDocument } from './query.js';
import { TimeSlice } from './turns.js';

/** Formats whose text is OCR ("text"); the others (PAGE, ALTO) are HTR ("htr"), as the image's fields say. */
const OCR_FORMATS = new Set(['hocr', 'tesseract']);

export interface IndexMembership {
  index: { id: string; name: string };
  imageId: string;
  sets: { id: string; name: string; position: number }[];
}

/** Where each image should be: the indices of the live sets that hold it, with those sets. */
export async function memberships(db: Kysely<DB>, imageIds: string[]): Promise<IndexMembership[]> {
  const rows = await sql<{ image_id: string; set_id: string; set_name: string; position: number; index_id: string; index_name: string }>`
    select m.image_id, s.id as set_id, coalesce(s.pretty_name, s.name) as set_name, m.position, i.id as index_id, i.name as index_name
    from image_set_image m
    join document_image_set s on s.id = m.set_id and s.deleted_at is null
    join search_index i on i.id = s.search_index_id
    where m.image_id = any(${imageIds}::uuid[])
    order by m.image_id, i.id, s.id`.execute(db);
  const byKey = new Map<string, IndexMembership>();
  for (const r of rows.rows) {
    const key = `${r.index_id}/${r.image_id}`;
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { index: { id: r.index_id, name: r.index_name }, imageId: r.image_id, sets: [] }));
    entry.sets.push({ id: r.set_id, name: r.set_name, position: r.position });
  }
  return [...byKey.values()];
}

interface ImageFacts {
  id: string;
  label: string;
  width: number;
  height: number;
  page_number: number | null;
  confidence: number | null;
  deskew_angle: number | null;
  column_count: number | null;
  lines_count: number | null;
  language_best: string | null;
  created_at: Date;
}

interface TranscriptionText {
  id: string;
  image_id: string;
  format: string;
  language: string | null;
  clean_text: string;
}

/** The text of a transcription with the ground truth people gave its lines in place of what was recognised. */
async function correctedTexts(db: Kysely<DB>, transcriptions: TranscriptionText[]): Promise<Map<string, { text: string; lines: number }>> {
  const ids = transcriptions.map((t) => t.id);
  const result = new Map<string, { text: string; lines: number }>();
  if (ids.length === 0) return result;
  const rows = await sql<{ transcription_id: string; lines: number; corrected: number; text: string | null }>`
    select transcription_id, count(*)::int as lines, count(ground_truth)::int as corrected,
      case when count(ground_truth) > 0 then string_agg(coalesce(ground_truth, text), E'\n' order by line_index) end as text
    from simple_text_line where transcription_id = any(${ids}::uuid[]) group by transcription_id`.execute(db);
  const byId = new Map(rows.rows.map((r) => [r.transcription_id, r]));
  for (const t of transcriptions) {
    const lines = byId.get(t.id);
    result.set(t.id, { text: lines?.text ?? t.clean_text, lines: lines?.lines ?? 0 });
  }
  return result;
}

/** The search documents of these memberships, read from the images and their newest transcriptions. */
export async function buildDocuments(db: Kysely<DB>, wanted: IndexMembership[]): Promise<IndexedDocument[]> {
  const imageIds = [...new Set(wanted.map((m) => m.imageId))];
  if (imageIds.length === 0) return [];
  const images = await sql<ImageFacts>`
    select id, label, width, height, page_number, confidence, deskew_angle, column_count, lines_count, language_best, created_at
    from document_image where id = any(${imageIds}::uuid[])`.execute(db);
  const newest = await sql<TranscriptionText>`
    select id, image_id, format, language, clean_text from transcription
    where image_id = any(${imageIds}::uuid[]) order by image_id, created_at desc, id desc`.execute(db);
  const chosen = new Map<string, { ocr?: TranscriptionText; htr?: TranscriptionText }>();
  for (const t of newest.rows) {
    const entry = chosen.get(t.image_id) ?? {};
    const kind = OCR_FORMATS.has(t.format.toLowerCase()) ? 'ocr' : 'htr';
    entry[kind] ??= t;
    chosen.set(t.image_id, entry);
  }
  const texts = await correctedTexts(db, [...chosen.values()].flatMap((c) => [c.ocr, c.htr].filter((t) => t !== undefined)));
  const facts = new Map(images.rows.map((i) => [i.id, i]));
  const docs: IndexedDocument[] = [];
  // Counting the words reads every text, on the server's thread: in slices of a millisecond, so a
  // request that comes meanwhile waits about that long, not the default slice's 5 ms (a list
  // call's p99 during a reindex, bench/README "List calls while jobs run").
  const slice = new TimeSlice(1);
  for (const m of wanted) {
    await slice.check();
    const image = facts.get(m.imageId);
    if (!image) continue;
    const { ocr, htr } = chosen.get(m.imageId) ?? {};
    const text = ocr ? texts.get(ocr.id)!.text : '';
    const htrText = htr ? texts.get(htr.id)!.text : '';
    const lineCount = (ocr ? texts.get(ocr.id)!.lines : 0) + (htr ? texts.get(htr.id)!.lines : 0);
    docs.push({
      id: image.id,
      source: {
        imageUuid: image.id,
        imageSetUuid: m.sets.map((s) => s.id),
        imageSet: m.sets.map((s) => s.name),
        index: m.index.name,
        label: image.label,
        text,
        htr: htrText,
        persons: [],
        language: htr?.language ?? ocr?.language ?? image.language_best,
        pagenumber: image.page_number ?? Math.min(...m.sets.map((s) => s.position)) + 1,
        height: image.height,
        width: image.width,
        ocrConfidence: image.confidence,
        deskew: image.deskew_angle,
        columnCount: image.column_count,
        lineCount: image.lines_count ?? (lineCount || null),
        wordCount: countTerms(text) + countTerms(htrText),
        date: image.created_at.toISOString(),
        thumbnail: `pim/documentimage/${image.id}/thumbnail`,
      },
    });
  }
  return docs;
}
