import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A throwaway PostgreSQL 15 server in a temp dir on a free loopback port, as the server:postgres
 * tests start one (fsync off: it only speeds up the indexing; queries read from memory either way).
 * With `keepDir` the cluster lives in that folder and stays there after `stop()`, so a large index
 * is built once and searched again by later runs. `sharedBuffers` as PostgreSQL writes it (512MB).
 */
export async function startPostgres({ keepDir = null, sharedBuffers = '512MB' } = {}) {
  const dir = keepDir ? path.resolve(keepDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'pim-bench-pg-'));
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  // initdb refuses to run as root: run the server as the postgres user then.
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) => {
    const bin = path.join(PG_BIN, cmd);
    const r = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' }) : spawnSync(bin, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout || r.error?.message}`);
  };
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  if (!fs.existsSync(path.join(dir, 'data', 'PG_VERSION'))) {
    run('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  }
  const settings = [
    'listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', `shared_buffers=${sharedBuffers}`,
    // Index builds after a bulk load: sorts in memory, both cores.
    'maintenance_work_mem=2GB', 'max_parallel_maintenance_workers=2', 'max_wal_size=8GB',
  ];
  run('pg_ctl', ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', 'start', '-o', `-p ${port} -k ${dir} ${settings.map((s) => `-c ${s}`).join(' ')}`]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kept: Boolean(keepDir),
    async stop() {
      if (keepDir) {
        run('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'fast', 'stop']);
        return;
      }
      try {
        run('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A new, empty database on the server of `adminUrl` for one run, and its removal afterwards; with
 * `keep`, the database `pim_bench_kept` (made when missing) that stays for the next run.
 */
export async function scratchDatabase(adminUrl, { keep = false } = {}) {
  const name = keep ? 'pim_bench_kept' : `pim_bench_${process.pid}_${Date.now()}`;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (keep) {
    try {
      await admin(`create database ${name}`);
    } catch (error) {
      if (error.code !== '42P04') throw error; // it exists: the kept database of an earlier run
    }
    return { url: url.toString(), drop: async () => {} };
  }
  await admin(`create database ${name}`);
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * `work(url)` on a new, empty database of a throwaway server started for it; the database and the
 * server are removed after, whatever `work` did. Gives what `work` gives.
 */
export async function onScratchPostgres(work) {
  const cluster = await startPostgres();
  try {
    const scratch = await scratchDatabase(cluster.url);
    try {
      return await work(scratch.url);
    } finally {
      await scratch.drop();
    }
  } finally {
    await cluster.stop();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
