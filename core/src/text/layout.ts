/**
 * Text layout for DrawingML text bodies (ECMA-376 Part 1, §21.1.2): paragraphs of runs
 * wrapped by measured advance widths into lines inside a box, with the text body's insets
 * (§21.1.2.1.1 `a:bodyPr` lIns/tIns/rIns/bIns), vertical anchor (`anchor`), the paragraph
 * properties of §21.1.2.2.7 `a:pPr` (marL, indent, algn, `a:lnSpc` §21.1.2.2.5,
 * `a:spcBef` §21.1.2.2.10, `a:spcAft` §21.1.2.2.9, bullets §21.1.2.4) and the font scale of
 * `a:normAutofit` (§21.1.2.1.3 fontScale / lnSpcReduction).
 *
 * Units: box geometry and insets in EMU (12700 EMU = 1 pt); every output position in
 * points from the box's top-left corner. Inputs are already-resolved values (the caller
 * walks the inheritance chain); this module only measures and places.
 *
 * Shared by the renderer (which draws the lines) and text fitting ({@link fitText}).
 */
import { defaultFontMetrics, isCjk, type FontMetrics, type FontSpec } from './font-metrics.js';

/** EMU per point (ECMA-376 §20.1.10.16 ST_Coordinate: 914400 EMU per inch, 72 pt per inch). */
export const EMU_PER_PT = 12700;

/** One run of text with its resolved character properties (§21.1.2.3.9 `a:rPr`). */
export interface TextRunInput {
  text: string;
  font: FontSpec;
  /** Colour as `RRGGBB` (optionally with alpha 0–1 in {@link TextRunInput.alpha}). */
  color?: string;
  alpha?: number;
  underline?: boolean;
  strike?: boolean;
  /** Baseline shift in percent of the size (`baseline`, 30 = superscript); 0 by default. */
  baseline_pct?: number;
  /** Extra letter spacing, pt (`spc` / 100). */
  spacing_pt?: number;
  /** Capitalisation (`cap`): none, all, small (small caps drawn as all caps at 0.8 size). */
  cap?: 'none' | 'all' | 'small';
  /** True for an `a:br` line break (its text is ignored). */
  lineBreak?: boolean;
}

/** Line or paragraph spacing: a percentage of the line (`a:spcPct`, 100 = single) or points (`a:spcPts`). */
export type Spacing = { pct: number } | { pts: number };

/** A bullet (§21.1.2.4): a character or an auto number, already formatted. */
export interface BulletInput {
  /** The text drawn as the bullet (a character, or "3." for auto numbering). */
  text: string;
  font: FontSpec;
  color?: string;
}

/** One paragraph (§21.1.2.2.6 `a:p`) with resolved paragraph properties. */
export interface ParagraphInput {
  runs: TextRunInput[];
  /** `algn`: l (default), ctr, r, just, dist. */
  align?: 'l' | 'ctr' | 'r' | 'just' | 'dist';
  /** Left margin `marL`, EMU. */
  marL_emu?: number;
  /** First-line indent `indent` (negative = hanging), EMU. */
  indent_emu?: number;
  /** Right margin `marR`, EMU. */
  marR_emu?: number;
  /** Line spacing (`a:lnSpc`); single (100 %) by default. */
  lineSpacing?: Spacing;
  spaceBefore?: Spacing;
  spaceAfter?: Spacing;
  bullet?: BulletInput;
  /** Font of an empty paragraph's line (`a:endParaRPr`), used for its height. */
  endFont?: FontSpec;
  /** Right-to-left paragraph (`rtl`); recorded, alignment stays absolute. */
  rtl?: boolean;
}

/** A text body's paragraphs and frame properties (§21.1.2.1.1 `a:bodyPr`). */
export interface TextBodyInput {
  paragraphs: ParagraphInput[];
  /** Insets, EMU; schema defaults 91440 / 45720 / 91440 / 45720. */
  lIns_emu?: number;
  tIns_emu?: number;
  rIns_emu?: number;
  bIns_emu?: number;
  /** `anchor`: t (default), ctr, b (just/dist are treated as t). */
  anchor?: 't' | 'ctr' | 'b' | 'just' | 'dist';
  /** `wrap="square"` (true, default) or `none`. */
  wrap?: boolean;
  /** `a:normAutofit/@fontScale` as a fraction (1 = 100 %). */
  fontScale?: number;
  /** `a:normAutofit/@lnSpcReduction` as a fraction (0.2 = 20 % less line spacing). */
  lnSpcReduction?: number;
}

