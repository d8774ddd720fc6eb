/**
 * The tokens of Lucene's classic query syntax, which Elasticsearch's query_string speaks:
 * operators (AND OR NOT && || ! + -), parentheses, `field:`, terms with escapes and wildcards,
 * quoted phrases, `~slop`, `^boost`, ranges `[a TO b}` and `/regex/`.
 */

export type Token =
  | { type: 'and' | 'or' | 'not' | 'plus' | 'minus' | 'lparen' | 'rparen' | 'colon'; at: number }
  | { type: 'term'; text: string; wildcard: boolean; at: number }
  | { type: 'quoted'; text: string; at: number }
  | { type: 'tilde'; value: string; at: number }
  | { type: 'caret'; value: string; at: number }
  | { type: 'range'; lower: string; upper: string; lowerInclusive: boolean; upperInclusive: boolean; at: number }
  | { type: 'regex'; at: number };

export class QuerySyntaxError extends Error {}

const WHITESPACE = /[\s\u3000]/;
/** Characters that cannot start a term unescaped; `+` and `-` may continue one. */
const NOT_TERM_START = new Set([...'+-!():^[]"{}~\\/']);
const NUMBER = /^\d+(\.\d+)?/;

export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const peek = (offset = 0) => query[index + offset] ?? '';
  while (index < query.length) {
    const char = peek();
    const at = index;
    if (WHITESPACE.test(char)) {
      index += 1;
    } else if (query.startsWith('&&', index) || query.startsWith('||', index)) {
      tokens.push({ type: char === '&' ? 'and' : 'or', at });
      index += 2;
    } else if (char === '+' || char === '-' || char === '!') {
      index += 1;
      // A bare operator followed by a space is a term of its own, which holds no word.
      if (index >= query.length || WHITESPACE.test(peek())) continue;
      tokens.push({ type: char === '+' ? 'plus' : char === '-' ? 'minus' : 'not', at });
    } else if (char === '(' || char === ')' || char === ':') {
      tokens.push({ type: char === '(' ? 'lparen' : char === ')' ? 'rparen' : 'colon', at });
      index += 1;
    } else if (char === '"') {
      const end = closingQuote(query, index + 1);
      if (end < 0) throw new QuerySyntaxError(`the quote at character ${at + 1} is never closed`);
      tokens.push({ type: 'quoted', text: unescape(query.slice(index + 1, end)), at });
      index = end + 1;
    } else if (char === '~' || char === '^') {
      const number = NUMBER.exec(query.slice(index + 1))?.[0] ?? '';
      if (char === '^' && number === '') throw new QuerySyntaxError(`"^" at character ${at + 1} needs a number (a boost such as ^2)`);
      tokens.push({ type: char === '~' ? 'tilde' : 'caret', value: number, at });
      index += 1 + number.length;
    } else if (char === '[' || char === '{') {
      const range = readRange(query, index);
      tokens.push(range.token);
      index = range.end;
    } else if (char === '/') {
      const end = query.indexOf('/', index + 1);
      if (end < 0) throw new QuerySyntaxError(`the regular expression at character ${at + 1} is never closed`);
      tokens.push({ type: 'regex', at });
      index = end + 1;
    } else if (char === ']' || char === '}') {
      throw new QuerySyntaxError(`"${char}" at character ${at + 1} closes a range that was never opened`);
    } else {
      const term = readTerm(query, index);
      index = term.end;
      if (!term.escaped && (term.text === 'AND' || term.text === 'OR' || term.text === 'NOT')) {
        tokens.push({ type: term.text === 'AND' ? 'and' : term.text === 'OR' ? 'or' : 'not', at });
      } else {
        tokens.push({ type: 'term', text: term.text, wildcard: term.wildcard, at });
      }
    }
  }
  return tokens;
}

function closingQuote(query: string, from: number): number {
  for (let index = from; index < query.length; index += 1) {
    if (query[index] === '\\') index += 1;
    else if (query[index] === '"') return index;
  }
  return -1;
}

const unescape = (text: string) => text.replace(/\\(.)/gsu, '$1');

/**
 * A term: its text with escapes removed, and whether an unescaped `*` or `?` makes it a wildcard
 * (kept as written in the text; escaped ones are removed from a wildcard's text as Lucene does not
 * support them there).
 */
function readTerm(query: string, start: number): { text: string; wildcard: boolean; escaped: boolean; end: number } {
  let index = start;
  let text = '';
  let wildcard = false;
  let escaped = false;
  while (index < query.length) {
    const char = query[index] as string;
    if (char === '\\') {
      if (index + 1 >= query.length) throw new QuerySyntaxError('the query ends with an escape character "\\"');
      text += query[index + 1];
      escaped = true;
      index += 2;
      continue;
    }
    if (WHITESPACE.test(char)) break;
    if (index > start && (char === '+' || char === '-')) {
      text += char;
      index += 1;
      continue;
    }
    if (NOT_TERM_START.has(char)) break;
    if (char === '*' || char === '?') wildcard = true;
    text += char;
    index += 1;
  }
  return { text, wildcard, escaped, end: index };
}

/** `[a TO b]`, `{a TO b}` and mixed: bounds quoted or bare, `*` for an open end. */
function readRange(query: string, start: number): { token: Token; end: number } {
  const close = /[\]}]/g;
  close.lastIndex = start;
  const match = close.exec(query);
  if (!match) throw new QuerySyntaxError(`the range at character ${start + 1} is never closed`);
  const inner = query.slice(start + 1, match.index).trim();
  const parts = /^("(?:[^"\\]|\\.)*"|\S+)\s+TO\s+("(?:[^"\\]|\\.)*"|\S+)$/.exec(inner);
  if (!parts) throw new QuerySyntaxError(`the range at character ${start + 1} must read [lower TO upper]`);
  const bound = (text: string) => (text.startsWith('"') ? unescape(text.slice(1, -1)) : unescape(text));
  return {
    token: {
      type: 'range',
      lower: bound(parts[1] as string),
      upper: bound(parts[2] as string),
      lowerInclusive: query[start] === '[',
      upperInclusive: match[0] === ']',
      at: start,
    },
    end: match.index + 1,
  };
}
