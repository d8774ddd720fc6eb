import {
  type CreateMetadataRequest,
  DATASET_URI_FIELD_NAME,
  METADATA_URI_MAX,
  type MetadataValueInput,
  normaliseMetadataValue,
  URI_FIELD_NAME,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { AppError, badRequest, conflict, forbidden } from '../../platform/errors.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { FieldRecord } from '../fieldsets/repository.js';
import type { FieldSetService } from '../fieldsets/service.js';
import { type RecognisedUri, recogniseUri } from './own-uris.js';
import type { MetadataRecord, MetadataRepository, RecordFilter, RecordToSave } from './repository.js';

/** One value as the API gives it: `display` is what a person reads. */
export interface StoredValue {
  fieldId: string;
  value: string;
  display: string;
}

/** The overview of a dataset under a set: its fields (the columns) and per record the display text by field id. */
export interface MetadataOverviewRecord {
  fields: FieldRecord[];
  rows: Map<string, string>[];
}

/**
 * Values annotators store per image and field set. Who may see a set may annotate with it; where
 * the image or the manifest is ours, the caller must also be able to read it, when writing and
 * when reading (records of images and sets they cannot read are left out).
 */
export class MetadataService {
  constructor(
    private readonly repo: MetadataRepository,
    private readonly fieldSets: FieldSetService,
    private readonly access: ImageSetAccess,
    /** Where the API lives: manifest URIs are under it. */
    private readonly apiBase: string,
  ) {}

  async fields(principal: Principal | null, fieldSetId: string): Promise<FieldRecord[]> {
    return (await this.fieldSets.get(principal, fieldSetId)).fields;
  }

  /**
   * Stores the annotator's form for one image: the record of (set, image uri) is made or updated
   * and its values replaced, in one transaction; a value that is absent or empty is removed.
   * Every check comes first, so a refused save writes nothing. Answers what is now stored.
   */
  async save(principal: Principal | null, request: CreateMetadataRequest): Promise<StoredValue[]> {
    const caller = requireSignedIn(principal);
    const sent = new Map<string, MetadataValueInput | undefined>();
    for (const field of request.fields) {
      if (sent.has(field.id)) throw badRequest(`The field ${field.id} is sent twice: send every field once.`);
      sent.set(field.id, field.value);
    }
    const { set, fields } = await this.fieldSets.setOfFields(caller, [...sent.keys()]);
    const valueOf = (name: string) => sent.get(fields.find((f) => f.name === name)?.id ?? '');
    const imageUri = requireUri(valueOf(URI_FIELD_NAME), 'The uri field needs the uri of the image.');
    const datasetUri = requireUri(valueOf(DATASET_URI_FIELD_NAME), 'The Dataset uri field needs the uri of the manifest the image belongs to.');
    const owners = await this.ownersOf(caller, imageUri, datasetUri);
    const values = checkValues(fields, sent);
    await this.checkReferences(caller, fields, values);
    const record: RecordToSave = {
      fieldSetId: set.id,
      imageUri,
      datasetUri,
      datasetName: request.datasetName || null,
      ...owners,
      userId: caller.userId,
    };
    await this.repo.transaction(async (tx) => {
      if (!(await tx.lockFieldSet(set.id, set.updatedAt))) {
        throw conflict('The field set was changed while you saved. Reload it and save again.');
      }
      // The record is keyed by set and image uri: one made in a dataset the caller cannot read is not theirs to overwrite.
      if ((await tx.recordAccess(set.id, imageUri, visibilityScope(caller, false))) === 'hidden') {
        throw forbidden('This image is described with this field set in a dataset you may not see, so you cannot change that description.');
      }
      await tx.replaceValues(await tx.saveRecord(record), values);
    });
    return this.stored(caller, imageUri, set.id);
  }

  /** What is stored for the image under the set: the two fixed fields first, then the others in order; none when nothing is. */
  async stored(principal: Principal | null, imageUri: string, fieldSetId: string): Promise<StoredValue[]> {
    const caller = requireSignedIn(principal);
    const { fields } = await this.fieldSets.get(caller, fieldSetId);
    const scope = visibilityScope(caller, false);
    const record = await this.repo.findRecord(fieldSetId, imageUri, scope);
    if (!record) return [];
    const values = await this.repo.valuesOf([record.id], scope);
    return [...fixedValues(fields, record), ...values.map((v) => ({ fieldId: v.fieldId, value: v.value, display: v.display }))];
  }

  /** One row per annotated image of the dataset under the set, one column per field. */
  async overview(principal: Principal | null, datasetUri: string, fieldSetId: string): Promise<MetadataOverviewRecord> {
    const caller = requireSignedIn(principal);
    const { fields } = await this.fieldSets.get(caller, fieldSetId);
    const scope = visibilityScope(caller, false);
    const records = await this.repo.overviewRecords(fieldSetId, datasetUri, scope);
    const values = await this.repo.valuesOf(
      records.map((r) => r.id),
      scope,
    );
    const rows = records.map((record) => new Map(fixedValues(fields, record).map((v) => [v.fieldId, v.display])));
    const rowOf = new Map(records.map((record, i) => [record.id, rows[i]!]));
    for (const v of values) rowOf.get(v.recordId)?.set(v.fieldId, v.display);
    return { fields, rows };
  }

  /**
   * A field's values for our images, by image, as a person reads them (a user's name, an image's
   * label): the field's set must be visible to the caller, and only records they may see count.
   * Images without a value are absent.
   */
  async valuesOfImages(principal: Principal | null, fieldId: string, imageIds: string[]): Promise<Map<string, string[]>> {
    const caller = requireSignedIn(principal);
    await this.fieldSets.setOfFields(caller, [fieldId]);
    const values = new Map<string, string[]>();
    for (const { imageId, display } of await this.repo.valuesOfImages(fieldId, imageIds, visibilityScope(caller, false))) {
      const list = values.get(imageId) ?? [];
      if (!list.includes(display)) list.push(display);
      values.set(imageId, list);
    }
    return values;
  }

  async datasets(principal: Principal | null, onlyOwnData: boolean): Promise<{ datasetUri: string; datasetName: string }[]> {
    return this.repo.datasets(this.filterFor(principal, onlyOwnData));
  }

  /** The images of the dataset, each with the field sets (by name) it was annotated with. */
  async datasetImages(
    principal: Principal | null,
    datasetUri: string,
    onlyOwnData: boolean,
  ): Promise<{ uri: string; label: string | null; fieldSets: { id: string; name: string }[] }[]> {
    const rows = await this.repo.datasetImages(datasetUri, this.filterFor(principal, onlyOwnData));
    const images = new Map<string, { label: string | null; fieldSets: { id: string; name: string }[] }>();
    for (const row of rows) {
      const image = images.get(row.imageUri) ?? { label: row.imageLabel, fieldSets: [] };
      image.fieldSets.push({ id: row.fieldSetId, name: row.fieldSetName });
      images.set(row.imageUri, image);
    }
    return [...images].map(([uri, image]) => ({ uri, label: image.label, fieldSets: image.fieldSets.sort(byName) }));
  }

  private filterFor(principal: Principal | null, onlyOwnData: boolean): RecordFilter {
    const caller = requireSignedIn(principal);
    return { scope: visibilityScope(caller, false), onlyOwnData, userId: caller.userId };
  }

  /**
   * Which of our images and sets the URIs name, after checking the caller may read them (404 as
   * every image and set call answers). External URIs name none.
   */
  private async ownersOf(
    caller: Principal,
    imageUri: string,
    datasetUri: string,
  ): Promise<Pick<RecordToSave, 'imageId' | 'imageSetId' | 'datasetImageId'>> {
    const image = await this.recognise(imageUri, 'uri');
    if (image.kind === 'setManifest' || image.kind === 'imageManifest') {
      throw badRequest(`The uri field needs the uri of an image (its IIIF service), not of a manifest: ${imageUri}`);
    }
    const dataset = await this.recognise(datasetUri, 'Dataset uri');
    if (dataset.kind === 'image') {
      throw badRequest(`The Dataset uri field needs the uri of a manifest, not of an image: ${datasetUri}`);
    }
    if (image.kind === 'image') await this.access.requireImage(caller, image.imageId, 'READ');
    if (dataset.kind === 'setManifest') await this.access.requireSet(caller, dataset.setId, 'READ');
    if (dataset.kind === 'imageManifest') await this.access.requireImage(caller, dataset.imageId, 'READ');
    return {
      imageId: image.kind === 'image' ? image.imageId : null,
      imageSetId: dataset.kind === 'setManifest' ? dataset.setId : null,
      datasetImageId: dataset.kind === 'imageManifest' ? dataset.imageId : null,
    };
  }

  /** What a URI names (own-uris.ts): one of our images or sets when its id is ours, whatever its host; else external. */
  private async recognise(uri: string, label: string): Promise<RecognisedUri> {
    const recognised = recogniseUri(this.apiBase, uri);
    if (!recognised) throw badRequest(`The ${label} field needs an absolute http or https URL, not '${uri}'.`);
    if (recognised.kind === 'external' || (await this.repo.exists(recognised))) return recognised;
    return { kind: 'external' };
  }

  /** pimuser values must name a live user, documentimage values an image the caller may read. */
  private async checkReferences(caller: Principal, fields: FieldRecord[], values: { fieldId: string; value: string }[]): Promise<void> {
    const fieldOf = new Map(fields.map((f) => [f.id, f]));
    const users = values.filter((v) => fieldOf.get(v.fieldId)?.type === 'pimuser');
    const live = await this.repo.liveUserIds([...new Set(users.map((v) => v.value))]);
    const unknown = users.find((v) => !live.has(v.value));
    if (unknown) throw badRequest(`'${fieldOf.get(unknown.fieldId)!.label}' names the user ${unknown.value}, who does not exist.`);
    for (const v of values.filter((value) => fieldOf.get(value.fieldId)?.type === 'documentimage')) {
      try {
        await this.access.requireImage(caller, v.value, 'READ');
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 404) throw err;
        throw badRequest(`'${fieldOf.get(v.fieldId)!.label}' names the image ${v.value}, which does not exist or which you may not see.`);
      }
    }
  }
}

