import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { documentImageSetListSchema, rolesResponseSchema } from '@pim/contract';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../session/app-config';
import { setToken } from '../session/token-store';
import { jsonResponse, stubFetch } from '../test/render';
import { ApiError, apiFetch, configureApiClient, onSessionRejected } from './client';

function renderToasts() {
  render(
    <MantineProvider env="test">
      <Notifications />
    </MantineProvider>,
  );
}

describe('apiFetch', () => {
  beforeEach(() => {
    configureApiClient({ apiBase: '/api/', providerName: 'Google' });
    renderToasts();
  });

  it('sends the token with the provider name as scheme and parses with the contract schema', async () => {
    setToken('tok-1');
    configureApiClient({ apiBase: '/base/', providerName: 'Keycloak' });
    const fetchMock = stubFetch(() => jsonResponse(['AUTHENTICATED']));
    await expect(apiFetch('google/getRoles', { method: 'POST', schema: rolesResponseSchema })).resolves.toEqual(['AUTHENTICATED']);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/base/google/getRoles');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Keycloak tok-1');
    configureApiClient(DEFAULT_APP_CONFIG);
  });

  it('shows the server message after "Unexpected server response: " on a 500', async () => {
    stubFetch(() => jsonResponse({ error: 'internal', message: 'Database is down' }, 500));
    await expect(apiFetch('pim/documentimageset', { schema: documentImageSetListSchema })).rejects.toBeInstanceOf(ApiError);
    expect(await screen.findByText('Unexpected server response: Database is down')).toBeTruthy();
    expect(screen.queryByText('you need to log in')).toBeNull();
  });

  it('shows a body that is not the error shape as it is', async () => {
    stubFetch(() => new Response('Bad gateway', { status: 502 }));
    await expect(apiFetch('pim/documentimageset')).rejects.toMatchObject({ status: 502 });
    expect(await screen.findByText('Unexpected server response: Bad gateway')).toBeTruthy();
  });

  it.each([401, 403])('adds "you need to log in" on a %i without a session', async (status) => {
    stubFetch(() => jsonResponse({ error: 'unauthorized', message: 'No valid session' }, status));
    await expect(apiFetch('pim/documentimageset')).rejects.toMatchObject({ status });
    expect(await screen.findByText('Unexpected server response: No valid session')).toBeTruthy();
    expect(screen.getByText('you need to log in')).toBeTruthy();
  });

  it('adds "you need to log in" on a 401 while signed in: the session ended', async () => {
    setToken('tok-ended');
    stubFetch(() => jsonResponse({ error: 'unauthorized', message: 'You need to log in to do this.' }, 401));
    await expect(apiFetch('pim/documentimageset')).rejects.toMatchObject({ status: 401 });
    expect(await screen.findByText('you need to log in')).toBeTruthy();
  });

  it('shows a signed-in caller refused with 403 what is missing, titled "Not allowed", never "you need to log in"', async () => {
    setToken('tok-1');
    stubFetch(() => jsonResponse({ error: 'forbidden', message: 'This needs the ADMIN role.' }, 403));
    await expect(apiFetch('pim/pimgroups')).rejects.toMatchObject({ status: 403 });
    expect(await screen.findByText('Not allowed')).toBeTruthy();
    expect(screen.getByText('This needs the ADMIN role.')).toBeTruthy();
    expect(screen.queryByText('you need to log in')).toBeNull();
    expect(screen.queryByText(/Unexpected server response/)).toBeNull();
  });

  it('tells the session when a call with the stored token is refused with 401, not on 403 or another token', async () => {
    setToken('tok-ended');
    const rejected = vi.fn();
    const stop = onSessionRejected(rejected);
    stubFetch(() => jsonResponse({ error: 'forbidden', message: 'Admins only' }, 403));
    await expect(apiFetch('pim/users', { quiet: true })).rejects.toMatchObject({ status: 403 });
    stubFetch(() => jsonResponse({ error: 'unauthorized', message: 'Sign in first' }, 401));
    await expect(apiFetch('google/x', { method: 'DELETE', token: 'other', quiet: true })).rejects.toMatchObject({ status: 401 });
    expect(rejected).not.toHaveBeenCalled();
    await expect(apiFetch('pim/users', { quiet: true })).rejects.toMatchObject({ status: 401 });
    expect(rejected).toHaveBeenCalledTimes(1);
    stop();
  });

  it('shows the error text when the network fails', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiFetch('pim/documentimageset')).rejects.toThrow('Failed to fetch');
    expect(await screen.findByText('Failed to fetch')).toBeTruthy();
  });

  it('shows nothing for a quiet call', async () => {
    stubFetch(() => jsonResponse({ error: 'forbidden', message: 'Nope' }, 403));
    await expect(apiFetch('google/getRoles', { method: 'POST', quiet: true })).rejects.toMatchObject({ status: 403 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText(/Unexpected server response/)).toBeNull();
  });

  it('refuses an answer that breaks the contract', async () => {
    stubFetch(() => jsonResponse([{ uuid: 'not-a-uuid' }]));
    await expect(apiFetch('pim/documentimageset', { schema: documentImageSetListSchema })).rejects.toBeInstanceOf(ApiError);
    expect(await screen.findByText(/^Unexpected server response: 0\.uuid/)).toBeTruthy();
  });
});
