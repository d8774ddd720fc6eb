import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../session/app-config';
import { setToken } from '../session/token-store';
import { jsonResponse, stubFetch, testUser } from '../test/render';
import { configureApiClient } from './client';
import { prefetchSession, sessionKeys } from './session';

/** A server that holds every answer until the test lets them go, noting what was asked meanwhile. */
function heldServer(answer: (path: string) => Response) {
  const asked: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetchMock = stubFetch(async (url) => {
    asked.push(url.pathname);
    await released;
    return answer(url.pathname);
  });
  return { asked, release, fetchMock };
}

describe('the session at start-up', () => {
  beforeEach(() => configureApiClient(DEFAULT_APP_CONFIG));

  it('asks for the roles and the own record at once, not for the record after the roles', async () => {
    setToken('tok-1');
    const server = heldServer((path) => (path.endsWith('/getRoles') ? jsonResponse(['AUTHENTICATED']) : jsonResponse(testUser())));
    const queryClient = new QueryClient();
    prefetchSession(queryClient, 'tok-1');
    // Both are on their way while neither has been answered.
    await waitFor(() => expect(server.asked).toEqual(['/api/google/getRoles', '/api/pim/users/self']));
    server.release();
    await waitFor(() => expect(queryClient.getQueryData(sessionKeys.self('tok-1'))).toMatchObject({ name: 'Ada Researcher' }));
    expect(queryClient.getQueryData(sessionKeys.roles('tok-1'))).toEqual(['AUTHENTICATED']);
  });

  it('asks for nothing without a token', () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    prefetchSession(new QueryClient(), null);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
