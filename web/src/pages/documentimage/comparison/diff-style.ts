import type { AlignmentOp } from '@pim/contract';
import type { CSSProperties } from 'react';

export type ChangeOp = Exclude<AlignmentOp, 'equal'>;

export const CHANGE_OPS: ChangeOp[] = ['insert', 'delete', 'substitute'];

/**
 * Each kind of change has its own colour and its own line, so the three stay apart without
 * colour too: deletions struck through, insertions underlined, substitutions dotted.
 */
const COLOURS: Record<ChangeOp, string> = { insert: 'green', delete: 'red', substitute: 'orange' };
const LINES: Record<ChangeOp, Pick<CSSProperties, 'textDecorationLine' | 'textDecorationStyle'>> = {
  insert: { textDecorationLine: 'underline', textDecorationStyle: 'solid' },
  delete: { textDecorationLine: 'line-through', textDecorationStyle: 'solid' },
  substitute: { textDecorationLine: 'underline', textDecorationStyle: 'dotted' },
};

export function changeStyle(op: ChangeOp): CSSProperties {
  const colour = COLOURS[op];
  return {
    ...LINES[op],
    textDecorationColor: `var(--mantine-color-${colour}-8)`,
    textDecorationThickness: op === 'substitute' ? '2px' : '1px',
    textUnderlineOffset: '0.2em',
    background: `var(--mantine-color-${colour}-1)`,
    color: `var(--mantine-color-${colour}-9)`,
    borderRadius: 2,
  };
}

/** Where the other side has text this side lacks: a thin bar of that change's colour. */
export function gapStyle(op: ChangeOp): CSSProperties {
  return {
    display: 'inline-block',
    width: 0,
    height: '1.1em',
    verticalAlign: 'text-bottom',
    borderLeft: `2px solid var(--mantine-color-${COLOURS[op]}-6)`,
    margin: '0 1px',
  };
}
