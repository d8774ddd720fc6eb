import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { BLOCK_SIZE, encodeBlock } from '../../server/dist/modules/search/engine/blocks.js';

/**
 * Writes the posting blocks (migration 0017) of a kept index loaded before they existed, in one
 * pass: the postings come out of PostgreSQL sorted by term, field and document (COPY through
 * psql, a few million lines a second), are packed in Node as the store packs them and go back a
 * few thousand blocks a statement. The store's fillBlocks does the same a batch of documents at a
 * time, which at a million pages would rewrite every common list's last block once a batch.
 */
export async function fillBlocksInBulk(databaseUrl, indexId, log = () => {}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const docs = await client.query('select id::int as id, lengths, language from search_document where index_id = $1', [indexId]);
    const maxId = docs.rows.reduce((m, d) => Math.max(m, d.id), 0);
    const lengths = [0, 1, 2].map(() => new Int32Array(maxId + 1));
    const languageOf = new Uint8Array(maxId + 1);
    const codes = [...new Set(docs.rows.map((d) => d.language).filter(Boolean))].sort();
    await client.query('insert into search_language (code) select unnest($1::text[]) on conflict (code) do nothing', [codes]);
    const ids = new Map((await client.query('select id, code from search_language')).rows.map((r) => [r.code, r.id]));
    for (const d of docs.rows) {
      for (const f of [0, 1, 2]) lengths[f][d.id] = d.lengths[f] ?? 0;
      languageOf[d.id] = d.language ? ids.get(d.language) : 0;
    }
    await client.query('delete from search_block where index_id = $1', [indexId]);
    log(`${docs.rows.length} documents read in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const pending = { t: [], f: [], a: [], z: [], n: [], h: [] };
    let blocks = 0;
    const flush = async () => {
      if (pending.t.length === 0) return;
      await client.query(
        `insert into search_block (index_id, term_id, field, first_doc, last_doc, n, data)
         select $1, t, f, a, z, n, decode(h, 'hex') from unnest($2::int[], $3::smallint[], $4::bigint[], $5::bigint[], $6::int[], $7::text[]) as x(t, f, a, z, n, h)`,
        [indexId, pending.t, pending.f, pending.a, pending.z, pending.n, pending.h],
      );
      blocks += pending.t.length;
      for (const key of Object.keys(pending)) pending[key] = [];
    };
    let current = null;
    let postings = [];
    const pack = () => {
      for (let at = 0; at < postings.length; at += BLOCK_SIZE) {
        const block = postings.slice(at, at + BLOCK_SIZE);
        pending.t.push(current.term);
        pending.f.push(current.field);
        pending.a.push(block[0].doc);
        pending.z.push(block.at(-1).doc);
        pending.n.push(block.length);
        pending.h.push(encodeBlock(block).toString('hex'));
      }
      postings = [];
    };
    const url = new URL(databaseUrl);
    const psql = spawn(
      path.join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', 'psql'),
      ['-h', url.hostname, '-p', url.port, '-U', url.username || 'postgres', '-d', url.pathname.slice(1), '-v', 'ON_ERROR_STOP=1', '-c',
        `copy (select p.term_id, p.field, p.doc_id, p.tf from search_posting p join search_document d on d.id = p.doc_id
           where d.index_id = '${indexId}' order by 1, 2, 3) to stdout`],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PGOPTIONS: '-c work_mem=1GB' } },
    );
    let lines = 0;
    for await (const line of readline.createInterface({ input: psql.stdout })) {
      const [t, f, d, tf] = line.split('\t');
      const term = Number(t);
      const field = Number(f);
      const doc = Number(d);
      if (!current || current.term !== term || current.field !== field) {
        if (current) pack();
        current = { term, field };
        if (pending.t.length >= 5_000) await flush();
      }
      postings.push({ doc, tf: Number(tf), length: lengths[field][doc], language: languageOf[doc] });
      lines += 1;
      if (lines % 10_000_000 === 0) log(`${lines / 1e6}M postings packed, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    if (current) pack();
    await flush();
    await client.query('delete from search_unblocked where index_id = $1', [indexId]);
    await client.query(
      'insert into search_generation (index_id, generation) values ($1, 1) on conflict (index_id) do update set generation = search_generation.generation + 1',
      [indexId],
    );
    await client.query('vacuum analyze search_block');
    log(`${lines} postings in ${blocks} blocks, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await client.end();
  }
}
