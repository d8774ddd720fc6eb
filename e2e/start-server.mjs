// Starts the built server for the end-to-end tests on a fresh temp data dir, with the local
// accounts created through the operator CLI first (the same path an operator takes).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, '..', 'server', 'dist', 'main.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-e2e-'));
const port = process.env.E2E_PORT ?? '8765';
// No PUBLIC_URL: the server takes each request's own address, as it does when an operator sets
// none, so the specs may reach it at localhost and at 127.0.0.1 alike (origin.spec.ts).
const env = { ...process.env, PIM_DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
delete env.PUBLIC_URL;

const accounts = [
  ['--email', 'admin@e2e.test', '--name', 'Ada Admin', '--password', 'admin-password-e2e', '--admin'],
  ['--email', 'researcher@e2e.test', '--name', 'Rosa Researcher', '--password', 'researcher-password-e2e'],
  ['--email', 'archivist@e2e.test', '--name', 'Arne Archivist', '--password', 'archivist-password-e2e'],
  ['--email', 'curator@e2e.test', '--name', 'Cora Curator', '--password', 'curator-password-e2e', '--admin'],
  ['--email', 'transcriber@e2e.test', '--name', 'Tess Transcriber', '--password', 'transcriber-password-e2e'],
  ['--email', 'drafter@e2e.test', '--name', 'Dora Drafter', '--password', 'drafter-password-e2e'],
  ['--email', 'comparer@e2e.test', '--name', 'Cleo Comparer', '--password', 'comparer-password-e2e'],
  ['--email', 'annotator@e2e.test', '--name', 'Anna Annotator', '--password', 'annotator-password-e2e'],
  ['--email', 'gatekeeper@e2e.test', '--name', 'Gus Gatekeeper', '--password', 'gatekeeper-password-e2e', '--admin'],
  ['--email', 'visitor@e2e.test', '--name', 'Vera Visitor', '--password', 'visitor-password-e2e'],
  ['--email', 'modeler@e2e.test', '--name', 'Milo Modeler', '--password', 'modeler-password-e2e', '--admin'],
  ['--email', 'traveller@e2e.test', '--name', 'Tara Traveller', '--password', 'traveller-password-e2e'],
  ['--email', 'intruder@e2e.test', '--name', 'Ivo Intruder', '--password', 'intruder-password-e2e'],
  ['--email', 'newcomer@e2e.test', '--name', 'Nina Newcomer', '--password', 'newcomer-password-e2e'],
  ['--email', 'host@e2e.test', '--name', 'Hugo Host', '--password', 'host-password-e2e', '--admin'],
  ['--email', 'guide@e2e.test', '--name', 'Gil Guide', '--password', 'guide-password-e2e', '--admin'],
  ['--email', 'jobber@e2e.test', '--name', 'Jo Jobber', '--password', 'jobber-password-e2e'],
  ['--email', 'searcher@e2e.test', '--name', 'Sam Searcher', '--password', 'searcher-password-e2e', '--admin'],
  ['--email', 'dater@e2e.test', '--name', 'Dana Dater', '--password', 'dater-password-e2e'],
  ['--email', 'describer@e2e.test', '--name', 'Dirk Describer', '--password', 'describer-password-e2e'],
  ['--email', 'reader@e2e.test', '--name', 'Rita Reader', '--password', 'reader-password-e2e'],
  ['--email', 'counter@e2e.test', '--name', 'Cato Counter', '--password', 'counter-password-e2e'],
  ['--email', 'overseer@e2e.test', '--name', 'Otto Overseer', '--password', 'overseer-password-e2e', '--admin'],
  ['--email', 'returner@e2e.test', '--name', 'Rena Returner', '--password', 'returner-password-e2e'],
];
for (const args of accounts) {
  const r = spawnSync(process.execPath, [main, 'users', 'create', ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stderr || r.stdout);
    process.exit(1);
  }
}

const server = spawn(process.execPath, [main, 'serve'], { env, stdio: 'inherit' });
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
