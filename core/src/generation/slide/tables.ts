/**
 * DrawingML tables (ECMA-376 Part 1, §21.1.3): a `p:graphicFrame` (§19.3.1.21) holding
 * `a:graphic/a:graphicData[@uri=…/table]/a:tbl` with `a:tblPr`, `a:tblGrid` and rows.
 *
 * Geometry is in EMU. The row height and font size chosen here are a first estimate:
 * `../fit/` measures the cells and writes the final sizes and row heights.
 */
import type { GenerationOptions, Table } from '../../domain/content.js';
import { NS, attr, child, children, createElement, intAttr, path, removeChildren, type Document, type Element, type Node } from '../../ooxml/xml.js';
import { cloneInto, SlideDraft, type DeferredCell, type DeferredParagraphs, type DeferredRows } from '../draft/index.js';
import { setRect, type Rect } from './shapes.js';
import { paragraphsModel } from './text.js';
import { cellParagraphLanguage, tableIsRightToLeft, writeTableDirection } from './intl-text.js';

/** `a:graphicData/@uri` of a table (§21.1.3). */
export const TABLE_URI = 'http://schemas.openxmlformats.org/drawingml/2006/table';

/** PowerPoint's built-in "Medium Style 2 – Accent 1", the default when a template names none. */
export const DEFAULT_TABLE_STYLE_ID = '{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}';

/** Default row height PowerPoint gives an 18 pt table row: 0.4 in, in EMU. */
export const DEFAULT_ROW_HEIGHT_EMU = 370_840;

const EMU_PER_PT = 12_700;
/** Top plus bottom default cell margins (`marT`/`marB` 45 720 EMU each, §21.1.3.17). */
const CELL_VERTICAL_MARGINS_EMU = 91_440;

/** The `a:tbl` of a graphic frame, or undefined when the frame holds something else. */
export function frameTable(frame: Element): Element | undefined {
  const gd = path(frame, [NS.a, 'graphic'], [NS.a, 'graphicData']);
  if (!gd || attr(gd, 'uri') !== TABLE_URI) return undefined;
  return child(gd, NS.a, 'tbl');
}

/** Rows of a table normalized to one column count (short rows padded with empty cells). */
function normalizedRows(table: Table): { cells: string[]; header: boolean }[] {
  const cols = Math.max(1, ...table.rows.map((r) => r.cells.length));
  return table.rows.map((r) => {
    const cells = r.cells.map((c) => c.value ?? '');
    while (cells.length < cols) cells.push('');
    return { cells, header: r.is_header === true };
  });
}

/** Column widths in EMU that split `totalCx` evenly; the last column takes the remainder. */
function splitWidths(totalCx: number, n: number): number[] {
  const w = Math.floor(totalCx / n);
  const out = Array<number>(n).fill(w);
  out[n - 1] = totalCx - w * (n - 1);
  return out;
}

/** An empty cell text body (`a:bodyPr`, `a:lstStyle`) holding `paragraphs`. */
function newCellTextBody(doc: Document, paragraphs: DeferredParagraphs): Element {
  const txBody = createElement(doc, NS.a, 'a:txBody');
  txBody.appendChild(createElement(doc, NS.a, 'a:bodyPr'));
  txBody.appendChild(createElement(doc, NS.a, 'a:lstStyle'));
  SlideDraft.keepParagraphs(doc, txBody, paragraphs);
  return txBody;
}

/** Every run, break and end of paragraph of `m` at `sz` hundredths of a point. */
function uniformSizes(m: DeferredParagraphs, sz: number): NonNullable<DeferredParagraphs['sizes']> {
  return m.lines.map((segments) => {
    const runs: number[] = [];
    segments.forEach((seg, i) => {
      if (i > 0) runs.push(sz);
      if (seg !== '') runs.push(sz);
    });
    return { runs, end: sz };
  });
}

/** Puts `model` where a table's rows go (before its `a:extLst`), replacing any rows or model it held. */
function setRows(doc: Document, tbl: Element, model: DeferredRows): void {
  for (const tr of children(tbl, NS.a, 'tr')) tbl.removeChild(tr);
  SlideDraft.keepRows(doc, tbl, model);
}

/**
 * Turns a table's deferred rows (see `generation/draft/deferred-rows`) into `a:tr` nodes in their
 * place, with the heights and sizes fitting wrote; the cells' paragraphs stay a model
 * (`materializeParagraphs` turns those into nodes). A table without a model is left alone.
 */
export function materializeRows(doc: Document, tbl: Element): void {
  SlideDraft.expandRows(tbl, (model) =>
    model.rows.map((row) => {
      const tr = createElement(doc, NS.a, 'a:tr', { h: row.h });
      for (const cell of row.cells) tr.appendChild(materializeCell(doc, cell));
      return tr;
    }),
  );
}

