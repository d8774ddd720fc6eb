import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { configureApiClient } from './api/client';
import { initI18n } from './app/i18n';
import { applyLanding } from './app/landing';
import { createQueryClient, Providers } from './app/providers';
import { routes } from './app/routes';
import { registerServiceWorker } from './app/service-worker-registration';
import { BASENAME, loadAppConfig } from './session/app-config';

async function start(): Promise<void> {
  // Before the router reads the address: take the token and follow `redirect`.
  applyLanding();
  const [config] = await Promise.all([loadAppConfig(), initI18n()]);
  configureApiClient(config);
  const router = createBrowserRouter(routes, { basename: BASENAME });
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <Providers config={config} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  void registerServiceWorker();
}

void start();
