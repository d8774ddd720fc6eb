import type { Fuzziness, Query } from '../query.js';
import { MATCH_NONE, matchAll } from './build.js';
import { malformed, unsupported } from './errors.js';
import { ALL_TEXT_FIELDS, type FieldSet, keywordValue, resolveField, resolveFieldList } from './fields.js';
import { QuerySyntaxError, type Token, tokenize } from './query-string-lexer.js';
import { boosted, type Clause, combine, fuzzinessOf, type Occur, phraseQuery, type StringQueryContext, wordQuery } from './string-clauses.js';
import { readStringQueryOptions, STRING_QUERY_PARAMS } from './string-options.js';
import { patternWord } from './term-level.js';
import { readFuzziness, readQueryText } from './text.js';
import { checkParams, describe, isObject, join, readInteger } from './values.js';

/**
 * query_string: Lucene's classic syntax, combined as Lucene's parser combines clauses. A syntax
 * error is a 400 as Elasticsearch's `query_shard_exception` ("Failed to parse query").
 */

interface Context extends StringQueryContext {
  fuzziness: Fuzziness;
  phraseSlop: number;
  zone: string | undefined;
}

export function parseQueryString(body: unknown, at: string): Query {
  if (!isObject(body)) throw malformed(`The query_string query (at ${at}) must be an object, not ${describe(body)}.`, at);
  checkParams(
    body,
    {
      ...STRING_QUERY_PARAMS,
      default_field: 'use',
      fuzziness: 'use',
      type: 'use',
      tie_breaker: 'use',
      phrase_slop: 'use',
      time_zone: 'use',
      allow_leading_wildcard: 'ignore',
      enable_position_increments: 'ignore',
      escape: 'ignore',
      max_determinized_states: 'ignore',
      quote_analyzer: 'ignore',
      rewrite: 'ignore',
      auto_generate_phrase_queries: 'ignore',
      split_on_whitespace: 'ignore',
      use_dis_max: 'ignore',
    },
    'query_string query',
    at,
  );
  const text = readQueryText(body.query, at, 'query_string query');
  if (body.fields !== undefined && body.default_field !== undefined) {
    throw malformed(`The query_string query (at ${at}) takes "fields" or "default_field", not both.`, at, 'illegal_argument_exception');
  }
  const options = readStringQueryOptions(body, at, body.default_field === undefined ? 'fields' : 'default_field');
  const context: Context = {
    ...options,
    fuzziness: body.fuzziness === undefined ? 'AUTO' : readFuzziness(body.fuzziness, join(at, 'fuzziness')),
    phraseSlop: body.phrase_slop === undefined ? 0 : readInteger(body.phrase_slop, join(at, 'phrase_slop'), 'The phrase_slop', 0),
    zone: typeof body.time_zone === 'string' ? body.time_zone : undefined,
  };
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch (error) {
    throw syntaxError(text, error, at);
  }
  if (tokens.length === 0) return MATCH_NONE;
  const parser = new Parser(tokens, context, text);
  try {
    const clauses = parser.query(context.fields, 0);
    if (!parser.done()) parser.fail(`"${parser.describeNext()}" is not expected here`);
    const query = combine(clauses, body.minimum_should_match, join(at, 'minimum_should_match'));
    return boosted(query ?? MATCH_NONE, options.boost);
  } catch (error) {
    throw syntaxError(text, error, at);
  }
}

function syntaxError(text: string, error: unknown, at: string) {
  if (!(error instanceof QuerySyntaxError)) return error;
  return malformed(`Failed to parse query [${text}] (at ${at}): ${error.message}.`, at, 'query_shard_exception');
}

