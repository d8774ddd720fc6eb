import { Checkbox, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { namedRefSchema, SCRIPT_TYPES, type NamedRef, type PimField } from '@pim/contract';
import { Typeahead } from '../../components/typeahead/typeahead';
import { fixedValueOf, type FieldValue, type FixedValues, type FormValues } from './form-values';

/** The pickers of the two reference types and the autocomplete each asks. */
const PICKER_URLS = { pimuser: 'pim/users/autocomplete', documentimage: 'pim/documentimage/autocomplete' } as const;

const textOf = (value: FieldValue | undefined): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const refOf = (value: FieldValue | undefined): NamedRef | null => (typeof value === 'object' && value !== null ? value : null);

/** A select's options, plus a stored value that is no longer one of them, so the user sees it (with its error). */
function optionsWith(options: readonly string[], value: string): string[] {
  return value && !options.includes(value) ? [...options, value] : [...options];
}

interface FieldInputProps {
  field: PimField;
  value: FieldValue | undefined;
  error: string | undefined;
  onChange: (value: FieldValue) => void;
}

/** The Typeahead has no description or error of its own: they go beneath it as the other inputs show them. */
function PickerField({ field, value, error, onChange, url }: FieldInputProps & { url: string }) {
  return (
    <Stack gap={4}>
      <Typeahead
        label={field.label}
        url={url}
        itemSchema={namedRefSchema}
        getKey={(item) => item.uuid}
        getLabel={(item) => item.name}
        value={refOf(value)}
        onChange={onChange}
      />
      {field.description && (
        <Text size="xs" c="dimmed">
          {field.description}
        </Text>
      )}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** Each field type its own input (spec part 1 §3); the description under the label, the check's message as the error. */
function FieldInput(props: FieldInputProps) {
  const { field, value, error, onChange } = props;
  const common = { label: field.label, description: field.description || undefined, error };
  const text = textOf(value);
  switch (field.type) {
    case 'checkbox':
      return <Checkbox {...common} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />;
    case 'date':
      return <TextInput {...common} type="date" value={text} onChange={(event) => onChange(event.currentTarget.value)} />;
    case 'numeric':
      return <NumberInput {...common} value={typeof value === 'number' ? value : text} onChange={(next) => onChange(next)} />;
    case 'select':
      return (
        <Select
          {...common}
          data={optionsWith(field.possibleValues.map((option) => option.value), text)}
          value={text || null}
          onChange={(next) => onChange(next ?? '')}
          clearable
          searchable
        />
      );
    case 'script':
      return <Select {...common} data={optionsWith(SCRIPT_TYPES, text)} value={text || null} onChange={(next) => onChange(next ?? '')} clearable searchable />;
    case 'pimuser':
    case 'documentimage':
      return <PickerField {...props} url={PICKER_URLS[field.type]} />;
    case 'notes':
      return <Textarea {...common} value={text} onChange={(event) => onChange(event.currentTarget.value)} autosize minRows={3} maxRows={15} />;
    case 'text':
      return <TextInput {...common} value={text} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
}

interface MetadataFormProps {
  /**
   * The image the values belong to. Pickers start afresh for each image: the Typeahead keeps its
   * typed text when its value is cleared from outside, which a new image's empty picker must not
   * show. The other inputs stay, and so does the focus in them when a shortcut moves on.
   */
  imageUri: string;
  fields: PimField[];
  values: FormValues;
  errors: Record<string, string>;
  fixed: FixedValues;
  onChange: (fieldId: string, value: FieldValue) => void;
}

/** The form of a field set, fields in the set's order; 'uri' and 'Dataset uri' show the image and manifest, read-only. */
export function MetadataForm({ imageUri, fields, values, errors, fixed, onChange }: MetadataFormProps) {
  return (
    <Stack gap="sm">
      {fields.map((field) => {
        const fixedValue = fixedValueOf(field, fixed);
        if (fixedValue !== undefined) {
          return <TextInput key={field.id} label={field.label} description={field.description || undefined} value={fixedValue} readOnly />;
        }
        return (
          <FieldInput
            key={field.type === 'pimuser' || field.type === 'documentimage' ? `${field.id} ${imageUri}` : field.id}
            field={field}
            value={values[field.id]}
            error={errors[field.id]}
            onChange={(value) => onChange(field.id, value)}
          />
        );
      })}
    </Stack>
  );
}