/**
 * True for the `vert` values of ST_TextVerticalType (§20.1.10.82; `a:bodyPr/@vert`,
 * `a:tcPr/@vert`) whose lines run along the box's height: the text is laid out in the box
 * turned a quarter (`vert270` the other way round).
 */
export function isVerticalText(vert: string | undefined): boolean {
  return vert === 'vert' || vert === 'vert270' || vert === 'eaVert' || vert === 'mongolianVert' || vert === 'wordArtVert' || vert === 'wordArtVertRtl';
}

/** The box the text is laid out in (the shape's text rectangle), EMU. */
export interface TextBox {
  width_emu: number;
  height_emu: number;
}

/** A piece of one line set in one font. */
export interface LineFragment {
  text: string;
  /** Left edge from the box's left, pt. */
  x_pt: number;
  width_pt: number;
  /** Font with the scale applied. */
  font: FontSpec;
  color?: string;
  alpha?: number;
  underline?: boolean;
  strike?: boolean;
  /** Baseline shift upwards, pt. */
  rise_pt: number;
  /** Extra spacing after each character, pt. */
  spacing_pt: number;
  /** True for the bullet. */
  bullet?: boolean;
}

/** One laid-out line. */
export interface LayoutLine {
  paragraph: number;
  /** Baseline from the box's top, pt. */
  baseline_pt: number;
  /** Top of the line box from the box's top, pt. */
  top_pt: number;
  height_pt: number;
  /** Width of the text on the line (trailing spaces excluded), pt. */
  width_pt: number;
  fragments: LineFragment[];
}

/** Result of {@link layoutText}. */
export interface TextLayout {
  lines: LayoutLine[];
  /** Height of the text from the first line's top to the last line's bottom, pt (no insets). */
  textHeight_pt: number;
  /** Text height plus top and bottom insets, pt: what the box must offer. */
  totalHeight_pt: number;
  /** How far the text (with insets) runs past the box's bottom, pt (0 when it fits). */
  overflow_pt: number;
  /** How far the widest line runs past the box's inner width, pt (only unwrapped text can; 0 otherwise). */
  overflowX_pt: number;
  /** True when a single word had to be broken because it was wider than the line. */
  brokeWords: boolean;
  /** The font scale used (fontScale × any extra scale). */
  scale: number;
}

/** Options of {@link layoutText}. */
export interface LayoutOptions {
  metrics?: FontMetrics;
  /** Extra scale multiplied into the body's fontScale (used by {@link fitText}). */
  extraScale?: number;
  /** Extra line spacing reduction (fraction) added to the body's lnSpcReduction. */
  extraLnSpcReduction?: number;
  /**
   * Only measure: lines get their positions, heights and widths but no fragments (what
   * text fitting needs; drawing needs the fragments).
   */
  measureOnly?: boolean;
}

interface Piece {
  text: string;
  font: FontSpec;
  run: TextRunInput;
  width: number;
  /** Break opportunity kind: 'space' pieces may hang at the end of a line; 'word' pieces glue together. */
  kind: 'word' | 'space' | 'cjk' | 'break';
}

function scaled(font: FontSpec, k: number): FontSpec {
  return k === 1 ? font : { ...font, size_pt: Math.max(1, Math.round(font.size_pt * k * 100) / 100) };
}

function displayText(run: TextRunInput): string {
  return run.cap === 'all' || run.cap === 'small' ? run.text.toUpperCase() : run.text;
}

