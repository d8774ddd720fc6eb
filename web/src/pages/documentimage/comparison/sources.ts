import type { Transcription } from '@pim/contract';
import type { GroundTruthEntry } from './diff-controls';
import type { ComparisonState } from './url-state';

/** The two texts to compare, each with what it is. */
export interface ComparedTexts {
  kind: 'transcriptions' | 'groundTruth';
  reference: string;
  hypothesis: string;
  referenceName: string;
  hypothesisName: string;
  /** For the ground truth: how many of the transcription's lines it covers. */
  lines?: { corrected: number; total: number };
}

/**
 * The corrected lines of a transcription in reading order: their ground truth (the reference)
 * and what was recognised on the same lines (the hypothesis), each line on a line of its own.
 */
export function groundTruthTexts(entry: GroundTruthEntry): { reference: string; hypothesis: string } {
  const lines = [...entry.lines].sort((a, b) => a.lineIndex - b.lineIndex);
  return {
    reference: lines.map((line) => line.groundTruth).join('\n'),
    hypothesis: lines.map((line) => line.text).join('\n'),
  };
}

/** What the state asks to compare, when all of it is there. */
export function comparedTexts(
  state: ComparisonState,
  transcriptions: Transcription[],
  labels: Map<string, string>,
  groundTruth: GroundTruthEntry[] | undefined,
): ComparedTexts | null {
  const find = (uuid: string | null) => transcriptions.find((t) => t.uuid === uuid);
  if (state.groundTruth) {
    const entry = groundTruth?.find((e) => e.transcriptionId === state.groundTruth);
    const transcription = find(state.groundTruth);
    if (!entry || !transcription || entry.lines.length === 0) return null;
    const name = labels.get(transcription.uuid)!;
    return {
      kind: 'groundTruth',
      ...groundTruthTexts(entry),
      referenceName: name,
      hypothesisName: name,
      lines: { corrected: entry.lines.length, total: entry.linesTotal },
    };
  }
  const first = find(state.diff1);
  const second = find(state.diff2);
  if (!first || !second) return null;
  return {
    kind: 'transcriptions',
    reference: first.cleanText,
    hypothesis: second.cleanText,
    referenceName: labels.get(first.uuid)!,
    hypothesisName: labels.get(second.uuid)!,
  };
}
