import type { DrawingPoint } from '@pim/contract';

/** The drawing surface's fixed height in CSS pixels (spec part 1 §9). */
export const SURFACE_HEIGHT = 1200;
/** The page is shown at this share of the scale that fits it in the surface, leaving a margin around it (spec §9). */
export const ZOOM_FACTOR = 0.91;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * CSS pixels per image pixel: the page fitted into the surface's height and the available width,
 * times the zoom factor. A width of 0 (not measured yet) fits the height alone.
 */
export function fittedScale(image: ImageSize, availableWidth: number): number {
  const byHeight = SURFACE_HEIGHT / image.height;
  const byWidth = availableWidth > 0 ? availableWidth / image.width : Number.POSITIVE_INFINITY;
  return Math.min(byHeight, byWidth) * ZOOM_FACTOR;
}

/** Where a click at (clientX, clientY) falls on the image shown at `scale` from `origin`: whole pixels, on the image. */
export function imagePoint(
  client: { x: number; y: number },
  origin: { left: number; top: number },
  scale: number,
  image: ImageSize,
): DrawingPoint {
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v)));
  return [clamp((client.x - origin.left) / scale, image.width), clamp((client.y - origin.top) / scale, image.height)];
}

/**
 * The IIIF size to ask for: enough pixels for the largest the page is shown (its height-fitted
 * scale, on this screen's pixel density), never more than the image has. It does not change as the
 * window is resized, so the image is fetched once.
 */
export function requestedSize(image: ImageSize, pixelRatio: number): ImageSize {
  const scale = Math.min(1, (SURFACE_HEIGHT * ZOOM_FACTOR * pixelRatio) / image.height);
  return { width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale)) };
}
