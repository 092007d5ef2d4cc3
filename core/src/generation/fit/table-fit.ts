/**
 * Measured table fitting for generated slides (issue 4, the table half of item 2): every
 * cell's text read as the renderer reads it, laid out by the shared engine, and the
 * table's rows shrunk uniformly (half-point steps) until they fit their area.
 *
 * Geometry is EMU (12 700 per point); sizes are points.
 */
import { NS, attr, child, children, intAttr, parseXml, type Element } from '../../ooxml/xml.js';
import { withSharedLevelStyles, type TextStyleSources } from '../../ooxml/pml/text-style.js';
import { SlideDraft, type GeneratedSlidePart } from '../draft/index.js';
import { layoutText, EMU_PER_PT, type TextBodyInput, type TextLayout } from '../../text/layout.js';
import { FIT_LAYOUT } from '../../text/fit-metrics.js';
import { largestRun, round1, SIZE_STEP_PT, writeModelSizes, writeScaledSizes } from './text-fit.js';

/** A table as measured for fitting: per row, the height its text needs at a scale. */
export interface TableMeasure {
  /** Column widths, EMU. */
  widths: number[];
  /** Largest resolved cell run size, pt (the "template size" of the table's text). */
  baseSizePt: number;
  /** Minimum heights written on the rows by the template (`a:tr/@h`), EMU. */
  templateHeights: number[];
  /**
   * The largest cell size the table's text has without the sizes generation wrote to crowd
   * all rows into one area (a new table's cells, `tables.ts`), pt: the most a page of a split
   * table may use. {@link TableMeasure.baseSizePt} for a template's table.
   */
  naturalSizePt(): number;
  /** Height each row needs at `scale` (1 = template sizes), EMU. */
  heightsAt(scale: number): number[];
  /** Writes sizes at `scale` on every cell run and the given row heights. */
  write(scale: number, heights: number[]): void;
}

/** A list style making every level bold (header rows are measured with it); parsed once. */
let boldLst: Element | undefined;

/** Built-in table styles and most template styles bold the header row (`a:firstRow/a:tcTxStyle b="on"`). */
const BOLD_HEADER = true;

/** A row as measured: its cells' text and how to write its height. */
interface MeasuredRow {
  templateHeight: number;
  cells: MeasuredCell[];
  setHeight(h: number): void;
}

/** A cell's text as laid out for fitting, and how to write its sizes. */
interface MeasuredCell {
  body: TextBodyInput;
  /** Width of the grid columns it spans, EMU. */
  width: number;
  rowSpan: number;
  writeSizes(scale: number): void;
}

/**
 * Reads a table for fitting, its rows as nodes or still a model (`generation/draft/deferred-rows`).
 * Cell text resolves through the cell's own list style, then the master's `otherStyle`
 * and the presentation's `p:defaultTextStyle` (what a table cell inherits, as the
 * renderer reads it); header rows (the first row when `a:tblPr/@firstRow` is on) are
 * measured bold, as table styles draw them.
 */
