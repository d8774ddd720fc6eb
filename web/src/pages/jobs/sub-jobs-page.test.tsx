import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { calls } from '../models/fixtures.test-support';
import { JOB_A, JOB_B, JOB_C, jobServer, SET, subJobFixture } from './fixtures.test-support';

const rowOf = (table: HTMLElement, text: string) => within(table).getByText(text).closest('tr') as HTMLElement;
const headers = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((header) => header.textContent);

describe('/pim/p2palajobs and /pim/siamesenetworkjobs', () => {
  afterEach(() => localStorage.removeItem('onlyOwnData'));

  it("lists the P2PaLA jobs with the spec's fields, the state read from them and the set linked", async () => {
    jobServer({
      subJobs: {
        p2pala: [
          subJobFixture(JOB_A, { networkSpec: 'not started yet' }),
          subJobFixture(JOB_B, { inProgress: true, startDate: '2024-06-01T09:01:00.000Z', networkSpec: 'running now' }),
          subJobFixture(JOB_C, { startDate: '2024-06-01T09:01:00.000Z', errors: 'CUDA out of memory', networkSpec: 'broke' }),
          subJobFixture('a0000000-0000-4000-8000-00000000000d', { done: true, startDate: '2024-06-01T09:01:00.000Z', networkSpec: 'finished' }),
        ],
      },
    });
    renderApp('/p2palajobs');
    expect(await screen.findByRole('heading', { name: 'P2PaLA Jobs' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'P2PaLA Jobs' });
    await within(table).findByText('not started yet');
    expect(headers(table)).toEqual(['Created', 'Updated', 'State', 'Errors', 'Image set', 'Network spec', 'Actions']);
    expect(within(rowOf(table, 'not started yet')).getByText('Not started')).toBeTruthy();
    expect(within(rowOf(table, 'running now')).getByText('Running')).toBeTruthy();
    expect(within(rowOf(table, 'broke')).getByText('Failed')).toBeTruthy();
    expect(within(rowOf(table, 'broke')).getByText('CUDA out of memory')).toBeTruthy();
    expect(within(rowOf(table, 'finished')).getByText('Done')).toBeTruthy();
    expect(within(rowOf(table, 'finished')).getByRole('link', { name: SET.name }).getAttribute('href')).toBe(`/pim/imageset?uuid=${SET.uuid}`);
    // A job that waits or runs can be cancelled; one that ended cannot.
    const cancels = (text: string) => within(rowOf(table, text)).queryAllByRole('button', { name: 'Cancel' }).length;
    expect(['not started yet', 'running now', 'broke', 'finished'].map(cancels)).toEqual([1, 1, 0, 0]);
  });

  it('shows a job\'s configuration when asked', async () => {
    const user = userEvent.setup();
    jobServer({ subJobs: { siamese: [subJobFixture(JOB_A, { config: { model: 'writers', epochs: 12 } })] } });
    renderApp('/siamesenetworkjobs');
    const table = await screen.findByRole('table', { name: 'Siamese network jobs' });
    expect(screen.queryByText(/"epochs": 12/)).toBeNull();
    await user.click(await within(table).findByRole('button', { name: 'Config' }));
    const dialog = await screen.findByRole('dialog', { name: "The job's configuration" });
    expect(within(dialog).getByText(/"epochs": 12/)).toBeTruthy();
  });

  it('cancels a P2PaLA job and reads the list again on 204', async () => {
    const user = userEvent.setup();
    const { fetchMock } = jobServer({ subJobs: { p2pala: [subJobFixture(JOB_A, { networkSpec: 'queued one' })] } });
    renderApp('/p2palajobs');
    const table = await screen.findByRole('table', { name: 'P2PaLA Jobs' });
    await user.click(await within(table).findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(table).queryByText('queued one')).toBeNull());
    expect(await screen.findByText('The job is cancelled.')).toBeTruthy();
    const list = 'GET /api/pim/p2palajob?onlyOwnData=false';
    expect(calls(fetchMock)).toEqual([list, `POST /api/pim/p2palajob/${JOB_A}/cancel`, list]);
  });

  it('reads the Siamese jobs again only on 204: another answer is reported and changes nothing', async () => {
    const user = userEvent.setup();
    const { fetchMock } = jobServer({ subJobs: { siamese: [subJobFixture(JOB_A, { networkSpec: 'queued one' })] }, subJobCancelStatus: 200 });
    renderApp('/siamesenetworkjobs');
    const table = await screen.findByRole('table', { name: 'Siamese network jobs' });
    await user.click(await within(table).findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/Unexpected server response/)).toBeTruthy();
    expect(within(table).getByText('queued one')).toBeTruthy();
    expect(screen.queryByText('The job is cancelled.')).toBeNull();
    expect(calls(fetchMock)).toEqual(['GET /api/pim/siamesejob?onlyOwnData=false', `POST /api/pim/siamesejob/${JOB_A}/cancel`]);
  });

  it("asks for the caller's own records under 'Own data only'", async () => {
    localStorage.setItem('onlyOwnData', 'true');
    const { fetchMock } = jobServer({ subJobs: { p2pala: [subJobFixture(JOB_A, { networkSpec: 'mine' })] } });
    renderApp('/p2palajobs');
    await screen.findByText('mine');
    expect(calls(fetchMock)).toEqual(['GET /api/pim/p2palajob?onlyOwnData=true']);
  });
});

describe('the Jobs menu', () => {
  it('leads to the job screens: Jobs, P2PaLA Jobs and Siamese network jobs', async () => {
    const user = userEvent.setup();
    jobServer({ roles: ['AUTHENTICATED'] });
    const { router } = renderApp('/');
    for (const [item, heading, path] of [
      ['Jobs', 'Jobs', '/pim/jobs'],
      ['P2PaLA Jobs', 'P2PaLA Jobs', '/pim/p2palajobs'],
      ['Siamese network jobs', 'Siamese network jobs', '/pim/siamesenetworkjobs'],
    ] as const) {
      await user.click(await screen.findByRole('button', { name: 'Jobs' }));
      await user.click(await screen.findByRole('menuitem', { name: item }));
      expect(await screen.findByRole('heading', { level: 2, name: heading })).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
    }
  });
});
