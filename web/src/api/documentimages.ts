import {
  documentImageFieldDefinitionListSchema,
  documentImagePageSchema,
  documentImageSchema,
  namedRefListSchema,
  type DocumentImageListQuery,
} from '@pim/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch, apiUrl } from './client';

export const documentImageKeys = {
  detail: (uuid: string) => ['documentimages', 'detail', uuid] as const,
  sets: (uuid: string) => ['documentimages', 'sets', uuid] as const,
  fieldDefinitions: ['documentimages', 'fielddefinitions'] as const,
  page: (setUuid: string, query: Partial<DocumentImageListQuery>) => ['documentimages', 'page', setUuid, query] as const,
};

export function useDocumentImage(uuid: string) {
  return useQuery({
    queryKey: documentImageKeys.detail(uuid),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimage/${encodeURIComponent(uuid)}`, { schema: documentImageSchema, signal }),
  });
}

/** The image sets that hold the image. */
export function useDocumentImageSets(uuid: string) {
  return useQuery({
    queryKey: documentImageKeys.sets(uuid),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimage/${encodeURIComponent(uuid)}/documentimagesets`, {
        schema: namedRefListSchema,
        signal,
      }),
  });
}

export function useFieldDefinitions() {
  return useQuery({
    queryKey: documentImageKeys.fieldDefinitions,
    queryFn: ({ signal }) =>
      apiFetch('pim/documentimage/getfielddefinition', { schema: documentImageFieldDefinitionListSchema, signal }),
    staleTime: Infinity,
  });
}

/** One server-side page of a set's images: paging, sorting and filters are the server's work. */
export function useDocumentImagePage(setUuid: string, query: Partial<DocumentImageListQuery>) {
  return useQuery({
    queryKey: documentImageKeys.page(setUuid, query),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimageset/${encodeURIComponent(setUuid)}/documentimages`, {
        query,
        schema: documentImagePageSchema,
        signal,
      }),
    // The table keeps showing the last page while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/** The IIIF Image API info.json of an image known only by id, served beside the API at the site's origin. */
export function iiifInfoUrl(uuid: string): string {
  return `${window.location.origin}/iiif/3/${encodeURIComponent(uuid)}/info.json`;
}

export function uploadUrl(setUuid: string): string {
  return apiUrl('pim/documentimageset/postfile', { dataSetId: setUuid });
}
