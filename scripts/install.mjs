// Shared by `npm start` and `npm test`: both work on a fresh clone, so both install first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command in the repository root; exits with its status when it fails. */
export function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Newest modification time of a file or of anything below a folder. */
export function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

/** `npm ci` when dependencies are missing or the lockfile changed since they were installed. */
export function ensureInstalled() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(installed) || newest(path.join(root, 'package-lock.json')) > newest(installed)) {
    console.log('Installing dependencies...');
    run('npm', ['ci']);
  }
}
