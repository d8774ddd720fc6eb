import type { Drawing, DrawingShape } from '@pim/contract';
import type { DrawingRecord } from './repository.js';

/** The API shape of a drawing, shape by shape and field by field; no drawing is an empty one. */
export function presentDrawing(record: DrawingRecord | null): Drawing {
  if (!record) return { shapes: [], updated: null };
  return { shapes: storedShapes(record.shapes), updated: record.updatedAt.toISOString() };
}

/** Shapes as stored (they were checked against the contract on the way in). */
export function storedShapes(stored: unknown): DrawingShape[] {
  if (!Array.isArray(stored)) return [];
  return (stored as DrawingShape[]).map((s) => ({ id: s.id, kind: s.kind, label: s.label, points: s.points.map(([x, y]) => [x, y]) }));
}
