import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../session/token-store';
import { fetchedUrls, jsonResponse, renderApp, signedInHandler, stubFetch } from '../../test/render';
import { FIELD_SET, MANIFEST } from './fixtures.test-support';

function server() {
  setToken('tok');
  return stubFetch(
    signedInHandler(['AUTHENTICATED'], (url) => {
      if (url.pathname === '/api/pim/pimfieldset/autocomplete') return jsonResponse({ results: [{ uuid: FIELD_SET, name: 'Charter dating' }], pageSize: 20 });
      if (url.pathname === '/api/pim/documentimageset') return jsonResponse([]);
      return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
}

describe('/pim/analyzeimagemanualfieldset', () => {
  it('sends the user to the image sets without a manifest uri', async () => {
    server();
    const { router } = renderApp('/analyzeimagemanualfieldset');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/imagesets'));
    // Replaced, not pushed: Back does not return to the empty chooser.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('keeps Continue disabled until a field set is chosen, then opens the annotator with the manifest and the set', async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    const { router } = renderApp(`/analyzeimagemanualfieldset?uri=${encodeURIComponent(MANIFEST)}`);

    expect(await screen.findByTestId('manifest-uri')).toHaveProperty('textContent', MANIFEST);
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    expect(continueButton).toHaveProperty('disabled', true);
    expect(screen.getByRole('link', { name: 'Create a field set' }).getAttribute('href')).toBe('/pim/pimfieldsetedit');

    await user.click(screen.getByLabelText('Field set'));
    await user.click(await screen.findByRole('option', { name: 'Charter dating' }));
    expect(fetchedUrls(fetchMock)).toContain('/api/pim/pimfieldset/autocomplete?onlyOwnData=false&filter=');
    expect(continueButton).toHaveProperty('disabled', false);

    await user.click(continueButton);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pim/analyzeimagemanual'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ uri: MANIFEST, fieldsetid: FIELD_SET });
  });
});
