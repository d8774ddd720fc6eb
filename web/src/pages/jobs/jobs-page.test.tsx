import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOB_POLL_MS } from '../../api/jobs';
import { renderApp } from '../../test/render';
import { calls, captureDownloads } from '../models/fixtures.test-support';
import { doneJob, JOB_A, JOB_B, JOB_C, jobFixture, jobServer, OTHER_SET, runningJob, TESSERACT_MODEL } from './fixtures.test-support';

const rowOf = (table: HTMLElement, text: string) => within(table).getByText(text).closest('tr') as HTMLElement;
const headers = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((header) => header.textContent);
const listCalls = (fetchMock: Parameters<typeof calls>[0]) => calls(fetchMock).filter((call) => call.startsWith('GET /api/pim/jobs?'));
const downloads = captureDownloads();

async function openJobs() {
  const view = renderApp('/jobs');
  const table = await screen.findByRole('table', { name: 'Jobs' });
  return { ...view, table };
}

describe('/pim/jobs', () => {
  afterEach(() => {
    vi.useRealTimers();
    localStorage.removeItem('onlyOwnData');
  });

  it('shows each state as a person reads it: place in the queue, waiting for a worker, progress, done, the error in full, cancelled', async () => {
    jobServer({
      jobs: [
        jobFixture(JOB_A, 'Tesseract4Hocr', { jobOrder: 3 }),
        jobFixture(JOB_B, 'P2PaLA', { jobOrder: 1, waitingFor: 'Waiting for a worker that runs P2PaLA.' }),
        runningJob(JOB_C, 'SplitPDF', 12, 40, 'Rendering page 13'),
        doneJob('a0000000-0000-4000-8000-00000000000d', 'GenerateManifests', { documentImageset: OTHER_SET }),
        jobFixture('a0000000-0000-4000-8000-00000000000e', 'HarvestIIIF', {
          state: 'failed',
          startDate: '2024-06-01T09:01:00.000Z',
          endDate: '2024-06-01T09:02:00.000Z',
          jobOrder: null,
          error: 'The manifest at https://example.org/m.json is not IIIF Presentation 2 or 3: it has no @context.\nNothing was imported.',
        }),
        jobFixture('a0000000-0000-4000-8000-00000000000f', 'SetBrokenNull', { state: 'cancelled', jobOrder: null, endDate: '2024-06-01T09:03:00.000Z' }),
      ],
    });
    const { table } = await openJobs();
    await within(table).findByText('Tesseract4Hocr');
    expect(headers(table)).toEqual(['Type', 'Image set', 'State', 'Priority', 'Created', 'Started', 'Finished', 'Run by', 'Owner', 'Actions']);

    expect(within(rowOf(table, 'Tesseract4Hocr')).getByText('Queued')).toBeTruthy();
    expect(within(rowOf(table, 'Tesseract4Hocr')).getByText('Place 3 in the queue')).toBeTruthy();
    expect(within(rowOf(table, 'P2PaLA')).getByText('Waiting for a worker that runs P2PaLA')).toBeTruthy();
    const running = rowOf(table, 'SplitPDF');
    expect(within(running).getByText('Running')).toBeTruthy();
    expect(within(running).getByText('12 of 40 pages')).toBeTruthy();
    expect(within(running).getByText('Rendering page 13')).toBeTruthy();
    expect(within(running).getByRole('progressbar', { name: '12 of 40 pages' }).getAttribute('aria-valuenow')).toBe('30');
    expect(within(running).getByText('built-in')).toBeTruthy();
    expect(within(rowOf(table, 'GenerateManifests')).getByText('Done')).toBeTruthy();
    const failed = rowOf(table, 'HarvestIIIF');
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText(/has no @context\.\s+Nothing was imported\.$/)).toBeTruthy();
    expect(within(rowOf(table, 'SetBrokenNull')).getByText('Cancelled')).toBeTruthy();

    const setLink = within(rowOf(table, 'GenerateManifests')).getByRole('link', { name: 'Book of hours' });
    expect(setLink.getAttribute('href')).toBe(`/pim/imageset?uuid=${OTHER_SET.uuid}`);
    expect(within(rowOf(table, 'Tesseract4Hocr')).getByText('Ada Researcher')).toBeTruthy();
  });

  it("names the worker that ran a job, with its host and versions on hover", async () => {
    const user = userEvent.setup();
    jobServer({ jobs: [runningJob(JOB_C, 'Tesseract4Hocr', 1, 2)] });
    const { table } = await openJobs();
    await user.hover(await within(table).findByText('built-in'));
    expect(await screen.findByText('tesseract 5.3.0')).toBeTruthy();
    expect(screen.getByText('pim 0.1.0')).toBeTruthy();
    expect(screen.getByText('pim-1')).toBeTruthy();
  });

  it('offers what the state allows: Cancel before it starts, Restart while running or after failing, Download when done with a file', async () => {
    jobServer({
      jobs: [
        jobFixture(JOB_A, 'Tesseract4Hocr'),
        runningJob(JOB_B, 'SplitPDF', 1, 4),
        jobFixture(JOB_C, 'HarvestIIIF', { state: 'failed', startDate: '2024-06-01T09:01:00.000Z', jobOrder: null, error: 'Broken.' }),
        doneJob('a0000000-0000-4000-8000-00000000000d', 'PipelineKB2', { downloadUri: 'pim/jobs/download/a0000000-0000-4000-8000-00000000000d' }),
        doneJob('a0000000-0000-4000-8000-00000000000e', 'GenerateManifests'),
        jobFixture('a0000000-0000-4000-8000-00000000000f', 'SetBrokenNull', { state: 'cancelled', jobOrder: null }),
      ],
    });
    const { table } = await openJobs();
    await within(table).findByText('Tesseract4Hocr');
    const actions = (type: string) => within(rowOf(table, type)).queryAllByRole('button').map((button) => button.textContent);
    expect(actions('Tesseract4Hocr')).toEqual(['Details', 'Cancel']);
    expect(actions('SplitPDF')).toEqual(['Details', 'Restart']);
    expect(actions('HarvestIIIF')).toEqual(['Details', 'Restart']);
    expect(actions('PipelineKB2')).toEqual(['Details', 'Download']);
    expect(actions('GenerateManifests')).toEqual(['Details']);
    expect(actions('SetBrokenNull')).toEqual(['Details']);
  });

  it("shows a job's settings by their form labels, what its run noted, and who ran it with which versions", async () => {
    const user = userEvent.setup();
    jobServer({
      jobs: [
        doneJob(JOB_A, 'Tesseract4Hocr', {
          settings: { jobType: 'Tesseract4Hocr', priority: 50, allData: true, imageSet: 'b0000000-0000-4000-8000-00000000000a', tesseract4model: TESSERACT_MODEL.uuid },
          settingNames: { tesseract4model: TESSERACT_MODEL.name },
          result: { pages: 12, read: 11, failed: 1, failures: [{ image: 'f. 3r', reason: 'Unreadable image' }], groundTruthKept: 0, failedImages: [] },
          worker: { name: 'gpu-1', host: '10.0.0.7', versions: { pim: '0.1.0', tesseract: '5.3.0' } },
        }),
        jobFixture(JOB_B, 'GenerateManifests', { settings: { jobType: 'GenerateManifests', priority: 50 } }),
      ],
    });
    const { table } = await openJobs();
    await within(table).findByText('Tesseract4Hocr');
    await user.click(within(rowOf(table, 'Tesseract4Hocr')).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tesseract4Hocr job 1' });
    const pairs = (name: string) =>
      within(within(dialog).getByRole('table', { name })).getAllByRole('row').map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent]);
    // In the order of the type's form, whatever order they were stored in.
    expect(pairs('Settings')).toEqual([
      ['Tesseract model', 'Dutch print'],
      ['All data (also what was done before)', 'Yes'],
    ]);
    expect(pairs('Result').slice(0, 3)).toEqual([
      ['Pages', '12'],
      ['Read', '11'],
      ['Failed', '1'],
    ]);
    expect(pairs('Result')[3]![1]).toContain('"reason": "Unreadable image"');
    expect(pairs('Result').slice(4)).toEqual([
      ['Ground truth kept', '0'],
      ['Failed images', '—'],
    ]);
    expect(pairs('Run by')).toEqual([
      ['Worker', 'gpu-1'],
      ['Host', '10.0.0.7'],
      ['pim', '0.1.0'],
      ['tesseract', '5.3.0'],
    ]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(rowOf(table, 'GenerateManifests')).getByRole('button', { name: 'Details' }));
    const other = await screen.findByRole('dialog', { name: 'GenerateManifests job 1' });
    expect(within(other).getByText('This type has no settings.')).toBeTruthy();
    expect(within(other).getByText('Nothing yet: the job has not finished a run.')).toBeTruthy();
  });

  it('cancels and restarts through the server, says so and lists again', async () => {
    const user = userEvent.setup();
    const { fetchMock } = jobServer({ jobs: [jobFixture(JOB_A, 'Tesseract4Hocr'), runningJob(JOB_B, 'SplitPDF', 1, 4)] });
    const { table } = await openJobs();
    await within(table).findByText('Tesseract4Hocr');
    await user.click(within(rowOf(table, 'Tesseract4Hocr')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('The Tesseract4Hocr job is cancelled.')).toBeTruthy();
    await user.click(within(rowOf(table, 'SplitPDF')).getByRole('button', { name: 'Restart' }));
    expect(await screen.findByText('The SplitPDF job starts again.')).toBeTruthy();
    const list = 'GET /api/pim/jobs?page=0&pageSize=10&onlyOwnData=false';
    await waitFor(() =>
      expect(calls(fetchMock).filter((call) => !call.startsWith('GET /api/pim/jobs?') || call === list)).toEqual([
        list,
        `POST /api/pim/jobs/${JOB_A}/cancel`,
        list,
        `POST /api/pim/jobs/${JOB_B}/restart`,
        list,
      ]),
    );
  });

  it("downloads a done job's EPUB under the set's name", async () => {
    const user = userEvent.setup();
    const { fetchMock } = jobServer({ jobs: [doneJob(JOB_A, 'PipelineKB2', { downloadUri: `pim/jobs/download/${JOB_A}` })] });
    const { table } = await openJobs();
    await user.click(await within(table).findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads.saved).toEqual([`Psalter_${JOB_A}.epub`]));
    expect(calls(fetchMock)).toContain(`GET /api/pim/jobs/download/${JOB_A}`);
  });

  it("downloads a remote worker's output of any other type under the server's name for it, so a zip stays a .zip", async () => {
    const user = userEvent.setup();
    jobServer({ jobs: [doneJob(JOB_A, 'FrogNer', { downloadUri: `pim/jobs/download/${JOB_A}` })] });
    const { table } = await openJobs();
    await user.click(await within(table).findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads.saved).toEqual(['Frög-12.zip']));
  });

  it("leads to the form with 'New job' and asks only for the caller's own jobs under 'Own data only'", async () => {
    localStorage.setItem('onlyOwnData', 'true');
    const { fetchMock } = jobServer({ jobs: [doneJob(JOB_A, 'GenerateManifests')] });
    const { router } = await openJobs();
    await screen.findByText('GenerateManifests');
    expect(listCalls(fetchMock)).toEqual(['GET /api/pim/jobs?page=0&pageSize=10&onlyOwnData=true']);
    await userEvent.click(screen.getByRole('link', { name: 'New job' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/job'));
  });

  it('asks the server page by page and offers only the page sizes it takes', async () => {
    const user = userEvent.setup();
    const jobs = Array.from({ length: 12 }, (_, i) => doneJob(`a0000000-0000-4000-8000-0000000001${String(i + 10)}`, 'GenerateManifests', { priority: i }));
    const { fetchMock } = jobServer({ jobs });
    const { table } = await openJobs();
    await within(table).findAllByText('GenerateManifests');
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    const sizes = within(screen.getByRole('combobox', { name: 'Rows per page' })).getAllByRole('option').map((option) => option.textContent);
    expect(sizes).toEqual(['10', '20', '30', '40', '50']);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–12 of 12');
    expect(listCalls(fetchMock)).toEqual([
      'GET /api/pim/jobs?page=0&pageSize=10&onlyOwnData=false',
      'GET /api/pim/jobs?page=1&pageSize=10&onlyOwnData=false',
    ]);
  });
});

describe('/pim/jobs refreshing', () => {
  afterEach(() => vi.useRealTimers());

  /**
   * The list polls with setInterval; only that clock is faked, and moved on by the test, so no poll
   * happens unless the test lets one (a slow machine adds none). Everything else runs as usual.
   */
  const fakePollClock = () => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(JOB_POLL_MS));

  it('asks again every few seconds while a job is queued or running, and stops once none is', async () => {
    fakePollClock();
    let stage = 0;
    const stages = [
      [jobFixture(JOB_A, 'Tesseract4Hocr'), doneJob(JOB_B, 'GenerateManifests')],
      [runningJob(JOB_A, 'Tesseract4Hocr', 3, 8), doneJob(JOB_B, 'GenerateManifests')],
      [doneJob(JOB_A, 'Tesseract4Hocr'), doneJob(JOB_B, 'GenerateManifests')],
    ];
    const { fetchMock } = jobServer({ jobs: () => stages[Math.min(stage, stages.length - 1)]! });
    const { table } = await openJobs();
    expect(await within(table).findByText('Queued')).toBeTruthy();

    stage = 1;
    await nextPoll();
    expect(await within(table).findByText('3 of 8 pages')).toBeTruthy();
    stage = 2;
    await nextPoll();
    await waitFor(() => expect(within(rowOf(table, 'Tesseract4Hocr')).getByText('Done')).toBeTruthy());
    const asked = listCalls(fetchMock).length;
    expect(asked).toBe(3);

    // Nothing left to finish: however long the page stays open, the list is not asked again.
    for (let i = 0; i < 5; i++) await nextPoll();
    expect(listCalls(fetchMock).length).toBe(asked);
  });

  it('keeps the page the user is on, in the address, while it refreshes', async () => {
    fakePollClock();
    const user = userEvent.setup();
    const older = Array.from({ length: 11 }, (_, i) => doneJob(`a0000000-0000-4000-8000-0000000002${String(i + 10)}`, 'GenerateManifests'));
    let progress = 1;
    const { fetchMock } = jobServer({ jobs: () => [...older.slice(0, 10), runningJob(JOB_A, 'Tesseract4Hocr', progress, 8), ...older.slice(10)] });
    const { table, router } = await openJobs();
    await within(table).findAllByText('GenerateManifests');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(table).findByText('1 of 8 pages')).toBeTruthy();

    progress = 5;
    await nextPoll();
    expect(await within(table).findByText('5 of 8 pages')).toBeTruthy();
    expect(screen.getByText('11–12 of 12')).toBeTruthy();
    expect(JSON.parse(new URLSearchParams(router.state.location.search).get('state') ?? '{}')).toMatchObject({ pageIndex: 1 });
    expect(listCalls(fetchMock).at(-1)).toBe('GET /api/pim/jobs?page=1&pageSize=10&onlyOwnData=false');
  });
});
