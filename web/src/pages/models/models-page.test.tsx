import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { apiPath, calls, captureDownloads, MODEL_A, MODEL_B, modelFixture, modelServer } from './fixtures.test-support';

const cellTexts = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const rowOf = (table: HTMLElement, text: string) => within(table).getByText(text).closest('tr') as HTMLElement;
const headers = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((header) => header.textContent);
const downloads = captureDownloads();

describe('model lists', () => {
  it('Kraken: Title, Language, UUID and Actions, and New Kraken model leads to the form', async () => {
    modelServer('kraken', [modelFixture('kraken', MODEL_A, 'Dutch print', { language: { code: 'nld', name: 'Dutch' } })]);
    const { router } = renderApp('/krakenmodels');
    expect(await screen.findByRole('heading', { name: 'Kraken models' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Kraken models' });
    await within(table).findByText('Dutch print');
    expect(headers(table)).toEqual(['Title', 'Language', 'UUID', 'Actions']);
    expect(cellTexts(rowOf(table, 'Dutch print'))).toEqual(['Dutch print', 'Dutch', MODEL_A, 'DeleteDownload']);
    await userEvent.click(screen.getByRole('link', { name: 'New Kraken model' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/krakenmodel'));
    expect(await screen.findByRole('heading', { name: 'New Kraken model' })).toBeTruthy();
  });

  it('Loghi HTR: Label, Public, Owner, UUID; a row opens /pim/loghihtrmodel?uuid=', async () => {
    modelServer('loghihtr', [modelFixture('loghihtr', MODEL_A, 'Generic 17th c.', { publicModel: true })]);
    const { router } = renderApp('/loghihtrmodels');
    const table = await screen.findByRole('table', { name: 'Loghi HTR models' });
    await within(table).findByText('Generic 17th c.');
    expect(headers(table)).toEqual(['Label', 'Public', 'Owner', 'UUID', 'Actions']);
    expect(cellTexts(rowOf(table, 'Generic 17th c.'))).toEqual(['Generic 17th c.', 'Yes', 'Ada Researcher', MODEL_A, 'DeleteDownload']);
    await userEvent.click(within(table).getByText('Generic 17th c.'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(`/pim/loghihtrmodel?uuid=${MODEL_A}`));
  });

  it('Loghi line detection has no create screen: no New button, rows do not open', async () => {
    modelServer('loghilinedetection', [modelFixture('loghilinedetection', MODEL_A, 'lines-v2')]);
    const { router } = renderApp('/loghilinedetectionmodels');
    const table = await screen.findByRole('table', { name: 'Loghi line detection models' });
    await userEvent.click(await within(table).findByText('lines-v2'));
    expect(headers(table)).toEqual(['Label', 'UUID', 'Actions']);
    expect(screen.queryByRole('link', { name: /^New / })).toBeNull();
    expect(router.state.location.pathname).toBe('/pim/loghilinedetectionmodels');
  });

  it('offers a user without ADMIN the list and downloads, New disabled with the reason and no Delete', async () => {
    const user = userEvent.setup();
    modelServer('kraken', [modelFixture('kraken', MODEL_A, 'Dutch print')], ['AUTHENTICATED']);
    renderApp('/krakenmodels');
    const table = await screen.findByRole('table', { name: 'Kraken models' });
    await within(table).findByText('Dutch print');
    expect(cellTexts(rowOf(table, 'Dutch print')).at(-1)).toBe('Download');
    expect(screen.queryByRole('link', { name: 'New Kraken model' })).toBeNull();
    const create = screen.getByRole('button', { name: 'New Kraken model' });
    expect(create).toHaveProperty('disabled', true);
    await user.hover(create.parentElement as HTMLElement);
    expect(await screen.findByText('This needs the ADMIN role.')).toBeTruthy();
  });

  it('says the create form needs the ADMIN role to a user without it', async () => {
    modelServer('kraken', [], ['AUTHENTICATED']);
    renderApp('/krakenmodel');
    expect(await screen.findByText('Only administrators can upload models')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
  });

  it('deletes after the Yes of the confirm dialog and lists again', async () => {
    const user = userEvent.setup();
    const fetchMock = modelServer('pylaia', [modelFixture('pylaia', MODEL_A, 'latin-ckpt'), modelFixture('pylaia', MODEL_B, 'dutch-ckpt')]);
    renderApp('/pylaiamodels');
    const table = await screen.findByRole('table', { name: 'Pylaia models' });
    await within(table).findByText('latin-ckpt');
    await user.click(within(rowOf(table, 'latin-ckpt')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete model' });
    expect(within(dialog).getByText(/Delete the model 'latin-ckpt'/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(within(table).queryByText('latin-ckpt')).toBeNull());
    expect(within(table).getByText('dutch-ckpt')).toBeTruthy();
    const list = `GET ${apiPath('pylaia')}?onlyOwnData=false`;
    expect(calls(fetchMock)).toEqual([list, `DELETE ${apiPath('pylaia')}/${MODEL_A}`, list]);
  });

  it('downloads under the spec names: pylaiamodel_{uuid}.ckpt, laypamodel_{uuid}.zip from the Laypa list', async () => {
    modelServer('pylaia', [modelFixture('pylaia', MODEL_A, 'latin-ckpt')]);
    const pylaia = renderApp('/pylaiamodels');
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads.saved).toEqual([`pylaiamodel_${MODEL_A}.ckpt`]));
    pylaia.unmount();

    const fetchMock = modelServer('laypa', [modelFixture('laypa', MODEL_B, 'baseline')]);
    renderApp('/laypamodels');
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads.saved.at(-1)).toBe(`laypamodel_${MODEL_B}.zip`));
    expect(calls(fetchMock)).toContain(`GET ${apiPath('laypa')}/${MODEL_B}/binary`);
  });

  it("asks for the caller's own models under 'Own data only'", async () => {
    localStorage.setItem('onlyOwnData', 'true');
    const fetchMock = modelServer('siamesenetwork', [modelFixture('siamesenetwork', MODEL_A, 'writers')]);
    renderApp('/siamesenetworkmodels');
    await screen.findByRole('table', { name: 'Siamese network models' });
    await screen.findByText('writers');
    expect(calls(fetchMock)).toEqual([`GET ${apiPath('siamesenetwork')}?onlyOwnData=true`]);
    localStorage.removeItem('onlyOwnData');
  });

  it("copies a UUID with the toast 'UUID copied!' without opening the row", async () => {
    const show = vi.spyOn(notifications, 'show');
    modelServer('laypa', [modelFixture('laypa', MODEL_A, 'baseline')]);
    const { router } = renderApp('/laypamodels');
    await userEvent.click(await screen.findByRole('button', { name: `Copy UUID ${MODEL_A}` }));
    await waitFor(() => expect(show).toHaveBeenCalledWith({ color: 'green', message: 'UUID copied!' }));
    expect(await navigator.clipboard.readText()).toBe(MODEL_A);
    expect(router.state.location.pathname).toBe('/pim/laypamodels');
  });

  it("says 'UUID copy fail!' when the clipboard refuses", async () => {
    const show = vi.spyOn(notifications, 'show');
    modelServer('p2pala', [modelFixture('p2pala', MODEL_A, 'regions')]);
    renderApp('/p2palamodels');
    const copy = await screen.findByRole('button', { name: `Copy UUID ${MODEL_A}` });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await userEvent.click(copy);
    await waitFor(() => expect(show).toHaveBeenCalledWith({ color: 'red', message: 'UUID copy fail!' }));
  });
});

describe('/pim/laypamodels', () => {
  const laypaModels = () => Array.from({ length: 12 }, (_, i) => modelFixture('laypa', `e0000000-0000-4000-8000-0000000000${String(i + 10)}`, `laypa ${i + 1}`));

  it("is the paged table 'Laypa models': asks the server page by page and shows its total", async () => {
    const user = userEvent.setup();
    const fetchMock = modelServer('laypa', laypaModels());
    const { router } = renderApp('/laypamodels');
    const table = await screen.findByRole('table', { name: 'Laypa models' });
    await within(table).findByText('laypa 1');
    expect(headers(table)).toEqual(['Label', 'UUID', 'Actions']);
    expect(within(table).queryByText('laypa 11')).toBeNull();
    expect(screen.getByText('1–10 of 12')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await within(table).findByText('laypa 11');
    expect(within(table).queryByText('laypa 1')).toBeNull();
    expect(calls(fetchMock)).toEqual([
      `GET ${apiPath('laypa')}?page=0&pageSize=10&onlyOwnData=false`,
      `GET ${apiPath('laypa')}?page=1&pageSize=10&onlyOwnData=false`,
    ]);

    await user.click(screen.getByRole('link', { name: 'New Laypa model' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/laypamodel'));
  });
});
