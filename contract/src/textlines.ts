import { z } from 'zod';

/**
 * A text line to correct (spec part 2 §3 "Simple text line"): the recognised text of one line of a
 * stored transcription, and the ground truth a person gave it. The extra fields say where the line
 * comes from, so a screen can link back to its image.
 */
export const simpleTextLineSchema = z.object({
  uuid: z.uuid(),
  text: z.string().describe('the recognised text, exactly as the transcription has it'),
  groundTruth: z.string().nullable().describe('the corrected text; null until someone corrects the line'),
  confidence: z.number().nullable().describe('the line confidence, 0 to 1, when the transcription gives one'),
  lowestConf: z.number().nullable().describe('the lowest word or glyph confidence on the line, 0 to 1'),
  documentImageId: z.uuid(),
  documentImageLabel: z.string(),
  transcriptionId: z.uuid(),
  /** 0-based position of the line in its transcription's reading order. */
  lineIndex: z.number().int(),
  /** The bounding box of the line's polygon in the page image's pixels. */
  region: z.object({ x: z.number().int(), y: z.number().int(), w: z.number().int(), h: z.number().int() }).nullable(),
  updated: z.iso.datetime(),
});
export type SimpleTextLine = z.infer<typeof simpleTextLineSchema>;

/** `POST pim/pimsimpletextline/update` and `/skip`. */
export const textLineCorrectionSchema = z.object({
  uuid: z.uuid(),
  groundtruth: z.string().max(10_000, 'A line can hold at most 10,000 characters.'),
});
export type TextLineCorrection = z.infer<typeof textLineCorrectionSchema>;

export const textLineParams = z.object({ uuid: z.uuid() });
export const textLineParentParams = z.object({ parentuuid: z.uuid() });

/** The largest page the web's DataTable offers (its page sizes go up to 500). */
export const TEXT_LINE_PAGE_SIZE_MAX = 500;

/** `GET pim/pimsimpletextline/different`: lines whose ground truth differs from the text, worst first. */
export const differentTextLinesQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(TEXT_LINE_PAGE_SIZE_MAX).default(50),
  parentuuid: z.uuid().optional().describe('only lines of this image or image set'),
});
export type DifferentTextLinesQuery = z.infer<typeof differentTextLinesQuerySchema>;

export const differentTextLineSchema = simpleTextLineSchema.extend({
  groundTruth: z.string(),
  cer: z.number().describe('character error rate of the text against the ground truth'),
});
export type DifferentTextLine = z.infer<typeof differentTextLineSchema>;

export const differentTextLinesPageSchema = z.object({
  results: z.array(differentTextLineSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DifferentTextLinesPage = z.infer<typeof differentTextLinesPageSchema>;

/**
 * `GET pim/documentimage/{uuid}/groundtruth`: per transcription of the image, its corrected lines,
 * so the comparison can set a transcription against the ground truth people gave its lines.
 */
export const groundTruthOfImageSchema = z.array(
  z.object({
    transcriptionId: z.uuid(),
    linesTotal: z.number().int(),
    lines: z.array(z.object({ lineIndex: z.number().int(), text: z.string(), groundTruth: z.string() })),
  }),
);
export type GroundTruthOfImage = z.infer<typeof groundTruthOfImageSchema>;
