import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, toCsv, toCsvTables } from './csv.js';

describe('CSV writer', () => {
  it('leaves plain cells alone and quotes those with a comma, quote, CR or LF, doubling quotes', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('')).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('line 1\r\nline 2')).toBe('"line 1\r\nline 2"');
    expect(csvCell("it's; fine")).toBe("it's; fine");
  });

  it('keeps non-Latin text and emoji as they are', () => {
    for (const text of ['Ἐν ἀρχῇ ἦν ὁ λόγος', 'בְּרֵאשִׁית בָּרָא', '永和九年', '📜✍️👩🏽‍🔬']) expect(csvCell(text)).toBe(text);
  });

  it('makes cells a spreadsheet would run as a formula into text, but leaves numbers', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+SUM(A1:A2)')).toBe("'+SUM(A1:A2)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell('=HYPERLINK("http://x.test","a,b")')).toBe('"\'=HYPERLINK(""http://x.test"",""a,b"")"');
    for (const number of ['-12', '+3.5', '-0.25', '1e5', '-1.5E-3', '12']) expect(csvCell(number)).toBe(number);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes a byte order mark, a header row and a CRLF after every row', () => {
    expect(toCsv(['name', 'note'], [['a', 'b,c'], ['', 'x\ny']])).toBe(`${CSV_BOM}name,note\r\na,"b,c"\r\n,"x\ny"\r\n`);
    expect(toCsv(['only'], [])).toBe(`${CSV_BOM}only\r\n`);
    expect(Buffer.from(toCsv(['a'], [])).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('writes several tables into one file, an empty row between them', () => {
    const text = toCsvTables([
      { header: ['a', 'b'], rows: [['1', '2']] },
      { header: ['c'], rows: [['x,y']] },
    ]);
    expect(text).toBe(`${CSV_BOM}a,b\r\n1,2\r\n\r\nc\r\n"x,y"\r\n`);
  });
});
