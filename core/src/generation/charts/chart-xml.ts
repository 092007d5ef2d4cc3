/**
 * Rewriting the data of a chart part (`c:chartSpace`, ECMA-376 Part 1, §21.2.2.29): series
 * names (`c:tx`, §21.2.2.215), categories (`c:cat` §21.2.2.24 / `c:xVal` §21.2.2.235),
 * values (`c:val` §21.2.2.224 / `c:yVal` §21.2.2.237), each a reference (`c:strRef`
 * §21.2.2.205, `c:numRef` §21.2.2.123) whose formula (`c:f`) names cells of the embedded
 * workbook and whose cache (`c:strCache` §21.2.2.203, `c:numCache` §21.2.2.120: `c:ptCount`
 * and `c:pt`) holds the same values, so the chart shows the new data without opening the
 * workbook. The workbook itself is written by `workbook.ts` with the same layout.
 *
 * Layout of the data (Excel's own for a new chart): the category column A from row 2, one
 * column per series from B, series names in row 1.
 *
 * Series are matched to the data in `c:order` order; extra data series are clones of the
 * first series (its formatting, with a theme accent colour moved on to the series' own
 * accent), extra chart series are removed, and a plot left without series goes with the
 * axes only it used.
 */
import { NS, attr, child, children, createElement, descendants, type Document, type Element } from '../../ooxml/xml.js';
import { cloneInto } from '../draft/index.js';
import { ChartError, xmlSafe, type ChartData } from './chart-data.js';
import { parseRangeFormula, rangeFormula, type CellRange } from './refs.js';

/** Plot elements whose series hold categories and values (or x and y values) that this module rewrites. */
export const UPDATABLE_PLOTS: ReadonlySet<string> = new Set([
  'barChart',
  'bar3DChart',
  'lineChart',
  'line3DChart',
  'pieChart',
  'pie3DChart',
  'ofPieChart',
  'doughnutChart',
  'areaChart',
  'area3DChart',
  'scatterChart',
  'radarChart',
  'surfaceChart',
  'surface3DChart',
]);

/** `c:ext/@uri` of extensions that hold formulas of the old data (c15 data-label ranges, filtered series, full-range refs). */
const STALE_EXT_URIS: ReadonlySet<string> = new Set(['{02D57815-91ED-43CB-92C2-25804820EDAC}']);

/** Element names that follow `c:tx` in any series type (the XSD sequences of CT_*Ser). */
const AFTER_TX = ['spPr', 'invertIfNegative', 'pictureOptions', 'marker', 'explosion', 'dPt', 'dLbls', 'trendline', 'errBars', 'cat', 'val', 'xVal', 'yVal', 'shape', 'smooth', 'bubbleSize', 'bubble3D', 'extLst'];
const AFTER_CAT = ['val', 'yVal', 'shape', 'smooth', 'bubbleSize', 'bubble3D', 'extLst'];
const AFTER_VAL = ['shape', 'smooth', 'bubbleSize', 'bubble3D', 'extLst'];
/** Children of `c:chart` (CT_Chart) after `c:title`. */
const AFTER_TITLE = ['autoTitleDeleted', 'pivotFmts', 'view3D', 'floor', 'sideWall', 'backWall', 'plotArea', 'legend', 'plotVisOnly', 'dispBlanksAs', 'showDLblsOverMax', 'extLst'];

/** What {@link applyChartXml} wrote, for the workbook to hold the same. */
export interface ChartLayout {
  sheet: string;
  /** Categories written as numbers (a numeric `c:cat` or scatter x values), else as text. */
  numericCategories: boolean;
  /** Range of the categories (column A from row 2). */
  categories: CellRange;
  /** Per series: the name cell and the values range. */
  series: Array<{ name: CellRange; values: CellRange }>;
}

/** The plots of a chart part, in `c:plotArea` order. @throws ChartError `chart_corrupt` */
export function chartPlots(doc: Document): Element[] {
  const space = doc.documentElement;
  const plotArea = child(child(space ?? undefined, NS.c, 'chart'), NS.c, 'plotArea');
  if (!space || space.namespaceURI !== NS.c || space.localName !== 'chartSpace' || !plotArea) throw new ChartError('chart_corrupt', 'the chart part has no c:chartSpace/c:chart/c:plotArea');
  return children(plotArea, NS.c).filter((e) => /Chart$/.test(e.localName ?? ''));
}