/** Splits runs into words, spaces and CJK characters, each measured. */
function piecesOf(p: ParagraphInput, k: number, m: FontMetrics): Piece[] {
  const out: Piece[] = [];
  for (const run of p.runs) {
    const font = scaled(run.cap === 'small' ? { ...run.font, size_pt: run.font.size_pt * 0.8 } : run.font, k);
    if (run.lineBreak) {
      out.push({ text: '', font, run, width: 0, kind: 'break' });
      continue;
    }
    const text = TAB_OR_BREAK.test(run.text) ? displayText(run).replace(/[\t]/g, '    ').replace(/[\r\n\v]/g, ' ') : displayText(run);
    const spc = (run.spacing_pt ?? 0) * k;
    // one pass over the UTF-16 units: a piece is a maximal stretch of one kind (CJK: one character)
    let start = 0;
    let count = 0;
    let curKind: Piece['kind'] = 'word';
    const flush = (end: number): void => {
      if (end > start) {
        const t = text.slice(start, end);
        out.push({ text: t, font, run, width: m.measure(t, font) + (spc === 0 ? 0 : spc * count), kind: curKind });
      }
      start = end;
      count = 0;
    };
    for (let i = 0; i < text.length; ) {
      let cp = text.charCodeAt(i);
      let len = 1;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        len = 2;
      }
      const kind: Piece['kind'] = cp === 0x20 || cp === 0x3000 ? 'space' : cp >= 0x1100 && isCjk(cp) ? 'cjk' : 'word';
      if (kind === 'cjk') {
        flush(i);
        curKind = 'cjk';
        count = 1;
        flush(i + len);
        curKind = 'word';
      } else {
        if (kind !== curKind) flush(i);
        curKind = kind;
        count++;
      }
      i += len;
    }
    flush(text.length);
  }
  return out;
}

/** The visible pieces of a line (line breaks dropped) without its trailing spaces. */
function trimTrailingSpaces(pieces: Piece[]): Piece[] {
  const visible = pieces.some((x) => x.kind === 'break') ? pieces.filter((x) => x.kind !== 'break') : pieces;
  let end = visible.length;
  while (end > 0 && visible[end - 1]!.kind === 'space') end--;
  return end === visible.length ? visible : visible.slice(0, end);
}

/** Characters piecesOf rewrites before splitting (tab → four spaces, line ends → space). */
const TAB_OR_BREAK = /[\t\r\n\v]/;

/** Splits a too-long word piece into parts no wider than `avail` (at least one character each). */
function breakWord(piece: Piece, avail: number, m: FontMetrics): Piece[] {
  const parts: Piece[] = [];
  let cur = '';
  let curW = 0;
  const spc = (piece.run.spacing_pt ?? 0);
  for (const ch of piece.text) {
    const w = m.measure(ch, piece.font) + spc;
    if (cur && curW + w > avail) {
      parts.push({ ...piece, text: cur, width: curW });
      cur = '';
      curW = 0;
    }
    cur += ch;
    curW += w;
  }
  if (cur) parts.push({ ...piece, text: cur, width: curW });
  return parts;
}

function spacingPts(s: Spacing | undefined, sizePt: number, k: number): number {
  if (!s) return 0;
  // spcPct of paragraph spacing is a share of the line (font size × 1.2, as PowerPoint and LibreOffice treat it).
  return 'pts' in s ? s.pts * k : (s.pct / 100) * sizePt * 1.2;
}

/**
 * Lays out a text body in a box: wraps each paragraph by measured advance widths (breaks
 * at spaces; a word wider than the line is broken between characters; CJK text breaks
 * between any two characters), places lines with line spacing, paragraph spacing, indents
 * and bullets, then aligns horizontally and anchors vertically.
 *
 * Line height at single spacing is the font's ascent + descent (OS/2 win metrics) of the
 * line's largest font, at least 1.2 × its size (PowerPoint's single line pitch; the extra
 * leading goes above the text); `a:spcPct` multiplies it, `a:spcPts` replaces it.
 *
 * @param body - resolved paragraphs and frame properties
 * @param box - the shape's text rectangle, EMU
 */
