import { runTesseract } from './cli.js';

/** Which model Tesseract reads with: a language of its own tessdata, or one in `tessdataDir`. */
export interface TesseractModel {
  /** The traineddata's name without extension ("eng", "nld"). */
  language: string;
  /** A folder holding `<language>.traineddata`; absent: Tesseract's own tessdata. */
  tessdataDir?: string;
}

/**
 * The settings are given with -c rather than by config name ("hocr", "tsv"): config files are
 * looked up in the tessdata folder, which for an uploaded model is our own and has none.
 */
function modelArgs(model: TesseractModel): string[] {
  return ['-l', model.language, ...(model.tessdataDir ? ['--tessdata-dir', model.tessdataDir] : [])];
}

/** A whole page read with Tesseract's automatic layout analysis, as hOCR (XHTML). */
export async function recognisePage(imagePath: string, model: TesseractModel, signal?: AbortSignal): Promise<string> {
  const args = [imagePath, '-', ...modelArgs(model), '-c', 'tessedit_create_hocr=1', '-c', 'hocr_font_info=0'];
  const { stdout } = await runTesseract(args, signal);
  return stdout.toString('utf8');
}

/**
 * Images of single text lines (one path per line of `listPath`) read in one run, each as one
 * line (--psm 7): loading the model once for a page's lines rather than once per line. Answers
 * Tesseract's TSV, whose page_num is the line's place in the list (1-based).
 */
export async function recogniseLines(listPath: string, model: TesseractModel, signal?: AbortSignal): Promise<string> {
  const args = [listPath, '-', '--psm', '7', ...modelArgs(model), '-c', 'tessedit_create_tsv=1'];
  const { stdout } = await runTesseract(args, signal);
  return stdout.toString('utf8');
}

/**
 * Images of short blocks of text (one path per block in `listPath`), each read as one uniform
 * block (--psm 6) in one run, at `dpi`. Answers Tesseract's TSV, whose page_num is the block's
 * place in the list (1-based).
 */
export async function recogniseBlocks(listPath: string, model: TesseractModel, dpi: number, signal?: AbortSignal): Promise<string> {
  const args = [listPath, '-', '--psm', '6', '--dpi', String(Math.round(dpi)), ...modelArgs(model), '-c', 'tessedit_create_tsv=1'];
  const { stdout } = await runTesseract(args, signal);
  return stdout.toString('utf8');
}

/** A word Tesseract found: its box in the pixels of the image it read, and its confidence 0..100. */
export interface TsvWord {
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number | null;
  text: string;
}

const WORD_LEVEL = '5';

/** The words of each image of a TSV (index 0: page_num 1), `images` lists long; images without words get none. */
export function wordsOfTsv(tsv: string, images: number): TsvWord[][] {
  const pages: TsvWord[][] = Array.from({ length: images }, () => []);
  for (const row of tsv.split('\n')) {
    const cells = row.replace(/\r$/, '').split('\t');
    if (cells.length < 12 || cells[0] !== WORD_LEVEL) continue;
    const page = Number(cells[1]) - 1;
    const text = cells.slice(11).join('\t').trim();
    if (!text || !(page >= 0 && page < images)) continue;
    const [left, top, width, height, conf] = cells.slice(6, 11).map(Number) as [number, number, number, number, number];
    pages[page]!.push({ left, top, width, height, confidence: conf >= 0 ? conf : null, text });
  }
  return pages;
}
