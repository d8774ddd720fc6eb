import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  LANGUAGE_AUTOCOMPLETE_PAGE_SIZE,
  MODEL_AUTOCOMPLETE_PAGE_SIZE,
  MODEL_KIND_INFO,
  ROLE,
  type Language,
  type ModelKind,
  type TypeaheadQuery,
  createModelFieldsSchema,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { maySeeOwned, requireRole, requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ReadMultipartOptions } from '../../platform/http/multipart-form.js';
import type { FileStore, StagedFile } from '../../platform/storage/file-store.js';
import { searchLanguages, findLanguage } from './languages.js';
import { readModelArchive } from './model-archive.js';
import { MODEL_KIND_NAMES, checkModelFile, checkModelHead } from './model-formats.js';
import type { ModelOrder, ModelRecord, ModelRepository } from './repository.js';

/** The create form as the route read it: its text fields and the staged file. */
export interface ModelForm {
  fields: Record<string, string>;
  file: { fileName: string; staged: StagedFile; head: Buffer } | undefined;
}

/**
 * Reads the multipart create form, streaming the file into staging; `checkFields` sees the fields
 * sent before the file and `checkHead` the file's first bytes, both before anything is staged,
 * and throw to refuse the form.
 */
export type ReadModelForm = (checks: Pick<ReadMultipartOptions, 'checkFields' | 'checkHead'>) => Promise<ModelForm>;

/** The name of the create form's file part. */
export const MODEL_FILE_FIELD = 'file';

/**
 * The models of the eight kinds. Admins (users or API keys with ADMIN) create and delete them and
 * make Loghi HTR and Laypa models public or private; everyone signed in lists, reads, downloads
 * and picks the ones they may see: the kinds without a switch are shared with all (the platform's
 * tools), a private Loghi HTR or Laypa model only with its owner and admins (404 to others).
 */
export class ModelService {
  constructor(
    private readonly repo: ModelRepository,
    private readonly files: FileStore,
    readonly limits: { maxBytes: number },
  ) {}

  async list(principal: Principal | null, kind: ModelKind, onlyOwnData: boolean): Promise<ModelRecord[]> {
    const caller = requireSignedIn(principal);
    return this.repo.list(kind, visibilityScope(caller, onlyOwnData), listOrder(kind));
  }

  /** One page of the kind's list, and how many there are in all. */
  async page(
    principal: Principal | null,
    kind: ModelKind,
    q: { page: number; pageSize: number; onlyOwnData: boolean },
  ): Promise<{ records: ModelRecord[]; total: number }> {
    const scope = visibilityScope(requireSignedIn(principal), q.onlyOwnData);
    const [records, total] = await Promise.all([
      this.repo.list(kind, scope, listOrder(kind), { offset: q.page * q.pageSize, limit: q.pageSize }),
      this.repo.count(kind, scope),
    ]);
    return { records, total };
  }

  async get(principal: Principal | null, kind: ModelKind, id: string): Promise<ModelRecord> {
    return this.requireVisible(requireSignedIn(principal), kind, id);
  }

  /** The model's file, to stream as a download. */
  async file(principal: Principal | null, kind: ModelKind, id: string): Promise<{ model: ModelRecord; open: () => Readable }> {
    const model = await this.get(principal, kind, id);
    return { model, open: () => this.files.stream(model.file.sha256) };
  }

  async autocomplete(principal: Principal | null, kind: ModelKind, q: TypeaheadQuery): Promise<{ results: { id: string; label: string }[]; pageSize: number }> {
    const scope = visibilityScope(requireSignedIn(principal), q.onlyOwnData);
    const results = await this.repo.autocomplete(kind, scope, { filter: q.filter.trim(), skip: q.skip, limit: MODEL_AUTOCOMPLETE_PAGE_SIZE });
    return { results, pageSize: MODEL_AUTOCOMPLETE_PAGE_SIZE };
  }

  languages(principal: Principal | null, q: { filter: string; skip: number }): { results: Language[]; pageSize: number } {
    requireSignedIn(principal);
    return { results: searchLanguages(q.filter, q.skip, LANGUAGE_AUTOCOMPLETE_PAGE_SIZE), pageSize: LANGUAGE_AUTOCOMPLETE_PAGE_SIZE };
  }

