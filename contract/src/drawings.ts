import { z } from 'zod';

/**
 * The drawing tool (spec part 1 §2 and §9): lines (polylines) and polygons drawn over a page
 * image, each with one of six label classes, saved on the image as a layout of its own and
 * exported as PAGE regions and lines.
 */
export const DRAWING_LABELS = ['text-line', 'baseline', 'region', 'marginalia', 'decoration', 'page-number'] as const;
export type DrawingLabel = (typeof DRAWING_LABELS)[number];

/** English display names of the label classes, for places without translations (logs, exports). */
export const DRAWING_LABEL_NAMES: Record<DrawingLabel, string> = {
  'text-line': 'Text line',
  baseline: 'Baseline',
  region: 'Region',
  marginalia: 'Marginalia',
  decoration: 'Decoration',
  'page-number': 'Page number',
};

export const DRAWING_KINDS = ['line', 'polygon'] as const;
export type DrawingKind = (typeof DRAWING_KINDS)[number];

/** The fewest points that make a shape of each kind. */
export const MIN_POINTS: Record<DrawingKind, number> = { line: 2, polygon: 3 };

export const DRAWING_LIMITS = {
  shapes: 2_000,
  pointsPerShape: 5_000,
  /** Keeps a drawing's request within the server's body limit, with a clearer message than 413. */
  points: 100_000,
} as const;

const coordinate = z
  .number({ error: 'A coordinate must be a number.' })
  .int('Coordinates are whole pixels of the page image.')
  .min(0, 'Coordinates cannot be negative.');

/** A point [x, y] in the page image's pixels, 0,0 at the top left. */
export const drawingPointSchema = z.tuple([coordinate, coordinate], { error: 'A point is a pair [x, y].' });
export type DrawingPoint = z.infer<typeof drawingPointSchema>;

export const drawingShapeSchema = z
  .object({
    id: z.uuid('A shape id must be a UUID.'),
    kind: z.enum(DRAWING_KINDS, { error: "A shape's kind is 'line' or 'polygon'." }),
    label: z.enum(DRAWING_LABELS, { error: `A shape's label is one of ${DRAWING_LABELS.join(', ')}.` }),
    points: z
      .array(drawingPointSchema)
      .max(DRAWING_LIMITS.pointsPerShape, `A shape can have at most ${DRAWING_LIMITS.pointsPerShape.toLocaleString('en')} points.`),
  })
  .superRefine((shape, ctx) => {
    const min = MIN_POINTS[shape.kind];
    if (shape.points.length < min) {
      ctx.addIssue({ code: 'custom', path: ['points'], message: `A ${shape.kind} needs at least ${min} points.` });
    }
  });
export type DrawingShape = z.infer<typeof drawingShapeSchema>;

/** `GET pim/documentimage/{uuid}/drawing`: no drawing yet is an empty list with updated null. */
export const drawingSchema = z.object({
  shapes: z.array(drawingShapeSchema),
  updated: z.iso.datetime().nullable(),
});
export type Drawing = z.infer<typeof drawingSchema>;

/** `PUT pim/documentimage/{uuid}/drawing`: the whole drawing; an empty list clears it. */
export const saveDrawingRequestSchema = z
  .object({
    shapes: z
      .array(drawingShapeSchema)
      .max(DRAWING_LIMITS.shapes, `A drawing can have at most ${DRAWING_LIMITS.shapes.toLocaleString('en')} shapes.`),
  })
  .superRefine(({ shapes }, ctx) => {
    const seen = new Set<string>();
    shapes.forEach((shape, i) => {
      if (seen.has(shape.id)) ctx.addIssue({ code: 'custom', path: ['shapes', i, 'id'], message: `Shape ids must be unique; ${shape.id} is used twice.` });
      seen.add(shape.id);
    });
    const points = shapes.reduce((sum, s) => sum + s.points.length, 0);
    if (points > DRAWING_LIMITS.points) {
      ctx.addIssue({
        code: 'custom',
        path: ['shapes'],
        message: `A drawing can have at most ${DRAWING_LIMITS.points.toLocaleString('en')} points in all; this one has ${points.toLocaleString('en')}.`,
      });
    }
  });
export type SaveDrawingRequest = z.infer<typeof saveDrawingRequestSchema>;

export const drawingParams = z.object({ uuid: z.uuid('The document image id must be a UUID.') });
