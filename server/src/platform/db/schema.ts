import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables the migrations in server/migrations create. */

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

export interface PimUserTable {
  id: string;
  name: string;
  email: string | null;
  persistent_id: string | null;
  google_id: string | null;
  password_hash: string | null;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  avatar: string | null;
  primary_group_id: ColumnType<string | null, string | null | undefined, string | null>;
  disabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

export interface UserSessionTable {
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  last_seen_at: UpdatedAt;
}

export interface ApiKeyTable {
  id: string;
  user_name: string;
  key_hash: string;
  key_prefix: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  disabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OidcLoginStateTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_url: string;
  redirect: string | null;
  /** The redirect URI of the authorization request: the code exchange must name the same. */
  redirect_uri: string;
  /** The web app's one-time value, returned next to gsid. */
  login_check: string | null;
  created_at: CreatedAt;
}

export interface LoginFailureTable {
  id: Generated<string>;
  email: string;
  ip: string;
  failed_at: CreatedAt;
}

export interface ServerSecretTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

/** One stored object of the embedded OpenID provider (its adapter's payload, opaque to us). */
export interface OidcProviderStateTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
}

export interface SearchIndexTable {
  id: string;
  name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface DocumentImageSetTable {
  id: string;
  name: string;
  long_name: string | null;
  pretty_name: string | null;
  description: string | null;
  remote_uri: string | null;
  search_index_id: string | null;
  tag: string | null;
  license: string | null;
  public_document_image_set: Generated<boolean>;
  public_data_set: Generated<boolean>;
  publish: Generated<boolean>;
  owner_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

export interface StoredFileTable {
  id: string;
  sha256: string;
  size_bytes: ColumnType<string, number | bigint, never>;
  media_type: string;
  original_name: string;
  owner_id: string | null;
  created_at: CreatedAt;
}

export interface DocumentImageTable {
  id: string;
  file_id: string;
  label: string;
  width: number;
  height: number;
  page_number: number | null;
  source_pdf_file_id: string | null;
  tiled_file_id: string | null;
  remote_uri: string | null;
  broken: Generated<boolean>;
  publish: Generated<boolean>;
  ead_id: string | null;
  deskew_angle: number | null;
  column_count: number | null;
  lines_count: number | null;
  confidence: number | null;
  language_best: string | null;
  owner_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ImageSetImageTable {
  set_id: string;
  image_id: string;
  position: number;
  /** When the image joined the set: its day in the statistics. */
  added_at: Generated<Date>;
  // Copies of the image's sort keys, kept by triggers (migration 0020): the set's pages in any order.
  label: Generated<string>;
  /** The label lower-cased: what the label filter matches. */
  label_lower: Generated<string>;
  width: Generated<number>;
  height: Generated<number>;
  page_number: Generated<number | null>;
  deskew_angle: Generated<number | null>;
  column_count: Generated<number | null>;
  lines_count: Generated<number | null>;
  confidence: Generated<number | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ImageSetSubsetTable {
  parent_id: string;
  child_id: string;
  position: number;
}

export interface ImageSetFileTable {
  set_id: string;
  file_id: string;
  kind: 'pdf' | 'xml';
  /** A PDF whose pages a SplitPDF job has still to add. */
  pages_pending: Generated<boolean>;
}

export interface TranscriptionTable {
  id: string;
  image_id: string;
  format: string;
  source_file_id: string | null;
  transcriber: string | null;
  language: string | null;
  version: string | null;
  analyzed: Date | null;
  params: unknown;
  status: Generated<string>;
  clean_text: string;
  layout: unknown;
  created_at: CreatedAt;
}

export interface PimGroupTable {
  id: string;
  name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

export interface GroupMembershipTable {
  id: string;
  group_id: string;
  user_id: string;
  role: string;
}

export interface GroupSubgroupTable {
  parent_id: string;
  child_id: string;
}

export interface AclEntryTable {
  id: string;
  subject_id: string;
  group_id: string;
  role: string;
  permission: string;
  created_at: CreatedAt;
}

export interface SimpleTextLineTable {
  id: string;
  transcription_id: string;
  image_id: string;
  line_index: number;
  text: string;
  ground_truth: string | null;
  confidence: number | null;
  lowest_conf: number | null;
  region_x: number | null;
  region_y: number | null;
  region_w: number | null;
  region_h: number | null;
  cer: number | null;
  corrected_by: string | null;
  corrected_at: Date | null;
  random_key: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TextLineSkipTable {
  user_id: string;
  line_id: string;
  skipped_at: UpdatedAt;
}

export interface TextLineBackfillTable {
  transcription_id: string;
}

/** The drawing tool's shapes on an image (contract DrawingShape[]), replaced whole on save. */
export interface ImageDrawingTable {
  image_id: string;
  shapes: ColumnType<unknown, string, string>;
  updated_by: string | null;
  updated_at: UpdatedAt;
}

export interface PimFieldSetTable {
  id: string;
  name: string;
  public_pim_field_set: Generated<boolean>;
  owner_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PimFieldTable {
  id: string;
  field_set_id: string;
  position: number;
  label: string;
  name: string;
  description: Generated<string>;
  type: string;
  copy_value: Generated<boolean>;
}

export interface PimFieldOptionTable {
  id: string;
  field_id: string;
  position: number;
  value: string;
  created_at: CreatedAt;
}

export interface MetadataRecordTable {
  id: string;
  field_set_id: string;
  image_uri: string;
  dataset_uri: string;
  dataset_name: string | null;
  image_id: string | null;
  image_set_id: string | null;
  dataset_image_id: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MetadataValueTable {
  record_id: string;
  field_id: string;
  value: string;
}

/** A model of one of the eight kinds (contract MODEL_KINDS), its bytes in stored_file. */
export interface PimModelTable {
  id: string;
  kind: string;
  label: string;
  language: string | null;
  public_model: Generated<boolean>;
  owner_id: string | null;
  file_id: string;
  properties: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ConfigurationTable {
  id: Generated<number>;
  uuid: string;
  key: string;
  value: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EnvironmentTable {
  id: string;
  title: string;
  search_index_id: string | null;
  path: string;
  address: string;
  about: string;
  main_text: string;
  search_label: string;
  logo_class: string;
  top_bar_classes: string;
  instructions: string;
  /** Switch name -> boolean, written as JSON text. */
  switches: ColumnType<Record<string, boolean>, string, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface FontDescriptionTable {
  id: string;
  uri: string;
  name: string;
  type: Generated<string>;
  license: Generated<string>;
  handwritten: Generated<boolean>;
  contains_long_s: Generated<boolean>;
  contains_ligatures: Generated<boolean>;
  roman_script: Generated<boolean>;
  serif: Generated<boolean>;
  file_id: string | null;
  owner_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A job of the queue (migration 0012): see server/src/jobs/queue.ts for its states and lease. */
export interface JobTable {
  id: Generated<number>;
  uuid: string;
  type: string;
  state: ColumnType<JobRowState, JobRowState | undefined, JobRowState>;
  priority: number;
  settings: ColumnType<Record<string, unknown>, string, string>;
  set_id: string | null;
  owner_id: string | null;
  api_key_id: string | null;
  wrapper_id: number | null;
  progress_done: Generated<number>;
  progress_total: number | null;
  progress_message: string | null;
  error: string | null;
  result: ColumnType<Record<string, unknown>, string | undefined, string>;
  output_file_id: string | null;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  remote_only: Generated<boolean>;
  lease_token: string | null;
  lease_expires_at: Date | null;
  worker: ColumnType<JobWorkerRecord | null, string | null | undefined, string | null>;
  queued_at: ColumnType<Date, Date | undefined, Date>;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type JobRowState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** Who ran a job and when, as stored in job.worker. */
export interface JobWorkerRecord {
  name: string;
  host: string | null;
  versions: Record<string, string>;
  /** A worker of a server process (not a remote one): its pid and the random id of that process's start. */
  builtIn?: { pid: number; instance: string };
  timings: { queued: string; started: string; finished?: string };
}

/** The configuration of a P2PaLA or Siamese job, linked to the job that runs it. */
export interface SubJobTable {
  id: string;
  wrapper_id: number;
  config: ColumnType<Record<string, unknown>, string, string>;
  network_spec: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface JobWorkerSeenTable {
  type: string;
  worker: string;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  seen_at: UpdatedAt;
}

/** A search document: one image in one search index (migration 0014; the search module's SQL reads it). */
export interface SearchDocumentTable {
  id: Generated<string>;
  index_id: string;
  image_id: string;
  set_ids: string[];
  source: unknown;
  terms: string;
  lengths: number[];
  language: string | null;
  pagenumber: number | null;
  height: number;
  width: number;
  ocr_confidence: number | null;
  deskew: number | null;
  column_count: number | null;
  line_count: number | null;
  word_count: number;
  date: Date;
  label: string;
  /** Whether `terms` holds the lexemes of word pairs (documents written before migration 0016 do not). */
  bigrams: Generated<boolean>;
}

export interface SearchTermTable {
  id: Generated<number>;
  term: string;
  display: string;
}

export interface SearchTermStemTable {
  config: string;
  stem: string;
  term_id: number;
}

export interface SearchTermStatTable {
  index_id: string;
  term_id: number;
  field: number;
  df: number;
}

export interface SearchTermLanguageStatTable {
  index_id: string;
  term_id: number;
  /** '' for documents without a language. */
  language: string;
  df: number;
}

export interface SearchSetStatTable {
  index_id: string;
  set_id: string;
  docs: number;
}

export interface SearchFieldStatTable {
  index_id: string;
  field: number;
  doc_count: string;
  total_length: string;
}

export interface SearchPostingTable {
  doc_id: string;
  field: number;
  term_id: number;
  tf: number;
  weight: number;
}

export interface SearchBlockTable {
  index_id: string;
  term_id: number;
  field: number;
  first_doc: string;
  last_doc: string;
  n: number;
  data: Buffer;
}

export interface SearchLanguageTable {
  id: Generated<number>;
  code: string;
}

export interface SearchUnblockedTable {
  doc_id: string;
  index_id: string;
}

export interface SearchGenerationTable {
  index_id: string;
  generation: string;
}

export interface SimilaritySnippetTable {
  id: string;
  model: string;
  image_id: string;
  line_id: string;
  region_x: number;
  region_y: number;
  region_w: number;
  region_h: number;
  tag: string | null;
  /** real[]: node-postgres and PGlite both give a number array. */
  features: ColumnType<number[], number[], number[]>;
  job_id: number | null;
  created_at: CreatedAt;
}

export interface SimilarityGenerationTable {
  model: string;
  generation: ColumnType<string | number, number | undefined, number>;
}

export interface SiameseConfusionMatrixTable {
  id: string;
  model: string;
  set_id: string | null;
  job_id: number | null;
  owner_id: string | null;
  labels: ColumnType<string[], string, string>;
  matrix: ColumnType<number[][], string, string>;
  accuracy: number;
  snippets: number;
  report: string;
  created_at: CreatedAt;
}

/** Counts of records per kind, scope and UTC day, kept by triggers (migration 0019). */
export interface StatisticCountTable {
  kind: string;
  variant: Generated<string>;
  scope: string;
  day: ColumnType<Date, string, string>;
  /** bigint: node-postgres gives a string, PGlite a number. */
  n: ColumnType<string | number, number, number>;
}

export interface DB {
  pim_user: PimUserTable;
  user_session: UserSessionTable;
  api_key: ApiKeyTable;
  oidc_login_state: OidcLoginStateTable;
  login_failure: LoginFailureTable;
  server_secret: ServerSecretTable;
  oidc_provider_state: OidcProviderStateTable;
  search_index: SearchIndexTable;
  search_document: SearchDocumentTable;
  search_term: SearchTermTable;
  search_term_stem: SearchTermStemTable;
  search_term_stat: SearchTermStatTable;
  search_field_stat: SearchFieldStatTable;
  search_term_language_stat: SearchTermLanguageStatTable;
  search_set_stat: SearchSetStatTable;
  search_posting: SearchPostingTable;
  search_block: SearchBlockTable;
  search_language: SearchLanguageTable;
  search_generation: SearchGenerationTable;
  search_unblocked: SearchUnblockedTable;
  document_image_set: DocumentImageSetTable;
  stored_file: StoredFileTable;
  document_image: DocumentImageTable;
  image_set_image: ImageSetImageTable;
  image_set_subset: ImageSetSubsetTable;
  image_set_file: ImageSetFileTable;
  transcription: TranscriptionTable;
  pim_group: PimGroupTable;
  group_membership: GroupMembershipTable;
  group_subgroup: GroupSubgroupTable;
  acl_entry: AclEntryTable;
  image_drawing: ImageDrawingTable;
  simple_text_line: SimpleTextLineTable;
  similarity_snippet: SimilaritySnippetTable;
  similarity_generation: SimilarityGenerationTable;
  siamese_confusion_matrix: SiameseConfusionMatrixTable;
  statistic_count: StatisticCountTable;
  text_line_skip: TextLineSkipTable;
  text_line_backfill: TextLineBackfillTable;
  pim_field_set: PimFieldSetTable;
  pim_field: PimFieldTable;
  pim_field_option: PimFieldOptionTable;
  metadata_record: MetadataRecordTable;
  metadata_value: MetadataValueTable;
  pim_model: PimModelTable;
  pim_configuration: ConfigurationTable;
  pim_environment: EnvironmentTable;
  font_description: FontDescriptionTable;
  job: JobTable;
  p2pala_job: SubJobTable;
  siamese_job: SubJobTable;
  job_worker_seen: JobWorkerSeenTable;
}
