/**
 * Tables (ECMA-376 Part 1, §21.1.3: `a:tbl`, `a:tblGrid`, `a:tr`, `a:tc`, `a:tcPr`) with
 * their table style (§20.1.4.2.26 `a:tblStyle` from the table styles part, or the built-in
 * default "Medium Style 2 – Accent 1"): cell fills, borders, merged cells, margins,
 * anchors, and text through the layout engine. Rows grow to fit their text as PowerPoint
 * lays them out.
 */
import { RT } from '../ooxml/opc/constants.js';
import type { Shape } from '../ooxml/pml/shapes.js';
import { NS, attr, boolAttr, child, children, intAttr, parseXml, type Element } from '../ooxml/xml.js';
import { PREVIEW_LAYOUT, layoutText, type LayoutOptions } from '../text/layout.js';
import { colorIn, type Rgba } from '../ooxml/pml/color.js';
import { DrawContext, EMU_PT, drawTurnedTextBody, fillOf, paintFill, resolveOutline, strokeOutline, styleFill, toPath2D, type RectPt, type ResolvedFill } from './draw-context.js';
import { readTextBody, type TextStyleSources } from '../ooxml/pml/text-style.js';

/**
 * How cell text is laid out in previews: as LibreOffice sets it, its lines at the faces'
 * own heights (no minimum of 1.2 × the size), which also sizes rows that grow to fit.
 */

const DEFAULT_STYLE_ID = '{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}';

/** Built-in "Medium Style 2 – Accent 1", PowerPoint's default table style. */
const MEDIUM_STYLE_2 = `<a:tblStyle xmlns:a="${NS.a}" styleId="${DEFAULT_STYLE_ID}" styleName="Medium Style 2 - Accent 1">
<a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="dk1"/></a:tcTxStyle>
<a:tcStyle><a:tcBdr><a:left><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:left><a:right><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:right><a:top><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:top><a:bottom><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:bottom><a:insideH><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:insideH><a:insideV><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:insideV></a:tcBdr>
<a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="20000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:wholeTbl>
<a:band1H><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="40000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:band1H>
<a:band1V><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="40000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:band1V>
<a:lastCol><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:lastCol>
<a:firstCol><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:firstCol>
<a:lastRow><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr><a:top><a:ln w="38100" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:top></a:tcBdr><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:lastRow>
<a:firstRow><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr><a:bottom><a:ln w="38100" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:bottom></a:tcBdr><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:firstRow>
</a:tblStyle>`;

let builtIn: Element | undefined;

function tableStyle(dc: DrawContext, id: string | undefined): Element | undefined {
  const styleId = id ?? DEFAULT_STYLE_ID;
  const pres = dc.model.presentation.partName;
  const part = dc.pkg.relatedPartName(pres, RT.tableStyles);
  if (part && dc.pkg.hasPart(part)) {
    const root = dc.pkg.getXml(part).documentElement;
    for (const s of root ? children(root, NS.a, 'tblStyle') : []) if (attr(s, 'styleId') === styleId) return s;
  }
  if (styleId === DEFAULT_STYLE_ID) {
    builtIn ??= parseXml(MEDIUM_STYLE_2, 'built-in table style').documentElement!;
    return builtIn;
  }
  return undefined;
}

