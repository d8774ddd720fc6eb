import { SEARCH_KEYWORD_FIELDS, type SearchKeywordField } from '@pim/contract';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { AppError } from '../../../platform/errors.js';
import { terms } from '../analysis.js';
import type { BoolQuery, FieldWeight, KeywordValue, PhraseQuery, Query, RangeQuery, TermsQuery, TextQuery } from '../query.js';
import type { TermExpander, TermGroup } from './expand.js';
import { bigram } from './document-terms.js';
import { FIELD_CODES, FIELD_WEIGHTS } from './fields.js';

/**
 * What a predicate amounts to when it is one the term statistics can count: a document holds one
 * of `terms` in any field (null: no condition on terms), and its language is one of `languages`
 * (null: any language).
 */
export interface Countable {
  terms: string[] | null;
  languages: string[] | null;
}

/** A condition on the documents (alias `d`): a tsquery on their terms where possible, else SQL. */
export type Predicate = ({ kind: 'const'; value: boolean } | { kind: 'ts'; query: string } | { kind: 'sql'; sql: RawBuilder<SqlBool> }) & {
  countable?: Countable;
  /**
   * The GIN index lists the matches without any document's terms being read again (lexemes
   * without weight labels, prefixes or positions, with filters on columns), so listing them costs
   * little per match.
   */
  listable?: boolean;
};

/** Terms whose matches score a document: BM25 of each group's best variant and field, times the boost. */
export interface ScoringClause {
  groups: TermGroup[];
  fields: FieldWeight[];
  boost: number;
  /** most_fields: the fields' scores add up; otherwise the best field counts. */
  sumFields: boolean;
}

export interface CompiledQuery {
  predicate: Predicate;
  scoring: ScoringClause[];
  /** Terms (and prefixes) to highlight. */
  highlight: { terms: Set<string>; prefixes: string[] };
}

const TRUE: Predicate = { kind: 'const', value: true };
const FALSE: Predicate = { kind: 'const', value: false };

export function toSql(p: Predicate): RawBuilder<SqlBool> {
  if (p.kind === 'const') return p.value ? sql<SqlBool>`true` : sql<SqlBool>`false`;
  if (p.kind === 'ts') return sql<SqlBool>`d.terms @@ ${p.query}::tsquery`;
  return p.sql;
}

/** Both countable: at most one of them asks for terms, and the languages both allow. */
function bothCountable(parts: Predicate[]): Countable | undefined {
  if (!parts.every((p) => p.countable)) return undefined;
  const withTerms = parts.filter((p) => p.countable!.terms !== null);
  if (withTerms.length > 1) return undefined;
  let languages: string[] | null = null;
  for (const p of parts) {
    const allowed = p.countable!.languages;
    if (allowed) languages = languages ? languages.filter((l) => allowed.includes(l)) : [...allowed];
  }
  return { terms: withTerms[0]?.countable!.terms ?? null, languages };
}

/** Either countable: both ask for terms in any language. */
function eitherCountable(parts: Predicate[]): Countable | undefined {
  if (!parts.every((p) => p.countable?.terms && p.countable.languages === null)) return undefined;
  return { terms: [...new Set(parts.flatMap((p) => p.countable!.terms!))], languages: null };
}

function and(parts: Predicate[]): Predicate {
  if (parts.some((p) => p.kind === 'const' && !p.value)) return FALSE;
  const live = parts.filter((p) => p.kind !== 'const');
  if (live.length === 0) return TRUE;
  if (live.length === 1) return live[0]!;
  const countable = bothCountable(live);
  const listable = live.every((p) => p.listable);
  if (live.every((p) => p.kind === 'ts')) return { kind: 'ts', query: live.map((p) => `(${(p as { query: string }).query})`).join(' & '), countable, listable };
  return { kind: 'sql', sql: sql<SqlBool>`(${sql.join(live.map(toSql), sql` and `)})`, countable, listable };
}

function or(parts: Predicate[]): Predicate {
  if (parts.some((p) => p.kind === 'const' && p.value)) return TRUE;
  const live = parts.filter((p) => p.kind !== 'const');
  if (live.length === 0) return FALSE;
  if (live.length === 1) return live[0]!;
  const countable = eitherCountable(live);
  const listable = live.every((p) => p.kind === 'ts' && p.listable);
  if (live.every((p) => p.kind === 'ts')) return { kind: 'ts', query: live.map((p) => `(${(p as { query: string }).query})`).join(' | '), countable, listable };
  return { kind: 'sql', sql: sql<SqlBool>`(${sql.join(live.map(toSql), sql` or `)})`, countable };
}

