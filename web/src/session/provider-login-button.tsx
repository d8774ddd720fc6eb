import { Button } from '@mantine/core';
import { IconLogin } from '@tabler/icons-react';
import { useTranslation } from '../i18n/use-translation';
import { useAppConfig } from './app-config';
import { useLoginUrl } from './login-url';

/** '<providerName> login': a browser navigation to the provider's sign-in, like the nav bar's Login link. */
export function ProviderLoginButton() {
  const { t } = useTranslation();
  const { providerName } = useAppConfig();
  const loginUrl = useLoginUrl();
  return (
    <Button component="a" href={loginUrl} leftSection={<IconLogin size={18} aria-hidden />}>
      {t('login.providerLogin', { provider: providerName })}
    </Button>
  );
}
