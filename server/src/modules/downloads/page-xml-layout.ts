import type { ReadingOrderGroup } from '../uploads/page-xml.js';
import { storedReadingOrder } from '../uploads/page-reading-order.js';

/**
 * A stored layout as the PAGE export writes it. Layouts are JSON from several importers and from
 * before words were kept, so every field is read defensively: what is missing is empty or null.
 */
export interface ExportLayout {
  regions: ExportRegion[];
  readingOrder: ReadingOrderGroup | null;
}

export interface ExportRegion {
  id: string | null;
  type: string | null;
  coords: string | null;
  language: string | null;
  /** The region's own TextEquiv, when the file had one. */
  text: string | null;
  lines: ExportLine[];
}

export interface ExportLine {
  id: string | null;
  coords: string | null;
  baseline: string | null;
  text: string;
  language: string | null;
  words: ExportWord[];
}

export interface ExportWord {
  id: string | null;
  coords: string | null;
  text: string;
  /** As stored: 0..1 from PAGE and ALTO, 0..100 from hOCR. */
  confidence: number | null;
  language: string | null;
  glyphs: { id: string | null; coords: string | null; text: string }[];
}

type Node = Record<string, unknown>;

export function exportLayoutOf(layout: unknown): ExportLayout {
  const root = isObject(layout) ? layout : {};
  return {
    regions: objects(root.regions).map((r) => ({
      id: stringOrNull(r.id),
      type: stringOrNull(r.type),
      coords: stringOrNull(r.coords),
      language: stringOrNull(r.language),
      text: stringOrNull(r.text),
      lines: objects(r.lines).map((l) => ({
        id: stringOrNull(l.id),
        coords: stringOrNull(l.coords),
        baseline: stringOrNull(l.baseline),
        text: text(l.text),
        language: stringOrNull(l.language),
        words: objects(l.words).map((w) => ({
          id: stringOrNull(w.id),
          coords: stringOrNull(w.coords),
          text: text(w.text),
          confidence: typeof w.confidence === 'number' && Number.isFinite(w.confidence) ? w.confidence : null,
          language: stringOrNull(w.language),
          glyphs: objects(w.glyphs).map((g) => ({ id: stringOrNull(g.id), coords: stringOrNull(g.coords), text: text(g.text) })),
        })),
      })),
    })),
    readingOrder: storedReadingOrder(root.readingOrder),
  };
}

function isObject(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function objects(v: unknown): Node[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