/** Why a chart's data cannot be rewritten, or undefined when it can. */
export function unsupportedReason(doc: Document): string | undefined {
  let plots: Element[];
  try {
    plots = chartPlots(doc);
  } catch (err) {
    return (err as Error).message;
  }
  if (plots.length === 0) return 'the chart has no plot';
  const bad = plots.find((p) => !UPDATABLE_PLOTS.has(p.localName ?? ''));
  return bad ? `${bad.localName} plots (bubble, stock, ...) cannot be updated` : undefined;
}

/** Every range the chart's formulas name (to clear the old data from the workbook). */
export function referencedRanges(doc: Document): CellRange[] {
  const out: CellRange[] = [];
  for (const f of descendants(doc, NS.c, 'f')) {
    const r = parseRangeFormula(f.textContent ?? '');
    if (r) out.push(r);
  }
  return out;
}

/** The worksheet the chart's data lives on: the first formula's, else `Sheet1`. */
export function dataSheetName(doc: Document): string {
  return referencedRanges(doc)[0]?.sheet ?? 'Sheet1';
}

/** Element factory in the chart namespace with the document's own prefix. */
class Factory {
  private readonly prefix: string;
  constructor(readonly doc: Document) {
    const p = doc.documentElement?.prefix;
    this.prefix = p ? `${p}:` : '';
  }
  c(local: string, attrs?: Record<string, string | number>, ...kids: Array<Element | string>): Element {
    const el = createElement(this.doc, NS.c, `${this.prefix}${local}`, attrs);
    for (const k of kids) el.appendChild(typeof k === 'string' ? this.doc.createTextNode(k) : k);
    return el;
  }
  a(local: string, attrs?: Record<string, string | number>, ...kids: Array<Element | string>): Element {
    const el = createElement(this.doc, NS.a, `a:${local}`, attrs);
    for (const k of kids) el.appendChild(typeof k === 'string' ? this.doc.createTextNode(k) : k);
    return el;
  }
}

function numberText(v: number): string {
  return String(v);
}

/** Whether every category reads as a finite number. */
function allNumeric(categories: readonly string[]): boolean {
  return categories.length > 0 && categories.every((c) => c.trim() !== '' && Number.isFinite(Number(c.trim())));
}

/** Inserts `el` in `parent` in schema order (before the first child named in `successors`), replacing any `old`. */
function put(parent: Element, el: Element, old: Element | undefined, successors: readonly string[]): void {
  if (old) {
    parent.replaceChild(el, old);
    return;
  }
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && successors.includes((n as Element).localName ?? '')) {
      parent.insertBefore(el, n);
      return;
    }
  }
  parent.appendChild(el);
}

/**
 * Writes `data` into a chart part: series, caches, formulas and the title.
 *
 * @param sheet - the worksheet of the embedded workbook the formulas name
 * @returns the cell layout the workbook must hold
 * @throws ChartError `chart_unsupported` for plots other than {@link UPDATABLE_PLOTS}, `chart_corrupt` for a chart without plot area
 */
