#!/usr/bin/env node
// `npm run dev`: the server rebuilt and restarted on change, and Vite's dev server for the web app.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = spawnSync('npx', ['tsc', '-b', 'contract', 'server'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const children = [
  spawn('npx', ['tsc', '-b', 'contract', 'server', '--watch', '--preserveWatchOutput'], { cwd: root, stdio: 'inherit' }),
  // Browsers use Vite's address (it proxies /api and /oidc), so sign-in must return there.
  spawn(process.execPath, ['--watch-path=server/dist', 'server/dist/main.js', 'serve'], {
    cwd: root,
    stdio: 'inherit',
    env: { PUBLIC_URL: 'http://localhost:5173', ...process.env },
  }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
