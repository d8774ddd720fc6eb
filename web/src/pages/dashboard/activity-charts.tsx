import { BarChart, LineChart } from '@mantine/charts';
import { STATISTICS_DAYS, type StatisticName, type StatisticSeries } from '@pim/contract';
import type { StatisticsResults } from '../../api/statistics';
import { useTranslation } from '../../i18n/use-translation';
import { ChartCard } from './chart-card';
import { type ChartLine, dayLabel, monthLabel, timeRows } from './chart-data';

/** A line of a time chart: the series `series` of statistic `statistic`, called `labelKey`. */
interface LineSource {
  labelKey: string;
  statistic: StatisticName;
  series: string;
  color: string;
}

/** What happened on each of the last 14 days. */
const RECENT: LineSource[] = [
  { labelKey: 'totals.images', statistic: 'documentimagesetstats', series: 'imagesPerDay', color: 'indigo.6' },
  { labelKey: 'totals.ocrResults', statistic: 'documentocrresultstats', series: 'perDay', color: 'teal.6' },
  { labelKey: 'totals.pageLayouts', statistic: 'layoutpagexmllast2weeks', series: 'perDay', color: 'orange.6' },
  { labelKey: 'totals.snippets', statistic: 'siamesesnippetslast2weeks', series: 'perDay', color: 'grape.6' },
  { labelKey: 'totals.searches', statistic: 'siameselast2weeks', series: 'perDay', color: 'cyan.6' },
];

/** What each month added. */
const MONTHLY: LineSource[] = [
  { labelKey: 'totals.imageSets', statistic: 'documentimagesetstats', series: 'imageSetsPerMonth', color: 'gray.6' },
  { labelKey: 'totals.images', statistic: 'documentimagesetstats', series: 'imagesPerMonth', color: 'indigo.6' },
  { labelKey: 'totals.ocrResults', statistic: 'documentocrresultstats', series: 'perMonth', color: 'teal.6' },
  { labelKey: 'totals.pageLayouts', statistic: 'layoutpagexmlstats', series: 'perMonth', color: 'orange.6' },
  { labelKey: 'totals.transkribus', statistic: 'transkribusstats', series: 'perMonth', color: 'pink.6' },
  { labelKey: 'totals.tesseract', statistic: 'customtesseractpagexmlstats', series: 'perMonth', color: 'lime.7' },
];

const seriesOf = (results: StatisticsResults, source: LineSource): StatisticSeries | undefined =>
  results[source.statistic].data?.series.find((s) => s.name === source.series);

/** The lines of a chart, their loading and failure, and the rows they draw. */
function useTimeChart(results: StatisticsResults, sources: LineSource[], label: (key: string) => string) {
  const { t } = useTranslation('dashboard');
  const lines: ChartLine[] = sources.map((source) => ({ name: t(source.labelKey), color: source.color, series: seriesOf(results, source) }));
  const queries = sources.map((source) => results[source.statistic]);
  const rows = timeRows(lines, label);
  return {
    lines,
    rows,
    loading: queries.some((q) => q.isPending),
    error: queries.find((q) => q.error)?.error ?? null,
    empty: rows.every((row) => lines.every((line) => row[line.name] === 0)),
    numbers: { columns: lines.map((l) => l.name), rows: rows.map((row) => ({ label: row.label, values: lines.map((l) => Number(row[l.name])) })) },
  };
}

/** The last 14 days: a bar per day, stacked by kind. */
export function RecentActivityChart({ results }: { results: StatisticsResults }) {
  const { t, i18n } = useTranslation('dashboard');
  const chart = useTimeChart(results, RECENT, (key) => dayLabel(key, i18n.language));
  return (
    <ChartCard
      title={t('recent.title', { days: STATISTICS_DAYS })}
      description={t('recent.description')}
      loading={chart.loading}
      error={chart.error}
      empty={chart.empty}
      numbers={{ keyHeading: t('day'), ...chart.numbers }}
    >
      <BarChart
        h={260}
        data={chart.rows}
        dataKey="label"
        type="stacked"
        series={chart.lines.map((line) => ({ name: line.name, color: line.color }))}
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        tickLine="y"
        gridAxis="y"
        yAxisProps={{ allowDecimals: false }}
      />
    </ChartCard>
  );
}

/** Every month since the first record, a line per kind. */
export function MonthlyActivityChart({ results }: { results: StatisticsResults }) {
  const { t, i18n } = useTranslation('dashboard');
  const chart = useTimeChart(results, MONTHLY, (key) => monthLabel(key, i18n.language));
  return (
    <ChartCard
      title={t('monthly.title')}
      description={t('monthly.description')}
      loading={chart.loading}
      error={chart.error}
      empty={chart.empty}
      numbers={{ keyHeading: t('month'), ...chart.numbers }}
    >
      {chart.rows.length === 1 ? (
        // One month is a bar per kind: a line needs two points.
        <BarChart h={260} data={chart.rows} dataKey="label" series={chart.lines.map((line) => ({ name: line.name, color: line.color }))} withLegend legendProps={{ verticalAlign: 'bottom' }} tickLine="y" gridAxis="y" yAxisProps={{ allowDecimals: false }} />
      ) : (
        <LineChart
          h={260}
          data={chart.rows}
          dataKey="label"
          series={chart.lines.map((line) => ({ name: line.name, color: line.color }))}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          curveType="monotone"
          tickLine="y"
          gridAxis="y"
          yAxisProps={{ allowDecimals: false }}
        />
      )}
    </ChartCard>
  );
}