export function applyChartXml(doc: Document, data: ChartData, sheet: string): ChartLayout {
  const plots = chartPlots(doc);
  const why = unsupportedReason(doc);
  if (why) throw new ChartError('chart_unsupported', why);
  const f = new Factory(doc);
  const plotArea = plots[0]!.parentNode as Element;

  // existing series in c:order order
  const entries: Array<{ plot: Element; ser: Element; order: number; pos: number }> = [];
  let pos = 0;
  for (const plot of plots) {
    for (const ser of children(plot, NS.c, 'ser')) entries.push({ plot, ser, order: Number(attr(child(ser, NS.c, 'order'), 'val') ?? pos), pos: pos++ });
  }
  entries.sort((a, b) => a.order - b.order || a.pos - b.pos);

  let templatePlot = plots[0]!;
  let template = entries[0]?.ser;
  if (!template) {
    template = f.c('ser', undefined, f.c('idx', { val: 0 }), f.c('order', { val: 0 }));
    templatePlot.insertBefore(template, firstAfterSeries(templatePlot));
    entries.push({ plot: templatePlot, ser: template, order: 0, pos: 0 });
  } else templatePlot = entries[0]!.plot;
  const templateCopy = cloneInto(doc, template);

  const n = data.series.length;
  const ncat = data.categories.length;
  // remove chart series beyond the data
  for (const e of entries.slice(n)) e.ser.parentNode?.removeChild(e.ser);
  const kept = entries.slice(0, n).map((e) => e.ser);
  // add clones for data series beyond the chart's
  let maxIdx = -1;
  for (const s of kept) maxIdx = Math.max(maxIdx, Number(attr(child(s, NS.c, 'idx'), 'val') ?? -1));
  let lastInPlot = children(templatePlot, NS.c, 'ser').pop() ?? null;
  for (let i = kept.length; i < n; i++) {
    const clone = cloneInto(doc, templateCopy);
    const idx = ++maxIdx;
    const idxEl = child(clone, NS.c, 'idx');
    if (idxEl) idxEl.setAttribute('val', String(idx));
    for (const ext of children(clone, NS.c, 'extLst')) clone.removeChild(ext);
    rotateAccent(clone, idx);
    const before = lastInPlot ? lastInPlot.nextSibling : firstAfterSeries(templatePlot);
    templatePlot.insertBefore(clone, before);
    lastInPlot = clone;
    kept.push(clone);
  }

  // plots left without series go, with the axes no other plot uses
  const removedAxes = new Set<string>();
  for (const plot of plots) {
    if (children(plot, NS.c, 'ser').length > 0) continue;
    for (const ax of children(plot, NS.c, 'axId')) removedAxes.add(attr(ax, 'val') ?? '');
    plotArea.removeChild(plot);
  }
  if (removedAxes.size) {
    const stillUsed = new Set<string>();
    for (const plot of children(plotArea, NS.c).filter((e) => /Chart$/.test(e.localName ?? ''))) for (const ax of children(plot, NS.c, 'axId')) stillUsed.add(attr(ax, 'val') ?? '');
    for (const ax of children(plotArea, NS.c).filter((e) => /Ax$/.test(e.localName ?? ''))) {
      const id = attr(child(ax, NS.c, 'axId'), 'val') ?? '';
      if (removedAxes.has(id) && !stillUsed.has(id)) plotArea.removeChild(ax);
    }
  }

  // categories as numbers: scatter x values that all read as numbers, or a numeric c:cat kept numeric
  const firstPlot = kept[0]!.parentNode as Element;
  const isScatter = firstPlot.localName === 'scatterChart';
  const templateCat = child(templateCopy, NS.c, isScatter ? 'xVal' : 'cat');
  const numericCategories = allNumeric(data.categories) && (isScatter || !!child(templateCat, NS.c, 'numRef'));
  const catFormat = formatCodeOf(templateCat) ?? 'General';

  const categories: CellRange = { sheet, row1: 2, col1: 1, row2: 1 + ncat, col2: 1 };
  const layout: ChartLayout = { sheet, numericCategories, categories, series: [] };
  kept.forEach((ser, i) => {
    const col = i + 2;
    const nameCell: CellRange = { sheet, row1: 1, col1: col, row2: 1, col2: col };
    const values: CellRange = { sheet, row1: 2, col1: col, row2: 1 + ncat, col2: col };
    layout.series.push({ name: nameCell, values });
    const s = data.series[i]!;
    const order = child(ser, NS.c, 'order');
    if (order) order.setAttribute('val', String(i));
    const scatter = (ser.parentNode as Element).localName === 'scatterChart';

    // c:tx
    const tx = f.c('tx', undefined, f.c('strRef', undefined, f.c('f', undefined, rangeFormula(nameCell)), f.c('strCache', undefined, f.c('ptCount', { val: 1 }), f.c('pt', { idx: 0 }, f.c('v', undefined, xmlSafe(s.name))))));
    put(ser, tx, child(ser, NS.c, 'tx'), AFTER_TX);

    // c:cat / c:xVal
    const catName = scatter ? 'xVal' : 'cat';
    const oldCat = child(ser, NS.c, catName);
    const catRef = numericCategories
      ? f.c('numRef', undefined, f.c('f', undefined, rangeFormula(categories)), numCache(f, data.categories.map((c) => Number(c.trim())), catFormat))
      : f.c('strRef', undefined, f.c('f', undefined, rangeFormula(categories)), strCache(f, data.categories));
    put(ser, f.c(catName, undefined, catRef), oldCat, AFTER_CAT);

    // c:val / c:yVal
    const valName = scatter ? 'yVal' : 'val';
    const oldVal = child(ser, NS.c, valName);
    const valFormat = formatCodeOf(oldVal) ?? formatCodeOf(child(templateCopy, NS.c, valName)) ?? 'General';
    put(ser, f.c(valName, undefined, f.c('numRef', undefined, f.c('f', undefined, rangeFormula(values)), numCache(f, s.values, valFormat))), oldVal, AFTER_VAL);

    // per-point formatting and labels past the new last point go
    for (const dPt of children(ser, NS.c, 'dPt')) if (Number(attr(child(dPt, NS.c, 'idx'), 'val') ?? 0) >= ncat) ser.removeChild(dPt);
    const dLbls = child(ser, NS.c, 'dLbls');
    if (dLbls) for (const l of children(dLbls, NS.c, 'dLbl')) if (Number(attr(child(l, NS.c, 'idx'), 'val') ?? 0) >= ncat) dLbls.removeChild(l);
    removeStaleExtensions(ser);
  });
  for (const plot of children(plotArea, NS.c).filter((e) => /Chart$/.test(e.localName ?? ''))) removeStaleExtensions(plot);

  const chart = child(doc.documentElement!, NS.c, 'chart')!;
  if (data.title !== undefined) setTitle(f, chart, data.title);
  // legend entries (per series, or per point of a pie) past the new data go
  const legend = child(chart, NS.c, 'legend');
  if (legend) for (const e of children(legend, NS.c, 'legendEntry')) if (Number(attr(child(e, NS.c, 'idx'), 'val') ?? 0) >= Math.max(n, ncat)) legend.removeChild(e);
  // a pivot chart's source no longer describes the data
  const pivot = child(doc.documentElement!, NS.c, 'pivotSource');
  if (pivot) doc.documentElement!.removeChild(pivot);
  const pivotFmts = child(chart, NS.c, 'pivotFmts');
  if (pivotFmts) chart.removeChild(pivotFmts);
  return layout;
}

