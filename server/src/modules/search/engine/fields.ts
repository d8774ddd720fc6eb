import type { SearchTextField } from '@pim/contract';

/** The text fields as stored: their number in postings and their weight letter in `terms`. */
export const FIELD_CODES: Record<SearchTextField, number> = { text: 0, htr: 1, persons: 2 };
export const FIELD_WEIGHTS: Record<SearchTextField, 'A' | 'B' | 'C'> = { text: 'A', htr: 'B', persons: 'C' };
export const FIELD_NAMES: SearchTextField[] = ['text', 'htr', 'persons'];

/** BM25's parameters, Lucene's defaults. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** The length-normalised term frequency part of BM25 (without idf), as postings store it. */
export function bm25Weight(tf: number, length: number, averageLength: number): number {
  const { base, perLength } = bm25Norms(averageLength);
  return (tf * (BM25_K1 + 1)) / (tf + base + perLength * length);
}

/**
 * BM25's length normalisation as `base + perLength·length` for an average length (without one,
 * every length counts as average). The blocks' decoder weighs with these inline, in this same
 * order of operations, so both paths give a posting the same weight to the last bit.
 */
export function bm25Norms(averageLength: number): { base: number; perLength: number } {
  return averageLength > 0 ? { base: BM25_K1 * (1 - BM25_B), perLength: (BM25_K1 * BM25_B) / averageLength } : { base: BM25_K1, perLength: 0 };
}

/** Lucene's BM25 idf: never negative, however common the term. */
export function bm25Idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/** tsvector positions stop at 16383; the fields follow each other with a gap so no phrase spans two. */
export const MAX_POSITION = 16_383;
export const FIELD_GAP = 100;
