import {
  FONT_FILE_FIELD,
  FONT_FLAGS,
  fontDescriptionListSchema,
  fontDescriptionSchema,
  type FontDescription,
  type FontDescriptionForm,
  type UpdateFontDescriptionRequest,
} from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const fontDescriptionKeys = {
  all: ['fontdescriptions'] as const,
  list: ['fontdescriptions', 'list'] as const,
  one: (uuid: string) => ['fontdescriptions', 'one', uuid] as const,
};

const onePath = (uuid: string) => `pim/fontdescription/${encodeURIComponent(uuid)}`;

/** Where a font file is downloaded from (`GET pim/fontdescription/{uuid}/binary`). */
export const fontBinaryPath = (uuid: string) => `${onePath(uuid)}/binary`;

/** `GET pim/fontdescription`: every font description, by name. */
export function useFontDescriptions() {
  return useQuery({
    queryKey: fontDescriptionKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/fontdescription', { schema: fontDescriptionListSchema, signal }),
  });
}

/** `GET pim/fontdescription/{uuid}`. */
export function useFontDescription(uuid: string | null) {
  return useQuery({
    queryKey: fontDescriptionKeys.one(uuid ?? ''),
    queryFn: ({ signal }) => apiFetch(onePath(uuid ?? ''), { schema: fontDescriptionSchema, signal }),
    enabled: uuid !== null,
    retry: false,
  });
}

/** The create request: the fields as text parts first, then the font file, so the server reads the fields before the bytes. */
export function fontFormData(form: FontDescriptionForm, file: File): FormData {
  const data = new FormData();
  data.append('uri', form.uri);
  data.append('name', form.name);
  data.append('type', form.type);
  data.append('license', form.license);
  for (const flag of FONT_FLAGS) data.append(flag, String(form[flag]));
  data.append(FONT_FILE_FIELD, file, file.name);
  return data;
}

function useRefreshAfterSave() {
  const queryClient = useQueryClient();
  return (saved: FontDescription) => {
    queryClient.setQueryData(fontDescriptionKeys.one(saved.uuid), saved);
    return queryClient.invalidateQueries({ queryKey: fontDescriptionKeys.list });
  };
}

/** `POST /pim/fontdescription/`: multipart with the fields and the font file. */
export function useCreateFontDescription() {
  const refresh = useRefreshAfterSave();
  return useMutation({
    mutationFn: ({ form, file }: { form: FontDescriptionForm; file: File }) =>
      apiFetch('pim/fontdescription/', { method: 'POST', body: fontFormData(form, file), schema: fontDescriptionSchema }),
    onSuccess: refresh,
  });
}

/** `PUT pim/fontdescription/{uuid}`: the properties; the URI is sent as it was saved, the file stays. */
export function useUpdateFontDescription() {
  const refresh = useRefreshAfterSave();
  return useMutation({
    mutationFn: ({ uuid, request }: { uuid: string; request: UpdateFontDescriptionRequest }) =>
      apiFetch(onePath(uuid), { method: 'PUT', body: request, schema: fontDescriptionSchema }),
    onSuccess: refresh,
  });
}

/** `DELETE pim/fontdescription/{uuid}`: the description and its font file. */
export function useDeleteFontDescription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(onePath(uuid), { method: 'DELETE' }),
    onSuccess: (_, uuid) => {
      queryClient.setQueryData<FontDescription[]>(fontDescriptionKeys.list, (list) => list?.filter((font) => font.uuid !== uuid));
      // Stale, refetched when next shown: refetching the deleted one now would be a 404 toast.
      return queryClient.invalidateQueries({ queryKey: fontDescriptionKeys.all, refetchType: 'none' });
    },
  });
}
