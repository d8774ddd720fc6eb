import { HIGHLIGHT_POST, HIGHLIGHT_PRE } from '../../api/search';

export interface Piece {
  text: string;
  marked: boolean;
}

/** A highlighted fragment cut at the server's marks into plain and marked pieces; stray marks are dropped. */
export function piecesOf(fragment: string): Piece[] {
  const pieces: Piece[] = [];
  let marked = false;
  let text = '';
  const flush = () => {
    if (text !== '') pieces.push({ text, marked });
    text = '';
  };
  for (const char of fragment) {
    if (char === HIGHLIGHT_PRE || char === HIGHLIGHT_POST) {
      flush();
      marked = char === HIGHLIGHT_PRE;
    } else {
      text += char;
    }
  }
  flush();
  return pieces;
}

/** A fragment with its matched words in <mark>; every piece is text to React, never markup. */
export function Highlighted({ fragment }: { fragment: string }) {
  return (
    <>
      {piecesOf(fragment).map((piece, i) => (piece.marked ? <mark key={i}>{piece.text}</mark> : <span key={i}>{piece.text}</span>))}
    </>
  );
}
