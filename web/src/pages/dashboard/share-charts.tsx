import { DonutChart } from '@mantine/charts';
import { ColorSwatch, Group, Stack, Text } from '@mantine/core';
import { STATISTICS_OTHER, type StatisticName } from '@pim/contract';
import type { StatisticsResults } from '../../api/statistics';
import type { TFunction } from '../../i18n/translations';
import { useTranslation } from '../../i18n/use-translation';
import { ChartCard } from './chart-card';
import { pieData } from './chart-data';

/** A share of a statistic and how its parts are named: by a key of the dashboard's texts, or as they are. */
interface ShareSource {
  titleKey: string;
  statistic: StatisticName;
  series: string;
  partKey?: string;
}

export const SHARES: ShareSource[] = [
  { titleKey: 'shares.byOrigin', statistic: 'documentocrresultstats', series: 'byOrigin', partKey: 'origin' },
  { titleKey: 'shares.byFormat', statistic: 'documentocrresultstats', series: 'byFormat', partKey: 'format' },
  { titleKey: 'shares.imagesPerSet', statistic: 'documentimagesetstats', series: 'imagesPerSet' },
  { titleKey: 'shares.byIndex', statistic: 'elasticsearchstats', series: 'byIndex' },
  { titleKey: 'shares.byModel', statistic: 'siamesesnippetslast2weeks', series: 'byModel' },
];

function partName(t: TFunction, source: ShareSource, key: string): string {
  if (key === STATISTICS_OTHER) return t('other');
  return source.partKey ? t(`${source.partKey}.${key}`, { defaultValue: key }) : key;
}

/** A pie of one share, with its parts named beside it. */
export function ShareChart({ results, source }: { results: StatisticsResults; source: ShareSource }) {
  const { t, i18n } = useTranslation('dashboard');
  const query = results[source.statistic];
  const data = pieData(
    query.data?.series.find((s) => s.name === source.series),
    (key) => partName(t, source, key),
  );
  const format = new Intl.NumberFormat(i18n.language);
  const title = t(source.titleKey);
  return (
    <ChartCard
      title={title}
      loading={query.isPending}
      error={query.error}
      empty={data.length === 0}
      numbers={{ keyHeading: t('part'), columns: [t('count')], rows: data.map((d) => ({ label: d.name, values: [d.value] })) }}
    >
      <Group gap="md" wrap="nowrap" align="center">
        <DonutChart data={data} size={140} thickness={24} withTooltip tooltipDataSource="segment" valueFormatter={(v) => format.format(v)} />
        <Stack gap={4} miw={0}>
          {data.map((part) => (
            <Group key={part.name} gap={6} wrap="nowrap">
              <ColorSwatch color={`var(--mantine-color-${part.color.replace('.', '-')})`} size={10} withShadow={false} />
              <Text size="xs" truncate="end" title={part.name}>
                {part.name}
              </Text>
              <Text size="xs" c="dimmed">
                {format.format(part.value)}
              </Text>
            </Group>
          ))}
        </Stack>
      </Group>
    </ChartCard>
  );
}