function not(p: Predicate): Predicate {
  if (p.kind === 'const') return { kind: 'const', value: !p.value };
  if (p.kind === 'ts') return { kind: 'ts', query: `!(${p.query})`, listable: p.listable };
  return { kind: 'sql', sql: sql<SqlBool>`not ${p.sql}`, listable: p.listable };
}

/** At least `n` of the parts. */
function atLeast(parts: Predicate[], n: number): Predicate {
  if (n <= 0) return TRUE;
  if (n === 1) return or(parts);
  if (n >= parts.length) return and(parts);
  return { kind: 'sql', sql: sql<SqlBool>`(${sql.join(parts.map((p) => sql`(${toSql(p)})::int`), sql` + `)}) >= ${n}` };
}

export function lexeme(term: string, weights: string, prefix = false): string {
  const quoted = `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return prefix || weights ? `${quoted}:${prefix ? '*' : ''}${weights}` : quoted;
}

/**
 * The weight labels that restrict a lexeme to the searched fields; none when every field is
 * searched (the screen's case), so the GIN index answers without reading each document's terms
 * again (it keeps no weights, so a labelled match must be checked on the document).
 */
function weightsOf(fields: FieldWeight[]): string {
  const weights = [...new Set(fields.map((f) => FIELD_WEIGHTS[f.field]))].sort().join('');
  return weights === 'ABC' ? '' : weights;
}

/** Turns the query model into a predicate and scoring terms, expanding terms against the vocabulary. */
export class QueryCompiler {
  private readonly highlightTerms = new Set<string>();
  private readonly highlightPrefixes: string[] = [];

  constructor(
    private readonly expander: TermExpander,
    private readonly indexNames: Map<string, string>,
  ) {}

  async compile(query: Query): Promise<CompiledQuery> {
    const scoring: ScoringClause[] = [];
    const predicate = await this.node(query, scoring, 1);
    return { predicate, scoring, highlight: { terms: this.highlightTerms, prefixes: this.highlightPrefixes } };
  }

  /** `scoring` is null inside filters and must_not: nothing there scores. */
  private async node(q: Query, scoring: ScoringClause[] | null, boost: number): Promise<Predicate> {
    switch (q.kind) {
      case 'match_all':
        return TRUE;
      case 'match_none':
        return FALSE;
      case 'text':
        return this.text(q, scoring, boost * q.boost);
      case 'phrase':
        return this.phrase(q, scoring, boost * q.boost);
      case 'bool':
        return this.bool(q, scoring, boost * q.boost);
      case 'terms':
        return keywordIn(q, this.indexNames);
      case 'range':
        return keywordRange(q);
      case 'exists':
        return exists(q.field);
      case 'ids':
        return { kind: 'sql', sql: sql<SqlBool>`d.image_id::text = any(${q.values}::text[])` };
    }
  }

  private async bool(q: BoolQuery, scoring: ScoringClause[] | null, boost: number): Promise<Predicate> {
    const must = await Promise.all(q.must.map((c) => this.node(c, scoring, boost)));
    const filter = await Promise.all(q.filter.map((c) => this.node(c, null, boost)));
    const should = await Promise.all(q.should.map((c) => this.node(c, scoring, boost)));
    const mustNot = await Promise.all(q.mustNot.map((c) => this.node(c, null, boost)));
    return and([...must, ...filter, atLeast(should, q.minimumShouldMatch), ...mustNot.map(not)]);
  }

  private async groupsOf(q: TextQuery): Promise<TermGroup[]> {
    const groups: TermGroup[] = [];
    for (const word of q.words) {
      if (word.form === 'prefix') groups.push(await this.expander.prefix(word.text.replace(/\*+$/, '')));
      else if (word.form === 'pattern') groups.push(await this.expander.pattern(word.text));
      else for (const term of terms(word.text)) groups.push(await this.expander.plain(term, word.fuzziness, true));
    }
    return groups;
  }

  private async text(q: TextQuery, scoring: ScoringClause[] | null, boost: number): Promise<Predicate> {
    const groups = await this.groupsOf(q);
    if (groups.length === 0) return FALSE;
    const weights = weightsOf(q.fields);
    const parts: Predicate[] = groups.map((g) => {
      const alternatives = new Set(g.variants.map((v) => lexeme(v.term, weights)));
      const whole = !g.prefix && !g.term.includes('*') && !g.term.includes('?');
      if (g.prefix) alternatives.add(lexeme(g.term, weights, true));
      else if (whole) alternatives.add(lexeme(g.term, weights));
      if (alternatives.size === 0) return FALSE;
      // Whole terms in every field: what the term statistics count.
      const countable = whole && weights === '' ? { terms: [...new Set([g.term, ...g.variants.map((v) => v.term)])], languages: null } : undefined;
      return { kind: 'ts', query: [...alternatives].join(' | '), countable, listable: whole && weights === '' };
    });
    this.noteHighlights(groups);
    if (scoring) scoring.push({ groups, fields: q.fields, boost, sumFields: q.scoring === 'most_fields' });
    if (q.operator === 'and') return and(parts);
    return atLeast(parts, Math.max(1, q.minimumShouldMatch ?? 1));
  }

  private async phrase(q: PhraseQuery, scoring: ScoringClause[] | null, boost: number): Promise<Predicate> {
    const words = terms(q.text);
    if (words.length === 0) return FALSE;
    const weights = weightsOf(q.fields);
    const groups: TermGroup[] = [];
    for (const [i, term] of words.entries()) {
      const last = i === words.length - 1;
      groups.push(last && q.lastIsPrefix ? await this.expander.prefix(term) : await this.expander.plain(term, 0, false));
    }
    this.noteHighlights(groups);
    if (scoring) scoring.push({ groups, fields: q.fields, boost, sumFields: false });
    const lexemes = words.map((term, i) => lexeme(term, weights, q.lastIsPrefix && i === words.length - 1));
    if (lexemes.length === 1) return { kind: 'ts', query: lexemes[0]!, listable: weights === '' && !q.lastIsPrefix };
    if (q.slop === 0) {
      const positional = lexemes.join(' <-> ');
      if (q.lastIsPrefix || !(await this.expander.phrasesIndexed())) return { kind: 'ts', query: positional };
      // Each pair of neighbours is one lexeme: two words need nothing more; a longer phrase
      // narrows through its pairs, and the positions are checked on the few documents holding all.
      const pairs = words.slice(1).map((word, i) => lexeme(bigram(words[i]!, word), weights));
      if (pairs.length === 1) return { kind: 'ts', query: pairs[0]!, listable: weights === '' };
      return { kind: 'ts', query: `${pairs.join(' & ')} & (${positional})` };
    }
    if (lexemes.length === 2) {
      const spans = Array.from({ length: Math.min(q.slop, 20) + 1 }, (_, i) => `(${lexemes[0]} <${i + 1}> ${lexemes[1]})`);
      return { kind: 'ts', query: spans.join(' | ') };
    }
    // With slop, longer phrases ask for every word: the order is not checked.
    return { kind: 'ts', query: lexemes.join(' & ') };
  }

  private noteHighlights(groups: TermGroup[]): void {
    for (const g of groups) {
      if (g.prefix) this.highlightPrefixes.push(g.term);
      else this.highlightTerms.add(g.term);
      for (const v of g.variants) this.highlightTerms.add(v.term);
    }
  }
}

const COLUMNS: Record<SearchKeywordField, string> = {
  imageUuid: 'd.image_id',
  imageSetUuid: 'd.set_ids',
  imageSet: 'd.source',
  index: 'd.index_id',
  label: 'd.label',
  language: 'd.language',
  pagenumber: 'd.pagenumber',
  height: 'd.height',
  width: 'd.width',
  ocrConfidence: 'd.ocr_confidence',
  deskew: 'd.deskew',
  columnCount: 'd.column_count',
  lineCount: 'd.line_count',
  wordCount: 'd.word_count',
  date: 'd.date',
};
export const SORT_EXPRESSIONS: Record<SearchKeywordField, RawBuilder<unknown>> = {
  ...Object.fromEntries(Object.entries(COLUMNS).map(([k, v]) => [k, sql.raw(v)])),
  imageSetUuid: sql`d.set_ids[1]`,
  imageSet: sql`d.source->'imageSet'->>0`,
  // The document's own copy of its index's name: the index's row may be in another database.
  index: sql`d.source->>'index'`,
} as Record<SearchKeywordField, RawBuilder<unknown>>;

function valueOf(field: SearchKeywordField, value: KeywordValue, construct: string): string | number {
  const type = SEARCH_KEYWORD_FIELDS[field];
  if (type === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (typeof value === 'boolean' || !Number.isFinite(n)) {
      throw new AppError(400, 'search_value', `The ${construct} on the field "${field}" needs a number, not ${JSON.stringify(value)}.`);
    }
    return n;
  }
  if (type === 'date') {
    const time = typeof value === 'number' ? value : Date.parse(String(value));
    if (typeof value === 'boolean' || !Number.isFinite(time)) {
      throw new AppError(400, 'search_value', `The ${construct} on the field "${field}" needs a date, not ${JSON.stringify(value)}.`);
    }
    return new Date(time).toISOString();
  }
  return String(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function keywordIn(q: TermsQuery, indexNames: Map<string, string>): Predicate {
  const values = q.values.map((v) => valueOf(q.field, v, 'term query'));
  if (values.length === 0) return FALSE;
  const strings = values.map(String);
  switch (q.field) {
    case 'imageUuid':
      return { kind: 'sql', sql: sql<SqlBool>`d.image_id = any(${strings.filter((s) => UUID.test(s))}::uuid[])`, listable: true };
    case 'imageSetUuid':
      return { kind: 'sql', sql: sql<SqlBool>`d.set_ids && ${strings.filter((s) => UUID.test(s))}::uuid[]`, listable: true };
    case 'imageSet':
      return { kind: 'sql', sql: sql<SqlBool>`(d.source->'imageSet') ?| ${strings}::text[]`, listable: true };
    case 'index': {
      const ids = [...indexNames].filter(([, name]) => strings.includes(name)).map(([id]) => id);
      return { kind: 'sql', sql: sql<SqlBool>`d.index_id = any(${ids}::uuid[])`, listable: true };
    }
    default: {
      const type = SEARCH_KEYWORD_FIELDS[q.field];
      const cast = type === 'number' ? 'float8[]' : type === 'date' ? 'timestamptz[]' : 'text[]';
      // `is true`: no index serves it. A language or size is shared by many documents; the
      // query's terms (the GIN index) narrow better, and a plan led by this btree would test the
      // terms of every document with the value.
      const countable = q.field === 'language' ? { terms: null, languages: strings } : undefined;
      return { kind: 'sql', sql: sql<SqlBool>`(${sql.raw(COLUMNS[q.field])} = any(${values}::${sql.raw(cast)})) is true`, countable, listable: true };
    }
  }
}

function keywordRange(q: RangeQuery): Predicate {
  const type = SEARCH_KEYWORD_FIELDS[q.field];
  if (q.field === 'imageUuid' || q.field === 'imageSetUuid' || q.field === 'imageSet' || q.field === 'index') {
    throw new AppError(400, 'search_unsupported', `A range query on the field "${q.field}" is not supported: use term or terms.`);
  }
  const cast = type === 'number' ? 'float8' : type === 'date' ? 'timestamptz' : 'text';
  const column = sql.raw(COLUMNS[q.field]);
  const bounds: RawBuilder<SqlBool>[] = [];
  const ops = [
    ['gt', '>'],
    ['gte', '>='],
    ['lt', '<'],
    ['lte', '<='],
  ] as const;
  for (const [key, op] of ops) {
    const value = q[key];
    if (value === undefined) continue;
    bounds.push(sql<SqlBool>`${column} ${sql.raw(op)} ${valueOf(q.field, value, 'range query')}::${sql.raw(cast)}`);
  }
  return bounds.length
    ? { kind: 'sql', sql: sql<SqlBool>`(${sql.join(bounds, sql` and `)})`, listable: true }
    : { kind: 'sql', sql: sql<SqlBool>`${column} is not null`, listable: true };
}

function exists(field: string): Predicate {
  if (field in FIELD_CODES) return { kind: 'sql', sql: sql<SqlBool>`d.lengths[${FIELD_CODES[field as keyof typeof FIELD_CODES] + 1}] > 0` };
  const column = COLUMNS[field as SearchKeywordField];
  if (field === 'imageSetUuid' || field === 'imageSet') return { kind: 'sql', sql: sql<SqlBool>`cardinality(d.set_ids) > 0` };
  return { kind: 'sql', sql: sql<SqlBool>`${sql.raw(column)} is not null` };
}