export function measureTable(part: GeneratedSlidePart, tbl: Element): TableMeasure {
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
  /** The sources of a cell whose text body has list style `own`. */
  const sourcesOf = (own: Element | undefined, header: boolean): TextStyleSources =>
    // cells without a list style of their own share their row kind's sources, and the
    // level styles resolved from them with every table of the same template
    own && children(own).length > 0 ? cellSources([own, ...(header ? [bold] : [])]) : header ? (headerSrc ??= withSharedLevelStyles(cellSources([bold]))) : (bodySrc ??= withSharedLevelStyles(cellSources([])));
  /** The cell's margins (§21.1.3.17 `a:tcPr` marL/marR/marT/marB) set on its body; the body's own font scale is not the cell's. */
  const asCell = (body: TextBodyInput, tcPr: Element | undefined): TextBodyInput => {
    body.lIns_emu = intAttr(tcPr, 'marL', 91440);
    body.rIns_emu = intAttr(tcPr, 'marR', 91440);
    body.tIns_emu = intAttr(tcPr, 'marT', 45720);
    body.bIns_emu = intAttr(tcPr, 'marB', 45720);
    body.fontScale = 1;
    body.lnSpcReduction = 0;
    return body;
  };
  const model = SlideDraft.rowsOf(tbl);
  let rows: MeasuredRow[];
  let natural: (() => number) | undefined;
  if (model) {
    natural = () => {
      let max = 0;
      model.rows.forEach((row, ri) =>
        row.cells.forEach((cell) => {
          const src = sourcesOf(child(child(cell.template, NS.a, 'txBody'), NS.a, 'lstStyle'), BOLD_HEADER && headerOn && ri === 0);
          max = Math.max(max, largestRun(part.draft.readParagraphs({ ...cell.paragraphs, sizes: undefined }, src)));
        }),
      );
      return max;
    };
    // every cell spans one column and one row (merges are not carried into new rows)
    rows = model.rows.map((row, ri) => ({
      templateHeight: row.h,
      setHeight: (h: number): void => {
        row.h = h;
      },
      cells: row.cells.map((cell, ci) => {
        const header = BOLD_HEADER && headerOn && ri === 0;
        const tcPr = child(cell.template, NS.a, 'tcPr');
        const src = sourcesOf(child(child(cell.template, NS.a, 'txBody'), NS.a, 'lstStyle'), header);
        const body = asCell(part.draft.readParagraphs(cell.paragraphs, src), tcPr);
        return { body, width: widths[ci] ?? 0, rowSpan: 1, writeSizes: (scale: number) => writeModelSizes(cell.paragraphs, body, scale) };
      }),
    }));
  } else {
    rows = children(tbl, NS.a, 'tr').map((tr, ri) => {
      const cells: MeasuredCell[] = [];
      let col = 0;
      for (const tc of children(tr, NS.a, 'tc')) {
        const span = Math.max(1, intAttr(tc, 'gridSpan', 1));
        const merged = attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1';
        const txBody = child(tc, NS.a, 'txBody');
        const w = widths.slice(col, col + span).reduce((a, b) => a + b, 0);
        col += span;
        if (merged || !txBody) continue;
        const header = BOLD_HEADER && headerOn && ri === 0;
        const body = asCell(part.draft.readTextBody(txBody, sourcesOf(child(txBody, NS.a, 'lstStyle'), header)), child(tc, NS.a, 'tcPr'));
        cells.push({ body, width: w, rowSpan: Math.max(1, intAttr(tc, 'rowSpan', 1)), writeSizes: (scale: number) => writeScaledSizes(txBody, body, scale) });
      }
      return { templateHeight: intAttr(tr, 'h', 0), cells, setHeight: (h: number) => tr.setAttribute('h', String(h)) };
    });
  }
  let baseSizePt = 0;
  for (const row of rows) for (const c of row.cells) baseSizePt = Math.max(baseSizePt, largestRun(c.body));
  return {
    widths,
    baseSizePt: baseSizePt || 18,
    naturalSizePt: () => Math.max(baseSizePt || 18, natural?.() ?? 0),
    templateHeights: rows.map((r) => r.templateHeight),
    heightsAt(scale: number): number[] {
      return rows.map((row) => {
        let need = 0;
        for (const c of row.cells) {
          if (c.rowSpan !== 1) continue;
          // the cell bodies' font scale and line-spacing reduction are already dropped
          const l: TextLayout = layoutText(c.body, { width_emu: c.width, height_emu: 0 }, scale === 1 ? FIT_LAYOUT : { ...FIT_LAYOUT, sizeScale: scale });
          need = Math.max(need, l.totalHeight_pt);
        }
        // 1 % and a quarter point of slack per row: applications round line heights up
        return Math.ceil((need * 1.01 + 0.25) * EMU_PER_PT);
      });
    },
    write(scale: number, heights: number[]): void {
      for (const row of rows) for (const c of row.cells) c.writeSizes(scale);
      rows.forEach((row, i) => row.setHeight(Math.max(1, Math.round(heights[i] ?? 0))));
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

