import type { Transcription } from '@pim/contract';
import { useMemo } from 'react';
import type { TFunction } from '../../../i18n/translations';
import { useTranslation } from '../../../i18n/use-translation';

/** An ISO date-time as a date in the reader's language ("Mar 5, 2024", "5 mrt 2024"). */
export function formatDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** The names the formats go by; a format of a later importer or job shows as it is stored. */
const FORMAT_NAMES: Record<string, string> = { page: 'PAGE', alto: 'ALTO', hocr: 'hOCR' };

export function formatName(format: string): string {
  return FORMAT_NAMES[format.toLowerCase()] ?? format;
}

/**
 * A transcription's language as a reader knows it: an ISO 639 code by its name in the reader's
 * language ("gml": "Middle Low German"), a name (PAGE's primaryLanguage, "German") as it is.
 */
export function languageName(value: string, readerLanguage: string): string {
  if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(value)) return value;
  try {
    return new Intl.DisplayNames([readerLanguage], { type: 'language', fallback: 'none' }).of(value) ?? value;
  } catch {
    return value;
  }
}

/**
 * How much a label says: the source (the uploaded file, else the transcriber) and the day;
 * then both file and transcriber; then the time of day too.
 */
type Detail = 0 | 1 | 2;

function labelOf(transcription: Transcription, detail: Detail, language: string): string {
  const { format, transcriber, sourceFileName, language: textLanguage, analyzed } = transcription;
  const sources = [sourceFileName, transcriber].map((s) => s?.trim()).filter((s): s is string => !!s);
  const source = detail === 0 ? sources.slice(0, 1) : sources;
  const when = analyzed && (detail === 2 ? formatDateTime(analyzed, language) : formatDate(analyzed, language));
  return [formatName(format), ...source, textLanguage && languageName(textLanguage, language), when]
    .filter((part): part is string => !!part?.trim())
    .join(' · ');
}

function repeated(labels: string[]): (label: string) => boolean {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return (label) => counts.get(label)! > 1;
}

/**
 * The tab label of each transcription: its format, where it comes from, its language and the day
 * it was analyzed ("PAGE · f12.xml · Latin · Mar 5, 2024"), leaving out what it lacks. Labels that
 * two transcriptions share say more until they differ, and get their position added if they
 * never do, so every tab can be told apart.
 */
export function transcriptionLabels(transcriptions: Transcription[], t: TFunction, language: string): Map<string, string> {
  let labels = transcriptions.map((transcription) => labelOf(transcription, 0, language));
  for (const detail of [1, 2] as const) {
    const isRepeated = repeated(labels);
    labels = labels.map((label, i) => (isRepeated(label) ? labelOf(transcriptions[i]!, detail, language) : label));
  }
  const isRepeated = repeated(labels);
  return new Map(
    transcriptions.map((transcription, i) => {
      const label = labels[i]!;
      if (!label) return [transcription.uuid, t('tabs.untitled', { n: i + 1 })];
      return [transcription.uuid, isRepeated(label) ? t('tabs.duplicate', { label, n: i + 1 }) : label];
    }),
  );
}

/** The tab labels of an image's transcriptions (none while they load), in the reader's language. */
export function useTranscriptionLabels(transcriptions: Transcription[] | undefined): Map<string, string> {
  const { t, i18n } = useTranslation('comparison');
  return useMemo(() => transcriptionLabels(transcriptions ?? [], t, i18n.language), [transcriptions, t, i18n.language]);
}
