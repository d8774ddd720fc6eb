import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { Publication } from '../../platform/storage/file-store.js';
import {
  insertStoredFiles,
  type NewStoredFile,
  publishWithRows,
  deleteWithStoredFile,
} from '../../platform/storage/stored-file-repository.js';

export interface FontProperties {
  name: string;
  type: string;
  license: string;
  handwritten: boolean;
  containsLongS: boolean;
  containsLigatures: boolean;
  romanScript: boolean;
  serif: boolean;
}

export interface FontDescriptionRecord extends FontProperties {
  id: string;
  uri: string;
  /** The stored font file, if any. */
  file: { id: string; sha256: string; sizeBytes: number; mediaType: string; originalName: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewFontDescription extends FontProperties {
  id: string;
  uri: string;
  ownerId: string | null;
}

const columnsOf = (p: FontProperties) => ({
  name: p.name,
  type: p.type,
  license: p.license,
  handwritten: p.handwritten,
  contains_long_s: p.containsLongS,
  contains_ligatures: p.containsLigatures,
  roman_script: p.romanScript,
  serif: p.serif,
});

/** Font descriptions and the stored_file rows of their font files. */
export class FontDescriptionRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private select() {
    return this.db
      .selectFrom('font_description as f')
      .leftJoin('stored_file as sf', 'sf.id', 'f.file_id')
      .select([
        'f.id',
        'f.uri',
        'f.name',
        'f.type',
        'f.license',
        'f.handwritten',
        'f.contains_long_s',
        'f.contains_ligatures',
        'f.roman_script',
        'f.serif',
        'f.created_at',
        'f.updated_at',
        'sf.id as file_id',
        'sf.sha256',
        'sf.size_bytes',
        'sf.media_type',
        'sf.original_name',
      ]);
  }

  async list(): Promise<FontDescriptionRecord[]> {
    return (await this.select().orderBy(sql`lower(f.name)`).orderBy('f.id').execute()).map(toRecord);
  }

  async findById(id: string): Promise<FontDescriptionRecord | undefined> {
    const row = await this.select().where('f.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async uriTaken(uri: string): Promise<boolean> {
    return (await this.db.selectFrom('font_description').select('id').where('uri', '=', uri).executeTakeFirst()) !== undefined;
  }

  /**
   * Publishes the font file and records it with the description, all or nothing; false when
   * another description has the URI (then the file goes again unless other rows name it).
   */
  async create(font: NewFontDescription, file: NewStoredFile, files: Publication): Promise<boolean> {
    try {
      return await publishWithRows(this.db, files, async (trx) => {
        if (await trx.selectFrom('font_description').select('id').where('uri', '=', font.uri).executeTakeFirst()) return false;
        await insertStoredFiles(trx, [file]);
        await trx
          .insertInto('font_description')
          .values({ id: font.id, uri: font.uri, owner_id: font.ownerId, file_id: file.id, ...columnsOf(font) })
          .execute();
        return true;
      });
    } catch (err) {
      // Two creates of one URI at once: the unique index refuses the second.
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    }
  }

  /** Changes the properties (never the URI or the file); false when there is no such description. */
  async update(id: string, properties: FontProperties): Promise<boolean> {
    const result = await this.db
      .updateTable('font_description')
      .set({ ...columnsOf(properties), updated_at: sql`now()` })
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Deletes the description and the stored_file row of its font in one transaction, then the font
   * file itself unless other rows name the same bytes; false when there is no such description.
   */
  async delete(id: string, removeFile: (sha256: string) => Promise<boolean>): Promise<boolean> {
    return deleteWithStoredFile(
      this.db,
      async (trx) => (await trx.deleteFrom('font_description').where('id', '=', id).returning('file_id').executeTakeFirst())?.file_id,
      removeFile,
    );
  }
}

type Row = Awaited<ReturnType<ReturnType<FontDescriptionRepository['select']>['executeTakeFirstOrThrow']>>;

function toRecord(r: Row): FontDescriptionRecord {
  return {
    id: r.id,
    uri: r.uri,
    name: r.name,
    type: r.type,
    license: r.license,
    handwritten: r.handwritten,
    containsLongS: r.contains_long_s,
    containsLigatures: r.contains_ligatures,
    romanScript: r.roman_script,
    serif: r.serif,
    file:
      r.file_id && r.sha256
        ? { id: r.file_id, sha256: r.sha256, sizeBytes: Number(r.size_bytes), mediaType: r.media_type!, originalName: r.original_name! }
        : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
