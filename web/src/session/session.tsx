import { hasRole, ROLE, type User } from '@pim/contract';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { ApiError, onSessionRejected } from '../api/client';
import { endSession, useRoles, useSelfUser } from '../api/session';
import { clearStoredSession, getToken, subscribeToken } from './token-store';

export type SessionStatus = 'signedOut' | 'checking' | 'signedIn';

export interface Session {
  status: SessionStatus;
  roles: readonly string[];
  user: User | undefined;
  logout: () => Promise<void>;
}

const NO_ROLES: readonly string[] = [];

const SessionContext = createContext<Session>({
  status: 'signedOut',
  roles: NO_ROLES,
  user: undefined,
  logout: async () => undefined,
});

function statusOf(token: string | null, checking: boolean, authenticated: boolean): SessionStatus {
  if (token === null) return 'signedOut';
  if (checking) return 'checking';
  return authenticated ? 'signedIn' : 'signedOut';
}

/**
 * The signed-in state: the token's roles from the server (authenticated when they contain
 * 'authenticated', any case) and the user's own record for the avatar.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const token = useSyncExternalStore(subscribeToken, getToken, getToken);
  const queryClient = useQueryClient();
  const rolesQuery = useRoles(token);
  const roles = rolesQuery.data ?? NO_ROLES;
  const authenticated = hasRole(roles, ROLE.AUTHENTICATED);
  const selfQuery = useSelfUser(token, authenticated);

  const logout = useCallback(async () => {
    const current = getToken();
    clearStoredSession();
    queryClient.clear();
    if (current) await endSession(current).catch((error: unknown) => console.warn('Ending the session failed', error));
  }, [queryClient]);

  // Any call refused with 401 while signed in means the server ended this session (e.g. the user was disabled).
  useEffect(() => onSessionRejected(() => void logout()), [logout]);

  const rolesError = rolesQuery.error;
  useEffect(() => {
    if (!rolesError) return;
    // A refused role check means the token is no good any more (expired, revoked): sign out.
    if (rolesError instanceof ApiError && (rolesError.status === 401 || rolesError.status === 403)) void logout();
    else console.warn('The role check failed', rolesError);
  }, [rolesError, logout]);

  const value = useMemo<Session>(
    () => ({
      status: statusOf(token, rolesQuery.isPending, authenticated),
      roles,
      user: selfQuery.data,
      logout,
    }),
    [token, rolesQuery.isPending, authenticated, roles, selfQuery.data, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  return useContext(SessionContext);
}
