/**
 * Accessibility of a deck (issue 23, item 4), anchored on WCAG 2.2 AA and PowerPoint's
 * accessibility checker:
 *
 * - `missing_alt_text` (warning): a picture, chart, SmartArt diagram or embedded object
 *   with no alternative text (`p:cNvPr/@descr`, §19.3.1.12), unless it is hidden or marked
 *   decorative (`a16:decorative`). WCAG 1.1.1.
 * - `missing_title` (info): a slide with no title placeholder holding text; `duplicate_title`
 *   (info): a title another slide of the deck has too (PowerPoint's "Duplicate slide title";
 *   WCAG 2.4.2/2.4.6). Pages of one paginated table share their title on purpose: the
 *   caller passes which slides belong together.
 * - `reading_order` (info): screen readers read a slide's shapes in shape-tree order; the
 *   check lists a slide whose content shapes, in that order, go against the visual order
 *   (top to bottom, left to right): a shape read before one lying wholly above it, or level
 *   with it and wholly to its left. Footer-area placeholders are ignored. WCAG 1.3.2.
 * - `low_contrast` (warning): text whose colour against what is behind it (the shape's own
 *   fill, else the slide's, layout's or master's background) has a contrast ratio below 4.5:1,
 *   or 3:1 for large text (≥ 18 pt, or ≥ 14 pt bold). WCAG 1.4.3. Text over a picture or
 *   a gradient whose colours cannot be told is not judged.
 * - `small_text` (info): text below the minimum size (default 10 pt).
 */
import { FactKind, openedTemplates } from '../ooxml/pml/opened-templates.js';
import { NS, attr, child, children, intAttr, type Element } from '../ooxml/xml.js';
import { colorIn, type ColorContext, type Rgba } from '../ooxml/pml/color.js';
import type { ShapeTreePart, SlidePart } from '../ooxml/pml/parts.js';
import { effective, type Frame, type Shape } from '../ooxml/pml/shapes.js';
import { bodyText, effectiveFont, hasVisibleText } from '../ooxml/pml/text.js';
import { graphicKind } from '../ooxml/pml/graphic.js';
import { SlideDraft } from '../generation/draft/index.js';
import type { QualityFinding } from './types.js';

/** Options of the accessibility check. */
export interface AccessibilityOptions {
  /** Smallest text size not reported, pt (default {@link DEFAULT_MIN_TEXT_PT}). */
  minTextPt?: number;
  /**
   * Slides (deck indexes) that belong together and may share a title: the pages of one
   * paginated table. Slides not named are on their own.
   */
  groupOf?: (slideIndex: number) => number;
}

/** Default smallest text size the report accepts, pt. */
export const DEFAULT_MIN_TEXT_PT = 10;

/** WCAG 2.2 AA (1.4.3): contrast minimum for normal and large text. */
const MIN_CONTRAST = 4.5;
const MIN_CONTRAST_LARGE = 3;

const FOOTER_TYPES: ReadonlySet<string> = new Set(['dt', 'ftr', 'sldNum', 'hdr']);
const TITLE_TYPES: ReadonlySet<string> = new Set(['title', 'ctrTitle']);
const A16 = 'http://schemas.microsoft.com/office/drawing/2014/main';
const DECORATIVE_URI = '{C183D7F6-B498-43B3-948B-1728B52AA6E4}';
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/**
 * Whether a text body shows text other than whitespace (`shapeText(txBody).trim() !== ''`),
 * without joining its text: the model's segments, else the paragraphs, until one has some.
 */
function hasShapeText(txBody: Element | undefined): boolean {
  const m = SlideDraft.paragraphsOf(txBody);
  if (m) return m.lines.some((segments) => segments.some((x) => x.trim() !== ''));
  return hasVisibleText(txBody);
}

/**
 * The text of a text body, also while generation holds its paragraphs as a model
 * (generation/draft/deferred-paragraphs.ts) rather than as nodes.
 */
export function shapeText(txBody: Element | undefined): string {
  const m = SlideDraft.paragraphsOf(txBody);
  if (m) return m.lines.map((segments) => segments.join('\n')).join('\n');
  return bodyText(txBody);
}

/** The title of a slide as the accessibility checks saw it. */
export interface SlideTitle {
  /** Whitespace-collapsed title text; '' when the slide has none. */
  text: string;
  shape_id: number | null;
  shape_name: string;
}