/** The first child of a plot that comes after its series (`c:dLbls`, `c:gapWidth`, `c:axId`, ...), or null. */
function firstAfterSeries(plot: Element): Element | null {
  const after = ['dLbls', 'gapWidth', 'overlap', 'serLines', 'dropLines', 'hiLowLines', 'upDownBars', 'marker', 'smooth', 'firstSliceAng', 'holeSize', 'ofPieType', 'gapDepth', 'shape', 'bandFmts', 'axId', 'extLst', 'splitType', 'splitPos', 'custSplit', 'secondPieSize'];
  for (const c of children(plot)) if (c.localName !== 'ser' && after.includes(c.localName ?? '')) return c;
  return null;
}

function formatCodeOf(source: Element | undefined): string | undefined {
  const cache = child(child(source, NS.c, 'numRef'), NS.c, 'numCache') ?? child(child(source, NS.c, 'numLit'), NS.c, 'formatCode') ?? undefined;
  const fc = cache?.localName === 'formatCode' ? cache : child(cache, NS.c, 'formatCode');
  const t = fc?.textContent ?? undefined;
  return t && t.trim() ? t : undefined;
}

function strCache(f: Factory, values: readonly string[]): Element {
  const cache = f.c('strCache', undefined, f.c('ptCount', { val: values.length }));
  values.forEach((v, i) => cache.appendChild(f.c('pt', { idx: i }, f.c('v', undefined, xmlSafe(v)))));
  return cache;
}

