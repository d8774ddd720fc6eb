/** Stand-ins for characters that print as nothing, so a changed space or line break can be seen. */
const STAND_INS: Record<string, string> = {
  ' ': '␣',
  '\t': '⇥',
  '\n': '⏎',
  '\r': '␍',
  '\u00a0': '⍽',
};

const MARK = /^\p{M}$/u;
const SPACE = /^\s$/u;
// Format and control characters (zero-width joiners, soft hyphens, bidi marks...).
const INVISIBLE = /^[\p{Cc}\p{Cf}]$/u;

/** U+ and four or more hex digits. */
export function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * One code point as it can be seen alone: spaces and breaks by a symbol, a combining mark on a
 * dotted circle (◌), an invisible character by its code point.
 */
export function visibleCharacter(character: string): string {
  const standIn = STAND_INS[character];
  if (standIn) return standIn;
  if (SPACE.test(character)) return '␣';
  if (MARK.test(character)) return `\u25cc${character}`;
  if (INVISIBLE.test(character)) return `⟨${codePoint(character)}⟩`;
  return character;
}

/**
 * A changed stretch of text made visible: whitespace and invisible characters by their stand-ins
 * (a line break still breaks the line after its ⏎), and a leading combining mark on ◌, since it
 * would otherwise sit on whatever character precedes the stretch.
 */
export function visibleRun(text: string): string {
  let out = '';
  for (const character of text) {
    if (character === '\n') out += '⏎\n';
    else if (MARK.test(character)) out += out === '' ? `\u25cc${character}` : character;
    else if (SPACE.test(character) || INVISIBLE.test(character)) out += visibleCharacter(character);
    else out += character;
  }
  return out;
}
