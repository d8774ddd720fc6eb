import type { DrawingLabel } from '@pim/contract';

/**
 * One colour per label class, from the Okabe-Ito palette (told apart with the common colour vision
 * deficiencies) with purple for the sixth, as its yellow is lost on pale parchment.
 */
export const LABEL_COLORS: Record<DrawingLabel, string> = {
  'text-line': '#0072B2',
  baseline: '#D55E00',
  region: '#009E73',
  marginalia: '#CC79A7',
  decoration: '#E69F00',
  'page-number': '#6A3D9A',
};

/**
 * A version 4 UUID for a new shape. crypto.randomUUID exists only on https and localhost pages;
 * getRandomValues everywhere.
 */
export function newShapeId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
