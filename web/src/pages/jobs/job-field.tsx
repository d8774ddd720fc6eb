import { NumberInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { JOB_DEFAULTS, type JobField, type NamedRef, type P2palaOptionList } from '@pim/contract';
import { useP2palaOptions } from '../../api/jobs';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';
import type { DraftValue } from './job-draft';
import { enumOptions, FIELD_INPUTS, numberLimits, type RefInput } from './job-field-inputs';

export interface JobFieldProps {
  field: JobField;
  value: DraftValue;
  onChange: (value: DraftValue) => void;
  error?: string;
  required: boolean;
  /** Shows the field's name in the payload under its label (a tool's parameter). */
  technical: boolean;
}

const defaultOf = (field: JobField) => (field in JOB_DEFAULTS ? String(JOB_DEFAULTS[field as keyof typeof JOB_DEFAULTS]) : undefined);

interface CommonProps {
  common: { label: string; description?: string; error?: string; withAsterisk: boolean };
  value: DraftValue;
  onChange: (value: DraftValue) => void;
}

/** A P2PaLA choice from the server's option list (the contract's until it arrives), or a choice the contract fixes. */
function OptionSelect({ field, list, common, value, onChange }: { field: JobField; list?: P2palaOptionList } & CommonProps) {
  const options = useP2palaOptions(list ?? 'loglevel', list !== undefined);
  const data = (list && options.data) || enumOptions(field);
  return <Select {...common} data={data} value={typeof value === 'string' ? value : null} onChange={onChange} allowDeselect={false} />;
}

function RefPicker({ input, ...props }: { input: RefInput } & CommonProps) {
  const { t } = useTranslation('jobs');
  return (
    <Typeahead
      {...props.common}
      placeholder={t('form.pick')}
      url={input.url}
      itemSchema={input.itemSchema}
      getKey={(item) => item.uuid}
      getLabel={(item) => item.name}
      value={(props.value as NamedRef | null) ?? null}
      onChange={(item) => props.onChange(item ? { uuid: item.uuid, name: item.name } : null)}
    />
  );
}

/** One field of the job form, its input chosen by what the payload takes (see FIELD_INPUTS). */
export function JobFieldInput({ field, value, onChange, error, required, technical }: JobFieldProps) {
  const { t } = useTranslation('jobs');
  const input = FIELD_INPUTS[field];
  const common = { label: t(`fields.${field}`), description: technical ? field : undefined, error, withAsterisk: required };
  switch (input.kind) {
    case 'ref':
      return <RefPicker input={input} common={common} value={value} onChange={onChange} />;
    case 'select':
      return <OptionSelect field={field} list={input.list} common={common} value={value} onChange={onChange} />;
    case 'switch':
      // Mantine puts a switch's description inside its label: the payload name would join its name.
      return (
        <Switch
          label={common.label}
          error={error}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'number': {
      const { min, max, integer } = numberLimits(field);
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={onChange}
          min={min}
          max={max}
          step={input.step ?? 1}
          allowDecimal={!integer}
          // Out of range is said at the field (the contract's message) rather than silently corrected.
          clampBehavior="none"
        />
      );
    }
    case 'text': {
      const props = {
        ...common,
        type: input.type,
        placeholder: defaultOf(field),
        value: typeof value === 'string' ? value : '',
        onChange: (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value),
      };
      return input.multiline ? <Textarea {...props} autosize minRows={2} maxRows={8} /> : <TextInput {...props} />;
    }
    case 'pimFields':
      // The metadata pickers belong to their field set: MetadataFieldsPicker draws them.
      return null;
  }
}
