import { iso6393, type Language } from 'iso-639-3';

/** Languages by code (ISO 639-3, 639-2/B and 639-1) and by English name, as transcriptions name them. */
const LANGUAGES = new Map<string, Language>();
for (const l of iso6393) {
  for (const key of [l.iso6393, l.iso6392B, l.iso6391, l.name.toLowerCase()]) {
    if (key && !LANGUAGES.has(key)) LANGUAGES.set(key, l);
  }
}

/**
 * A transcription's language as a BCP 47 tag for the EPUB (dc:language, xml:lang): PAGE names
 * languages ('Latin'), Tesseract and hOCR use ISO 639 codes ('lat', 'deu_frak', 'eng+nld': the
 * first). The shortest code wins ('la'), as BCP 47 asks. Null when it names no known language.
 */
export function languageTag(stored: string | null): string | null {
  if (stored === null) return null;
  const text = stored.trim().toLowerCase();
  const language = LANGUAGES.get(text) ?? LANGUAGES.get(text.split(/[+_\-\s]/)[0] ?? '');
  if (!language || language.type === 'special') return null;
  return language.iso6391 ?? language.iso6393;
}

/** The tag most pages are in (the first seen wins a tie); 'und' (undetermined) when none says. */
export function mostCommonTag(counts: ReadonlyMap<string, number>): string {
  let best = 'und';
  let most = 0;
  for (const [tag, n] of counts) {
    if (n > most) [best, most] = [tag, n];
  }
  return best;
}
