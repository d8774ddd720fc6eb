import { Button, Code, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { JOB_TYPE_INFO, type Job } from '@pim/contract';
import { IconListDetails } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';

/** The settings the form asked for, not the type and priority the table shows already. */
const SHOWN_ELSEWHERE = new Set(['jobType', 'priority', 'imageSet']);

/** A noted count's key as words: `groundTruthKept` reads "Ground truth kept". */
export function keyAsWords(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The settings in the order of the type's form, then any the form no longer shows. */
function orderedSettings(job: Job): [string, unknown][] {
  const order: readonly string[] = JOB_TYPE_INFO[job.jobType].fields;
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.entries(job.settings)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .sort(([a], [b]) => rank(a) - rank(b));
}

/** One value as a person reads it: words for switches, lists joined, anything deeper as JSON. */
function ValueText({ value }: { value: unknown }) {
  const { t } = useTranslation('jobs');
  if (typeof value === 'boolean') return <>{value ? t('details.yes') : t('details.no')}</>;
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return <Text c="dimmed" span size="sm">—</Text>;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) return <>{value.join(', ')}</>;
  if (typeof value === 'object') return <Code block>{JSON.stringify(value, null, 2)}</Code>;
  return <>{String(value)}</>;
}

function Pairs({ label, pairs, name }: { label: string; pairs: [string, unknown][]; name: (key: string) => string }) {
  return (
    <Table aria-label={label} withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {pairs.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th w="40%" fw={500} style={{ verticalAlign: 'top' }}>
              {name(key)}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>
              <ValueText value={value} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What a job was made with, what its run noted, and who ran it with which versions. */
function JobDetailsModal({ job, onClose }: { job: Job; onClose: () => void }) {
  const { t, i18n } = useTranslation('jobs');
  const fieldName = (key: string) => (i18n.exists(`jobs:fields.${key}`) ? t(`fields.${key}`) : key);
  // A model is shown by its name; one deleted since keeps its id.
  const settings = orderedSettings(job).map(([key, value]): [string, unknown] => [key, job.settingNames[key] ?? value]);
  const result = Object.entries(job.result);
  const worker = job.worker;
  return (
    <Modal opened onClose={onClose} title={t('details.title', { type: job.jobType, id: job.id })} size="lg">
      <Stack gap="md">
        {job.error && (
          <Text c="red" size="sm">
            {job.error}
          </Text>
        )}
        <Stack gap={4}>
          <Title order={4}>{t('details.settings')}</Title>
          {settings.length > 0 ? <Pairs label={t('details.settings')} pairs={settings} name={fieldName} /> : <Text size="sm">{t('details.noSettings')}</Text>}
        </Stack>
        <Stack gap={4}>
          <Title order={4}>{t('details.result')}</Title>
          {result.length > 0 ? <Pairs label={t('details.result')} pairs={result} name={keyAsWords} /> : <Text size="sm">{t('details.noResult')}</Text>}
        </Stack>
        {worker && (
          <Stack gap={4}>
            <Title order={4}>{t('details.worker')}</Title>
            <Pairs
              label={t('details.worker')}
              pairs={[[t('details.workerName'), worker.name], [t('details.host'), worker.host], ...Object.entries(worker.versions)]}
              name={(key) => key}
            />
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

/** The row's Details button and, once pressed, its modal. */
export function JobDetailsButton({ job }: { job: Job }) {
  const { t } = useTranslation('jobs');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="xs" variant="default" leftSection={<IconListDetails size={14} aria-hidden />} onClick={() => setOpen(true)}>
        {t('details.open')}
      </Button>
      {open && <JobDetailsModal job={job} onClose={() => setOpen(false)} />}
    </>
  );
}
