import { namedRefSchema, type NamedRef } from '@pim/contract';
import { useState } from 'react';
import type { QueryValue } from '../../api/client';
import { Typeahead } from './typeahead';

const refKey = (ref: NamedRef) => ref.uuid;
const refName = (ref: NamedRef) => ref.name;

/** Where a typeahead's choices come from: its autocomplete path, with extra query parameters. */
export interface TypeaheadSource {
  url: string;
  params?: Record<string, QueryValue>;
}

interface SetThenImagePickerProps {
  labels: { set: string; image: string };
  sets: TypeaheadSource;
  imagesOf: (setUuid: string) => TypeaheadSource;
  image: NamedRef | null;
  onChange: (image: NamedRef | null) => void;
}

/**
 * An image chosen the way people find one: first its image set, then one of that set's images.
 * Another set forgets the chosen image.
 */
export function SetThenImagePicker({ labels, sets, imagesOf, image, onChange }: SetThenImagePickerProps) {
  const [set, setSet] = useState<NamedRef | null>(null);
  return (
    <>
      <Typeahead
        label={labels.set}
        {...sets}
        itemSchema={namedRefSchema}
        getKey={refKey}
        getLabel={refName}
        value={set}
        onChange={(next) => {
          setSet(next);
          onChange(null);
        }}
      />
      {set && <Typeahead key={set.uuid} label={labels.image} {...imagesOf(set.uuid)} itemSchema={namedRefSchema} getKey={refKey} getLabel={refName} value={image} onChange={onChange} />}
    </>
  );
}
