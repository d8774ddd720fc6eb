import {
  BUILTIN_SIMILARITY_MODEL,
  BUILTIN_SIMILARITY_MODEL_LABEL,
  DASHBOARD_FAILED_JOBS,
  type Dashboard,
  STATISTICS_DAYS,
  type StatisticName,
  type Statistics,
  type StatisticSeries,
} from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { isAdmin, requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import type { FileStore } from '../../platform/storage/file-store.js';
import type { DashboardRepository, JobScope } from './dashboard-repository.js';
import type { CountRow, CountSummary, Counted, StatisticScope, StatisticsRepository } from './repository.js';
import { firstMonth, lastDays, monthsSince, onAxis, share } from './series.js';

/** What the nine statistics count (variants: '<format>:<origin>' of transcriptions, see migration 0019). */
const IMAGES: Counted = { kind: 'image' };
const TRANSCRIPTIONS: Counted = { kind: 'transcription' };
const PAGE_LAYOUTS: Counted = { kind: 'transcription', variant: 'page:%' };
const TRANSKRIBUS: Counted = { kind: 'transcription', variant: '%:transkribus' };
const PIM_TESSERACT: Counted = { kind: 'transcription', variant: '%:tesseract' };
const SNIPPETS: Counted = { kind: 'snippet' };
const SEARCHES: Counted = { kind: 'similarity-search' };

/** How a statistic is built from the counts: its total and its series. */
type Build = (read: Reader) => Promise<{ total: number; series: StatisticSeries[] }>;

/** The counts of one request, in one scope, on one day: each kind's read once, however many series use it. */
class Reader {
  readonly days: string[];
  private readonly summaries = new Map<string, Promise<CountSummary>>();

  constructor(
    private readonly repo: StatisticsRepository,
    readonly scope: StatisticScope,
    readonly today: Date,
  ) {
    this.days = lastDays(today);
  }

  private summary(counted: Counted): Promise<CountSummary> {
    const key = `${counted.kind}:${counted.variant ?? ''}`;
    let found = this.summaries.get(key);
    if (!found) this.summaries.set(key, (found = this.repo.summary(counted, this.scope, this.days[0]!)));
    return found;
  }

  total = async (counted: Counted) => (await this.summary(counted)).total;
  perDay = async (name: string, counted: Counted) => onAxis(name, 'day', this.days, (await this.summary(counted)).perDay);
  perMonth = async (counted: Counted) => (await this.summary(counted)).perMonth;
  variants = async (counted: Counted) => (await this.summary(counted)).perVariant;
  months = (rows: CountRow[]) => monthsSince(firstMonth(rows), this.today);
  sets = () => this.repo.setsPerMonth(this.scope);
  imagesPerSet = () => this.repo.imagesPerSet(this.scope);
  searchDocuments = () => this.repo.searchDocumentsByIndex(this.scope);
  modelLabels = (ids: string[]) => this.repo.modelLabels(ids);
}

/** Variants of transcriptions ('<format>:<origin>') regrouped by one of their two parts. */
const byPart = (rows: CountRow[], part: 0 | 1): CountRow[] => rows.map((r) => ({ key: r.key.split(':')[part]!, n: r.n }));

/** A statistic of transcriptions: its total and its counts per month, and shares where asked. */
function transcriptionsPerMonth(counted: Counted, shares: { byOrigin?: boolean; byFormat?: boolean } = {}): Build {
  return async (read) => {
    const [total, months, variants] = await Promise.all([read.total(counted), read.perMonth(counted), shares.byOrigin || shares.byFormat ? read.variants(counted) : []]);
    const series = [onAxis('perMonth', 'month', read.months(months), months)];
    if (shares.byOrigin) series.push(share('byOrigin', byPart(variants, 1)));
    if (shares.byFormat) series.push(share('byFormat', byPart(variants, 0)));
    return { total, series };
  };
}

const BUILDERS: Record<StatisticName, Build> = {
  documentimagesetstats: async (read) => {
    const [total, sets, images, perDay, perSet] = await Promise.all([read.total(IMAGES), read.sets(), read.perMonth(IMAGES), read.perDay('imagesPerDay', IMAGES), read.imagesPerSet()]);
    const axis = monthsSince(firstMonth(sets, images), read.today);
    return {
      total,
      series: [onAxis('imageSetsPerMonth', 'month', axis, sets), onAxis('imagesPerMonth', 'month', axis, images), perDay, share('imagesPerSet', perSet)],
    };
  },
  documentocrresultstats: async (read) => {
    const [built, perDay] = await Promise.all([transcriptionsPerMonth(TRANSCRIPTIONS, { byOrigin: true, byFormat: true })(read), read.perDay('perDay', TRANSCRIPTIONS)]);
    return { total: built.total, series: [...built.series, perDay] };
  },
  layoutpagexmlstats: transcriptionsPerMonth(PAGE_LAYOUTS, { byOrigin: true }),
  layoutpagexmllast2weeks: async (read) => {
    const [total, perDay] = await Promise.all([read.total(PAGE_LAYOUTS), read.perDay('perDay', PAGE_LAYOUTS)]);
    return { total, series: [perDay] };
  },
  transkribusstats: transcriptionsPerMonth(TRANSKRIBUS, { byFormat: true }),
  customtesseractpagexmlstats: transcriptionsPerMonth(PIM_TESSERACT, { byFormat: true }),
  elasticsearchstats: async (read) => {
    const byIndex = await read.searchDocuments();
    return { total: byIndex.reduce((sum, r) => sum + r.n, 0), series: [share('byIndex', byIndex)] };
  },
  siameselast2weeks: async (read) => {
    const [total, perDay, kinds] = await Promise.all([read.total(SEARCHES), read.perDay('perDay', SEARCHES), read.variants(SEARCHES)]);
    return { total, series: [perDay, share('byKind', kinds)] };
  },
  siamesesnippetslast2weeks: async (read) => {
    const [total, perDay, models] = await Promise.all([read.total(SNIPPETS), read.perDay('perDay', SNIPPETS), read.variants(SNIPPETS)]);
    const labels = await read.modelLabels(models.map((m) => m.key).filter((id) => id !== BUILTIN_SIMILARITY_MODEL));
    const named = models.map((m) => ({ key: m.key === BUILTIN_SIMILARITY_MODEL ? BUILTIN_SIMILARITY_MODEL_LABEL : (labels.get(m.key) ?? m.key), n: m.n }));
    return { total, series: [perDay, share('byModel', named)] };
  },
};

/**
 * The statistics and the dashboard. Numbers respect access: an administrator's count every record,
 * anyone else's what the image sets they may read hold (with `onlyOwnData`, the sets they own), and
 * their own similarity searches, jobs and stored files. Every figure is a sum of the counts the
 * database keeps (migration 0019) or a read of a partial index, never a scan of the records.
 */
export class StatisticsService {
  constructor(
    private readonly repo: StatisticsRepository,
    private readonly dashboardRepo: DashboardRepository,
    private readonly files: FileStore,
    private readonly onError: (err: unknown, what: string) => void,
  ) {}

  async statistic(principal: Principal | null, name: StatisticName, onlyOwnData = false): Promise<Statistics> {
    const caller = requireSignedIn(principal);
    const scope = await this.scopeOf(caller, onlyOwnData);
    const built = await BUILDERS[name](new Reader(this.repo, scope, new Date()));
    return { name, scope: scope.all ? 'all' : 'readable', ...built };
  }

  async dashboard(principal: Principal | null): Promise<Dashboard> {
    const caller = requireSignedIn(principal);
    const admin = isAdmin(caller);
    // An API key owns no jobs and no files: without ADMIN it sees none.
    const jobScope: JobScope = admin ? { all: true } : { all: false, ownerId: caller.userId };
    const since = new Date(Date.parse(`${lastDays(new Date())[0]}T00:00:00Z`));
    const scope: StatisticScope = admin ? { all: true } : { all: false, setIds: [], userId: caller.userId };
    const today = lastDays(new Date())[STATISTICS_DAYS - 1]!;
    const [unfinished, failed, files, bytes, server] = await Promise.all([
      this.dashboardRepo.unfinished(jobScope),
      this.dashboardRepo.failed(jobScope, since, DASHBOARD_FAILED_JOBS),
      this.repo.summary({ kind: 'stored-files' }, scope, today),
      this.repo.summary({ kind: 'stored-bytes' }, scope, today),
      admin ? this.files.usage() : null,
    ]);
    return {
      scope: admin ? 'all' : 'own',
      jobs: {
        running: unfinished.running,
        queued: unfinished.queued.map((q) => ({ key: q.type, count: q.n })),
        failedRecently: failed.count,
        failed: failed.newest.map((j) => ({
          id: j.id,
          uuid: j.uuid,
          jobType: j.type,
          error: j.error,
          finished: j.finishedAt && new Date(j.finishedAt).toISOString(),
          imageSet: j.setId && j.setName !== null ? { uuid: j.setId, name: j.setName } : null,
        })),
      },
      storage: {
        files: files.total,
        bytes: bytes.total,
        byMediaType: bytes.perVariant.sort((a, b) => b.n - a.n).map((m) => ({ key: m.key, count: m.n })),
        server,
      },
    };
  }

  /** Counts a similarity search by the caller; a failure is reported, never the search's. */
  async searched(principal: Principal, kind: string): Promise<void> {
    try {
      await this.repo.countSearch(principal.userId, kind);
    } catch (err) {
      this.onError(err, `counting a similarity search (${kind}) failed`);
    }
  }

  private async scopeOf(caller: Principal, onlyOwnData: boolean): Promise<StatisticScope> {
    const visible = visibilityScope(caller, onlyOwnData);
    if (visible.all) return { all: true };
    return { all: false, setIds: await this.repo.readableSets(visible), userId: caller.userId };
  }
}