interface Cell {
  tc: Element;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

/** Draws a table into `r` (points; the frame's transform is already applied). */
export function drawTable(dc: DrawContext, tbl: Element, r: RectPt, shape: Shape): void {
  const cols = children(child(tbl, NS.a, 'tblGrid') ?? tbl, NS.a, 'gridCol').map((g) => intAttr(g, 'w', 0) / EMU_PT);
  const trs = children(tbl, NS.a, 'tr');
  if (!cols.length || !trs.length) return;
  const tblPr = child(tbl, NS.a, 'tblPr');
  const flags = {
    firstRow: boolAttr(tblPr, 'firstRow') ?? false,
    lastRow: boolAttr(tblPr, 'lastRow') ?? false,
    firstCol: boolAttr(tblPr, 'firstCol') ?? false,
    lastCol: boolAttr(tblPr, 'lastCol') ?? false,
    bandRow: boolAttr(tblPr, 'bandRow') ?? false,
    bandCol: boolAttr(tblPr, 'bandCol') ?? false,
  };
  const styleIdEl = child(tblPr, NS.a, 'tableStyleId');
  const style = tableStyle(dc, styleIdEl ? styleIdEl.textContent?.trim() : undefined);
  const nRows = trs.length;
  const nCols = cols.length;
  const cells: Cell[] = [];
  trs.forEach((tr, ri) => {
    children(tr, NS.a, 'tc').forEach((tc, ci) => {
      if (boolAttr(tc, 'hMerge') || boolAttr(tc, 'vMerge')) return;
      cells.push({ tc, row: ri, col: ci, rowSpan: Math.max(1, intAttr(tc, 'rowSpan', 1)), colSpan: Math.max(1, intAttr(tc, 'gridSpan', 1)) });
    });
  });
  // Style parts in increasing precedence for a cell.
  const partsFor = (row: number, col: number): Element[] => {
    if (!style) return [];
    const names: string[] = ['wholeTbl'];
    const bodyRow = row - (flags.firstRow ? 1 : 0);
    if (flags.bandCol) names.push((col - (flags.firstCol ? 1 : 0)) % 2 === 0 ? 'band1V' : 'band2V');
    if (flags.bandRow && !(flags.firstRow && row === 0) && !(flags.lastRow && row === nRows - 1)) names.push(bodyRow % 2 === 0 ? 'band1H' : 'band2H');
    if (flags.lastCol && col === nCols - 1) names.push('lastCol');
    if (flags.firstCol && col === 0) names.push('firstCol');
    if (flags.lastRow && row === nRows - 1) names.push('lastRow');
    if (flags.firstRow && row === 0) names.push('firstRow');
    return names.map((n) => child(style, NS.a, n)).filter((e): e is Element => !!e);
  };
  const masterOther = shape.part.master.textStyle('otherStyle');
  const defaults = shape.part.model.presentation.defaultTextStyle;
  const textOf = (c: Cell): { body: ReturnType<typeof readTextBody>; mar: { l: number; r: number; t: number; b: number } } => {
    const tcPr = child(c.tc, NS.a, 'tcPr');
    const parts = partsFor(c.row, c.col);
    // The style's text properties (tcTxStyle) become a list style below the cell's own.
    let bold: string | undefined;
    let italic: string | undefined;
    let color: Rgba | undefined;
    let face: string | undefined;
    for (const p of parts) {
      const tx = child(p, NS.a, 'tcTxStyle');
      if (!tx) continue;
      bold = attr(tx, 'b') ?? bold;
      italic = attr(tx, 'i') ?? italic;
      const c2 = colorIn(tx, dc.colors);
      if (c2) color = c2;
      const fr = child(tx, NS.a, 'fontRef');
      if (fr) face = attr(fr, 'idx') === 'major' ? '+mj-lt' : '+mn-lt';
    }
    const hex = color ? [color.r, color.g, color.b].map((x) => Math.round(x).toString(16).padStart(2, '0')).join('') : undefined;
    const defRPr = `<a:defRPr${bold === 'on' ? ' b="1"' : ''}${italic === 'on' ? ' i="1"' : ''}>${hex ? `<a:solidFill><a:srgbClr val="${hex}"/></a:solidFill>` : ''}</a:defRPr>`;
    const lvls = Array.from({ length: 9 }, (_, i) => `<a:lvl${i + 1}pPr>${defRPr}</a:lvl${i + 1}pPr>`).join('');
    const synth = parseXml(`<a:lstStyle xmlns:a="${NS.a}">${lvls}</a:lstStyle>`, 'table style text').documentElement!;
    const txBody = child(c.tc, NS.a, 'txBody');
    const own = child(txBody, NS.a, 'lstStyle');
    const src: TextStyleSources = {
      near: [...(own ? [own] : []), synth],
      far: [masterOther, defaults].filter((x): x is Element => !!x),
      fontRefFace: face,
      bodyPrs: [],
      theme: dc.theme,
      colorCtx: dc.colors,
      defaultFace: dc.theme.minor.latin || 'Calibri',
      // LibreOffice sets Hebrew cells of the Office 2007 theme in DejaVu Sans (18 pt "אזור" 33.3 pt wide), not in
      // p:defaultTextStyle's Arial that the body placeholder's Hebrew beside them inherits past +mn-cs
      inheritsComplexFace: false,
    };
    const body = readTextBody(txBody, src);
    const mar = { l: intAttr(tcPr, 'marL', 91440), r: intAttr(tcPr, 'marR', 91440), t: intAttr(tcPr, 'marT', 45720), b: intAttr(tcPr, 'marB', 45720) };
    body.lIns_emu = mar.l;
    body.rIns_emu = mar.r;
    body.tIns_emu = mar.t;
    body.bIns_emu = mar.b;
    const anchor = attr(tcPr, 'anchor');
    body.anchor = anchor === 'ctr' ? 'ctr' : anchor === 'b' ? 'b' : 't';
    return { body, mar: { l: mar.l / EMU_PT, r: mar.r / EMU_PT, t: mar.t / EMU_PT, b: mar.b / EMU_PT } };
  };
  // Cell text is set by its faces' own metrics, as LibreOffice 7 sets it (where a shape's
  // text body has font-independent lines: LayoutOptions.lineMetrics); rows grow to fit it.
  const cellLayout: LayoutOptions = { ...PREVIEW_LAYOUT, lineMetrics: 'face' };
  // Row heights grow to fit single-row cells' text.
  const heights = trs.map((tr) => intAttr(tr, 'h', 0) / EMU_PT);
  const texts = new Map<Cell, ReturnType<typeof textOf>>();
  for (const c of cells) {
    const t = textOf(c);
    texts.set(c, t);
    if (c.rowSpan !== 1 || (attr(child(c.tc, NS.a, 'tcPr'), 'vert') ?? 'horz') !== 'horz') continue;
    const w = cols.slice(c.col, c.col + c.colSpan).reduce((s, x) => s + x, 0);
    const hasAny = t.body.paragraphs.some((p) => p.runs.some((x) => x.text !== ''));
    const emptyBody = hasAny ? t.body : { ...t.body, paragraphs: t.body.paragraphs.length ? t.body.paragraphs : [] };
    const need = layoutText(emptyBody, { width_emu: w * EMU_PT, height_emu: 0 }, cellLayout).totalHeight_pt;
    heights[c.row] = Math.max(heights[c.row] ?? 0, need);
  }
  const xs = [r.x];
  for (const w of cols) xs.push(xs[xs.length - 1]! + w);
  const ys = [r.y];
  for (const h of heights) ys.push(ys[ys.length - 1]! + h);
  // a right-to-left table (§21.1.3.15 `rtl`) lays its grid out from the right edge
  const rtl = boolAttr(tblPr, 'rtl') ?? false;
  const right = xs[nCols]!;
  const rectOf = (c: Cell): RectPt => {
    let x0 = xs[c.col]!;
    let x1 = xs[Math.min(nCols, c.col + c.colSpan)]!;
    if (rtl) [x0, x1] = [r.x + (right - x1), r.x + (right - x0)];
    const y0 = ys[c.row]!;
    const y1 = ys[Math.min(nRows, c.row + c.rowSpan)]!;
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  };
  // Fills.
  for (const c of cells) {
    const cr = rectOf(c);
    const tcPr = child(c.tc, NS.a, 'tcPr');
    let fill: ResolvedFill | undefined;
    const own = fillOf(tcPr);
    if (own) fill = { el: own, colors: dc.colors, part: shape.part.partName };
    else {
      for (const p of partsFor(c.row, c.col)) {
        const tcStyle = child(p, NS.a, 'tcStyle');
        const f = child(tcStyle, NS.a, 'fill');
        const fe = fillOf(f);
        if (fe) fill = { el: fe, colors: dc.colors, part: shape.part.partName };
        const fr = child(tcStyle, NS.a, 'fillRef');
        if (fr) fill = styleFill(dc, fr, shape.part.partName);
      }
    }
    if (fill) {
      const path = toPath2D([['M', cr.x, cr.y], ['L', cr.x + cr.w, cr.y], ['L', cr.x + cr.w, cr.y + cr.h], ['L', cr.x, cr.y + cr.h], ['Z']]);
      void paintFill(dc, fill, path, cr);
    }
  }
  // Borders: the cell's own lnL/lnR/lnT/lnB, else the style's edge or inside lines.
  for (const c of cells) {
    const cr = rectOf(c);
    const tcPr = child(c.tc, NS.a, 'tcPr');
    const parts = partsFor(c.row, c.col);
    const styleLine = (edge: string, inside: string, isOuter: boolean): Element | undefined => {
      let found: Element | undefined;
      for (const p of parts) {
        const bdr = child(child(p, NS.a, 'tcStyle'), NS.a, 'tcBdr');
        const e = child(bdr, NS.a, edge) ?? (isOuter ? undefined : child(bdr, NS.a, inside));
        const ln = child(e, NS.a, 'ln');
        if (ln) found = ln;
      }
      return found;
    };
    const edges: Array<[string, string, string, boolean, number, number, number, number]> = [
      ['lnL', 'left', 'insideV', c.col === 0, cr.x, cr.y, cr.x, cr.y + cr.h],
      ['lnR', 'right', 'insideV', c.col + c.colSpan >= nCols, cr.x + cr.w, cr.y, cr.x + cr.w, cr.y + cr.h],
      ['lnT', 'top', 'insideH', c.row === 0, cr.x, cr.y, cr.x + cr.w, cr.y],
      ['lnB', 'bottom', 'insideH', c.row + c.rowSpan >= nRows, cr.x, cr.y + cr.h, cr.x + cr.w, cr.y + cr.h],
    ];
    for (const [own, edge, inside, outer, x0, y0, x1, y1] of edges) {
      const ln = child(tcPr, NS.a, own) ?? styleLine(edge, inside, outer);
      if (!ln) continue;
      const o = resolveOutline(dc, [ln], undefined, shape.part.partName);
      if (!o) continue;
      strokeOutline(dc, { ...o, cap: 'square' }, toPath2D([['M', x0, y0], ['L', x1, y1]]), []);
    }
  }
  // Text; a cell's vert (§21.1.3.17 tcPr/@vert) turns it like a text box's.
  for (const c of cells) {
    const t = texts.get(c)!;
    drawTurnedTextBody(dc, t.body, rectOf(c), attr(child(c.tc, NS.a, 'tcPr'), 'vert'), false, cellLayout);
  }
}
