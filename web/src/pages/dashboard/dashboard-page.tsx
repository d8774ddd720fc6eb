import '@mantine/charts/styles.css';
import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDashboard, useStatistics } from '../../api/statistics';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { RequireSignIn } from '../../session/require-sign-in';
import { MonthlyActivityChart, RecentActivityChart } from './activity-charts';
import { QueuePanel, StoragePanel } from './queue-storage';
import { SHARES, ShareChart } from './share-charts';
import { Totals } from './totals';

function DashboardContent() {
  const { t } = useTranslation('dashboard');
  const [onlyOwnData] = useOwnDataOnly();
  const results = useStatistics(onlyOwnData);
  const dashboard = useDashboard();
  const scope = results.documentimagesetstats.data?.scope;
  return (
    <Stack gap="md">
      {scope && (
        <Text size="sm" c="dimmed" data-testid="statistics-scope">
          {onlyOwnData ? t('scope.own') : t(`scope.${scope}`)}
        </Text>
      )}
      <Totals results={results} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <RecentActivityChart results={results} />
        <MonthlyActivityChart results={results} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
        {SHARES.map((source) => (
          <ShareChart key={source.titleKey} results={results} source={source} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <QueuePanel query={dashboard} />
        <StoragePanel query={dashboard} />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * `/pim/dashboard`, the statistics page (spec part 1 §2 "Statistics page", part 2 §2 Dashboard):
 * totals, the last 14 days and each month as charts, shares as pies, the job queue and storage.
 * Everything counts what the caller may read; an administrator sees the whole server.
 */
export function DashboardPage() {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('screens.dashboard')}</Title>
      </Group>
      <RequireSignIn>
        <DashboardContent />
      </RequireSignIn>
    </Stack>
  );
}
