/**
 * Measured text fitting for generated slides (issue 4, item 1 and the table half of item 2).
 *
 * A filled text shape is read exactly as the preview renderer reads it
 * (`render/text-body.ts`: every paragraph and run property resolved through the shape's
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
import { deferredParagraphs } from '../ooxml/deferred-paragraphs.js';
import { NS, attr, child, children, createElement, intAttr, parseXml, type Element } from '../ooxml/xml.js';
import { LayoutPart, ShapeTreePart, type MasterPart } from '../ooxml/pml/parts.js';
import { IDENTITY, Shape, masterPlaceholderType, type PlaceholderRef } from '../ooxml/pml/shapes.js';
import { shapeTextSources, readTextBody, type TextStyleSources } from '../render/text-body.js';
import { isVerticalText, layoutText, EMU_PER_PT, type TextBodyInput, type TextLayout } from '../text/layout.js';
import { defaultFontMetrics, type FontMetrics, type FontSpec, type ResolvedFace, type VerticalMetrics } from '../text/font-metrics.js';
import { FACE_DATA } from '../text/metrics-data/fonts.js';

/**
 * How much taller than ascent + descent (OS/2 win metrics, what the layout engine uses) a
 * line may be drawn: LibreOffice sets single-spaced lines by the `hhea` ascender,
 * descender and line gap, which for Liberation Sans is 3 % taller.
 */
function lineGapFactor(family: string, bold: boolean, italic: boolean): number {
  const style = bold ? (italic ? 'bolditalic' : 'bold') : italic ? 'italic' : 'regular';
  const d = FACE_DATA[`${family}|${style}`] ?? FACE_DATA[`${family}|regular`];
  if (!d) return 1;
  const win = d.winAscent + d.winDescent;
  const hhea = d.hheaAscender - d.hheaDescender + d.hheaLineGap;
  const typo = d.typoAscender - d.typoDescender + d.typoLineGap;
  return win > 0 ? Math.max(1, hhea / win, typo / win) : 1;
}

/** Family that fontconfig (and so LibreOffice) draws a font with when the machine lacks it. */
const FALLBACK_FAMILY = 'DejaVu Sans';

/**
 * Metrics for fitting that hold on every renderer: a font with an exact metric twin
 * (Calibri/Carlito, Arial/Liberation Sans, ...) is measured as itself; any other font may
 * be drawn either in itself (PowerPoint on a machine that has it, approximated by the
 * nearest shipped class) or in DejaVu Sans (LibreOffice on a machine that lacks it), so
 * each character is measured with the wider of the two and each line with the taller.
 * Text fitted this way fits in both; it may be a little smaller than needed in PowerPoint.
 */
export class ConservativeMetrics implements FontMetrics {
  private readonly fallbackName = new Map<string, boolean>();
  /** Per font name and style: the wider advance of each code point, in em. */
  private readonly ems = new Map<string, Array<Map<number, number> | undefined>>();

  constructor(private readonly base: FontMetrics = defaultFontMetrics) {}

  private inexact(name: string): boolean {
    let v = this.fallbackName.get(name);
    if (v === undefined) {
      v = !this.base.resolve(name).exact;
      this.fallbackName.set(name, v);
    }
    return v;
  }

  resolve(name: string): ResolvedFace {
    return this.base.resolve(name);
  }

  private em(cp: number, font: FontSpec): number {
    const table = styleSlot(this.ems, font, () => new Map<number, number>());
    let v = table.get(cp);
    if (v === undefined) {
      const unit = { ...font, size_pt: 1 };
      v = Math.max(this.base.advance(cp, unit), this.base.advance(cp, { ...unit, name: FALLBACK_FAMILY }));
      table.set(cp, v);
    }
    return v;
  }

  advance(cp: number, font: FontSpec): number {
    return this.inexact(font.name) ? this.em(cp, font) * font.size_pt : this.base.advance(cp, font);
  }