function numCache(f: Factory, values: readonly number[], formatCode: string): Element {
  const cache = f.c('numCache', undefined, f.c('formatCode', undefined, formatCode), f.c('ptCount', { val: values.length }));
  values.forEach((v, i) => {
    if (typeof v === 'number' && Number.isFinite(v)) cache.appendChild(f.c('pt', { idx: i }, f.c('v', undefined, numberText(v))));
  });
  return cache;
}

function removeStaleExtensions(el: Element): void {
  const lst = child(el, NS.c, 'extLst');
  if (!lst) return;
  for (const ext of children(lst)) if (STALE_EXT_URIS.has((attr(ext, 'uri') ?? '').toUpperCase())) lst.removeChild(ext);
  if (children(lst).length === 0) el.removeChild(lst);
}

/** A cloned series shows its own theme colour: `accentN` of the first series' fills and lines becomes accent ((idx mod 6) + 1). */
function rotateAccent(ser: Element, idx: number): void {
  const spPr = child(ser, NS.c, 'spPr');
  if (!spPr) return;
  const accent = `accent${(idx % 6) + 1}`;
  for (const clr of descendants(spPr, NS.a, 'schemeClr')) if (/^accent[1-6]$/.test(attr(clr, 'val') ?? '')) clr.setAttribute('val', accent);
  const marker = child(ser, NS.c, 'marker');
  const mSpPr = marker ? child(marker, NS.c, 'spPr') : undefined;
  if (mSpPr) for (const clr of descendants(mSpPr, NS.a, 'schemeClr')) if (/^accent[1-6]$/.test(attr(clr, 'val') ?? '')) clr.setAttribute('val', accent);
}

/** Sets only the title of a chart part (see {@link applyChartXml} for `title`). */
export function setChartTitle(doc: Document, title: string): void {
  chartPlots(doc);
  setTitle(new Factory(doc), child(doc.documentElement!, NS.c, 'chart')!, title);
}

/**
 * Sets the chart title (`c:title`, §21.2.2.210) to `text`, keeping the formatting of an
 * existing rich title's first run; an empty text removes the title.
 */
function setTitle(f: Factory, chart: Element, text: string): void {
  const existing = child(chart, NS.c, 'title');
  let deleted = child(chart, NS.c, 'autoTitleDeleted');
  if (text === '') {
    if (existing) chart.removeChild(existing);
    if (!deleted) {
      deleted = f.c('autoTitleDeleted', { val: 1 });
      put(chart, deleted, undefined, AFTER_TITLE.slice(1));
    } else deleted.setAttribute('val', '1');
    return;
  }
  const safe = xmlSafe(text);
  const title = existing ?? f.c('title', undefined);
  const tx = child(title, NS.c, 'tx');
  const rich = child(tx, NS.c, 'rich');
  if (rich) {
    const paras = children(rich, NS.a, 'p');
    const first = paras[0];
    const pPr = child(first, NS.a, 'pPr');
    const firstRun = first ? children(first, NS.a, 'r')[0] : undefined;
    const rPr = child(firstRun, NS.a, 'rPr');
    for (const p of paras) rich.removeChild(p);
    const p = f.a('p');
    if (pPr) p.appendChild(pPr);
    const r = f.a('r');
    if (rPr) r.appendChild(rPr);
    r.appendChild(f.a('t', undefined, safe));
    p.appendChild(r);
    rich.appendChild(p);
  } else {
    const newTx = f.c('tx', undefined, f.c('rich', undefined, f.a('bodyPr'), f.a('lstStyle'), f.a('p', undefined, f.a('pPr', undefined, f.a('defRPr')), f.a('r', undefined, f.a('rPr', { lang: 'en-US' }), f.a('t', undefined, safe)))));
    if (tx) title.replaceChild(newTx, tx);
    else title.insertBefore(newTx, title.firstChild);
  }
  if (!existing) {
    put(title, f.c('overlay', { val: 0 }), child(title, NS.c, 'overlay'), ['spPr', 'txPr', 'extLst']);
    chart.insertBefore(title, chart.firstChild);
  }
  if (deleted) deleted.setAttribute('val', '0');
}
