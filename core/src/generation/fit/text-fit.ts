/**
 * Measured text fitting for generated slides (issue 4, item 1); tables are fitted in
 * `./table-fit.ts`, split into pages in `./paginate.ts`.
 *
 * A filled text shape is read exactly as the preview renderer reads it
 * (`ooxml/pml/text-style.ts`: every paragraph and run property resolved through the shape's
 * own list style, its layout and master placeholders, the master's `p:txStyles` and the
 * presentation's `p:defaultTextStyle`, ECMA-376 Part 1 §19.3.1.52 / §21.1.2.3.9), laid out
 * by the shared engine (`text/layout.ts`: advance widths from shipped metrics, insets,
 * bullets, indents, line and paragraph spacing) and shrunk to the largest size that fits
 * its box, never above the template's size and never below the minimum. The chosen sizes
 * are written explicitly on every run (`a:rPr/@sz`, hundredths of a point, ST_TextFontSize
 * §20.1.10.83) and any `a:normAutofit/@fontScale` on the shape is reset to 100 %, so
 * PowerPoint and LibreOffice show the fitted result as written instead of re-fitting.
 *
 * Geometry is EMU (12 700 per point); sizes are points.
 */
import { SlideDraft, type DeferredParagraphs, type GeneratedSlidePart } from '../draft/index.js';
import { materializeParagraphs } from '../slide/text.js';
import { NS, attr, child, children, createElement, type Element } from '../../ooxml/xml.js';
import { Shape } from '../../ooxml/pml/shapes.js';
import { shapeTextSources, type TextStyleSources } from '../../ooxml/pml/text-style.js';
import { isVerticalText, layoutText, EMU_PER_PT, type TextBodyInput, type TextLayout, type TextRunInput } from '../../text/layout.js';
import type { VerticalMetrics } from '../../text/font-metrics.js';
import { FIT_LAYOUT, fitMetrics, HEIGHT_SAFETY } from '../../text/fit-metrics.js';


/** Smallest size steps written: sizes are rounded down to half points. */
export const SIZE_STEP_PT = 0.5;

/** Result of fitting one text body. */
export interface TextFitOutcome {
  /** Largest run size written, pt. */
  sizePt: number;
  /** The template's (or the format's) largest run size before fitting, pt. */
  templateSizePt: number;
  fits: boolean;
  /** How far the text still runs past the box at the minimum size, pt (0 when it fits). */
  overflowPt: number;
  /** Height the text needs at the written size, insets included, pt. */
  neededPt: number;
}

/** Options of {@link fitShapeText}. */
export interface TextFitOptions {
  /** Smallest size the largest run may shrink to, pt. */
  minPt: number;
  /** The box to fit, EMU (defaults to the shape's resolved frame). */
  box?: { cx: number; cy: number };
}

/** The text style sources and laid-out input of a shape on a generated slide. */
export function readShapeText(part: GeneratedSlidePart, sp: Element): { body: TextBodyInput; src: TextStyleSources; shape: Shape } | undefined {
  const txBody = child(sp, NS.p, 'txBody');
  if (!txBody) return undefined;
  const shape = part.shapeOf(sp);
  const src = shapeTextSources(shape, { theme: part.theme, colorMap: part.colorMap });
  return { body: part.draft.readTextBody(txBody, src), src, shape };
}

export function largestRun(body: TextBodyInput): number {
  let max = 0;
  for (const p of body.paragraphs) for (const r of p.runs) if (!r.lineBreak && r.text !== '') max = Math.max(max, r.font.size_pt);
  if (max === 0) for (const p of body.paragraphs) max = Math.max(max, p.endFont?.size_pt ?? 0);
  return max || 18;
}

/**
 * Fits the text of a top-level `p:sp` on a generated slide into its box and writes the
 * sizes ({@link fitBodySize}). Vertical text (`bodyPr/@vert`) is laid out along the box's
 * height; shapes without a resolvable frame are left as they are (reported as fitting).
 */
