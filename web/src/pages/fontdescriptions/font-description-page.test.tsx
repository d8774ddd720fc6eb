import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { bodiesSent, fontFixture, fontPath, fontServer, JUNICODE, LIST_PATH, sampleFonts } from './fixtures.test-support';

const CREATED = 'f0000000-0000-4000-8000-00000000000c';
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('/pim/fontdescription', () => {
  it('creates a font description: the fields, then the file, as multipart; a toast and back to the list', async () => {
    const user = userEvent.setup();
    const created = fontFixture(CREATED, 'Junicode Bold', { uri: 'https://fonts.example.org/junicode-bold' });
    const fetchMock = fontServer([], { created });
    const { router } = renderApp('/fontdescription');
    expect(await screen.findByRole('heading', { name: 'New font description' })).toBeTruthy();
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);

    await user.type(screen.getByRole('textbox', { name: 'URI' }), 'fonts/junicode');
    expect(await screen.findByText(/The URI must be an absolute URI/)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'URI' }));
    await user.type(screen.getByRole('textbox', { name: 'URI' }), 'https://fonts.example.org/junicode-bold');
    expect(screen.queryByText(/The URI must be an absolute URI/)).toBeNull();
    // Still no file.
    expect(save).toHaveProperty('disabled', true);

    await user.type(screen.getByRole('textbox', { name: 'License' }), 'OFL 1.1');
    await user.click(screen.getByRole('switch', { name: 'Contains long s (ſ)' }));
    await user.click(screen.getByRole('switch', { name: 'Serif' }));
    await user.upload(fileInput(), new File([new Uint8Array([0, 1, 0, 0])], 'Junicode-Bold.ttf', { type: 'font/ttf' }));
    expect(save).toHaveProperty('disabled', false);
    await user.click(save);

    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/fontdescriptions'));
    expect(bodiesSent(fetchMock, 'POST', `${LIST_PATH}/`)).toEqual([
      [
        ['uri', 'https://fonts.example.org/junicode-bold'],
        ['name', ''],
        ['type', ''],
        ['license', 'OFL 1.1'],
        ['handwritten', 'false'],
        ['containsLongS', 'true'],
        ['containsLigatures', 'false'],
        ['romanScript', 'false'],
        ['serif', 'true'],
        ['file', 'file:Junicode-Bold.ttf'],
      ],
    ]);
    expect(await screen.findByText('Font description is saved successfully!')).toBeTruthy();
    expect(await screen.findByText('Junicode Bold')).toBeTruthy();
  });

  it('updates a saved one with its URI read-only and no file picker, and offers its download', async () => {
    const user = userEvent.setup();
    const fetchMock = fontServer(sampleFonts());
    const { router } = renderApp(`/fontdescription?uuid=${JUNICODE}`);
    expect(await screen.findByRole('heading', { name: 'Font description' })).toBeTruthy();
    const uri = (await screen.findByRole('textbox', { name: 'URI' })) as HTMLInputElement;
    expect(uri.value).toBe('https://fonts.example.org/junicode');
    expect(uri.readOnly).toBe(true);
    expect(screen.getByText('The URI cannot be changed once the font description is saved.')).toBeTruthy();
    expect(fileInput()).toBeNull();
    expect(screen.getByText('Junicode.ttf (1 KB)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();

    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    await user.type(name, 'Junicode 2');
    await user.click(screen.getByRole('switch', { name: 'Handwritten' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/fontdescriptions'));
    expect(bodiesSent(fetchMock, 'PUT', fontPath(JUNICODE))).toEqual([
      {
        uri: 'https://fonts.example.org/junicode',
        name: 'Junicode 2',
        type: 'TrueType',
        license: 'OFL 1.1',
        handwritten: true,
        containsLongS: true,
        containsLigatures: true,
        romanScript: true,
        serif: true,
      },
    ]);
    expect(await screen.findByText('Font description is saved successfully!')).toBeTruthy();
    expect(await screen.findByText('Junicode 2')).toBeTruthy();
  });

  it('says a new one needs the ADMIN role to a user who is not an admin', async () => {
    fontServer(sampleFonts(), { roles: ['AUTHENTICATED'] });
    renderApp('/fontdescription');
    expect(await screen.findByText('Only administrators can add fonts')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'URI' })).toBeNull();
  });

  it('shows a saved one read-only to a user who is not an admin', async () => {
    fontServer(sampleFonts(), { roles: ['AUTHENTICATED'] });
    renderApp(`/fontdescription?uuid=${JUNICODE}`);
    expect(await screen.findByText('Only administrators can change font descriptions.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByRole('switch', { name: 'Serif' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
  });
});
