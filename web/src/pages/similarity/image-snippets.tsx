import { Title } from '@mantine/core';
import type { NamedRef, SiameseSnippetResult } from '@pim/contract';
import { useSnippetsByModel } from '../../api/similarity';
import { SnippetResults } from '../../components/snippet-results/snippet-results';
import { useTranslation } from '../../i18n/use-translation';
import { SearchOutcome } from './similarity-layout';

interface ImageSnippetsProps {
  model: string;
  image: NamedRef | null;
  selected: string | null;
  onSelect: (snippet: SiameseSnippetResult) => void;
}

/** The snippets of the chosen image (`findByModel`), to pick the one to search with. */
export function ImageSnippets({ model, image, selected, onSelect }: ImageSnippetsProps) {
  const { t } = useTranslation('similarity');
  const snippets = useSnippetsByModel(image && { model, imageUuid: image.uuid });
  if (!image) return null;
  return (
    <>
      <Title order={4}>{t('snippets.title', { label: image.name })}</Title>
      <SearchOutcome query={snippets} waitingFor={null}>
        {(results) => (
          <SnippetResults
            results={results}
            label={t('snippets.title', { label: image.name })}
            onSelect={onSelect}
            selected={selected}
            withScores={false}
            emptyText={t('snippets.empty')}
          />
        )}
      </SearchOutcome>
    </>
  );
}
