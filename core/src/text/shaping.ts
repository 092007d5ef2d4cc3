/**
 * Widths of shaped text for scripts whose glyphs change with their neighbours: Arabic
 * letters join (initial, medial, final and isolated forms, ligatures such as lam-alef), so
 * a word is narrower than the sum of its letters' isolated advances. Shaping is Skia's
 * (HarfBuzz inside `@napi-rs/canvas`), with the face fontconfig gives LibreOffice for
 * Arabic here (DejaVu Sans, `fonts-dejavu-core`); without it the caller keeps the sum of
 * advances.
 */
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';

/** Size the widths are measured at (they scale linearly), px = pt. */
const MEASURE_SIZE = 100;
/** Family shaped Arabic is measured in. */
export const ARABIC_FACE = 'DejaVu Sans';

let ctx: SKRSContext2D | undefined | null;
function context(): SKRSContext2D | undefined {
  if (ctx === undefined) {
    try {
      ctx = createCanvas(1, 1).getContext('2d');
    } catch {
      ctx = null;
    }
  }
  return ctx ?? undefined;
}

/** Shaped widths per style and text, in em (bounded: a slide deck repeats its words). */
const cache = new Map<string, number>();
const CACHE_LIMIT = 20_000;

/** True for code points of Arabic letters that join (Arabic, Arabic Supplement, Arabic Extended-A). */
export function isJoiningArabic(cp: number): boolean {
  return (cp >= 0x0620 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0x08a0 && cp <= 0x08ff);
}

/** Whether a text holds two or more joining Arabic letters (shaping changes its width). */
export function needsShaping(text: string): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isJoiningArabic(text.charCodeAt(i)) && ++n > 1) return true;
  return false;
}

/**
 * The shaped advance width of `text` in {@link ARABIC_FACE}, in em (multiply by the size in
 * points), or undefined when no shaper is at hand.
 */
export function shapedWidthEm(text: string, bold: boolean, italic: boolean): number | undefined {
  const key = `${bold ? 1 : 0}${italic ? 1 : 0}${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const c = context();
  if (!c) return undefined;
  c.font = `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}${MEASURE_SIZE}px "${ARABIC_FACE}"`;
  const w = c.measureText(text).width / MEASURE_SIZE;
  if (!(w > 0)) return undefined;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, w);
  return w;
}
