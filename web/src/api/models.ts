import {
  MODEL_KIND_INFO,
  modelListSchema,
  modelPageSchema,
  modelSchema,
  type CreateModelFields,
  type ModelKind,
} from '@pim/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiUpload } from './client';

export const modelKeys = {
  all: (kind: ModelKind) => ['models', kind] as const,
  list: (kind: ModelKind, onlyOwnData: boolean) => ['models', kind, 'list', onlyOwnData] as const,
  page: (kind: ModelKind, onlyOwnData: boolean, page: number, pageSize: number) => ['models', kind, 'page', onlyOwnData, page, pageSize] as const,
  one: (kind: ModelKind, uuid: string) => ['models', kind, 'one', uuid] as const,
};

const modelPath = (kind: ModelKind, uuid: string) => `${MODEL_KIND_INFO[kind].basePath}/${encodeURIComponent(uuid)}`;

/** `GET {listPath}`: every model of the kind (all kinds but Laypa, whose list is paged), or the caller's own. */
export function useModels(kind: ModelKind, onlyOwnData: boolean, enabled = true) {
  return useQuery({
    queryKey: modelKeys.list(kind, onlyOwnData),
    queryFn: ({ signal }) => apiFetch(MODEL_KIND_INFO[kind].listPath, { query: { onlyOwnData }, schema: modelListSchema, signal }),
    enabled,
  });
}

/** `GET pim/laypa/model?page=&pageSize=`: one page of the Laypa models, the total beside it. */
export function useModelPage(kind: ModelKind, onlyOwnData: boolean, page: number, pageSize: number, enabled = true) {
  return useQuery({
    queryKey: modelKeys.page(kind, onlyOwnData, page, pageSize),
    queryFn: ({ signal }) =>
      apiFetch(MODEL_KIND_INFO[kind].listPath, { query: { page, pageSize, onlyOwnData }, schema: modelPageSchema, signal }),
    // The table keeps showing the page it has while the next one comes, instead of a spinner flash.
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** `GET {basePath}/{uuid}`: one model with the properties read from its configuration. */
export function useModel(kind: ModelKind, uuid: string) {
  return useQuery({
    queryKey: modelKeys.one(kind, uuid),
    queryFn: ({ signal }) => apiFetch(modelPath(kind, uuid), { schema: modelSchema, signal }),
  });
}

export interface CreateModelInput {
  fields: CreateModelFields;
  file: File;
  onProgress: (fraction: number) => void;
  /** Cancels the upload, e.g. when the user leaves the form. */
  signal?: AbortSignal;
}

/**
 * `POST {basePath}` multipart: the text parts first, so the server knows the label and language
 * when the (often large) file starts streaming, then the file as `file`.
 */
export function useCreateModel(kind: ModelKind) {
  const queryClient = useQueryClient();
  const info = MODEL_KIND_INFO[kind];
  return useMutation({
    mutationFn: ({ fields, file, onProgress, signal }: CreateModelInput) => {
      const body = new FormData();
      body.append(info.nameField, fields.label);
      if (info.hasLanguage && fields.language) body.append('language', fields.language);
      body.append('file', file, file.name);
      return apiUpload(info.basePath, { body, schema: modelSchema, onProgress, signal });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelKeys.all(kind) }),
  });
}

/** `DELETE {basePath}/{uuid}`, then the list again. */
export function useDeleteModel(kind: ModelKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(modelPath(kind, uuid), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelKeys.all(kind) }),
  });
}

/** `PUT {basePath}/{uuid}/makepublic|makeprivate` (Loghi HTR, Laypa). */
export function useSetModelPublic(kind: ModelKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, publicModel }: { uuid: string; publicModel: boolean }) =>
      apiFetch(`${modelPath(kind, uuid)}/${publicModel ? 'makepublic' : 'makeprivate'}`, { method: 'PUT' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelKeys.all(kind) }),
  });
}

/** Where a model's file is fetched from; the detail page asks for the Laypa detail name. */
export function modelBinaryPath(kind: ModelKind, uuid: string): string {
  return `${modelPath(kind, uuid)}/binary`;
}
