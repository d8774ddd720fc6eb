import sharp from 'sharp';
import type { FileStore } from '../../platform/storage/file-store.js';
import { TesseractError, tesseractLanguages } from '../../platform/tesseract/cli.js';
import type { WorkerPool } from '../../platform/threads/worker-pool.js';
import type { GreyPage } from './ink.js';
import { decodePage, type PixelFacts } from './page-pixels.js';
import type { PageLayout } from './page-layout.js';
import { readPageText, type TextFindings } from './page-text.js';

/** The layout is found on the page downscaled to at most this many pixels on its longer side. */
const LAYOUT_SIDE = 1600;
/** The layout analysis runs in a worker thread: it is a few tens of milliseconds of pure CPU. */
const PAGE_LAYOUT = new URL('./page-layout.js', import.meta.url);
/** Tesseract is stopped after this long on one crop: the description goes on without it. */
const TESSERACT_TIMEOUT_MS = 30_000;

/** What the built-in analysis finds in the pixels of one page. */
export interface PageDescription {
  pixels: PixelFacts;
  blank: boolean;
  /** The text lines and columns found, and the skew of the lines (null without lines). */
  lines: number;
  columns: number;
  skewDegrees: number | null;
  /** What Tesseract read; null on a blank page, a page without lines, or without Tesseract. */
  text: TextFindings | null;
  /** Why nothing was read with Tesseract although the page has lines (not installed, failed, too slow). */
  textUnavailable: string | null;
}

export interface DescribeOptions {
  /** The words are known already: only orientation and script are asked of Tesseract. */
  withoutWords: boolean;
}

/**
 * The built-in description of a page, from its pixels (sharp) and Tesseract, with no setup: the
 * image decoded once into grey, its layout found in a worker thread, and only crops of a few
 * lines given to Tesseract. When Tesseract is sure the page is turned, the page is turned upright
 * and looked at again, once.
 */
export class PageDescriber {
  constructor(
    private readonly threads: WorkerPool,
    private readonly files: FileStore,
    /** The upload's pixel limit, which the image was checked against already. */
    private readonly maxPixels: number,
  ) {}

  async describe(imagePath: string, options: DescribeOptions): Promise<PageDescription> {
    const decoded = await decodePage(imagePath, this.maxPixels);
    let grey = decoded.grey;
    let layout = await this.layout(grey);
    const base = { pixels: decoded.facts, blank: layout.blank, textUnavailable: null };
    if (layout.blank) return { ...base, ...summary(layout), text: null };
    const workDir = await this.files.makeWorkDir('describe');
    try {
      let text = await this.read(grey, layout, workDir, options);
      if (typeof text === 'string') return { ...base, ...summary(layout), text: null, textUnavailable: text };
      const turned = text?.orientation?.turnedDegrees ?? 0;
      if (text && turned !== 0) {
        // Read again upright; the turn found the first time is what the page is.
        grey = await turn(grey, 360 - turned);
        layout = await this.layout(grey);
        const upright = await this.read(grey, layout, workDir, options);
        if (upright && typeof upright !== 'string') text = { ...upright, orientation: text.orientation, script: upright.script ?? text.script };
      }
      return { ...base, ...summary(layout), text };
    } finally {
      await this.files.removeWorkDir(workDir);
    }
  }

  private async layout(grey: GreyPage): Promise<PageLayout> {
    const { data, info } = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
      .resize(LAYOUT_SIDE, LAYOUT_SIDE, { fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const page: GreyPage = { data: new Uint8Array(data), width: info.width, height: info.height };
    return this.threads.run<PageLayout>({ module: PAGE_LAYOUT, fn: 'analysePageLayout', args: [page], transfer: [page.data.buffer as ArrayBuffer] });
  }

  /**
   * Tesseract's findings, or why there are none (a sentence): Tesseract is not installed, failed
   * on the crops, or ran out of time. The rest of the description stands without them.
   */
  private async read(grey: GreyPage, layout: PageLayout, workDir: string, options: DescribeOptions): Promise<TextFindings | null | string> {
    try {
      const models = await tesseractLanguages();
      return await readPageText(grey, layout, workDir, { ...options, models, signal: AbortSignal.timeout(TESSERACT_TIMEOUT_MS) });
    } catch (err) {
      if (err instanceof TesseractError) return err.message;
      if (err instanceof DOMException && err.name === 'TimeoutError') return `Tesseract took longer than ${TESSERACT_TIMEOUT_MS / 1000} s and was stopped.`;
      throw err;
    }
  }
}

function summary(layout: PageLayout) {
  return {
    lines: layout.columns.reduce((n, c) => n + c.lines.length, 0),
    columns: layout.columns.length,
    skewDegrees: layout.skewDegrees,
  };
}

/** The grey page turned clockwise by a multiple of 90 degrees. */
async function turn(grey: GreyPage, degrees: number): Promise<GreyPage> {
  const { data, info } = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
    .rotate(degrees)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}