  measure(text: string, font: FontSpec): number {
    if (!this.inexact(font.name)) return this.base.measure(text, font);
    const table = styleSlot(this.ems, font, () => new Map<number, number>());
    let w = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
      }
      const v = table.get(cp);
      w += v !== undefined ? v : this.em(cp, font);
    }
    return w * font.size_pt;
  }

  private readonly verticals = new Map<string, Array<VerticalMetrics | undefined>>();

  /**
   * Vertical metrics at 1 pt (they scale linearly with the size), cached per font name
   * and style: the face's own, grown by its line gap, and for inexact faces the larger of
   * it and the fallback's.
   */
  private unitVertical(font: FontSpec): VerticalMetrics {
    return styleSlot(this.verticals, font, () => {
      let v: VerticalMetrics;
      const unit = { ...font, size_pt: 1 };
      const own = grown(this.base.vertical(unit), lineGapFactor(this.base.resolve(font.name).family, !!font.bold, !!font.italic));
      if (!this.inexact(font.name)) v = own;
      else {
        const fb = grown(this.base.vertical({ ...unit, name: FALLBACK_FAMILY }), lineGapFactor(FALLBACK_FAMILY, !!font.bold, !!font.italic));
        const ascent = Math.max(own.ascent_pt, fb.ascent_pt);
        const descent = Math.max(own.descent_pt, fb.descent_pt);
        v = { ...own, ascent_pt: ascent, descent_pt: descent, lineHeight_pt: ascent + descent };
      }
      return v;
    });
  }

  vertical(font: FontSpec): VerticalMetrics {
    const u = this.unitVertical(font);
    const k = font.size_pt;
    return {
      ascent_pt: u.ascent_pt * k,
      descent_pt: u.descent_pt * k,
      lineHeight_pt: u.lineHeight_pt * k,
      underlineOffset_pt: u.underlineOffset_pt * k,
      underlineThickness_pt: u.underlineThickness_pt * k,
    };
  }
}

/**
 * The value cached for a font's name and style (bit 0 bold, bit 1 italic), made by `make`
 * on first use: no key string is built per lookup.
 */
function styleSlot<T>(cache: Map<string, Array<T | undefined>>, font: FontSpec, make: () => T): T {
  let styles = cache.get(font.name);
  if (!styles) {
    styles = [];
    cache.set(font.name, styles);
  }
  const i = (font.bold ? 1 : 0) | (font.italic ? 2 : 0);
  let v = styles[i];
  if (v === undefined) {
    v = make();
    styles[i] = v;
  }
  return v;
}

/** Vertical metrics with ascent and descent grown by `k`. */
function grown(v: VerticalMetrics, k: number): VerticalMetrics {
  return k === 1 ? v : { ...v, ascent_pt: v.ascent_pt * k, descent_pt: v.descent_pt * k, lineHeight_pt: v.lineHeight_pt * k };
}

/** The metrics fitting measures with. */
export const fitMetrics: FontMetrics = new ConservativeMetrics();

/**
 * Share of a box's height that fitted text may use: 2 % is kept free so that small
 * differences between our line heights and an application's (rounding, leading) never
 * push the last line out.
 */
export const HEIGHT_SAFETY = 0.98;

/** Layout options of every fitting measurement: conservative metrics, heights only. */
const FIT_LAYOUT = { metrics: fitMetrics, measureOnly: true } as const;

/** Smallest size steps written: sizes are rounded down to half points. */
const SIZE_STEP_PT = 0.5;

/**
 * A slide being generated, seen by the reading model: its shapes inherit from `layout`
 * (and its master) exactly as a slide part's do (§19.3.1.36), although the slide is not
 * (yet) a part of any package.
 */
export class GeneratedSlidePart extends ShapeTreePart {
  readonly kind = 'slide' as const;

