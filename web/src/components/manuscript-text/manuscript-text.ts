import type { CSSProperties } from 'react';
import './manuscript-font.css';

/**
 * The face of manuscript text: Junicode, shipped with the app (manuscript-font.css) because it
 * covers the combining marks (a + U+0364), the abbreviation marks and the Medieval Unicode Font
 * Initiative's characters, its Private Use Area included, that common fonts show as boxes. The
 * other MUFI faces a reader may have, then common serifs, stand in until it has loaded.
 */
export const MANUSCRIPT_FONT_FAMILY = [
  'Junicode',
  'Andron Scriptor Web',
  'Palemonas MUFI',
  'Cardo',
  'Noto Serif',
  'DejaVu Serif',
  'Gentium Plus',
  'Times New Roman',
  'serif',
]
  .map((font) => (font === 'serif' ? font : `"${font}"`))
  .join(', ');

/**
 * A transcription's text as it is: every space and line break kept, long lines wrapped anywhere,
 * and no ligatures, so each character stays a glyph of its own to compare.
 */
export const manuscriptText: CSSProperties = {
  fontFamily: MANUSCRIPT_FONT_FAMILY,
  fontSize: '1.0625rem',
  lineHeight: 1.7,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontVariantLigatures: 'none',
  margin: 0,
};
