import type { TranscriptionLayout, TranscriptionLayoutLine } from '@pim/contract';
import { useState } from 'react';
import { lineBox } from '../../components/layout-overlay/layout-geometry';
import type { MarkedLine } from '../../components/layout-overlay/marked-line';

/** A line chosen on the Transcription tab: which line of which transcription, and how the viewer marks it. */
export interface LineMark {
  transcriptionId: string;
  /** The line's index in its layout. */
  index: number;
  /** Numbered by its place in reading order, as the tab lists it. */
  line: MarkedLine;
  /** The image as the layout measures it: the space of the line's points. */
  image: { width: number; height: number };
}

/** The mark of `line`, the `position`th (0-based) in reading order of its layout. */
export function markOf(layout: TranscriptionLayout, line: TranscriptionLayoutLine, position: number): LineMark {
  return {
    transcriptionId: layout.transcriptionId,
    index: line.index,
    line: { number: position + 1, text: line.text, box: lineBox(line, layout.height), outline: line.coords },
    image: { width: layout.width, height: layout.height },
  };
}

interface Choice {
  imageUri: string;
  /** Picked in the list of transcriptions; null: the newest. */
  transcriptionId: string | null;
  mark: LineMark | null;
}

/**
 * What the Transcription tab has chosen on the image shown: the workspace keeps it, so the viewer
 * marks the line and the tab finds its choice again after another tab was shown; another image
 * starts with none.
 */
export function useTranscriptionChoice(imageUri: string) {
  const [state, setState] = useState<Choice>({ imageUri, transcriptionId: null, mark: null });
  const current = state.imageUri === imageUri ? state : { imageUri, transcriptionId: null, mark: null };
  return {
    transcriptionId: current.transcriptionId,
    mark: current.mark,
    chooseTranscription: (transcriptionId: string) => setState({ imageUri, transcriptionId, mark: null }),
    chooseLine: (mark: LineMark) => setState({ imageUri, transcriptionId: mark.transcriptionId, mark }),
  };
}

export type TranscriptionChoice = ReturnType<typeof useTranscriptionChoice>;
