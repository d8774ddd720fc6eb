/** A PAGE 2019 page (valid against the XSD) with glyphs, nested reading order groups and a separator. */
export function pageWithGlyphs(imageFilename: string): Buffer {
  const glyph = (id: string, x: number, text: string) =>
    `<Glyph id="${id}"><Coords points="${x},10 ${x + 4},10 ${x + 4},18 ${x},18"/><TextEquiv conf="0.9"><Unicode>${text}</Unicode></TextEquiv></Glyph>`;
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"><Metadata><Creator>Test</Creator>` +
      `<Created>2020-01-01T00:00:00</Created><LastChange>2020-01-01T00:00:00</LastChange></Metadata>` +
      `<Page imageFilename="${imageFilename}" imageWidth="60" imageHeight="40" primaryLanguage="Latin">` +
      `<ReadingOrder><OrderedGroup id="ro" caption="Regions">` +
      `<RegionRefIndexed index="0" regionRef="head"/>` +
      `<UnorderedGroupIndexed index="1" id="notes" type="other"><RegionRef regionRef="note"/><UnorderedGroup id="lines-only"><RegionRef regionRef="sep"/></UnorderedGroup></UnorderedGroupIndexed>` +
      `<OrderedGroupIndexed index="2" id="body"><RegionRefIndexed index="0" regionRef="main"/><RegionRefIndexed index="1" regionRef="sep"/></OrderedGroupIndexed>` +
      `</OrderedGroup></ReadingOrder>` +
      `<TextRegion id="head" type="heading" primaryLanguage="German"><Coords points="0,0 59,0 59,8 0,8"/>` +
      `<TextLine id="head-l"><Coords points="1,1 50,1 50,7 1,7"/><TextEquiv><Unicode>Kapitel</Unicode></TextEquiv></TextLine>` +
      `<TextEquiv><Unicode>Kapitel</Unicode></TextEquiv></TextRegion>` +
      `<TextRegion id="main" type="paragraph"><Coords points="0,9 59,9 59,30 0,30"/>` +
      `<TextLine id="main-l" primaryLanguage="Latin"><Coords points="1,10 50,10 50,18 1,18"/><Baseline points="1,17 50,17"/>` +
      `<Word id="w1" language="Latin"><Coords points="1,10 14,10 14,18 1,18"/>${glyph('w1-g1', 1, 'ꝑ')}${glyph('w1-g2', 6, '&amp;')}` +
      `<TextEquiv conf="0.75"><Unicode>ꝑ&amp;</Unicode></TextEquiv></Word>` +
      `<Word id="w2"><Coords points="20,10 50,10 50,18 20,18"/>${glyph('w2-g1', 20, 'q̄')}<TextEquiv><Unicode>q̄</Unicode></TextEquiv></Word>` +
      `<TextEquiv><Unicode>ꝑ&amp; q̄</Unicode></TextEquiv></TextLine></TextRegion>` +
      `<TextRegion id="note" type="marginalia"><Coords points="0,31 59,31 59,39 0,39"/>` +
      `<TextLine id="note-l"><Coords points="1,32 50,32 50,38 1,38"/><TextEquiv><Unicode>nota</Unicode></TextEquiv></TextLine></TextRegion>` +
      `<SeparatorRegion id="sep"><Coords points="0,30 59,30 59,31 0,31"/></SeparatorRegion>` +
      `</Page></PcGts>`,
  );
}
