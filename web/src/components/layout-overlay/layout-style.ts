/**
 * The colours of an imported layout: apart from one another and from the drawing tool's label
 * classes (Okabe-Ito), and strong enough on pale parchment and on dark ink.
 */
export const LAYOUT_COLORS = {
  region: '#0C8599',
  line: '#C2255C',
  baseline: '#5F3DC4',
} as const;

export type LayoutPart = keyof typeof LAYOUT_COLORS;

/** The line a search found: a colour none of the layout's parts has, drawn over them with a dark edge. */
export const MARKED_LINE_COLOR = '#F59F00';
