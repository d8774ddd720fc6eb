import { Alert, Box, Divider, Group, Loader, Pagination, Select, Stack, Text, Title } from '@mantine/core';
import { SEARCH_PAGE_SIZE, SEARCH_SORTS, SEARCH_TOTAL_HITS_CAP, type SearchSortKey } from '@pim/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useSearch, type SearchResults } from '../../api/search';
import { useTranslation } from '../../i18n/use-translation';
import { LanguageFilter } from './language-filter';
import { SearchBox } from './search-box';
import { SearchHitItem } from './search-hit';
import { LAST_PAGE, useSearchState } from './search-state';

function HitCount({ total }: { total: SearchResults['hits']['total'] }) {
  const { t } = useTranslation('search');
  const text = total.relation === 'gte' ? t('countMore', { count: total.value }) : t('count', { count: total.value });
  return (
    <Text fw={600} aria-live="polite" data-testid="hit-count">
      {text}
    </Text>
  );
}

export function SearchPage() {
  const { t } = useTranslation('search');
  const [state, actions] = useSearchState();
  const search = useSearch(state);
  const results = search.data;
  const pages = results ? Math.min(Math.ceil(Math.min(results.hits.total.value, SEARCH_TOTAL_HITS_CAP) / SEARCH_PAGE_SIZE), LAST_PAGE) : 0;

  return (
    <Stack gap="md">
      <Title order={2}>{t('title')}</Title>
      <SearchBox query={state.q} onSearch={actions.search} />
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Box w={220} style={{ flex: 'none' }}>
          <LanguageFilter
            languages={results?.languages ?? []}
            chosen={state.languages}
            onToggle={actions.toggleLanguage}
          />
        </Box>
        <Stack gap="sm" style={{ flex: 1, minWidth: 320 }}>
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <Group gap="sm">
              {results && <HitCount total={results.hits.total} />}
              {search.isFetching && <Loader size="xs" aria-label={t('loading')} />}
            </Group>
            <Select
              label={t('sort.label')}
              data={SEARCH_SORTS.map((sort) => ({ value: sort.key, label: t(`sort.${sort.key}`) }))}
              value={state.sort}
              onChange={(value) => value && actions.setSort(value as SearchSortKey)}
              allowDeselect={false}
              w={220}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
          <SearchResultList state={search} />
          {pages > 1 && (
            <Box component="nav" aria-label={t('pages')}>
              <Pagination
                total={pages}
                value={state.page}
                onChange={actions.setPage}
                withEdges
                getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
                getItemProps={(page) => ({ 'aria-label': t('pagination.page', { n: page }), 'aria-current': page === state.page ? 'page' : undefined })}
              />
            </Box>
          )}
        </Stack>
      </Group>
    </Stack>
  );
}

function SearchResultList({ state }: { state: ReturnType<typeof useSearch> }) {
  const { t } = useTranslation('search');
  if (state.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('failed')}>
        {state.error.message}
      </Alert>
    );
  }
  if (!state.data) return <Loader aria-label={t('loading')} />;
  const hits = state.data.hits.hits;
  if (hits.length === 0) {
    return (
      <Stack gap={4}>
        <Text>{t('empty')}</Text>
        <Text size="sm" c="dimmed">
          {t('emptyHint')}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={0} component="section" aria-label={t('results')}>
      {hits.map((hit, i) => (
        <Box key={`${hit._index}/${hit._id}`}>
          {i > 0 && <Divider />}
          <SearchHitItem hit={hit} />
        </Box>
      ))}
    </Stack>
  );
}
