import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../config.js';
import { withServices } from './database.js';
import type { CliIO } from './io.js';
import { runCli } from './run.js';
import { serve } from './serve.js';

/** Runs a command in-process and keeps what it printed. */
async function pim(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (s) => out.push(s), err: (s) => err.push(s) };
  const code = await runCli(argv, env, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** An empty data dir, and on the PostgreSQL project an empty database on the test server. */
async function freshEnvironment(): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-cli-'));
  const env: Record<string, string> = { PIM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://pim.test' };
  const removeDir = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (process.env.PIM_TEST_DB !== 'postgres') return { env, remove: removeDir };
  const adminUrl = inject('pgAdminUrl');
  const name = `pim_cli_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { ...env, DATABASE_URL: url.toString() },
    remove: async () => {
      await removeDir();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

describe('the operator command line', () => {
  let env: Record<string, string>;
  let remove: () => Promise<void>;
  beforeAll(async () => {
    ({ env, remove } = await freshEnvironment());
  });
  afterAll(() => remove());

  it('explains itself and refuses wrong command lines with exit code 2', async () => {
    const help = await pim(env, '--help');
    expect(help.code).toBe(0);
    for (const c of ['serve', 'migrate', 'users create --email E --name N', 'apikeys create --user NAME']) expect(help.out).toContain(c);
    expect((await pim(env, 'users', 'create', '--help')).out).toMatch(/--password <password>\s+at least 8 characters/);

    expect(await pim(env, 'frobnicate')).toMatchObject({ code: 2, err: 'Unknown command "frobnicate". Run "pim --help" for usage.' });
    expect(await pim(env, 'users', 'delete')).toMatchObject({ code: 2, err: expect.stringContaining('Did you mean "users create"?') });
    expect(await pim(env, 'users', 'create', '--email', 'a@b.org')).toMatchObject({ code: 2, err: expect.stringContaining('Missing --name.') });
    expect(await pim(env, 'migrate', '--force')).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--force'") });
  });

  it('says what is wrong with the configuration', async () => {
    const r = await pim({ ...env, PORT: 'eighty' }, 'migrate');
    expect(r.code).toBe(1);
    expect(r.err).toContain('Invalid configuration:\n  - PORT:');
  });

  it('migrates, and says so', async () => {
    const first = await pim(env, 'migrate');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^Applied \d+ migrations: 0001_foundation, 0002_signin/);
    expect(await pim(env, 'migrate')).toMatchObject({ code: 0, out: 'The database is up to date: no migrations to apply.' });
  });

  it('serves on a port, creating the first admin on the first start, and closes cleanly', async () => {
    const out: string[] = [];
    const server = await serve(loadConfig({ ...env, HOST: '127.0.0.1', PORT: '0' }), { out: (s) => out.push(s), err: () => {} });
    try {
      expect(out).toHaveLength(2);
      expect(out[0]).toContain('First start: created the administrator account');
      expect(out[0]).toContain('Email:    admin@pim.local');
      expect(out[1]).toBe(`PIM is running at http://localhost:${server.port}/pim/ (public address http://pim.test/pim/)`);
      const password = /Password: (\S+)/.exec(out[0]!)![1]!;
      const signIn = await server.app.services.embeddedProvider.signIn.attempt('admin@pim.local', password, '127.0.0.1');
      expect(signIn.ok).toBe(true);

      const res = await fetch(`http://127.0.0.1:${server.port}/api/google/login`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/^http:\/\/pim\.test\/oidc\/auth\?/);
    } finally {
      await server.close();
    }
  });

  it('creates users who can sign in, with a generated password shown once', async () => {
    const made = await pim(env, 'users', 'create', '--email', 'Ana@Example.org', '--name', 'Ana', '--admin');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^Created user Ana <ana@example\.org> with the ADMIN role \(id [0-9a-f-]{36}\)\.\nPassword \(shown only now\): \S{20}$/);
    const password = made.out.split(': ').pop()!;
    const chosen = await pim(env, 'users', 'create', '--email', 'bo@example.org', '--name', 'Bo', '--password', 'bo-password');
    expect(chosen.out).not.toContain('Password');

    const config = loadConfig(env);
    const outcomes = await withServices(config, (s) =>
      Promise.all([
        s.embeddedProvider.signIn.attempt('ana@example.org', password, '127.0.0.1'),
        s.embeddedProvider.signIn.attempt('bo@example.org', 'bo-password', '127.0.0.1'),
      ]),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);

    expect(await pim(env, 'users', 'create', '--email', 'ana@example.org', '--name', 'Ana')).toMatchObject({
      code: 1,
      err: 'A user with email ana@example.org exists already.',
    });
    expect(await pim(env, 'users', 'create', '--email', 'cy@example.org', '--name', 'Cy', '--password', 'short')).toMatchObject({
      code: 1,
      err: 'The password must have at least 8 characters.',
    });
  });

  it('creates API keys and shows the key once', async () => {
    const r = await pim(env, 'apikeys', 'create', '--user', 'harvester', '--roles', 'ADMIN, minion');
    expect(r.code).toBe(0);
    const key = /Key \(shown only now, stored hashed\): (pim_\S+)/.exec(r.out)![1]!;
    const principal = await withServices(loadConfig(env), (s) => s.apiKeys.authenticate(key));
    // Roles are stored in their canonical spelling, whatever case was typed.
    expect(principal).toMatchObject({ kind: 'apikey', userName: 'harvester', roles: ['AUTHENTICATED', 'ADMIN', 'MINION'] });
    const wrong = await pim(env, 'apikeys', 'create', '--user', 'harvester', '--roles', 'KING');
    expect(wrong).toMatchObject({ code: 1, err: '"KING" is not a role an API key can have. Choose from: ADMIN, MINION.' });
  });
});

describe('the embedded database', () => {
  it('cannot be opened by a second process while another holds it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-cli-lock-'));
    // Another live process owns the data dir, as a running server does.
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(dataDir, 'pgdata.lock'), String(holder.pid));
      const r = await pim({ PIM_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, 'users', 'create', '--email', 'x@example.org', '--name', 'X');
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        `The embedded database in ${dataDir} is in use by another PIM process (pid ${holder.pid}). ` +
          'Stop the server first, or set DATABASE_URL to use a PostgreSQL server, which allows both at once.',
      );
    } finally {
      holder.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
