import { exportLayoutOf, type ExportRegion } from '../../../modules/downloads/page-xml-layout.js';
import type { ReadingOrderGroup } from '../../../modules/uploads/page-xml.js';

/** A paragraph of a page: the lines of one region, each kept as a line. */
export type Paragraph = string[];

/**
 * A transcription's text as the EPUB shows it: one paragraph per region, regions in the PAGE
 * reading order when the layout has one (regions it leaves out follow in layout order), each line
 * as a line. A line with ground truth shows that: it is the text people corrected. Ground truth is
 * kept by line index, counted over the regions in layout order (as the text lines are made).
 */
export function paragraphsOf(layout: unknown, groundTruth: ReadonlyMap<number, string>): Paragraph[] {
  const { regions, readingOrder } = exportLayoutOf(layout);
  let lineIndex = 0;
  const texts = regions.map((region) => {
    const lines = region.lines.map((line) => groundTruth.get(lineIndex++) ?? line.text);
    return lines.length > 0 ? lines : ownText(region);
  });
  return inReadingOrder(regions, readingOrder)
    .map((i) => texts[i]!)
    .filter((lines) => lines.some((line) => line.trim() !== ''));
}

/** A region without lines may carry its text itself (PAGE's region TextEquiv). */
function ownText(region: ExportRegion): Paragraph {
  return region.text === null ? [] : region.text.split(/\r\n|\r|\n/);
}

/** The indexes of the regions in reading order. */
function inReadingOrder(regions: ExportRegion[], readingOrder: ReadingOrderGroup | null): number[] {
  const indexOf = new Map<string, number>();
  regions.forEach((region, i) => {
    if (region.id !== null && !indexOf.has(region.id)) indexOf.set(region.id, i);
  });
  const order: number[] = [];
  const placed = new Set<number>();
  const place = (ref: string | null) => {
    const i = ref === null ? undefined : indexOf.get(ref);
    if (i !== undefined && !placed.has(i)) {
      placed.add(i);
      order.push(i);
    }
  };
  const walk = (group: ReadingOrderGroup) => {
    place(group.regionRef);
    for (const member of group.members) {
      if (member.kind === 'region') place(member.regionRef);
      else walk(member);
    }
  };
  if (readingOrder) walk(readingOrder);
  regions.forEach((_, i) => {
    if (!placed.has(i)) order.push(i);
  });
  return order;
}
