/**
 * Normalisations applied to both texts before they are measured. Each one does exactly one
 * thing, so comparing its measures with the exact ones shows how much of the difference that one
 * thing accounts for.
 */
export const NORMALISATIONS = [
  { id: 'exact', label: 'Exact' },
  { id: 'nfc', label: 'Unicode NFC' },
  { id: 'ignoreCase', label: 'Ignore case' },
  { id: 'ignorePunctuation', label: 'Ignore punctuation' },
  { id: 'collapseWhitespace', label: 'Collapse whitespace' },
  { id: 'stripCombiningMarks', label: 'Strip combining marks' },
] as const satisfies readonly { id: string; label: string }[];

export type Normalisation = (typeof NORMALISATIONS)[number]['id'];

// Punctuation is General Category P (Pc, Pd, Ps, Pe, Pi, Pf, Po). The Tironian signs et (⁊,
// U+204A, and its capital U+2E52) are Po but stand for the word "et" in medieval texts, so they stay.
const PUNCTUATION = /(?![\u204A\u2E52])\p{P}/gu;
// JavaScript's \s: tab, line feed and the other line terminators, vertical tab, form feed,
// U+FEFF and every space separator (Zs: space, no-break space, the typographic spaces...).
const WHITESPACE = /\s+/gu;
const COMBINING_MARK = /\p{M}/gu;

const apply: Record<Normalisation, (text: string) => string> = {
  // Every code point kept as it is: abbreviation marks, long s (ſ), decomposed accents, private-use
  // (MUFI) characters.
  exact: (text) => text,
  // Canonical composition only: e + U+0301 becomes é. NFC, unlike NFKC, keeps compatibility
  // characters such as long s (ſ) and ligatures distinct.
  nfc: (text) => text.normalize('NFC'),
  // Unicode default lower-case mapping (String.prototype.toLowerCase): the same result in every
  // engine whatever the user's locale, unlike toLocaleLowerCase, which lower-cases I to dotless ı
  // under Turkish. Lower-casing, not case folding: ſ is already lower case and stays distinct from
  // s, as a transcription choice of long or round s is not a difference of case.
  ignoreCase: (text) => text.toLowerCase(),
  // Punctuation code points removed, nothing put in their place; symbols (\p{S}) stay.
  ignorePunctuation: (text) => text.replace(PUNCTUATION, ''),
  // Every run of whitespace becomes one space; leading and trailing whitespace removed.
  collapseWhitespace: (text) => text.replace(WHITESPACE, ' ').trim(),
  // NFD, then every mark (\p{M}: Mn, Mc, Me) removed, then NFC: é and e + U+0301 both become e,
  // and so do combining abbreviation marks such as a macron or superscript letters over a base.
  stripCombiningMarks: (text) => text.normalize('NFD').replace(COMBINING_MARK, '').normalize('NFC'),
};

/** The text under one normalisation choice. */
export function normalise(text: string, choice: Normalisation): string {
  return apply[choice](text);
}
