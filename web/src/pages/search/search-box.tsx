import { Autocomplete, Button, Group } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { suggestsFor, useSuggestions } from '../../api/search';
import { useTranslation } from '../../i18n/use-translation';

/** As the pickers wait for a pause in typing before they ask (`TYPEAHEAD_DEBOUNCE_MS`). */
export const SUGGESTION_DEBOUNCE_MS = 300;

/** The query before its last word, and that word, which the suggestions complete. */
export function splitLastWord(text: string): { head: string; word: string } {
  const match = /^(.*?)(\S*)$/s.exec(text)!;
  return { head: match[1]!, word: match[2]!.replace(/^"/, '') };
}

/**
 * The query box: Enter (or the button) searches; while a word longer than 2 characters is typed,
 * words of the index that begin with it are offered, and choosing one completes it.
 */
export function SearchBox({ query, onSearch }: { query: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation('search');
  const [text, setText] = useState(query);
  // Back, Forward or a link change the query of the address: the box follows it.
  const [shownQuery, setShownQuery] = useState(query);
  if (query !== shownQuery) {
    setShownQuery(query);
    setText(query);
  }
  const { head, word } = splitLastWord(text);
  const [debouncedWord] = useDebouncedValue(word, SUGGESTION_DEBOUNCE_MS);
  // Only a word that rested, in a query being typed: not the one just searched for (as the box opens with it).
  const wanted = text !== query && debouncedWord === word ? word : '';
  const suggestions = useSuggestions(wanted);
  const quote = text.slice(head.length).startsWith('"') ? '"' : '';
  const options =
    suggestsFor(wanted)
      ? [...new Set((suggestions.data?.terms ?? []).filter((term) => term !== word).map((term) => head + quote + term))]
      : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text);
  };

  return (
    <form onSubmit={submit} role="search" aria-label={t('title')}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Autocomplete
          label={t('box.label')}
          placeholder={t('box.placeholder')}
          value={text}
          onChange={setText}
          data={options}
          // The server already chose the words; the box offers them all.
          filter={({ options: all }) => all}
          leftSection={<IconSearch size={16} aria-hidden />}
          comboboxProps={{ withinPortal: true }}
          autoFocus
          data-autofocus
          style={{ flex: 1 }}
          maw={640}
          type="search"
          autoComplete="off"
        />
        <Button type="submit">{t('box.submit')}</Button>
      </Group>
    </form>
  );
}
