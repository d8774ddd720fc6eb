import { JOB_TYPES, type JobField, type JobType } from '@pim/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import enJobs from '../../../public/locales/en/jobs.json';
import { renderApp } from '../../test/render';
import { calls } from '../models/fixtures.test-support';
import { FIELD_SET, FIELD_WRITER, FIELD_YEAR, jobServer, SET, TESSERACT_MODEL } from './fixtures.test-support';
import { fieldsOf } from './job-draft';

const fieldLabel = (field: JobField) => enJobs.fields[field];

/** The labels of the form's inputs (text, number, pickers and choices, switches), in order. */
function formLabels(): string[] {
  const form = screen.getByRole('button', { name: 'Create' }).closest('form') as HTMLElement;
  const inputs = [...form.querySelectorAll('input:not([type=hidden]), textarea')].filter((input) => !input.closest('[role=option]'));
  return inputs.map((input) => {
    const label = input.id ? form.querySelector(`label[for="${input.id}"]`) : null;
    return (label?.textContent ?? input.getAttribute('aria-label') ?? '').replace(/\s*\*$/, '');
  });
}

/** The labels the chosen type's form should show: its fields and the priority, the field set before its fields. */
function expectedLabels(type: JobType): string[] {
  return fieldsOf(type).flatMap((field) => {
    if (field === 'pimFieldUuids') return ['Field set', 'Add a field'];
    if (field === 'pimFieldSiameseLabel') return fieldsOf(type).includes('pimFieldUuids') ? ['Label field'] : ['Field set', 'Label field'];
    return [fieldLabel(field)];
  });
}

/** The options of one select (the nav bar has a select of its own). */
async function optionsOf(user: UserEvent, label: string): Promise<HTMLElement[]> {
  const input = screen.getByRole('textbox', { name: label });
  await user.click(input);
  await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
  const listbox = document.getElementById(input.getAttribute('aria-controls')!) as HTMLElement;
  return within(listbox).findAllByRole('option');
}

async function chooseType(user: UserEvent, type: JobType) {
  const option = (await optionsOf(user, 'Job type')).find((candidate) => candidate.getAttribute('value') === type);
  if (!option) throw new Error(`No option ${type}`);
  await user.click(option);
}

