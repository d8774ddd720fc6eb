import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { ProviderLoginButton } from '../../session/provider-login-button';
import { useSession } from '../../session/session';

/** Where a signed-in user usually starts; the menus at the top hold the rest. */
export const LANDING_AREAS = [
  { to: '/imagesets', key: 'imagesets' },
  { to: '/analyzeimage', key: 'analyzeImage' },
  { to: '/annotateddatasets', key: 'annotatedDatasets' },
  { to: '/pimsimpletextline', key: 'textLines' },
  { to: '/changelog', key: 'changelog' },
] as const;

function AreaLinks() {
  const { t } = useTranslation('pages');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {LANDING_AREAS.map((area) => (
        <Card key={area.key} withBorder padding="lg">
          <Anchor component={Link} to={area.to} fw={600} size="lg">
            {t(`landing.areas.${area.key}.title`)}
          </Anchor>
          <Text size="sm" c="dimmed" mt={4}>
            {t(`landing.areas.${area.key}.text`)}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export function LandingPage() {
  const { t } = useTranslation('pages');
  const session = useSession();
  return (
    <Stack gap="lg" maw={900} mx="auto" py="md">
      <Title order={1}>{t('landing.title')}</Title>
      <Text size="lg">{t('landing.intro')}</Text>
      {session.status === 'checking' && <Spinner />}
      {session.status === 'signedIn' && (
        <>
          <Text>{t('landing.welcome', { name: session.user?.name ?? '' })}</Text>
          <AreaLinks />
          <Text size="sm" c="dimmed">
            {t('landing.moreAreas')}
          </Text>
        </>
      )}
      {session.status === 'signedOut' && (
        <Stack gap="sm" align="flex-start">
          <Text>{t('landing.loginPrompt')}</Text>
          <ProviderLoginButton />
        </Stack>
      )}
    </Stack>
  );
}