/**
 * Findings about one shape and its text (alt text, contrast, size), without a slide
 * index (-1): a template shape gives the same findings on every slide it is used on.
 * Group members are visited.
 */
export function shapeAccessibility(top: Shape, options: AccessibilityOptions = {}): QualityFinding[] {
  const out: QualityFinding[] = [];
  const minPt = options.minTextPt ?? DEFAULT_MIN_TEXT_PT;
  // a shape without members is the whole walk (no generator made)
  if (top.children.length === 0) shapeAccessibilityOne(top, minPt, out);
  else for (const shape of top.walk()) shapeAccessibilityOne(shape, minPt, out);
  return out;
}

function shapeAccessibilityOne(shape: Shape, minPt: number, out: QualityFinding[]): void {
  if (shape.hidden) return;
  checkAltText(shape, -1, out);
  if (shape.kind === 'sp' && shape.txBody && hasShapeText(shape.txBody)) checkText(shape, -1, minPt, out);
}

/**
 * What the slide-level checks ({@link slideAccessibilityOf}) read of one top-level shape:
 * the title it holds and its box in the reading order. A template shape written unchanged
 * on many slides gives the same facts on each, so generation reads them once.
 */
export interface ShapeSlideFacts {
  /** The first shown title placeholder with text (the shape or a group member), its text whitespace-collapsed. */
  title: SlideTitle | undefined;
  /** The shape's box (EMU) when it takes part in the reading order: shown, not footer-area, with content and size. */
  placed: ReadingOrderBox | undefined;
}

/** A top-level shape's box in the reading-order check (EMU, slide space). */
export interface ReadingOrderBox {
  shape: Shape;
  x: number;
  y: number;
  right: number;
  bottom: number;
}

/**
 * The facts about a top-level shape that the slide-level checks read.
 *
 * @param frame - the shape's frame (`top.frame`), when the caller has read it already
 */
export function shapeSlideFacts(top: Shape, frame?: Frame): ShapeSlideFacts {
  // a shape without members is the whole walk (no generator made)
  const title = top.children.length === 0 ? titleOf(top) : firstTitle(top);
  return { title, placed: readingOrderBox(top, frame) };
}

/** The first shown title placeholder with text of a shape and its members. */
function firstTitle(top: Shape): SlideTitle | undefined {
  for (const s of top.walk()) {
    const title = titleOf(s);
    if (title) return title;
  }
  return undefined;
}

/** A shape's title, when it is a shown title placeholder with text (whitespace collapsed). */
function titleOf(s: Shape): SlideTitle | undefined {
  if (s.hidden || !s.placeholder || !TITLE_TYPES.has(s.placeholder.type)) return undefined;
  const text = collapseWhitespace(shapeText(s.txBody));
  return text ? { text, shape_id: s.id, shape_name: s.name } : undefined;
}

/** Text trimmed, each run of whitespace made one space (a title mostly has none to collapse: no new string then). */
function collapseWhitespace(text: string): string {
  const trimmed = text.trim();
  return NEEDS_COLLAPSE.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
}

/** Whitespace other than single spaces. */
const NEEDS_COLLAPSE = /\s\s|[^\S ]/;

/** The slide-level findings (no title, reading order) of a slide's top-level shapes, and its title. */
export function slideAccessibility(shapes: readonly Shape[], index: number): { title: SlideTitle; findings: QualityFinding[] } {
  return slideAccessibilityOf(shapes.map((s) => shapeSlideFacts(s)), index);
}

/**
 * {@link slideAccessibility} from the facts of the slide's top-level shapes, in shape-tree
 * order: the title is the first shape's that has one.
 */
export function slideAccessibilityOf(facts: readonly ShapeSlideFacts[], index: number): { title: SlideTitle; findings: QualityFinding[] } {
  const findings: QualityFinding[] = [];
  let title: SlideTitle = { text: '', shape_id: null, shape_name: '' };
  for (const f of facts) {
    if (f.title) {
      // a copy: a template shape's facts are shared by the slides it is written on
      title = { ...f.title };
      break;
    }
  }
  if (!title.text) findings.push(finding(index, undefined, 'missing_title', 'info', 'the slide has no title: screen reader users move between slides by their titles', {}));
  const placed: ReadingOrderBox[] = [];
  for (const f of facts) if (f.placed) placed.push(f.placed);
  checkReadingOrder(placed, index, findings);
  return { title, findings };
}

