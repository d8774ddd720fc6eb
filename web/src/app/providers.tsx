import { createTheme, MantineProvider } from '@mantine/core';
import type { AppConfig } from '@pim/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppConfigProvider } from '../session/app-config';
import { OwnDataProvider } from '../session/own-data';
import { SessionProvider } from '../session/session';
import { ErrorBoundary } from './error-boundary';
import { Toasts } from './toasts';

// Users who ask their system for reduced motion get popovers, menus and toasts without animation.
const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'sm', respectReducedMotion: true });

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The API client already toasts every failure; retrying would repeat the toast.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

interface ProvidersProps {
  config: AppConfig;
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals so tests see the DOM at once. */
  env?: 'default' | 'test';
}

export function Providers({ config, queryClient, children, env = 'default' }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} env={env}>
      <Toasts />
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <AppConfigProvider config={config}>
            <OwnDataProvider>
              <SessionProvider>{children}</SessionProvider>
            </OwnDataProvider>
          </AppConfigProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </MantineProvider>
  );
}
