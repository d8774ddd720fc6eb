import { escapeAttr, escapeText } from '../../../modules/downloads/page-xml-text.js';
import type { Paragraph } from './epub-text.js';

/** The OCF files of an EPUB 3 and the XHTML of its pages, as text. */

export const CONTAINER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

/** One file of the publication (under EPUB/), as the package lists it. */
export interface EpubItem {
  id: string;
  href: string;
  mediaType: string;
  properties?: string;
  /** In the reading order: 'yes' in the main flow, 'no' as auxiliary content at the end; absent: not in the spine. */
  linear?: 'yes' | 'no';
}

export interface EpubMetadata {
  /** The image set's uuid: dc:identifier urn:uuid:… */
  uuid: string;
  title: string;
  subtitle: string | null;
  description: string | null;
  rights: string | null;
  language: string;
  modified: Date;
}

const xml = (text: string) => escapeText(text);
const attr = (text: string) => escapeAttr(text);

/** dcterms:modified wants CCYY-MM-DDThh:mm:ssZ, without fractions of a second. */
const modifiedOf = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

export function packageOpf(meta: EpubMetadata, items: EpubItem[]): string {
  const optional = [
    meta.subtitle === null ? '' : `<dc:title id="sub-title">${xml(meta.subtitle)}</dc:title><meta refines="#sub-title" property="title-type">subtitle</meta>`,
    meta.description === null ? '' : `<dc:description>${xml(meta.description)}</dc:description>`,
    meta.rights === null ? '' : `<dc:rights>${xml(meta.rights)}</dc:rights>`,
  ].filter(Boolean);
  const manifest = items.map(
    (i) => `    <item id="${attr(i.id)}" href="${attr(i.href)}" media-type="${attr(i.mediaType)}"${i.properties ? ` properties="${attr(i.properties)}"` : ''}/>`,
  );
  const spine = items
    .filter((i) => i.linear !== undefined)
    .map((i) => `    <itemref idref="${attr(i.id)}"${i.linear === 'no' ? ' linear="no"' : ''}/>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="${attr(meta.language)}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="pub-id">urn:uuid:${attr(meta.uuid)}</dc:identifier>
    <dc:title id="main-title">${xml(meta.title)}</dc:title><meta refines="#main-title" property="title-type">main</meta>
    <dc:language>${xml(meta.language)}</dc:language>
    ${optional.join('\n    ')}
    <meta property="dcterms:modified">${modifiedOf(meta.modified)}</meta>
  </metadata>
  <manifest>
${manifest.join('\n')}
  </manifest>
  <spine>
${spine.join('\n')}
  </spine>
</package>
`;
}

/** An XHTML content document; `lang` is its text's language, when known. */
function xhtml(title: string, lang: string | null, body: string): string {
  const langAttrs = lang === null ? '' : ` xml:lang="${attr(lang)}" lang="${attr(lang)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"${langAttrs}>
<head>
<meta charset="utf-8"/>
<title>${xml(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Text with line breaks as paragraphs: a blank line between paragraphs, single breaks kept. */
function textParagraphs(text: string, className?: string): string {
  const cls = className ? ` class="${className}"` : '';
  return text
    .split(/(?:\r\n|\r|\n)\s*(?:\r\n|\r|\n)/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p${cls}>${p.split(/\r\n|\r|\n/).map(xml).join('<br/>')}</p>`)
    .join('\n');
}

export interface TitlePage {
  name: string;
  prettyName: string | null;
  description: string | null;
  license: string | null;
  pages: number;
}

export function titleXhtml(t: TitlePage): string {
  const parts = [
    `<section epub:type="titlepage" class="titlepage">`,
    `<h1>${xml(t.name)}</h1>`,
    t.prettyName === null ? '' : `<p class="subtitle">${xml(t.prettyName)}</p>`,
    t.description === null ? '' : textParagraphs(t.description, 'description'),
    t.license === null ? '' : `<p class="license">Licence: ${xml(t.license)}</p>`,
    `<p class="pages">${t.pages === 1 ? '1 page' : `${t.pages} pages`}</p>`,
    `</section>`,
  ];
  return xhtml(t.name, null, parts.filter(Boolean).join('\n'));
}

export interface Chapter {
  /** The image's label: the chapter's heading and its name in the table of contents. */
  title: string;
  lang: string | null;
  image: { href: string; alt: string } | null;
  /** Null: the image has no transcription. */
  paragraphs: Paragraph[] | null;
}

export function chapterXhtml(c: Chapter): string {
  const text =
    c.paragraphs === null
      ? '<p class="no-text">This page has no transcription.</p>'
      : c.paragraphs.length === 0
        ? '<p class="no-text">No text was found on this page.</p>'
        : c.paragraphs.map((lines) => `<p class="region">${lines.map(xml).join('<br/>')}</p>`).join('\n');
  const figure = c.image === null ? '' : `<figure class="page-image"><img src="${attr(c.image.href)}" alt="${attr(c.image.alt)}"/></figure>\n`;
  return xhtml(c.title, c.lang, `<section epub:type="chapter">\n<h1>${xml(c.title)}</h1>\n${figure}${text}\n</section>`);
}

export function navXhtml(title: string, entries: { href: string; title: string }[]): string {
  const items = entries.map((e) => `<li><a href="${attr(e.href)}">${xml(e.title)}</a></li>`).join('\n');
  return xhtml(title, null, `<nav epub:type="toc" id="toc">\n<h1>Contents</h1>\n<ol>\n${items}\n</ol>\n</nav>`);
}

/** The colophon: what made the book, and the font's licence, which the OFL asks to travel with it. */
export function colophonXhtml(made: Date, fontLicence: string | null): string {
  const font =
    fontLicence === null
      ? ''
      : `<p>The text is set in Junicode by Peter S. Baker, under the SIL Open Font License 1.1:</p>\n<pre class="licence">${xml(fontLicence)}</pre>`;
  return xhtml('Colophon', null, `<section epub:type="colophon">\n<h1>Colophon</h1>\n<p>Made with PIM on ${made.toISOString().slice(0, 10)} from the transcriptions of the image set.</p>\n${font}\n</section>`);
}

export function styleCss(embeddedFont: boolean): string {
  const face = embeddedFont ? '@font-face { font-family: "Junicode"; src: url("fonts/junicode-regular.woff2") format("woff2"); }\n' : '';
  return `${face}body { font-family: "Junicode", "Palemonas MUFI", "Andron Scriptor Web", serif; line-height: 1.4; }
h1 { font-size: 1.4em; }
.titlepage { text-align: center; margin-top: 20%; }
.titlepage h1 { font-size: 2em; }
.titlepage .description { text-align: left; }
.subtitle { font-size: 1.2em; font-style: italic; }
.page-image { margin: 1em 0; text-align: center; }
.page-image img { max-width: 100%; max-height: 90vh; }
.region { margin: 0 0 1em 0; }
.no-text { font-style: italic; }
.licence { white-space: pre-wrap; font-family: serif; font-size: 0.8em; }
`;
}
