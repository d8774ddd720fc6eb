import { alignCharacters } from './align.js';

/**
 * How often the hypothesis has `hypothesis` where the reference has `reference` (one code point
 * each). A deletion has hypothesis '', an insertion reference ''.
 */
export interface CharacterConfusion {
  reference: string;
  hypothesis: string;
  count: number;
}

/**
 * The `limit` most frequent character errors of an optimal alignment, most frequent first; ties
 * in code-unit order of the reference character, then of the hypothesis character, so the table
 * is the same on every run.
 */
export function characterConfusions(reference: string, hypothesis: string, limit = 20): CharacterConfusion[] {
  const counts = new Map<string, CharacterConfusion>();
  const count = (from: string, to: string) => {
    // U+0000 cannot occur in the key of any other pair: each side is one code point or empty.
    const key = `${from}\u0000${to}`;
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { reference: from, hypothesis: to, count: 1 });
  };
  for (const run of alignCharacters(reference, hypothesis)) {
    if (run.op === 'equal') continue;
    const from = Array.from(run.reference);
    const to = Array.from(run.hypothesis);
    if (run.op === 'substitute') from.forEach((ch, k) => count(ch, to[k]!));
    else if (run.op === 'delete') from.forEach((ch) => count(ch, ''));
    else to.forEach((ch) => count('', ch));
  }
  return [...counts.values()].sort(byCountThenCharacters).slice(0, Math.max(0, limit));
}

const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

function byCountThenCharacters(x: CharacterConfusion, y: CharacterConfusion): number {
  return y.count - x.count || order(x.reference, y.reference) || order(x.hypothesis, y.hypothesis);
}
