const WHITESPACE = /\s+/u;

/** The whitespace-separated words of a text (JavaScript's \s, so every Unicode space separates). */
export function splitWords(text: string): string[] {
  return text.split(WHITESPACE).filter((word) => word.length > 0);
}
