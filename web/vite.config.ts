import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { BuildEnvironmentOptions } from 'vite';
import { defineConfig } from 'vitest/config';
import { precompress } from './vite-precompress.ts';
import { leanMantine } from './vite-lean-mantine.ts';
import { screenPreloads } from './vite-screen-preloads.ts';

const backend = 'http://localhost:8080';

/** The web app's build: dist/, served under /pim/. */
const appBuild: BuildEnvironmentOptions = {
  outDir: 'dist',
  emptyOutDir: true,
  rolldownOptions: {
    treeshake: {
      // The contract's modules only declare schemas and constants, so a screen's chunk takes the
      // modules of its own area, not the whole contract (the barrel would otherwise keep them together).
      moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
    },
    output: {
      // Libraries change less often than the app: separate chunks stay cached across releases.
      // Only what the shell needs is loaded up front: `vendor` takes the libraries reached by
      // static imports from main.tsx (`$initial`); a library only some screens use stays out of
      // it and loads with them, in the chunks rolldown makes for the screens that share it.
      codeSplitting: {
        groups: [
          { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
          // Loaded on demand by the pages that view or upload images only.
          { name: 'openseadragon', test: /node_modules[\\/]openseadragon[\\/]/ },
          { name: 'filepond', test: /node_modules[\\/](filepond|react-filepond|filepond-plugin-[^\\/]+)[\\/]/ },
          { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'] },
        ],
      },
    },
  },
};

/**
 * Two builds: the web app (`appBuild`) and its server entry (`vite build --ssr`, dist-server/:
 * src/server-render.tsx, which the server loads to draw a screen into its page). The server entry
 * takes the libraries into its own files, the same code the browser runs, so the markup matches and
 * the server needs nothing of web/node_modules.
 */
export default defineConfig(({ isSsrBuild }) => ({
  base: '/pim/',
  plugins: isSsrBuild
    ? [react(), leanMantine()]
    : [react(), leanMantine(), screenPreloads(fileURLToPath(new URL('./src/app/routes.tsx', import.meta.url))), precompress()],
  // The server entry's build only: the libraries go into its files, in their production code (React's
  // development build renders several times slower). Vitest reads this file too, and bundling the
  // libraries through Vite's transforms would make every web test file import them anew, slowly.
  ...(isSsrBuild && { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
  resolve: {
    // Use the contract's sources directly so neither dev, tests nor the build need contract/dist.
    alias: { '@pim/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) },
  },
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, copyPublicDir: false, rolldownOptions: { input: 'src/server-render.tsx' } }
    : appBuild,
  server: {
    proxy: {
      '/api': backend,
      '/pim/app-config.json': backend,
      // The embedded sign-in provider: `npm run dev` sets PUBLIC_URL to this dev server.
      '/oidc': backend,
      '/iiif': backend,
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // Screens typed into through user-event take seconds on a busy 2-core machine: the limit is
    // there to end a hung test, not to measure speed.
    testTimeout: 90_000,
    include: ['src/**/*.test.{ts,tsx}'],
  },
}));
