/** PAGE and ALTO files for the XML reading tests, as text: each test encodes them into the bytes it needs. */

export const PAGE_2013_NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15';

export interface XmlOptions {
  /** The XML declaration; `<?xml version="1.0" encoding="UTF-8"?>` unless told ('' for none). */
  declaration?: string;
}

const declarationOf = (options: XmlOptions) => options.declaration ?? '<?xml version="1.0" encoding="UTF-8"?>';

/** One PAGE TextLine; its id and text as given (text is inserted as markup, so escape it yourself). */
export function pageLine(id: string, text: string): string {
  return (
    `<TextLine id="${id}"><Coords points="10,10 190,10 190,40 10,40"/><Baseline points="10,35 190,35"/>` +
    `<TextEquiv><Unicode>${text}</Unicode></TextEquiv></TextLine>`
  );
}

/** A PAGE 2013 file naming `imageFilename`, with one text region holding `body` (TextLines, usually). */
export function pageXml(imageFilename: string, body: string, options: XmlOptions = {}): string {
  return (
    `${declarationOf(options)}<PcGts xmlns="${PAGE_2013_NS}"><Metadata><Creator>Test</Creator></Metadata>` +
    `<Page imageFilename="${imageFilename}" imageWidth="60" imageHeight="40"><TextRegion id="r1"><Coords points="0,0 60,0 60,40"/>` +
    `${body}</TextRegion></Page></PcGts>`
  );
}

/** A PAGE file of `count` lines ("Line 1", ...), built as one string: 100,000 lines make over 20 MB. */
export function largePageXml(imageFilename: string, count: number): Buffer {
  const lines = Array.from({ length: count }, (_, i) => pageLine(`line_${i + 1}`, `Line ${i + 1} of a long page, with some more text to read`));
  return Buffer.from(pageXml(imageFilename, lines.join('\n')));
}

/** An ALTO v3 file for `fileName`, one line whose words are `words` (CONTENT values, escaped by the caller). */
export function altoXml(fileName: string, words: string[], options: XmlOptions = {}): string {
  const strings = words.map((w, i) => `<String ID="s${i}" CONTENT="${w}" HPOS="${i * 10}" VPOS="2" WIDTH="9" HEIGHT="10"/>`).join('<SP/>');
  return (
    `${declarationOf(options)}<alto xmlns="http://www.loc.gov/standards/alto/ns-v3#"><Description><MeasurementUnit>pixel</MeasurementUnit>` +
    `<sourceImageInformation><fileName>${fileName}</fileName></sourceImageInformation></Description>` +
    `<Layout><Page ID="p1" WIDTH="60" HEIGHT="40"><PrintSpace><TextBlock ID="b1">` +
    `<TextLine ID="l1" HPOS="0" VPOS="2" WIDTH="60" HEIGHT="10">${strings}</TextLine></TextBlock></PrintSpace></Page></Layout></alto>`
  );
}

/** A PAGE file whose deepest element is `depth` (at least 6) levels down: text regions in text regions, as PAGE allows. */
export function nestedPageXml(imageFilename: string, depth: number): string {
  // PcGts > Page > TextRegion, then the nested regions, then TextLine > TextEquiv > Unicode.
  const inner = depth - 6;
  const body = '<TextRegion>'.repeat(inner) + pageLine('deep', 'Deep') + '</TextRegion>'.repeat(inner);
  return pageXml(imageFilename, body);
}
