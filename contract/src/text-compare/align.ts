import { alignIds, DELETE, INSERT } from './hirschberg.js';
import { encodeValues } from './symbols.js';
import { splitWords } from './words.js';

export type AlignmentOp = 'equal' | 'insert' | 'delete' | 'substitute';

/**
 * A stretch of one kind of step in a side-by-side diff: `reference` and `hypothesis` are the
 * text of each side ('' on the missing side of an insertion or deletion). A substitution run has
 * as many symbols on each side, paired in order.
 */
export interface AlignmentRun {
  op: AlignmentOp;
  reference: string;
  hypothesis: string;
}

// Indexed by the step codes of hirschberg.ts.
const OPS: readonly AlignmentOp[] = ['equal', 'substitute', 'delete', 'insert'];

/** An optimal alignment over symbol lists, as runs whose text joins symbols with `separator`. */
function alignSymbols(reference: string[], hypothesis: string[], separator: string): AlignmentRun[] {
  const { a, b, size } = encodeValues(reference, hypothesis);
  const steps = alignIds(a, b, size);
  const runs: AlignmentRun[] = [];
  let i = 0;
  let j = 0;
  for (let k = 0; k < steps.length; ) {
    const step = steps[k]!;
    let end = k;
    while (end < steps.length && steps[end] === step) end += 1;
    const count = end - k;
    const takesReference = step !== INSERT;
    const takesHypothesis = step !== DELETE;
    runs.push({
      op: OPS[step]!,
      reference: takesReference ? reference.slice(i, i + count).join(separator) : '',
      hypothesis: takesHypothesis ? hypothesis.slice(j, j + count).join(separator) : '',
    });
    if (takesReference) i += count;
    if (takesHypothesis) j += count;
    k = end;
  }
  return runs;
}

/**
 * An optimal character alignment (over code points), adjacent steps of one kind merged. Its
 * inserted, deleted and substituted code points add up to editDistance(reference, hypothesis).
 */
export function alignCharacters(reference: string, hypothesis: string): AlignmentRun[] {
  return alignSymbols(Array.from(reference), Array.from(hypothesis), '');
}

/**
 * An optimal alignment of whitespace-separated words; the words of a run are joined by one space
 * (the original whitespace is not kept).
 */
export function alignWords(reference: string, hypothesis: string): AlignmentRun[] {
  return alignSymbols(splitWords(reference), splitWords(hypothesis), ' ');
}
