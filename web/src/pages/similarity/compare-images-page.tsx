import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { CompareImagesResponse, NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useCompareImages } from '../../api/similarity';
import { useScoreFormat } from '../../components/snippet-results/snippet-format';
import { SnippetCard } from '../../components/snippet-results/snippet-results';
import { useTranslation } from '../../i18n/use-translation';
import { SimilarityImagePicker } from './pickers';
import { SearchOutcome, SimilarityPage, TwoColumns } from './similarity-layout';

/** The images' distance, then each snippet of the first image beside its nearest in the second. */
function ComparedPairs({ comparison }: { comparison: CompareImagesResponse }) {
  const { t } = useTranslation('similarity');
  const score = useScoreFormat();
  return (
    <Stack gap="md">
      <Text fw={600} data-testid="images-distance">
        {comparison.distance === null ? t('compareImages.noDistance') : t('compareImages.distance', { value: score(comparison.distance) })}
      </Text>
      {comparison.pairs.length === 0 ? (
        <Text c="dimmed">{t('results.empty')}</Text>
      ) : (
        <Box component="ul" aria-label={t('compareImages.pairs')} m={0} p={0} style={{ listStyle: 'none' }}>
          {comparison.pairs.map(({ query, match }) => (
            <Box component="li" key={query.uuid} py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
              <Group align="flex-start" gap="lg" wrap="wrap">
                <SnippetCard snippet={query} withScores={false} />
                <SnippetCard snippet={match} />
              </Group>
            </Box>
          ))}
        </Box>
      )}
    </Stack>
  );
}

function CompareImages({ model }: { model: string }) {
  const { t } = useTranslation('similarity');
  const [first, setFirst] = useState<NamedRef | null>(null);
  const [second, setSecond] = useState<NamedRef | null>(null);
  const comparison = useCompareImages(first && second && { model, imageUuid: first.uuid, exampleUuid: second.uuid });
  return (
    <TwoColumns
      left={
        <>
          <Title order={3}>{t('compareImages.first')}</Title>
          <SimilarityImagePicker model={model} image={first} onChange={setFirst} />
        </>
      }
      right={
        <>
          <Title order={3}>{t('compareImages.second')}</Title>
          <SimilarityImagePicker model={model} labels={{ set: t('compareImages.secondSet'), image: t('compareImages.secondImage') }} image={second} onChange={setSecond} />
          <SearchOutcome query={comparison} waitingFor={first && second ? null : t('compareImages.hint')}>
            {(answer) => <ComparedPairs comparison={answer} />}
          </SearchOutcome>
        </>
      }
    />
  );
}

/** `/pim/findsiamesesingleimage`: two images' handwriting compared, snippet by snippet. */
export function CompareImagesPage() {
  return <SimilarityPage screen="findsiamesesingleimage">{(model) => <CompareImages model={model} />}</SimilarityPage>;
}