  constructor(readonly layoutPart: LayoutPart, root: Element, partName: string) {
    super(layoutPart.model, partName, root);
  }

  get master(): MasterPart {
    return this.layoutPart.masterPart;
  }

  get parent(): ShapeTreePart {
    return this.layoutPart;
  }

  /**
   * The layout placeholder with the same idx (when the idx is not the default 0, which
   * layouts written without idx give every placeholder), else the same type (titles
   * interchangeable), else the master's of the mapped type.
   */
  basePlaceholderFor(ph: PlaceholderRef): Shape | undefined {
    const l = this.layoutPart;
    const title = ph.type === 'title' || ph.type === 'ctrTitle';
    return (
      (ph.idx > 0 ? l.placeholderByIdx(ph.idx) : undefined) ??
      l.placeholderByType(ph.type) ??
      (title ? l.placeholderByType(ph.type === 'title' ? 'ctrTitle' : 'title') : undefined) ??
      l.masterPart.placeholderByType(masterPlaceholderType(ph.type))
    );
  }

  /** A reading-model view of one top-level `p:sp` of this slide. */
  shapeOf(sp: Element): Shape {
    return new Shape('sp', sp, this, undefined, IDENTITY);
  }
}

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
  return { body: readTextBody(txBody, src), src, shape };
}

function largestRun(body: TextBodyInput): number {
  let max = 0;
  for (const p of body.paragraphs) for (const r of p.runs) if (!r.lineBreak && r.text !== '') max = Math.max(max, r.font.size_pt);
  if (max === 0) for (const p of body.paragraphs) max = Math.max(max, p.endFont?.size_pt ?? 0);
  return max || 18;
}

/**
 * Fits the text of a top-level `p:sp` on a generated slide into its box and writes the
 * sizes. Vertical text (`bodyPr/@vert`) and shapes without a resolvable frame are left
 * as they are (reported as fitting).
 */