export function layoutText(body: TextBodyInput, box: TextBox, options: LayoutOptions = {}): TextLayout {
  const m = options.metrics ?? defaultFontMetrics;
  const k = (body.fontScale ?? 1) * (options.extraScale ?? 1);
  const lnRed = (body.lnSpcReduction ?? 0) + (options.extraLnSpcReduction ?? 0);
  const lIns = (body.lIns_emu ?? 91440) / EMU_PER_PT;
  const rIns = (body.rIns_emu ?? 91440) / EMU_PER_PT;
  const tIns = (body.tIns_emu ?? 45720) / EMU_PER_PT;
  const bIns = (body.bIns_emu ?? 45720) / EMU_PER_PT;
  const boxW = box.width_emu / EMU_PER_PT;
  const boxH = box.height_emu / EMU_PER_PT;
  const wrap = body.wrap ?? true;
  const innerW = Math.max(0, boxW - lIns - rIns);

  const lines: LayoutLine[] = [];
  let y = 0;
  let brokeWords = false;
  let overflowX = 0;
  body.paragraphs.forEach((p, pi) => {
    const marL = (p.marL_emu ?? 0) / EMU_PER_PT;
    const indent = (p.indent_emu ?? 0) / EMU_PER_PT;
    const marR = (p.marR_emu ?? 0) / EMU_PER_PT;
    const pieces = piecesOf(p, k, m);
    const firstFont = scaled(p.runs.find((r) => !r.lineBreak && r.text !== '')?.font ?? p.endFont ?? p.runs[0]?.font ?? { name: 'Calibri', size_pt: 18 }, k);
    const paraSize = firstFont.size_pt;
    if (pi > 0 || lines.length > 0) y += spacingPts(p.spaceBefore, paraSize, k);
    // Group pieces into lines.
    type Built = { pieces: Piece[]; startX: number; avail: number };
    const built: Built[] = [];
    let lineNo = 0;
    const newLine = (): Built => {
      const startX = lineNo === 0 ? marL + indent : marL;
      const b: Built = { pieces: [], startX, avail: Math.max(1, innerW - startX - marR) };
      lineNo++;
      built.push(b);
      return b;
    };
    let cur = newLine();
    let bulletW = 0;
    if (p.bullet && pieces.some((x) => x.kind !== 'break')) {
      const bf = scaled(p.bullet.font, k);
      bulletW = m.measure(p.bullet.text, bf);
      // A bullet sits at marL + indent; the text starts at marL (hanging indent), or after the bullet when that is further.
      if (indent < 0) {
        cur.startX = Math.max(marL, marL + indent + bulletW);
      } else {
        cur.startX = marL + indent + bulletW;
      }
      cur.avail = Math.max(1, innerW - cur.startX - marR);
    }
    let width = 0;
    // pieces are taken in order; pieces put back (a word moved to the next line, the rest
    // of a broken word) wait on a stack, last put back first taken
    let next = 0;
    const putBack: Piece[] = [];
    const unshift = (items: Piece[]): void => {
      for (let i = items.length - 1; i >= 0; i--) putBack.push(items[i]!);
    };
    while (putBack.length || next < pieces.length) {
      const piece = putBack.length ? putBack.pop()! : pieces[next++]!;
      if (piece.kind === 'break') {
        cur.pieces.push(piece);
        cur = newLine();
        width = 0;
        continue;
      }
      if (!wrap || piece.kind === 'space' || width + piece.width <= cur.avail + 1e-6) {
        cur.pieces.push(piece);
        width += piece.width;
        continue;
      }
      // Does not fit. Words glue to a preceding word piece without a space (a word split across runs).
      let glued: Piece[] = [];
      while (cur.pieces.length && cur.pieces[cur.pieces.length - 1]!.kind === 'word' && piece.kind === 'word') {
        glued.unshift(cur.pieces.pop()!);
      }
      const hasOther = cur.pieces.some((x) => x.kind !== 'space' && x.kind !== 'break');
      if (hasOther) {
        // Move the word to a new line.
        cur = newLine();
        width = 0;
        glued.push(piece);
        unshift(glued);
        glued = [];
        continue;
      }
      // The word alone is wider than the line: break it between characters.
      cur.pieces.push(...glued);
      width = glued.reduce((s, x) => s + x.width, 0);
      if (piece.kind === 'cjk') {
        if (cur.pieces.length) {
          cur = newLine();
          width = 0;
        }
        cur.pieces.push(piece);
        width += piece.width;
        continue;
      }
      brokeWords = true;
      const parts = breakWord(piece, Math.max(1, cur.avail - width), m);
      const first = parts.shift()!;
      if (width > 0 && first.width > cur.avail - width) {
        cur = newLine();
        width = 0;
        unshift(breakWord(piece, cur.avail, m));
        continue;
      }
      cur.pieces.push(first);
      cur = newLine();
      width = 0;
      unshift(parts);
    }
    // Place the lines.
    const lineSpacing = p.lineSpacing;
    built.forEach((b, li) => {
      // ascent and descent of the line's largest fonts (the font object repeats along a run)
      let asc = 0;
      let desc = 0;
      let maxSize = 0;
      let visibleCount = 0;
      let lastFont: FontSpec | undefined;
      const take = (f: FontSpec): void => {
        if (f === lastFont) return;
        lastFont = f;
        const v = m.vertical(f);
        if (v.ascent_pt > asc) asc = v.ascent_pt;
        if (v.descent_pt > desc) desc = v.descent_pt;
        if (f.size_pt > maxSize) maxSize = f.size_pt;
      };
      for (const x of b.pieces) {
        if (x.kind === 'break') continue;
        visibleCount++;
        take(x.font);
      }
      if (visibleCount === 0) take(scaled(p.endFont ?? firstFont, p.endFont ? k : 1));
      if (li === 0 && p.bullet && visibleCount) take(scaled(p.bullet.font, k));
      // Single spacing: the font's ascent + descent, at least 1.2 × the size (PowerPoint's line pitch).
      const extraLead = Math.max(0, 1.2 * maxSize - (asc + desc));
      asc += extraLead;
      let h = asc + desc;
      let ascUsed = asc;
      if (lineSpacing && 'pts' in lineSpacing) {
        h = lineSpacing.pts * k;
        ascUsed = h * (asc / (asc + desc));
      } else {
        const pct = Math.max(0, (lineSpacing ? lineSpacing.pct / 100 : 1) - lnRed);
        h = (asc + desc) * pct;
        // Proportional spacing below 100 % shrinks the ascent (LibreOffice); above adds above the text.
        ascUsed = asc + (h - (asc + desc));
      }
      const top = y;
      const baseline = top + ascUsed;
      y += h;
      // Width without trailing spaces (line breaks hold no width).
      const trimmed = trimTrailingSpaces(b.pieces);
      let textW = 0;
      for (const x of trimmed) textW += x.width;
      overflowX = Math.max(overflowX, textW - b.avail);
      if (options.measureOnly) {
        lines.push({ paragraph: pi, baseline_pt: baseline, top_pt: top, height_pt: h, width_pt: textW, fragments: [] });
        return;
      }
      const align = p.align ?? 'l';
      const avail = b.avail;
      let off = 0;
      // Alignment is absolute (as PowerPoint and LibreOffice draw rtl paragraphs with algn="l").
      const effAlign = align;
      if (effAlign === 'ctr') off = (avail - textW) / 2;
      else if (effAlign === 'r') off = avail - textW;
      if (!wrap && effAlign !== 'l') {
        // Unwrapped text is aligned inside the box even when wider than it.
        off = effAlign === 'ctr' ? (avail - textW) / 2 : avail - textW;
      }
      const justify = (align === 'just' && li < built.length - 1 && !b.pieces.some((x) => x.kind === 'break')) || align === 'dist';
      const spaces = trimmed.filter((x) => x.kind === 'space').length;
      const extra = justify && spaces > 0 && textW < avail ? (avail - textW) / spaces : 0;
      const frags: LineFragment[] = [];
      const fragRuns: Array<TextRunInput | undefined> = [];
      let x = lIns + b.startX + off;
      if (li === 0 && p.bullet && visibleCount) {
        const bf = scaled(p.bullet.font, k);
        // The bullet stays at marL + indent; centred or right-aligned text moves it along with the text.
        const bx = lIns + marL + indent + (effAlign === 'l' ? 0 : off);
        frags.push({ text: p.bullet.text, x_pt: bx, width_pt: bulletW, font: bf, color: p.bullet.color, rise_pt: 0, spacing_pt: 0, bullet: true });
        fragRuns.push(undefined);
      }
      for (const piece of trimmed) {
        const last = frags[frags.length - 1];
        const rise = ((piece.run.baseline_pct ?? 0) / 100) * piece.font.size_pt;
        if (last && fragRuns[fragRuns.length - 1] === piece.run) {
          last.text += piece.text;
          last.width_pt += piece.width + (piece.kind === 'space' ? extra : 0);
        } else {
          frags.push({
            text: piece.text,
            x_pt: x,
            width_pt: piece.width + (piece.kind === 'space' ? extra : 0),
            font: piece.font,
            color: piece.run.color,
            alpha: piece.run.alpha,
            underline: piece.run.underline,
            strike: piece.run.strike,
            rise_pt: rise,
            spacing_pt: (piece.run.spacing_pt ?? 0) * k,
          });
          fragRuns.push(piece.run);
        }
        x += piece.width + (piece.kind === 'space' ? extra : 0);
      }
      lines.push({ paragraph: pi, baseline_pt: baseline, top_pt: top, height_pt: h, width_pt: textW, fragments: frags });
    });
    y += spacingPts(p.spaceAfter, paraSize, k);
  });
  // Space after the last paragraph does not count towards the text height.
  const lastLine = lines[lines.length - 1];
  const textHeight = lastLine ? lastLine.top_pt + lastLine.height_pt : 0;
  const totalHeight = textHeight + tIns + bIns;
  const anchor = body.anchor ?? 't';
  let dy = tIns;
  const free = boxH - totalHeight;
  if (anchor === 'ctr') dy = tIns + free / 2;
  else if (anchor === 'b') dy = tIns + free;
  for (const l of lines) {
    l.top_pt += dy;
    l.baseline_pt += dy;
  }
  return { lines, textHeight_pt: textHeight, totalHeight_pt: totalHeight, overflow_pt: Math.max(0, totalHeight - boxH), overflowX_pt: wrap ? 0 : Math.max(0, overflowX), brokeWords, scale: k };
}

