import { Select } from '@mantine/core';
import { BUILTIN_SIMILARITY_MODEL, namedRefSchema, similarityValuePageSchema, type NamedRef, type SimilarityModel } from '@pim/contract';
import type { z } from 'zod';
import { similarityPickerUrls } from '../../api/similarity';
import { SetThenImagePicker } from '../../components/typeahead/set-then-image-picker';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';

const refKey = (ref: NamedRef) => ref.uuid;
const refName = (ref: NamedRef) => ref.name;

/** A metadata field's value: `uuid` is the value itself. */
const valueSchema = similarityValuePageSchema.shape.results.element;
export type MetadataValue = z.infer<typeof valueSchema>;

/** The model a page searches with: the one the address names when it has snippets, else the built-in descriptor, else the first. */
export function chosenModel(models: SimilarityModel[] | undefined, wanted: string | null): string | null {
  if (!models || models.length === 0) return null;
  if (wanted && models.some((model) => model.id === wanted)) return wanted;
  return (models.find((model) => model.id === BUILTIN_SIMILARITY_MODEL) ?? models[0]!).id;
}

export function ModelSelect({ models, value, onChange }: { models: SimilarityModel[]; value: string; onChange: (model: string) => void }) {
  const { t } = useTranslation('similarity');
  return (
    <Select
      label={t('model.label')}
      data={models.map((model) => ({ value: model.id, label: t('model.option', { label: model.label, count: model.snippets }) }))}
      value={value}
      onChange={(next) => next && onChange(next)}
      allowDeselect={false}
      maw={420}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** One of the image sets with snippets of `model`. */
export function ImageSetPicker({ model, label, value, onChange }: { model: string; label: string; value: NamedRef | null; onChange: (set: NamedRef | null) => void }) {
  return (
    <Typeahead label={label} url={similarityPickerUrls.imageSets(model)} itemSchema={namedRefSchema} getKey={refKey} getLabel={refName} value={value} onChange={onChange} />
  );
}

/** An image with snippets of `model`: first its image set, then one of the set's images ('Image set', 'Image' unless `labels` say otherwise). */
export function SimilarityImagePicker({ model, labels, image, onChange }: { model: string; labels?: { set: string; image: string }; image: NamedRef | null; onChange: (image: NamedRef | null) => void }) {
  const { t } = useTranslation('similarity');
  return (
    <SetThenImagePicker
      labels={labels ?? { set: t('pickers.imageSet'), image: t('pickers.image') }}
      sets={{ url: similarityPickerUrls.imageSets(model) }}
      imagesOf={(set) => ({ url: similarityPickerUrls.images(model, set) })}
      image={image}
      onChange={onChange}
    />
  );
}

export interface MetadataFilter {
  field: NamedRef | null;
  value: MetadataValue | null;
}

/** An optional metadata field and one of its values, which keep only images holding that value. */
export function MetadataFilterPicker({ model, filter, onChange }: { model: string; filter: MetadataFilter; onChange: (filter: MetadataFilter) => void }) {
  const { t } = useTranslation('similarity');
  return (
    <>
      <Typeahead
        label={t('pickers.metadataField')}
        url={similarityPickerUrls.metadataFields(model)}
        itemSchema={namedRefSchema}
        getKey={refKey}
        getLabel={refName}
        value={filter.field}
        onChange={(field) => onChange({ field, value: null })}
      />
      {filter.field && (
        <Typeahead
          key={filter.field.uuid}
          label={t('pickers.metadataValue')}
          url={similarityPickerUrls.metadataValues(model, filter.field.uuid)}
          itemSchema={valueSchema}
          getKey={(value) => value.uuid}
          getLabel={(value) => value.name}
          value={filter.value}
          onChange={(value) => onChange({ field: filter.field, value })}
        />
      )}
    </>
  );
}
