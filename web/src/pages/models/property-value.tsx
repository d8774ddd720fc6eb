import { List, Table } from '@mantine/core';
import { isValidElement } from 'react';
import { useTranslation } from '../../i18n/use-translation';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Name/value rows; a nested object becomes a nested table of the same kind, whose names take the
 * width they need.
 */
export function PropertyTable({ entries, label, nested }: { entries: [string, unknown][]; label?: string; nested?: boolean }) {
  return (
    <Table withTableBorder withColumnBorders verticalSpacing={4} aria-label={label}>
      <Table.Tbody>
        {entries.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" w={nested ? undefined : '30%'} style={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
              {name}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <PropertyValue value={value} name={name} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A value read from a model's configuration, whatever its shape: text and numbers as they are,
 * booleans as Yes/No, lists as lists, objects as nested name/value tables.
 */
export function PropertyValue({ value, name }: { value: unknown; name: string }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) return <>—</>;
  // The page's own renderings (the UUID with its copy button) pass through.
  if (isValidElement(value)) return value;
  if (typeof value === 'boolean') return <>{value ? t('table.yes') : t('table.no')}</>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <>—</>;
    return (
      <List size="sm" aria-label={name}>
        {value.map((item, index) => (
          // Items of a configuration list have no identity beyond their place in it.
          <List.Item key={index}>
            <PropertyValue value={item} name={`${name} ${index + 1}`} />
          </List.Item>
        ))}
      </List>
    );
  }
  if (isRecord(value)) return <PropertyTable entries={Object.entries(value)} label={name} nested />;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return <>{String(value)}</>;
  return <>{JSON.stringify(value)}</>;
}
