import type { Language as LanguageRef } from '@pim/contract';
import { iso6393, type Language } from 'iso-639-3';

/**
 * The languages of ISO 639-3 (about 7,900), historical and ancient ones included: manuscripts are
 * in Latin, Middle Dutch, Old French. A model's language is stored as its ISO 639-3 code.
 */
const BY_CODE = new Map<string, Language>(iso6393.map((l) => [l.iso6393, l]));

/** ISO 639-1 ('nl') and ISO 639-2/B ('dut') codes name the same languages; they are accepted and mapped. */
const ALIASES = new Map<string, Language>();
for (const l of iso6393) {
  if (l.iso6391) ALIASES.set(l.iso6391, l);
  if (l.iso6392B && l.iso6392B !== l.iso6393) ALIASES.set(l.iso6392B, l);
}

/** The language a code names (ISO 639-3, or an ISO 639-1 or 639-2/B code), in any case. */
export function findLanguage(code: string): LanguageRef | undefined {
  const key = code.trim().toLowerCase();
  const found = BY_CODE.get(key) ?? ALIASES.get(key);
  return found && { code: found.iso6393, name: found.name };
}

/** The stored code's language; a code the list no longer knows is shown as itself. */
export function languageOf(code: string | null): LanguageRef | null {
  if (code === null) return null;
  return findLanguage(code) ?? { code, name: code };
}

/** Living individual languages and macrolanguages come before historical ones, special codes last. */
function tier(l: Language): number {
  if (l.type === 'special') return 2;
  return l.type === 'living' ? 0 : 1;
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Every language in the order of an empty filter: living before historical, each by name. */
const ORDERED = [...iso6393].sort((a, b) => tier(a) - tier(b) || collator.compare(a.name, b.name) || a.iso6393.localeCompare(b.iso6393));

const codesOf = (l: Language) => [l.iso6393, l.iso6391, l.iso6392B].filter((c): c is string => Boolean(c));

/**
 * Languages whose code or name contains the filter, in any case: the one with that exact code (any
 * of its ISO 639 codes) first, then those with that exact name, then the others in ORDERED's order.
 */
export function searchLanguages(filter: string, skip: number, limit: number): LanguageRef[] {
  const term = filter.trim().toLowerCase();
  const rank = (l: Language) => (codesOf(l).includes(term) ? 0 : l.name.toLowerCase() === term ? 1 : 2);
  const matches = term
    ? ORDERED.filter((l) => l.name.toLowerCase().includes(term) || codesOf(l).some((c) => c.includes(term)))
        .map((l) => ({ l, rank: rank(l) }))
        // Array.prototype.sort is stable: within a rank, ORDERED's order stays.
        .sort((a, b) => a.rank - b.rank)
        .map(({ l }) => l)
    : ORDERED;
  return matches.slice(skip, skip + limit).map((l) => ({ code: l.iso6393, name: l.name }));
}
