import { describe, expect, it } from 'vitest';
import { languageTag, mostCommonTag } from './epub-language.js';
import { paragraphsOf } from './epub-text.js';

describe('the text of an EPUB page', () => {
  const layout = {
    regions: [
      { id: 'r1', lines: [{ text: 'one' }, { text: 'two' }] },
      { id: 'r2', text: 'own text\nof a region', lines: [] },
      { id: 'r3', lines: [{ text: '   ' }] },
      { id: 'r4', lines: [{ text: 'three' }] },
    ],
    readingOrder: { kind: 'ordered', members: [{ kind: 'region', regionRef: 'r4' }, { kind: 'unordered', members: [{ kind: 'region', regionRef: 'r2' }] }] },
  };

  it('follows the reading order, then the regions it leaves out, and drops regions without text', () => {
    expect(paragraphsOf(layout, new Map())).toEqual([['three'], ['own text', 'of a region'], ['one', 'two']]);
  });

  it('shows the ground truth of a line by its index over the regions in layout order', () => {
    expect(paragraphsOf(layout, new Map([[1, 'zwei'], [3, 'drei']]))).toEqual([['drei'], ['own text', 'of a region'], ['one', 'zwei']]);
  });

  it('reads what is not a layout as an empty page', () => {
    expect(paragraphsOf(null, new Map())).toEqual([]);
    expect(paragraphsOf({ regions: 'no' }, new Map())).toEqual([]);
  });
});

describe('languages as BCP 47 tags', () => {
  it.each([
    ['Latin', 'la'],
    ['German', 'de'],
    ['lat', 'la'],
    ['deu_frak', 'de'],
    ['eng+nld', 'en'],
    ['dut', 'nl'],
    ['frk', 'frk'],
    ['Norwegian Bokmål', 'nb'],
  ])('%s is %s', (stored, tag) => expect(languageTag(stored)).toBe(tag));

  it.each([null, '', 'other', 'und', 'Klingonish'])('%s names no language', (stored) => expect(languageTag(stored)).toBeNull());

  it('takes the language most pages are in, and undetermined when none says', () => {
    expect(mostCommonTag(new Map([['la', 2], ['de', 3]]))).toBe('de');
    expect(mostCommonTag(new Map())).toBe('und');
  });
});
