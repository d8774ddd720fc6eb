import { Checkbox, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { featuresSchema, SIMILARITY_DEFAULTS, type NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useFindSingleNew } from '../../api/similarity';
import { useTranslation } from '../../i18n/use-translation';
import { ImageSnippets } from './image-snippets';
import { SimilarityImagePicker } from './pickers';
import { SimilarityPage, SnippetSearch, TwoColumns, useAddressParams } from './similarity-layout';

/** Typing settles before the search is asked again. */
const FEATURES_DEBOUNCE_MS = 400;

/** The features as the contract reads them, or its message when it cannot. */
function checkFeatures(text: string): { features: string; error: null } | { features: null; error: string } {
  const parsed = featuresSchema.safeParse(text);
  return parsed.success ? { features: parsed.data, error: null } : { features: null, error: parsed.error.issues[0]?.message ?? '' };
}

function FindSingleNew({ model }: { model: string }) {
  const { t } = useTranslation('similarity');
  const [params, change] = useAddressParams();
  const uuid = params.get('uuid');
  const useCosine = params.get('usecosine') !== String(!SIMILARITY_DEFAULTS.useCosine);
  // The field is the typed text; the address and the search take it once it settles.
  const [featuresText, setFeaturesText] = useState(params.get('features') ?? SIMILARITY_DEFAULTS.features);
  const [settledText] = useDebouncedValue(featuresText, FEATURES_DEBOUNCE_MS);
  const typed = checkFeatures(featuresText);
  const settled = checkFeatures(settledText);
  const [image, setImage] = useState<NamedRef | null>(null);

  const ready = uuid !== null && typed.features !== null && settled.features !== null;
  const results = useFindSingleNew(ready ? { uuid, model, usecosine: useCosine, features: settled.features } : null);
  let waitingFor: string | null = null;
  if (uuid === null) waitingFor = t('findSingleNew.hint');
  else if (!ready) waitingFor = t('findSingleNew.fixFeatures');

  return (
    <TwoColumns
      left={
        <>
          <Checkbox
            label={t('findSingleNew.useCosine')}
            checked={useCosine}
            onChange={(event) => change({ usecosine: event.currentTarget.checked === SIMILARITY_DEFAULTS.useCosine ? null : String(event.currentTarget.checked) })}
          />
          <TextInput
            label={t('findSingleNew.features')}
            description={t('findSingleNew.featuresHelp')}
            value={featuresText}
            error={typed.error}
            maw={420}
            onChange={(event) => {
              const text = event.currentTarget.value;
              setFeaturesText(text);
              change({ features: text === SIMILARITY_DEFAULTS.features ? null : text });
            }}
          />
          <SimilarityImagePicker model={model} image={image} onChange={setImage} />
          <ImageSnippets model={model} image={image} selected={uuid} onSelect={(snippet) => change({ uuid: snippet.uuid }, { push: true })} />
        </>
      }
      right={<SnippetSearch title={t('findSingleNew.results')} query={results} waitingFor={waitingFor} />}
    />
  );
}

/**
 * `/pim/findsiamesesingle2`: the nearest snippets to one (`?uuid=`, or chosen from an image), by
 * the model's features picked in 'Features', with or without cosine similarity.
 */
export function FindSingleNewPage() {
  return (
    <SimilarityPage screen="findsiamesesingle2" modelParams={['uuid']}>
      {(model) => <FindSingleNew model={model} />}
    </SimilarityPage>
  );
}
