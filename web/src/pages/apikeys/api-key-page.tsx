import { ActionIcon, Alert, Box, Button, MultiSelect, Stack, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLE, API_KEY_USER_NAME_MAX, type ApiKey } from '@pim/contract';
import { IconAlertTriangle, IconCopy, IconDeviceFloppy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useCreateApiKey, usePossibleApiKeyRoles } from '../../api/apikeys';
import { BackLink } from '../../components/back-link';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';


/** The whole key, shown once: the server keeps only its hash. */
function CreatedKey({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation('apikeys');
  const copy = () => {
    navigator.clipboard.writeText(apiKey.apiKey).then(
      () => notifications.show({ color: 'green', message: t('form.copied') }),
      () => notifications.show({ color: 'red', message: t('form.copyFailed') }),
    );
  };
  return (
    <Stack gap="md" maw={640}>
      <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title={t('form.createdTitle', { name: apiKey.userName })}>
        {t('form.shownOnce')}
      </Alert>
      <TextInput
        label={t('form.apiKey')}
        value={apiKey.apiKey}
        readOnly
        variant="filled"
        onFocus={(event) => event.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        rightSection={
          <Tooltip label={t('form.copy')}>
            <ActionIcon variant="subtle" aria-label={t('form.copy')} onClick={copy}>
              <IconCopy size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        }
      />
      <BackLink to="/apikeys">{t('form.back')}</BackLink>
    </Stack>
  );
}

function NewKeyForm({ onCreated }: { onCreated: (key: ApiKey) => void }) {
  const { t } = useTranslation('apikeys');
  const roles = usePossibleApiKeyRoles();
  const create = useCreateApiKey();
  const [userName, setUserName] = useState('');
  const [chosenRoles, setChosenRoles] = useState<string[]>([]);
  const blank = userName.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank) return;
    create.mutate({ userName: userName.trim(), roles: chosenRoles }, { onSuccess: onCreated });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={640}>
        <TextInput
          label={t('form.userName')}
          withAsterisk
          value={userName}
          maxLength={API_KEY_USER_NAME_MAX}
          onChange={(event) => setUserName(event.currentTarget.value)}
        />
        <MultiSelect label={t('form.roles')} data={roles.data ?? []} value={chosenRoles} onChange={setChosenRoles} />
        <Box>
          <Button type="submit" disabled={blank} loading={create.isPending} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('form.save')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}

/** `/pim/apikey`: creates a key for a minion; the whole key is shown this once. */
export function ApiKeyPage() {
  const { t } = useTranslation('apikeys');
  const [created, setCreated] = useState<ApiKey | null>(null);
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to="/apikeys">{t('form.back')}</BackLink>
        <Title order={2}>{t('form.title')}</Title>
      </Stack>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('list.forbidden')}>
        {created ? <CreatedKey apiKey={created} /> : <NewKeyForm onCreated={setCreated} />}
      </RequireSignIn>
    </Stack>
  );
}