export function fitShapeText(part: GeneratedSlidePart, sp: Element, o: TextFitOptions): TextFitOutcome | undefined {
  const read = readShapeText(part, sp);
  if (!read) return undefined;
  const { body, src, shape } = read;
  const vert = src.bodyPrs.map((b) => attr(b, 'vert')).find((v) => v !== undefined) ?? 'horz';
  const frame = o.box ?? shape.frame;
  if (!frame) {
    const templateSizePt = largestRun(body);
    return { sizePt: templateSizePt, templateSizePt, fits: true, overflowPt: 0, neededPt: 0 };
  }
  // vertical text (§20.1.10.82 ST_TextVerticalType) runs along the box's height
  const rotated = isVerticalText(vert);
  const fit = fitBodySize(body, rotated ? frame.cy : frame.cx, rotated ? frame.cx : frame.cy, o.minPt);
  if (fit.k === undefined) return fit.outcome;
  writeScaledSizes(child(sp, NS.p, 'txBody')!, body, fit.k);
  resetFontScale(sp);
  return fit.outcome;
}

/** Result of {@link fitBodySize}. */
export interface BodyFit {
  outcome: TextFitOutcome;
  /** Factor every size is written at (undefined when the body holds no visible text: nothing to write). */
  k: number | undefined;
}

/**
 * The size a text body is written at to fit a box `w` EMU wide (along its lines) and `h`
 * EMU high: the largest half-point size of its largest run at which the text fits
 * {@link HEIGHT_SAFETY} of the height, measured with {@link fitMetrics}, never above the
 * template's size and never below the minimum (unless the template's is smaller);
 * unwrapped text also within the width.
 *
 * @param minSizePt - smallest size the largest run may shrink to, pt
 */
