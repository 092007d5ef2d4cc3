/**
 * What a graphic frame (ECMA-376 Part 1, §19.3.1.21) holds, read from `a:graphicData/@uri`
 * (§20.1.2.2.17): a table (`a:tbl` §21.1.3.13), a chart (`c:chart` §21.2.2.27, the chart
 * part's `c:chartSpace` §21.2.2.29), a SmartArt diagram (`dgm:relIds`, §21.4), an OLE
 * object (`p:oleObj` §19.3.2.4) or something else.
 */
import { PackageError } from '../errors.js';
import type { OpcPackage } from '../opc/package.js';
import { NS, attr, attrNS, boolAttr, child, children, intAttr, type Element } from '../xml.js';
import { bodyText } from './text.js';

/** Kinds of graphic frame content. */
export type GraphicKind = 'table' | 'chart' | 'chartex' | 'diagram' | 'ole' | 'other';

/** Namespace of the chartex graphic data and chart part (`cx:`). */
export const CHARTEX_NS = 'http://schemas.microsoft.com/office/drawing/2014/chartex';

const URI_KIND: Readonly<Record<string, GraphicKind>> = {
  'http://schemas.openxmlformats.org/drawingml/2006/table': 'table',
  'http://schemas.openxmlformats.org/drawingml/2006/chart': 'chart',
  'http://schemas.microsoft.com/office/drawing/2014/chartex': 'chartex',
  'http://schemas.openxmlformats.org/drawingml/2006/diagram': 'diagram',
  'http://schemas.openxmlformats.org/presentationml/2006/ole': 'ole',
};

/** The kind of a graphic frame's content from `a:graphicData/@uri`. */
export function graphicKind(graphicData: Element | undefined): GraphicKind {
  return URI_KIND[attr(graphicData, 'uri') ?? ''] ?? 'other';
}

/** A table's shape (§21.1.3.13). */
export interface TableInfo {
  /** `a:tr` count. */
  rows: number;
  /** `a:tblGrid/a:gridCol` count. */
  cols: number;
  /** 1 when `a:tblPr/@firstRow` is on (a header row is styled), else 0. */
  headerRows: number;
  /** Merged regions: cells with `gridSpan` > 1 or `rowSpan` > 1 (the covered cells are not counted). */
  mergedCells: number;
  /** Text of each cell, row by row: paragraphs joined by `\n` (cells covered by a merge are ''). */
  cells: string[][];
  /** `a:tblPr/@firstCol`. */
  firstCol: boolean;
  /** `a:tblPr/@bandRow`. */
  bandRows: boolean;
}

/** Reads the table of a graphic frame; undefined when it holds none. */
export function readTable(graphicData: Element | undefined): TableInfo | undefined {
  const tbl = child(graphicData, NS.a, 'tbl');
  if (!tbl) return undefined;
  const tblPr = child(tbl, NS.a, 'tblPr');
  const rows = children(tbl, NS.a, 'tr');
  let merged = 0;
  const cells: string[][] = [];
  for (const tr of rows) {
    const row: string[] = [];
    for (const tc of children(tr, NS.a, 'tc')) {
      if (intAttr(tc, 'gridSpan', 1) > 1 || intAttr(tc, 'rowSpan', 1) > 1) merged++;
      row.push(bodyText(child(tc, NS.a, 'txBody')));
    }
    cells.push(row);
  }
  return {
    rows: rows.length,
    cols: children(child(tbl, NS.a, 'tblGrid') ?? tbl, NS.a, 'gridCol').length,
    headerRows: boolAttr(tblPr, 'firstRow') ? 1 : 0,
    mergedCells: merged,
    cells,
    firstCol: boolAttr(tblPr, 'firstCol') ?? false,
    bandRows: boolAttr(tblPr, 'bandRow') ?? false,
  };
}

/** A chart's type and size (§21.2.2). */
export interface ChartInfo {
  /**
   * The first plot's type in the vocabulary of chart content blocks: `column`, `bar`,
   * `line`, `pie`, `doughnut`, `area`, `scatter`, `bubble`, `radar`, `stock`, `surface`;
   * the element name for anything else.
   */
  chartType: string;
  /** Element names of every plot in `c:plotArea`, e.g. `["barChart", "lineChart"]` for a combo chart. */
  plotTypes: string[];
  /** `c:ser` count over all plots. */
  seriesCount: number;
  /** Points in the first series' categories (`c:cat`, or `c:xVal`, else `c:val`). */
  categoryCount: number;
  /** Absolute part name of the chart part. */
  partName: string;
}

