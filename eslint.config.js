import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-server/**', '**/node_modules/**', 'data/**', 'e2e/test-results/**', 'e2e/playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The web app's layers: the shell in app/ stands on the pages, the pages on frames/,
    // components/, session/ and api/. Only the entry points (the browser's and the server's) and the
    // test harness that renders the whole app reach into the shell; everything else is below it, so
    // nothing pulls it into a page.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/app/**', 'web/src/main.tsx', 'web/src/server-render.tsx', 'web/src/test/render.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app', '**/app/**'],
              message: 'app/ is the shell above the pages: move what you need below it (session/, frames/, components/).',
            },
          ],
        },
      ],
    },
  },
  {
    // The shell reaches the pages through its route table only, which loads each page on demand.
    files: ['web/src/app/**/*.{ts,tsx}'],
    ignores: ['web/src/app/routes.tsx', 'web/src/app/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/pages/**'], message: 'The shell opens pages only through the route table in app/routes.tsx.' }],
        },
      ],
    },
  },
  {
    files: ['web/public/service-worker.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // A classic script the page loads (the content security policy allows no inline one).
    files: ['web/public/start-app.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/test-support/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