/**
 * `duplicate_title` findings: every slide whose title an earlier slide of another group
 * already has (slides of one group, the pages of a paginated table, may share theirs).
 *
 * @param groups - per slide, the group it belongs to (default: its own index)
 */
export function duplicateTitles(titles: readonly SlideTitle[], groups?: readonly number[]): QualityFinding[] {
  const out: QualityFinding[] = [];
  const first = new Map<string, { index: number; group: number }>();
  titles.forEach((t, i) => {
    if (!t.text) return;
    const key = t.text.toLowerCase();
    const group = groups?.[i] ?? i;
    const seen = first.get(key);
    if (!seen) first.set(key, { index: i, group });
    else if (seen.group !== group) {
      out.push({ slide_index: i, shape_id: t.shape_id, shape_name: t.shape_name, category: 'accessibility', code: 'duplicate_title', severity: 'info', message: `slide ${i + 1} has the same title as slide ${seen.index + 1} ("${clip(t.text)}"): titles tell slides apart`, details: { same_as_slide_index: seen.index, title: clip(t.text) } });
    }
  });
  return out;
}

/**
 * Footer-area contrast findings after the first of each kind: the template's footer
 * style repeats on every slide (many stock themes write footers in a 3.5:1 grey), so it
 * is reported once per deck, as info.
 */
export function dedupeFooterContrast(findings: readonly QualityFinding[]): QualityFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    if (f.code !== 'low_contrast' || !f.details.footer_area) return true;
    const key = `${String(f.details.footer_area)}:${String(f.details.text_color)}:${String(f.details.background_color)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Runs the accessibility checks over the slides of a deck, in deck order. */
export function checkAccessibility(slides: readonly SlidePart[], options: AccessibilityOptions = {}): QualityFinding[] {
  const out: QualityFinding[] = [];
  const titles: SlideTitle[] = [];
  slides.forEach((slide, index) => {
    for (const top of slide.shapes) for (const f of shapeAccessibility(top, options)) out.push({ ...f, slide_index: index });
    const s = slideAccessibility(slide.shapes, index);
    titles.push(s.title);
    out.push(...s.findings);
  });
  const groupOf = options.groupOf ?? ((i: number) => i);
  out.push(...duplicateTitles(titles, titles.map((_, i) => groupOf(i))));
  return dedupeFooterContrast(out);
}

function clip(s: string, n = 80): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

function finding(slideIndex: number, shape: Shape | undefined, code: string, severity: QualityFinding['severity'], message: string, details: QualityFinding['details']): QualityFinding {
  return { slide_index: slideIndex, shape_id: shape ? shape.id : null, shape_name: shape?.name ?? '', category: 'accessibility', code, severity, message, details };
}

/** `a16:decorative val="1"` in the shape's `p:cNvPr/a:extLst` (Office 2019+). */
function isDecorative(shape: Shape): boolean {
  const nv = children(shape.element).find((c) => c.localName?.startsWith('nv'));
  const cNvPr = nv ? children(nv).find((c) => c.localName === 'cNvPr') : undefined;
  const extLst = child(cNvPr, NS.a, 'extLst');
  if (!extLst) return false;
  for (const ext of children(extLst, NS.a, 'ext')) {
    if (attr(ext, 'uri') !== DECORATIVE_URI) continue;
    const d = ext.getElementsByTagNameNS(A16, 'decorative')[0];
    if (d && (attr(d, 'val') === '1' || attr(d, 'val') === 'true')) return true;
  }
  return false;
}

function checkAltText(shape: Shape, index: number, out: QualityFinding[]): void {
  let what: string | undefined;
  if (shape.kind === 'pic') what = 'picture';
  else if (shape.kind === 'graphicFrame') {
    const k = graphicKind(shape.graphicData);
    if (k === 'chart' || k === 'chartex') what = 'chart';
    else if (k === 'diagram') what = 'SmartArt graphic';
    else if (k === 'ole') what = 'embedded object';
  }
  if (!what || shape.description.trim() !== '' || isDecorative(shape)) return;
  out.push(finding(index, shape, 'missing_alt_text', 'warning', `${what} "${shape.name}" has no alternative text (descr): screen readers cannot say what it shows`, { kind: what }));
}

// ------------------------------------------------------------------ text

function checkText(shape: Shape, index: number, minPt: number, out: QualityFinding[]): void {
  const font = effectiveFont(shape);
  if (!font) return;
  const scale = fontScaleOf(shape);
  const sizePt = Math.round(smallestRunPt(shape.txBody!, font.sizePt) * scale * 10) / 10;
  if (sizePt < minPt) {
    out.push(finding(index, shape, 'small_text', 'info', `text of "${shape.name}" is ${sizePt} pt, below ${minPt} pt`, { size_pt: sizePt, min_pt: minPt }));
  }
  const fg = font.color ? hexRgba(font.color) : undefined;
  if (!fg) return;
  const bg = backgroundBehind(shape);
  if (!bg) return;
  const ratio = contrastRatio(fg, bg);
  const large = font.sizePt * scale >= 18 || (font.bold && font.sizePt * scale >= 14);
  const need = large ? MIN_CONTRAST_LARGE : MIN_CONTRAST;
  if (ratio + 1e-9 < need) {
    // footer-area text is reported once per deck, as info (see dedupeFooterContrast)
    const footerType = shape.placeholder && FOOTER_TYPES.has(shape.placeholder.type) ? shape.placeholder.type : undefined;
    out.push(
      finding(index, shape, 'low_contrast', footerType ? 'info' : 'warning', `text of "${shape.name}" (#${hex(fg)} on #${hex(bg)}) has a contrast ratio of ${ratio.toFixed(2)}:1; ${large ? 'large ' : ''}text needs ${need}:1 (WCAG 1.4.3)`, {
        ratio: Math.round(ratio * 100) / 100,
        required: need,
        text_color: hex(fg),
        background_color: hex(bg),
        size_pt: Math.round(font.sizePt * scale * 10) / 10,
        bold: font.bold,
        ...(footerType ? { footer_area: footerType } : {}),
      }),
    );
  }
}

