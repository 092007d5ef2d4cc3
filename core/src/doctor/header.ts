/**
 * The header-like placeholder of a layout or slide: the one rule that both the template
 * doctor (which reports it as an area with role `header`) and slide filling (which puts
 * `slide_data.header` there when there is no `hdr` placeholder) apply.
 *
 * ECMA-376 Part 1 §19.7.10 (ST_PlaceholderType) has a `hdr` type, but PowerPoint only
 * gives it to notes and handout masters; slide templates that want a header line draw it
 * as an ordinary text placeholder (`body`, sometimes `obj`): a short band, one or two
 * lines at its own text size, spanning most of the slide above the content — above the
 * title (a kicker or section label) or between the title and the content (a subheading).
 * A heading above only one of several side-by-side content areas is a column heading
 * (the Comparison layout's, used by a column's `header`), not a slide header.
 */
import type { AnalyzedShape } from '../analysis/types.js';
import type { ShapeTreePart } from '../ooxml/pml/parts.js';
import type { Shape } from '../ooxml/pml/shapes.js';
import { effectiveFont, effectiveTextFrame } from '../ooxml/pml/text.js';

/** Placeholder types that are content areas besides a tall `body` (§19.7.10). */
const CONTENT_TYPES: ReadonlySet<string> = new Set(['obj', 'tbl', 'chart', 'pic', 'dgm', 'media', 'clipArt']);

/** A placeholder as the rule sees it: resolved geometry and effective text facts. */
export interface HeaderRuleShape {
  /** ST_PlaceholderType (§19.7.10); `obj` when the file gives none. */
  type: string;
  /** `p:ph/@idx`; 0 when absent. */
  idx: number;
  /** `p:sp` (a shape that can hold text), `pic`, `graphicFrame`, … */
  kind: string;
  /** Box in EMU (the inherited geometry when the shape states none); 0 when unknown. */
  x: number;
  y: number;
  cx: number;
  cy: number;
  /** The effective text size of its first paragraph, pt (18 when nothing sets one). */
  fontSizePt: number;
  /** Effective top and bottom insets of its text frame (`a:bodyPr/@tIns`, `@bIns`), EMU. */
  insetTopEmu: number;
  insetBottomEmu: number;
  /** Vertical text (`p:ph/@orient="vert"` or a vertical `a:bodyPr/@vert`). */
  vertical: boolean;
  /** `p:cNvPr/@hidden`. */
  hidden: boolean;
}

/** What the rule found. */
export interface HeaderLikeFinding<T extends HeaderRuleShape> {
  /** The header-like placeholder (one of the shapes given). */
  shape: T;
  /** Short reason, e.g. "1-line body band between title and content, 90% of the slide width". */
  reason: string;
}

/** Largest height of a header band, as a fraction of the slide height. */
export const HEADER_MAX_HEIGHT_FRACTION = 0.15;
/** Smallest width of a header band, as a fraction of the slide width. */
export const HEADER_MIN_WIDTH_FRACTION = 0.5;
/** A header band ends in the top part of the slide: its bottom edge at most this fraction of the slide height down. */
export const HEADER_MAX_BOTTOM_FRACTION = 0.4;
/** Most text lines (at its own size, 1.2 line spacing) a header band holds. */
export const HEADER_MAX_LINES = 2;
/** Share of the width of the content areas below it that a header band spans at least (less: a column heading). */
export const HEADER_MIN_CONTENT_COVER = 0.8;
/** A `body` placeholder at least this fraction of the slide tall is a content area (as in the doctor's roles). */
const BIG_BODY_FRACTION = 0.2;
/** Vertical slack between a band and a content area below it, EMU (0.1 in). */
const BELOW_TOLERANCE_EMU = 91_440;
/** Vertical slack between a band and the title, as a fraction of the slide height. */
const TITLE_TOLERANCE_FRACTION = 0.03;

const EMU_PER_PT = 12_700;

