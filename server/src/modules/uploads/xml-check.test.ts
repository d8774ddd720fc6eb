import { describe, expect, it } from 'vitest';
import { checkXmlText, MAX_XML_DEPTH } from './xml-check.js';

const refused = (xml: string, message: string | RegExp) =>
  expect(() => checkXmlText(xml)).toThrow(expect.objectContaining({ status: 400, message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) }));

const nested = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);

describe('checking XML before it is parsed', () => {
  it('lets well-formed text through: tab, line breaks, astral characters, allowed references, markup that looks odd', () => {
    expect(() =>
      checkXmlText(
        '<?xml version="1.0"?>\r\n<a b="&#9;&#xA;&#x10FFFF;&amp;" c=\'>\'>\t𝔄 &#xFFFD; &#65; &#x20AC;<b/><!-- &#0; <x> --><![CDATA[&#1; <y>]]><?pi &#0;?></a>',
      ),
    ).not.toThrow();
  });

  it('refuses characters XML 1.0 forbids, saying which and where', () => {
    refused('<a>\n  x\u0000</a>', 'This XML file contains the character U+0000, which XML does not allow, at line 2, column 4: remove it and upload the file again.');
    refused('<a b="\u0001"/>', 'the character U+0001');
    refused('<a>\u001b</a>', 'U+001B');
    refused('<a>\uFFFE</a>', 'U+FFFE');
    refused('<a>\uFFFF</a>', 'U+FFFF');
    refused('<a>x\uD800y</a>', 'an unpaired surrogate (U+D800)');
    refused('<a>x\uDC00</a>', 'an unpaired surrogate (U+DC00)');
    refused('<a>\uD800</a>', 'an unpaired surrogate (U+D800)');
  });

  it('refuses character references to characters XML forbids, in text and in attribute values', () => {
    refused('<a>&#0;</a>', 'This XML file refers to a character XML does not allow, &#0; (U+0000), at line 1, column 4');
    refused('<a b="x&#x1;"/>', '&#x1; (U+0001)');
    refused('<a>&#xD800;</a>', '&#xD800; (U+D800)');
    refused('<a>&#xFFFE;</a>', '&#xFFFE; (U+FFFE)');
    refused('<a>&#x110000;</a>', '&#x110000; (beyond U+10FFFF)');
    refused(`<a>&#${'0'.repeat(20)}1;</a>`, '(U+0001)');
    refused(`<a>&#x${'f'.repeat(40)};</a>`, 'beyond U+10FFFF');
  });

  it(`refuses elements nested more than ${MAX_XML_DEPTH} levels, before any parser recurses`, () => {
    expect(() => checkXmlText(nested(MAX_XML_DEPTH))).not.toThrow();
    expect(() => checkXmlText(`<r>${'<e/>'.repeat(5000)}<a b="/>"></a></r>`)).not.toThrow();
    refused(nested(MAX_XML_DEPTH + 1), /^This XML file nests elements more than 1,000 levels deep \(at line 1, column 3001\): PIM reads at most 1,000 levels\.$/);
    refused(nested(100_000), 'more than 1,000 levels deep');
    // Empty-element tags and end tags do not add levels; comments, CDATA and processing instructions hold no tags.
    expect(() => checkXmlText(`<r>${'<e x="1" />'.repeat(5000)}<!--${'<a>'.repeat(2000)}--><![CDATA[${'<a>'.repeat(2000)}]]><?p ${'<a>'.repeat(2000)}?></r>`)).not.toThrow();
  });
});
