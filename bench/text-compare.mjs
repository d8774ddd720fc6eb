// Edit distance of the built contract (`npx tsc -b contract`) against fastest-levenshtein on the
// same pairs. Runs alone (`node bench/text-compare.mjs`, no server needed) and from run.mjs.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { distance as fastestLevenshtein } from 'fastest-levenshtein';
import { fmt, quantile, sum, table, timed } from './lib/measure.mjs';

const CONTRACT = new URL('../contract/dist/index.js', import.meta.url);
const ROUNDS = 15;

// Latin letters with the accents, long s and abbreviation-like letters of early printed text, all
// in the BMP: fastest-levenshtein counts UTF-16 code units, ours code points, and the two agree
// only where every character is one code unit.
const LETTERS = 'abcdefghiklmnopqrstuvwxyzſæœàáâèéêìíîòóôùúûçꝑꝓꝗ';
const PUNCTUATION = '.,;:·-';

/** A small deterministic generator (mulberry32), so every run measures the same texts. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word-like text of `length` characters. */
function text(next, length) {
  let out = '';
  while (out.length < length) {
    const word = 1 + Math.floor(next() * 9);
    for (let k = 0; k < word; k += 1) out += LETTERS[Math.floor(next() * LETTERS.length)];
    out += next() < 0.1 ? PUNCTUATION[Math.floor(next() * PUNCTUATION.length)] + ' ' : ' ';
  }
  return out.slice(0, length);
}

/** The text as a recogniser might read it: each character changed, dropped or doubled with `rate`. */
function misread(next, source, rate) {
  let out = '';
  for (const ch of source) {
    const roll = next();
    if (roll >= rate) out += ch;
    else if (roll < rate / 2) out += LETTERS[Math.floor(next() * LETTERS.length)];
    else if (roll < (rate * 3) / 4) continue;
    else out += ch + LETTERS[Math.floor(next() * LETTERS.length)];
  }
  return out;
}

function pairs(seed, count, length, rate) {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const reference = text(next, length);
    return [reference, misread(next, reference, rate)];
  });
}

/**
 * Median time of one pass over all pairs, for each implementation, the two alternating round by
 * round so drift in machine load hits both alike. Checks that they agree on every distance.
 */
async function measure(name, list, editDistance) {
  const ours = list.map(([a, b]) => editDistance(a, b));
  const theirs = list.map(([a, b]) => fastestLevenshtein(a, b));
  const differing = ours.findIndex((d, i) => d !== theirs[i]);
  if (differing >= 0) throw new Error(`${name}: pair ${differing} has distance ${ours[differing]} here, ${theirs[differing]} in fastest-levenshtein`);
  const oursMs = [];
  const theirsMs = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    oursMs.push((await timed(() => list.forEach(([a, b]) => editDistance(a, b)))).ms);
    theirsMs.push((await timed(() => list.forEach(([a, b]) => fastestLevenshtein(a, b)))).ms);
  }
  return { name, ours: quantile(oursMs, 0.5), theirs: quantile(theirsMs, 0.5), meanDistance: sum(ours) / ours.length };
}

export async function benchTextCompare() {
  if (!fs.existsSync(CONTRACT)) throw new Error('The contract is not built: run `npx tsc -b contract` first.');
  const { editDistance, alignCharacters } = await import(CONTRACT.href);
  const workloads = [
    ['short lines: 5,000 pairs of 50 chars', pairs(1, 5000, 50, 0.1)],
    ['pages: 40 pairs of 2,000 chars', pairs(2, 40, 2000, 0.1)],
    ['long: 2 pairs of 20,000 chars', pairs(3, 2, 20000, 0.1)],
  ];
  // Warm-up (not counted): lets both implementations reach optimised code.
  for (const [, list] of workloads) await measure('warm-up', list.slice(0, 200), editDistance);
  const results = [];
  for (const [name, list] of workloads) results.push(await measure(name, list, editDistance));

  const [longReference, longHypothesis] = workloads[2][1][0];
  const alignMs = [];
  for (let round = 0; round < 5; round += 1) alignMs.push((await timed(() => alignCharacters(longReference, longHypothesis))).ms);
  const align = quantile(alignMs, 0.5);
  const longMs = results[2].ours / workloads[2][1].length;

  return {
    title: `Text comparison: editDistance against fastest-levenshtein ${versionOf('fastest-levenshtein')} (BMP-only texts, about 10% of characters misread; median of ${ROUNDS} rounds)`,
    text: table([
      ['', 'ours ms', 'fastest-lev. ms', 'mean distance'],
      ...results.map((r) => [r.name, fmt(r.ours, 2), fmt(r.theirs, 2), fmt(r.meanDistance)]),
      ['alignCharacters of one 20,000-char pair', fmt(align, 2), '', ''],
    ]),
    ratios: [
      ...results.map((r) => [`edit distance / fastest-levenshtein, ${r.name.split(':')[0]}`, r.ours / r.theirs]),
      ['alignCharacters / editDistance, 20,000 chars', align / longMs],
    ],
  };
}

function versionOf(name) {
  const manifest = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchTextCompare();
  console.log(`${result.title}\n${result.text}\n`);
  console.log('Ratios (lower is better; 1.00 = as fast as fastest-levenshtein):');
  console.log(table(result.ratios.map(([name, ratio]) => [`  ${name}`, fmt(ratio, 2)])));
}
