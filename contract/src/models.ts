import { z } from 'zod';
import { namedRefSchema, onlyOwnDataQuery, typeaheadPage } from './common.js';

/**
 * The eight kinds of recognition model the platform keeps (spec part 2 §2 "Model screens", §3, §7
 * "Models"). Each is a file in the file store with a label, an owner and the properties read from
 * the model's own configuration, reached under the API paths the spec gives it.
 */
export const MODEL_KINDS = [
  'kraken',
  'tesseract4',
  'loghihtr',
  'loghilinedetection',
  'p2pala',
  'pylaia',
  'siamesenetwork',
  'laypa',
] as const;
export const modelKindSchema = z.enum(MODEL_KINDS);
export type ModelKind = z.infer<typeof modelKindSchema>;

/** What a kind's file must be; checked from the bytes, not the name. */
export type ModelFileFormat =
  /** A zip archive (Loghi, P2PaLA, Siamese folder, Laypa). */
  | 'zip'
  /** A Tesseract `.traineddata` container (a table of component offsets). */
  | 'traineddata'
  /** A Kraken model: CoreML `.mlmodel` (protobuf) or `.safetensors`. */
  | 'kraken'
  /** A PyTorch checkpoint (`.ckpt`): a zip (torch.save) or a pickle stream. */
  | 'torch-checkpoint';

export interface ModelKindInfo {
  kind: ModelKind;
  /** The API path of the list, relative to the API base (spec part 2 §7). */
  listPath: string;
  /** The API path under which `/{uuid}`, `/{uuid}/binary` and `/autocomplete` sit, and the create POST. */
  basePath: string;
  /** The create form sends `title` (Kraken, Tesseract 4) or `label` (the others). */
  nameField: 'title' | 'label';
  /** Kraken and Tesseract 4 models are for one language. */
  hasLanguage: boolean;
  /** Loghi HTR and Laypa models start private and are made public by their owner or an admin. */
  hasVisibility: boolean;
  format: ModelFileFormat;
  /** File name extensions the create form's picker offers. */
  accept: string[];
  /** The download's file name extension; null: the uploaded file's own (Kraken has two formats). */
  downloadExtension: string | null;
}

/** A kind with the defaults most kinds share: a zip, named by a label, shared with everyone, one API path. */
function modelKind(kind: ModelKind, path: string, info: Partial<ModelKindInfo> = {}): ModelKindInfo {
  return {
    kind,
    listPath: path,
    basePath: path,
    nameField: 'label',
    hasLanguage: false,
    hasVisibility: false,
    format: 'zip',
    accept: ['.zip'],
    downloadExtension: 'zip',
    ...info,
  };
}

export const MODEL_KIND_INFO: Record<ModelKind, ModelKindInfo> = {
  kraken: modelKind('kraken', 'pim/krakenmodel', {
    nameField: 'title',
    hasLanguage: true,
    format: 'kraken',
    accept: ['.mlmodel', '.safetensors'],
    downloadExtension: null,
  }),
  tesseract4: modelKind('tesseract4', 'pim/tesseract4model', {
    nameField: 'title',
    hasLanguage: true,
    format: 'traineddata',
    accept: ['.traineddata'],
    downloadExtension: 'traineddata',
  }),
  loghihtr: modelKind('loghihtr', 'pim/loghihtr/model', { hasVisibility: true }),
  loghilinedetection: modelKind('loghilinedetection', 'pim/loghilinedetection/model'),
  p2pala: modelKind('p2pala', 'pim/p2palamodel', { listPath: 'pim/p2palamodel/all' }),
  pylaia: modelKind('pylaia', 'pim/pylaiamodel', { format: 'torch-checkpoint', accept: ['.ckpt'], downloadExtension: 'ckpt' }),
  siamesenetwork: modelKind('siamesenetwork', 'pim/siamesenetworkmodel'),
  laypa: modelKind('laypa', 'pim/laypa/model', { hasVisibility: true }),
};

export const MODEL_LABEL_MAX = 255;

/** A language of ISO 639 (`GET pim/language/autocomplete`): its code and English name. */
export const languageSchema = z.object({ code: z.string(), name: z.string() });
export type Language = z.infer<typeof languageSchema>;
export const languageAutocompleteResponseSchema = typeaheadPage(languageSchema);

