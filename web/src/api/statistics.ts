import { dashboardSchema, STATISTIC_NAMES, type StatisticName, type Statistics, statisticsSchema } from '@pim/contract';
import { type UseQueryResult, useQueries, useQuery } from '@tanstack/react-query';
import { apiFetch } from './client';

export const statisticsKeys = {
  one: (name: StatisticName, onlyOwnData: boolean) => ['statistics', name, onlyOwnData] as const,
  dashboard: ['statistics', 'dashboard'] as const,
};

/** How often the dashboard asks again while it is open: jobs and uploads move while people work. */
const DASHBOARD_REFRESH_MS = 15_000;

export type StatisticsResults = Record<StatisticName, UseQueryResult<Statistics, Error>>;

/**
 * `GET pim/statistics/{name}?onlyOwnData=` for each of the nine: what the caller may read (with
 * `onlyOwnData`, what they own). Each chart shows its own failure, so none toasts.
 */
export function useStatistics(onlyOwnData: boolean): StatisticsResults {
  const results = useQueries({
    queries: STATISTIC_NAMES.map((name) => ({
      queryKey: statisticsKeys.one(name, onlyOwnData),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiFetch(`pim/statistics/${name}`, { query: { onlyOwnData }, schema: statisticsSchema, signal, quiet: true }),
      refetchInterval: DASHBOARD_REFRESH_MS,
    })),
  });
  return Object.fromEntries(STATISTIC_NAMES.map((name, i) => [name, results[i]!])) as StatisticsResults;
}

/** `GET pim/dashboard`: the job queue and the file store. */
export function useDashboard() {
  return useQuery({
    queryKey: statisticsKeys.dashboard,
    queryFn: ({ signal }) => apiFetch('pim/dashboard', { schema: dashboardSchema, signal, quiet: true }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}
