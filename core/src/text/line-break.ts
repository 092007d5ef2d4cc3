/**
 * Line break opportunities by the Unicode Line Breaking Algorithm (UAX #14), with its
 * CJK rules: ideographs, kana and Hangul may break between any two characters, except
 * before closing punctuation, small kana and iteration marks (classes CL, NS, CJ) and
 * after opening brackets (OP), the kinsoku rules PowerPoint and LibreOffice follow. The
 * `linebreak` package implements the algorithm; this module only cuts text at its
 * opportunities.
 */
import LineBreaker from 'linebreak';

/**
 * The text cut at every break opportunity: each piece may end a line (its trailing spaces
 * included), and no line may break inside one. Mandatory breaks are treated as
 * opportunities (callers remove line ends first).
 */
export function breakPieces(text: string): string[] {
  const pieces: string[] = [];
  const breaker = new LineBreaker(text);
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    if (bk.position > last) pieces.push(text.slice(last, bk.position));
    last = bk.position;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}
