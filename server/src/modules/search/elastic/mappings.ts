import { SEARCH_KEYWORD_FIELDS, SEARCH_TEXT_FIELDS, type SearchSource } from '@pim/contract';

/** The completion field of the search box's suggestions: the distinct words of a document's text fields. */
export const WORDS_FIELD = 'pim_words';
/** Its context: the sets a document is in, so suggestions keep to the sets a caller may read. */
export const WORDS_SET_CONTEXT = 'set';
/** Words a document offers to suggestions at most: a long page stays a bounded entry. */
const MAX_WORDS = 5000;
/** Elasticsearch's completion field ignores input past 50 characters; shorter words are what people type. */
const MAX_WORD_LENGTH = 50;

/**
 * Letters of old prints and OCR output written as the letters people type: the long s, sharp s,
 * the ligatures, the abbreviation signs PostgreSQL's analysis (`analysis.ts`) writes out too.
 * asciifolding does much of this, but only after the tokenizer has split the text; mapped first, a
 * ligature or sign inside a word never splits it.
 */
const LETTER_MAPPINGS = [
  'ſ => s',
  'ẞ => SS',
  'ß => ss',
  'Æ => AE',
  'æ => ae',
  'Œ => OE',
  'œ => oe',
  'ﬀ => ff',
  'ﬁ => fi',
  'ﬂ => fl',
  'ﬃ => ffi',
  'ﬄ => ffl',
  'ﬅ => st',
  'ﬆ => st',
  'Ꝛ => R',
  'ꝛ => r',
  'ꝰ => us',
  'ꝝ => rum',
  'ĸ => k',
];

const NUMBER_TYPES: Record<string, string> = {
  pagenumber: 'integer',
  height: 'integer',
  width: 'integer',
  ocrConfidence: 'float',
  deskew: 'float',
  columnCount: 'integer',
  lineCount: 'integer',
  wordCount: 'integer',
};

/**
 * The settings and mappings of an index PIM creates: the searched fields analysed so that
 * "Aufklarung" finds "Aufklärung" and "Monatsschrift" finds "Monatsſchrift"; the keyword, number
 * and date fields the DSL may filter, sort and aggregate on, keyword ones also as `<field>.keyword`
 * (the name dynamic mapping would give them, which search UIs send); the rest stored, not indexed.
 */
export function indexDefinition() {
  const properties: Record<string, unknown> = {};
  for (const field of SEARCH_TEXT_FIELDS) properties[field] = { type: 'text', analyzer: 'pim_text' };
  for (const [field, kind] of Object.entries(SEARCH_KEYWORD_FIELDS)) {
    if (kind === 'keyword') properties[field] = { type: 'keyword', fields: { keyword: { type: 'keyword' } } };
    else if (kind === 'date') properties[field] = { type: 'date' };
    else properties[field] = { type: NUMBER_TYPES[field] ?? 'double' };
  }
  properties.thumbnail = { type: 'keyword', index: false, doc_values: false };
  properties[WORDS_FIELD] = {
    type: 'completion',
    analyzer: 'pim_word',
    contexts: [{ name: WORDS_SET_CONTEXT, type: 'category', path: 'imageSetUuid' }],
  };
  return {
    settings: {
      analysis: {
        char_filter: { pim_letters: { type: 'mapping', mappings: LETTER_MAPPINGS } },
        analyzer: {
          pim_text: { type: 'custom', char_filter: ['pim_letters'], tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
          pim_word: { type: 'custom', char_filter: ['pim_letters'], tokenizer: 'keyword', filter: ['lowercase', 'asciifolding'] },
        },
      },
    },
    mappings: {
      // Fields the indexer may add later are kept in _source but not indexed, never guessed at.
      dynamic: false,
      // The words are for the suggester only; hits need not carry them.
      _source: { excludes: [WORDS_FIELD] },
      properties,
    },
  };
}

/** The document as the cluster stores it: the source and the words of its text fields for suggestions. */
export function clusterDocument(source: SearchSource): Record<string, unknown> {
  return { ...source, [WORDS_FIELD]: wordsOf([source.text, source.htr, ...source.persons]) };
}

function wordsOf(texts: string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    for (const [word] of text.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu)) {
      if (words.size >= MAX_WORDS) return [...words];
      if (word.length > 1 && word.length <= MAX_WORD_LENGTH) words.add(word);
    }
  }
  return [...words];
}