export function fitShapeText(part: GeneratedSlidePart, sp: Element, o: TextFitOptions): TextFitOutcome | undefined {
  const read = readShapeText(part, sp);
  if (!read) return undefined;
  const { body, src, shape } = read;
  const vert = src.bodyPrs.map((b) => attr(b, 'vert')).find((v) => v !== undefined) ?? 'horz';
  const frame = o.box ?? shape.frame;
  const templateSizePt = largestRun(body);
  if (!frame) return { sizePt: templateSizePt, templateSizePt, fits: true, overflowPt: 0, neededPt: 0 };
  // vertical text (§20.1.10.82 ST_TextVerticalType) runs along the box's height
  const rotated = isVerticalText(vert);
  const w = rotated ? frame.cy : frame.cx;
  const h = rotated ? frame.cx : frame.cy;
  if (!body.paragraphs.some((p) => p.runs.some((r) => !r.lineBreak && r.text.trim() !== ''))) {
    return { sizePt: templateSizePt, templateSizePt, fits: true, overflowPt: 0, neededPt: 0 };
  }
  const box = { width_emu: w, height_emu: Math.floor(h * HEIGHT_SAFETY) };
  const minPt = Math.min(o.minPt, templateSizePt);
  // largest half-point size (of the largest run) at which the text fits: spacing given in
  // points stays as written, as it does in the file
  const fitsAt = (pt: number): boolean => layoutText(scaleBody(body, pt / templateSizePt), box, FIT_LAYOUT).overflow_pt <= 0.01;
  let scale: number;
  let fits = true;
  // at the template's size the layout is kept: it is the final one when the text fits
  const atTemplate = layoutText(scaleBody(body, 1), box, FIT_LAYOUT);
  if (atTemplate.overflow_pt <= 0.01) scale = 1;
  else if (!fitsAt(minPt)) {
    scale = minPt / templateSizePt;
    fits = false;
  } else {
    let lo = Math.ceil(minPt / SIZE_STEP_PT);
    let hi = Math.floor(templateSizePt / SIZE_STEP_PT);
    if (hi * SIZE_STEP_PT >= templateSizePt) hi--;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fitsAt(mid * SIZE_STEP_PT)) lo = mid;
      else hi = mid - 1;
    }
    scale = Math.max(minPt, lo * SIZE_STEP_PT) / templateSizePt;
  }
  if (body.wrap === false) {
    // unwrapped text (`wrap="none"`) must also fit the width: widths scale with the size
    const one = layoutText(scaleBody(body, 1), { width_emu: w, height_emu: h }, { metrics: fitMetrics });
    const inner = (w - (body.lIns_emu ?? 91440) - (body.rIns_emu ?? 91440)) / EMU_PER_PT;
    const widest = Math.max(0, ...one.lines.map((l) => l.width_pt + (l.fragments[0]?.x_pt ?? 0) - (body.lIns_emu ?? 91440) / EMU_PER_PT));
    if (widest > inner && widest > 0) {
      const sw = (inner / widest) * 0.99;
      if (sw < scale) scale = sw;
      if (templateSizePt * sw < minPt) fits = false;
    }
  }
  // round down to half points, never below the minimum (unless the template is smaller)
  let target = Math.floor((templateSizePt * scale + 1e-6) / SIZE_STEP_PT) * SIZE_STEP_PT;
  target = scale >= 1 ? templateSizePt : Math.max(minPt, Math.min(templateSizePt, target));
  const k = target / templateSizePt;
  writeScaledSizes(child(sp, NS.p, 'txBody')!, body, k);
  resetFontScale(sp);
  // the box without the safety margin only changes the overflow, which is 0 when it fits
  const final = k === 1 && fits ? atTemplate : layoutText(scaleBody(body, k), { width_emu: w, height_emu: h }, FIT_LAYOUT);
  return { sizePt: target, templateSizePt, fits, overflowPt: fits ? 0 : round1(final.overflow_pt), neededPt: final.totalHeight_pt };
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

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * Writes `sz` on every run, field, break and end-of-paragraph of `txBody`: the resolved
 * size (from `body`, read from the same text body in the same order) times `k`.
 */
export function writeScaledSizes(txBody: Element, body: TextBodyInput, k: number): void {
  const model = deferredParagraphs(txBody);
  if (model) {
    // paragraphs still a model: the sizes go where the serializer writes them
    model.sizes = model.lines.map((_, pi) => {
      const para = body.paragraphs[pi];
      return { runs: para ? para.runs.map((r) => sizeValue(r.font.size_pt * k)) : [], end: para?.endFont ? sizeValue(para.endFont.size_pt * k) : undefined };
    });
    return;
  }
  const doc = txBody.ownerDocument!;
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
      } else if (r.localName === 'endParaRPr' && para.endFont) {
        r.setAttribute('sz', String(sizeValue(para.endFont.size_pt * k)));
      }
    }
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

// ---------------------------------------------------------------- tables

/** A table as measured for fitting: per row, the height its text needs at a scale. */
export interface TableMeasure {
  /** `a:tr` elements in order. */
  rows: Element[];
  /** Column widths, EMU. */
  widths: number[];
  /** Largest resolved cell run size, pt (the "template size" of the table's text). */
  baseSizePt: number;
  /** Minimum heights written on the rows by the template (`a:tr/@h`), EMU. */
  templateHeights: number[];
  /** Height each row needs at `scale` (1 = template sizes), EMU. */
  heightsAt(scale: number): number[];
  /** Writes sizes at `scale` on every cell run and the given row heights. */
  write(scale: number, heights: number[]): void;
}

/** A list style making every level bold (header rows are measured with it); parsed once. */
let boldLst: Element | undefined;

/** Built-in table styles and most template styles bold the header row (`a:firstRow/a:tcTxStyle b="on"`). */
const BOLD_HEADER = true;

