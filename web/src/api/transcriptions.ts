import { groundTruthOfImageSchema, transcriptionLayoutSchema, transcriptionSchema } from '@pim/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from './client';

const transcriptionListSchema = z.array(transcriptionSchema);

export const transcriptionKeys = {
  ofImage: (imageUuid: string) => ['transcriptions', 'image', imageUuid] as const,
  groundTruth: (imageUuid: string) => ['transcriptions', 'groundtruth', imageUuid] as const,
  layout: (imageUuid: string, transcriptionUuid: string) => ['transcriptions', 'layout', imageUuid, transcriptionUuid] as const,
};

/** Quiet: a screen that says the failure where the data would be shows no toast as well. */
interface ReadOptions {
  quiet?: boolean;
}

/** The transcriptions of an image, oldest first. */
export function useTranscriptions(imageUuid: string, { quiet }: ReadOptions = {}) {
  return useQuery({
    queryKey: transcriptionKeys.ofImage(imageUuid),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimage/${encodeURIComponent(imageUuid)}/transcriptions`, { schema: transcriptionListSchema, signal, quiet }),
  });
}

/**
 * The corrected lines of each transcription of an image. Quiet: the transcriptions are still
 * worth showing without it, and their tabs say that the ground truth could not be loaded.
 */
export function useGroundTruthOfImage(imageUuid: string) {
  return useQuery({
    queryKey: transcriptionKeys.groundTruth(imageUuid),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimage/${encodeURIComponent(imageUuid)}/groundtruth`, {
        schema: groundTruthOfImageSchema,
        signal,
        quiet: true,
      }),
  });
}

/**
 * A transcription's regions and lines in the image's pixels; nothing is asked while
 * `transcriptionUuid` is null. A stored layout never changes, so it is fetched once.
 */
export function useTranscriptionLayout(imageUuid: string, transcriptionUuid: string | null, { quiet }: ReadOptions = {}) {
  return useQuery({
    queryKey: transcriptionKeys.layout(imageUuid, transcriptionUuid ?? ''),
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimage/${encodeURIComponent(imageUuid)}/transcriptions/${encodeURIComponent(transcriptionUuid!)}/layout`, {
        schema: transcriptionLayoutSchema,
        signal,
        quiet,
      }),
    enabled: transcriptionUuid !== null,
    staleTime: Infinity,
  });
}
