/**
 * The whitespace after each word of a text but the last, exactly as it stands. The word alignment
 * keeps only the words (joined by one space); the diff puts this whitespace back between them, so
 * a page diffed by words keeps its lines.
 */
export function wordSeparators(text: string): string[] {
  const separators: string[] = [];
  let end = -1;
  // The same words as the contract's splitWords: maximal runs of what \s does not match.
  for (const match of text.matchAll(/\S+/gu)) {
    if (end >= 0) separators.push(text.slice(end, match.index));
    end = match.index + match[0].length;
  }
  return separators;
}

/** The words of a run on one side, from the text's `first` word on, with their own whitespace between. */
export function wordsWithSeparators(run: string, first: number, separators: string[]): { text: string; count: number } {
  const words = run.split(' ');
  let text = words[0]!;
  for (let i = 1; i < words.length; i += 1) text += (separators[first + i - 1] ?? ' ') + words[i];
  return { text, count: words.length };
}
