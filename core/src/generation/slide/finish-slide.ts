/**
 * What happens to a slide after its placeholders are filled (issue 4): `slide_format`,
 * measured fitting of every filled text shape and table, text boxes moved out of a
 * growing table's way, and the pagination decision for table-only slides.
 *
 * Decisions (documented for the API):
 * - Text shapes shrink to the largest size (half-point steps) ≤ the template's at which
 *   the text fits their box, down to `textbox_min_font_size` (default 8 pt); an explicit
 *   `slide_format` size (or `footer_font_size` for the footer area) is used as given and
 *   not shrunk. Text overflowing at that size → warning `text_overflow`.
 * - Tables keep the template's sizes and row heights when they fit; else cell text
 *   shrinks (uniformly, half-point steps) down to `table_min_font_size` (default 8 pt) and
 *   rows take the height their text needs.
 * - A table-only slide (content is one table block and no text block) whose rows do not
 *   fit at the minimum is paginated when `auto_paginate_tables` is on (default): rows go to
 *   as few slides as the minimum size needs, at the largest size that keeps that page
 *   count; header rows repeat. Otherwise (option off, or a slide combining a table with
 *   text) the table stays on its slide at the minimum size, runs past its area, and a
 *   `table_overflow` warning says by how much.
 * - `allow_textbox_reposition`: text boxes (non-placeholder `p:sp` with text) lying below
 *   a table's area, overlapping it horizontally, move down as far as the table grows past
 *   its area, and the table may grow until those boxes reach the slide's bottom edge.
 */
import type { GenerationOptions, SlideData } from '../../domain/content.js';
import { NS, attr, child, children, type Document, type Element } from '../../ooxml/xml.js';
import { EMU_PER_PT, layoutText } from '../../text/layout.js';
import { fitShapeText, readShapeText } from '../fit/text-fit.js';
import type { GeneratedSlidePart } from '../draft/index.js';
import { fitTable, measureTable } from '../fit/table-fit.js';
import { headerRowsOf, planPages, type PaginationPlan } from '../fit/paginate.js';
import { fitMetrics } from '../../text/fit-metrics.js';
import { applyTextFormat, formatFor, type TextRole } from './slide-format.js';
import { cNvPr, ownRect, placeholderElement, setRect, shapeTree, xfrmElement, type Rect } from './shapes.js';
import { frameTable } from './tables.js';

/** A filled shape as `fillSlide` reports it. */
export interface FilledShape {
  shape: Element;
  role: TextRole | 'table' | 'field';
  area?: Rect;
}

/** Input of {@link finishSlide}. */
export interface FinishSlideInput {
  /** The slide draft as the reading model sees it (its tree: `part.draft.doc`). */
  part: GeneratedSlidePart;
  filled: readonly FilledShape[];
  slideData: SlideData;
  options: GenerationOptions;
  /** Slide size (`p:sldSz`), EMU. */
  slideSize: { cx: number; cy: number };
  /** True when the slide may be split (table-only and `auto_paginate_tables`). */
  paginate: boolean;
  /** Cell size to write on the table (a page of a paginated table), pt. */
  forcedTablePt?: number;
  warn(code: string, message: string): void;
  /** Told the outcome of every fitted shape (the quality report's `fit` check reads them); fitting does not depend on it. */
  onFit?(fit: ShapeFit): void;
}

/** How one filled shape was fitted: the size the template gave it and the size written. */
export interface ShapeFit {
  shape: Element;
  role: TextRole | 'table';
  /** The template's (or the format's) largest run size, pt. */
  templateSizePt: number;
  /** The largest run size written, pt. */
  sizePt: number;
  /** How far the text still runs past its box (the rows past their area for a table), pt; 0 when it fits. */
  overflowPt: number;
}

/** Overflow (pt) of footer, slide-number and date text that is not reported. */
export const FOOTER_SLACK_PT = 2;

/** Default lower bound of text and table cell sizes (interface.md: 8 pt). */
export const DEFAULT_MIN_FONT_PT = 8;

function nameOf(shape: Element): string {
  return attr(cNvPr(shape), 'name') || `shape ${attr(cNvPr(shape), 'id') ?? '?'}`;
}

/**
 * Formats and fits the filled shapes of a slide in place; returns a pagination plan when
 * the slide's table must be split (the caller then builds one slide per page).
 */