/** Options of {@link fitText}. */
export interface FitOptions {
  /** Smallest size any run may shrink to, pt (default 8). */
  minSizePt?: number;
  metrics?: FontMetrics;
  /** Also allow line spacing reduction up to this fraction (PowerPoint uses up to 0.2); default 0. */
  maxLnSpcReduction?: number;
}

/** True when a layout fits its box in both directions (0.01 pt tolerance). */
function fitsIn(l: TextLayout): boolean {
  return l.overflow_pt <= 0.01 && l.overflowX_pt <= 0.01;
}

/** Result of {@link fitText}. */
export interface FitResult {
  /** Scale applied to every run's template size (1 = as the template says). */
  scale: number;
  /** The largest run size after scaling, pt. */
  sizePt: number;
  /** True when the text fits the box at `scale`. */
  fits: boolean;
  /** Overflow at the chosen scale, pt (0 when it fits). */
  overflow_pt: number;
  /** Line spacing reduction used (fraction). */
  lnSpcReduction: number;
  layout: TextLayout;
}

/**
 * Finds the largest font scale ≤ 1 (relative to the sizes in `body`, its own fontScale
 * ignored) at which the text fits `box` (height, and width for unwrapped text), without taking the largest run below
 * `minSizePt`. Binary search over the scale (text height is monotone in it), accurate to
 * 0.1 pt of the largest size; reports the overflow when even the minimum does not fit.
 */
