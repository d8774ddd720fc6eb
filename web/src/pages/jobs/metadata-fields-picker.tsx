import { Badge, CloseButton, Group, Input, Stack, Text } from '@mantine/core';
import { fieldSetAutocompleteResponseSchema, pimFieldRefSchema, type NamedRef } from '@pim/contract';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';
import type { PimFieldRef } from './job-draft';

const fieldSetItem = fieldSetAutocompleteResponseSchema.shape.results.element;
const fieldName = (field: PimFieldRef) => field.label || field.name;
const fieldsUrl = (fieldSet: NamedRef) => `pim/pimfieldset/${encodeURIComponent(fieldSet.uuid)}/pimfields/autocomplete`;

interface MetadataFieldsPickerProps {
  fieldSet: NamedRef | null;
  onFieldSet: (fieldSet: NamedRef | null) => void;
  /** The chosen fields (`pimFieldUuids`), when the type takes them. */
  fields?: { value: PimFieldRef[]; onChange: (fields: PimFieldRef[]) => void; error?: string; required: boolean };
  /** The field whose values label the images (`pimFieldSiameseLabel`), when the type takes it. */
  label?: { value: PimFieldRef | null; onChange: (field: PimFieldRef | null) => void; error?: string; required: boolean };
}

/** The chosen fields as pills that can be taken off again. */
function ChosenFields({ value, onChange }: { value: PimFieldRef[]; onChange: (fields: PimFieldRef[]) => void }) {
  const { t } = useTranslation('jobs');
  if (value.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('form.noFieldsChosen')}
      </Text>
    );
  }
  return (
    <Group gap={6} aria-label={t('fields.pimFieldUuids')} role="list">
      {value.map((field) => (
        <Badge
          key={field.uuid}
          role="listitem"
          variant="light"
          size="lg"
          tt="none"
          rightSection={
            <CloseButton
              size="xs"
              aria-label={t('form.removeField', { name: fieldName(field) })}
              onClick={() => onChange(value.filter((other) => other.uuid !== field.uuid))}
            />
          }
        >
          {fieldName(field)}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * Metadata fields are picked from one field set: first the set, then its fields. Another set
 * clears the fields picked from the previous one.
 */
export function MetadataFieldsPicker({ fieldSet, onFieldSet, fields, label }: MetadataFieldsPickerProps) {
  const { t } = useTranslation('jobs');
  const chooseSetFirst = fieldSet ? undefined : t('form.fieldSetFirst');
  const changeSet = (next: NamedRef | null) => {
    onFieldSet(next);
    fields?.onChange([]);
    label?.onChange(null);
  };
  return (
    <Stack gap="sm">
      <Typeahead
        label={t('form.fieldSet')}
        placeholder={t('form.pick')}
        url="pim/pimfieldset/autocomplete"
        itemSchema={fieldSetItem}
        getKey={(set) => set.uuid}
        getLabel={(set) => set.name}
        value={fieldSet}
        onChange={changeSet}
        withAsterisk={Boolean(fields?.required || label?.required)}
      />
      {fields && (
        <Input.Wrapper label={t('fields.pimFieldUuids')} withAsterisk={fields.required} error={fields.error}>
          <Stack gap={6}>
            <ChosenFields value={fields.value} onChange={fields.onChange} />
            {/* Keyed by the count: after each pick the picker starts empty for the next one. */}
            <Typeahead
              key={fields.value.length}
              label={t('form.addField')}
              placeholder={chooseSetFirst ?? t('form.pick')}
              disabled={!fieldSet}
              url={fieldSet ? fieldsUrl(fieldSet) : ''}
              itemSchema={pimFieldRefSchema}
              getKey={(field) => field.uuid}
              getLabel={fieldName}
              value={null}
              onChange={(field) => {
                if (field && !fields.value.some((chosen) => chosen.uuid === field.uuid)) fields.onChange([...fields.value, field]);
              }}
            />
          </Stack>
        </Input.Wrapper>
      )}
      {label && (
        <Typeahead
          label={t('fields.pimFieldSiameseLabel')}
          placeholder={chooseSetFirst ?? t('form.pick')}
          disabled={!fieldSet}
          url={fieldSet ? fieldsUrl(fieldSet) : ''}
          itemSchema={pimFieldRefSchema}
          getKey={(field) => field.uuid}
          getLabel={fieldName}
          value={label.value}
          onChange={label.onChange}
          error={label.error}
          withAsterisk={label.required}
        />
      )}
    </Stack>
  );
}
