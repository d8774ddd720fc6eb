import {
  BUILTIN_SIMILARITY_MODEL,
  BUILTIN_SIMILARITY_MODEL_LABEL,
  type CompareBody,
  type DateEstimateQuery,
  DISTANCE_ALGORITHMS,
  type DistanceAlgorithm,
  type FindByModelBody,
  type FindSingleNewQuery,
  parseFeatures,
  SIMILARITY_DEFAULTS,
  SIMILARITY_RESULT_SIZE,
  SNIPPET_LIST_SIZE,
  type TypeaheadQuery,
  compareBody as compareBodySchema,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { ImageSetAccess } from '../imagesets/access.js';
import type { MetadataService } from '../metadata/service.js';
import type { ModelService } from '../models/service.js';
import { dateOfYear, estimateDate, yearOf } from './dating.js';
import { type ConfusionMatrixRecord, PICKER_PAGE, type SimilarityRepository, type SnippetDetails } from './repository.js';
import { type Comparison, type Neighbour, VectorIndex } from './vector-index.js';

type ParsedCompare = ReturnType<typeof compareBodySchema.parse>;

/** A result before presentation: the snippet, and how far it is from what was searched for. */
export interface FoundSnippet {
  snippet: SnippetDetails;
  distance: number;
  cosine: number | null;
}

export interface DateEstimateFound {
  year: number | null;
  from: number | null;
  to: number | null;
  date: string | null;
  script: string | null;
  scriptShare: number | null;
  reason: string | null;
  neighbours: { imageId: string; imageLabel: string; distance: number; weight: number; date: string | null; script: string | null; snippet: FoundSnippet }[];
}

/** The searches that count in the statistics (siameselast2weeks), by the call that asks them. */
export type SimilaritySearchKind = 'find' | 'findsinglenew' | 'findsinglenewmetadata' | 'compareimagesnippets' | 'comparewithimageset' | 'dateestimate';

/** Dated neighbours a date is estimated from, at most. */
const DATING_NEIGHBOURS = 7;
/** Nearest images looked at to find that many dated ones. */
const DATING_CANDIDATES = 200;

/**
 * Similarity search: nearest snippets and images by their feature vectors, and dates from dated
 * neighbours. Every answer holds only snippets of images the caller may read; a snippet, image or
 * set they may not read is answered as missing.
 */
export class SimilarityService {
  private readonly indexes = new Map<string, Promise<VectorIndex>>();

  constructor(
    private readonly repo: SimilarityRepository,
    private readonly access: ImageSetAccess,
    private readonly metadata: MetadataService,
    private readonly modelRecords: ModelService,
    /** Told of each search answered (the statistics count them). */
    private readonly searched: (caller: Principal, kind: SimilaritySearchKind) => Promise<void> = async () => undefined,
  ) {}

  distanceAlgorithms(principal: Principal | null): DistanceAlgorithm[] {
    requireSignedIn(principal);
    return [...DISTANCE_ALGORITHMS];
  }

  /** The models with snippets the caller may read. */
  async models(principal: Principal | null) {
    const caller = requireSignedIn(principal);
    const readable = await this.repo.readableImages(visibilityScope(caller, false));
    const models = [];
    for (const { model, label } of await this.repo.models()) {
      const index = await this.index(model);
      const snippets = readable === null ? index.count : countRows(index, (row) => readable.has(index.imageIdOf(row)));
      if (snippets > 0) models.push({ id: model, label: label ?? modelLabelOf(model), snippets, dimensions: index.dims });
    }
    return models;
  }

  /** The labelled snippets of the model the caller may read, the tags in turn. */
  async validationSet(principal: Principal | null, model: string): Promise<FoundSnippet[]> {
    const caller = requireSignedIn(principal);
    await this.requireModel(caller, model);
    const readable = await this.repo.readableImages(visibilityScope(caller, false));
    const ids = await this.repo.labelledSnippetIds(model, readable && [...readable], SNIPPET_LIST_SIZE);
    return this.present(ids.map((id) => ({ id, distance: 0, cosine: null })));
  }

  /** The snippets nearest to one, by Euclidean distance over all its features. */
  async find(principal: Principal | null, id: string, model: string): Promise<FoundSnippet[]> {
    return this.nearestToSnippet(principal, 'find', id, model, { algorithm: 'Euclidean', features: null });
  }

  async findSingleNew(principal: Principal | null, q: FindSingleNewQuery): Promise<FoundSnippet[]> {
    return this.nearestToSnippet(principal, 'findsinglenew', q.uuid, q.model, {
      algorithm: q.usecosine ? 'Cosine' : SIMILARITY_DEFAULTS.distanceAlgorithm,
      features: parseFeatures(q.features),
    });
  }

  /** The snippets of an image, or of the images of a set (and its sub-sets) with a metadata value. */
  async findByModel(principal: Principal | null, body: FindByModelBody): Promise<FoundSnippet[]> {
    const caller = requireSignedIn(principal);
    await this.requireModel(caller, body.model);
    let images: string[];
    if (body.imageUuid) {
      await this.requireImage(caller, body.imageUuid);
      images = [body.imageUuid];
    } else {
      await this.access.requireSet(caller, body.imageSetUuid!, 'READ');
      images = [...(await this.repo.imagesOfSetTree(body.imageSetUuid!, visibilityScope(caller, false)))];
      images = await this.withFieldValue(caller, images, body.pimField, body.pimFieldValue);
    }
    const ids = await this.repo.snippetIdsOfImages(body.model, images, SNIPPET_LIST_SIZE);
    return this.present(ids.map((id) => ({ id, distance: 0, cosine: null })));
  }

  /** The snippets nearest to the example snippet, within a set or everywhere, with the body's filters. */
  async findSingleNewMetadata(principal: Principal | null, input: CompareBody): Promise<FoundSnippet[]> {
    const body = compareBodySchema.parse(input);
    if (!body.exampleUuid) throw badRequest('Choose the snippet to search from (exampleUuid).');
    const caller = requireSignedIn(principal);
    const index = await this.index(await this.requireModel(caller, body.model));
    const row = await this.requireSnippet(caller, index, body.exampleUuid);
    const accept = await this.imageFilter(caller, index, body, index.imageIdOf(row));
    const neighbours = index.nearest({ query: index.vector(row), algorithm: body.distanceAlgorithm, features: null }, SIMILARITY_RESULT_SIZE, (r) => r !== row && accept(index.imageOf[r]!));
    await this.searched(caller, 'findsinglenewmetadata');
    return this.presentRows(index, neighbours);
  }

  /**
   * Image against image: for each snippet of the first, its nearest snippet in the second, nearest
   * pairs first; the images' distance is the median of the pairs'.
   */
  async compareImages(principal: Principal | null, input: CompareBody) {
    const body = compareBodySchema.parse(input);
    if (!body.imageUuid || !body.exampleUuid) throw badRequest('Choose both images to compare (imageUuid and exampleUuid).');
    const caller = requireSignedIn(principal);
    const index = await this.index(await this.requireModel(caller, body.model));
    await this.requireImage(caller, body.imageUuid);
    await this.requireImage(caller, body.exampleUuid);
    await this.searched(caller, 'compareimagesnippets');
    const first = index.imageNumber(body.imageUuid);
    const second = index.imageNumber(body.exampleUuid);
    if (first === undefined || second === undefined) return { distance: null, pairs: [] };
    const targets = index.rowsOfImage(second);
    const pairs = index.rowsOfImage(first).flatMap((row) => {
      const [match] = index.nearestAmong({ query: index.vector(row), algorithm: body.distanceAlgorithm, features: null }, targets, 1);
      return match ? [{ row, match }] : [];
    });
    pairs.sort((a, b) => a.match.distance - b.match.distance || a.row - b.row);
    const found = await this.presentRows(index, [
      ...pairs.map((p) => ({ index: p.row, distance: p.match.distance, cosine: p.match.cosine })),
      ...pairs.map((p) => p.match),
    ]);
    return {
      distance: median(pairs.map((p) => p.match.distance)),
      pairs: pairs.map((_, i) => ({ query: found[i]!, match: found[pairs.length + i]! })),
    };
  }

  /**
   * The images of a set (every readable set when none is given) nearest to an image by their
   * descriptors, each shown by its snippet nearest to the image's descriptor.
   */
  async compareWithImageSet(principal: Principal | null, input: CompareBody): Promise<FoundSnippet[]> {
    const body = compareBodySchema.parse(input);
    if (!body.imageUuid) throw badRequest('Choose the image to compare (imageUuid).');
    const caller = requireSignedIn(principal);
    const index = await this.index(await this.requireModel(caller, body.model));
    await this.requireImage(caller, body.imageUuid);
    await this.searched(caller, 'comparewithimageset');
    const image = index.imageNumber(body.imageUuid);
    if (image === undefined) return [];
    const accept = await this.imageFilter(caller, index, body, body.imageUuid);
    const comparison: Comparison = { query: index.imageMean(image), algorithm: body.distanceAlgorithm, features: null };
    const images = index.nearestImages(comparison, SIMILARITY_RESULT_SIZE, (other) => other !== image && accept(other));
    return this.presentImages(index, comparison, images);
  }

  /** A date (and script) for the image from its nearest dated neighbours that the caller may read. */
  async dateEstimate(principal: Principal | null, q: DateEstimateQuery): Promise<DateEstimateFound> {
    const caller = requireSignedIn(principal);
    const model = await this.requireModel(caller, q.model ?? BUILTIN_SIMILARITY_MODEL);
    await this.requireImage(caller, q.imageUuid);
    await this.searched(caller, 'dateestimate');
    const index = await this.index(model);
    const image = index.imageNumber(q.imageUuid);
    const none = (reason: string): DateEstimateFound => ({ year: null, from: null, to: null, date: null, script: null, scriptShare: null, reason, neighbours: [] });
    if (image === undefined) return none('This image has no snippets for the model yet: run a SiameseNetwork job on its set first.');
    const readable = await this.repo.readableImages(visibilityScope(caller, false));
    const comparison: Comparison = { query: index.imageMean(image), algorithm: 'Euclidean', features: null };
    const candidates = index.nearestImages(comparison, DATING_CANDIDATES, (other) => other !== image && (readable === null || readable.has(index.images[other]!)));
    const candidateIds = candidates.map((c) => index.images[c.index]!);
    const dates = await this.metadata.valuesOfImages(caller, q.dateField, candidateIds);
    const scripts = q.scriptField ? await this.metadata.valuesOfImages(caller, q.scriptField, candidateIds) : new Map<string, string[]>();
    const chosen = candidates
      .map((c) => {
        const id = index.images[c.index]!;
        const date = (dates.get(id) ?? []).find((v) => yearOf(v) !== null) ?? null;
        return { c, id, date, year: date === null ? null : yearOf(date), script: scripts.get(id)?.[0] ?? null };
      })
      .filter((n) => n.year !== null)
      .slice(0, DATING_NEIGHBOURS);
    if (chosen.length === 0) return none('None of the similar images the model found has a date in this field yet.');
    const estimate = estimateDate(chosen.map((n) => ({ distance: n.c.distance, year: n.year, script: n.script })));
    const shown = await this.presentImages(index, comparison, chosen.map((n) => n.c));
    return {
      year: estimate.year,
      from: estimate.from,
      to: estimate.to,
      date: estimate.year === null ? null : dateOfYear(estimate.year),
      script: estimate.script,
      scriptShare: estimate.scriptShare,
      reason: null,
      neighbours: chosen.map((n, i) => ({
        imageId: n.id,
        imageLabel: shown[i]!.snippet.imageLabel,
        distance: n.c.distance,
        weight: estimate.weights[i]!,
        date: n.date,
        script: n.script,
        snippet: shown[i]!,
      })),
    };
  }

  // Pickers -----------------------------------------------------------------------------------

  async modelPicker(principal: Principal | null, q: TypeaheadQuery) {
    const models = await this.models(principal);
    const filter = q.filter.toLowerCase();
    return models.filter((m) => m.label.toLowerCase().includes(filter)).slice(q.skip, q.skip + PICKER_PAGE).map((m) => ({ uuid: m.id, name: m.label }));
  }

  async setPicker(principal: Principal | null, model: string, q: TypeaheadQuery) {
    const caller = requireSignedIn(principal);
    await this.requireModel(caller, model);
    const rows = await this.repo.setsWithSnippets(model, visibilityScope(caller, q.onlyOwnData), q.filter, q.skip);
    return rows.map((r) => ({ uuid: r.uuid, name: r.name }));
  }

  async imagePicker(principal: Principal | null, model: string, setId: string, q: TypeaheadQuery) {
    const caller = await this.access.requireSet(principal, setId, 'READ');
    await this.requireModel(caller, model);
    return this.repo.imagesWithSnippets(model, setId, visibilityScope(caller, q.onlyOwnData), q.filter, q.skip);
  }

  async fieldPicker(principal: Principal | null, model: string, q: TypeaheadQuery) {
    const caller = requireSignedIn(principal);
    await this.requireModel(caller, model);
    return this.repo.fieldsWithValues(model, visibilityScope(caller, q.onlyOwnData), q.filter, q.skip);
  }

  async valuePicker(principal: Principal | null, model: string, fieldId: string, q: TypeaheadQuery) {
    const caller = requireSignedIn(principal);
    await this.requireModel(caller, model);
    return this.repo.fieldValues(model, fieldId, visibilityScope(caller, q.onlyOwnData), q.filter, q.skip);
  }

  // Confusion matrices ------------------------------------------------------------------------

  async confusionMatrices(principal: Principal | null): Promise<ConfusionMatrixRecord[]> {
    const caller = requireSignedIn(principal);
    return this.repo.confusionMatrices(visibilityScope(caller, false));
  }

  async confusionMatrix(principal: Principal | null, id: string): Promise<ConfusionMatrixRecord> {
    const caller = requireSignedIn(principal);
    const [found] = await this.repo.confusionMatrices(visibilityScope(caller, false), id);
    if (!found) throw notFound(`There is no confusion matrix with id ${id}.`);
    return found;
  }

  // The model's vectors -----------------------------------------------------------------------

  /** The model's vectors in memory, read again when its snippets changed since. */
  async index(model: string): Promise<VectorIndex> {
    const generation = await this.repo.generation(model);
    const cached = this.indexes.get(model);
    if (cached) {
      const index = await cached.catch(() => undefined);
      if (index && index.generation === generation) return index;
    }
    const loading = this.repo.vectorsOf(model).then((vectors) => new VectorIndex(model, generation, vectors));
    this.indexes.set(model, loading);
    loading.catch(() => this.indexes.delete(model));
    return loading;
  }

  /** The model id, when it is the built-in descriptor or an uploaded Siamese network model. */
  private async requireModel(caller: Principal, model: string): Promise<string> {
    if (model === BUILTIN_SIMILARITY_MODEL) return model;
    await this.modelRecords.get(caller, 'siamesenetwork', model);
    return model;
  }

  private async requireImage(caller: Principal, imageId: string): Promise<void> {
    await this.access.requireImage(caller, imageId, 'READ');
  }

  /** The snippet's row, when the caller may read its image; 404 as missing otherwise. */
  private async requireSnippet(caller: Principal, index: VectorIndex, id: string): Promise<number> {
    const row = index.rowOf(id);
    const missing = () => notFound(`There is no snippet with id ${id} for this model.`);
    if (row < 0) throw missing();
    try {
      await this.requireImage(caller, index.imageIdOf(row));
    } catch (err) {
      if (err instanceof AppError && err.status === 404) throw missing();
      throw err;
    }
    return row;
  }

  private async nearestToSnippet(
    principal: Principal | null,
    kind: SimilaritySearchKind,
    id: string,
    model: string,
    how: { algorithm: DistanceAlgorithm; features: number[] | null },
  ): Promise<FoundSnippet[]> {
    const caller = requireSignedIn(principal);
    const index = await this.index(await this.requireModel(caller, model));
    const row = await this.requireSnippet(caller, index, id);
    const readable = index.imageMask(await this.repo.readableImages(visibilityScope(caller, false)));
    const neighbours = index.nearest({ query: index.vector(row), ...how }, SIMILARITY_RESULT_SIZE, (r) => r !== row && readable[index.imageOf[r]!] === 1);
    await this.searched(caller, kind);
    return this.presentRows(index, neighbours);
  }

  /**
   * Which images (by their number in the index) a search may answer with: readable, in the set
   * when one is given, not the query's own image or sets when asked, with the metadata value.
   */
  private async imageFilter(caller: Principal, index: VectorIndex, body: ParsedCompare, queryImage: string): Promise<(image: number) => boolean> {
    const readable = await this.repo.readableImages(visibilityScope(caller, false));
    let inSet: Set<string> | null = null;
    if (body.imageSetUuid) {
      await this.access.requireSet(caller, body.imageSetUuid, 'READ');
      inSet = await this.repo.imagesOfSetTree(body.imageSetUuid, visibilityScope(caller, false));
    }
    const sameSets = body.onlyDifferentImageSets ? await this.repo.imagesSharingASet(queryImage) : null;
    let withValue: Set<string> | null = null;
    if (body.pimField) {
      const all = index.images.filter((id) => readable === null || readable.has(id));
      withValue = new Set(await this.withFieldValue(caller, all, body.pimField, body.pimFieldValue));
    }
    const mask = index.imageMask(readable);
    index.images.forEach((id, image) => {
      if (inSet !== null && !inSet.has(id)) mask[image] = 0;
      if (body.onlyDifferentImages && id === queryImage) mask[image] = 0;
      if (sameSets !== null && sameSets.has(id)) mask[image] = 0;
      if (withValue !== null && !withValue.has(id)) mask[image] = 0;
    });
    return (image) => mask[image] === 1;
  }

  /** The images with the field's value (any value when none is given); all of them without a field. */
  private async withFieldValue(caller: Principal, images: string[], field?: string, value?: string): Promise<string[]> {
    if (!field) return images;
    const values = await this.metadata.valuesOfImages(caller, field, images);
    return images.filter((id) => {
      const held = values.get(id);
      return held !== undefined && (value === undefined || value === '' || held.includes(value));
    });
  }

  private async presentRows(index: VectorIndex, neighbours: Neighbour[]): Promise<FoundSnippet[]> {
    return this.present(neighbours.map((n) => ({ id: index.ids[n.index]!, distance: n.distance, cosine: n.cosine })));
  }

  /** Each image by its snippet nearest to the query, with the image's distance. */
  private async presentImages(index: VectorIndex, comparison: Comparison, images: Neighbour[]): Promise<FoundSnippet[]> {
    const shown = images.map((n) => {
      const [best] = index.nearestAmong(comparison, index.rowsOfImage(n.index), 1);
      return { id: index.ids[best!.index]!, distance: n.distance, cosine: n.cosine };
    });
    return this.present(shown);
  }

  private async present(found: { id: string; distance: number; cosine: number | null }[]): Promise<FoundSnippet[]> {
    const details = await this.repo.details(found.map((f) => f.id));
    return found.flatMap((f) => {
      const snippet = details.get(f.id);
      return snippet ? [{ snippet, distance: f.distance, cosine: f.cosine }] : [];
    });
  }
}

function countRows(index: VectorIndex, accept: (row: number) => boolean): number {
  let n = 0;
  for (let row = 0; row < index.count; row += 1) if (accept(row)) n += 1;
  return n;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** How a model is named when it is not an uploaded one. */
export function modelLabelOf(model: string): string {
  return model === BUILTIN_SIMILARITY_MODEL ? BUILTIN_SIMILARITY_MODEL_LABEL : model;
}
