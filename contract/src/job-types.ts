/** The job types: where each runs, what its form asks for, and the option lists of their settings. */
import { z } from 'zod';
import type { ModelKind } from './models.js';

/**
 * Every job type (spec part 2 §9), in the spec's order. Append only: a stored job names its type
 * by this name, and workers are configured by it.
 */
export const JOB_TYPES = [
  'SendToElasticSearch',
  'GenerateManifests',
  'SetBrokenNull',
  'FrogNer',
  'ElasticSearchRemoveIndex',
  'Tesseract4Hocr',
  'PipelineKB',
  'PipelineKB2',
  'KrakenHocr',
  'P2PaLA',
  'ScriptCompare',
  'ConvertToTiledTiff',
  'RedoTesseract4ExistingPageXML',
  'RecalculateReadingOrderNew',
  'Epubify',
  'CreateSetForSiameseNetwork',
  'SiameseNetwork',
  'HarvestIIIF',
  'SplitPDF',
] as const;
export const jobTypeSchema = z.enum(JOB_TYPES, { error: `The job type must be one of: ${JOB_TYPES.join(', ')}.` });
export type JobType = z.infer<typeof jobTypeSchema>;

/** The fields of the creation form (spec part 2 §3 "Job creation payload") besides jobType. */
export const JOB_FIELDS = [
  'imageSet',
  'allData',
  'uri',
  'elasticSearchIndex',
  'outputPath',
  'baseOutputFileName',
  'tesseract4model',
  'krakenModel',
  'notificationEmail',
  'dropout',
  'learningRate',
  'siameseBatchSize',
  'imgWidth',
  'imgHeight',
  'training',
  'siameseNetworkModelId',
  'exp_name',
  'work_dir',
  'log_level',
  'num_workers',
  'img_size',
  'line_color',
  'line_width',
  'regions',
  'merge_regions',
  'approx_alg',
  'num_segments',
  'p2PaLaBatchSize',
  'input_channels',
  'out_mode',
  'net_out_type',
  'cnn_ngf',
  'loss_lambda',
  'g_loss',
  'adam_lr',
  'adam_beta1',
  'adam_beta2',
  'do_train',
  'cont_train',
  'tr_data',
  'do_val',
  'val_data',
  'do_test',
  'te_data',
  'do_prod',
  'prod_data',
  'epochs',
  'use_gan',
  'gan_layers',
  'max_vertex',
  'e_stdv',
  'p2palamodel',
  'extract_lines',
  'priority',
  'pimFieldUuids',
  'networkSpec',
  'pimFieldSiameseLabel',
  'siameseChannels',
  'siameseBinarizeOtsu',
  'siameseBulk',
] as const;
export type JobField = (typeof JOB_FIELDS)[number];

/**
 * The fields that name an uploaded model, with the model's kind: checked at creation (the maker
 * must see the model), described to the worker that claims the job, and downloadable by it.
 */
export const JOB_MODEL_FIELDS = {
  tesseract4model: 'tesseract4',
  krakenModel: 'kraken',
  p2palamodel: 'p2pala',
  siameseNetworkModelId: 'siamesenetwork',
} as const satisfies Partial<Record<JobField, ModelKind>>;
export type JobModelField = keyof typeof JOB_MODEL_FIELDS;
export const JOB_MODEL_FIELD_NAMES = Object.keys(JOB_MODEL_FIELDS) as JobModelField[];

/** The option lists of P2PaLA's settings (`GET pim/p2palajob/approxalg|outmode|linealg|loglevel`). */
export const P2PALA_OPTIONS = {
  approxalg: ['optimal', 'trace'],
  outmode: ['L', 'R', 'LR'],
  linealg: ['basic', 'external'],
  loglevel: ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'],
} as const;
export type P2palaOptionList = keyof typeof P2PALA_OPTIONS;
export const p2palaOptionListSchema = z.array(z.string());

const P2PALA_FIELDS = [
  'p2palamodel', 'exp_name', 'work_dir', 'log_level', 'num_workers', 'img_size', 'line_color', 'line_width', 'regions',
  'merge_regions', 'approx_alg', 'num_segments', 'p2PaLaBatchSize', 'input_channels', 'out_mode', 'net_out_type', 'cnn_ngf',
  'loss_lambda', 'g_loss', 'adam_lr', 'adam_beta1', 'adam_beta2', 'do_train', 'cont_train', 'tr_data', 'do_val', 'val_data',
  'do_test', 'te_data', 'do_prod', 'prod_data', 'epochs', 'use_gan', 'gan_layers', 'max_vertex', 'e_stdv', 'extract_lines',
] as const satisfies readonly JobField[];
const SIAMESE_FIELDS = [
  'siameseNetworkModelId', 'training', 'dropout', 'learningRate', 'siameseBatchSize', 'imgWidth', 'imgHeight', 'pimFieldUuids',
  'pimFieldSiameseLabel', 'networkSpec', 'siameseChannels', 'siameseBinarizeOtsu', 'siameseBulk',
] as const satisfies readonly JobField[];

/**
 * What a job type works on, where it runs and which fields its form shows (besides jobType and
 * priority, which every type has). `runsHere`: a built-in executor of this server runs it; the
 * others wait for a remote worker (a `pim worker` with the MINION role) that serves the type.
 */
export interface JobTypeInfo {
  type: JobType;
  runsHere: boolean;
  /** One sentence for the form and the list: what the job does. */
  summary: string;
  /** The fields the form shows for this type; `required` ones must be given. */
  fields: readonly JobField[];
  required: readonly JobField[];
  /** A download comes out of it (an EPUB, a CSV). */
  download: boolean;
}

