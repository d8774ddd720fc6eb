import { Checkbox, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';

export interface LanguageCount {
  key: string;
  /** Null for a chosen language the facet no longer counts (not among its top values). */
  count: number | null;
}

/**
 * A language as people read it: the name in the screen's language for an ISO code ('deu' →
 * 'German (deu)'), the value itself for anything else (PAGE names languages in words).
 */
export function languageName(key: string, locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }).of(key);
    return name && name.toLowerCase() !== key.toLowerCase() ? `${name} (${key})` : key;
  } catch {
    return key;
  }
}

interface LanguageFilterProps {
  /** The facet's values, most frequent first. */
  languages: LanguageCount[];
  chosen: string[];
  onToggle: (language: string, chosen: boolean) => void;
}

/** The languages of the hits with their counts; a chosen one stays offered so it can be cleared. */
export function LanguageFilter({ languages, chosen, onToggle }: LanguageFilterProps) {
  const { t, i18n } = useTranslation('search');
  const counted = new Set(languages.map((language) => language.key));
  const shown = [...languages, ...chosen.filter((key) => !counted.has(key)).map((key) => ({ key, count: null }))];
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Text component="legend" fw={600} size="sm" mb={6}>
        {t('languages.title')}
      </Text>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('languages.none')}
        </Text>
      ) : (
        <Stack gap={6}>
          {shown.map(({ key, count }) => {
            const name = languageName(key, i18n.language);
            return (
              <Checkbox
                key={key}
                size="sm"
                label={count === null ? name : t('languages.option', { name, n: count.toLocaleString(i18n.language) })}
                checked={chosen.includes(key)}
                onChange={(event) => onToggle(key, event.currentTarget.checked)}
              />
            );
          })}
        </Stack>
      )}
    </fieldset>
  );
}
