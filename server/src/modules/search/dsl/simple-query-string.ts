import type { Query, QueryWord } from '../query.js';
import { bool, MATCH_NONE, matchAll } from './build.js';
import { malformed } from './errors.js';
import { boosted, type Clause, combine, fuzzinessOf, phraseQuery, type StringQueryContext, wordQuery } from './string-clauses.js';
import { readStringQueryOptions, STRING_QUERY_PARAMS } from './string-options.js';
import { readQueryText } from './text.js';
import { checkParams, describe, isObject } from './values.js';

/**
 * simple_query_string, as Lucene's SimpleQueryParser reads it: `+` and `|` between clauses (AND,
 * OR), `-` before one (NOT), `"phrase"~slop`, `word*`, `word~N`, parentheses; whitespace is the
 * default operator. It never fails: what it cannot read (an unclosed quote or parenthesis, an
 * operator with nothing after it) is dropped, as Elasticsearch does.
 */

type Operator = 'must' | 'should';

interface Group {
  top: Clause[] | Query | null;
  topOperator: Operator | null;
}

export function parseSimpleQueryString(body: unknown, at: string): Query {
  if (!isObject(body)) throw malformed(`The simple_query_string query (at ${at}) must be an object, not ${describe(body)}.`, at);
  checkParams(body, { ...STRING_QUERY_PARAMS, flags: 'ignore' }, 'simple_query_string query', at);
  const text = readQueryText(body.query, at, 'simple_query_string query');
  const options = readStringQueryOptions(body, at, 'fields');
  // minimum_should_match applies to the optional clauses of the top level, as in Elasticsearch.
  const query = new Reader(text, options, body.minimum_should_match).group(0, text.length);
  return boosted(query ?? MATCH_NONE, options.boost);
}

const isSpace = (char: string) => /[\s\u3000]/.test(char);
const ENDS_WORD = new Set(['"', '|', '+', '(', ')', '~']);

class Reader {
  constructor(
    private readonly text: string,
    private readonly context: StringQueryContext,
    private readonly minimumShouldMatch: unknown,
  ) {}

  /** The query of text[start, end): clauses joined left to right; a change of operator nests what came before. */
  group(start: number, end: number): Query | null {
    const state: Group = { top: null, topOperator: null };
    let operator: Operator | null = null;
    let negations = 0;
    let index = start;
    const add = (query: Query | null) => {
      if (query) {
        const branch = negations % 2 === 1 ? bool({ must: [matchAll()], mustNot: [query] }) : query;
        this.attach(state, branch, operator ?? (this.context.operator === 'and' ? 'must' : 'should'));
      }
      operator = null;
      negations = 0;
    };
    while (index < end) {
      const char = this.text[index] as string;
      if (char === '(') {
        const close = this.closingParenthesis(index + 1, end);
        if (close < 0) {
          index += 1; // an unclosed parenthesis is ignored
        } else {
          add(this.group(index + 1, close));
          index = close + 1;
        }
      } else if (char === '"') {
        const close = this.text.indexOf('"', index + 1);
        if (close < 0 || close >= end) {
          index += 1; // an unclosed quote is ignored and the rest read as words
        } else {
          const slop = this.readTilde(close + 1, end);
          const slopValue = slop.value === null ? 0 : Math.max(0, Math.trunc(Number(slop.value)) || 0);
          add(phraseQuery(this.context, this.context.fields, this.text.slice(index + 1, close), slopValue));
          index = slop.end;
        }
      } else if (char === '+' || char === '|') {
        if (operator === null && state.top !== null) operator = char === '+' ? 'must' : 'should';
        index += 1;
      } else if (char === '-') {
        negations += 1;
        index += 1;
      } else if (isSpace(char)) {
        index += 1;
      } else {
        index = this.word(index, end, add);
      }
    }
    return this.finish(state, start === 0 && end === this.text.length ? this.minimumShouldMatch : undefined);
  }

  private word(start: number, end: number, add: (query: Query | null) => void): number {
    let index = start;
    let text = '';
    let prefix = false;
    while (index < end && !isSpace(this.text[index] as string) && !ENDS_WORD.has(this.text[index] as string)) {
      const char = this.text[index] as string;
      if (char === '\\' && index + 1 < end) {
        text += this.text[index + 1];
        prefix = false;
        index += 2;
        continue;
      }
      prefix = char === '*';
      text += char;
      index += 1;
    }
    if (index < end && this.text[index] === '~') {
      const fuzzy = this.readTilde(index, end);
      // `word~` is 2 edits; `word~x` none, as Lucene reads a number it cannot parse.
      const value = fuzzy.value ?? '';
      const fuzziness = fuzzinessOf(/^\d*$/.test(value) ? value : '0', 2);
      add(wordQuery(this.context, this.context.fields, { text, form: 'plain', fuzziness }));
      return fuzzy.end;
    }
    if (text === '') return index + (index === start ? 1 : 0);
    const word: QueryWord = prefix && text.length > 1 ? { text: text.slice(0, -1), form: 'prefix', fuzziness: 0 } : { text, form: 'plain', fuzziness: 0 };
    add(wordQuery(this.context, this.context.fields, word));
    return index;
  }

  /** `~` and what follows up to the end of the word: the slop or edit distance. */
  private readTilde(index: number, end: number): { value: string | null; end: number } {
    if (this.text[index] !== '~') return { value: null, end: index };
    let cursor = index + 1;
    while (cursor < end && !isSpace(this.text[cursor] as string) && !ENDS_WORD.has(this.text[cursor] as string)) cursor += 1;
    return { value: this.text.slice(index + 1, cursor), end: cursor };
  }

  private closingParenthesis(from: number, end: number): number {
    let depth = 1;
    for (let index = from; index < end; index += 1) {
      const char = this.text[index];
      if (char === '\\') index += 1;
      else if (char === '(') depth += 1;
      else if (char === ')' && --depth === 0) return index;
    }
    return -1;
  }

  /** Lucene's buildQueryTree: the same operator adds to the current clauses, a new one wraps them. */
  private attach(state: Group, branch: Query, operator: Operator) {
    if (state.top === null) {
      state.top = branch;
      return;
    }
    if (Array.isArray(state.top) && state.topOperator === operator) {
      state.top.push({ occur: operator, query: branch });
      return;
    }
    const before = Array.isArray(state.top) ? this.finish(state) : state.top;
    state.top = [
      ...(before ? [{ occur: operator, query: before }] : []),
      { occur: operator, query: branch },
    ];
    state.topOperator = operator;
  }

  private finish(state: Group, minimumShouldMatch?: unknown): Query | null {
    if (!Array.isArray(state.top)) return state.top;
    return combine(state.top, minimumShouldMatch, `${this.context.at}.minimum_should_match`);
  }
}
