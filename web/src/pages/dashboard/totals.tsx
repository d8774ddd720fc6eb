import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { StatisticName, Statistics } from '@pim/contract';
import type { StatisticsResults } from '../../api/statistics';
import { useTranslation } from '../../i18n/use-translation';
import { sumOf } from './chart-data';

/** A figure of the top row: its label, and how it is read from a statistic. */
interface Total {
  labelKey: string;
  statistic: StatisticName;
  value: (s: Statistics) => number;
  /** The series whose last 14 days are shown under the figure, when it has one. */
  recent?: string;
}

const TOTALS: Total[] = [
  { labelKey: 'totals.imageSets', statistic: 'documentimagesetstats', value: (s) => sumOf(s.series.find((x) => x.name === 'imageSetsPerMonth')) },
  { labelKey: 'totals.images', statistic: 'documentimagesetstats', value: (s) => s.total, recent: 'imagesPerDay' },
  { labelKey: 'totals.ocrResults', statistic: 'documentocrresultstats', value: (s) => s.total, recent: 'perDay' },
  { labelKey: 'totals.pageLayouts', statistic: 'layoutpagexmllast2weeks', value: (s) => s.total, recent: 'perDay' },
  { labelKey: 'totals.transkribus', statistic: 'transkribusstats', value: (s) => s.total },
  { labelKey: 'totals.tesseract', statistic: 'customtesseractpagexmlstats', value: (s) => s.total },
  { labelKey: 'totals.searchDocuments', statistic: 'elasticsearchstats', value: (s) => s.total },
  { labelKey: 'totals.snippets', statistic: 'siamesesnippetslast2weeks', value: (s) => s.total, recent: 'perDay' },
  { labelKey: 'totals.searches', statistic: 'siameselast2weeks', value: (s) => s.total, recent: 'perDay' },
];

/** The top row: one figure per kind of record, with what the last 14 days added. */
export function Totals({ results }: { results: StatisticsResults }) {
  const { t, i18n } = useTranslation('dashboard');
  const format = new Intl.NumberFormat(i18n.language);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5, xl: 9 }} spacing="sm" component="dl" m={0}>
      {TOTALS.map((total) => {
        const query = results[total.statistic];
        const recent = total.recent && query.data ? sumOf(query.data.series.find((s) => s.name === total.recent)) : null;
        return (
          <Paper key={total.labelKey} withBorder p="sm" radius="md">
            <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t(total.labelKey)}
            </Text>
            <Text component="dd" m={0} fz={26} fw={700} lh={1.3}>
              {query.data ? format.format(total.value(query.data)) : query.error ? '–' : <Skeleton h={28} w={60} component="span" display="block" />}
            </Text>
            {recent !== null && (
              <Text component="dd" m={0} size="xs" c={recent > 0 ? 'teal.8' : 'dimmed'}>
                {t('recentlyAdded', { count: recent, formatted: format.format(recent) })}
              </Text>
            )}
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
