import { Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';

/** A placeholder (spec part 1 §2): signing in happens through the provider link at the top. */
export function LoginPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <Paper maw={420} mx="auto" mt="xl" p="lg" withBorder>
      <form onSubmit={(event) => event.preventDefault()}>
        <Stack gap="md">
          <Title order={2}>{t('login.title')}</Title>
          <Text c="dimmed">{t('login.useTopLogin')}</Text>
          <TextInput label={t('login.email')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={t('login.password')} value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" disabled={email === '' || password === ''}>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
