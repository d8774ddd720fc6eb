import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/errors.js';
import type { ExportPage } from '../../modules/downloads/service.js';
import { streamZip, type ZipEntry } from '../../modules/downloads/zip-stream.js';
import type { Executor, JobContext } from '../executor.js';
import { jobPrincipal, jobSetId } from '../job-owner.js';
import { outputFileName } from '../output-name.js';
import { type BookPage, EpubBook, readEpubFont } from './epub/epub-book.js';
import { languageTag } from './epub/epub-language.js';
import { paragraphsOf } from './epub/epub-text.js';

/** Pages made ahead of the zip writer: their images are held in memory until written. */
const PAGES_AHEAD = 10;
/**
 * The page image beside each chapter: large enough to read the page against its text on a
 * reader's screen, small enough that a book of a thousand pages stays a download (about 100 KB
 * a page). Full scans belong in the image zip.
 */
const PAGE_IMAGE_SIZE = '!1000,1000';

/**
 * Epubify (and PipelineKB2, the image set page's 'Create Epub'): an EPUB 3 of the set's
 * transcriptions for its owner to download. A title page from the set's fields, then one chapter
 * per image in the set's order, headed by its label, with a small page image and the text of the
 * transcription the PAGE export writes (imported from PAGE first, then the newest), ground truth
 * where people corrected a line; then a colophon and the navigation. Running it again makes the
 * whole book again.
 */
export const epubify: Executor = async (ctx) => {
  const owner = jobPrincipal(ctx);
  const setId = jobSetId(ctx);
  const set = await ctx.services.imageSets.get(owner, setId);
  const { total, batches } = await ctx.services.downloads.exportPages(owner, setId);
  if (total === 0) throw badRequest(`The image set ${set.name} has no images to put in an EPUB: add images first.`);
  const font = await readEpubFont();
  if (!font) ctx.log.warn('The Junicode font was not found beside the server, so the EPUB names it without embedding it.');
  const made = new Date();
  const description = set.description?.trim() || null;
  const book = new EpubBook({ uuid: set.id, name: set.name, prettyName: set.prettyName, description, license: set.license, pages: total }, made, font);
  const counts: EpubCounts = { pages: 0, withText: 0, withoutTranscription: 0, imagesLeftOut: 0 };
  const pages = flatten(batches);
  let stage: 'front' | 'pages' | 'back' | 'done' = 'front';

  const nextBatch = async (): Promise<ZipEntry[]> => {
    if (stage === 'front') {
      stage = 'pages';
      await ctx.progress(0, total, 'Writing the EPUB');
      return book.frontMatter();
    }
    if (stage === 'pages') {
      const entries: ZipEntry[] = [];
      for (let i = 0; i < PAGES_AHEAD; i += 1) {
        ctx.signal.throwIfAborted();
        const next = await pages.next();
        if (next.done) {
          stage = 'back';
          break;
        }
        entries.push(...book.page(await bookPage(ctx, owner, next.value, counts)));
        await ctx.progress(counts.pages, total, `Page ${counts.pages} of ${total}`);
      }
      if (entries.length > 0) return entries;
    }
    if (stage === 'back') {
      stage = 'done';
      return book.backMatter();
    }
    return [];
  };

  const target = path.join(ctx.workDir, 'book.epub');
  const mimetype = { name: 'mimetype', bytes: Buffer.from('application/epub+zip', 'ascii'), mtime: made };
  await pipeline(streamZip(nextBatch, { first: mimetype }), fs.createWriteStream(target));
  ctx.note({ ...counts, language: book.language, fontEmbedded: font !== null });
  await ctx.output({ path: target, fileName: outputFileName(set.name, '.epub'), mediaType: 'application/epub+zip' });
};

/** What the job's record says of the book: pages, those with text or without a transcription, images left out. */
interface EpubCounts {
  pages: number;
  withText: number;
  withoutTranscription: number;
  imagesLeftOut: number;
}

/** One image's chapter: its text and its page image (left out, and counted, when it cannot be rendered). */
async function bookPage(ctx: JobContext, owner: Principal, { image, transcription }: ExportPage, counts: EpubCounts): Promise<BookPage> {
  counts.pages += 1;
  const paragraphs = transcription ? paragraphsOf(transcription.layout, transcription.groundTruth) : null;
  if (paragraphs === null) counts.withoutTranscription += 1;
  else if (paragraphs.length > 0) counts.withText += 1;
  let jpeg: Buffer | null = null;
  try {
    const parts = { region: 'full', size: PAGE_IMAGE_SIZE, rotation: '0', qualityFormat: 'default.jpg' };
    jpeg = (await ctx.services.iiif.render(owner, image.id, parts)).bytes;
  } catch (err) {
    counts.imagesLeftOut += 1;
    ctx.log.warn(`The page image of ${image.label} (${image.id}) was left out of the EPUB: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    title: image.label.trim() || `Page ${counts.pages}`,
    lang: languageTag(transcription?.language ?? null),
    paragraphs,
    jpeg,
  };
}

async function* flatten<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}
