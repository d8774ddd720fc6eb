import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/** @floating-ui/react's useMergeRefs, the one thing Mantine's ScrollArea takes from it (see web/vite-lean-mantine.ts). */
export function useMergeRefs<T>(refs: (Ref<T> | undefined)[]) {
  return useMergedRef(...refs);
}
