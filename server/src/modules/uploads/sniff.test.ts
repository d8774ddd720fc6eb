import { describe, expect, it } from 'vitest';
import { altoNumber } from './alto-xml.js';
import { titleProperties } from './hocr.js';
import { readProlog, sniff, xmlDialect } from './sniff.js';

const utf16 = (text: string, order: 'le' | 'be', bom: boolean) => {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le).swap16();
  return Buffer.concat([bom ? Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : Buffer.alloc(0), bytes]);
};

/**
 * Prologs that made the old root-sniffing expression backtrack exponentially: each `<?a?>` could
 * end at its own `?>` or at any later one, so a file without a root tried every split (seconds for
 * these 160 bytes, hours for 212).
 */
const PATHOLOGICAL_PROLOGS = [
  `<?xml version="1.0"?>${'<?a?>'.repeat(28)}!`,
  `<?xml version="1.0"?>${'<!---->'.repeat(28)}!`,
  `<?xml version="1.0"?>${'<!DOCTYPE a[]>'.repeat(28)}!`,
  `<?xml version="1.0"?>${'<?'.repeat(100_000)}`,
  `<?xml version="1.0"?>${'<!--'.repeat(100_000)}`,
  `<?xml version="1.0"?><!DOCTYPE a ${'['.repeat(100_000)}`,
];

describe('sniffing XML', () => {
  it('recognises XML in UTF-8 (with or without a BOM) and in UTF-16 of either byte order, with or without a BOM', () => {
    const xml = '<?xml version="1.0" encoding="UTF-16"?><PcGts/>';
    for (const head of [
      Buffer.from(xml),
      Buffer.from(`\uFEFF  \n${xml}`),
      utf16(xml, 'le', true),
      utf16(xml, 'be', true),
      utf16(xml, 'le', false),
      utf16(xml, 'be', false),
      utf16('<alto/>', 'le', true),
    ]) {
      expect(sniff(head.subarray(0, 64)), head.toString('hex')).toEqual({ kind: 'xml', mediaType: 'application/xml' });
    }
    expect(sniff(Buffer.from('hello <PcGts/>'))).toBeNull();
    expect(sniff(utf16('hello', 'le', true))).toBeNull();
  });

  it('finds the root element past the declaration, processing instructions, comments and a DOCTYPE', () => {
    expect(xmlDialect('<?xml version="1.0"?>\n<!-- a > b -->\n<?pi x > y?><PcGts xmlns="x"/>')).toBe('page');
    expect(xmlDialect('<!DOCTYPE alto [ <!ENTITY e "]>"> <!-- ]> --> ]>\n<alto>')).toBe('alto');
    expect(xmlDialect('<!DOCTYPE x SYSTEM "a>b" >  <pc:PcGts xmlns:pc="x">')).toBe('page');
    expect(xmlDialect('<html><body class="ocr_page"/></html>')).toBe('hocr');
    expect(xmlDialect('<html><body/></html>')).toBeNull();
    expect(xmlDialect('<?xml version="1.0"?><Other/>')).toBeNull();
    for (const unfinished of ['<?xml version="1.0"', '<!-- no end', '<!DOCTYPE a [', '', '   ', 'text']) {
      expect(readProlog(unfinished).root, unfinished).toBeNull();
    }
    const xml = '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x.dtd">\n<html/>';
    const { doctype } = readProlog(xml);
    expect(doctype && xml.slice(doctype.start, doctype.end)).toBe('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x.dtd">');
  });

  it('reads hOCR titles and ALTO numbers as before', () => {
    expect([...titleProperties(' image "a; b.png" ;bbox 0 0 10 20;  x_wconf   93 ; ppageno 0;;')]).toEqual([
      ['image', '"a; b.png"'],
      ['bbox', '0 0 10 20'],
      ['x_wconf', '93'],
      ['ppageno', '0'],
    ]);
    expect(['12', ' -1.5 ', '.5', '3.', '2e3', '1.5E-2'].map(altoNumber)).toEqual([12, -1.5, 0.5, 3, 2000, 0.015]);
    expect(['', ' ', '1.2.3', 'e3', '1e', '+', '12px', null].map(altoNumber)).toEqual([null, null, null, null, null, null, null, null]);
  });

  // The one timed test: these inputs took seconds (or hours) with the old expressions.
  it('answers pathological inputs within 100 ms', () => {
    // The fastest of three: it measures the code, not a busy machine's worst moment.
    const timed = (label: string, work: () => unknown) => {
      const times = [0, 1, 2].map(() => {
        const start = performance.now();
        work();
        return performance.now() - start;
      });
      expect(Math.min(...times), label).toBeLessThan(100);
    };
    for (const [i, prolog] of PATHOLOGICAL_PROLOGS.entries()) {
      timed(`prolog ${i}`, () => expect(xmlDialect(prolog)).toBeNull());
      timed(`sniff ${i}`, () => expect(sniff(Buffer.from(prolog).subarray(0, 64))?.kind).toBe('xml'));
    }
    // A lazy group before `\s*$` went quadratic over a long run of spaces inside a title property.
    timed('hOCR title', () => expect(titleProperties(`bbox${' '.repeat(100_000)}1${' '.repeat(100_000)}x`).get('bbox')).toMatch(/^1 +x$/));
    // Two adjacent runs of digits went quadratic on a long number that then fails.
    timed('ALTO number', () => expect(altoNumber(`${'1'.repeat(50_000)}x`)).toBeNull());
  });
});