export function fitBodySize(body: TextBodyInput, w: number, h: number, minSizePt: number): BodyFit {
  const templateSizePt = largestRun(body);
  if (!body.paragraphs.some((p) => p.runs.some((r) => !r.lineBreak && r.text.trim() !== ''))) {
    return { outcome: { sizePt: templateSizePt, templateSizePt, fits: true, overflowPt: 0, neededPt: 0 }, k: undefined };
  }
  const box = { width_emu: w, height_emu: Math.floor(h * HEIGHT_SAFETY) };
  const boxPt = box.height_emu / EMU_PER_PT;
  const minPt = Math.min(minSizePt, templateSizePt);
  // the body as the file holds it once the sizes are written: its own font scale and
  // line-spacing reduction dropped; candidate sizes are laid out at a `sizeScale` (sizes
  // rounded as written, spacing given in points as it stays in the file)
  const written = (body.fontScale ?? 1) === 1 && (body.lnSpcReduction ?? 0) === 0 ? body : { ...body, fontScale: 1, lnSpcReduction: 0 };
  // per scale laid out: the height the text needs (insets included; it does not depend on
  // the box's height, so the final size's is one of these unless unwrapped text shrinks to
  // its width), about how much the text could grow before a paragraph needs another line,
  // and whether any layout broke a word between characters
  const heights = new Map<number, number>();
  const growth = new Map<number, number>();
  let brokeWords = false;
  const neededAt = (scale: number): number => {
    let needed = heights.get(scale);
    if (needed === undefined) {
      const l = layoutText(written, box, scale === 1 ? FIT_LAYOUT : { ...FIT_LAYOUT, sizeScale: scale });
      needed = l.totalHeight_pt;
      heights.set(scale, needed);
      growth.set(scale, growthRoom(l));
      if (l.brokeWords) brokeWords = true;
    }
    return needed;
  };
  // the overflow test of a layout in `box` (TextLayout.overflow_pt ≤ 0.01)
  const fitsAt = (pt: number): boolean => Math.max(0, neededAt(pt / templateSizePt) - boxPt) <= 0.01;
  let scale: number;
  let fits = true;
  if (fitsAt(templateSizePt)) scale = 1;
  else {
    // the largest half-point size (of the largest run) at which the text fits, above the
    // minimum (what a plain bisection finds), searched from estimates
    const lo = Math.ceil(minPt / SIZE_STEP_PT);
    let hi = Math.floor(templateSizePt / SIZE_STEP_PT);
    if (hi * SIZE_STEP_PT >= templateSizePt) hi--;
    const insets = ((body.tIns_emu ?? 45720) + (body.bIns_emu ?? 45720)) / EMU_PER_PT;
    const room = boxPt + 0.01 - insets;
    const textAt = (pt: number): number => neededAt(pt / templateSizePt) - insets;
    /**
     * The size (in steps) at which the text would just fill the room. From the largest
     * size known to fit: the text keeps its number of lines while it grows until a
     * paragraph's last line is full, and meanwhile its height grows with the size. From
     * the smallest size known not to fit (the template's at first): the height taken as
     * growing with a power of the size, read from the two smallest sizes known not to fit
     * (the square, about the line height times the number of lines, with only one).
     */
    const estimate = (good: number, bad: number, bad2: number): number => {
      if (good > lo) {
        const ptGood = good * SIZE_STEP_PT;
        return (ptGood * Math.min(room / textAt(ptGood), growth.get(ptGood / templateSizePt) ?? Infinity)) / SIZE_STEP_PT;
      }
      const ptBad = bad <= hi ? bad * SIZE_STEP_PT : templateSizePt;
      const hBad = textAt(ptBad);
      let power = 2;
      if (bad <= hi) {
        const ptBad2 = bad2 <= hi ? bad2 * SIZE_STEP_PT : templateSizePt;
        const read = Math.log(textAt(ptBad2) / hBad) / Math.log(ptBad2 / ptBad);
        if (read > 0) power = Math.min(3, Math.max(0.5, read));
      }
      return (ptBad * Math.pow(room / hBad, 1 / power)) / SIZE_STEP_PT;
    };
    // the step found (lo: none above the minimum fits), undefined when not even the minimum fits
    const estimated = (): number | undefined => {
      // when even the minimum probably does not fit, that is checked first
      const minFirst = !(room > 0 && estimate(lo, hi + 1, hi + 1) >= lo + 1);
      if (minFirst && !fitsAt(minPt)) return undefined;
      const found = largestFittingStep(lo, hi, (i) => fitsAt(i * SIZE_STEP_PT), estimate);
      return found === lo && !minFirst && !fitsAt(minPt) ? undefined : found;
    };
    const bisected = (): number | undefined => {
      if (!fitsAt(minPt)) return undefined;
      let a = lo;
      let b = hi;
      while (a < b) {
        const mid = Math.ceil((a + b) / 2);
        if (fitsAt(mid * SIZE_STEP_PT)) a = mid;
        else b = mid - 1;
      }
      return a;
    };
    // the estimated search finds what the bisection finds where the text's height never
    // shrinks as its size grows; elsewhere (words broken between characters: they are at
    // every larger size too; fonts of different heights within a paragraph) the bisection
    // decides, over the layouts already made
    const estimable = evenLineHeights(body) && !brokeWords;
    let step = estimable ? estimated() : bisected();
    // a layout made while estimating may have broken a word: then the bisection decides
    if (estimable && brokeWords) step = bisected();
    if (step === undefined) {
      scale = minPt / templateSizePt;
      fits = false;
    } else scale = Math.max(minPt, step * SIZE_STEP_PT) / templateSizePt;
  }
  if (body.wrap === false) {
    // unwrapped text (`wrap="none"`) must also fit the width: each line's width scales with
    // the size, the room beside its indentation does not; a line's alignment offset is left
    // out (right-aligned or centred unwrapped text places even an overlong line in the box)
    const one = layoutText(written, { width_emu: w, height_emu: h }, { metrics: fitMetrics, asianSpacing: true, tallEastAsianLines: true });
    let sw = Infinity;
    for (const l of one.lines) if (l.width_pt > l.avail_pt && l.width_pt > 0) sw = Math.min(sw, (Math.max(0, l.avail_pt) / l.width_pt) * 0.99);
    if (sw < Infinity) {
      if (sw < scale) scale = sw;
      if (templateSizePt * sw < minPt) fits = false;
    }
  }
  // round down to half points, never below the minimum (unless the template is smaller)
  let target = Math.floor((templateSizePt * scale + 1e-6) / SIZE_STEP_PT) * SIZE_STEP_PT;
  target = scale >= 1 ? templateSizePt : Math.max(minPt, Math.min(templateSizePt, target));
  const k = target / templateSizePt;
  // the box without the safety margin only changes the overflow, which is 0 when it fits
  const neededPt = neededAt(k);
  return { outcome: { sizePt: target, templateSizePt, fits, overflowPt: fits ? 0 : round1(Math.max(0, neededPt - h / EMU_PER_PT)), neededPt }, k };
}

