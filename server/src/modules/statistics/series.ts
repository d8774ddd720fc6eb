import { STATISTICS_DAYS, STATISTICS_OTHER, STATISTICS_SHARE_PARTS, type StatisticSeries } from '@pim/contract';
import type { CountRow } from './repository.js';

/** 'YYYY-MM-DD' of a UTC day. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The last STATISTICS_DAYS UTC days up to `today`, oldest first. */
export function lastDays(today: Date): string[] {
  return Array.from({ length: STATISTICS_DAYS }, (_, i) => utcDay(new Date(today.getTime() - (STATISTICS_DAYS - 1 - i) * 86_400_000)));
}

/** Every month from `first` ('YYYY-MM') to the month of `today`, oldest first; none without a first. */
export function monthsSince(first: string | undefined, today: Date): string[] {
  if (!first) return [];
  const last = today.toISOString().slice(0, 7);
  const months: string[] = [];
  let [year, month] = first.split('-').map(Number) as [number, number];
  for (let key = first; key <= last; key = `${year}-${String(month).padStart(2, '0')}`) {
    months.push(key);
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
  return months;
}

/** A series over the given keys, 0 where the counts have none. */
export function onAxis(name: string, period: 'day' | 'month', axis: string[], rows: CountRow[]): StatisticSeries {
  const counts = new Map(rows.map((r) => [r.key, r.n]));
  return { name, period, points: axis.map((key) => ({ key, count: counts.get(key) ?? 0 })) };
}

/** A share: the largest parts first, at most STATISTICS_SHARE_PARTS, the rest gathered as `other`. */
export function share(name: string, rows: CountRow[]): StatisticSeries {
  const merged = new Map<string, number>();
  for (const row of rows) merged.set(row.key, (merged.get(row.key) ?? 0) + row.n);
  const parts = [...merged].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const kept = parts.slice(0, STATISTICS_SHARE_PARTS).map(([key, count]) => ({ key, count }));
  const rest = parts.slice(STATISTICS_SHARE_PARTS).reduce((sum, [, n]) => sum + n, 0);
  return { name, period: 'share', points: rest > 0 ? [...kept, { key: STATISTICS_OTHER, count: rest }] : kept };
}

/** The earliest month among the rows of several month counts. */
export function firstMonth(...counts: CountRow[][]): string | undefined {
  return counts
    .flat()
    .map((r) => r.key)
    .sort()[0];
}