/**
 * Reads the chart a graphic frame refers to (`c:chart/@r:id` → chart part).
 *
 * @param sourcePartName - the slide, layout or master holding the frame
 * @returns undefined when the frame holds no chart or the chart part is missing or unreadable
 */
export function readChart(pkg: OpcPackage, sourcePartName: string, graphicData: Element | undefined): ChartInfo | undefined {
  const ref = child(graphicData, NS.c, 'chart');
  const rId = attrNS(ref, NS.r, 'id');
  if (!rId) return undefined;
  const partName = pkg.rel(sourcePartName, rId)?.targetPartName;
  if (!partName || !pkg.hasPart(partName)) return undefined;
  const space = readRoot(pkg, partName);
  const plotArea = child(child(space, NS.c, 'chart'), NS.c, 'plotArea');
  if (!plotArea) return { chartType: 'unknown', plotTypes: [], seriesCount: 0, categoryCount: 0, partName };
  const plots = children(plotArea, NS.c).filter((el) => /Chart$/.test(el.localName ?? ''));
  let series = 0;
  let categories: number | undefined;
  for (const plot of plots) {
    for (const ser of children(plot, NS.c, 'ser')) {
      series++;
      if (categories === undefined) categories = pointCount(child(ser, NS.c, 'cat') ?? child(ser, NS.c, 'xVal') ?? child(ser, NS.c, 'val'));
    }
  }
  const first = plots[0];
  return {
    chartType: first ? chartTypeName(first) : 'unknown',
    plotTypes: plots.map((p) => p.localName ?? ''),
    seriesCount: series,
    categoryCount: categories ?? 0,
    partName,
  };
}

/** Root element of a chart part; undefined when the part is not well-formed (a chart never fails the analysis). */
function readRoot(pkg: OpcPackage, partName: string): Element | undefined {
  try {
    return pkg.getXml(partName).documentElement ?? undefined;
  } catch (err) {
    if (err instanceof PackageError) return undefined;
    throw err;
  }
}

function chartTypeName(plot: Element): string {
  const local = plot.localName ?? '';
  switch (local) {
    case 'barChart':
    case 'bar3DChart':
      return attr(child(plot, NS.c, 'barDir'), 'val') === 'bar' ? 'bar' : 'column';
    case 'lineChart':
    case 'line3DChart':
      return 'line';
    case 'pieChart':
    case 'pie3DChart':
    case 'ofPieChart':
      return 'pie';
    case 'doughnutChart':
      return 'doughnut';
    case 'areaChart':
    case 'area3DChart':
      return 'area';
    case 'scatterChart':
      return 'scatter';
    case 'bubbleChart':
      return 'bubble';
    case 'radarChart':
      return 'radar';
    case 'stockChart':
      return 'stock';
    case 'surfaceChart':
    case 'surface3DChart':
      return 'surface';
    default:
      return local;
  }
}

/** Point count of a data source (`c:cat`, `c:val`, `c:xVal`): its cache's or literal's `c:ptCount`, else its `c:pt` count. */
function pointCount(source: Element | undefined): number | undefined {
  if (!source) return undefined;
  for (const holder of children(source, NS.c)) {
    const cache = child(holder, NS.c, 'strCache') ?? child(holder, NS.c, 'numCache') ?? child(holder, NS.c, 'multiLvlStrCache') ?? holder;
    const ptCount = child(cache, NS.c, 'ptCount');
    if (ptCount) return intAttr(ptCount, 'val', 0);
    const pts = children(cache, NS.c, 'pt').length;
    if (pts) return pts;
  }
  return undefined;
}

/**
 * Reads an Office 2016 extended chart (`cx:chart/@r:id` → `cx:chartSpace`, [MS-ODRAWXML]
 * §2.24): waterfall, funnel, treemap, sunburst, histogram, box-and-whisker, region map.
 * `chartType` is the first series' `layoutId` (e.g. `waterfall`).
 */
