import type { AppConfig } from '@pim/contract';
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { AppRouter, type AppHistory } from './app-router';
import { Providers } from './providers';
import { routes } from './routes';

interface AppProps {
  config: AppConfig;
  queryClient: QueryClient;
  history: AppHistory;
  /** Told once the app has drawn, or taken over, the page (never on the server). */
  onShown?: () => void;
}

/** The whole app: the browser renders it (main.tsx), and so does the server for a page it draws (server-render.tsx), the same tree. */
export function App({ config, queryClient, history, onShown }: AppProps) {
  return (
    <StrictMode>
      <Providers config={config} queryClient={queryClient}>
        <AppRouter history={history} routes={routes} />
      </Providers>
      <Shown onShown={onShown} />
    </StrictMode>
  );
}

function Shown({ onShown }: { onShown?: () => void }) {
  useEffect(() => onShown?.(), [onShown]);
  return null;
}
