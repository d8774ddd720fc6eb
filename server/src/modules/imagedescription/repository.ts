import type { Kysely } from 'kysely';
import type { VisibilityScope } from '../../platform/auth/policy.js';
import type { DB } from '../../platform/db/schema.js';
import { visibleImages } from '../imagesets/access-repository.js';

/** An image PIM holds with the same bytes as the one described, and what its newest transcription says. */
export interface StoredImage {
  imageId: string;
  label: string;
  transcription: {
    /** How it came: the format (page, alto, hocr, ...) and, for an upload, the file's name. */
    format: string;
    sourceFileName: string | null;
    language: string | null;
    /** Its text lines, and its text (for the first words). */
    lines: number;
    text: string;
  } | null;
}

export class ImageDescriptionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The images whose stored original has these bytes (by their SHA-256) that the scope may read,
   * oldest first, each with its newest transcription.
   */
  async storedImages(sha256: string, scope: VisibilityScope): Promise<StoredImage[]> {
    const images = await this.db
      .selectFrom('document_image as d')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.label'])
      .where('f.sha256', '=', sha256)
      .where(visibleImages(scope, 'd'))
      .orderBy('d.created_at')
      .orderBy('d.id')
      .execute();
    const found: StoredImage[] = [];
    for (const image of images) found.push({ imageId: image.id, label: image.label, transcription: await this.newestTranscription(image.id) });
    return found;
  }

  private async newestTranscription(imageId: string): Promise<StoredImage['transcription']> {
    const row = await this.db
      .selectFrom('transcription as t')
      .leftJoin('stored_file as f', 'f.id', 't.source_file_id')
      .select((eb) => [
        't.format',
        'f.original_name',
        't.language',
        't.clean_text',
        eb.selectFrom('simple_text_line as l').select((c) => c.fn.countAll<string>().as('n')).whereRef('l.transcription_id', '=', 't.id').as('lines'),
      ])
      .where('t.image_id', '=', imageId)
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc')
      .executeTakeFirst();
    if (!row) return null;
    return {
      format: row.format,
      sourceFileName: row.original_name,
      language: row.language,
      lines: Number(row.lines ?? 0),
      text: row.clean_text,
    };
  }
}
