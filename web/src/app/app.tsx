import type { AppConfig } from '@pim/contract';
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { AppRouter, type AppHistory } from './app-router';
import { Providers } from './providers';
import { routes } from './routes';

/** The whole app: the browser renders it (main.tsx), and so does the server for a page it draws (server-render.tsx), the same tree. */
export function App({ config, queryClient, history }: { config: AppConfig; queryClient: QueryClient; history: AppHistory }) {
  return (
    <StrictMode>
      <Providers config={config} queryClient={queryClient}>
        <AppRouter history={history} routes={routes} />
      </Providers>
    </StrictMode>
  );
}
