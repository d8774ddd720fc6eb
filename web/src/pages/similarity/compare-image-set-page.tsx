import { Title } from '@mantine/core';
import type { NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useCompareWithImageSet } from '../../api/similarity';
import { SnippetResults } from '../../components/snippet-results/snippet-results';
import { useTranslation } from '../../i18n/use-translation';
import { ImageSetPicker, SimilarityImagePicker } from './pickers';
import { SearchOutcome, SimilarityPage, TwoColumns } from './similarity-layout';

function CompareImageSet({ model }: { model: string }) {
  const { t } = useTranslation('similarity');
  const [image, setImage] = useState<NamedRef | null>(null);
  const [imageSet, setImageSet] = useState<NamedRef | null>(null);
  const ranked = useCompareWithImageSet(image && imageSet && { model, imageUuid: image.uuid, imageSetUuid: imageSet.uuid });
  return (
    <TwoColumns
      left={
        <>
          <Title order={3}>{t('compareImageSet.image')}</Title>
          <SimilarityImagePicker model={model} image={image} onChange={setImage} />
        </>
      }
      right={
        <>
          <Title order={3}>{t('compareImageSet.set')}</Title>
          <ImageSetPicker model={model} label={t('compareImageSet.searchSet')} value={imageSet} onChange={setImageSet} />
          <SearchOutcome query={ranked} waitingFor={image && imageSet ? null : t('compareImageSet.hint')}>
            {(results) => <SnippetResults results={results} label={t('compareImageSet.ranked')} />}
          </SearchOutcome>
        </>
      }
    />
  );
}

/** `/pim/findsiamesesingleimageset`: the images of a set ranked by their handwriting's likeness to one image. */
export function CompareImageSetPage() {
  return <SimilarityPage screen="findsiamesesingleimageset">{(model) => <CompareImageSet model={model} />}</SimilarityPage>;
}