/**
 * Whether all lines of each paragraph are equally high at any size: the paragraph's text
 * is in one size and in fonts of one ascent and descent (its bullet is only ever on its
 * first line, an empty line's font is its own). Then, as long as no word is broken between
 * characters, the text's height never shrinks as its size grows: lines break greedily, so
 * wider text never needs fewer lines, and each line grows with the size.
 */
function evenLineHeights(body: TextBodyInput): boolean {
  for (const p of body.paragraphs) {
    let first: TextRunInput | undefined;
    let unit: VerticalMetrics | undefined;
    for (const r of p.runs) {
      if (r.lineBreak || r.text === '') continue;
      if (first === undefined) {
        first = r;
        continue;
      }
      const small = r.cap === 'small';
      if (small !== (first.cap === 'small') || r.font.size_pt !== first.font.size_pt) return false;
      if (r.font === first.font) continue;
      unit ??= fitMetrics.vertical({ ...first.font, size_pt: 1 });
      const v = fitMetrics.vertical({ ...r.font, size_pt: 1 });
      if (v.ascent_pt !== unit.ascent_pt || v.descent_pt !== unit.descent_pt) return false;
    }
  }
  return true;
}

/**
 * About how much wider a laid-out text could grow before a paragraph needs another line:
 * the least, over its paragraphs, of the room left on the last line against the width of
 * the paragraph's text (Infinity without text).
 */
function growthRoom(l: TextLayout): number {
  let least = Infinity;
  let width = 0;
  for (let i = 0; i < l.lines.length; i++) {
    const line = l.lines[i]!;
    width += line.width_pt;
    const next = l.lines[i + 1];
    if (next !== undefined && next.paragraph === line.paragraph) continue;
    if (width > 0) least = Math.min(least, 1 + Math.max(0, line.avail_pt - line.width_pt) / width);
    width = 0;
  }
  return least;
}

/** Probes of {@link largestFittingStep} made at estimated steps before it bisects. */
const ESTIMATED_PROBES = 3;

/**
 * The largest step in `(lo, hi]` at which `fits` holds, or `lo` when it holds at none:
 * what a bisection of `(lo, hi]` finds when `fits` holds up to some step and at none
 * above it (as text fits up to some size). The first {@link ESTIMATED_PROBES} probes are
 * at the steps `estimate` gives for the answer, the others bisect: an estimate within a
 * step of the answer costs two probes, poor ones at most three more than a bisection.
 * Every probe is strictly between the largest step known to fit (`good`; `lo` while none
 * is) and the smallest known not to (`bad`; `hi + 1` while none is).
 *
 * @param estimate - the answer's estimate from `good`, `bad` and the step known not to fit
 *   before `bad` (`bad2`; `hi + 1` while there is none); its floor is probed, NaN bisects
 */
export function largestFittingStep(lo: number, hi: number, fits: (step: number) => boolean, estimate: (good: number, bad: number, bad2: number) => number): number {
  let good = lo;
  let bad = hi + 1;
  let bad2 = hi + 1;
  for (let probes = 0; bad - good > 1; probes++) {
    let step = probes < ESTIMATED_PROBES ? Math.floor(estimate(good, bad, bad2)) : NaN;
    if (Number.isNaN(step)) step = Math.floor((good + bad) / 2);
    step = Math.min(bad - 1, Math.max(good + 1, step));
    if (fits(step)) good = step;
    else {
      bad2 = bad;
      bad = step;
    }
  }
  return good;
}

/**
 * A copy of a text body with every run, bullet and end-of-paragraph size times `k`, the
 * body's own font scale and line-spacing reduction dropped: what the file holds once the
 * sizes are written (spacing in points is not scaled, unlike `normAutofit/@fontScale`).
 */