/**
 * A model as lists and detail pages show it. `title` repeats `label` for the kinds whose spec calls
 * it so (Kraken, Tesseract 4). `properties` are read from the model's own configuration inside its
 * file (Loghi's `config.json`, Laypa's yaml, ...), shown name by name on the detail page.
 */
export const modelSchema = z.object({
  uuid: z.uuid(),
  kind: modelKindSchema,
  label: z.string(),
  title: z.string().optional(),
  language: languageSchema.nullable(),
  publicModel: z.boolean(),
  owner: namedRefSchema.nullable().describe('the user who uploaded it; null when an API key did'),
  fileName: z.string().describe('the name of the uploaded file'),
  size: z.number().int().describe('bytes'),
  properties: z.record(z.string(), z.unknown()),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type Model = z.infer<typeof modelSchema>;
export const modelListSchema = z.array(modelSchema);

/** `GET pim/laypa/model`: one server-side page of the Laypa models table. */
export const modelPageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().refine((n) => [10, 20, 30, 40, 50, 500].includes(n), 'pageSize must be 10, 20, 30, 40, 50 or 500').default(10),
});
export type ModelPageQuery = z.infer<typeof modelPageQuerySchema>;
/** What the server accepts on the Laypa list: the page, and 'only own data' like every list. */
export const modelPageRequestQuerySchema = modelPageQuerySchema.extend(onlyOwnDataQuery.shape);
export const modelPageSchema = z.object({
  results: modelListSchema,
  total: z.number().int(),
  pageSize: z.number().int(),
});
export type ModelPage = z.infer<typeof modelPageSchema>;

/**
 * The text parts of a model's multipart create request (the file part is `file`). The form sends
 * them before the file, so the server knows them when the file starts streaming.
 */
export const createModelFieldsSchema = z.object({
  label: z
    .string()
    .trim()
    .min(1, 'Give the model a label.')
    .max(MODEL_LABEL_MAX, `A label can be at most ${MODEL_LABEL_MAX} characters.`),
  language: z.string().trim().max(20).optional(),
});
export type CreateModelFields = z.infer<typeof createModelFieldsSchema>;

export const modelParams = z.object({ uuid: z.uuid('The model id must be a UUID.') });

/** `GET {listPath}` of the kinds without paging: 'only own data' narrows it to the caller's uploads. */
export const modelListQuerySchema = onlyOwnDataQuery;

/**
 * `GET {basePath}/{uuid}/binary?from=list|detail`: which screen asks, since Laypa's download is
 * named differently from its list and from its detail page (see modelDownloadName).
 */
export const modelBinaryQuerySchema = z.object({ from: z.enum(['list', 'detail']).default('list') });
export type ModelBinaryQuery = z.infer<typeof modelBinaryQuerySchema>;

/** How many models and languages one page of a picker holds. */
export const MODEL_AUTOCOMPLETE_PAGE_SIZE = 20;
export const LANGUAGE_AUTOCOMPLETE_PAGE_SIZE = 20;

/** The model pickers of the job form (`pim/krakenmodel/autocomplete`, ...). */
export const modelAutocompleteResponseSchema = typeaheadPage(namedRefSchema);

/**
 * Download names (spec part 2 §9): zip for Loghi, P2PaLA and Siamese models, ckpt for PyLaia;
 * Laypa's list names its zip `laypamodel_{uuid}.zip`, its detail page `layparmodel_{uuid}.zip`.
 */
export function modelDownloadName(model: Pick<Model, 'kind' | 'uuid' | 'fileName'>, from: 'list' | 'detail' = 'list'): string {
  const { kind, uuid } = model;
  if (kind === 'laypa') return `${from === 'detail' ? 'layparmodel' : 'laypamodel'}_${uuid}.zip`;
  const extension = MODEL_KIND_INFO[kind].downloadExtension ?? (/\.([A-Za-z0-9]{1,16})$/.exec(model.fileName)?.[1] ?? 'bin').toLowerCase();
  return `${kind}model_${uuid}.${extension}`;
}
