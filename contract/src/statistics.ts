/**
 * Statistics and the dashboard (spec part 1 §2 "Statistics page", §7 "Statistics", §9; part 2 §2
 * Dashboard). Each of the nine statistics counts one kind of record the caller may read: an
 * administrator every record, anyone else what their readable image sets hold (their own similarity
 * searches and stored files). A record held by two sets counts in both, as each set's own count does.
 */
import { z } from 'zod';

/** The charts of recent activity cover this many days, today included (UTC days). */
export const STATISTICS_DAYS = 14;
/** A share (pie) keeps this many largest parts; the rest is one part, `other`. */
export const STATISTICS_SHARE_PARTS = 8;
/** The key of the part that gathers the smaller ones of a share. */
export const STATISTICS_OTHER = 'other';

/** `GET pim/statistics/{name}`: the nine of the spec. */
export const STATISTIC_NAMES = [
  'documentimagesetstats',
  'documentocrresultstats',
  'layoutpagexmlstats',
  'layoutpagexmllast2weeks',
  'transkribusstats',
  'customtesseractpagexmlstats',
  'elasticsearchstats',
  'siameselast2weeks',
  'siamesesnippetslast2weeks',
] as const;
export type StatisticName = (typeof STATISTIC_NAMES)[number];

/**
 * Where a transcription came from: PIM's Tesseract jobs, another job of PIM's (a remote worker's
 * recognition), a file made by Transkribus, or another uploaded file.
 */
export const TRANSCRIPTION_ORIGINS = ['tesseract', 'worker', 'transkribus', 'upload'] as const;
export type TranscriptionOrigin = (typeof TRANSCRIPTION_ORIGINS)[number];

export const statisticPointSchema = z.object({
  /** 'YYYY-MM-DD' for days, 'YYYY-MM' for months, the part's name for shares. */
  key: z.string(),
  count: z.number().int(),
});
export type StatisticPoint = z.infer<typeof statisticPointSchema>;

export const STATISTIC_PERIODS = ['day', 'month', 'share'] as const;

export const statisticSeriesSchema = z.object({
  /** What is counted, e.g. `imagesPerMonth`, `byOrigin`. */
  name: z.string(),
  /**
   * day: the last STATISTICS_DAYS UTC days, oldest first, each present (0 when none);
   * month: each month from the first counted one to this one, oldest first, each present;
   * share: the parts of the total, largest first (at most STATISTICS_SHARE_PARTS and `other`).
   */
  period: z.enum(STATISTIC_PERIODS),
  points: z.array(statisticPointSchema),
});
export type StatisticSeries = z.infer<typeof statisticSeriesSchema>;

export const statisticsSchema = z.object({
  name: z.enum(STATISTIC_NAMES),
  /** Every record counted, at any time. */
  total: z.number().int(),
  /** all: every record (an administrator); readable: what the caller may read. */
  scope: z.enum(['all', 'readable']),
  series: z.array(statisticSeriesSchema),
});
export type Statistics = z.infer<typeof statisticsSchema>;

export const statisticParams = z.object({
  name: z.enum(STATISTIC_NAMES, { error: () => `There is no such statistic: ask for one of ${STATISTIC_NAMES.join(', ')}.` }),
});

const countSchema = z.object({ key: z.string(), count: z.number().int() });

/** A failed job on the dashboard. */
export const dashboardFailedJobSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  jobType: z.string(),
  error: z.string().nullable(),
  finished: z.string().nullable(),
  imageSet: z.object({ uuid: z.string(), name: z.string() }).nullable(),
});

/** `GET pim/dashboard`: the job queue and the file store, beside the statistics. */
export const dashboardSchema = z.object({
  /** all: the whole server (an administrator); own: the caller's own jobs and files. */
  scope: z.enum(['all', 'own']),
  jobs: z.object({
    running: z.number().int(),
    /** Queued jobs per job type, most first. */
    queued: z.array(countSchema),
    /** Jobs that failed in the last STATISTICS_DAYS days. */
    failedRecently: z.number().int(),
    /** The newest of them. */
    failed: z.array(dashboardFailedJobSchema),
  }),
  storage: z.object({
    files: z.number().int(),
    bytes: z.number().int(),
    /** Bytes per media type, most first. */
    byMediaType: z.array(countSchema),
    /** Administrators only: the derivative cache (tiles, thumbnails) and the data dir's disk. */
    server: z
      .object({
        cacheBytes: z.number().int().nullable(),
        cacheLimitBytes: z.number().int().nullable(),
        diskFreeBytes: z.number().int().nullable(),
        diskTotalBytes: z.number().int().nullable(),
      })
      .nullable(),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** How many failed jobs the dashboard lists. */
export const DASHBOARD_FAILED_JOBS = 5;
