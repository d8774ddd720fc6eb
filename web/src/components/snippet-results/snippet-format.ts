import type { SiameseSnippetResult } from '@pim/contract';
import { useMemo } from 'react';
import { useTranslation } from '../../i18n/use-translation';

/** The image page of a snippet's image, with the line it was cut from marked (the search hits' link). */
export function snippetLink(snippet: Pick<SiameseSnippetResult, 'documentImageId' | 'documentOCRResultLineUUID'>): string {
  const params = new URLSearchParams({ uuid: snippet.documentImageId });
  if (snippet.documentOCRResultLineUUID) params.set('line', snippet.documentOCRResultLineUUID);
  return `/documentimage?${params.toString()}`;
}

/** Distances and cosines with three decimals, in the reader's language ("0.125", "0,125"). */
export function useScoreFormat(): (value: number) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
    return (value: number) => format.format(value);
  }, [i18n.language]);
}
