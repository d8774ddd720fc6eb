import { namedRefSchema, type NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Typeahead } from './typeahead';

const refKey = (ref: NamedRef) => ref.uuid;
const refName = (ref: NamedRef) => ref.name;

/** An image chosen the way people find one: first its image set, then one of that set's images. */
export function ImagePicker({ image, onChange }: { image: NamedRef | null; onChange: (image: NamedRef | null) => void }) {
  const { t } = useTranslation('imagesets');
  const [set, setSet] = useState<NamedRef | null>(null);
  return (
    <>
      <Typeahead
        label={t('tree.chooseImageset')}
        url="pim/documentimageset/autocomplete"
        itemSchema={namedRefSchema}
        getKey={refKey}
        getLabel={refName}
        value={set}
        onChange={(next) => {
          setSet(next);
          onChange(null);
        }}
      />
      {set && (
        <Typeahead
          key={set.uuid}
          label={t('tree.chooseImage')}
          url="pim/documentimage/autocomplete"
          params={{ setUuid: set.uuid }}
          itemSchema={namedRefSchema}
          getKey={refKey}
          getLabel={refName}
          value={image}
          onChange={onChange}
        />
      )}
    </>
  );
}
