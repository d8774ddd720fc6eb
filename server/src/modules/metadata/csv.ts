/**
 * CSV as RFC 4180 writes it, for spreadsheets: CRLF after every row; a cell with a comma, double
 * quote, CR or LF is quoted, its quotes doubled. The text starts with a UTF-8 byte order mark:
 * without it Excel reads the file as the local code page and garbles Greek, Hebrew, CJK and emoji.
 */
export const CSV_BOM = '\uFEFF';

/** The whole file: the header row, then one row per record. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return CSV_BOM + [header, ...rows].map(csvRow).join('');
}

/** Several tables in one file (a report's rows, its summary...), each with its header row, an empty row between them. */
export function toCsvTables(tables: readonly { header: readonly string[]; rows: readonly (readonly string[])[] }[]): string {
  return CSV_BOM + tables.map((t) => [t.header, ...t.rows].map(csvRow).join('')).join('\r\n');
}

function csvRow(row: readonly string[]): string {
  return row.map(csvCell).join(',') + '\r\n';
}

const NEEDS_QUOTES = /[",\r\n]/;
/** What a spreadsheet may take for the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * One cell. Formula injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or CR
 * before them) as a formula, so annotated text like `=HYPERLINK(...)` could act when the export is
 * opened. Such a cell gets a leading apostrophe, so the spreadsheet reads it as text (OWASP's
 * advice for CSV exports). Plain numbers (-12, +3.5) are left alone so they stay numbers.
 */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
