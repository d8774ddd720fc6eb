import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { normalizeTerm, stemmerOf } from '../analysis.js';
import type { QueryWord } from '../query.js';
import { withLocalSettings } from './local-settings.js';
import { allowedEdits, ocrDistance } from './ocr-distance.js';

/** A vocabulary term a query term stands for, and how much a match on it counts (1: the term itself). */
export interface Variant {
  termId: number;
  term: string;
  factor: number;
}

/** One term of a query with the vocabulary terms it matches. */
export interface TermGroup {
  /** The term as the query has it, normalised. */
  term: string;
  /** A prefix query (`word*`): also matches terms the vocabulary lacks in the tsquery. */
  prefix: boolean;
  variants: Variant[];
}

/** Elasticsearch's `max_expansions` default: a fuzzy, prefix or pattern term stands for at most this many terms. */
const MAX_EXPANSIONS = 50;
/** Stemmers a query is stemmed with when no language filter names one. */
const ALL_STEMMERS = [
  'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'hungarian', 'italian', 'norwegian', 'portuguese', 'romanian',
  'russian', 'spanish', 'swedish', 'turkish',
];

/** Expands query terms against the vocabulary of the indices searched. */
export class TermExpander {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly indexIds: string[],
    private readonly stemmers: string[] = ALL_STEMMERS,
  ) {}

  /** The stemmers of these languages (a language filter), or every stemmer when none has one. */
  static stemmersFor(languages: string[] | null): string[] {
    if (!languages) return ALL_STEMMERS;
    const named = [...new Set(languages.map(stemmerOf).filter((s) => s !== null))];
    return named.length ? named : [];
  }

  private pairsIndexed: Promise<boolean> | null = null;

  /** Whether every document of the indices holds its word pairs (see `bigram`): none written before they were. */
  phrasesIndexed(): Promise<boolean> {
    this.pairsIndexed ??= sql<{ all: boolean }>`
      select not exists (select 1 from search_document where index_id = any(${this.indexIds}::uuid[]) and not bigrams) as all`
      .execute(this.db)
      .then((r) => r.rows[0]!.all);
    return this.pairsIndexed;
  }

  private inScope(alias: string) {
    return sql`exists (select 1 from search_term_stat s where s.term_id = ${sql.ref(`${alias}.id`)} and s.index_id = any(${this.indexIds}::uuid[]))`;
  }

  /** A term matched as it is, by its stem, and (fuzzy) by close terms. */
  async plain(term: string, fuzziness: QueryWord['fuzziness'], stem: boolean): Promise<TermGroup> {
    const variants = new Map<number, Variant>();
    const add = (v: Variant) => {
      const known = variants.get(v.termId);
      if (!known || known.factor < v.factor) variants.set(v.termId, v);
    };
    const exact = await sql<{ id: number; term: string }>`select id, term from search_term where term = ${term}`.execute(this.db);
    for (const row of exact.rows) add({ termId: row.id, term: row.term, factor: 1 });
    if (stem && this.stemmers.length) for (const v of await this.stems(term)) add(v);
    const edits = allowedEdits(fuzziness, term);
    if (edits > 0) for (const v of await this.fuzzy(term, edits)) add(v);
    return { term, prefix: false, variants: [...variants.values()] };
  }

  private async stems(term: string): Promise<Variant[]> {
    const rows = await sql<{ id: number; term: string }>`
      select distinct t.id, t.term
      from unnest(${this.stemmers}::text[]) as c(config)
      join search_term_stem s on s.config = c.config and s.stem = coalesce((ts_lexize((c.config || '_stem')::regdictionary, ${term}))[1], ${term})
      join search_term t on t.id = s.term_id
      where ${this.inScope('t')}
      limit ${MAX_EXPANSIONS}`.execute(this.db);
    return rows.rows.filter((r) => r.term !== term).map((r) => ({ termId: r.id, term: r.term, factor: 0.9 }));
  }

  /** Close terms: trigram candidates from the vocabulary, kept within the OCR-aware edit distance. */
  private async fuzzy(term: string, edits: number): Promise<Variant[]> {
    // Short terms share few trigrams with their misspellings: a lower threshold finds them.
    const threshold = term.length <= 5 ? '0.15' : '0.25';
    const rows = await withLocalSettings(this.db, { 'pg_trgm.similarity_threshold': threshold }, async (trx) => {
      const found = await sql<{ id: number; term: string }>`
        select t.id, t.term from search_term t
        where t.term % ${term} and ${this.inScope('t')}
        order by similarity(t.term, ${term}) desc, t.term limit 500`.execute(trx);
      return found.rows;
    });
    const close: Variant[] = [];
    for (const row of rows) {
      if (row.term === term) continue;
      const distance = ocrDistance(term, row.term, edits);
      if (distance <= edits) close.push({ termId: row.id, term: row.term, factor: Math.max(0.5, 1 - 0.2 * distance) });
    }
    return close.sort((a, b) => b.factor - a.factor || a.term.localeCompare(b.term)).slice(0, MAX_EXPANSIONS);
  }

  /** Terms starting with the prefix, the most frequent first. */
  async prefix(raw: string): Promise<TermGroup> {
    const prefix = normalizeTerm(raw);
    const rows = await sql<{ id: number; term: string }>`
      select t.id, t.term from search_term t
      join search_term_stat s on s.term_id = t.id and s.index_id = any(${this.indexIds}::uuid[])
      where t.term like ${`${escapeLike(prefix)}%`}
      group by t.id, t.term order by sum(s.df) desc, t.term limit ${MAX_EXPANSIONS}`.execute(this.db);
    return { term: prefix, prefix: true, variants: rows.rows.map((r) => ({ termId: r.id, term: r.term, factor: 1 })) };
  }

  /** Terms matching a pattern with `*` (any characters) and `?` (one character). */
  async pattern(raw: string): Promise<TermGroup> {
    const normalised = [...raw].map((c) => (c === '*' || c === '?' ? c : normalizeTerm(c))).join('');
    const like = escapeLike(normalised).replace(/\*/g, '%').replace(/\?/g, '_');
    const rows = await sql<{ id: number; term: string }>`
      select t.id, t.term from search_term t
      join search_term_stat s on s.term_id = t.id and s.index_id = any(${this.indexIds}::uuid[])
      where t.term like ${like}
      group by t.id, t.term order by sum(s.df) desc, t.term limit ${MAX_EXPANSIONS}`.execute(this.db);
    return { term: normalised, prefix: false, variants: rows.rows.map((r) => ({ termId: r.id, term: r.term, factor: 1 })) };
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
