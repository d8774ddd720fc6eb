#!/usr/bin/env node
// `npm start`: the one command that runs PIM from a fresh clone. Installs dependencies when the
// lockfile changed, builds what changed, then serves the app and API (PORT, default 8080).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureInstalled, newest, root, run } from './install.mjs';

const at = (...p) => path.join(root, ...p);

ensureInstalled();

// tsc -b is incremental: it rebuilds only what changed.
run('npx', ['tsc', '-b', 'contract', 'server']);
const webInputs = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'contract/src'].map((p) => newest(at(p)));
if (newest(at('web', 'dist', 'index.html')) < Math.max(...webInputs)) {
  console.log('Building the web app...');
  run('npm', ['run', 'build', '-w', 'web']);
}

const server = spawn(process.execPath, [at('server', 'dist', 'main.js'), 'serve', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