  /**
   * Checks the caller before the body is read, the fields sent before the file and the file's type
   * from its first bytes before it is staged, then the other fields and the staged file (its size, the zip's contents and configuration), and only then
   * moves it into the store with the model's row. A refusal leaves no file and no row.
   */
  async create(principal: Principal | null, kind: ModelKind, readForm: ReadModelForm): Promise<ModelRecord> {
    const caller = requireRole(principal, ROLE.ADMIN);
    const form = await readForm({
      checkFields: (fields, file) => checkFieldsSent(kind, fields, file.fileName),
      checkHead: (head) => checkModelHead(kind, head),
    });
    const file = form.file;
    try {
      if (!file) throw badRequest(`Choose the model file: the form has no file in the part named "${MODEL_FILE_FIELD}".`);
      const { label, language } = fieldsOf(kind, form.fields, file.fileName);
      const facts = await checkModelFile(kind, file.staged, file.head);
      const archive = MODEL_KIND_INFO[kind].format === 'zip' ? await readModelArchive(kind, file.staged) : {};
      const id = randomUUID();
      const stored = {
        id: randomUUID(),
        sha256: file.staged.sha256,
        sizeBytes: file.staged.sizeBytes,
        mediaType: facts.mediaType,
        originalName: file.fileName,
        ownerId: caller.userId,
      };
      const model = {
        id,
        kind,
        label,
        language,
        isPublic: !MODEL_KIND_INFO[kind].hasVisibility,
        ownerId: caller.userId,
        properties: { ...facts.properties, ...archive },
      };
      await this.repo.insert(model, stored, this.files.publication([file.staged]));
      return this.requireVisible(caller, kind, id);
    } finally {
      await file?.staged.discard();
    }
  }

  async delete(principal: Principal | null, kind: ModelKind, id: string): Promise<void> {
    requireRole(principal, ROLE.ADMIN);
    if (!(await this.repo.delete(kind, id, (sha256) => this.files.remove(sha256)))) throw missing(kind, id);
  }

  /** `makepublic` / `makeprivate` of a Loghi HTR or Laypa model. */
  async setPublic(principal: Principal | null, kind: ModelKind, id: string, isPublic: boolean): Promise<ModelRecord> {
    const caller = requireRole(principal, ROLE.ADMIN);
    if (!MODEL_KIND_INFO[kind].hasVisibility) throw badRequest(`${MODEL_KIND_NAMES[kind]} models are always shared with everyone signed in.`);
    if (!(await this.repo.setPublic(kind, id, isPublic))) throw missing(kind, id);
    return this.requireVisible(caller, kind, id);
  }

  private async requireVisible(caller: Principal, kind: ModelKind, id: string): Promise<ModelRecord> {
    const model = await this.repo.find(kind, id);
    if (!model || !maySeeOwned(caller, { ownerId: model.owner?.id ?? null, isPublic: model.isPublic })) throw missing(kind, id);
    return model;
  }
}

function listOrder(kind: ModelKind): ModelOrder {
  return kind === 'laypa' ? 'newest' : 'label';
}

/** The label (sent as `title` for Kraken and Tesseract 4) and the language of the create form. */
function fieldsOf(kind: ModelKind, fields: Record<string, string>, fileName: string): { label: string; language: string | null } {
  return { label: labelOf(kind, fields, fileName), language: languageOf(kind, fields) };
}

/**
 * The fields sent before the file, checked as `fieldsOf` checks them; one not sent yet may still
 * come after the file, so it is left to the check of the whole form.
 */
function checkFieldsSent(kind: ModelKind, fields: Readonly<Record<string, string>>, fileName: string): void {
  if (Object.hasOwn(fields, MODEL_KIND_INFO[kind].nameField)) labelOf(kind, fields, fileName);
  if (Object.hasOwn(fields, 'language')) languageOf(kind, fields);
}

/** A P2PaLA model without a label is named after its file ('label shown from path'). */
function labelOf(kind: ModelKind, fields: Readonly<Record<string, string>>, fileName: string): string {
  const info = MODEL_KIND_INFO[kind];
  let label = fields[info.nameField] ?? '';
  if (kind === 'p2pala' && label.trim() === '') label = fileName.replace(/\.[^.]*$/, '').slice(0, 255);
  const parsed = createModelFieldsSchema.shape.label.safeParse(label);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]!.message;
  throw badRequest(info.nameField === 'title' ? message.replace(/\blabel\b/, 'title') : message);
}

function languageOf(kind: ModelKind, fields: Readonly<Record<string, string>>): string | null {
  const parsed = createModelFieldsSchema.shape.language.safeParse(fields.language);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  if (!MODEL_KIND_INFO[kind].hasLanguage) return null;
  const code = parsed.data ?? '';
  if (code === '') throw badRequest(`Choose the language of the ${MODEL_KIND_NAMES[kind]} model.`);
  const language = findLanguage(code);
  if (!language) throw badRequest(`"${code}" is not an ISO 639 language code.`);
  return language.code;
}

function missing(kind: ModelKind, id: string) {
  return notFound(`There is no ${MODEL_KIND_NAMES[kind]} model with id ${id}.`);
}
