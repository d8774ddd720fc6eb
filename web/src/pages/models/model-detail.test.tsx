import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { apiPath, calls, captureDownloads, MODEL_A, modelFixture, modelServer } from './fixtures.test-support';

const downloads = captureDownloads();

const laypa = (publicModel: boolean) =>
  modelFixture('laypa', MODEL_A, 'baseline', {
    publicModel,
    properties: {
      MODEL: { DEVICE: 'cuda', WEIGHTS: 'model_best.pth', ROI_HEADS: { NUM_CLASSES: 3 } },
      PREPROCESS: { REGIONS: ['paragraph', 'marginalia'] },
      TEST: { AUG: false },
    },
  });

const valueOf = (table: HTMLElement, name: string) => within(table).getByRole('rowheader', { name }).nextElementSibling as HTMLElement;

describe('/pim/laypamodel?uuid=', () => {
  it('shows a user without ADMIN the model with Make public disabled, saying the role is missing', async () => {
    const user = userEvent.setup();
    modelServer('laypa', [laypa(false)], ['AUTHENTICATED']);
    renderApp(`/laypamodel?uuid=${MODEL_A}`);
    const makePublic = await screen.findByRole('button', { name: 'Make public' });
    expect(makePublic).toHaveProperty('disabled', true);
    await user.hover(makePublic.parentElement as HTMLElement);
    expect(await screen.findByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toHaveProperty('disabled', false);
  });

  it('shows every property as name/value rows: owner by name, booleans, lists and nested objects', async () => {
    modelServer('laypa', [laypa(false)]);
    renderApp(`/laypamodel?uuid=${MODEL_A}`);
    expect(await screen.findByRole('heading', { name: 'Laypa model' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Model properties' });
    expect(valueOf(table, 'Label').textContent).toBe('baseline');
    expect(within(valueOf(table, 'UUID')).getByRole('button', { name: `Copy UUID ${MODEL_A}` })).toBeTruthy();
    expect(valueOf(table, 'Owner').textContent).toBe('Ada Researcher');
    expect(valueOf(table, 'Public').textContent).toBe('No');
    expect(valueOf(table, 'Size').textContent).toBe('1.5 MB');
    const model = within(table).getByRole('table', { name: 'MODEL' });
    expect(valueOf(model, 'DEVICE').textContent).toBe('cuda');
    expect(valueOf(within(model).getByRole('table', { name: 'ROI_HEADS' }), 'NUM_CLASSES').textContent).toBe('3');
    const regions = within(table).getByRole('list', { name: 'REGIONS' });
    expect(within(regions).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['paragraph', 'marginalia']);
    expect(valueOf(within(table).getByRole('table', { name: 'TEST' }), 'AUG').textContent).toBe('No');
    expect(screen.queryByRole('button', { name: 'Make private' })).toBeNull();
  });

  it("'Make public' puts makepublic and returns to the list", async () => {
    const user = userEvent.setup();
    const fetchMock = modelServer('laypa', [laypa(false)]);
    const { router } = renderApp(`/laypamodel?uuid=${MODEL_A}`);
    await user.click(await screen.findByRole('button', { name: 'Make public' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/laypamodels'));
    expect(calls(fetchMock)).toContain(`PUT ${apiPath('laypa')}/${MODEL_A}/makepublic`);
  });

  it("'Make private' on a public Loghi HTR model puts makeprivate and returns to its list", async () => {
    const user = userEvent.setup();
    const fetchMock = modelServer('loghihtr', [modelFixture('loghihtr', MODEL_A, 'Generic', { publicModel: true })]);
    const { router } = renderApp(`/loghihtrmodel?uuid=${MODEL_A}`);
    expect(await screen.findByRole('heading', { name: 'Loghi HTR model' })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Make private' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/loghihtrmodels'));
    expect(calls(fetchMock)).toContain(`PUT ${apiPath('loghihtr')}/${MODEL_A}/makeprivate`);
  });

  it('downloads as layparmodel_{uuid}.zip and goes Back to the list', async () => {
    const user = userEvent.setup();
    const fetchMock = modelServer('laypa', [laypa(true)]);
    const { router } = renderApp(`/laypamodel?uuid=${MODEL_A}`);
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads.saved).toEqual([`layparmodel_${MODEL_A}.zip`]));
    expect(calls(fetchMock)).toContain(`GET ${apiPath('laypa')}/${MODEL_A}/binary?from=detail`);
    await user.click(screen.getByRole('link', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/laypamodels'));
  });

  it('without a uuid is the create form', async () => {
    modelServer('loghihtr', []);
    renderApp('/loghihtrmodel');
    expect(await screen.findByRole('textbox', { name: 'Label' })).toBeTruthy();
    expect(screen.getByText('Loghi HTR model file')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make public' })).toBeNull();
  });
});
