import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The git directory the fetch tool leaves a copy of github.com/olivernn/cranfield in. */
const MIRROR = '/work/.mirror/olivernn+cranfield/repo';
const FILES = ['cran.all.1400', 'cran.qry', 'cranqrel'];

/**
 * The Cranfield collection's three files, read at bench time (the collection is not part of the
 * repository): from `dir` when given, else from a git copy of olivernn/cranfield. Null when
 * neither has them; `where` says where they came from.
 */
export function readCranfieldFiles(dir) {
  if (dir) {
    if (!FILES.every((f) => fs.existsSync(path.join(dir, f)))) return null;
    return { where: dir, ...Object.fromEntries(FILES.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])) };
  }
  if (!fs.existsSync(MIRROR)) return null;
  try {
    const show = (f) => execFileSync('git', ['-C', MIRROR, 'show', `HEAD:data/cran/${f}`], { encoding: 'utf8', maxBuffer: 16 << 20 });
    return { where: `${MIRROR} (git HEAD:data/cran)`, ...Object.fromEntries(FILES.map((f) => [f, show(f)])) };
  } catch {
    return null;
  }
}

/**
 * Records of the SMART format: a line `.I n` opens a record, a line `.X` (a letter) opens its
 * field X, other lines belong to the field open. Gives { id, fields: { T, A, B, W } } in order.
 */
export function parseSmart(text) {
  const records = [];
  let record = null;
  let field = null;
  for (const line of text.split(/\r?\n/)) {
    const head = /^\.([A-Z])(?:\s+(.*))?$/.exec(line);
    if (head?.[1] === 'I') {
      record = { id: Number(head[2]), fields: {} };
      records.push(record);
      field = null;
    } else if (head && record) {
      field = head[1];
      record.fields[field] = '';
    } else if (record && field) {
      record.fields[field] += `${line}\n`;
    }
  }
  for (const r of records) for (const k of Object.keys(r.fields)) r.fields[k] = r.fields[k].trim();
  return records;
}

/**
 * The collection: documents (id, title, abstract), queries numbered 1..225 in file order (the
 * qrels number them so, not by their `.I`, which skips numbers), and the judgements per query as
 * doc id -> Cleverdon's code (1 a complete answer .. 4 of minimum interest; -1 of no interest).
 */
export function parseCranfield(files) {
  const docs = parseSmart(files['cran.all.1400']).map((r) => ({ id: r.id, title: r.fields.T ?? '', abstract: r.fields.W ?? '' }));
  const queries = parseSmart(files['cran.qry']).map((r, i) => ({ id: i + 1, text: r.fields.W ?? '' }));
  const qrels = new Map();
  for (const line of files.cranqrel.split(/\r?\n/)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 3) continue;
    const [qid, docId, code] = cols.map(Number);
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid).set(docId, code);
  }
  return { docs, queries, qrels };
}

/**
 * Gains of the judgement codes. `cleverdon`: 1 (a complete answer) gains 4 .. 4 (minimum interest)
 * gains 1, as the collection's readme defines the codes. `raw`: the code itself, which is what
 * trec_eval's ndcg does with this qrels file unchanged. Both count codes 1-4 relevant and -1 not.
 */
export const GAINS = {
  cleverdon: (code) => (code >= 1 && code <= 4 ? 5 - code : 0),
  raw: (code) => (code >= 1 ? code : 0),
};

const isRelevant = (code) => code !== undefined && code >= 1;

/** trec_eval's `map` cut at the ranking's length: precision at each relevant hit, over all relevant documents. */
export function averagePrecision(ranking, judged) {
  const relevant = [...judged.values()].filter(isRelevant).length;
  if (relevant === 0) return 0;
  let found = 0;
  let sum = 0;
  ranking.forEach((docId, i) => {
    if (isRelevant(judged.get(docId))) {
      found += 1;
      sum += found / (i + 1);
    }
  });
  return sum / relevant;
}

/** trec_eval's `P_k`: relevant documents among the first k, over k (a shorter ranking still divides by k). */
export function precisionAt(ranking, judged, k) {
  return ranking.slice(0, k).filter((docId) => isRelevant(judged.get(docId))).length / k;
}

/** trec_eval's `ndcg_cut_k`: gain / log2(rank + 1), over the same sum of the ideal order of every judged gain. */
export function ndcgAt(ranking, judged, k, gain) {
  const dcg = (gains) => gains.slice(0, k).reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const ideal = dcg([...judged.values()].map(gain).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranking.map((docId) => gain(judged.get(docId) ?? 0))) / ideal;
}
