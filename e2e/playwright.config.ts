import { defineConfig, devices } from '@playwright/test';

/** End-to-end tests: the built app on a fresh temp data dir, driven through Debian's Chromium. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8765);

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Limits that end a hung test, not measures of speed: expectations wait for a state, and a busy
  // 2-core machine can take a while to reach it.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [
    ['list'],
    // scripts/test.mjs counts the results from this file.
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['json'] as const] : []),
    ...(process.env.CI ? [] : [['html', { open: 'never' }] as const]),
  ],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node start-server.mjs',
    url: `http://localhost:${E2E_PORT}/pim/app-config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(E2E_PORT) },
  },
});
