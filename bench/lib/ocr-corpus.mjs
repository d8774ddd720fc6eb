/**
 * Realistic OCR text from a fixed seed: three languages, each a Zipfian vocabulary of generated
 * syllable words (short words the most frequent, as in real text), pages of 250-450 words in
 * lines with end-of-line hyphenation, long s in part of the German prints, and OCR misreadings
 * (ſ/s read as f, rn/m, c/e, u/n, i/l) in about 2% of the words. Every run makes the same pages.
 */

const LANGUAGES = [
  {
    code: 'de',
    share: 0.5,
    onsets: ['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'r', 's', 't', 'w', 'z', 'sch', 'st', 'br', 'gr', 'kr', 'tr', 'pf', 'ch', 'v', ''],
    nuclei: ['a', 'e', 'i', 'o', 'u', 'ä', 'ö', 'ü', 'ei', 'au', 'ie', 'e', 'e'],
    codas: ['', '', 'n', 'r', 's', 't', 'ch', 'ng', 'nd', 'rt', 'ss', 'ft', 'm', 'rn'],
  },
  {
    code: 'nl',
    share: 0.3,
    onsets: ['b', 'd', 'g', 'h', 'k', 'l', 'm', 'n', 'r', 's', 't', 'v', 'w', 'z', 'sch', 'st', 'gr', 'kr', 'tr', 'j', ''],
    nuclei: ['a', 'e', 'i', 'o', 'u', 'aa', 'ee', 'oo', 'ij', 'ui', 'oe', 'ou', 'e'],
    codas: ['', '', 'n', 'r', 's', 't', 'k', 'ng', 'nd', 'cht', 'ld', 'm', 'rn'],
  },
  {
    code: 'fr',
    share: 0.2,
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'ch', 'pr', 'tr', 'gr', 'pl', 'qu', ''],
    nuclei: ['a', 'e', 'i', 'o', 'u', 'é', 'è', 'ou', 'ai', 'eu', 'au', 'oi', 'e'],
    codas: ['', '', '', 'n', 'r', 's', 't', 'l', 'x', 'nt', 'rs', 'm', 'c'],
  },
];

/** Words per language; ranks below this many are treated as stop words by the query mix. */
const VOCABULARY = 8000;
const STOP_RANKS = 50;
/** Zipf's exponent of word frequencies in running text (about 1 for European languages). */
const ZIPF = 1.07;
const OCR_ERROR_RATE = 0.02;

export const QUERY_KINDS = [
  'one term',
  'one term + language',
  'two terms',
  'two terms + language',
  'phrase',
  'phrase + language',
  'fuzzy (AUTO)',
  'fuzzy (AUTO) + language',
];

/** A fixed-seed generator (mulberry32): uniform in [0, 1). */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** `count` distinct words of a language, the frequent ones (low ranks) short. */
function vocabulary(random, lang) {
  const words = [];
  const seen = new Set();
  while (words.length < VOCABULARY) {
    const rank = words.length;
    const syllables = rank < 100 ? 1 + Math.floor(random() * 2) : 2 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s += 1) word += pick(random, lang.onsets) + pick(random, lang.nuclei) + pick(random, lang.codas);
    if (word.length < 2 || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
  }
  return words;
}

/** Cumulative Zipf weights over ranks 1..n, for sampling by binary search. */
function zipfTable(n) {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r += 1) cumulative[r] = sum += 1 / (r + 1) ** ZIPF;
  for (let r = 0; r < n; r += 1) cumulative[r] /= sum;
  return cumulative;
}

