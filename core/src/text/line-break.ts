/**
 * Line break opportunities by the Unicode Line Breaking Algorithm (UAX #14), with its
 * CJK rules: ideographs, kana and Hangul may break between any two characters, except
 * before closing punctuation, small kana and iteration marks (classes CL, NS, CJ) and
 * after opening brackets (OP), the kinsoku rules PowerPoint and LibreOffice follow. The
 * `linebreak` package implements the algorithm; this module only cuts text at its
 * opportunities. Korean is the exception: it is written with spaces between words, and a
 * word of Hangul is not broken between its syllables (as LibreOffice sets it, and as
 * CSS `word-break: keep-all` describes the custom).
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
    if (bk.position > last) {
      // no break between two Hangul characters: the piece joins the one before it
      if (pieces.length > 0 && isHangul(text.codePointAt(last)!) && isHangul(text.charCodeAt(last - 1))) pieces[pieces.length - 1] += text.slice(last, bk.position);
      else pieces.push(text.slice(last, bk.position));
    }
    last = bk.position;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/** Hangul syllables and jamo (all in the Basic Multilingual Plane). */
function isHangul(cp: number): boolean {
  return (cp >= 0xac00 && cp <= 0xd7ff) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xa960 && cp <= 0xa97f);
}
