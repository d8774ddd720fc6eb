import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures.js';
import { parsePageXml } from './page-xml.js';

const NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15';
const KANT_PAGES = fixturePath('page/kant1784/data/OCR-D-GT-PAGE');

const page = (body: string, pageAttrs = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><PcGts xmlns="${NS}"><Metadata><Creator>T</Creator></Metadata>` +
  `<Page imageFilename="p.png" imageWidth="100" imageHeight="50"${pageAttrs}>${body}</Page></PcGts>`;
const region = (id: string, lines: string, attrs = '') => `<TextRegion id="${id}"${attrs}><Coords points="0,0 99,0 99,49 0,49"/>${lines}</TextRegion>`;
const line = (id: string, attrs = '') => `<TextLine id="${id}"${attrs}><Coords points="1,1 9,1 9,9"/><TextEquiv><Unicode>${id}</Unicode></TextEquiv></TextLine>`;

describe('PAGE import: words, glyphs, languages and reading order', () => {
  it('keeps Word and Glyph levels (id, coords, text, conf of the main TextEquiv) and the languages of each level', () => {
    const doc = parsePageXml(
      page(
        region(
          'r1',
          `<TextLine id="l1" primaryLanguage="Latin"><Coords points="1,1 60,1 60,9 1,9"/>` +
            `<Word id="w1" language="German"><Coords points="1,1 20,1 20,9 1,9"/>` +
            `<Glyph id="g1"><Coords points="1,1 9,1 9,9 1,9"/><TextEquiv><Unicode>ſ</Unicode></TextEquiv></Glyph>` +
            `<Glyph id="g2"><Coords points="10,1 20,1 20,9 10,9"/><TextEquiv index="2"><Unicode>x</Unicode></TextEquiv><TextEquiv index="1" conf="0.5"><Unicode>&amp;</Unicode></TextEquiv></Glyph>` +
            `<TextEquiv conf="0.875"><Unicode>ſ&amp;</Unicode></TextEquiv></Word>` +
            `<Word id="w2"><Coords points="30,1 60,1 60,9 30,9"/><TextEquiv><Unicode>c</Unicode></TextEquiv></Word>` +
            `<TextEquiv><Unicode>ſ&amp; c</Unicode></TextEquiv></TextLine>` +
            `<TextEquiv><Unicode>region text</Unicode></TextEquiv>`,
          ' type="paragraph" primaryLanguage="German"',
        ),
      ),
    );
    expect(doc.regions).toEqual([
      {
        id: 'r1',
        type: 'paragraph',
        coords: '0,0 99,0 99,49 0,49',
        language: 'German',
        text: 'region text',
        lines: [
          {
            id: 'l1',
            coords: '1,1 60,1 60,9 1,9',
            baseline: null,
            text: 'ſ& c',
            language: 'Latin',
            words: [
              {
                id: 'w1',
                coords: '1,1 20,1 20,9 1,9',
                text: 'ſ&',
                confidence: 0.875,
                language: 'German',
                glyphs: [
                  { id: 'g1', coords: '1,1 9,1 9,9 1,9', text: 'ſ' },
                  { id: 'g2', coords: '10,1 20,1 20,9 10,9', text: '&' },
                ],
              },
              { id: 'w2', coords: '30,1 60,1 60,9 30,9', text: 'c', confidence: null, language: null, glyphs: [] },
            ],
          },
        ],
      },
    ]);
  });

  it('keeps the ReadingOrder: nested ordered and unordered groups, members of ordered groups by their index', () => {
    const doc = parsePageXml(
      page(
        `<ReadingOrder><OrderedGroup id="ro" caption="Regions reading order">` +
          `<RegionRefIndexed index="2" regionRef="r3"/>` +
          `<UnorderedGroupIndexed index="1" id="side" type="other"><RegionRef regionRef="r2"/><OrderedGroup id="inner" regionRef="r2"><RegionRefIndexed index="0" regionRef="r4"/></OrderedGroup></UnorderedGroupIndexed>` +
          `<RegionRefIndexed index="0" regionRef="r1"/>` +
          `</OrderedGroup></ReadingOrder>` +
          ['r1', 'r2', 'r3', 'r4'].map((id) => region(id, '')).join(''),
      ),
    );
    const ref = (regionRef: string, index: number | null) => ({ kind: 'region', regionRef, index });
    expect(doc.readingOrder).toEqual({
      kind: 'ordered',
      id: 'ro',
      caption: 'Regions reading order',
      type: null,
      regionRef: null,
      index: null,
      members: [
        ref('r1', 0),
        {
          kind: 'unordered',
          id: 'side',
          caption: null,
          type: 'other',
          regionRef: null,
          index: 1,
          members: [ref('r2', null), { kind: 'ordered', id: 'inner', caption: null, type: null, regionRef: 'r2', index: null, members: [ref('r4', 0)] }],
        },
        ref('r3', 2),
      ],
    });
    expect(parsePageXml(page(region('r1', ''))).readingOrder).toBeNull();
  });

  it('takes the language from Page@primaryLanguage, else the one most regions declare, else most lines, as written', () => {
    const regions = region('a', line('a1'), ' primaryLanguage="Latin"') + region('b', line('b1', ' primaryLanguage="Dutch"'), ' primaryLanguage="German"') + region('c', line('c1'), ' primaryLanguage="German"');
    expect(parsePageXml(page(regions, ' primaryLanguage="Old Church Slavonic"')).language).toBe('Old Church Slavonic');
    expect(parsePageXml(page(regions)).language).toBe('German');
    // A tie goes to the language declared first.
    expect(parsePageXml(page(region('a', '', ' primaryLanguage="Latin"') + region('b', '', ' primaryLanguage="German"'))).language).toBe('Latin');
    const lines = region('a', line('a1', ' primaryLanguage="Latin"') + line('a2', ' primaryLanguage="German"') + line('a3', ' primaryLanguage="German"'));
    expect(parsePageXml(page(lines)).language).toBe('German');
    expect(parsePageXml(page(region('a', line('a1')))).language).toBeNull();
  });

  it.skipIf(!fs.existsSync(KANT_PAGES))('reads every Word of the kant1784 pages with its id, text and language, German as the page language', () => {
    for (const [file, count] of [['PAGE_0017_PAGE.xml', 161], ['PAGE_0020_PAGE.xml', 258]] as const) {
      const xml = fs.readFileSync(path.join(KANT_PAGES, file), 'utf8');
      // The file's own words, found by pattern rather than by the reader under test.
      const expected = [...xml.matchAll(/<Word\b([^>]*)>[\s\S]*?<Unicode>([^<]*)<\/Unicode>[\s\S]*?<\/Word>/g)].map(([, attrs, text]) => ({
        id: /\bid="([^"]+)"/.exec(attrs!)![1],
        text,
        language: /\blanguage="([^"]+)"/.exec(attrs!)?.[1] ?? null,
      }));
      expect(expected).toHaveLength(count);
      const doc = parsePageXml(xml);
      const words = doc.regions.flatMap((r) => r.lines.flatMap((l) => l.words ?? []));
      expect(words.map((w) => ({ id: w.id, text: w.text, language: w.language }))).toEqual(expected);
      expect(words.every((w) => w.coords)).toBe(true);
      expect(doc.language).toBe('German');
      expect(doc.readingOrder?.members.map((m) => (m.kind === 'region' ? m.regionRef : null))).toEqual([...xml.matchAll(/regionRef="([^"]+)"/g)].map((m) => m[1]));
    }
  });
});
