import type { StatisticSeries } from '@pim/contract';

/** One line or bar of a chart: the series it draws and the name and colour it has. */
export interface ChartLine {
  /** The key of the rows' value, and the legend's label. */
  name: string;
  color: string;
  series: StatisticSeries | undefined;
}

/** A row of a time chart: its key ('YYYY-MM-DD' or 'YYYY-MM'), its label, and a count per line. */
export type ChartRow = { key: string; label: string } & Record<string, number | string>;

/**
 * The rows of a chart of several time series: every key any of them has, oldest first, with each
 * line's count (0 where it has none), labelled by `label`.
 */
export function timeRows(lines: ChartLine[], label: (key: string) => string): ChartRow[] {
  const keys = [...new Set(lines.flatMap((line) => line.series?.points.map((p) => p.key) ?? []))].sort();
  return keys.map((key) => {
    const row: ChartRow = { key, label: label(key) };
    for (const line of lines) row[line.name] = line.series?.points.find((p) => p.key === key)?.count ?? 0;
    return row;
  });
}

/** A UTC day 'YYYY-MM-DD' as a short date in the language, e.g. '15 Nov'. */
export function dayLabel(key: string, language: string): string {
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
}

/** A month 'YYYY-MM' in the language, e.g. 'Nov 2026'. */
export function monthLabel(key: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${key}-01T00:00:00Z`));
}

/** Colours of a share's parts, in the order the server gives them (largest first). */
const SHARE_COLORS = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'lime.7', 'pink.6', 'yellow.7', 'gray.5'];

/** A share's parts as a pie chart draws them, named by `name`. */
export function pieData(series: StatisticSeries | undefined, name: (key: string) => string) {
  return (series?.points ?? []).map((p, i) => ({ name: name(p.key), value: p.count, color: SHARE_COLORS[i % SHARE_COLORS.length]! }));
}

/** The sum of a series' counts. */
export const sumOf = (series: StatisticSeries | undefined) => (series?.points ?? []).reduce((sum, p) => sum + p.count, 0);