/** Whole lines of text at `sizePt` (1.2 line spacing) a band holds between its insets. */
function bandLines(s: HeaderRuleShape): number {
  const usablePt = Math.max(0, s.cy - s.insetTopEmu - s.insetBottomEmu) / EMU_PER_PT;
  const linePt = 1.2 * (s.fontSizePt > 0 ? s.fontSizePt : 18);
  return Math.floor(usablePt / linePt);
}

function horizontalOverlap(a: HeaderRuleShape, b: HeaderRuleShape): number {
  return Math.min(a.x + a.cx, b.x + b.cx) - Math.max(a.x, b.x);
}

/**
 * The header-like placeholder among a layout's (or slide's) top-level placeholders, or
 * undefined when it has none. A placeholder is header-like when all of these hold:
 *
 * - it is a text shape (`p:sp`) of type `body` or `obj` with horizontal text — never
 *   `title`/`ctrTitle`/`subTitle`, nor the footer-area `dt`/`ftr`/`sldNum`/`hdr`;
 * - it is a short band: at most {@link HEADER_MAX_HEIGHT_FRACTION} of the slide tall and
 *   holding at most {@link HEADER_MAX_LINES} lines at its own text size, at least
 *   {@link HEADER_MIN_WIDTH_FRACTION} of the slide wide, ending in the top
 *   {@link HEADER_MAX_BOTTOM_FRACTION} of the slide;
 * - the layout has a title (`title` or `ctrTitle`) and the band lies above it or below it
 *   (overlapping it by at most 3 % of the slide height), not beside it;
 * - at least one content area (an `obj`/`tbl`/`chart`/`pic`/`dgm`/`media`/`clipArt`
 *   placeholder, or a `body` at least a fifth of the slide tall) lies below it, every
 *   content area it overlaps horizontally lies below it, and it spans at least
 *   {@link HEADER_MIN_CONTENT_COVER} of the width of the content areas below it together
 *   (a heading over one of several columns is a column heading).
 *
 * Among several, the topmost (then the first in document order) is taken. Pure: geometry
 * in EMU as given (resolved through the placeholder inheritance, §19.3.1.36).
 *
 * @param shapes - the top-level placeholders, in document order (other shapes are ignored)
 * @param slide - slide size (`p:sldSz`), EMU; 0 or less falls back to 12192000 × 6858000
 */
export function headerLikePlaceholder<T extends HeaderRuleShape>(shapes: readonly T[], slide: { cx: number; cy: number }): HeaderLikeFinding<T> | undefined {
  const W = slide.cx > 0 ? slide.cx : 12_192_000;
  const H = slide.cy > 0 ? slide.cy : 6_858_000;
  const visible = shapes.filter((s) => !s.hidden && s.cx > 0 && s.cy > 0);
  const title = visible.find((s) => s.type === 'title' || s.type === 'ctrTitle');
  if (!title) return undefined;
  const titleTol = TITLE_TOLERANCE_FRACTION * H;
  let best: { s: T; reason: string } | undefined;
  for (const s of visible) {
    if (s.kind !== 'sp' || (s.type !== 'body' && s.type !== 'obj') || s.vertical) continue;
    if (s.cy > HEADER_MAX_HEIGHT_FRACTION * H || s.cx < HEADER_MIN_WIDTH_FRACTION * W) continue;
    const bottom = s.y + s.cy;
    if (bottom > HEADER_MAX_BOTTOM_FRACTION * H) continue;
    const lines = bandLines(s);
    if (lines > HEADER_MAX_LINES) continue;
    const aboveTitle = bottom <= title.y + titleTol;
    const belowTitle = s.y >= title.y + title.cy - titleTol;
    if (!aboveTitle && !belowTitle) continue;
    const areas = visible.filter((a) => a !== s && (CONTENT_TYPES.has(a.type) || (a.type === 'body' && a.cy >= BIG_BODY_FRACTION * H)));
    const below = areas.filter((a) => a.y >= bottom - BELOW_TOLERANCE_EMU);
    if (below.length === 0) continue;
    // a content area beside or across the band: the band is a label on it, not a header over the slide
    if (areas.some((a) => !below.includes(a) && horizontalOverlap(a, s) > 0)) continue;
    const left = Math.min(...below.map((a) => a.x));
    const right = Math.max(...below.map((a) => a.x + a.cx));
    const cover = (Math.min(right, s.x + s.cx) - Math.max(left, s.x)) / Math.max(1, right - left);
    if (cover < HEADER_MIN_CONTENT_COVER) continue;
    if (best && best.s.y <= s.y) continue;
    const where = aboveTitle ? 'above the title' : 'between title and content';
    best = { s, reason: `${Math.max(1, lines)}-line ${s.type} band ${where}, ${Math.round((100 * s.cx) / W)}% of the slide width` };
  }
  return best ? { shape: best.s, reason: best.reason } : undefined;
}

