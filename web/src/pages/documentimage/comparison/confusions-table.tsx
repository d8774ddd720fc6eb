import { Loader, Table, Text } from '@mantine/core';
import type { Normalisation } from '@pim/contract';
import { MANUSCRIPT_FONT_FAMILY } from '../../../components/manuscript-text/manuscript-text';
import { useTranslation } from '../../../i18n/use-translation';
import { useComparisonTask } from './use-comparison-task';
import { codePoint, visibleCharacter } from './visible';

function Character({ character }: { character: string }) {
  const { t } = useTranslation('comparison');
  if (character === '') {
    return (
      <Text span c="dimmed" fs="italic" size="sm">
        {t('confusions.nothing')}
      </Text>
    );
  }
  return <span style={{ fontFamily: MANUSCRIPT_FONT_FAMILY, fontSize: '1.25rem' }}>{visibleCharacter(character)}</span>;
}

/** The most frequent character errors of the alignment: which character became which, how often. */
export function ConfusionsTable({ reference, hypothesis, choice }: { reference: string; hypothesis: string; choice: Normalisation }) {
  const { t, i18n } = useTranslation('comparison');
  const { result: confusions, busy } = useComparisonTask('confusions', { reference, hypothesis, choice });
  if (!confusions) return <Loader size="sm" aria-label={t('result.computing')} />;
  if (confusions.length === 0) return <Text size="sm">{t('confusions.none')}</Text>;
  const count = new Intl.NumberFormat(i18n.language);
  return (
    <Table aria-label={t('confusions.title')} withTableBorder verticalSpacing={4} maw={640} style={{ opacity: busy ? 0.6 : 1 }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('confusions.reference')}</Table.Th>
          <Table.Th>{t('confusions.hypothesis')}</Table.Th>
          <Table.Th ta="right">{t('confusions.count')}</Table.Th>
          <Table.Th>{t('confusions.codePoints')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {confusions.map((c) => (
          <Table.Tr key={`${c.reference}\u0000${c.hypothesis}`}>
            <Table.Td>
              <Character character={c.reference} />
            </Table.Td>
            <Table.Td>
              <Character character={c.hypothesis} />
            </Table.Td>
            <Table.Td ta="right" ff="monospace">
              {count.format(c.count)}
            </Table.Td>
            <Table.Td ff="monospace">
              <Text span size="xs" c="dimmed">
                {[c.reference, c.hypothesis].map((ch) => (ch ? codePoint(ch) : '–')).join(' → ')}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
