import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { FakeXhr, installFakeXhr } from '../../test/fake-xhr';
import { MODEL_A, modelFixture, modelServer } from './fixtures.test-support';

installFakeXhr();

const file = (name: string) => new File(['model bytes'], name, { type: 'application/octet-stream' });
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;

describe('model create forms', () => {
  it('asks for the title, the language and the file before sending anything', async () => {
    const user = userEvent.setup();
    modelServer('tesseract4', []);
    renderApp('/tesseract4model');
    await user.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Give the model a label.')).toBeTruthy();
    expect(screen.getByText("Choose the model's language.")).toBeTruthy();
    expect(screen.getByText('Choose the model file.')).toBeTruthy();
    expect(FakeXhr.sent).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Dutch');
    expect(screen.queryByText('Give the model a label.')).toBeNull();
    expect(screen.getByText("Choose the model's language.")).toBeTruthy();
  });

  it("offers the kind's extensions and refuses another", async () => {
    const user = userEvent.setup({ applyAccept: false });
    modelServer('pylaia', []);
    renderApp('/pylaiamodel');
    await screen.findByRole('button', { name: 'Create' });
    expect(fileInput().accept).toBe('.ckpt');
    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'latin');
    await user.upload(fileInput(), file('weights.zip'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Choose a file ending in .ckpt.')).toBeTruthy();
    expect(FakeXhr.sent).toEqual([]);
  });

  it('sends title, language and then the file with the sign-in, shows the progress and returns to the list', async () => {
    const user = userEvent.setup();
    modelServer('kraken', []);
    const { router } = renderApp('/krakenmodel');
    await user.type(await screen.findByRole('textbox', { name: 'Title' }), '  Dutch print ');
    await user.click(screen.getByRole('textbox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'Dutch (nld)' }));
    await user.upload(fileInput(), file('print.mlmodel'));
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
    expect([xhr.method, xhr.url, xhr.headers.Authorization]).toEqual(['POST', '/api/pim/krakenmodel', 'Google tok']);
    expect(xhr.parts()).toEqual([
      ['title', 'Dutch print'],
      ['language', 'nld'],
      ['file', 'file:print.mlmodel'],
    ]);
    xhr.progress(40, 100);
    expect(screen.getByText('Uploading… 40%')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    xhr.progress(100, 100);
    expect(screen.getByText('Uploaded; the server is checking the model…')).toBeTruthy();

    xhr.respond(201, modelFixture('kraken', MODEL_A, 'Dutch print'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/krakenmodels'));
  });

  it("shows 'Unexpected server response: ' with the server's message and stays on the form", async () => {
    const user = userEvent.setup();
    modelServer('laypa', []);
    const { router } = renderApp('/laypamodel');
    expect(await screen.findByRole('heading', { name: 'Laypa model' })).toBeTruthy();
    await user.type(await screen.findByRole('textbox', { name: 'Label' }), 'baseline');
    expect(screen.getByText('Laypa model file')).toBeTruthy();
    await user.upload(fileInput(), file('baseline.zip'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect(FakeXhr.sent[0]!.parts()).toEqual([
      ['label', 'baseline'],
      ['file', 'file:baseline.zip'],
    ]);
    FakeXhr.sent[0]!.respond(400, { error: 'bad_request', message: 'The zip holds no Laypa config (.yaml).' });
    expect(await screen.findByText('Unexpected server response: The zip holds no Laypa config (.yaml).')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pim/laypamodel');
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });

  it('stops the upload when the user leaves the form', async () => {
    const user = userEvent.setup();
    modelServer('siamesenetwork', []);
    const { router } = renderApp('/siamesenetworkmodel');
    await user.type(await screen.findByRole('textbox', { name: 'Label' }), 'writers');
    await user.upload(fileInput(), file('writers.zip'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    await user.click(screen.getAllByRole('link', { name: 'Back to the Siamese network models' }).at(-1)!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/siamesenetworkmodels'));
    await waitFor(() => expect(FakeXhr.sent[0]!.aborted).toBe(true));
  });
});
