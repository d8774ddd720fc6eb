import { Stack, Text, Title } from '@mantine/core';
import type { SiameseSnippetResult } from '@pim/contract';
import { useMemo } from 'react';
import { useNearestSnippets, useValidationSet } from '../../api/similarity';
import { SnippetResults } from '../../components/snippet-results/snippet-results';
import { useTranslation } from '../../i18n/use-translation';
import { SearchOutcome, SimilarityPage, SnippetSearch, TwoColumns, useAddressParams } from './similarity-layout';

/** The labelled snippets by tag, tags in alphabetical order, the untagged last. */
export function groupByTag(snippets: SiameseSnippetResult[]): { tag: string | null; snippets: SiameseSnippetResult[] }[] {
  const groups = new Map<string | null, SiameseSnippetResult[]>();
  for (const snippet of snippets) {
    const tag = snippet.tag || null;
    groups.set(tag, [...(groups.get(tag) ?? []), snippet]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([tag, list]) => ({ tag, snippets: list }));
}

function ValidationSet({ model, chosen, onChoose }: { model: string; chosen: string | null; onChoose: (snippet: SiameseSnippetResult) => void }) {
  const { t } = useTranslation('similarity');
  const validation = useValidationSet(model);
  const groups = useMemo(() => groupByTag(validation.data ?? []), [validation.data]);
  return (
    <SearchOutcome query={validation} waitingFor={null}>
      {() =>
        groups.length === 0 ? (
          <Text c="dimmed">{t('findSiamese.empty')}</Text>
        ) : (
          <Stack gap="lg">
            {groups.map(({ tag, snippets }) => {
              const name = tag ?? t('results.noTag');
              return (
                <Stack key={tag ?? ''} gap="xs">
                  <Title order={4}>{t('findSiamese.group', { tag: name, count: snippets.length })}</Title>
                  <SnippetResults results={snippets} label={name} onSelect={onChoose} selected={chosen} withScores={false} />
                </Stack>
              );
            })}
          </Stack>
        )
      }
    </SearchOutcome>
  );
}

function FindSiamese({ model }: { model: string }) {
  const { t } = useTranslation('similarity');
  const [params, change] = useAddressParams();
  const id = params.get('id');
  const nearest = useNearestSnippets(id === null ? null : { id, model });
  return (
    <TwoColumns
      left={
        <>
          <Title order={3}>{t('findSiamese.validationSet')}</Title>
          <ValidationSet model={model} chosen={id} onChoose={(snippet) => change({ model, id: snippet.uuid }, { push: true })} />
        </>
      }
      right={<SnippetSearch title={t('findSiamese.nearest')} query={nearest} waitingFor={id === null ? t('findSiamese.hint') : null} />}
    />
  );
}

/** `/pim/findsiamese`: a model's labelled snippets by tag; a chosen one shows its nearest (`?model=&id=`). */
export function FindSiamesePage() {
  return (
    <SimilarityPage screen="findsiamese" modelParams={['id']}>
      {(model) => <FindSiamese model={model} />}
    </SimilarityPage>
  );
}