export function scaleBody(body: TextBodyInput, k: number): TextBodyInput {
  if (k === 1) return (body.fontScale ?? 1) === 1 && (body.lnSpcReduction ?? 0) === 0 ? body : { ...body, fontScale: 1, lnSpcReduction: 0 };
  const sz = (pt: number): number => Math.max(1, Math.round(pt * k * 100) / 100);
  return {
    ...body,
    fontScale: 1,
    lnSpcReduction: 0,
    paragraphs: body.paragraphs.map((p) => ({
      ...p,
      runs: p.runs.map((r) => ({ ...r, font: { ...r.font, size_pt: sz(r.font.size_pt) } })),
      bullet: p.bullet ? { ...p.bullet, font: { ...p.bullet.font, size_pt: sz(p.bullet.font.size_pt) } } : undefined,
      endFont: p.endFont ? { ...p.endFont, size_pt: sz(p.endFont.size_pt) } : undefined,
    })),
  };
}

export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * Writes `sz` on every run, field, break and end-of-paragraph of `txBody`: the resolved
 * size (from `body`, read from the same text body in the same order) times `k`.
 */
export function writeScaledSizes(txBody: Element, body: TextBodyInput, k: number): void {
  const doc = txBody.ownerDocument!;
  // character spacing (`spc`, ST_TextPoint §20.1.10.73) is in points and does not follow the
  // size: shrunk text keeps the spacing it was measured with only if it is written scaled
  // too (-3 pt suits a 96 pt title, not the same title at 18 pt); the paragraph model
  // holds no spacing, so such text is written as nodes
  const spaced = k < 1 && body.paragraphs.some((p) => p.runs.some((r) => (r.spacing_pt ?? 0) !== 0));
  const model = SlideDraft.paragraphsOf(txBody);
  if (model && !spaced) {
    writeModelSizes(model, body, k);
    return;
  }
  if (model) materializeParagraphs(doc, txBody);
  const ps = children(txBody, NS.a, 'p');
  ps.forEach((p, pi) => {
    const para = body.paragraphs[pi];
    if (!para) return;
    let ri = 0;
    for (const r of children(p, NS.a)) {
      if (r.localName === 'r' || r.localName === 'fld' || r.localName === 'br') {
        const run = para.runs[ri++];
        if (!run) continue;
        let rPr = child(r, NS.a, 'rPr');
        if (!rPr) {
          rPr = createElement(doc, NS.a, 'a:rPr', { lang: 'en-US' });
          r.insertBefore(rPr, r.firstChild);
        }
        rPr.setAttribute('sz', String(sizeValue(run.font.size_pt * k)));
        if (spaced && run.spacing_pt) rPr.setAttribute('spc', String(Math.round(run.spacing_pt * k * 100)));
      } else if (r.localName === 'endParaRPr' && para.endFont) {
        r.setAttribute('sz', String(sizeValue(para.endFont.size_pt * k)));
      }
    }
  });
}

/**
 * {@link writeScaledSizes} for paragraphs still a model: the sizes go where the
 * serializer writes them.
 */
export function writeModelSizes(model: DeferredParagraphs, body: TextBodyInput, k: number): void {
  model.sizes = model.lines.map((_, pi) => {
    const para = body.paragraphs[pi];
    return { runs: para ? para.runs.map((r) => sizeValue(r.font.size_pt * k)) : [], end: para?.endFont ? sizeValue(para.endFont.size_pt * k) : undefined };
  });
}

/** ST_TextFontSize: hundredths of a point, 100–400000. */
function sizeValue(pt: number): number {
  return Math.max(100, Math.min(400_000, Math.round(pt * 100)));
}

/**
 * Makes the shape's own `a:bodyPr` carry no font scale or line-spacing reduction: an
 * inherited or own `a:normAutofit` stays (PowerPoint keeps shrinking text a user adds
 * later), at 100 % because the sizes are already written.
 */
function resetFontScale(sp: Element): void {
  const bodyPr = child(child(sp, NS.p, 'txBody'), NS.a, 'bodyPr');
  const fit = bodyPr ? child(bodyPr, NS.a, 'normAutofit') : undefined;
  if (fit) {
    fit.removeAttribute('fontScale');
    fit.removeAttribute('lnSpcReduction');
  }
}
