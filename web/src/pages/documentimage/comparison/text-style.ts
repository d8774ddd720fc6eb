import type { CSSProperties } from 'react';

/**
 * Serif faces that cover combining marks and the Medieval Unicode Font Initiative's characters
 * (long s, abbreviation marks, Tironian et) first, where the reader has them, then common serifs.
 */
const MANUSCRIPT_FONTS = [
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
  .map((font) => (font === 'serif' ? font : `'${font}'`))
  .join(', ');

/**
 * A transcription's text as it is: every space and line break kept, long lines wrapped anywhere,
 * and no ligatures, so each character stays a glyph of its own to compare.
 */
export const manuscriptText: CSSProperties = {
  fontFamily: MANUSCRIPT_FONTS,
  fontSize: '1.0625rem',
  lineHeight: 1.7,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontVariantLigatures: 'none',
  margin: 0,
};
