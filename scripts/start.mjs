#!/usr/bin/env node
// `npm start`: the one command that runs PIM from a fresh clone. Installs dependencies when the
// lockfile changed, builds what changed, then serves the app and API (PORT, default 8080).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => path.join(root, ...p);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Newest modification time of a file or of anything below a folder. */
function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const installed = at('node_modules', '.package-lock.json');
if (!fs.existsSync(installed) || newest(at('package-lock.json')) > newest(installed)) {
  console.log('Installing dependencies...');
  run('npm', ['ci']);
}

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
