/**
 * Which language a handful of recognised words are in, from how many of them are the language's
 * most common short words (articles, prepositions, pronouns, forms of "to be"). Such words make up
 * a third or more of running text in each of these languages, and OCR reads them well because they
 * are short and frequent, so a few lines suffice; garbage read from handwriting holds few of them,
 * and then no language is named.
 */

/** The languages told apart, by the names of their Tesseract models. */
export const LANGUAGES = {
  eng: 'English',
  deu: 'German',
  nld: 'Dutch',
  lat: 'Latin',
  fra: 'French',
} as const;
export type LanguageCode = keyof typeof LANGUAGES;

const COMMON_WORDS: Record<LanguageCode, string> = {
  eng: 'the of and to in is was that it for on with as his her he she by at from this not but be had have which were they you an are or all so my',
  // Older German prints: Tesseract's English model reads the long s as f ("ift", "fich", "feiner").
  deu:
    'der die das und den dem des ist nicht sich mit auf für ein eine einer eines einem zu von im auch als wie sie er es ich aus bei nach wenn oder war sind wird durch über ohne diese dieser sein seine seiner ift fich fie feine feiner diefe diefer fein',
  nld: 'de het een en van in is dat op te zijn met voor niet aan er om ook als bij of door naar maar wordt uit tot over dan nog wel haar hij zij deze die heeft',
  lat: 'et in est non ad cum quod qui quae sed ut de per ex ab sunt sit enim autem vel nec etiam hoc eius esse quam si pro super ac atque omnes omnibus dei domini',
  fra: 'le la les de des du et en un une est que qui dans pour pas par sur au aux ce il elle ne se sont avec plus mais ou son sa',
};

const WORDS = Object.fromEntries(
  Object.entries(COMMON_WORDS).map(([code, words]) => [code, new Set(words.split(' '))]),
) as Record<LanguageCode, Set<string>>;

/** At least this many words are needed to judge. */
const MIN_WORDS = 8;
/** The best language needs this many of its common words, and this share of all words... */
const MIN_HITS = 3;
const MIN_SHARE = 0.12;
/** ...and this many times the hits of the next best. */
const MIN_LEAD = 1.5;
/** Sure: at least this many hits, twice the next best's. */
const SURE_HITS = 6;

export interface LanguageGuess {
  code: LanguageCode;
  name: string;
  /** `sure` when the evidence is plain; `likely` when it is thin but points one way. */
  certainty: 'sure' | 'likely';
  /** How many of the words are the language's common words, and of how many words. */
  hits: number;
  words: number;
}

/** The words' language, or null when they are too few or point nowhere clearly. */
export function guessLanguage(words: readonly string[]): LanguageGuess | null {
  const normalised = words.map(normaliseWord).filter((w) => w.length > 0);
  if (normalised.length < MIN_WORDS) return null;
  const ranked = (Object.keys(WORDS) as LanguageCode[])
    .map((code) => ({ code, hits: normalised.filter((w) => WORDS[code].has(w)).length }))
    .sort((a, b) => b.hits - a.hits);
  const [best, next] = [ranked[0]!, ranked[1]!];
  if (best.hits < MIN_HITS || best.hits < MIN_SHARE * normalised.length || best.hits < MIN_LEAD * next.hits) return null;
  const certainty = best.hits >= SURE_HITS && best.hits >= 2 * next.hits ? 'sure' : 'likely';
  return { code: best.code, name: LANGUAGES[best.code], certainty, hits: best.hits, words: normalised.length };
}

/** Lower case, the long s as s, without the punctuation OCR leaves around a word. */
function normaliseWord(word: string): string {
  return word
    .toLowerCase()
    .replace(/ſ/g, 's')
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
}