class Parser {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly context: Context,
    private readonly text: string,
  ) {}

  done = () => this.index >= this.tokens.length;
  private peek = (): Token | undefined => this.tokens[this.index];
  describeNext = () => {
    const token = this.peek();
    return token ? this.text.slice(token.at, token.at + 12).split(/\s/)[0] || token.type : 'the end';
  };

  fail(message: string): never {
    throw new QuerySyntaxError(message);
  }

  /** Clauses joined by AND/OR or nothing, each with + - NOT, until `)` or the end. */
  query(fields: FieldSet, depth: number): Clause[] {
    const clauses: Clause[] = [];
    let first = true;
    while (!this.done() && this.peek()?.type !== 'rparen') {
      const conjunction = this.conjunction(first);
      const modifier = this.modifier();
      if (this.done() || this.peek()?.type === 'rparen') {
        this.fail(`"${conjunction ?? modifier}" at the end needs something after it`);
      }
      addClause(clauses, conjunction, modifier, this.clause(fields, depth), this.context.operator);
      first = false;
    }
    return clauses;
  }

  private conjunction(first: boolean): 'AND' | 'OR' | null {
    const token = this.peek();
    if (token?.type !== 'and' && token?.type !== 'or') return null;
    if (first) this.fail(`"${token.type.toUpperCase()}" at character ${token.at + 1} has nothing before it`);
    this.index += 1;
    return token.type === 'and' ? 'AND' : 'OR';
  }

  private modifier(): 'NOT' | '+' | null {
    const token = this.peek();
    if (token?.type === 'not' || token?.type === 'minus') {
      this.index += 1;
      return 'NOT';
    }
    if (token?.type === 'plus') {
      this.index += 1;
      return '+';
    }
    return null;
  }

  /** `field:` then a term, a phrase, a range or a group; or one of those alone. */
  private clause(fields: FieldSet, depth: number): Query | null {
    const next = this.tokens[this.index + 1];
    const token = this.peek();
    if (token?.type === 'term' && next?.type === 'colon') {
      this.index += 2;
      if (this.done()) this.fail(`the field "${token.text}" is followed by nothing`);
      return this.fieldClause(token.text, depth);
    }
    return this.unqualified(fields, depth);
  }

  private unqualified(fields: FieldSet, depth: number): Query | null {
    const token = this.peek();
    if (token?.type === 'lparen') {
      this.index += 1;
      const clauses = this.query(fields, depth + 1);
      if (this.peek()?.type !== 'rparen') this.fail(`the parenthesis at character ${token.at + 1} is never closed`);
      this.index += 1;
      return boosted(combine(clauses, undefined, this.context.at) ?? MATCH_NONE, this.boost());
    }
    return this.term(fields);
  }

  private fieldClause(name: string, depth: number): Query | null {
    const at = this.context.at;
    if (name === '_exists_') {
      const field = this.peek();
      if (field?.type !== 'term') this.fail('"_exists_:" needs a field name');
      this.index += 1;
      return { kind: 'exists', field: resolveField(field.text, at).field, boost: this.boost() };
    }
    const fields = name === '*' ? ALL_TEXT_FIELDS : resolveFieldList([name], at);
    const token = this.peek();
    if (token?.type === 'term' && token.text === '*' && !/[*?]/.test(name)) {
      this.index += 1;
      return { kind: 'exists', field: resolveField(name, at).field, boost: this.boost() };
    }
    if (token?.type === 'range' || (token?.type === 'term' && /^[<>]=?./.test(token.text))) {
      this.index += 1;
      return this.range(name, token);
    }
    return this.unqualified(fields, depth);
  }

  private range(name: string, token: Token): Query {
    const at = this.context.at;
    const resolved = resolveField(name, at);
    if (resolved.kind === 'text') throw unsupported(`A range on the text field "${name}" in query_string`, at);
    const bound = (value: string, roundUp: boolean) =>
      value === '*' ? undefined : keywordValue(resolved.field, value, at, { roundUp, zone: this.context.zone }) ?? undefined;
    const query: Query = { kind: 'range', field: resolved.field, boost: 1 };
    if (token.type === 'range') {
      const lower = bound(token.lower, !token.lowerInclusive);
      const upper = bound(token.upper, token.upperInclusive);
      if (lower !== undefined) query[token.lowerInclusive ? 'gte' : 'gt'] = lower;
      if (upper !== undefined) query[token.upperInclusive ? 'lte' : 'lt'] = upper;
    } else if (token.type === 'term') {
      const [, operator, value] = /^([<>]=?)(.*)$/.exec(token.text) as RegExpExecArray;
      const key = ({ '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' } as const)[operator as '>' | '>=' | '<' | '<='];
      const converted = bound(value as string, key === 'gt' || key === 'lte');
      if (converted !== undefined) query[key] = converted;
    }
    return boosted(query, this.boost());
  }

  /** A term or a phrase with its `~` and `^`. */
  private term(fields: FieldSet): Query | null {
    const token = this.peek();
    if (!token) this.fail('the query ends where a term is expected');
    this.index += 1;
    if (token.type === 'regex') throw unsupported('A regular expression (/…/) in query_string', this.context.at);
    if (token.type === 'range') throw unsupported('A range without a field in query_string', this.context.at);
    if (token.type === 'quoted') {
      const slop = this.tilde();
      const query = phraseQuery(this.context, fields, token.text, slop === null ? this.context.phraseSlop : Math.trunc(Number(slop)));
      return query && boosted(query, this.boost());
    }
    if (token.type !== 'term') this.fail(`"${this.text.slice(token.at, token.at + 2).trim()}" at character ${token.at + 1} is not expected here`);
    const fuzzy = this.tilde();
    const boost = this.boost();
    const fuzzyAfter = fuzzy ?? this.tilde();
    if (token.text === '*' && fuzzyAfter === null) return boosted(matchAll(), boost);
    if (token.wildcard && fuzzyAfter !== null) this.fail(`"${token.text}~" mixes a wildcard and fuzziness`);
    const word = token.wildcard
      ? patternWord(token.text)
      : { text: token.text, form: 'plain' as const, fuzziness: fuzzyAfter === null ? (0 as const) : fuzzinessOf(fuzzyAfter, this.context.fuzziness) };
    if (word.form !== 'plain' && fields.text.length === 0) throw unsupported(`The wildcard "${token.text}" on a keyword field`, this.context.at);
    const query = wordQuery(this.context, fields, word);
    return query && boosted(query, boost);
  }

  private tilde(): string | null {
    const token = this.peek();
    if (token?.type !== 'tilde') return null;
    this.index += 1;
    return token.value;
  }

  private boost(): number {
    const token = this.peek();
    if (token?.type !== 'caret') return 1;
    this.index += 1;
    return Number(token.value);
  }
}

/**
 * Lucene's QueryParserBase.addClause: AND makes the clause before required (unless prohibited);
 * with default_operator AND, OR makes it optional; the new clause is required by `+` or AND (or
 * the AND default), prohibited by `-`, NOT or `!`. A clause without words still moves its neighbours.
 */
function addClause(clauses: Clause[], conjunction: 'AND' | 'OR' | null, modifier: 'NOT' | '+' | null, query: Query | null, operator: 'or' | 'and') {
  const previous = clauses.at(-1);
  if (previous && previous.occur !== 'mustNot') {
    if (conjunction === 'AND') previous.occur = 'must';
    else if (operator === 'and' && conjunction === 'OR') previous.occur = 'should';
  }
  if (!query) return;
  const prohibited = modifier === 'NOT';
  const required = operator === 'or' ? modifier === '+' || (conjunction === 'AND' && !prohibited) : !prohibited && conjunction !== 'OR';
  const occur: Occur = prohibited ? 'mustNot' : required ? 'must' : 'should';
  clauses.push({ occur, query });
}
