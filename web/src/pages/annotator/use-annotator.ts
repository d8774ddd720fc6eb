import { notifications } from '@mantine/notifications';
import type { PimField, StoredMetadataValue } from '@pim/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { metadataKeys, useSaveMetadata, useStoredMetadata } from '../../api/metadata';
import { useTranslation } from '../../i18n/use-translation';
import { carryOver, emptyValues, fieldErrors, saveRequest, withStored, type FieldValue, type FormValues } from './form-values';
import type { ParsedManifest } from './manifest-canvases';

interface FormState {
  imageUri: string;
  values: FormValues;
  /** Whether the stored values of `imageUri` are in `values`; until then the form cannot be saved. */
  loaded: boolean;
  /** Values typed before the stored ones arrived; they win over them. */
  typed: FormValues;
}

/**
 * The form of the image being viewed. When the image changes, fields not marked copyValue start
 * empty and copyValue fields keep their value; then the stored values of the new image are laid
 * over them (see withStored: a stored value wins). `stored` is undefined while they load.
 */
function useImageForm(fields: PimField[], imageUri: string, stored: StoredMetadataValue[] | undefined) {
  const [state, setState] = useState<FormState>(() => ({ imageUri, values: emptyValues(fields), loaded: false, typed: {} }));
  let next = state;
  if (next.imageUri !== imageUri) next = { imageUri, values: carryOver(fields, next.values), loaded: false, typed: {} };
  // What the user typed while the stored values loaded is laid over them: nothing typed is lost.
  if (!next.loaded && stored) next = { ...next, values: { ...withStored(fields, next.values, stored), ...next.typed }, loaded: true, typed: {} };
  // Adjusting state while rendering: the new image never renders with the last image's values.
  if (next !== state) setState(next);
  const setValue = useCallback((id: string, value: FieldValue) => {
    setState((current) => ({
      ...current,
      values: { ...current.values, [id]: value },
      typed: current.loaded ? current.typed : { ...current.typed, [id]: value },
    }));
  }, []);
  return { values: next.values, loaded: next.loaded, setValue };
}

export interface AnnotatorOptions {
  fields: PimField[];
  fieldSetId: string;
  manifestUri: string;
  manifest: ParsedManifest;
  /** The canvas being viewed. */
  index: number;
  /** Shows another image (its imageServiceId). */
  onMove: (imageUri: string) => void;
}

/**
 * The annotator's form and actions (spec part 1 §4): Save stores the form; Next and Previous save
 * first and move only when that worked; past the last or first image they say so and stay.
 */
export function useAnnotator({ fields, fieldSetId, manifestUri, manifest, index, onMove }: AnnotatorOptions) {
  const { t } = useTranslation('annotator');
  const queryClient = useQueryClient();
  const canvas = manifest.canvases[index]!;
  const imageUri = canvas.imageServiceId;
  const stored = useStoredMetadata(imageUri, fieldSetId);
  // Values being refetched may be older than what the server has now: wait for the fresh ones.
  const form = useImageForm(fields, imageUri, stored.isSuccess && !stored.isFetching ? stored.data : undefined);
  const save = useSaveMetadata();
  const errors = useMemo(() => fieldErrors(fields, form.values), [fields, form.values]);
  const fixed = { uri: imageUri, datasetUri: manifestUri };
  // A held-down shortcut fires again before the busy state renders: one action at a time.
  const running = useRef(false);
  const busy = save.isPending || !form.loaded;

  const saveForm = async (): Promise<boolean> => {
    if (Object.keys(errors).length > 0) {
      notifications.show({ color: 'red', message: t('form.invalid') });
      return false;
    }
    try {
      const saved = await save.mutateAsync(saveRequest(fields, form.values, fixed, manifest.label));
      // What the server now has for this image: coming back to it shows this, not an older copy.
      queryClient.setQueryData(metadataKeys.values(imageUri, fieldSetId), saved);
      return true;
    } catch {
      // The API client has shown the server's reason in a toast; the user stays on this image.
      return false;
    }
  };

  const exclusive = (action: () => Promise<void>) => {
    if (running.current || busy) return;
    running.current = true;
    void action().finally(() => {
      running.current = false;
    });
  };

  const saveOnly = () =>
    exclusive(async () => {
      if (await saveForm()) notifications.show({ color: 'green', message: t('form.saved') });
    });

  const move = (step: 1 | -1) =>
    exclusive(async () => {
      if (!(await saveForm())) return;
      const target = manifest.canvases[index + step];
      if (target) onMove(target.imageServiceId);
      else notifications.show({ color: 'blue', message: t(step > 0 ? 'navigation.end' : 'navigation.beginning') });
    });

  return {
    canvas,
    values: form.values,
    setValue: form.setValue,
    errors,
    fixed,
    loaded: form.loaded,
    stored,
    busy,
    saving: save.isPending,
    save: saveOnly,
    next: () => move(1),
    previous: () => move(-1),
  };
}