export function readChartEx(pkg: OpcPackage, sourcePartName: string, graphicData: Element | undefined): ChartInfo | undefined {
  const ref = child(graphicData, CHARTEX_NS, 'chart');
  const rId = attrNS(ref, NS.r, 'id');
  if (!rId) return undefined;
  const partName = pkg.rel(sourcePartName, rId)?.targetPartName;
  if (!partName || !pkg.hasPart(partName)) return undefined;
  const space = readRoot(pkg, partName);
  const region = child(child(child(space, CHARTEX_NS, 'chart'), CHARTEX_NS, 'plotArea'), CHARTEX_NS, 'plotAreaRegion');
  const series = region ? children(region, CHARTEX_NS, 'series') : [];
  const layout = attr(series[0], 'layoutId') ?? 'unknown';
  // Categories: the first dimension of type cat (or x) in the data the first series uses.
  const dataId = attr(child(series[0], CHARTEX_NS, 'dataId'), 'val');
  const chartData = child(space, CHARTEX_NS, 'chartData');
  const datas = chartData ? children(chartData, CHARTEX_NS, 'data') : [];
  const data = datas.find((d) => attr(d, 'id') === dataId) ?? datas[0];
  let categories = 0;
  for (const dim of data ? children(data, CHARTEX_NS) : []) {
    const type = attr(dim, 'type');
    if (type === 'cat' || type === 'x' || type === 'val' || type === 'size') {
      const lvl = child(dim, CHARTEX_NS, 'lvl');
      const n = intAttr(lvl, 'ptCount', lvl ? children(lvl, CHARTEX_NS, 'pt').length : 0);
      if (type === 'cat' || type === 'x') {
        categories = n;
        break;
      }
      if (categories === 0) categories = n;
    }
  }
  return { chartType: layout, plotTypes: series.length ? [layout] : [], seriesCount: series.length, categoryCount: categories, partName };
}

/** What a picture (`p:pic`, §19.3.1.37) shows. */
export interface PictureInfo {
  /** `image`, or `video` / `audio` when the picture is a media poster frame (`a:videoFile`, `a:audioFile`, `a:wavAudioFile`, `p14:media`). */
  media: 'image' | 'video' | 'audio';
  /** Absolute part name of the blip (`a:blip/@r:embed`), undefined for a linked or missing image. */
  imagePartName: string | undefined;
}

/** Reads a picture's media kind and image part. */
export function readPicture(pkg: OpcPackage, sourcePartName: string, pic: Element): PictureInfo {
  const nvPr = child(child(pic, NS.p, 'nvPicPr'), NS.p, 'nvPr');
  let media: PictureInfo['media'] = 'image';
  for (const el of nvPr ? children(nvPr, NS.a) : []) {
    if (el.localName === 'videoFile' || el.localName === 'quickTimeFile') media = 'video';
    else if (el.localName === 'audioFile' || el.localName === 'wavAudioFile' || el.localName === 'audioCd') media = 'audio';
  }
  if (media === 'image' && nvPr) {
    // p14:media alone (embedded media without a:videoFile): decide by the relationship type.
    const p14 = nvPr.getElementsByTagNameNS(NS.p14, 'media')[0];
    const rId = p14 ? attrNS(p14, NS.r, 'embed') ?? attrNS(p14, NS.r, 'link') : undefined;
    const type = rId ? pkg.rel(sourcePartName, rId)?.type ?? '' : '';
    if (/audio/i.test(type)) media = 'audio';
    else if (p14) media = 'video';
  }
  const blip = child(child(pic, NS.p, 'blipFill'), NS.a, 'blip');
  const embed = attrNS(blip, NS.r, 'embed');
  const rel = embed ? pkg.rel(sourcePartName, embed) : undefined;
  return { media, imagePartName: rel && !rel.external ? rel.targetPartName : undefined };
}

/** `p:oleObj/@progId` of an OLE graphic frame (§19.3.2.4), e.g. `Excel.Sheet.12`; undefined when absent. */
export function oleProgId(graphicData: Element | undefined): string | undefined {
  if (!graphicData) return undefined;
  const ole = graphicData.getElementsByTagNameNS(NS.p, 'oleObj')[0];
  return attr(ole, 'progId');
}
