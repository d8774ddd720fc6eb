import fs from 'node:fs/promises';
import type { ZipEntry } from '../../../modules/downloads/zip-stream.js';
import {
  CONTAINER_XML,
  type Chapter,
  chapterXhtml,
  colophonXhtml,
  type EpubItem,
  type EpubMetadata,
  navXhtml,
  packageOpf,
  styleCss,
  titleXhtml,
  type TitlePage,
} from './epub-documents.js';
import { mostCommonTag } from './epub-language.js';

/** The manuscript face of the web app (see its PROVENANCE.txt): MUFI characters need it. */
const FONT_DIR = new URL('../../../../../web/src/components/manuscript-text/', import.meta.url);

export interface EpubFont {
  woff2: Buffer;
  licence: string;
}

/** Junicode and its licence, or null when this installation lacks the web sources. */
export async function readEpubFont(): Promise<EpubFont | null> {
  try {
    const [woff2, licence] = await Promise.all([
      fs.readFile(new URL('junicode-regular.woff2', FONT_DIR)),
      fs.readFile(new URL('OFL.txt', FONT_DIR), 'utf8'),
    ]);
    return { woff2, licence };
  } catch {
    return null;
  }
}

/** One page of the book as the job made it: its chapter and, when it could be rendered, its image. */
export interface BookPage extends Omit<Chapter, 'image'> {
  jpeg: Buffer | null;
}

/**
 * The files of one EPUB 3, made in the order a zip writes them: the front matter, then each page
 * as it comes, then the navigation, colophon and package, which list every page before them.
 */
export class EpubBook {
  private readonly items: EpubItem[] = [];
  private readonly toc: { href: string; title: string }[] = [];
  private readonly languages = new Map<string, number>();
  private pages = 0;

  private readonly meta: Omit<EpubMetadata, 'language'>;

  /** `set`: what the title page and the package say of the image set; `made`: when the book is made. */
  constructor(
    private readonly set: TitlePage & { uuid: string },
    private readonly made: Date,
    private readonly font: EpubFont | null,
  ) {
    this.meta = {
      uuid: set.uuid,
      title: set.name,
      subtitle: set.prettyName && set.prettyName !== set.name ? set.prettyName : null,
      description: set.description,
      rights: set.license,
      modified: made,
    };
  }

  frontMatter(): ZipEntry[] {
    const entries = [
      this.entry('META-INF/container.xml', CONTAINER_XML),
      this.file({ id: 'style', href: 'style.css', mediaType: 'text/css' }, styleCss(this.font !== null)),
      this.file({ id: 'title', href: 'title.xhtml', mediaType: 'application/xhtml+xml', linear: 'yes' }, titleXhtml(this.set)),
    ];
    this.toc.push({ href: 'title.xhtml', title: this.meta.title });
    if (this.font) entries.push(this.file({ id: 'font', href: 'fonts/junicode-regular.woff2', mediaType: 'font/woff2' }, this.font.woff2, true));
    return entries;
  }

  page(page: BookPage): ZipEntry[] {
    this.pages += 1;
    const name = `page-${String(this.pages).padStart(4, '0')}`;
    const entries: ZipEntry[] = [];
    let image: Chapter['image'] = null;
    if (page.jpeg) {
      image = { href: `images/${name}.jpg`, alt: `The page image of ${page.title}` };
      entries.push(this.file({ id: `${name}-image`, href: image.href, mediaType: 'image/jpeg' }, page.jpeg, true));
    }
    const href = `${name}.xhtml`;
    entries.push(this.file({ id: name, href, mediaType: 'application/xhtml+xml', linear: 'yes' }, chapterXhtml({ ...page, image })));
    this.toc.push({ href, title: page.title });
    if (page.lang !== null) this.languages.set(page.lang, (this.languages.get(page.lang) ?? 0) + 1);
    return entries;
  }

  /** The last files: they list what came before, so they are made once every page has been. */
  backMatter(): ZipEntry[] {
    const colophon = this.file(
      { id: 'colophon', href: 'colophon.xhtml', mediaType: 'application/xhtml+xml', linear: 'no' },
      colophonXhtml(this.made, this.font?.licence ?? null),
    );
    const nav = this.file({ id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' }, navXhtml(this.meta.title, this.toc));
    const opf = this.entry('EPUB/package.opf', packageOpf({ ...this.meta, language: this.language }, this.items));
    return [colophon, nav, opf];
  }

  /** The language most pages are in: the book's dc:language. */
  get language(): string {
    return mostCommonTag(this.languages);
  }

  private file(item: EpubItem, content: string | Buffer, store = false): ZipEntry {
    this.items.push(item);
    return this.entry(`EPUB/${item.href}`, content, store);
  }

  private entry(name: string, content: string | Buffer, store = false): ZipEntry {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return { name, mtime: this.meta.modified, store, open: async () => bytes };
  }
}