export function fitText(body: TextBodyInput, box: TextBox, options: FitOptions = {}): FitResult {
  const metrics = options.metrics ?? defaultFontMetrics;
  const base: TextBodyInput = { ...body, fontScale: 1, lnSpcReduction: 0 };
  let maxSize = 0;
  for (const p of body.paragraphs) for (const r of p.runs) maxSize = Math.max(maxSize, r.font.size_pt);
  if (maxSize === 0) maxSize = 18;
  const minScale = Math.min(1, (options.minSizePt ?? 8) / maxSize);
  const red = options.maxLnSpcReduction ?? 0;
  const at = (s: number, r: number): TextLayout => layoutText(base, box, { metrics, extraScale: s, extraLnSpcReduction: r });
  const full = at(1, 0);
  if (fitsIn(full)) return { scale: 1, sizePt: maxSize, fits: true, overflow_pt: 0, lnSpcReduction: 0, layout: full };
  const lowest = at(minScale, red);
  if (!fitsIn(lowest)) {
    return { scale: minScale, sizePt: maxSize * minScale, fits: false, overflow_pt: lowest.overflow_pt, lnSpcReduction: red, layout: lowest };
  }
  let lo = minScale;
  let hi = 1;
  let best = lowest;
  const step = 0.1 / maxSize;
  while (hi - lo > step) {
    const mid = (lo + hi) / 2;
    const l = at(mid, red);
    if (fitsIn(l)) {
      lo = mid;
      best = l;
    } else hi = mid;
  }
  return { scale: lo, sizePt: maxSize * lo, fits: true, overflow_pt: 0, lnSpcReduction: red, layout: best };
}
