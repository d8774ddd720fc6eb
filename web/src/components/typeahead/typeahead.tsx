import { Button, Combobox, Loader, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { QueryValue } from '../../api/client';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { fetchTypeaheadChunk, shouldSearch } from './typeahead-source';

export const TYPEAHEAD_DEBOUNCE_MS = 300;

export interface TypeaheadProps<T> {
  label: string;
  /** API path of the autocomplete endpoint, relative to the API base. */
  url: string;
  itemSchema: z.ZodType<T>;
  getKey: (item: T) => string;
  getLabel: (item: T) => string;
  value: T | null;
  onChange: (item: T | null) => void;
  placeholder?: string;
  disabled?: boolean;
  /** Extra query parameters; a change asks the server again. */
  params?: Record<string, QueryValue>;
  /** A validation message under the input. */
  error?: string;
  /** Marks the field as required with an asterisk. */
  withAsterisk?: boolean;
}

/** A server-backed picker. It reloads when the term or the 'Own data only' preference changes. */
export function Typeahead<T>({ label, url, itemSchema, getKey, getLabel, value, onChange, placeholder, disabled, params, error, withAsterisk }: TypeaheadProps<T>) {
  const { t } = useTranslation();
  const [onlyOwnData] = useOwnDataOnly();
  const [search, setSearch] = useState(value ? getLabel(value) : '');
  // A value set from outside shows its label in the input (a form loading its record), and one
  // cleared from outside empties it (a form reset after Add); typing clears the value itself.
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setSearch(value ? getLabel(value) : '');
  }
  const [term] = useDebouncedValue(search.trim(), TYPEAHEAD_DEBOUNCE_MS);
  // Nothing is asked before the user opens the picker: a page full of pickers stays quiet.
  const [wanted, setWanted] = useState(false);
  const combobox = useCombobox({
    onDropdownOpen: () => setWanted(true),
    onDropdownClose: () => combobox.resetSelectedOption(),
  });

  const searchable = shouldSearch(term);
  const query = useInfiniteQuery({
    queryKey: ['typeahead', url, params, onlyOwnData, term],
    queryFn: ({ pageParam, signal }) =>
      fetchTypeaheadChunk(url, itemSchema, { onlyOwnData, term, skip: pageParam, params, signal }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.reduce((count, page) => count + page.items.length, 0) : undefined),
    enabled: wanted && searchable,
    // The options of the last term stay while the next term's are asked: they don't blink out at
    // every keystroke, and an option being clicked is not taken away under the pointer.
    placeholderData: keepPreviousData,
  });
  const items = searchable ? (query.data?.pages.flatMap((page) => page.items) ?? []) : [];

  const select = (key: string) => {
    const item = items.find((candidate) => getKey(candidate) === key);
    if (!item) return;
    onChange(item);
    setSearch(getLabel(item));
    combobox.closeDropdown();
  };

  let hint: string | null = null;
  if (!searchable) hint = t('typeahead.minLength');
  else if (query.isSuccess && items.length === 0) hint = t('typeahead.nothingFound');

  return (
    <Combobox store={combobox} onOptionSubmit={select}>
      <Combobox.Target>
        <TextInput
          label={label}
          placeholder={placeholder}
          disabled={disabled}
          error={error}
          withAsterisk={withAsterisk}
          value={search}
          rightSection={query.isFetching ? <Loader size={16} /> : <Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            if (value) {
              setShownValue(null);
              onChange(null);
            }
            combobox.openDropdown();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={260} style={{ overflowY: 'auto' }}>
          {items.map((item) => (
            <Combobox.Option value={getKey(item)} key={getKey(item)}>
              {getLabel(item)}
            </Combobox.Option>
          ))}
          {hint && <Combobox.Empty>{hint}</Combobox.Empty>}
        </Combobox.Options>
        {query.hasNextPage && (
          <Combobox.Footer>
            <Button
              size="compact-xs"
              variant="subtle"
              loading={query.isFetchingNextPage}
              // Keep the focus in the input so the dropdown stays open.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => void query.fetchNextPage()}
            >
              {t('typeahead.loadMore')}
            </Button>
          </Combobox.Footer>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
