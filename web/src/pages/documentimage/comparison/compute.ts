import {
  alignCharacters,
  alignWords,
  characterConfusions,
  compareTexts,
  NORMALISATIONS,
  normalise,
  type AlignmentRun,
  type CharacterConfusion,
  type Normalisation,
  type TextComparison,
} from '@pim/contract';
import type { DiffLevel } from './url-state';
import { wordSeparators } from './word-layout';

/** The most frequent confusions listed. */
export const CONFUSIONS_LIMIT = 20;

/** What the comparison computes, each from the two texts as they are stored. */
export interface ComparisonTasks {
  measures: { reference: string; hypothesis: string; choice: Normalisation };
  allNormalisations: { reference: string; hypothesis: string };
  diff: { reference: string; hypothesis: string; choice: Normalisation; level: DiffLevel };
  confusions: { reference: string; hypothesis: string; choice: Normalisation };
}

export interface DiffResult {
  /** The level of the runs, which a diff still shown while the next one is computed may not be at. */
  level: DiffLevel;
  runs: AlignmentRun[];
  /** The whitespace after each word of each normalised text, for the diff by words. */
  separators: { reference: string[]; hypothesis: string[] };
}

export interface ComparisonResults {
  measures: TextComparison;
  allNormalisations: { id: Normalisation; measures: TextComparison }[];
  diff: DiffResult;
  confusions: CharacterConfusion[];
}

export type TaskKind = keyof ComparisonTasks;

export type ComparisonTask = { [K in TaskKind]: { kind: K } & ComparisonTasks[K] }[TaskKind];

function diff({ reference, hypothesis, choice, level }: ComparisonTasks['diff']): DiffResult {
  const a = normalise(reference, choice);
  const b = normalise(hypothesis, choice);
  return {
    level,
    runs: level === 'characters' ? alignCharacters(a, b) : alignWords(a, b),
    separators: { reference: wordSeparators(a), hypothesis: wordSeparators(b) },
  };
}

/** Runs one task: in the comparison's worker, or where there is none, on the page. */
export function computeTask<K extends TaskKind>(task: { kind: K } & ComparisonTasks[K]): ComparisonResults[K];
export function computeTask(task: ComparisonTask): ComparisonResults[TaskKind] {
  switch (task.kind) {
    case 'measures':
      return compareTexts(task.reference, task.hypothesis, task.choice);
    case 'allNormalisations':
      return NORMALISATIONS.map(({ id }) => ({ id, measures: compareTexts(task.reference, task.hypothesis, id) }));
    case 'diff':
      return diff(task);
    case 'confusions':
      return characterConfusions(normalise(task.reference, task.choice), normalise(task.hypothesis, task.choice), CONFUSIONS_LIMIT);
  }
}
