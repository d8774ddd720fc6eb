import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  createFontDescriptionFieldsSchema,
  FONT_FILE_FIELD,
  FONT_MAX_BYTES,
  ROLE,
  type UpdateFontDescriptionRequest,
} from '@pim/contract';
import type { z } from 'zod';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole, requireSignedIn } from '../../platform/auth/policy.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { MultipartForm, MultipartLimits, ReadMultipartOptions } from '../../platform/http/multipart-form.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { FontDescriptionRecord, FontDescriptionRepository } from './repository.js';
import { FONT_DIRECTORY_BYTES, fontFlavour, inspectFont } from './sfnt.js';

/** The create form: its text fields (uri, name, type, license, five yes/no) and the font file. */
export const FONT_FORM_LIMITS: MultipartLimits = { maxFileBytes: FONT_MAX_BYTES, maxFields: 20, maxFieldBytes: 8 * 1024 };

export const NO_FONT_FILE = `Choose the font file (.ttf or .otf) to upload, in the part named ${FONT_FILE_FIELD}.`;
export const URI_LOCKED = 'The URI of a font description cannot be changed once it is saved.';

export interface FontFile {
  font: FontDescriptionRecord;
  file: NonNullable<FontDescriptionRecord['file']>;
  open: () => Readable;
}

/** Reads the create request's multipart form with the options the service gives. */
export type ReadFontForm = (options: ReadMultipartOptions) => Promise<MultipartForm>;

/**
 * Font descriptions: shared reference data, so everyone signed in may list, read and download
 * them, and administrators create, change and delete them. A font file is checked to be one
 * TrueType or OpenType font before it is stored; the URI identifies the font and is fixed once saved.
 */
export class FontDescriptionService {
  constructor(
    private readonly repo: FontDescriptionRepository,
    readonly files: FileStore,
    readonly limits: MultipartLimits = FONT_FORM_LIMITS,
  ) {}

  list(principal: Principal | null): Promise<FontDescriptionRecord[]> {
    requireSignedIn(principal);
    return this.repo.list();
  }

  async get(principal: Principal | null, id: string): Promise<FontDescriptionRecord> {
    requireSignedIn(principal);
    return this.require(id);
  }

  /**
   * The admin check comes before a byte of the file is read, and the fields sent before the file
   * (a taken URI too) before it is staged; the file is staged, checked, then stored with the row.
   */
  async create(principal: Principal | null, readForm: ReadFontForm): Promise<FontDescriptionRecord> {
    const caller = requireRole(principal, ROLE.ADMIN);
    const form = await readForm({
      fileField: FONT_FILE_FIELD,
      headBytes: FONT_DIRECTORY_BYTES,
      checkFields: (fields) => this.checkFieldsSent(fields),
      checkHead: (head) => void fontFlavour(head),
    });
    const staged = form.file?.staged;
    try {
      const fields = parseFields(createFontDescriptionFieldsSchema, form.fields);
      if (!form.file || !staged) throw badRequest(NO_FONT_FILE);
      if (await this.repo.uriTaken(fields.uri)) throw uriTaken(fields.uri);
      const font = await inspectFont((offset, length) => staged.readRange(offset, length), staged.sizeBytes);
      const fileName = path.basename(form.file.fileName || 'font');
      const id = randomUUID();
      const file = {
        id: randomUUID(),
        sha256: staged.sha256,
        sizeBytes: staged.sizeBytes,
        mediaType: font.flavour.mediaType,
        originalName: fileName,
        ownerId: caller.userId,
      };
      const created = await this.repo.create(
        {
          ...fields,
          id,
          name: fields.name || font.name || fileName.replace(/\.[^.]*$/, ''),
          type: fields.type || font.flavour.type,
          ownerId: caller.userId,
        },
        file,
        this.files.publication([staged]),
      );
      if (!created) throw uriTaken(fields.uri);
      return this.require(id);
    } finally {
      await staged?.discard();
    }
  }

  async update(principal: Principal | null, id: string, input: UpdateFontDescriptionRequest): Promise<FontDescriptionRecord> {
    requireRole(principal, ROLE.ADMIN);
    const current = await this.require(id);
    const { uri, ...properties } = input;
    if (uri !== undefined && uri !== current.uri) throw badRequest(URI_LOCKED);
    if (!(await this.repo.update(id, properties))) throw missing(id);
    return this.require(id);
  }

  async delete(principal: Principal | null, id: string): Promise<void> {
    requireRole(principal, ROLE.ADMIN);
    if (!(await this.repo.delete(id, (sha256) => this.files.remove(sha256)))) throw missing(id);
  }

  /** The font file, streamed from the store. */
  async fontFile(principal: Principal | null, id: string): Promise<FontFile> {
    requireSignedIn(principal);
    const font = await this.require(id);
    const file = font.file;
    if (!file) throw notFound(`The font description ${id} has no font file.`);
    return { font, file, open: () => this.files.stream(file.sha256) };
  }

  /** The fields sent before the file; one not sent yet may still come after it and is checked with the whole form. */
  private async checkFieldsSent(fields: Readonly<Record<string, string>>): Promise<void> {
    checkSentFields(createFontDescriptionFieldsSchema, fields);
    const uri = createFontDescriptionFieldsSchema.shape.uri.safeParse(fields.uri);
    if (uri.success && (await this.repo.uriTaken(uri.data))) throw uriTaken(uri.data);
  }

  private async require(id: string): Promise<FontDescriptionRecord> {
    const font = await this.repo.findById(id);
    if (!font) throw missing(id);
    return font;
  }
}

/** The form's text fields, checked by the contract's schema; every problem in one message. */
function parseFields<S extends z.ZodType>(schema: S, fields: Readonly<Record<string, string>>): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw fieldsRefused(parsed.error.issues);
}

/** Refuses the problems of the fields that were sent; an absent field is no problem yet. */
function checkSentFields(schema: z.ZodType, fields: Readonly<Record<string, string>>): void {
  const parsed = schema.safeParse(fields);
  const issues = parsed.error?.issues.filter((i) => Object.hasOwn(fields, String(i.path[0])));
  if (issues?.length) throw fieldsRefused(issues);
}

function fieldsRefused(zodIssues: readonly z.core.$ZodIssue[]) {
  const issues = zodIssues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return badRequest(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join(' '), issues);
}

const missing = (id: string) => notFound(`There is no font description with id ${id}.`);
const uriTaken = (uri: string) => conflict(`A font description with the URI ${uri} already exists: each font has its own URI.`);
