import type { DifferentTextLine, GroundTruthOfImage, SimpleTextLine } from '@pim/contract';
import type { TextLineRecord, TranscriptionGroundTruth } from './repository.js';

/** A text line as the correction screen shows it, built field by field from the record. */
export function presentTextLine(line: TextLineRecord): SimpleTextLine {
  return {
    uuid: line.id,
    text: line.text,
    groundTruth: line.groundTruth,
    confidence: line.confidence,
    lowestConf: line.lowestConf,
    documentImageId: line.imageId,
    documentImageLabel: line.imageLabel,
    transcriptionId: line.transcriptionId,
    lineIndex: line.lineIndex,
    region: line.region && { x: line.region.x, y: line.region.y, w: line.region.w, h: line.region.h },
    updated: line.updatedAt.toISOString(),
  };
}

/** A corrected line of the 'different' list: its ground truth and CER are always there. */
export function presentDifferentTextLine(line: TextLineRecord): DifferentTextLine {
  return { ...presentTextLine(line), groundTruth: line.groundTruth ?? '', cer: line.cer ?? 0 };
}

export function presentGroundTruth(transcriptions: TranscriptionGroundTruth[]): GroundTruthOfImage {
  return transcriptions.map((t) => ({
    transcriptionId: t.transcriptionId,
    linesTotal: t.linesTotal,
    lines: t.lines.map((l) => ({ lineIndex: l.lineIndex, text: l.text, groundTruth: l.groundTruth })),
  }));
}
