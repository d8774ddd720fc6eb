import {
  annotatedDatasetListSchema,
  annotatedImageListSchema,
  metadataOverviewSchema,
  METADATA_CSV_FILE_NAME,
  pimFieldSchema,
  storedMetadataSchema,
  type CreateMetadataRequest,
} from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from './client';
import type { DownloadTarget } from './download';

const fieldListSchema = z.array(pimFieldSchema);

export const metadataKeys = {
  all: ['metadata'] as const,
  fields: (fieldSetId: string) => ['metadata', 'fields', fieldSetId] as const,
  values: (uri: string, fieldSetId: string) => ['metadata', 'values', uri, fieldSetId] as const,
  overview: (datasetUri: string, fieldSetId: string) => ['metadata', 'overview', datasetUri, fieldSetId] as const,
  datasets: (onlyOwnData: boolean) => ['metadata', 'datasets', onlyOwnData] as const,
  datasetImages: (datasetUri: string, onlyOwnData: boolean) => ['metadata', 'dataset', datasetUri, onlyOwnData] as const,
};

/** The path of the overview of a dataset (its manifest uri, encoded as one path segment) under a field set. */
export function overviewPath(datasetUri: string, fieldSetId: string): string {
  return `pim/metadata/${encodeURIComponent(datasetUri)}/${encodeURIComponent(fieldSetId)}`;
}

/** The Export button's file: `metadata.csv` of the dataset under the field set. */
export function metadataCsvDownload(datasetUri: string, fieldSetId: string): DownloadTarget {
  return { path: `${overviewPath(datasetUri, fieldSetId)}/export`, fileName: METADATA_CSV_FILE_NAME };
}

/** `GET pim/metadata/getFields?id=`: the fields of a set, in order. Quiet: the annotator shows 'no fieldset found.' itself. */
export function useMetadataFields(fieldSetId: string | null) {
  return useQuery({
    queryKey: metadataKeys.fields(fieldSetId ?? ''),
    queryFn: ({ signal }) => apiFetch('pim/metadata/getFields', { query: { id: fieldSetId }, schema: fieldListSchema, signal, quiet: true }),
    enabled: fieldSetId !== null,
    retry: false,
  });
}

/** `GET pim/metadata/get?uri=&fieldsetid=`: what is stored for one image. */
export function useStoredMetadata(uri: string | null, fieldSetId: string) {
  return useQuery({
    queryKey: metadataKeys.values(uri ?? '', fieldSetId),
    queryFn: ({ signal }) => apiFetch('pim/metadata/get', { query: { uri, fieldsetid: fieldSetId }, schema: storedMetadataSchema, signal }),
    enabled: uri !== null,
  });
}

/** `POST pim/metadata/create`: stores the form of one image; answers what is now stored. */
export function useSaveMetadata() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateMetadataRequest) =>
      apiFetch('pim/metadata/create', { method: 'POST', body: request, schema: storedMetadataSchema }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] === 'metadata' && query.queryKey[1] !== 'fields' && query.queryKey[1] !== 'values',
      }),
  });
}

/** `GET pim/metadata/{uri}/{fieldsetid}`: one row per annotated image of the dataset. */
export function useMetadataOverview(datasetUri: string, fieldSetId: string) {
  return useQuery({
    queryKey: metadataKeys.overview(datasetUri, fieldSetId),
    queryFn: ({ signal }) => apiFetch(overviewPath(datasetUri, fieldSetId), { schema: metadataOverviewSchema, signal }),
  });
}

/** `GET pim/metadata/annotateddatasets?onlyOwnData=`. */
export function useAnnotatedDatasets(onlyOwnData: boolean) {
  return useQuery({
    queryKey: metadataKeys.datasets(onlyOwnData),
    queryFn: ({ signal }) =>
      apiFetch('pim/metadata/annotateddatasets', { query: { onlyOwnData }, schema: annotatedDatasetListSchema, signal }),
  });
}

/** `GET pim/metadata/annotateddatasets/{datasetUri}`: its annotated images with their field sets. */
export function fetchAnnotatedImages(datasetUri: string, onlyOwnData: boolean, signal?: AbortSignal) {
  return apiFetch(`pim/metadata/annotateddatasets/${encodeURIComponent(datasetUri)}`, {
    query: { onlyOwnData },
    schema: annotatedImageListSchema,
    signal,
  });
}
