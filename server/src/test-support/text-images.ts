import { spawnSync } from 'node:child_process';
import sharp from 'sharp';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Where each line of `textPage` is drawn, in its pixels: its baseline and a box around it. */
export const TEXT_PAGE = { left: 60, firstBaseline: 110, lineHeight: 100, fontSize: 52, width: 1400 } as const;

/** The box around line `i` of a `textPage`: from above its capitals to below its descenders. */
export function textLineBox(i: number, width: number = TEXT_PAGE.width - 2 * TEXT_PAGE.left) {
  const baseline = TEXT_PAGE.firstBaseline + i * TEXT_PAGE.lineHeight;
  return { x: TEXT_PAGE.left - 10, y: baseline - 55, w: width + 20, h: 75 };
}

/**
 * A page image with the given lines of printed text (DejaVu Serif, black on white, about the size
 * of a 12 pt line scanned at 300 dpi): what Tesseract's English model reads without a mistake.
 * sharp rasterises the SVG with the fonts installed (Debian's fonts-dejavu-core).
 */
export function textPage(lines: string[], format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const height = TEXT_PAGE.firstBaseline + lines.length * TEXT_PAGE.lineHeight;
  const text = lines
    .map(
      (line, i) =>
        `<text x="${TEXT_PAGE.left}" y="${TEXT_PAGE.firstBaseline + i * TEXT_PAGE.lineHeight}" font-family="DejaVu Serif" font-size="${TEXT_PAGE.fontSize}">${escape(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${TEXT_PAGE.width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}

/**
 * Whether the Tesseract CLI and its English model are installed (CI installs them; a machine
 * without them skips the tests that run Tesseract, saying so).
 */
export function tesseractWithEnglish(): boolean {
  const langs = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  return langs.status === 0 && /^eng$/m.test(`${langs.stdout}\n${langs.stderr}`);
}

export const NO_TESSERACT =
  'Skipping the Tesseract tests: the tesseract command with its eng language is not installed (Debian: apt-get install tesseract-ocr tesseract-ocr-eng).';
