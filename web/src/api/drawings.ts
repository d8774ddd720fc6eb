import { drawingSchema, type DrawingShape } from '@pim/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client';

export const drawingKey = (imageUuid: string) => ['drawings', imageUuid] as const;

const drawingPath = (imageUuid: string) => `pim/documentimage/${encodeURIComponent(imageUuid)}/drawing`;

/** The shapes drawn on an image. */
export function useDrawing(imageUuid: string) {
  return useQuery({
    queryKey: drawingKey(imageUuid),
    queryFn: ({ signal }) => apiFetch(drawingPath(imageUuid), { schema: drawingSchema, signal }),
  });
}

/** Replaces the image's drawing with these shapes (none clears it). */
export function useSaveDrawing(imageUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shapes: DrawingShape[]) => apiFetch(drawingPath(imageUuid), { method: 'PUT', body: { shapes }, schema: drawingSchema }),
    onSuccess: (drawing) => queryClient.setQueryData(drawingKey(imageUuid), drawing),
  });
}
