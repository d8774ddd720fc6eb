import type { SearchSource } from '@pim/contract';
import { type Token, tokenize } from './analysis.js';
import type { Highlight } from './query.js';

export interface HighlightTerms {
  terms: Set<string>;
  prefixes: string[];
}

function isMatch(token: Token, wanted: HighlightTerms): boolean {
  return wanted.terms.has(token.term) || wanted.prefixes.some((p) => token.term.startsWith(p));
}

/** The text with its matched words between the tags. */
function mark(text: string, matches: Token[], from: number, to: number, h: Highlight): string {
  let out = '';
  let at = from;
  for (const m of matches) {
    if (m.start < from || m.end > to) continue;
    out += text.slice(at, m.start) + h.preTag + text.slice(m.start, m.end) + h.postTag;
    at = m.end;
  }
  return out + text.slice(at, to);
}

/** Moves an offset back to the start of the word it falls in (never before `min`). */
function wordStart(text: string, at: number, min: number): number {
  let i = Math.max(at, min);
  while (i > min && /\S/.test(text[i - 1]!)) i--;
  return i;
}

function wordEnd(text: string, at: number, max: number): number {
  let i = Math.min(at, max);
  while (i < max && /\S/.test(text[i]!)) i++;
  return i;
}

/**
 * Fragments of a field around its matched words, best first (most matches), as Elasticsearch's
 * highlighter gives them: at most `numberOfFragments` of about `fragmentSize` characters, or the
 * whole field when `numberOfFragments` is 0.
 */
export function highlightText(text: string, wanted: HighlightTerms, h: Highlight): string[] {
  const matches = tokenize(text).filter((t) => isMatch(t, wanted));
  if (matches.length === 0) return [];
  if (h.numberOfFragments === 0 || h.fragmentSize === 0) return [mark(text, matches, 0, text.length, h)];
  const size = h.fragmentSize;
  const fragments: { from: number; to: number; count: number; first: number }[] = [];
  let i = 0;
  while (i < matches.length) {
    const first = matches[i]!;
    const from = wordStart(text, first.start - Math.floor(size / 4), 0);
    const to = wordEnd(text, from + size, text.length);
    let count = 0;
    while (i < matches.length && matches[i]!.end <= to) {
      count++;
      i++;
    }
    if (count === 0) i++;
    fragments.push({ from, to: Math.max(to, first.end), count: Math.max(count, 1), first: first.start });
  }
  return fragments
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, h.numberOfFragments)
    .map((f) => mark(text, matches, f.from, f.to, h).replace(/\s+/g, ' ').trim());
}

export function highlightFields(source: SearchSource, h: Highlight, wanted: HighlightTerms): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const field of h.fields) {
    const fragments =
      field === 'persons' ? source.persons.flatMap((p) => highlightText(p, wanted, { ...h, numberOfFragments: 0 })) : highlightText(source[field], wanted, h);
    if (fragments.length) result[field] = fragments.slice(0, h.numberOfFragments || undefined);
  }
  return result;
}