/**
 * Reads a table for fitting. Cell text resolves through the cell's own list style, then
 * the master's `otherStyle` and the presentation's `p:defaultTextStyle` (what a table
 * cell inherits, as the renderer reads it); header rows (the first row when
 * `a:tblPr/@firstRow` is on) are measured bold, as table styles draw them.
 */
export function measureTable(part: ShapeTreePart, tbl: Element): TableMeasure {
  const rows = children(tbl, NS.a, 'tr');
  const widths = children(child(tbl, NS.a, 'tblGrid') ?? tbl, NS.a, 'gridCol').map((g) => intAttr(g, 'w', 0));
  const firstRow = attr(child(tbl, NS.a, 'tblPr'), 'firstRow');
  const headerOn = firstRow === '1' || firstRow === 'true';
  const masterOther = part.master.textStyle('otherStyle');
  const defaults = part.model.presentation.defaultTextStyle;
  const theme = part.theme;
  boldLst ??= parseXml(
    `<a:lstStyle xmlns:a="${NS.a}">${Array.from({ length: 9 }, (_, i) => `<a:lvl${i + 1}pPr><a:defRPr b="1"/></a:lvl${i + 1}pPr>`).join('')}</a:lstStyle>`,
    'bold header',
  ).documentElement!;
  const bold = boldLst;
  const far = [masterOther, defaults].filter((x): x is Element => !!x);
  const colorCtx = { theme, colorMap: part.colorMap };
  const cellSources = (near: Element[]): TextStyleSources => ({ near, far, bodyPrs: [], theme, colorCtx, defaultFace: theme.minor.latin || 'Calibri' });
  let headerSrc: TextStyleSources | undefined;
  let bodySrc: TextStyleSources | undefined;
  type CellText = { txBody: Element; body: TextBodyInput; width: number; rowSpan: number };
  const cells: CellText[][] = rows.map((tr, ri) => {
    const out: CellText[] = [];
    let col = 0;
    for (const tc of children(tr, NS.a, 'tc')) {
      const span = Math.max(1, intAttr(tc, 'gridSpan', 1));
      const merged = attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1';
      const txBody = child(tc, NS.a, 'txBody');
      const w = widths.slice(col, col + span).reduce((a, b) => a + b, 0);
      col += span;
      if (merged || !txBody) continue;
      const own = child(txBody, NS.a, 'lstStyle');
      const header = BOLD_HEADER && headerOn && ri === 0;
      // cells without a list style of their own share their row kind's sources (and so
      // the level styles resolved from them)
      const src = own && children(own).length > 0 ? cellSources([own, ...(header ? [bold] : [])]) : header ? (headerSrc ??= cellSources([bold])) : (bodySrc ??= cellSources([]));
      const body = readTextBody(txBody, src);
      const tcPr = child(tc, NS.a, 'tcPr');
      body.lIns_emu = intAttr(tcPr, 'marL', 91440);
      body.rIns_emu = intAttr(tcPr, 'marR', 91440);
      body.tIns_emu = intAttr(tcPr, 'marT', 45720);
      body.bIns_emu = intAttr(tcPr, 'marB', 45720);
      body.fontScale = 1;
      body.lnSpcReduction = 0;
      out.push({ txBody, body, width: w, rowSpan: Math.max(1, intAttr(tc, 'rowSpan', 1)) });
    }
    return out;
  });
  let baseSizePt = 0;
  for (const row of cells) for (const c of row) baseSizePt = Math.max(baseSizePt, largestRun(c.body));
  return {
    rows,
    widths,
    baseSizePt: baseSizePt || 18,
    templateHeights: rows.map((tr) => intAttr(tr, 'h', 0)),
    heightsAt(scale: number): number[] {
      return cells.map((row) => {
        let need = 0;
        for (const c of row) {
          if (c.rowSpan !== 1) continue;
          const l: TextLayout = layoutText(scaleBody(c.body, scale), { width_emu: c.width, height_emu: 0 }, FIT_LAYOUT);
          need = Math.max(need, l.totalHeight_pt);
        }
        // 1 % and a quarter point of slack per row: applications round line heights up
        return Math.ceil((need * 1.01 + 0.25) * EMU_PER_PT);
      });
    },
    write(scale: number, heights: number[]): void {
      cells.forEach((row) => {
        for (const c of row) writeScaledSizes(c.txBody, c.body, scale);
      });
      rows.forEach((tr, i) => tr.setAttribute('h', String(Math.max(1, Math.round(heights[i] ?? 0)))));
    },
  };
}

