import type { Transcription } from '@pim/contract';
import type { TFunction } from 'i18next';

/** An ISO date-time as a date in the reader's language ("Mar 5, 2024", "5 mrt 2024"). */
export function formatDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/**
 * The tab label of each transcription: its transcriber, language and analyzed date, leaving out
 * what it lacks ("Transcription 2" when it lacks all three). Two alike get their position added,
 * so every tab can be told apart.
 */
export function transcriptionLabels(transcriptions: Transcription[], t: TFunction<'comparison'>, language: string): Map<string, string> {
  const bare = transcriptions.map((transcription, i) => {
    const { transcriber, language: textLanguage, analyzed } = transcription;
    const parts = [transcriber, textLanguage, analyzed && formatDate(analyzed, language)].filter((part): part is string => !!part?.trim());
    return parts.length > 0 ? parts.join(' · ') : t('tabs.untitled', { n: i + 1 });
  });
  const counts = new Map<string, number>();
  for (const label of bare) counts.set(label, (counts.get(label) ?? 0) + 1);
  return new Map(
    transcriptions.map((transcription, i) => {
      const label = bare[i]!;
      return [transcription.uuid, counts.get(label)! > 1 ? t('tabs.duplicate', { label, n: i + 1 }) : label];
    }),
  );
}
