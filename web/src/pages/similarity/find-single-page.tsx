import { Checkbox, Group, Select } from '@mantine/core';
import { SIMILARITY_DEFAULTS, type CompareBody, type DistanceAlgorithm, type NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useDistanceAlgorithms, useFindSingleWithMetadata } from '../../api/similarity';
import { useTranslation } from '../../i18n/use-translation';
import { ImageSnippets } from './image-snippets';
import { MetadataFilterPicker, SimilarityImagePicker, type MetadataFilter } from './pickers';
import { SimilarityPage, SnippetSearch, TwoColumns } from './similarity-layout';

interface SearchOptions {
  onlyDifferentImages: boolean;
  onlyDifferentImageSets: boolean;
  distanceAlgorithm: DistanceAlgorithm;
}

function OptionsForm({ options, onChange }: { options: SearchOptions; onChange: (options: SearchOptions) => void }) {
  const { t } = useTranslation('similarity');
  const algorithms = useDistanceAlgorithms();
  return (
    <Group gap="md" align="flex-end" wrap="wrap">
      <Checkbox
        label={t('findSingle.onlyDifferentImages')}
        checked={options.onlyDifferentImages}
        onChange={(event) => onChange({ ...options, onlyDifferentImages: event.currentTarget.checked })}
      />
      <Checkbox
        label={t('findSingle.onlyDifferentImageSets')}
        checked={options.onlyDifferentImageSets}
        onChange={(event) => onChange({ ...options, onlyDifferentImageSets: event.currentTarget.checked })}
      />
      <Select
        label={t('findSingle.distanceAlgorithm')}
        data={algorithms.data ?? [options.distanceAlgorithm]}
        value={options.distanceAlgorithm}
        onChange={(next) => next && onChange({ ...options, distanceAlgorithm: next as DistanceAlgorithm })}
        allowDeselect={false}
        w={200}
        comboboxProps={{ withinPortal: true }}
      />
    </Group>
  );
}

/** The search of the chosen snippet, with the options and the metadata filter; null until a snippet is chosen. */
function searchBody(model: string, example: string | null, options: SearchOptions, filter: MetadataFilter): CompareBody | null {
  if (example === null) return null;
  const body: CompareBody = { model, exampleUuid: example, ...options };
  if (filter.field && filter.value) return { ...body, pimField: filter.field.uuid, pimFieldValue: filter.value.uuid };
  return body;
}

function FindSingle({ model }: { model: string }) {
  const { t } = useTranslation('similarity');
  const [image, setImage] = useState<NamedRef | null>(null);
  const [filter, setFilter] = useState<MetadataFilter>({ field: null, value: null });
  const [example, setExample] = useState<string | null>(null);
  const [options, setOptions] = useState<SearchOptions>({
    onlyDifferentImages: false,
    onlyDifferentImageSets: false,
    distanceAlgorithm: SIMILARITY_DEFAULTS.distanceAlgorithm,
  });
  const results = useFindSingleWithMetadata(searchBody(model, example, options, filter));
  const chooseImage = (next: NamedRef | null) => {
    setImage(next);
    setExample(null);
  };

  return (
    <TwoColumns
      left={
        <>
          <SimilarityImagePicker model={model} image={image} onChange={chooseImage} />
          <MetadataFilterPicker model={model} filter={filter} onChange={setFilter} />
          <ImageSnippets model={model} image={image} selected={example} onSelect={(snippet) => setExample(snippet.uuid)} />
        </>
      }
      right={
        <SnippetSearch title={t('findSingle.results')} query={results} waitingFor={example === null ? t('findSingle.hint') : null}>
          <OptionsForm options={options} onChange={setOptions} />
        </SnippetSearch>
      }
    />
  );
}

/**
 * `/pim/findsiamesesingle`: a snippet of an image searched for in every set, optionally among
 * other images or sets only, or among images with a metadata value.
 */
export function FindSinglePage() {
  return <SimilarityPage screen="findsiamesesingle">{(model) => <FindSingle model={model} />}</SimilarityPage>;
}
