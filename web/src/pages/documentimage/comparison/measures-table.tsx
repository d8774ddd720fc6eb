import { Loader, Table, Text } from '@mantine/core';
import type { Normalisation, TextComparison } from '@pim/contract';
import { useMemo } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { formatPercent } from '../../textlines/percent';
import { useComparisonTask } from './use-comparison-task';

type Format = (value: number) => string;

function useFormats() {
  const { i18n } = useTranslation('comparison');
  return useMemo(() => {
    const integer = new Intl.NumberFormat(i18n.language);
    const ratio = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
    return {
      integer: (value: number) => integer.format(value),
      ratio: (value: number) => ratio.format(value),
      percent: (value: number) => formatPercent(value, i18n.language),
    } satisfies Record<string, Format>;
  }, [i18n.language]);
}

type Formats = ReturnType<typeof useFormats>;

/** The measures in the order they are shown; `value` is the headline, `detail` what it is made of. */
const MEASURES = ['referenceLength', 'hypothesisLength', 'distance', 'normalisedDistance', 'cer', 'wer'] as const;
type Measure = (typeof MEASURES)[number];

function measureValue(measure: Measure, m: TextComparison, f: Formats): string {
  switch (measure) {
    case 'referenceLength':
      return f.integer(m.referenceLength);
    case 'hypothesisLength':
      return f.integer(m.hypothesisLength);
    case 'distance':
      return f.integer(m.distance);
    case 'normalisedDistance':
      return f.ratio(m.normalisedDistance);
    case 'cer':
      return f.percent(m.cer);
    case 'wer':
      return f.percent(m.wer);
  }
}

function useMeasureDetail() {
  const { t } = useTranslation('comparison');
  const f = useFormats();
  return (measure: Measure, m: TextComparison): string => {
    switch (measure) {
      case 'referenceLength':
        return t('measures.words', { count: m.referenceWords, formatted: f.integer(m.referenceWords) });
      case 'hypothesisLength':
        return t('measures.words', { count: m.hypothesisWords, formatted: f.integer(m.hypothesisWords) });
      case 'distance':
        return t('measures.distanceDetail');
      case 'normalisedDistance':
        return `${f.integer(m.distance)} / ${f.integer(Math.max(m.referenceLength, m.hypothesisLength))}`;
      case 'cer':
        return `${f.integer(m.distance)} / ${f.integer(m.referenceLength)}`;
      case 'wer':
        return `${f.integer(m.wordDistance)} / ${f.integer(m.referenceWords)}`;
    }
  };
}

/** The measures of the comparison under the chosen normalisation. */
export function MeasuresTable({ measures }: { measures: TextComparison }) {
  const { t } = useTranslation('comparison');
  const f = useFormats();
  const detail = useMeasureDetail();
  return (
    <Table aria-label={t('measures.title')} withTableBorder verticalSpacing={6} maw={760}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('measures.measure')}</Table.Th>
          <Table.Th ta="right">{t('measures.value')}</Table.Th>
          <Table.Th>{t('measures.details')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {MEASURES.map((measure) => (
          <Table.Tr key={measure}>
            <Table.Th scope="row" fw={500}>
              {t(`measures.${measure}`)}
            </Table.Th>
            <Table.Td ta="right" ff="monospace" fw={measure === 'cer' || measure === 'wer' ? 700 : undefined}>
              {measureValue(measure, measures, f)}
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {detail(measure, measures)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Every measure under every normalisation, side by side: how much of the difference each one
 * accounts for. Six comparisons: mounted only when asked for.
 */
export function AllNormalisationsTable({ reference, hypothesis, chosen }: { reference: string; hypothesis: string; chosen: Normalisation }) {
  const { t } = useTranslation('comparison');
  const f = useFormats();
  const { result: all } = useComparisonTask('allNormalisations', { reference, hypothesis });
  if (!all) return <Loader size="sm" aria-label={t('result.computing')} />;
  const chosenStyle = { background: 'var(--mantine-color-indigo-0)' };
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label={t('all.title')} withTableBorder verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('measures.measure')}</Table.Th>
            {all.map(({ id }) => (
              <Table.Th key={id} ta="right" style={id === chosen ? chosenStyle : undefined}>
                {t(`normalisations.${id}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {MEASURES.map((measure) => (
            <Table.Tr key={measure}>
              <Table.Th scope="row" fw={500}>
                {t(`measures.${measure}`)}
              </Table.Th>
              {all.map(({ id, measures }) => (
                <Table.Td key={id} ta="right" ff="monospace" style={id === chosen ? chosenStyle : undefined}>
                  {measureValue(measure, measures, f)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
