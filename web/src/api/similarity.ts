import {
  compareImagesResponseSchema,
  confusionMatricesSchema,
  confusionMatrixSchema,
  dateEstimateSchema,
  distanceAlgorithmsSchema,
  siameseSnippetResultsSchema,
  similarityModelsSchema,
  type CompareBody,
  type DateEstimateQuery,
  type FindByModelBody,
  type FindSingleNewQuery,
} from '@pim/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch, type QueryValue } from './client';

/**
 * The similarity searches only read, POSTs included, so each is a query: cached by what it asks
 * (the same request has the same key whichever screen asks), and asked only once what it needs is
 * chosen (`null` asks nothing).
 */
export const similarityKeys = {
  /** `pim/siamese/{action}` with its query or body. */
  read: (action: string, params: object | null = null) => ['similarity', action, params] as const,
  confusionMatrices: ['similarity', 'confusionmatrices'] as const,
  confusionMatrix: (uuid: string) => ['similarity', 'confusionmatrix', uuid] as const,
};

const SIAMESE = 'pim/siamese';
const segment = (value: string) => encodeURIComponent(value);

/** Pickers of a model's image sets, a set's images, the metadata fields and a field's values. */
export const similarityPickerUrls = {
  imageSets: (model: string) => `${SIAMESE}/${segment(model)}/imagesets/autocomplete`,
  images: (model: string, imageSet: string) => `${SIAMESE}/${segment(model)}/${segment(imageSet)}/images/autocomplete`,
  metadataFields: (model: string) => `${SIAMESE}/${segment(model)}/metadatafields/autocomplete`,
  metadataValues: (model: string, field: string) => `${SIAMESE}/${segment(model)}/${segment(field)}/metadataFieldValues/autocomplete`,
};

/** How a screen asks: the same request has the same key (and cache) whichever way it asks. */
export interface SimilarityReadOptions {
  /** No toast: the screen shows a failure in its own place only (the annotator's tab, on every image it moves to). */
  quiet?: boolean;
  /** Keeps the last answer on the screen while a changed request is asked (`isPlaceholderData`). */
  keepPrevious?: boolean;
}

interface ReadOptions extends SimilarityReadOptions {
  /** Sent as a POST body; a GET sends `params` as its query. */
  post?: boolean;
  staleTime?: number;
}

/** A read of `pim/siamese/{action}`, asked once `params` is given. */
function useSiameseRead<S extends z.ZodType>(action: string, params: object | null, schema: S, options: ReadOptions = {}) {
  return useQuery({
    queryKey: similarityKeys.read(action, params),
    queryFn: ({ signal }) =>
      apiFetch(`${SIAMESE}/${action}`, {
        ...(options.post ? { method: 'POST' as const, body: params } : { query: params as Record<string, QueryValue> }),
        schema,
        signal,
        quiet: options.quiet,
      }),
    enabled: params !== null,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    staleTime: options.staleTime,
  });
}

/** `GET pim/siamese/models`: the models with snippets; `builtin` is the built-in descriptor. */
export function useSimilarityModels(options: SimilarityReadOptions = {}) {
  return useSiameseRead('models', {}, similarityModelsSchema, { staleTime: 60_000, ...options });
}

/** `GET pim/siamese/distancealgorithms`. */
export function useDistanceAlgorithms() {
  return useSiameseRead('distancealgorithms', {}, distanceAlgorithmsSchema, { staleTime: Infinity });
}

/** `GET pim/siamese/validationsetnew?model=`: the model's labelled snippets. */
export function useValidationSet(model: string) {
  return useSiameseRead('validationsetnew', { model }, siameseSnippetResultsSchema);
}

/** `GET pim/siamese/find?id=&model=`: the snippets nearest to one. */
export function useNearestSnippets(search: { id: string; model: string } | null) {
  return useSiameseRead('find', search, siameseSnippetResultsSchema);
}

/** `GET pim/siamese/findsinglenew?uuid=&model=&usecosine=&features=`. */
export function useFindSingleNew(query: FindSingleNewQuery | null) {
  return useSiameseRead('findsinglenew', query, siameseSnippetResultsSchema);
}

/** `GET pim/siamese/dateestimate?imageUuid=&model=&dateField=&scriptField=`: a date (and script) from the image's dated neighbours. */
export function useDateEstimate(query: DateEstimateQuery | null, options: SimilarityReadOptions = {}) {
  return useSiameseRead('dateestimate', query, dateEstimateSchema, options);
}

/** `POST pim/siamese/findByModel`: the snippets of an image (or of a set's images with a metadata value). */
export function useSnippetsByModel(body: FindByModelBody | null) {
  return useSiameseRead('findByModel', body, siameseSnippetResultsSchema, { post: true });
}

/** `POST pim/siamese/findsinglenewmetadata`: the snippets nearest to `exampleUuid`, filtered. */
export function useFindSingleWithMetadata(body: CompareBody | null) {
  return useSiameseRead('findsinglenewmetadata', body, siameseSnippetResultsSchema, { post: true });
}

/** `POST pim/siamese/compareimagesnippets`: each snippet of `imageUuid` with its nearest in `exampleUuid`. */
export function useCompareImages(body: CompareBody | null) {
  return useSiameseRead('compareimagesnippets', body, compareImagesResponseSchema, { post: true });
}

/**
 * `POST pim/siamese/comparewithimageset`: the images of `imageSetUuid` (of every set the user may
 * read without one), nearest to `imageUuid` first.
 */
export function useCompareWithImageSet(body: CompareBody | null, options: SimilarityReadOptions = {}) {
  return useSiameseRead('comparewithimageset', body, siameseSnippetResultsSchema, { post: true, ...options });
}

/** `GET pim/siameseconfusionmatrix`. */
export function useConfusionMatrices() {
  return useQuery({
    queryKey: similarityKeys.confusionMatrices,
    queryFn: ({ signal }) => apiFetch('pim/siameseconfusionmatrix', { schema: confusionMatricesSchema, signal }),
  });
}

/** `GET pim/siameseconfusionmatrix/{uuid}`. */
export function useConfusionMatrix(uuid: string) {
  return useQuery({
    queryKey: similarityKeys.confusionMatrix(uuid),
    queryFn: ({ signal }) => apiFetch(`pim/siameseconfusionmatrix/${segment(uuid)}`, { schema: confusionMatrixSchema, signal }),
  });
}