/** Result of {@link fitTable}. */
export interface TableFitOutcome {
  /** Cell size written (largest run), pt. */
  sizePt: number;
  fits: boolean;
  /** Total height of the rows as written, EMU. */
  heightEmu: number;
  /** How far the rows run past the available height, pt. */
  overflowPt: number;
}

/**
 * Fits a table's rows into `availEmu`: at the template's sizes and row heights when they
 * fit; else at the largest cell size (half-point steps) ≥ `minPt` at which the rows,
 * grown to their text, fit; else at `minPt`, reporting the overflow. Writes sizes and row
 * heights; the caller sets the frame height.
 *
 * @param forcedPt - write this size whatever the fit (pages of a paginated table)
 */
export function fitTable(m: TableMeasure, availEmu: number, minPt: number, forcedPt?: number): TableFitOutcome {
  const base = m.baseSizePt;
  const lowPt = Math.min(minPt, base);
  const minScale = lowPt / base;
  const sum = (h: number[]): number => h.reduce((a, b) => a + b, 0);
  const finish = (scale: number, heights: number[], fits: boolean): TableFitOutcome => {
    m.write(scale, heights);
    const total = sum(heights);
    return { sizePt: round1(base * scale), fits, heightEmu: total, overflowPt: fits ? 0 : round1((total - availEmu) / EMU_PER_PT) };
  };
  if (forcedPt !== undefined) {
    const s = Math.min(1, forcedPt / base);
    const h = m.heightsAt(s);
    return finish(s, h, sum(h) <= availEmu);
  }
  const natural = m.heightsAt(1).map((h, i) => Math.max(h, m.templateHeights[i] ?? 0));
  if (sum(natural) <= availEmu) return finish(1, natural, true);
  const heightsAtMin = m.heightsAt(minScale);
  if (sum(heightsAtMin) > availEmu) return finish(minScale, heightsAtMin, false);
  // largest half-point size that fits (text height is monotone in the size)
  let lo = lowPt;
  let hi = base;
  while (hi - lo > SIZE_STEP_PT) {
    const mid = Math.floor(((lo + hi) / 2) / SIZE_STEP_PT) * SIZE_STEP_PT;
    if (mid <= lo) break;
    if (sum(m.heightsAt(mid / base)) <= availEmu) lo = mid;
    else hi = mid;
  }
  const s = lo / base;
  return finish(s, m.heightsAt(s), true);
}

/**
 * Splits body rows into pages: every page starts with the header rows and takes body rows
 * while they fit `availEmu` (a row is never split; a row taller than a page gets a page of
 * its own). Returns the body row indices of each page.
 */
export function paginateRows(heights: readonly number[], headerRows: ReadonlySet<number>, availEmu: number): number[][] {
  const headerH = [...headerRows].reduce((s, i) => s + (heights[i] ?? 0), 0);
  const pages: number[][] = [];
  let cur: number[] = [];
  let used = headerH;
  heights.forEach((h, i) => {
    if (headerRows.has(i)) return;
    if (cur.length && used + h > availEmu) {
      pages.push(cur);
      cur = [];
      used = headerH;
    }
    cur.push(i);
    used += h;
  });
  if (cur.length || pages.length === 0) pages.push(cur);
  return pages;
}
