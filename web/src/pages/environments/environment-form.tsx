import { Box, Button, Fieldset, Group, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ENVIRONMENT_SWITCHES,
  ENVIRONMENT_TEXT_FIELDS,
  saveEnvironmentRequestSchema,
  searchIndexSchema,
  type Environment,
  type EnvironmentSwitch,
  type EnvironmentTextField,
  type SearchIndex,
} from '@pim/contract';
import { IconCopy, IconDeviceFloppy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useSaveEnvironment } from '../../api/environments';
import { fieldErrors } from '../../components/field-errors';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';

type TextField = 'title' | 'path' | 'address' | EnvironmentTextField;
type Draft = Record<TextField, string> & Record<EnvironmentSwitch, boolean> & { elasticSearchIndex: SearchIndex | null };

/** Pages of text get a text area; class lists and labels one line. */
const MULTILINE: ReadonlySet<EnvironmentTextField> = new Set(['about', 'mainText', 'instructions']);

function draftOf(environment: Environment | null): Draft {
  const texts = Object.fromEntries(ENVIRONMENT_TEXT_FIELDS.map((name) => [name, environment?.[name] ?? '']));
  const switches = Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, environment?.[name] ?? false]));
  return {
    title: environment?.title ?? '',
    path: environment?.path ?? '',
    address: environment?.address ?? '',
    elasticSearchIndex: environment?.elasticSearchIndex ?? null,
    ...texts,
    ...switches,
  } as Draft;
}

/** Copies the Apache configuration, to paste into the web server's sites. */
function CopyConfig({ config }: { config: string }) {
  const { t } = useTranslation('settings');
  const copy = () =>
    navigator.clipboard.writeText(config).then(
      () => notifications.show({ color: 'green', message: t('environment.copied') }),
      () => notifications.show({ color: 'red', message: t('environment.copyFailed') }),
    );
  return (
    <Group justify="flex-end">
      <Button size="xs" variant="light" leftSection={<IconCopy size={14} aria-hidden />} onClick={() => void copy()}>
        {t('environment.copy')}
      </Button>
    </Group>
  );
}

/** Every text field and switch of an environment; domain and the Apache configuration are the server's. */
export function EnvironmentForm({ environment }: { environment: Environment | null }) {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const save = useSaveEnvironment(environment?.uuid ?? null);
  const [draft, setDraft] = useState(() => draftOf(environment));
  // A field's message shows once it was edited, or on Save: a new form does not start in red.
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const request = { ...draft, elasticSearchIndex: draft.elasticSearchIndex ? { uuid: draft.elasticSearchIndex.uuid } : null };
  const parsed = saveEnvironmentRequestSchema.safeParse(request);
  const errors = fieldErrors(parsed);
  const shown = (field: string) => (touched.has(field) || touched.has('*') ? errors[field] : undefined);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setDraft((old) => ({ ...old, [field]: value }));
    setTouched((old) => new Set(old).add(field));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(new Set(['*']));
    if (!parsed.success) return;
    save.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('environment.saved') });
        void navigate('/environments');
      },
    });
  };

  const textInput = (field: TextField, required = false, description?: string) => {
    const props = {
      label: t(`environment.fields.${field}`),
      description,
      withAsterisk: required,
      value: draft[field],
      error: shown(field),
      onChange: (event: { currentTarget: { value: string } }) => set(field, event.currentTarget.value),
    };
    return MULTILINE.has(field as EnvironmentTextField) ? (
      <Textarea key={field} {...props} autosize minRows={3} maxRows={12} />
    ) : (
      <TextInput key={field} {...props} />
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={960}>
        {textInput('title', true)}
        <Typeahead
          label={t('environment.fields.elasticSearchIndex')}
          placeholder={t('environment.noIndex')}
          url="pim/elasticsearchindex/autocomplete"
          itemSchema={searchIndexSchema}
          getKey={(index) => index.uuid}
          getLabel={(index) => index.name}
          value={draft.elasticSearchIndex}
          onChange={(index) => set('elasticSearchIndex', index)}
        />
        {textInput('path', true, t('environment.hints.path'))}
        {textInput('address', false, t('environment.hints.address'))}
        <Fieldset legend={t('environment.texts')}>
          <Stack gap="sm">{ENVIRONMENT_TEXT_FIELDS.map((field) => textInput(field))}</Stack>
        </Fieldset>
        <Fieldset legend={t('environment.switches')}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            {ENVIRONMENT_SWITCHES.map((name) => (
              <Switch key={name} label={name} checked={draft[name]} onChange={(event) => set(name, event.currentTarget.checked)} />
            ))}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('environment.derived')}>
          <Stack gap="sm">
            <TextInput label={t('environment.fields.domain')} value={environment?.domain ?? ''} readOnly variant="filled" description={t('environment.derivedHint')} />
            <Textarea
              label={t('environment.fields.generateApacheConfig')}
              value={environment?.generateApacheConfig ?? ''}
              readOnly
              variant="filled"
              autosize
              minRows={3}
              maxRows={30}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' } }}
            />
            {environment?.domain && <CopyConfig config={environment.generateApacheConfig} />}
          </Stack>
        </Fieldset>
        <Box>
          <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('environment.save')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
