import { Table, Text } from '@mantine/core';
import type { ConfusionMatrix } from '@pim/contract';
import { useTranslation } from '../../i18n/use-translation';

/** Rows are the true labels, columns the predicted ones; the diagonal (right) is highlighted. */
export function ConfusionMatrixTable({ matrix }: { matrix: Pick<ConfusionMatrix, 'labels' | 'matrix'> }) {
  const { t, i18n } = useTranslation('similarity');
  const count = new Intl.NumberFormat(i18n.language);
  if (matrix.labels.length === 0) return <Text c="dimmed">{t('confusion.noLabels')}</Text>;
  return (
    <Table.ScrollContainer minWidth={120 + matrix.labels.length * 72}>
      <Table aria-label={t('confusion.matrix')} withTableBorder withColumnBorders verticalSpacing={4} w="auto">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('confusion.trueVsPredicted')}</Table.Th>
            {matrix.labels.map((label) => (
              <Table.Th key={label} scope="col" ta="right">
                {label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {matrix.labels.map((label, row) => (
            <Table.Tr key={label}>
              <Table.Th scope="row">{label}</Table.Th>
              {matrix.labels.map((predicted, column) => {
                const diagonal = row === column;
                return (
                  <Table.Td
                    key={predicted}
                    ta="right"
                    ff="monospace"
                    fw={diagonal ? 700 : undefined}
                    bg={diagonal ? 'green.1' : undefined}
                    data-diagonal={diagonal || undefined}
                  >
                    {count.format(matrix.matrix[row]?.[column] ?? 0)}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
