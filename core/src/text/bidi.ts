/**
 * The Unicode Bidirectional Algorithm (UAX #9) for laid-out lines: embedding levels of a
 * line's characters and the visual order of its pieces (rule L2). The `bidi-js` package
 * implements the algorithm; glyph order inside a piece of one direction and Arabic
 * joining are the shaper's (Skia's when drawing, LibreOffice's and PowerPoint's in theirs).
 */
import bidiModule from 'bidi-js';
import type { Bidi } from 'bidi-js';

// The package is CommonJS whose module.exports is the factory; its types declare a default export.
const bidiFactory: () => Bidi = (bidiModule as unknown as { default?: () => Bidi }).default ?? (bidiModule as unknown as () => Bidi);
let bidi: Bidi | undefined;
function engine(): Bidi {
  return (bidi ??= bidiFactory());
}

/**
 * The embedding level of each UTF-16 unit of `text` (odd: right to left), with the
 * paragraph's base direction given (`rtl`: level 1, else 0), as rules P2–I2 resolve them.
 */
export function embeddingLevels(text: string, rtl: boolean): Uint8Array {
  return engine().getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr').levels;
}

/**
 * The visual order (left to right) of a line's pieces given each piece's embedding level,
 * by rule L2: from the highest level down to the lowest odd level, every maximal sequence
 * of pieces at that level or higher is reversed.
 * @returns indices into `levels`, leftmost first
 */
export function visualOrder(levels: readonly number[]): number[] {
  const order = levels.map((_, i) => i);
  if (levels.length < 2) return order;
  let highest = 0;
  let lowestOdd = 255;
  for (const l of levels) {
    if (l > highest) highest = l;
    if (l % 2 === 1 && l < lowestOdd) lowestOdd = l;
  }
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    for (let i = 0; i < order.length; ) {
      if (levels[order[i]!]! < level) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < order.length && levels[order[j + 1]!]! >= level) j++;
      for (let a = i, b = j; a < b; a++, b--) [order[a], order[b]] = [order[b]!, order[a]!];
      i = j + 1;
    }
  }
  return order;
}
