import { useSyncExternalStore } from 'react';
import { useAppConfig } from './app-config';
import { getToken, subscribeToken } from './token-store';

/**
 * The Authorization header for requests made outside apiFetch (downloads, FilePond, OpenSeadragon
 * tiles). Empty when signed out.
 */
export function useAuthHeaders(): Record<string, string> {
  const { providerName } = useAppConfig();
  const token = useSyncExternalStore(subscribeToken, getToken, getToken);
  return token ? { Authorization: `${providerName} ${token}` } : {};
}
