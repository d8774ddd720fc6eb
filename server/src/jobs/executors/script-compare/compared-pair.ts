import type { TranscriptionRecord } from '../../../modules/documentimages/repository.js';
import type { TranscriptionGroundTruth } from '../../../modules/textlines/repository.js';

/** The two texts of an image a ScriptCompare row compares, and what each one is. */
export interface ComparedPair {
  reference: string;
  referenceText: string;
  hypothesis: string;
  hypothesisText: string;
}

/** Why an image has no row of measures. */
export type Unpaired = { note: string };

/** A transcription as the report names it: 'PAGE · kant_0001.xml · 2025-02-18'. */
export function describeTranscription(t: TranscriptionRecord): string {
  return [t.format.toUpperCase(), t.sourceFileName ?? t.transcriber, t.createdAt.toISOString().slice(0, 10)].filter(Boolean).join(' · ');
}

/**
 * Which two texts of an image to compare, given its transcriptions newest first. The reference is
 * the newest imported from PAGE (ground truth is usually exchanged as PAGE), the hypothesis the
 * newest of another format (Tesseract's hOCR, ALTO). Without such a pair, the lines people
 * corrected are compared with what was recognised on them: their ground truth against the
 * newest transcription's text of the same lines. `groundTruth` is asked for only then.
 */
export async function comparedPair(
  transcriptions: TranscriptionRecord[],
  groundTruth: () => Promise<TranscriptionGroundTruth[]>,
): Promise<ComparedPair | Unpaired> {
  const page = transcriptions.find((t) => t.format === 'page');
  const other = transcriptions.find((t) => t.format !== 'page');
  if (page && other) {
    return { reference: describeTranscription(page), referenceText: page.cleanText, hypothesis: describeTranscription(other), hypothesisText: other.cleanText };
  }
  if (transcriptions.length === 0) return { note: 'No transcription.' };
  const corrected = new Map((await groundTruth()).filter((g) => g.lines.length > 0).map((g) => [g.transcriptionId, g]));
  const withTruth = transcriptions.find((t) => corrected.has(t.id));
  if (withTruth) {
    const { lines, linesTotal } = corrected.get(withTruth.id)!;
    return {
      reference: `Ground truth of ${lines.length} of ${linesTotal} lines`,
      referenceText: lines.map((l) => l.groundTruth).join('\n'),
      hypothesis: describeTranscription(withTruth),
      hypothesisText: lines.map((l) => l.text).join('\n'),
    };
  }
  if (transcriptions.length === 1) return { note: 'Only one transcription and no ground truth: nothing to compare it with.' };
  return {
    note: page
      ? 'Only transcriptions imported from PAGE and no ground truth: which one is the reference is not known.'
      : 'No transcription imported from PAGE and no ground truth to take as the reference.',
  };
}
