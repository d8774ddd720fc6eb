import { Alert, Anchor, Divider, Select, Stack, Text } from '@mantine/core';
import type { PimField } from '@pim/contract';
import { Suspense, useState } from 'react';
import { Link } from 'react-router';
import { useSimilarityModels } from '../../api/similarity';
import { Trans } from '../../i18n/trans';
import { useTranslation } from '../../i18n/use-translation';
import type { FieldValue, FormValues } from './form-values';
import { ownImageUuid } from './paths';
import { DateEstimatePanel } from './similar-handwriting-estimate';
import { SimilarImages } from './similar-handwriting-results';

interface SimilarHandwritingProps {
  /** The current canvas's image (its Image service id). */
  imageUri: string;
  fields: PimField[];
  values: FormValues;
  /** Puts a value into the annotator's form; its Save stores it. */
  onCopy: (fieldId: string, value: FieldValue) => void;
}

function LoadingModels() {
  const { t } = useTranslation('annotator');
  return (
    <Text size="sm" c="dimmed">
      {t('similar.loadingModels')}
    </Text>
  );
}

/** The tab's content for one of our images: the models, then the estimate and the similar images by the chosen one. */
function OwnImageSimilarity({ imageUuid, fields, values, onCopy }: Omit<SimilarHandwritingProps, 'imageUri'> & { imageUuid: string }) {
  // The similarity namespace too: the result list (components/snippet-results) speaks it.
  const { t } = useTranslation(['annotator', 'similarity']);
  const models = useSimilarityModels({ quiet: true });
  const [chosen, setChosen] = useState<string | null>(null);
  const [onlyOtherSets, setOnlyOtherSets] = useState(true);

  if (models.isError) return <Alert color="red">{t('similar.modelsFailed', { message: models.error.message })}</Alert>;
  if (models.isPending) return <LoadingModels />;
  if (models.data.length === 0) {
    return (
      <Text size="sm">
        <Trans t={t} i18nKey="similar.noModels" components={{ jobs: <Anchor component={Link} to="/jobs" /> }} />
      </Text>
    );
  }

  const model = models.data.find((candidate) => candidate.id === chosen) ?? models.data[0]!;
  return (
    <Stack gap="md">
      {models.data.length > 1 && (
        <Select
          label={t('similar.model')}
          data={models.data.map((candidate) => ({ value: candidate.id, label: candidate.label }))}
          value={model.id}
          onChange={setChosen}
          allowDeselect={false}
        />
      )}
      <DateEstimatePanel imageUuid={imageUuid} model={model.id} fields={fields} values={values} onCopy={onCopy} />
      <Divider />
      <SimilarImages
        key={`${imageUuid} ${model.id}`}
        imageUuid={imageUuid}
        model={model.id}
        onlyOtherSets={onlyOtherSets}
        onOnlyOtherSetsChange={setOnlyOtherSets}
      />
    </Stack>
  );
}

/**
 * The annotator's 'Similar handwriting' tab: for one of our images, its date estimated from its
 * dated neighbours (ready to copy into the form) and the images whose handwriting is nearest, by a
 * similarity model (the first, or the one chosen when there are several). Another server's image
 * has no snippets here: the tab says so and asks nothing.
 */
export function SimilarHandwriting({ imageUri, ...rest }: SimilarHandwritingProps) {
  const { t } = useTranslation('annotator');
  const imageUuid = ownImageUuid(imageUri);
  if (imageUuid === null) return <Text size="sm">{t('similar.notOurs')}</Text>;
  // The similarity wording loads in the tab's place, not in the whole page's.
  return (
    <Suspense fallback={<LoadingModels />}>
      <OwnImageSimilarity imageUuid={imageUuid} {...rest} />
    </Suspense>
  );
}
