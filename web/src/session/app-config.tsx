import { appConfigSchema, type AppConfig } from '@pim/contract';
import { createContext, useContext, type ReactNode } from 'react';

/** The router's basename: app paths in `redirect` are full paths such as '/pim/imagesets'. */
export const BASENAME = '/pim';

export const DEFAULT_APP_CONFIG: AppConfig = { apiBase: '/api/', providerName: 'Google' };

/**
 * Reads the server's runtime configuration. A missing or malformed file falls back to the
 * defaults so the app still starts (e.g. served by a plain static server during development).
 */
export async function loadAppConfig(url = `${import.meta.env.BASE_URL}app-config.json`): Promise<AppConfig> {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) return DEFAULT_APP_CONFIG;
    const parsed = appConfigSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : DEFAULT_APP_CONFIG;
  } catch (error) {
    console.warn('Could not read app-config.json, using defaults', error);
    return DEFAULT_APP_CONFIG;
  }
}

const AppConfigContext = createContext<AppConfig>(DEFAULT_APP_CONFIG);

export function AppConfigProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  return <AppConfigContext.Provider value={config}>{children}</AppConfigContext.Provider>;
}

export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}
