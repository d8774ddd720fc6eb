import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderApp } from '../../test/render';
import { callsTo, imageSet, imageSetServer, ROOT } from './fixtures.test-support';

const JOB = 'a0000000-0000-4000-8000-00000000000a';

/** The set Psalter, with the caller's permissions on it, and `POST pim/jobs` answering a new job. */
function serverWith(permissions?: string[]) {
  const bodies: unknown[] = [];
  const fetchMock = imageSetServer((url, init) => {
    if (url.pathname === `/api/pim/documentimageset/${ROOT}`) return jsonResponse({ ...imageSet(ROOT, 'Psalter'), ...(permissions ? { permissions } : {}) });
    if (url.pathname === '/api/pim/jobs' && init?.method === 'POST') {
      bodies.push(JSON.parse(String(init.body)));
      return jsonResponse({ uuid: JOB }, 201);
    }
    if (url.pathname === '/api/pim/jobs') return jsonResponse({ results: [], total: 0, pageSize: 10 });
    return undefined;
  });
  return { fetchMock, bodies };
}

describe("the image set's jobs", () => {
  it("Create Epub queues a PipelineKB2 job for the set; the toast's link leads to the jobs", async () => {
    const user = userEvent.setup();
    const { bodies } = serverWith(['READ', 'WRITE']);
    const { router } = renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('button', { name: 'Create Epub' }));
    expect(await screen.findByText('An EPUB of Psalter is being made')).toBeTruthy();
    expect(bodies).toEqual([{ imageSet: ROOT, jobType: 'PipelineKB2' }]);

    const link = screen.getByRole('link', { name: 'Open Jobs' });
    expect(link.getAttribute('href')).toBe('/pim/jobs');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/jobs'));
    await waitFor(() => expect(screen.queryByText('An EPUB of Psalter is being made')).toBeNull());
  });

  it('leads to the job form with the set filled in', async () => {
    const user = userEvent.setup();
    serverWith();
    const { router } = renderApp(`/imageset?uuid=${ROOT}`);
    await user.click(await screen.findByRole('link', { name: 'New job' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/job?imageSet=${ROOT}`));
  });

  it('offers neither to a reader without WRITE on the set, and says why', async () => {
    const user = userEvent.setup();
    const { fetchMock } = serverWith(['READ']);
    renderApp(`/imageset?uuid=${ROOT}`);
    const epub = await screen.findByRole('button', { name: 'Create Epub' });
    expect(epub).toHaveProperty('disabled', true);
    await user.hover(epub.parentElement as HTMLElement);
    expect(await screen.findByText('Making an EPUB of this imageset needs WRITE permission on it.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New job' })).toBeNull();
    const newJob = screen.getByRole('button', { name: 'New job' });
    expect(newJob).toHaveProperty('disabled', true);
    await user.hover(newJob.parentElement as HTMLElement);
    expect(await screen.findByText('Running a job on this imageset needs WRITE permission on it.')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/pim/jobs')).toEqual([]);
  });
});