function jobType(type: JobType, info: Omit<JobTypeInfo, 'type' | 'download' | 'required'> & Partial<Pick<JobTypeInfo, 'download' | 'required'>>): JobTypeInfo {
  return { type, download: false, required: info.fields.includes('imageSet') ? ['imageSet'] : [], ...info };
}

export const JOB_TYPE_INFO: Record<JobType, JobTypeInfo> = {
  SendToElasticSearch: jobType('SendToElasticSearch', {
    runsHere: true,
    summary: "Puts the set's recognised text into its search index; without a set, indexes the whole index again.",
    fields: ['imageSet', 'elasticSearchIndex', 'allData'],
    // A set, or (ADMIN) a whole index without one.
    required: [],
  }),
  GenerateManifests: jobType('GenerateManifests', {
    runsHere: true,
    summary: 'Makes the IIIF manifests of the set and of its images again, and checks every image can be served.',
    fields: ['imageSet'],
  }),
  SetBrokenNull: jobType('SetBrokenNull', {
    runsHere: true,
    summary: "Checks the set's images again and clears the broken mark of those that read well.",
    fields: ['imageSet'],
  }),
  FrogNer: jobType('FrogNer', {
    runsHere: false,
    summary: 'Finds named entities (persons, places, organisations) in the recognised text with Frog.',
    fields: ['imageSet', 'allData'],
  }),
  ElasticSearchRemoveIndex: jobType('ElasticSearchRemoveIndex', {
    runsHere: true,
    summary: 'Empties a search index: every document in it is removed.',
    fields: ['elasticSearchIndex'],
    required: ['elasticSearchIndex'],
  }),
  Tesseract4Hocr: jobType('Tesseract4Hocr', {
    runsHere: true,
    summary: "Recognises the text of the set's images with Tesseract and stores it as hOCR transcriptions.",
    fields: ['imageSet', 'tesseract4model', 'allData'],
  }),
  PipelineKB: jobType('PipelineKB', {
    runsHere: false,
    summary: 'Runs the KB pipeline over the set and writes its output files.',
    fields: ['imageSet', 'outputPath', 'baseOutputFileName', 'notificationEmail'],
  }),
  PipelineKB2: jobType('PipelineKB2', {
    runsHere: true,
    summary: "Makes an EPUB of the set's transcriptions, to download.",
    fields: ['imageSet'],
    download: true,
  }),
  KrakenHocr: jobType('KrakenHocr', {
    runsHere: false,
    summary: "Recognises the text of the set's images with a Kraken model and stores it as hOCR.",
    fields: ['imageSet', 'krakenModel', 'allData'],
    required: ['imageSet', 'krakenModel'],
  }),
  P2PaLA: jobType('P2PaLA', {
    runsHere: false,
    summary: "Finds the regions and baselines of the set's pages with a P2PaLA model.",
    fields: ['imageSet', ...P2PALA_FIELDS],
  }),
  ScriptCompare: jobType('ScriptCompare', {
    runsHere: true,
    summary: 'Compares two transcriptions of every image of the set (CER, WER, confusions) into a CSV to download.',
    fields: ['imageSet'],
    download: true,
  }),
  ConvertToTiledTiff: jobType('ConvertToTiledTiff', {
    runsHere: true,
    summary: "Makes the tiled pyramids of the set's large images, for fast zooming.",
    fields: ['imageSet', 'allData'],
  }),
  RedoTesseract4ExistingPageXML: jobType('RedoTesseract4ExistingPageXML', {
    runsHere: true,
    summary: 'Recognises again, with Tesseract, the lines of the existing PAGE layouts of the set.',
    fields: ['imageSet', 'tesseract4model'],
  }),
  RecalculateReadingOrderNew: jobType('RecalculateReadingOrderNew', {
    runsHere: true,
    summary: "Puts the regions and lines of the set's layouts in reading order from where they are on the page.",
    fields: ['imageSet'],
  }),
  Epubify: jobType('Epubify', {
    runsHere: true,
    summary: "Makes an EPUB 3 of the set's transcriptions, to download.",
    fields: ['imageSet'],
    download: true,
  }),
  CreateSetForSiameseNetwork: jobType('CreateSetForSiameseNetwork', {
    runsHere: true,
    summary: "Makes a sub-set of the set per value of the chosen metadata fields, to train a Siamese network on.",
    fields: ['imageSet', 'pimFieldUuids'],
    required: ['imageSet', 'pimFieldUuids'],
  }),
  SiameseNetwork: jobType('SiameseNetwork', {
    runsHere: true,
    summary:
      "Cuts the set's text lines into snippets and gives each a feature vector, with the built-in handwriting descriptor or an ONNX Siamese network model, for similarity search and dating; with a label field, also a confusion matrix. Training, and Keras or SavedModel models, wait for a remote worker.",
    fields: ['imageSet', ...SIAMESE_FIELDS],
  }),
  HarvestIIIF: jobType('HarvestIIIF', {
    runsHere: true,
    summary: 'Imports a IIIF manifest or collection by its address into the set: its images, labels, order and metadata.',
    fields: ['imageSet', 'uri'],
    required: ['imageSet', 'uri'],
  }),
  SplitPDF: jobType('SplitPDF', {
    runsHere: true,
    summary: "Splits the set's PDFs into page images.",
    fields: ['imageSet', 'allData'],
  }),
};