function materializeCell(doc: Document, cell: DeferredCell): Element {
  if (!cell.template) {
    const tc = createElement(doc, NS.a, 'a:tc');
    tc.appendChild(newCellTextBody(doc, cell.paragraphs));
    tc.appendChild(createElement(doc, NS.a, 'a:tcPr'));
    return tc;
  }
  // the template's paragraphs are not copied: only their formatting is reused
  const tc = cloneInto(doc, cell.template, isParagraph, isCellProperties);
  for (const a of SlideDraft.MERGE_ATTRS) tc.removeAttribute(a);
  const txBody = child(tc, NS.a, 'txBody');
  if (txBody) SlideDraft.keepParagraphs(doc, txBody, cell.paragraphs);
  else tc.insertBefore(newCellTextBody(doc, cell.paragraphs), tc.firstChild);
  return tc;
}

/** Options for {@link buildTableFrame}. */
export interface NewTableOptions {
  /** `p:cNvPr/@id` of the frame. */
  shapeId: number;
  name: string;
  /** A `p:ph` to keep on the frame, so it stays linked to the placeholder it fills. */
  ph?: Element;
  /** `a:tableStyleId` (a GUID); omitted when undefined. */
  tableStyleId: string | undefined;
  options: GenerationOptions;
}

/**
 * A new table graphic frame placed at `rect`: columns split the width evenly; rows share
 * the height, at most {@link DEFAULT_ROW_HEIGHT_EMU} each. When rows must be lower than
 * that, cell text gets an explicit size that fits one line (never below
 * `table_min_font_size`, default 8 pt). Leading `is_header` rows turn on `firstRow`.
 */
export function buildTableFrame(doc: Document, table: Table, rect: Rect, o: NewTableOptions): Element {
  const rows = normalizedRows(table);
  const nCols = rows[0]?.cells.length ?? 1;
  const rowH = Math.max(1, Math.min(DEFAULT_ROW_HEIGHT_EMU, Math.floor(rect.cy / Math.max(1, rows.length))));
  const minPt = o.options.table_min_font_size ?? 8;
  const fitPt = Math.floor((rowH - CELL_VERTICAL_MARGINS_EMU) / EMU_PER_PT / 1.2);
  const cellPt = rowH < DEFAULT_ROW_HEIGHT_EMU ? Math.max(minPt, Math.min(18, fitPt)) : undefined;

  const frame = createElement(doc, NS.p, 'p:graphicFrame');
  const nv = createElement(doc, NS.p, 'p:nvGraphicFramePr');
  nv.appendChild(createElement(doc, NS.p, 'p:cNvPr', { id: o.shapeId, name: o.name }));
  const cNvGf = createElement(doc, NS.p, 'p:cNvGraphicFramePr');
  cNvGf.appendChild(createElement(doc, NS.a, 'a:graphicFrameLocks', { noGrp: '1' }));
  nv.appendChild(cNvGf);
  const nvPr = createElement(doc, NS.p, 'p:nvPr');
  if (o.ph) nvPr.appendChild(cloneInto(doc, o.ph));
  nv.appendChild(nvPr);
  frame.appendChild(nv);
  const xfrm = createElement(doc, NS.p, 'p:xfrm');
  setRect(doc, xfrm, { ...rect, cy: rowH * rows.length });
  frame.appendChild(xfrm);
  const graphic = createElement(doc, NS.a, 'a:graphic');
  const gd = createElement(doc, NS.a, 'a:graphicData', { uri: TABLE_URI });
  const tbl = createElement(doc, NS.a, 'a:tbl');
  const header = rows[0]?.header === true;
  const tblPr = createElement(doc, NS.a, 'a:tblPr', { firstRow: header ? '1' : undefined, bandRow: '1' });
  if (o.tableStyleId) {
    const sid = createElement(doc, NS.a, 'a:tableStyleId');
    sid.appendChild(doc.createTextNode(o.tableStyleId));
    tblPr.appendChild(sid);
  }
  writeTableDirection(tblPr, tableIsRightToLeft(rows.flatMap((r) => r.cells), o.options.language));
  tbl.appendChild(tblPr);
  const grid = createElement(doc, NS.a, 'a:tblGrid');
  for (const w of splitWidths(rect.cx, nCols)) grid.appendChild(createElement(doc, NS.a, 'a:gridCol', { w }));
  tbl.appendChild(grid);
  const model: DeferredRows = {
    rows: rows.map((row) => ({
      h: rowH,
      cells: row.cells.map((text): DeferredCell => {
        const paragraphs = cellParagraphLanguage(doc, paragraphsModel([text], undefined), text, o.options.language, undefined);
        if (cellPt !== undefined) paragraphs.sizes = uniformSizes(paragraphs, Math.round(cellPt * 100));
        return { template: undefined, paragraphs };
      }),
    })),
  };
  setRows(doc, tbl, model);
  gd.appendChild(tbl);
  graphic.appendChild(gd);
  frame.appendChild(graphic);
  return frame;
}

function isParagraph(el: Element): boolean {
  return el.localName === 'p' && el.namespaceURI === NS.a;
}

