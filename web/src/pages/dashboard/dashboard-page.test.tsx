import { type Dashboard, STATISTIC_NAMES, type StatisticName, type Statistics } from '@pim/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { dayLabel, monthLabel } from './chart-data';

/** The 14 days the server answers with, ending on the 28th. */
const DAYS = Array.from({ length: 14 }, (_, i) => `2026-11-${String(15 + i).padStart(2, '0')}`);
const days = (counts: Record<string, number>) => DAYS.map((key) => ({ key, count: counts[key] ?? 0 }));

function statistics(scope: 'all' | 'readable'): Record<StatisticName, Statistics> {
  const empty = (name: StatisticName): Statistics => ({ name, total: 0, scope, series: [] });
  const all = Object.fromEntries(STATISTIC_NAMES.map((name) => [name, empty(name)])) as Record<StatisticName, Statistics>;
  all.documentimagesetstats = {
    name: 'documentimagesetstats',
    total: 40,
    scope,
    series: [
      { name: 'imageSetsPerMonth', period: 'month', points: [{ key: '2026-10', count: 1 }, { key: '2026-11', count: 2 }] },
      { name: 'imagesPerMonth', period: 'month', points: [{ key: '2026-10', count: 30 }, { key: '2026-11', count: 10 }] },
      { name: 'imagesPerDay', period: 'day', points: days({ '2026-11-27': 6, '2026-11-28': 4 }) },
      { name: 'imagesPerSet', period: 'share', points: [{ key: 'Letters', count: 30 }, { key: 'Charters', count: 10 }] },
    ],
  };
  all.documentocrresultstats = {
    name: 'documentocrresultstats',
    total: 12,
    scope,
    series: [
      { name: 'perMonth', period: 'month', points: [{ key: '2026-11', count: 12 }] },
      { name: 'byOrigin', period: 'share', points: [{ key: 'tesseract', count: 9 }, { key: 'transkribus', count: 3 }] },
      { name: 'byFormat', period: 'share', points: [{ key: 'hocr', count: 9 }, { key: 'page', count: 3 }] },
      { name: 'perDay', period: 'day', points: days({ '2026-11-28': 12 }) },
    ],
  };
  all.layoutpagexmllast2weeks = { name: 'layoutpagexmllast2weeks', total: 3, scope, series: [{ name: 'perDay', period: 'day', points: days({ '2026-11-28': 3 }) }] };
  return all;
}

const DASHBOARD: Dashboard = {
  scope: 'all',
  jobs: {
    running: 1,
    queued: [{ key: 'P2PaLA', count: 4 }],
    failedRecently: 1,
    failed: [{ id: 7, uuid: 'f0000000-0000-4000-8000-000000000007', jobType: 'HarvestIIIF', error: 'The manifest answered 404.', finished: '2026-11-27T10:00:00.000Z', imageSet: { uuid: 'a0000000-0000-4000-8000-000000000001', name: 'Letters' } }],
  },
  storage: {
    files: 3,
    bytes: 2_500_000,
    byMediaType: [{ key: 'image/jpeg', count: 2_400_000 }, { key: 'application/xml', count: 100_000 }],
    server: { cacheBytes: 1_000_000, cacheLimitBytes: 512_000_000, diskFreeBytes: 40_000_000_000, diskTotalBytes: 100_000_000_000 },
  },
};

