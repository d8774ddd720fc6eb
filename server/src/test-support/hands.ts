import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { type PageLineSpec, uploadPageWithLines } from './text-lines.js';

/**
 * A "hand" for similarity tests: how its lines are drawn. Real handwriting is not at hand in a
 * test, so two hands differ as two scribes' do in what the descriptor measures: slant, stroke
 * width, letter shapes (the font) and spacing.
 */
export interface Hand {
  font: string;
  /** Degrees the strokes lean, as skewX. */
  slant: number;
  weight: 'normal' | 'bold';
  letterSpacing: number;
}

export const UPRIGHT_HAND: Hand = { font: 'DejaVu Serif', slant: 0, weight: 'normal', letterSpacing: 0 };
export const SLANTED_HAND: Hand = { font: 'DejaVu Sans', slant: -22, weight: 'bold', letterSpacing: 3 };

const PAGE = { width: 1200, left: 40, firstTop: 40, lineHeight: 90, lineBox: 70, fontSize: 44 } as const;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A page of the hand's lines, with each line's outline as PAGE points. */
export async function handPage(hand: Hand, lines: string[]): Promise<{ png: Buffer; size: { width: number; height: number }; lines: PageLineSpec[] }> {
  const height = PAGE.firstTop * 2 + lines.length * PAGE.lineHeight;
  const text = lines
    .map((line, i) => {
      const baseline = PAGE.firstTop + i * PAGE.lineHeight + 52;
      return `<text x="${PAGE.left + 30}" y="${baseline}" font-family="${hand.font}" font-weight="${hand.weight}" letter-spacing="${hand.letterSpacing}" font-size="${PAGE.fontSize}" transform="translate(${-Math.tan((hand.slant * Math.PI) / 180) * baseline},0) skewX(${hand.slant})">${escape(line)}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${height}"><rect width="100%" height="100%" fill="#fbf7ee"/>${text}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const specs = lines.map((text, i) => {
    const top = PAGE.firstTop + i * PAGE.lineHeight;
    const right = PAGE.width - PAGE.left;
    const bottom = top + PAGE.lineBox;
    return { text, points: `${PAGE.left},${top} ${right},${top} ${right},${bottom} ${PAGE.left},${bottom}` };
  });
  return { png, size: { width: PAGE.width, height }, lines: specs };
}

/** Uploads a page of the hand with its PAGE layout into the set; gives the image and its lines. */
export async function uploadHandPage(app: FastifyInstance, auth: Record<string, string>, setId: string, label: string, hand: Hand, lines: string[]) {
  const page = await handPage(hand, lines);
  return uploadPageWithLines(app, auth, setId, label, page.lines, { size: page.size, png: page.png });
}

/** Lines of Latin charter text, a different few per page. */
export function charterLines(page: number, count = 5): string[] {
  const words = 'in nomine domini amen notum sit omnibus presentibus et futuris quod ego rex dedi et concessi vobis forum et consuetudines ville vestre'.split(' ');
  return Array.from({ length: count }, (_, i) => {
    const start = (page * 7 + i * 5) % words.length;
    return Array.from({ length: 6 }, (_, j) => words[(start + j) % words.length]).join(' ');
  });
}
