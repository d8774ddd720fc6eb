import type { SearchSource } from '@pim/contract';
import { tokenize } from '../analysis.js';
import { FIELD_CODES, FIELD_GAP, FIELD_NAMES, FIELD_WEIGHTS, MAX_POSITION } from './fields.js';

/** A document's terms as the engine stores them. */
export interface DocumentTerms {
  /** The `terms` tsvector, as tsvector input text. */
  tsvector: string;
  /** Terms per field (text, htr, persons). */
  lengths: [number, number, number];
  /** term -> field code -> frequency. */
  frequencies: Map<string, Map<number, number>>;
  /** term -> the word as first written, in lower case (suggestions show it). */
  written: Map<string, string>;
}

/** The text of a field of a document. */
export function fieldText(source: SearchSource, field: (typeof FIELD_NAMES)[number]): string {
  return field === 'persons' ? source.persons.join('\n') : source[field];
}

function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The lexeme of two words that follow each other in a field (Elasticsearch's `index_phrases`):
 * a space never occurs in a term, so it cannot meet a word's lexeme. A two-word phrase is then
 * one lexeme the GIN index answers exactly, instead of every document holding both words being
 * read again to compare positions.
 */
export function bigram(first: string, second: string): string {
  return `${first} ${second}`;
}

/** Analyses the text fields of a document into its tsvector, lengths and term frequencies. */
export function documentTerms(source: SearchSource): DocumentTerms {
  const positions = new Map<string, string[]>();
  const at = (lexeme: string, position: string) => {
    let list = positions.get(lexeme);
    if (!list) positions.set(lexeme, (list = []));
    // tsvector keeps at most 256 positions of a lexeme.
    if (list.length < 256) list.push(position);
  };
  const frequencies = new Map<string, Map<number, number>>();
  const written = new Map<string, string>();
  const lengths: [number, number, number] = [0, 0, 0];
  let offset = 0;
  for (const field of FIELD_NAMES) {
    const code = FIELD_CODES[field];
    const weight = FIELD_WEIGHTS[field];
    const text = fieldText(source, field);
    const tokens = tokenize(text);
    lengths[code] = tokens.length;
    tokens.forEach((token, i) => {
      const position = Math.min(offset + i + 1, MAX_POSITION);
      at(token.term, `${position}${weight}`);
      const next = tokens[i + 1];
      if (next && position < MAX_POSITION) at(bigram(token.term, next.term), `${position}${weight}`);
      if (!written.has(token.term)) written.set(token.term, text.slice(token.start, token.end).replace(/\s+/g, '').normalize('NFC').toLowerCase());
      let byField = frequencies.get(token.term);
      if (!byField) frequencies.set(token.term, (byField = new Map()));
      byField.set(code, (byField.get(code) ?? 0) + 1);
    });
    offset += tokens.length + FIELD_GAP;
  }
  const tsvector = [...positions].map(([term, list]) => `${quoteLexeme(term)}:${list.join(',')}`).join(' ');
  return { tsvector, lengths, frequencies, written };
}
