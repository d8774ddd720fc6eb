/**
 * How text becomes search terms, the same for documents and queries: words are runs of letters and
 * digits; a word split by a hyphen at a line end is joined again; each word is folded to lower
 * case without diacritics, with the long s, ligatures and letters like ß, æ, œ, ø written out, so
 * "Aufklärung" and "Aufklarung", "Monatsſchrift" and "Monatsschrift" are one term.
 */

export interface Token {
  term: string;
  /** Where the word is in the text (UTF-16 offsets), for highlighting. */
  start: number;
  end: number;
}

/** Longer "words" are noise (numbers run together, garbage OCR): they are not indexed. */
export const MAX_TERM_LENGTH = 64;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** A hyphen (or the ¬ and ⸗ of old prints) at a line end joins the word's two halves. */
const LINE_END_HYPHEN = /^[-\u00ad\u2010\u2011\u00ac\u2e17=][ \t]*\r?\n[ \t]*$/;

/** Letters NFKD leaves alone that readers take for plain letters. */
const FOLDS: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd',
  ł: 'l', Ł: 'l', þ: 'th', Þ: 'th', ı: 'i', ĸ: 'k', ŋ: 'n', ꝛ: 'r', ꝰ: 'us', ꝝ: 'rum',
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'gu');
const MARKS = /\p{M}/gu;

/** The term of one word: lower case, marks removed, compatibility forms (ſ, ﬁ, ligatures) written out. */
export function normalizeTerm(word: string): string {
  return word.normalize('NFKD').replace(MARKS, '').replace(FOLDABLE, (c) => FOLDS[c] ?? c).toLowerCase();
}

/** The words of a text as written, with their places: a word split by a hyphen at a line end is one. */
function* words(text: string): Generator<{ raw: string; start: number; end: number }> {
  let pending: { start: number; end: number; raw: string } | null = null;
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    // The join needs a hyphen and a line end between the two: a gap of one character is neither.
    if (pending && start - pending.end >= 2 && LINE_END_HYPHEN.test(text.slice(pending.end, start))) {
      pending = { start: pending.start, end, raw: pending.raw + match[0] };
      continue;
    }
    if (pending) yield pending;
    pending = { start, end, raw: match[0] };
  }
  if (pending) yield pending;
}

const isTerm = (term: string) => term.length > 0 && term.length <= MAX_TERM_LENGTH;

/** The words of a text with their terms and places; words whose term is empty or too long are left out. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const { raw, start, end } of words(text)) {
    const term = normalizeTerm(raw);
    if (isTerm(term)) tokens.push({ term, start, end });
  }
  return tokens;
}

/** The terms of a text, in order. */
export function terms(text: string): string[] {
  return tokenize(text).map((t) => t.term);
}

/** A word whose term is itself in lower case: normalizing changes no length. */
const PLAIN_WORD = /^[A-Za-z0-9]+$/;

/**
 * How many terms a text has (`terms(text).length`, a document's word count), without folding the
 * words that need none: most of a page's, whose term is as long as they are.
 */
export function countTerms(text: string): number {
  let count = 0;
  for (const { raw } of words(text)) if (PLAIN_WORD.test(raw) ? raw.length <= MAX_TERM_LENGTH : isTerm(normalizeTerm(raw))) count += 1;
  return count;
}

/**
 * The snowball stemmer of a language code (ISO 639-1, 639-2/B or /T, or the English name), or
 * null when PostgreSQL has none for it.
 */
export function stemmerOf(language: string | null | undefined): string | null {
  if (!language) return null;
  return STEMMERS[language.trim().toLowerCase()] ?? null;
}

const STEMMER_LANGUAGES: [string, string[]][] = [
  ['danish', ['da', 'dan']],
  ['dutch', ['nl', 'nld', 'dut']],
  ['english', ['en', 'eng']],
  ['finnish', ['fi', 'fin']],
  ['french', ['fr', 'fra', 'fre']],
  ['german', ['de', 'deu', 'ger']],
  ['hungarian', ['hu', 'hun']],
  ['italian', ['it', 'ita']],
  ['norwegian', ['no', 'nor', 'nb', 'nob', 'nn', 'nno']],
  ['portuguese', ['pt', 'por']],
  ['romanian', ['ro', 'ron', 'rum']],
  ['russian', ['ru', 'rus']],
  ['spanish', ['es', 'spa']],
  ['swedish', ['sv', 'swe']],
  ['turkish', ['tr', 'tur']],
];
const STEMMERS: Record<string, string> = Object.fromEntries(
  STEMMER_LANGUAGES.flatMap(([name, codes]) => [[name, name], ...codes.map((code) => [code, name])]),
);