function sampleRank(random, cumulative) {
  const x = random();
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The languages with their vocabularies, and the generator the pages are drawn from. */
export function makeCorpus(seed) {
  const random = seeded(seed);
  const languages = LANGUAGES.map((lang) => ({ ...lang, words: vocabulary(random, lang) }));
  return { random, languages, zipf: zipfTable(VOCABULARY), phrases: new Map(languages.map((l) => [l.code, []])) };
}

function chooseLanguage(random, languages) {
  let x = random();
  for (const lang of languages) if ((x -= lang.share) < 0) return lang;
  return languages.at(-1);
}

/** One misreading of a word as OCR makes them (or, when none applies, one letter replaced). */
export function misread(random, word) {
  const rules = [
    [/s(?=.)/, 'f'],
    [/ſ/, 'f'],
    [/rn/, 'm'],
    [/m/, 'rn'],
    [/e/, 'c'],
    [/c/, 'e'],
    [/u/, 'n'],
    [/n/, 'u'],
    [/i/, 'l'],
  ].filter(([re]) => re.test(word));
  if (rules.length === 0) {
    const at = Math.floor(random() * word.length);
    return word.slice(0, at) + pick(random, [...'aeiounrst']) + word.slice(at + 1);
  }
  const [re, to] = pick(random, rules);
  return word.replace(re, to);
}

/** Medial s printed as long s (ſ), as in Fraktur and older Antiqua prints. */
const longS = (word) => word.replace(/s(?=[a-zäöü])/g, 'ſ');

/** One page: words in lines of 6-12, some split at the line end with a hyphen, punctuation, capitals. */
function page(corpus, lang, number) {
  const { random, zipf } = corpus;
  const count = 250 + Math.floor(random() * 201);
  const fraktur = lang.code === 'de' && random() < 0.4;
  const ranks = Array.from({ length: count }, () => sampleRank(random, zipf));
  // Phrases the query mix asks for: word pairs that occur, not both stop words.
  if (number % 20 === 0) {
    const at = Math.floor(random() * (count - 1));
    if (ranks[at] >= STOP_RANKS || ranks[at + 1] >= STOP_RANKS) corpus.phrases.get(lang.code).push(`${lang.words[ranks[at]]} ${lang.words[ranks[at + 1]]}`);
  }
  const lines = [];
  let line = [];
  let lineLength = 6 + Math.floor(random() * 7);
  let capital = true;
  for (const rank of ranks) {
    let word = lang.words[rank];
    if (fraktur) word = longS(word);
    if (random() < OCR_ERROR_RATE) word = misread(random, word);
    if (capital || (lang.code === 'de' && rank >= STOP_RANKS && random() < 0.5)) word = word[0].toUpperCase() + word.slice(1);
    capital = false;
    const mark = random();
    if (mark < 0.04) {
      word += '.';
      capital = true;
    } else if (mark < 0.1) word += ',';
    line.push(word);
    if (line.length >= lineLength) {
      const last = line.at(-1);
      if (last.length >= 6 && /\p{L}$/u.test(last) && random() < 0.15) {
        const cut = 2 + Math.floor(random() * (last.length - 4));
        line[line.length - 1] = `${last.slice(0, cut)}-`;
        lines.push(line.join(' '));
        line = [last.slice(cut)];
      } else {
        lines.push(line.join(' '));
        line = [];
      }
      lineLength = 6 + Math.floor(random() * 7);
    }
  }
  if (line.length) lines.push(line.join(' '));
  return { page: number, language: lang.code, text: lines.join('\n') };
}

/** The pages 1..count, in batches. */
export function* generatePages(corpus, count, batchSize) {
  for (let start = 1; start <= count; start += batchSize) {
    const batch = [];
    for (let n = start; n < Math.min(start + batchSize, count + 1); n += 1) batch.push(page(corpus, chooseLanguage(corpus.random, corpus.languages), n));
    yield batch;
  }
}

/**
 * A query word as people search: not a stop word (rank 50 and beyond) and log-uniform over the
 * ranks from there, so frequent words (ranks 50-500), middling ones (500-5,000) and rare ones
 * (5,000-8,000, the rarest occurring in a handful of pages) each get their share.
 */
function queryWord(random, lang) {
  const rank = Math.floor(Math.exp(Math.log(STOP_RANKS) + random() * (Math.log(VOCABULARY) - Math.log(STOP_RANKS))));
  return lang.words[Math.min(rank, VOCABULARY - 1)];
}

const FIELDS = ['text', 'htr', 'persons'];

/** A request of the search screen: the query, 20 hits by relevance, with the language filter and facet when asked. */
function body(query, language) {
  if (!language) return { query, size: 20 };
  return {
    query: { bool: { must: [query], filter: [{ term: { language } }] } },
    size: 20,
    aggs: { language: { terms: { field: 'language', size: 10 } } },
  };
}

/**
 * `perKind` queries of each kind, interleaved (so a change of load hits every kind alike). Call
 * after generating the pages. Another `seed` draws other queries from the same distribution.
 */
export function queryMix(corpus, perKind, seed = 7) {
  const random = seeded(seed);
  const make = (kind, lang) => {
    const filtered = kind.endsWith('+ language') ? lang.code : null;
    if (kind.startsWith('one term')) return body({ multi_match: { query: queryWord(random, lang), fields: FIELDS } }, filtered);
    if (kind.startsWith('two terms')) return body({ multi_match: { query: `${queryWord(random, lang)} ${queryWord(random, lang)}`, fields: FIELDS } }, filtered);
    if (kind.startsWith('phrase')) return body({ multi_match: { query: pick(random, corpus.phrases.get(lang.code)), fields: FIELDS, type: 'phrase' } }, filtered);
    return body({ multi_match: { query: misread(random, queryWord(random, lang)), fields: FIELDS, fuzziness: 'AUTO' } }, filtered);
  };
  const mix = [];
  for (let i = 0; i < perKind; i += 1) {
    for (const kind of QUERY_KINDS) mix.push({ kind, body: make(kind, chooseLanguage(random, corpus.languages)) });
  }
  return mix;
}
