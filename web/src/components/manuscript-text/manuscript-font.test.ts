import { describe, expect, it } from 'vitest';
import { MANUSCRIPT_FONT_FAMILY } from './manuscript-text';
import { woff2CodePoints } from './woff2-cmap.test-support';

/** The parts of Node these tests use; the web project has no Node types, and the app reads no files. */
interface NodeFs {
  readFileSync(path: string): Uint8Array;
  readFileSync(path: string, encoding: 'utf8'): string;
}
interface NodeZlib {
  brotliDecompressSync(data: Uint8Array): Uint8Array;
}
const [nodeFs, nodeZlib] = ['node:fs', 'node:zlib'];
const fs = (await import(/* @vite-ignore */ nodeFs)) as NodeFs;
const zlib = (await import(/* @vite-ignore */ nodeZlib)) as NodeZlib;
const here = (import.meta as ImportMeta & { dirname: string }).dirname;

/** What manuscripts hold that common fonts show as boxes (issue 14), and a few of their neighbours. */
const MANUSCRIPT_CHARACTERS = {
  'a with combining e above (U+0364)': 0x0364,
  'p with stroke through descender (U+A751)': 0xa751,
  'p with flourish (U+A753)': 0xa753,
  'modifier us (U+A770)': 0xa770,
  'MUFI Private Use Area (U+F1AC)': 0xf1ac,
  'Tironian et (U+204A)': 0x204a,
  'long s (U+017F)': 0x017f,
  'combining ur above (U+1DD1)': 0x1dd1,
  'dotted circle, for a lone mark (U+25CC)': 0x25cc,
};

describe('the manuscript font', () => {
  it('is declared as a web font from the bundled file, shown in a fallback until it has loaded', () => {
    const fontFace = fs.readFileSync(`${here}/manuscript-font.css`, 'utf8');
    expect(fontFace).toMatch(/font-family:\s*'Junicode'/);
    expect(fontFace).toMatch(/src:\s*url\('\.\/junicode-regular\.woff2'\)\s*format\('woff2'\)/);
    expect(fontFace).toMatch(/font-display:\s*swap/);
    expect(MANUSCRIPT_FONT_FAMILY.startsWith('"Junicode", ')).toBe(true);
    expect(MANUSCRIPT_FONT_FAMILY.endsWith(', serif')).toBe(true);
  });

  it('has a glyph for every medieval character and all of Basic Latin', () => {
    const covered = woff2CodePoints(fs.readFileSync(`${here}/junicode-regular.woff2`), (data) => zlib.brotliDecompressSync(data));
    const missing = Object.entries(MANUSCRIPT_CHARACTERS).filter(([, codePoint]) => !covered.has(codePoint));
    expect(missing).toEqual([]);
    for (let c = 0x20; c < 0x7f; c++) expect(covered.has(c), `U+${c.toString(16)}`).toBe(true);
    // The MUFI Private Use Area is there in earnest, not one stray glyph.
    expect([...covered].filter((c) => c >= 0xe000 && c <= 0xf8ff).length).toBeGreaterThan(500);
  });
});