/** A fixed field's value: a trimmed absolute http(s) URL, required. */
function requireUri(raw: MetadataValueInput | undefined, missing: string): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw badRequest(missing);
  if (text.length > METADATA_URI_MAX) throw badRequest(`A uri can be at most ${METADATA_URI_MAX} characters long.`);
  return text;
}

/** The values of the fields after the fixed two, as stored; every field's problem in one message. */
function checkValues(fields: FieldRecord[], sent: Map<string, MetadataValueInput | undefined>): { fieldId: string; value: string }[] {
  const values: { fieldId: string; value: string }[] = [];
  const problems: { fieldId: string; message: string }[] = [];
  for (const field of fields) {
    if (field.name === URI_FIELD_NAME || field.name === DATASET_URI_FIELD_NAME) continue;
    const checked = normaliseMetadataValue({ ...field, possibleValues: field.options }, sent.get(field.id));
    if (!checked.ok) problems.push({ fieldId: field.id, message: checked.message });
    else if (checked.value !== null) values.push({ fieldId: field.id, value: checked.value });
  }
  if (problems.length) throw badRequest(problems.map((p) => p.message).join(' '), problems);
  return values;
}

/** The values of the two fixed fields: they are the record's image and dataset uris. */
function fixedValues(fields: FieldRecord[], record: MetadataRecord): StoredValue[] {
  const fixed: StoredValue[] = [];
  for (const field of fields) {
    if (field.name === URI_FIELD_NAME) fixed.push({ fieldId: field.id, value: record.imageUri, display: record.imageUri });
    if (field.name === DATASET_URI_FIELD_NAME) fixed.push({ fieldId: field.id, value: record.datasetUri, display: record.datasetUri });
  }
  return fixed;
}

const byName = (a: { id: string; name: string }, b: { id: string; name: string }) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id);
