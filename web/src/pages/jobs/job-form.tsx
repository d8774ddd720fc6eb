import { Box, Button, Fieldset, Group, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { JOB_TYPE_INFO, type JobField, type JobType, type JobTypeListItem, type NamedRef } from '@pim/contract';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useCreateJob } from '../../api/jobs';
import { useTranslation } from '../../i18n/use-translation';
import { checkDraft, fieldsOf, newJobDraft, type DraftValue, type JobDraft, type PimFieldRef } from './job-draft';
import { JobFieldInput } from './job-field';
import { FIELD_INPUTS, FORM_SECTIONS } from './job-field-inputs';
import { JobTypeSelect } from './job-type-select';
import { MetadataFieldsPicker } from './metadata-fields-picker';

interface JobFormProps {
  types: JobTypeListItem[];
  /** The set named in the address (`/pim/job?imageSet={uuid}`), already filled in. */
  imageSet: NamedRef | null;
}

type Shown = (field: JobField) => string | undefined;

interface SectionProps {
  draft: JobDraft & { jobType: JobType };
  shown: Shown;
  set: (field: JobField, value: DraftValue) => void;
  setFieldSet: (fieldSet: NamedRef | null) => void;
}

/**
 * The fields of one part. A tool's parameters are many: its switches come first in a row, then its
 * other fields in columns, then long texts at full width. Other parts are one column, in order.
 */
function SectionFields({ fields, technical, input }: { fields: JobField[]; technical: boolean; input: (field: JobField) => ReactNode }) {
  if (!technical) return <Stack gap="sm">{fields.map(input)}</Stack>;
  const kind = (field: JobField) => {
    const fieldInput = FIELD_INPUTS[field];
    if (fieldInput.kind === 'switch') return 'switch';
    return fieldInput.kind === 'text' && fieldInput.multiline ? 'wide' : 'column';
  };
  const of = (wanted: string) => fields.filter((field) => kind(field) === wanted);
  return (
    <Stack gap="sm">
      {of('switch').length > 0 && <Group gap="lg">{of('switch').map(input)}</Group>}
      {of('column').length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="sm">
          {of('column').map(input)}
        </SimpleGrid>
      )}
      {of('wide').map(input)}
    </Stack>
  );
}

/** The chosen type's fields, part by part (FORM_SECTIONS); a part without any of them is left out. */
function JobFields({ draft, shown, set, setFieldSet }: SectionProps) {
  const { t } = useTranslation('jobs');
  const typeFields = new Set(fieldsOf(draft.jobType));
  const required = new Set(JOB_TYPE_INFO[draft.jobType].required);
  const pick = (field: JobField) => ({ error: shown(field), required: required.has(field) });
  return FORM_SECTIONS.map((section) => {
    const fields = section.fields.filter((field) => typeFields.has(field));
    if (fields.length === 0) return null;
    const input = (field: JobField) => (
      <JobFieldInput key={field} field={field} value={draft.values[field]} onChange={(value) => set(field, value)} technical={section.technical} {...pick(field)} />
    );
    return (
      <Fieldset key={section.key} legend={t(`form.sections.${section.key}`)}>
        {section.key === 'metadata' ? (
          <MetadataFieldsPicker
            fieldSet={draft.fieldSet}
            onFieldSet={setFieldSet}
            fields={typeFields.has('pimFieldUuids') ? { value: draft.values.pimFieldUuids as PimFieldRef[], onChange: (value) => set('pimFieldUuids', value), ...pick('pimFieldUuids') } : undefined}
            label={typeFields.has('pimFieldSiameseLabel') ? { value: draft.values.pimFieldSiameseLabel as PimFieldRef | null, onChange: (value) => set('pimFieldSiameseLabel', value), ...pick('pimFieldSiameseLabel') } : undefined}
          />
        ) : (
          <SectionFields fields={fields} technical={section.technical} input={input} />
        )}
      </Fieldset>
    );
  });
}

/**
 * The creation form (spec part 2 §2, §5, §9): the job type first, then exactly the fields that type
 * uses, with the spec's defaults and limits. It is checked with the contract before it is sent.
 */
export function JobForm({ types, imageSet }: JobFormProps) {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  const create = useCreateJob();
  const [draft, setDraft] = useState(() => newJobDraft(imageSet));
  // A field's message shows once it was edited, or after Create: a new form does not start in red.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const checked = draft.jobType ? checkDraft({ ...draft, jobType: draft.jobType }) : null;

  const shown: Shown = (field) => {
    if (!checked || !(touched.has(field) || touched.has('*'))) return undefined;
    if (checked.errors[field]) return checked.errors[field];
    return checked.missing.includes(field) ? t('form.required', { field: t(`fields.${field}`) }) : undefined;
  };
  const set = (field: JobField, value: DraftValue) => {
    setDraft((old) => ({ ...old, values: { ...old.values, [field]: value } }));
    setTouched((old) => new Set(old).add(field));
  };

  // Another type is another form: its fields start without messages, keeping what was filled in.
  const chooseType = (jobType: JobType) => {
    setDraft((old) => ({ ...old, jobType }));
    setTouched(new Set());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(new Set(['*']));
    if (!checked?.valid) return;
    create.mutate(checked.request, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('form.created', { type: checked.request.jobType }) });
        void navigate('/jobs');
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={1100}>
        <JobTypeSelect types={types} value={draft.jobType} onChange={chooseType} />
        {draft.jobType && (
          <JobFields draft={{ ...draft, jobType: draft.jobType }} shown={shown} set={set} setFieldSet={(fieldSet) => setDraft((old) => ({ ...old, fieldSet }))} />
        )}
        <Box>
          {/* The spec's rule (part 2 §5): nothing to create until a type is chosen. */}
          <Button type="submit" disabled={!draft.jobType} loading={create.isPending} leftSection={<IconPlayerPlay size={16} aria-hidden />}>
            {t('form.create')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
