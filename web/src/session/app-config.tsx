import { appConfigSchema, type AppConfig } from '@pim/contract';
import { createContext, useContext, type ReactNode } from 'react';

/** The router's basename: app paths in `redirect` are full paths such as '/pim/imagesets'. */
export const BASENAME = '/pim';

export const DEFAULT_APP_CONFIG: AppConfig = { apiBase: '/api/', providerName: 'Google' };

/** The element the server puts the configuration in, in the page it serves (server/src/platform/http/web-app.ts). */
const CONFIG_ELEMENT_ID = 'pim-app-config';

/**
 * The server's runtime configuration: from the page, where the server wrote it, at once; else
 * (the page served by Vite's dev server, or by a plain static server) from app-config.json. A
 * missing or malformed one falls back to the defaults so the app still starts.
 */
export function loadAppConfig(url = `${import.meta.env.BASE_URL}app-config.json`): AppConfig | Promise<AppConfig> {
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  if (element?.textContent) {
    try {
      const parsed = appConfigSchema.safeParse(JSON.parse(element.textContent));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON: the file below says what the server meant.
    }
  }
  return fetchAppConfig(url);
}

async function fetchAppConfig(url: string): Promise<AppConfig> {
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
