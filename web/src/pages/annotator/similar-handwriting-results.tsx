import { Alert, Checkbox, Stack, Text, Title } from '@mantine/core';
import { useCompareWithImageSet } from '../../api/similarity';
import { SnippetResults } from '../../components/snippet-results/snippet-results';
import { useTranslation } from '../../i18n/use-translation';

/** Results shown at first and added by each 'Show more': each shown snippet fetches its crop. */
const RESULTS_STEP = 10;

interface SimilarImagesProps {
  imageUuid: string;
  model: string;
  /** 'Only other image sets': leave out the images of the sets that hold this one. */
  onlyOtherSets: boolean;
  onOnlyOtherSetsChange: (checked: boolean) => void;
}

/**
 * The images of other sets (or of every set) whose handwriting is nearest to this image's, each by
 * its line nearest to it. Mount it with a key per image and model: the list starts short again.
 */
export function SimilarImages({ imageUuid, model, onlyOtherSets, onOnlyOtherSetsChange }: SimilarImagesProps) {
  const { t } = useTranslation('annotator');
  const similar = useCompareWithImageSet(
    { model, imageUuid, onlyDifferentImageSets: onlyOtherSets, onlyDifferentImages: true },
    // Toggling 'Only other image sets' keeps the last list on the screen until the new one is in.
    { quiet: true, keepPrevious: true },
  );

  return (
    <Stack gap="xs">
      <Title order={5}>{t('similar.results.title')}</Title>
      <Checkbox label={t('similar.results.onlyOtherSets')} checked={onlyOtherSets} onChange={(event) => onOnlyOtherSetsChange(event.currentTarget.checked)} />
      {similar.isError ? (
        <Alert color="red">{t('similar.results.failed', { message: similar.error.message })}</Alert>
      ) : similar.isPending ? (
        <Text size="sm" c="dimmed">
          {t('similar.results.loading')}
        </Text>
      ) : (
        <Stack gap="xs" aria-busy={similar.isPlaceholderData}>
          <SnippetResults
            results={similar.data}
            label={t('similar.results.title')}
            emptyText={t('similar.results.none')}
            wording={{ imageAlt: (label) => t('similar.results.thumbnailAlt', { label }), noImage: t('similar.results.noThumbnail') }}
            showMore={{ step: RESULTS_STEP, label: (shown, total) => t('similar.results.showMore', { shown, total }) }}
          />
        </Stack>
      )}
    </Stack>
  );
}