async function pick(user: UserEvent, label: string, option: string) {
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function openForm(path = '/job') {
  const view = renderApp(path);
  await screen.findByRole('textbox', { name: 'Job type' });
  return view;
}

describe('/pim/job', () => {
  it('starts with the job type only, Create disabled until a type is chosen (spec part 2 §5)', async () => {
    const user = userEvent.setup();
    jobServer();
    await openForm();
    expect(screen.getByRole('heading', { name: 'New job' })).toBeTruthy();
    expect(formLabels()).toEqual(['Job type']);
    expect(screen.getByRole('button', { name: 'Create' })).toHaveProperty('disabled', true);

    const options = await optionsOf(user, 'Job type');
    expect(options.map((option) => option.getAttribute('value'))).toEqual([...JOB_TYPES]);
    expect(within(options[5]!).getByText("Recognises the text of the set's images with Tesseract and stores it as hOCR transcriptions.")).toBeTruthy();
    await user.click(options[5]!);
    expect(screen.getByRole('button', { name: 'Create' })).toHaveProperty('disabled', false);
  });

  it('shows exactly the fields each of the 19 types uses, and the priority every job has', async () => {
    const user = userEvent.setup();
    jobServer();
    await openForm();
    for (const type of JOB_TYPES) {
      await chooseType(user, type);
      // The form orders fields by its parts; which fields there are is what counts here.
      expect({ type, labels: formLabels().sort() }).toEqual({ type, labels: ['Job type', ...expectedLabels(type)].sort() });
    }
  });

  it('says a job of a type no worker runs will wait, and not for a type this server runs', async () => {
    const user = userEvent.setup();
    jobServer({ served: ['KrakenHocr'] });
    await openForm();
    await chooseType(user, 'P2PaLA');
    expect(screen.getByText('No worker runs P2PaLA yet: the job will wait until one is started.')).toBeTruthy();
    await chooseType(user, 'KrakenHocr');
    expect(screen.queryByText(/No worker runs/)).toBeNull();
    await chooseType(user, 'Tesseract4Hocr');
    expect(screen.queryByText(/No worker runs/)).toBeNull();
  });

  it("fills in the spec's defaults (part 2 §9) and asks the server for P2PaLA's option lists", async () => {
    const user = userEvent.setup();
    const { fetchMock } = jobServer();
    await openForm();
    await chooseType(user, 'P2PaLA');
    const value = (label: string) => (screen.getByRole('textbox', { name: label }) as HTMLInputElement).value;
    const checked = (label: string) => (screen.getByRole('switch', { name: label }) as HTMLInputElement).checked;
    expect({
      exp_name: value('Experiment name'),
      work_dir: value('Work directory'),
      log_level: value('Log level'),
      num_workers: value('Workers'),
      img_size: value('Image size'),
      line_color: value('Line color'),
      line_width: value('Line width'),
      regions: value('Regions'),
      merge_regions: value('Merge regions'),
      approx_alg: value('Approximation algorithm'),
      num_segments: value('Segments'),
      batch: value('Batch size'),
      input_channels: value('Input channels'),
      out_mode: value('Output mode'),
      net_out_type: value('Net output type'),
      cnn_ngf: value('Generator filters (ngf)'),
      loss_lambda: value('Loss lambda'),
      g_loss: value('Generator loss'),
      adam_lr: value('Adam learning rate'),
      betas: [value('Adam beta 1'), value('Adam beta 2')],
      epochs: value('Epochs'),
      gan_layers: value('GAN layers'),
      max_vertex: value('Max vertices'),
      e_stdv: value('Standard deviation'),
      data: [value('Training data'), value('Validation data'), value('Test data'), value('Production data')],
      priority: value('Priority (0 runs first)'),
    }).toEqual({
      exp_name: 'experiment_name',
      work_dir: '/work',
      log_level: 'DEBUG',
      num_workers: '4',
      img_size: '2048 1536',
      line_color: '128',
      line_width: '10',
      regions: 'paragraph marginalia page-number',
      merge_regions: 'paragraph:heading',
      approx_alg: 'optimal',
      num_segments: '4',
      batch: '2',
      input_channels: '3',
      out_mode: 'L',
      net_out_type: 'C',
      cnn_ngf: '64',
      loss_lambda: '100',
      g_loss: 'L1',
      adam_lr: '0.001',
      betas: ['0.5', '0.999'],
      epochs: '200',
      gan_layers: '3',
      max_vertex: '30',
      e_stdv: '6',
      data: ['/data/train/', '/data/val/', '/data/test/', '/data/prod/'],
      priority: '50',
    });
    expect([checked('Production'), checked('Use a GAN'), checked('Train'), checked('Extract lines')]).toEqual([true, true, false, false]);

    expect((await optionsOf(user, 'Output mode')).map((option) => option.textContent)).toEqual(['L', 'R', 'LR']);
    await waitFor(() =>
      expect(calls(fetchMock).filter((call) => call.startsWith('GET /api/pim/p2palajob/')).sort()).toEqual([
        'GET /api/pim/p2palajob/approxalg',
        'GET /api/pim/p2palajob/loglevel',
        'GET /api/pim/p2palajob/outmode',
      ]),
    );
  });

  it('checks the form with the contract before sending: ranges at their fields, and the fields the type needs', async () => {
    const user = userEvent.setup();
    const { fetchMock } = jobServer();
    await openForm();
    await chooseType(user, 'HarvestIIIF');
    const priority = screen.getByRole('textbox', { name: 'Priority (0 runs first)' });
    await user.clear(priority);
    await user.type(priority, '150');
    expect(await screen.findByText('Priority must be at most 100.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Manifest or collection address' }), 'ftp://example.org/manifest.json');
    expect(await screen.findByText('The address must be an http(s) URL.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Image set is needed for this job type.')).toBeTruthy();

    await user.clear(priority);
    expect(await screen.findByText('Priority must be a number.')).toBeTruthy();
    await chooseType(user, 'P2PaLA');
    const lineColor = screen.getByRole('textbox', { name: 'Line color' });
    await user.clear(lineColor);
    await user.type(lineColor, '300');
    expect(await screen.findByText('line_color must be at most 255.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(calls(fetchMock).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('sends exactly the fields of the type, says the job is queued and goes to the jobs', async () => {
    const user = userEvent.setup();
    const { fetchMock, bodies } = jobServer();
    const { router } = await openForm();
    await chooseType(user, 'Tesseract4Hocr');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Image set is needed for this job type.')).toBeTruthy();
    await pick(user, 'Image set', SET.name);
    await pick(user, 'Tesseract model', TESSERACT_MODEL.name);
    await user.click(screen.getByRole('switch', { name: 'All data (also what was done before)' }));
    const priority = screen.getByRole('textbox', { name: 'Priority (0 runs first)' });
    await user.clear(priority);
    await user.type(priority, '10');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('The Tesseract4Hocr job is queued.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/jobs'));
    expect(bodies['POST /api/pim/jobs']).toEqual({
      jobType: 'Tesseract4Hocr',
      imageSet: SET.uuid,
      tesseract4model: TESSERACT_MODEL.uuid,
      allData: true,
      priority: 10,
    });
    expect(calls(fetchMock).filter((call) => call.startsWith('POST'))).toEqual(['POST /api/pim/jobs']);
  });

  it('takes the image set from the address: /pim/job?imageSet={uuid}', async () => {
    const user = userEvent.setup();
    const { bodies } = jobServer();
    await openForm(`/job?imageSet=${SET.uuid}`);
    await chooseType(user, 'Epubify');
    expect((screen.getByRole('textbox', { name: 'Image set' }) as HTMLInputElement).value).toBe(SET.name);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('The Epubify job is queued.');
    expect(bodies['POST /api/pim/jobs']).toEqual({ jobType: 'Epubify', imageSet: SET.uuid, priority: 50 });
  });

  it('picks metadata fields from one field set, as many as wanted, and takes them off again', async () => {
    const user = userEvent.setup();
    const { bodies } = jobServer();
    await openForm(`/job?imageSet=${SET.uuid}`);
    await chooseType(user, 'CreateSetForSiameseNetwork');
    expect(screen.getByRole('textbox', { name: 'Add a field' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Metadata fields is needed for this job type.')).toBeTruthy();

    await pick(user, 'Field set', FIELD_SET.name);
    await pick(user, 'Add a field', FIELD_WRITER.label);
    await pick(user, 'Add a field', FIELD_YEAR.label);
    const chosen = screen.getByRole('list', { name: 'Metadata fields' });
    expect(within(chosen).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Writer', 'Year']);
    await user.click(screen.getByRole('button', { name: 'Remove Writer' }));
    expect(within(chosen).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Year']);
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await screen.findByText('The CreateSetForSiameseNetwork job is queued.');
    expect(bodies['POST /api/pim/jobs']).toEqual({ jobType: 'CreateSetForSiameseNetwork', imageSet: SET.uuid, pimFieldUuids: [FIELD_YEAR.uuid], priority: 50 });
  });
});
