import { Box, Button, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLE, saveConfigurationRequestSchema, type Configuration } from '@pim/contract';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useConfiguration, useSaveConfiguration } from '../../api/configurations';
import { fieldErrors } from '../../components/field-errors';
import { Spinner } from '../../components/spinner';
import { EditPage } from '../../frames/edit-page';
import { useTranslation } from '../../i18n/use-translation';
import { LoadFailed } from '../users/load-failed';

type Field = 'key' | 'value';

/** Key and Value, checked with the contract's schema; Save goes back to the list. */
function ConfigurationForm({ configuration }: { configuration: Configuration | null }) {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const save = useSaveConfiguration(configuration?.uuid ?? null);
  const [draft, setDraft] = useState({ key: configuration?.key ?? '', value: configuration?.value ?? '' });
  // A field's message shows once it was edited, or on Save: a new form does not start in red.
  const [touched, setTouched] = useState<Set<Field | 'all'>>(new Set());
  const parsed = saveConfigurationRequestSchema.safeParse(draft);
  const errors = fieldErrors(parsed);
  const shown = (field: Field) => (touched.has(field) || touched.has('all') ? errors[field] : undefined);
  const change = (field: Field, value: string) => {
    setDraft((old) => ({ ...old, [field]: value }));
    setTouched((old) => new Set(old).add(field));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(new Set(['all']));
    if (!parsed.success) return;
    save.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('configuration.saved') });
        void navigate('/configurations');
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={800}>
        <TextInput
          label={t('configuration.key')}
          withAsterisk
          value={draft.key}
          onChange={(event) => change('key', event.currentTarget.value)}
          error={shown('key')}
        />
        <Textarea
          label={t('configuration.value')}
          autosize
          minRows={3}
          maxRows={20}
          value={draft.value}
          onChange={(event) => change('value', event.currentTarget.value)}
          error={shown('value')}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Box>
          <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('configuration.save')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}

function LoadedConfiguration({ id }: { id: string }) {
  const { t } = useTranslation('settings');
  const configuration = useConfiguration(id);
  if (configuration.isPending) return <Spinner />;
  if (configuration.isError) {
    return <LoadFailed error={configuration.error} forbidden={t('configuration.forbidden')} failed={t('configuration.loadFailed')} />;
  }
  return <ConfigurationForm key={configuration.data.uuid} configuration={configuration.data} />;
}

/** `/pim/configuration[?id]`: 'New configuration' without an id, 'Update configuration' with one. */
export function ConfigurationPage() {
  const { t } = useTranslation('settings');
  return (
    <EditPage
      param="id"
      back={{ to: '/configurations', label: t('configuration.back') }}
      newTitle={t('configuration.newTitle')}
      updateTitle={t('configuration.updateTitle')}
      saved={(id) => <LoadedConfiguration id={id} />}
      fresh={<ConfigurationForm configuration={null} />}
      role={ROLE.ADMIN}
      refusedTitle={t('configuration.forbidden')}
    />
  );
}