/** `a:normAutofit/@fontScale` of the shape's own body (PowerPoint's shrink on overflow), as a factor. */
function fontScaleOf(shape: Shape): number {
  const fs = intAttr(child(child(shape.txBody, NS.a, 'bodyPr'), NS.a, 'normAutofit'), 'fontScale');
  return fs ? fs / 100000 : 1;
}

/** Smallest `sz` set on a run with visible text, else the effective size (pt). */
function smallestRunPt(txBody: Element, effectivePt: number): number {
  let min = Infinity;
  for (const p of children(txBody, NS.a, 'p')) {
    for (const r of children(p, NS.a)) {
      if (r.localName !== 'r' && r.localName !== 'fld') continue;
      if ((child(r, NS.a, 't')?.textContent ?? '').trim() === '') continue;
      const sz = intAttr(child(r, NS.a, 'rPr'), 'sz');
      min = Math.min(min, sz !== undefined ? sz / 100 : effectivePt);
    }
  }
  return Number.isFinite(min) ? min : effectivePt;
}

function hexRgba(h: string): Rgba | undefined {
  if (!/^[0-9a-fA-F]{6}$/.test(h)) return undefined;
  const n = Number.parseInt(h, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: 1 };
}

function hex(c: Rgba): string {
  return [c.r, c.g, c.b].map((x) => Math.round(Math.max(0, Math.min(255, x))).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** WCAG 2.x relative luminance of an sRGB colour. */
export function relativeLuminance(c: Rgba): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG contrast ratio (1–21) of two opaque colours. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `over` composited on the opaque `under`. */
function over(top: Rgba, under: Rgba): Rgba {
  const a = Math.max(0, Math.min(1, top.a));
  return { r: top.r * a + under.r * (1 - a), g: top.g * a + under.g * (1 - a), b: top.b * a + under.b * (1 - a), a: 1 };
}

/** A fill judged for contrast: a colour, nothing (see through), or unknown (a picture, a pattern). */
type FillColor = Rgba | 'none' | 'unknown';

/**
 * The colour behind a shape's text: its own fill (inherited along the placeholder chain,
 * else its style's `a:fillRef`), composited on the background of its slide (else layout,
 * else master). Undefined when a picture or an unreadable fill decides it.
 */
function backgroundBehind(shape: Shape): Rgba | undefined {
  const part = shape.part;
  const ctx: ColorContext = { theme: part.theme, colorMap: part.colorMap };
  const own = effective(shape, (s) => fillOfShape(s, ctx));
  if (own === 'unknown') return undefined;
  if (own !== undefined && own !== 'none' && own.a >= 1) return own;
  // what is drawn behind: the topmost filled shape under the text's centre (the slide's
  // shapes before this one, the layout's and the master's own shapes), else the background
  let back: Rgba | undefined;
  const under = shapeUnder(shape);
  if (under === 'unknown') return undefined;
  back = under ?? partBackground(part);
  if (!back) return undefined;
  if (own === undefined || own === 'none') return back;
  return over(own, back);
}

/**
 * The fill of the topmost shape drawn beneath `shape` that covers the centre of its box:
 * undefined when none does, 'unknown' when a picture or a fill without one colour does.
 */
function shapeUnder(shape: Shape): Rgba | 'unknown' | undefined {
  const f = shape.frame;
  if (!f || shape.group) return undefined;
  const cx = f.x + f.cx / 2;
  const cy = f.y + f.cy / 2;
  const slide = shape.part;
  const layers: Shape[][] = [];
  const layout = slide.parent;
  const master = layout?.parent;
  // p:sldLayout/@showMasterSp (§19.3.1.39): false hides the master's shapes
  if (master && layout && layout.root.getAttribute('showMasterSp') !== '0' && layout.root.getAttribute('showMasterSp') !== 'false') layers.push(master.shapes);
  if (layout && slide.kind === 'slide' && slide.root.getAttribute('showMasterSp') !== '0' && slide.root.getAttribute('showMasterSp') !== 'false') layers.push(layout.shapes);
  const own = slide.shapes;
  const at = own.indexOf(shape);
  layers.push(at >= 0 ? own.slice(0, at) : []);
  let found: Rgba | 'unknown' | undefined;
  for (const [li, list] of layers.entries()) {
    const fromSlide = li === layers.length - 1;
    for (const s of list) {
      // placeholders of layouts and masters are not drawn on slides
      if (s.hidden || (!fromSlide && s.placeholder)) continue;
      const r = s.frame;
      if (!r || r.rotation || cx < r.x || cx > r.x + r.cx || cy < r.y || cy > r.y + r.cy) continue;
      if (s.kind === 'pic' || s.kind === 'graphicFrame' || s.kind === 'grpSp') {
        found = 'unknown';
        continue;
      }
      if (s.kind !== 'sp') continue;
      const c = fillOfShape(s, { theme: s.part.theme, colorMap: s.part.colorMap });
      if (c === undefined || c === 'none') continue;
      found = c === 'unknown' ? 'unknown' : found && found !== 'unknown' ? over(c, found) : c.a >= 1 ? c : 'unknown';
    }
  }
  return found;
}

function fillOfShape(shape: Shape, ctx: ColorContext): FillColor | undefined {
  const spPr = child(shape.element, NS.p, 'spPr');
  const fill = spPr ? fillElement(spPr) : undefined;
  if (fill) return fillColor(fill, ctx);
  const ref = child(child(shape.element, NS.p, 'style'), NS.a, 'fillRef');
  if (ref) {
    const idx = intAttr(ref, 'idx', 0);
    if (idx === 0) return 'none';
    const style = formatStyles(shape.part).fill[idx - 1];
    return style ? fillColor(style, { ...ctx, phClr: colorIn(ref, ctx) }) : 'unknown';
  }
  return undefined;
}

const FILL_NAMES: ReadonlySet<string> = new Set(['noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill']);

function fillElement(container: Element): Element | undefined {
  for (const c of children(container, NS.a)) if (FILL_NAMES.has(c.localName ?? '')) return c;
  return undefined;
}

/** A fill as one colour: solid → its colour; gradient → the mean of its stops; none → see through. */
function fillColor(fill: Element, ctx: ColorContext): FillColor {
  switch (fill.localName) {
    case 'noFill':
      return 'none';
    case 'solidFill':
      return colorIn(fill, ctx) ?? 'unknown';
    case 'gradFill': {
      const stops: Rgba[] = [];
      for (const gs of children(child(fill, NS.a, 'gsLst') ?? fill, NS.a, 'gs')) {
        const c = colorIn(gs, ctx);
        if (!c) return 'unknown';
        stops.push(c);
      }
      if (stops.length === 0) return 'unknown';
      const n = stops.length;
      const mean: Rgba = { r: 0, g: 0, b: 0, a: 0 };
      for (const c of stops) {
        mean.r += c.r / n;
        mean.g += c.g / n;
        mean.b += c.b / n;
        mean.a += c.a / n;
      }
      return mean;
    }
    default:
      return 'unknown';
  }
}

/** The background colour of a slide (else its layout's, else its master's); white when none sets one. */
function partBackground(part: ShapeTreePart): Rgba | undefined {
  for (let p: ShapeTreePart | undefined = part; p; p = p.parent) {
    const bg = child(p.cSld, NS.p, 'bg');
    if (!bg) continue;
    const ctx: ColorContext = { theme: p.theme, colorMap: p.colorMap };
    const bgPr = child(bg, NS.p, 'bgPr');
    let c: FillColor | undefined;
    if (bgPr) {
      const f = fillElement(bgPr);
      c = f ? fillColor(f, ctx) : undefined;
    } else {
      const ref = child(bg, NS.p, 'bgRef');
      const idx = intAttr(ref, 'idx', 0);
      const styles = formatStyles(p);
      const style = idx >= 1001 ? styles.bg[idx - 1001] : idx > 0 ? styles.fill[idx - 1] : undefined;
      c = style ? fillColor(style, { ...ctx, phClr: colorIn(ref, ctx) }) : ref ? colorIn(ref, ctx) : undefined;
    }
    if (c === undefined || c === 'none') return WHITE;
    if (c === 'unknown') return undefined;
    return over(c, WHITE);
  }
  return WHITE;
}

/** The fill and background fill styles of a package's themes, by theme part name ('' for none), kept with the package's facts. */
const THEME_FORMAT_STYLES = new FactKind<Map<string, { fill: Element[]; bg: Element[] }>>('theme format styles', () => new Map());

/** The theme's fill and background fill styles (`a:fmtScheme`, §20.1.4.1.14). */
function formatStyles(part: ShapeTreePart): { fill: Element[]; bg: Element[] } {
  const pkg = part.model.pkg;
  const themePart = part.theme.partName;
  const byTheme = openedTemplates.factsOf(pkg).of(THEME_FORMAT_STYLES);
  const key = themePart ?? '';
  let styles = byTheme.get(key);
  if (!styles) {
    styles = { fill: [], bg: [] };
    try {
      const root = themePart ? pkg.getXml(themePart).documentElement : undefined;
      const fmt = child(child(root ?? undefined, NS.a, 'themeElements'), NS.a, 'fmtScheme');
      const list = (name: string): Element[] => {
        const l = child(fmt, NS.a, name);
        return l ? children(l, NS.a) : [];
      };
      styles = { fill: list('fillStyleLst'), bg: list('bgFillStyleLst') };
    } catch {
      /* no styles: references to them are judged unknown */
    }
    byTheme.set(key, styles);
  }
  return styles;
}

// ------------------------------------------------------------------ reading order

/** The shape's box when the reading-order check reads it: shown, not footer-area, with content and a size (`frame`: `s.frame`, if read already). */
function readingOrderBox(s: Shape, frame?: Frame): ReadingOrderBox | undefined {
  if (s.hidden) return undefined;
  if (s.placeholder && FOOTER_TYPES.has(s.placeholder.type)) return undefined;
  const hasContent = s.kind === 'pic' || s.kind === 'graphicFrame' || s.kind === 'grpSp' || (s.kind === 'sp' && hasShapeText(s.txBody));
  if (!hasContent) return undefined;
  const f = frame ?? s.frame;
  if (!f || f.cx <= 0 || f.cy <= 0) return undefined;
  return { shape: s, x: f.x, y: f.y, right: f.x + f.cx, bottom: f.y + f.cy };
}

function checkReadingOrder(placed: readonly ReadingOrderBox[], index: number, out: QualityFinding[]): void {
  // a small tolerance: shapes that touch are not "wholly above" each other
  const tol = 12_700;
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) {
      const a = placed[i]!;
      const b = placed[j]!;
      // the title read first is what screen reader users expect, wherever it lies
      if (a.shape.placeholder && TITLE_TYPES.has(a.shape.placeholder.type)) continue;
      const bAbove = b.bottom <= a.y + tol;
      const level = !bAbove && !(a.bottom <= b.y + tol);
      const bLeft = level && b.right <= a.x + tol;
      if (!bAbove && !bLeft) continue;
      out.push(
        finding(index, b.shape, 'reading_order', 'info', `"${b.shape.name}" is read after "${a.shape.name}" but lies ${bAbove ? 'above' : 'to the left of'} it: screen readers follow the order of the selection pane, not the layout`, {
          read_after_shape_id: a.shape.id,
          read_after_shape_name: a.shape.name,
        }),
      );
      return; // one finding per slide says enough
    }
  }
}