/** `a:tcPr` (§21.1.3.17): read for its margins, its borders and fill written as the template has them. */
function isCellProperties(el: Element): boolean {
  return el.localName === 'tcPr' && el.namespaceURI === NS.a;
}

/**
 * Replaces the rows of an existing table, keeping its `a:tblPr` (style, banding) and the
 * formatting of its rows and cells: new header rows copy the template's first row, body
 * rows cycle through the template's other rows (so explicit banding survives). Merges are
 * dropped. The grid keeps its widths when the column count is unchanged, else the frame
 * width is split evenly. The frame height becomes the sum of the row heights.
 *
 * @param sourceFrame - the template's frame to take row formatting from, when `frame` is a
 *   copy made without its rows
 * @param language - BCP 47 language of the cells (the slide's options), for direction and run language
 */
export function replaceTableContent(doc: Document, frame: Element, table: Table, sourceFrame?: Element, language?: string): void {
  const tbl = frameTable(frame);
  if (!tbl) return;
  // without a source, the table's own rows are the template: as nodes
  if (!sourceFrame) materializeRows(doc, tbl);
  const rows = normalizedRows(table);
  const nCols = rows[0]?.cells.length ?? 1;
  const ownRows = children(tbl, NS.a, 'tr');
  const sourceTbl = sourceFrame ? frameTable(sourceFrame) : undefined;
  const tmplRows = sourceTbl ? children(sourceTbl, NS.a, 'tr') : ownRows;
  const headerTmpl = tmplRows[0];
  const bodyTmpls = tmplRows.length > 1 ? tmplRows.slice(1) : tmplRows;

  let tblPr = child(tbl, NS.a, 'tblPr');
  if (!tblPr) {
    tblPr = createElement(doc, NS.a, 'a:tblPr');
    tbl.insertBefore(tblPr, tbl.firstChild);
  }
  if (rows[0]?.header) tblPr.setAttribute('firstRow', '1');
  writeTableDirection(tblPr, tableIsRightToLeft(rows.flatMap((r) => r.cells), language));

  let grid = child(tbl, NS.a, 'tblGrid');
  const oldWidths = grid ? children(grid, NS.a, 'gridCol').map((g) => intAttr(g, 'w', 0)) : [];
  const frameCx = intAttr(path(frame, [NS.p, 'xfrm'], [NS.a, 'ext']), 'cx') ?? oldWidths.reduce((a, b) => a + b, 0);
  const widths = oldWidths.length === nCols ? oldWidths : splitWidths(frameCx > 0 ? frameCx : nCols * 914_400, nCols);
  if (!grid) {
    grid = createElement(doc, NS.a, 'a:tblGrid');
    tbl.insertBefore(grid, tblPr.nextSibling);
  }
  // keep each gridCol's extLst (column ids) when the count is unchanged
  if (oldWidths.length !== nCols) {
    removeChildren(grid);
    for (const w of widths) grid.appendChild(createElement(doc, NS.a, 'a:gridCol', { w }));
  }

  // cells stay the template's own cells around new paragraphs until the slide is
  // written (generation/draft/deferred-rows); a row's extLst (row id) is not copied: ids would repeat
  let totalH = 0;
  let bodyIndex = 0;
  const model: DeferredRows = {
    rows: rows.map((row) => {
      const tmpl = row.header ? (headerTmpl ?? bodyTmpls[0]) : bodyTmpls[bodyIndex++ % Math.max(1, bodyTmpls.length)];
      const h = intAttr(tmpl, 'h', DEFAULT_ROW_HEIGHT_EMU);
      totalH += h;
      const tmplCells = tmpl ? children(tmpl, NS.a, 'tc') : [];
      return {
        h,
        cells: row.cells.map((text, j): DeferredCell => {
          const template = tmplCells[Math.min(j, tmplCells.length - 1)];
          const paragraphs = paragraphsModel([text], template ? child(template, NS.a, 'txBody') : undefined);
          return { template, paragraphs: cellParagraphLanguage(doc, paragraphs, text, language, undefined) };
        }),
      };
    }),
  };
  setRows(doc, tbl, model);
  const ext = path(frame, [NS.p, 'xfrm'], [NS.a, 'ext']);
  if (ext) ext.setAttribute('cy', String(totalH));
}

/** The `a:tableStyleId` values used by the tables of a document. */
export function tableStyleIds(doc: Document): string[] {
  const out: string[] = [];
  const stack: Node[] = [];
  for (let n = doc.lastChild; n; n = n.previousSibling) stack.push(n);
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType !== 1) continue;
    const el = n as Element;
    const local = el.localName;
    if (local === 'tableStyleId' && el.namespaceURI === NS.a) {
      const id = (el.textContent ?? '').trim();
      if (id) out.push(id);
      continue;
    }
    // text and table rows hold no style ids (§21.1.3: tableStyleId lives in a:tblPr)
    if (local === 'txBody' || local === 'tr' || local === 'spPr' || local === 'style') continue;
    for (let c = el.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return out;
}