export function finishSlide(input: FinishSlideInput): PaginationPlan | undefined {
  const { part, options } = input;
  const doc = part.draft.doc;
  const textMin = options.textbox_min_font_size ?? DEFAULT_MIN_FONT_PT;
  const tableMin = options.table_min_font_size ?? DEFAULT_MIN_FONT_PT;
  const format = input.slideData.slide_format ?? undefined;
  let plan: PaginationPlan | undefined;

  // Tables first: moving text boxes changes no text box size, only positions.
  for (const f of input.filled) {
    if (f.role !== 'table' || !f.shape.parentNode) continue;
    const tbl = frameTable(f.shape);
    if (!tbl) continue;
    const frameRect = ownRect(f.shape);
    if (!frameRect) continue;
    let area = f.area ?? templateTableArea(input, frameRect);
    if (!f.area) {
      // a template's table may grow down to the first text box below its top (its frame
      // already holds the new rows' template heights, so its bottom is no guide)
      const below = boxesBelow(doc, f.shape, { ...frameRect, y: frameRect.y + 12_700, cy: 0 });
      if (below.length) {
        const top = Math.min(...below.map((b) => b.rect.y));
        area = { ...area, cy: Math.max(0, Math.min(area.y + area.cy, top) - area.y) };
      }
    }
    const movable = options.allow_textbox_reposition === true ? boxesBelow(doc, f.shape, area) : [];
    let avail = area.cy;
    if (movable.length) {
      const lowest = Math.max(...movable.map((b) => b.rect.y + b.rect.cy));
      avail += Math.max(0, input.slideSize.cy - lowest);
    }
    const m = measureTable(part, tbl);
    const fit = fitTable(m, avail, tableMin, input.forcedTablePt);
    input.onFit?.({ shape: f.shape, role: 'table', templateSizePt: m.baseSizePt, sizePt: fit.sizePt, overflowPt: fit.overflowPt });
    const xfrm = xfrmElement(f.shape);
    if (xfrm) setRect(doc, xfrm, { ...frameRect, y: area.y, cy: fit.heightEmu });
    const grow = fit.heightEmu - area.cy;
    if (grow > 0 && movable.length) {
      const shift = Math.min(grow, avail - area.cy);
      for (const b of movable) {
        const x = xfrmElement(b.shape);
        if (!x) continue;
        setRect(doc, x, { ...b.rect, y: b.rect.y + shift });
      }
    }
    if (!fit.fits && input.forcedTablePt === undefined && input.paginate) {
      plan = planPages(m, avail, tableMin, headerRowsOf(input.slideData));
      if (plan.pages.length > 1) continue;
      plan = undefined;
    }
    if (!fit.fits) {
      input.warn('table_overflow', `table "${nameOf(f.shape)}": rows need ${round1(fit.heightEmu / EMU_PER_PT)} pt, ${round1(avail / EMU_PER_PT)} pt available; at ${fit.sizePt} pt (the minimum) it runs ${fit.overflowPt} pt past its area${input.paginate ? '' : ' (not paginated: the slide combines a table with text, or auto_paginate_tables is off)'}`);
    }
  }
  if (plan) return plan;

  for (const f of input.filled) {
    if (f.role === 'table' || !f.shape.parentNode || f.shape.localName !== 'sp') continue;
    const txBody = child(f.shape, NS.p, 'txBody');
    if (!txBody) continue;
    const role = f.role === 'field' ? 'footer' : f.role;
    const fmt = formatFor(format, role);
    if (fmt) applyTextFormat(txBody, fmt);
    let min = textMin;
    if (fmt?.font_size != null) min = fmt.font_size;
    if ((role === 'footer' || role === 'header') && options.footer_font_size != null) min = options.footer_font_size;
    // shapes inside groups keep their text as it is (their frame is in group space)
    if (f.shape.parentNode !== shapeTree(doc)) continue;
    const out = fitShapeText(part, f.shape, { minPt: min });
    if (out) input.onFit?.({ shape: f.shape, role, templateSizePt: out.templateSizePt, sizePt: out.sizePt, overflowPt: out.overflowPt });
    // a footer-area line a point or two taller than its box is how templates draw them
    // (nothing is clipped): not worth a warning
    const footerArea = role === 'footer' || role === 'header';
    if (out && !out.fits && !(footerArea && out.overflowPt <= FOOTER_SLACK_PT)) {
      input.warn('text_overflow', `${role} "${nameOf(f.shape)}": the text runs ${out.overflowPt} pt past its box at ${out.sizePt} pt (the minimum)`);
    }
  }
  return undefined;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * The area a template slide's own table may use: from its top down to the first
 * footer-area placeholder of the layout below it (else 5 % above the slide's bottom
 * edge).
 */
function templateTableArea(input: FinishSlideInput, r: Rect): Rect {
  let bottom = Math.round(input.slideSize.cy * 0.95);
  for (const s of [...input.part.layoutPart.shapes, ...input.part.master.shapes]) {
    const t = s.placeholder?.type;
    if (t !== 'ftr' && t !== 'dt' && t !== 'sldNum') continue;
    const f = s.frame;
    if (f && f.y >= r.y + r.cy / 2 && f.y < bottom) bottom = f.y;
  }
  // (the frame's own height is no guide: it already holds the new rows' template heights)
  return { ...r, cy: Math.max(0, bottom - r.y) };
}

/** Non-placeholder text boxes starting below `area` and overlapping it horizontally. */
function boxesBelow(doc: Document, frame: Element, area: Rect): Array<{ shape: Element; rect: Rect }> {
  const tree = shapeTree(doc);
  if (!tree) return [];
  const out: Array<{ shape: Element; rect: Rect }> = [];
  const bottom = area.y + area.cy;
  for (const s of children(tree, NS.p, 'sp')) {
    if (s === frame || placeholderElement(s) || !child(s, NS.p, 'txBody')) continue;
    const r = ownRect(s);
    if (!r || r.y < bottom - 12_700) continue;
    const overlap = Math.min(r.x + r.cx, area.x + area.cx) - Math.max(r.x, area.x);
    if (overlap > 0) out.push({ shape: s, rect: r });
  }
  return out;
}

/**
 * Height (EMU) the text of a top-level `p:sp` needs at its template sizes, `cx` wide
 * (insets included); undefined when it cannot be read.
 */
export function measureShapeText(part: GeneratedSlidePart, sp: Element, cx: number): number | undefined {
  const read = readShapeText(part, sp);
  if (!read) return undefined;
  const l = layoutText({ ...read.body, fontScale: 1, lnSpcReduction: 0 }, { width_emu: cx, height_emu: 0 }, { metrics: fitMetrics, asianSpacing: true, tallEastAsianLines: true });
  return Math.ceil((l.totalHeight_pt * 1.03 + 1) * EMU_PER_PT);
}