function serve(scope: 'all' | 'readable', dashboard: Dashboard | null = DASHBOARD) {
  const answers = statistics(scope);
  setToken('token-1');
  return stubFetch(
    signedInHandler(['AUTHENTICATED', ...(scope === 'all' ? ['ADMIN'] : [])], (url) => {
      const name = url.pathname.match(/^\/api\/pim\/statistics\/(\w+)$/)?.[1] as StatisticName | undefined;
      if (name) return jsonResponse(answers[name]);
      if (url.pathname === '/api/pim/dashboard') return dashboard ? jsonResponse(dashboard) : jsonResponse({ error: 'internal', message: 'The database is not answering.' }, 500);
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

describe('/pim/dashboard', () => {
  // jsdom lays nothing out, so recharts warns that every chart is 0 px wide; the numbers are tested as tables.
  beforeEach(() => vi.spyOn(console, 'warn').mockImplementation(() => undefined));

  it('shows the totals with what the last 14 days added, and whose data they count', async () => {
    const fetchMock = serve('all');
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(await screen.findByText('Everything on this server: you are an administrator.')).toBeTruthy();
    const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).parentElement!;
    expect(within(figure('Image sets')).getByText('3')).toBeTruthy();
    expect(within(figure('Images')).getByText('40')).toBeTruthy();
    expect(within(figure('Images')).getByText('+10 in 14 days')).toBeTruthy();
    expect(within(figure('OCR results')).getByText('12')).toBeTruthy();
    expect(within(figure('PAGE layouts')).getByText('3')).toBeTruthy();
    for (const name of STATISTIC_NAMES) expect(fetchedUrls(fetchMock)).toContain(`/api/pim/statistics/${name}?onlyOwnData=false`);
  });

  it('reads the numbers of a chart as a table: per day, per month and each share, named', async () => {
    const user = userEvent.setup();
    serve('all');
    renderApp('/dashboard');
    const recent = await screen.findByRole('region', { name: 'The last 14 days' });
    await user.click(await within(recent).findByRole('button', { name: 'Show numbers' }));
    const table = within(recent).getByRole('table', { name: 'Numbers of The last 14 days' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Day', 'Images', 'OCR results', 'PAGE layouts', 'Snippets', 'Similarity searches']);
    expect(rows).toHaveLength(15);
    expect(within(rows.at(-1)!).getAllByRole('cell').map((c) => c.textContent)).toEqual([dayLabel('2026-11-28', 'en'), '4', '12', '3', '0', '0']);

    const monthly = screen.getByRole('region', { name: 'Per month' });
    await user.click(within(monthly).getByRole('button', { name: 'Show numbers' }));
    const months = within(within(monthly).getByRole('table')).getAllByRole('row').slice(1);
    expect(months.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([monthLabel('2026-10', 'en'), monthLabel('2026-11', 'en')]);
    expect(within(months[0]!).getAllByRole('cell').map((c) => c.textContent).slice(1, 3)).toEqual(['1', '30']);

    const origin = screen.getByRole('region', { name: 'OCR results by origin' });
    expect(within(origin).getByText('Tesseract jobs')).toBeTruthy();
    expect(within(origin).getByText('Transkribus')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Search documents per index' })).getByText('Nothing counted yet.')).toBeTruthy();
  });

  it('shows the queue with the waiting types and recent failures, and the storage with the disk', async () => {
    serve('all');
    renderApp('/dashboard');
    const queue = await screen.findByRole('region', { name: 'Job queue' });
    const waiting = await within(queue).findByRole('table', { name: 'Waiting jobs per type' });
    expect(within(waiting).getAllByRole('cell').map((c) => c.textContent)).toEqual(['P2PaLA', '4']);
    const failures = within(queue).getByRole('list', { name: 'Recent failures' });
    expect(within(failures).getByText('HarvestIIIF')).toBeTruthy();
    expect(within(failures).getByText('The manifest answered 404.')).toBeTruthy();
    expect(within(failures).getByRole('link', { name: 'Letters' }).getAttribute('href')).toBe('/pim/imageset?uuid=a0000000-0000-4000-8000-000000000001');

    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(within(storage).getByText('3 files, 2.5 MB')).toBeTruthy();
    expect(within(storage).getByText('Disk of the data dir: 40 GB free of 100 GB')).toBeTruthy();
    expect(within(storage).getByText('Thumbnail and tile cache: 1 MB of 512 MB')).toBeTruthy();
  });

  it("says what a plain user's numbers count, asks for own data when 'Own data only' is on, and says why the queue is missing", async () => {
    localStorage.setItem('onlyOwnData', 'true');
    const fetchMock = serve('readable', null);
    renderApp('/dashboard');
    expect(await screen.findByText("What your own image sets hold ('Own data only' is on).")).toBeTruthy();
    expect(fetchedUrls(fetchMock)).toContain('/api/pim/statistics/documentimagesetstats?onlyOwnData=true');
    const queue = await screen.findByRole('region', { name: 'Job queue' });
    expect(await within(queue).findByText('The database is not answering.')).toBeTruthy();
    localStorage.removeItem('onlyOwnData');
  });
});
