import { Alert, Anchor, Badge, Card, Group, Loader, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { type Dashboard, STATISTICS_DAYS } from '@pim/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { formatBytes } from '../../components/format/bytes';
import { useTranslation } from '../../i18n/use-translation';

function Panel({ title, query, children }: { title: string; query: UseQueryResult<Dashboard, Error>; children: (data: Dashboard) => ReactNode }) {
  const { t } = useTranslation('dashboard');
  const titleId = useId();
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={3} size="h5" id={titleId}>
          {title}
        </Title>
        {query.error ? (
          <Alert color="red" title={t('loadFailed')}>
            {query.error.message}
          </Alert>
        ) : query.data ? (
          children(query.data)
        ) : (
          <Loader size="sm" aria-label={t('loading', { what: title })} />
        )}
      </Stack>
    </Card>
  );
}

/** Running and waiting jobs, and the recent failures. */
export function QueuePanel({ query }: { query: UseQueryResult<Dashboard, Error> }) {
  const { t, i18n } = useTranslation('dashboard');
  const format = new Intl.NumberFormat(i18n.language);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const waiting = (data: Dashboard) => data.jobs.queued.reduce((sum, q) => sum + q.count, 0);
  return (
    <Panel title={t(query.data?.scope === 'own' ? 'queue.titleOwn' : 'queue.title')} query={query}>
      {(data) => (
        <>
          <Group gap="lg">
            <Text size="sm">
              <Text span fw={700} fz="lg">
                {format.format(data.jobs.running)}
              </Text>{' '}
              {t('queue.running')}
            </Text>
            <Text size="sm">
              <Text span fw={700} fz="lg">
                {format.format(waiting(data))}
              </Text>{' '}
              {t('queue.waiting')}
            </Text>
            <Text size="sm">
              <Text span fw={700} fz="lg" c={data.jobs.failedRecently > 0 ? 'red.7' : undefined}>
                {format.format(data.jobs.failedRecently)}
              </Text>{' '}
              {t('queue.failedRecently', { days: STATISTICS_DAYS })}
            </Text>
          </Group>
          {data.jobs.queued.length > 0 && (
            <Table fz="sm" withTableBorder aria-label={t('queue.waitingPerType')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('queue.jobType')}</Table.Th>
                  <Table.Th ta="right">{t('queue.waitingCount')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.jobs.queued.map((q) => (
                  <Table.Tr key={q.key}>
                    <Table.Td>{q.key}</Table.Td>
                    <Table.Td ta="right">{format.format(q.count)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {data.jobs.failed.length > 0 && (
            <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('queue.failures')}>
              {data.jobs.failed.map((job) => (
                <Stack key={job.uuid} component="li" gap={0}>
                  <Group gap="xs">
                    <Badge color="red" variant="light" size="sm">
                      {job.jobType}
                    </Badge>
                    {job.imageSet && (
                      <Anchor component={Link} to={`/imageset?uuid=${job.imageSet.uuid}`} size="sm">
                        {job.imageSet.name}
                      </Anchor>
                    )}
                    {job.finished && (
                      <Text size="xs" c="dimmed">
                        {date.format(new Date(job.finished))}
                      </Text>
                    )}
                  </Group>
                  {job.error && (
                    <Text size="xs" c="red.8" lineClamp={2} title={job.error}>
                      {job.error}
                    </Text>
                  )}
                </Stack>
              ))}
            </Stack>
          )}
          <Anchor component={Link} to="/jobs" size="sm">
            {t('queue.allJobs')}
          </Anchor>
        </>
      )}
    </Panel>
  );
}

/** The file store's files and bytes, and (administrators) the cache and the disk. */
export function StoragePanel({ query }: { query: UseQueryResult<Dashboard, Error> }) {
  const { t, i18n } = useTranslation('dashboard');
  const format = new Intl.NumberFormat(i18n.language);
  const bytes = (n: number) => formatBytes(n, i18n.language);
  return (
    <Panel title={t(query.data?.scope === 'own' ? 'storage.titleOwn' : 'storage.title')} query={query}>
      {(data) => {
        const { server } = data.storage;
        const diskUsed = server?.diskTotalBytes && server.diskFreeBytes !== null ? server.diskTotalBytes - server.diskFreeBytes : null;
        return (
          <>
            <Text size="sm">
              {t('storage.files', { count: data.storage.files, formatted: format.format(data.storage.files), bytes: bytes(data.storage.bytes) })}
            </Text>
            {data.storage.byMediaType.length > 0 && (
              <Table fz="sm" withTableBorder aria-label={t('storage.perMediaType')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('storage.mediaType')}</Table.Th>
                    <Table.Th ta="right">{t('storage.size')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.storage.byMediaType.map((m) => (
                    <Table.Tr key={m.key}>
                      <Table.Td>{m.key}</Table.Td>
                      <Table.Td ta="right">{bytes(m.count)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            {server && (
              <Stack gap={6}>
                <Text size="sm">
                  {server.cacheBytes === null
                    ? t('storage.cacheUnlimited')
                    : t('storage.cache', { size: bytes(server.cacheBytes), limit: bytes(server.cacheLimitBytes ?? 0) })}
                </Text>
                {diskUsed !== null && server.diskTotalBytes !== null && (
                  <>
                    <Text size="sm">{t('storage.disk', { free: bytes(server.diskFreeBytes ?? 0), total: bytes(server.diskTotalBytes) })}</Text>
                    <Progress
                      value={(100 * diskUsed) / server.diskTotalBytes}
                      color={diskUsed / server.diskTotalBytes > 0.9 ? 'red' : 'indigo'}
                      aria-label={t('storage.diskUsed')}
                    />
                  </>
                )}
              </Stack>
            )}
          </>
        );
      }}
    </Panel>
  );
}