/** Default top/bottom inset of a text frame (`a:bodyPr/@tIns`, `@bIns`, §21.1.2.1.1), EMU. */
const DEFAULT_INSET_EMU = 45_720;

/** A placeholder of the analysis results as the rule sees it (the doctor's input); undefined for a shape that is not a placeholder. */
export function headerRuleShapeOfAnalyzed(s: AnalyzedShape): (HeaderRuleShape & { source: AnalyzedShape }) | undefined {
  if (!s.placeholder) return undefined;
  const tf = s.text_frame;
  return {
    source: s,
    type: s.placeholder.type,
    idx: s.placeholder.idx,
    kind: s.kind,
    x: s.x ?? 0,
    y: s.y ?? 0,
    cx: s.cx ?? 0,
    cy: s.cy ?? 0,
    fontSizePt: s.font?.size_pt ?? 18,
    insetTopEmu: tf?.inset_top ?? DEFAULT_INSET_EMU,
    insetBottomEmu: tf?.inset_bottom ?? DEFAULT_INSET_EMU,
    vertical: s.placeholder.orient === 'vert' || (!!tf && tf.vertical !== 'horz' && tf.vertical !== ''),
    hidden: s.hidden,
  };
}

/**
 * A placeholder of the reading model as the rule sees it (what slide filling reads): the
 * same facts the analysis reports for it (resolved frame, effective font and text frame).
 */
export function headerRuleShapeOf(s: Shape): HeaderRuleShape | undefined {
  const ph = s.placeholder;
  if (!ph) return undefined;
  const frame = s.frame;
  const font = effectiveFont(s);
  const tf = effectiveTextFrame(s);
  return {
    type: ph.type,
    idx: ph.idx,
    kind: s.kind,
    x: frame?.x ?? 0,
    y: frame?.y ?? 0,
    cx: frame?.cx ?? 0,
    cy: frame?.cy ?? 0,
    fontSizePt: font?.sizePt ?? 18,
    insetTopEmu: tf?.insetTop ?? DEFAULT_INSET_EMU,
    insetBottomEmu: tf?.insetBottom ?? DEFAULT_INSET_EMU,
    vertical: ph.orient === 'vert' || (!!tf && tf.vertical !== 'horz' && tf.vertical !== ''),
    hidden: s.hidden,
  };
}

/** The header-like placeholder of a layout, slide or any shape-tree part, by its `p:ph` type and idx (see {@link headerLikePlaceholder}). */
export function headerPlaceholderOfPart(part: ShapeTreePart, slide: { cx: number; cy: number }): { type: string; idx: number; shapeId: number; reason: string } | undefined {
  const list: Array<HeaderRuleShape & { shapeId: number }> = [];
  for (const s of part.shapes) {
    const r = headerRuleShapeOf(s);
    if (r) list.push({ ...r, shapeId: s.id });
  }
  const found = headerLikePlaceholder(list, slide);
  return found ? { type: found.shape.type, idx: found.shape.idx, shapeId: found.shape.shapeId, reason: found.reason } : undefined;
}
