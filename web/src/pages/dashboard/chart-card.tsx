import { Alert, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useId } from 'react';
import { useTranslation } from '../../i18n/use-translation';

export interface NumbersTable {
  /** The first column's heading (Day, Month, Part). */
  keyHeading: string;
  columns: string[];
  rows: { label: string; values: number[] }[];
}

interface ChartCardProps {
  title: string;
  /** A line under the title: what is counted. */
  description?: string;
  loading: boolean;
  /** The reason nothing can be shown (a failed request), said in place of the chart. */
  error?: Error | null;
  /** Nothing counted yet: said in place of an empty chart. */
  empty: boolean;
  /** The chart's numbers, to read instead of the picture (and for screen readers). */
  numbers: NumbersTable;
  children: ReactNode;
}

/** A chart in a card, with its loading and failure said in place, and its numbers as a table on demand. */
export function ChartCard({ title, description, loading, error, empty, numbers, children }: ChartCardProps) {
  const { t, i18n } = useTranslation('dashboard');
  const [showNumbers, numbersToggle] = useDisclosure(false);
  const titleId = useId();
  const tableId = useId();
  const format = new Intl.NumberFormat(i18n.language);
  let body: ReactNode;
  if (error) body = <Alert color="red" title={t('loadFailed')}>{error.message}</Alert>;
  else if (loading) body = <Loader size="sm" aria-label={t('loading', { what: title })} />;
  else if (empty) body = <Text c="dimmed" size="sm">{t('nothingYet')}</Text>;
  else body = children;

  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={3} size="h5" id={titleId}>
              {title}
            </Title>
            {description && (
              <Text size="xs" c="dimmed">
                {description}
              </Text>
            )}
          </div>
          {!error && !loading && !empty && (
            <Button variant="subtle" size="compact-xs" onClick={numbersToggle.toggle} aria-expanded={showNumbers} aria-controls={tableId}>
              {showNumbers ? t('hideNumbers') : t('showNumbers')}
            </Button>
          )}
        </Group>
        {body}
        {showNumbers && !error && !loading && !empty && (
          <Table id={tableId} striped withTableBorder fz="xs" aria-label={t('numbersOf', { title })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{numbers.keyHeading}</Table.Th>
                {numbers.columns.map((column) => (
                  <Table.Th key={column} ta="right">
                    {column}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {numbers.rows.map((row) => (
                <Table.Tr key={row.label}>
                  <Table.Td>{row.label}</Table.Td>
                  {row.values.map((value, i) => (
                    <Table.Td key={numbers.columns[i]} ta="right">
                      {format.format(value)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
