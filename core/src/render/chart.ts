/**
 * Charts drawn simply from their caches (ECMA-376 Part 1, §21.2: `c:chartSpace`,
 * `c:plotArea`, `c:ser` with `c:cat`/`c:val` string and number caches): column/bar
 * (clustered or stacked), line, area, scatter and pie/doughnut, every plot of a combination
 * chart over the same categories (a second value axis scaled on its own), 3-D bar, line and
 * area charts as their 2-D projection, 3-D pies tilted with a side wall, surfaces as their
 * series' lines; series colours by the Office 2007 chart style (`c:style` 1–48) from the
 * theme accents (or the chart's theme override), markers and data labels as stored; title,
 * value gridlines, category labels and a legend. Any other chart type as a labeled box.
 */
import { Path2D } from '@napi-rs/canvas';
import type { Shape } from '../ooxml/pml/shapes.js';
import { NS, attr, attrNS, child, children, intAttr, parseXml, type Element } from '../ooxml/xml.js';
import { colorIn, css, type ColorContext, type Rgba } from '../ooxml/pml/color.js';
import type { ThemeColorName } from '../ooxml/pml/theme.js';
import { DrawContext, fillColor, fillOf, paintFill, type RectPt, type ResolvedFill } from './draw-context.js';
import { cssFont } from './fonts.js';
import { shapeFromAttributes } from '../text/font-class.js';

interface Series {
  name: string;
  values: number[];
  /** Whether each point has a value in the cache (a line skips the empty ones). */
  present: boolean[];
  /** Scatter and bubble x values (`c:xVal`), when numeric. */
  xValues: number[] | undefined;
  color: Rgba;
  /** How the series' bars and areas are filled (undefined: solid {@link color}). */
  fill: ResolvedFill | undefined;
  /** The outline of bars and areas (the style's for filled series), undefined for none. */
  outline: { color: Rgba; width: number } | undefined;
  /** Line width of line and scatter series, pt; 0 when the series' line is `a:noFill`. */
  lineWidth: number;
  pointColors: Map<number, Rgba>;
  marker: Marker | undefined;
  labels: LabelSpec | undefined;
  /** Number format of the series' values cache (`c:formatCode`). */
  formatCode: string | undefined;
}

interface Marker {
  symbol: string;
  size: number;
  fill: Rgba | undefined;
  line: Rgba | undefined;
}

/** What a series' data labels show (`c:dLbls`, §21.2.2.49) and where. */
interface LabelSpec {
  value: boolean;
  percent: boolean;
  category: boolean;
  series: boolean;
  position: string | undefined;
  separator: string;
  formatCode: string | undefined;
  color: Rgba | undefined;
  size: number | undefined;
  /** Points whose label is deleted (`c:dLbl` with `c:delete`). */
  deleted: Set<number>;
}

/** One chart-type group of the plot area (`c:barChart`, `c:lineChart`, ...) with its series. */
interface Plot {
  el: Element;
  kind: string;
  series: Series[];
  /** The id of the value axis the plot is drawn against (its second `c:axId`). */
  valAxId: string | undefined;
  grouping: string;
}

/**
 * The chart's built-in style number (`c:style`, §21.2.2.196, 1–48), read from the chart space
 * or its markup-compatibility fallback (Office 2010 writes `c14:style` 101–148 in the choice,
 * the same style plus 100); 2 (PowerPoint's default) when absent.
 */
function chartStyleOf(space: Element | undefined): number {
  if (!space) return 2;
  let el = child(space, NS.c, 'style');
  let v: number | undefined;
  if (!el) {
    for (const ac of children(space, NS.mc, 'AlternateContent')) {
      el = child(child(ac, NS.mc, 'Fallback'), NS.c, 'style');
      if (el) break;
      const choice = child(ac, NS.mc, 'Choice');
      const c14 = choice ? children(choice).find((e) => e.localName === 'style') : undefined;
      if (c14) v = intAttr(c14, 'val', 102) - 100;
    }
  }
  if (el) v = intAttr(el, 'val', 2);
  return v !== undefined && v >= 1 && v <= 48 ? v : 2;
}

/** A scheme colour with one optional transform, as a `a:solidFill` to resolve with {@link colorIn}. */
function schemeFill(name: string, transform?: { name: 'shade' | 'tint'; val: number }): Element {
  const mod = transform ? `<a:${transform.name} val="${Math.round(transform.val * 100000)}"/>` : '';
  return parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="${name}">${mod}</a:schemeClr></a:solidFill>`, 'chart style colour').documentElement!;
}

/** Tints of dk1 the grey chart styles (1, 9, 17, ... of the first column) cycle through. */
const GREY_TINTS = [0.885, 0.55, 0.78, 0.925, 0.7, 0.3];
/** Tints of dk1 for style 41 (grey series on a dark background). */
const GREY_TINTS_DARK = [0.05, 0.55, 0.78, 0.15, 0.7, 0.3];
const ACCENTS: ThemeColorName[] = ['accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6'];

/**
 * The automatic colour of series (or, for varied colours, point) `index` of `count` under
 * chart style `style` (§21.2.2.196; Office 2007's chart styles): the styles are six rows of
 * eight columns; column 1 cycles through greys (tints of dk1), column 2 through the six
 * accents, columns 3–8 use one accent (1–6) each. When the pattern repeats (more series than
 * colours in it) each repetition is darkened or lightened as a whole: shades for the first
 * repetitions, tints for the last, evenly from −70 % to +70 % exclusive — so one accent's
 * three series are a 35 % shade, the accent, a 35 % tint (as PowerPoint and LibreOffice
 * colour them).
 */
export function styleSeriesColor(style: number, index: number, count: number, colors: ColorContext): Rgba {
  const column = ((style - 1) % 8) + 1;
  const pattern: Array<{ name: string; tint?: number }> = column === 1
    ? (style === 41 ? GREY_TINTS_DARK : GREY_TINTS).map((t) => ({ name: 'dk1', tint: t }))
    : column === 2 ? ACCENTS.map((a) => ({ name: a })) : [{ name: ACCENTS[column - 3]! }];
  const base = pattern[index % pattern.length]!;
  const cycle = Math.floor(index / pattern.length);
  const cycles = Math.floor(Math.max(0, count - 1) / pattern.length) + 1;
  const shift = ((cycle + 1) / (cycles + 1)) * 1.4 - 0.7;
  let color = colorIn(schemeFill(base.name, base.tint !== undefined ? { name: 'tint', val: base.tint } : undefined), colors) ?? { r: 79, g: 129, b: 189, a: 1 };
  if (Math.abs(shift) > 1e-9) {
    const hex = [color.r, color.g, color.b].map((x) => Math.round(x).toString(16).padStart(2, '0')).join('');
    const el = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:srgbClr val="${hex}"><a:${shift < 0 ? 'shade' : 'tint'} val="${Math.round((1 - Math.abs(shift)) * 100000)}"/></a:srgbClr></a:solidFill>`, 'chart style colour').documentElement!;
    color = colorIn(el, colors) ?? color;
  }
  return color;
}

/**
 * The outline the chart style gives filled series (bars, areas, pie slices) that set none:
 * the styles of row 2 (9–16) outline them in lt1, 33 in a dk1 half shade, 34 and 35–40 in a
 * half shade of the series' accent; the others draw no outline.
 */
function styleSeriesOutline(style: number, color: Rgba, colors: ColorContext): { color: Rgba; width: number } | undefined {
  if (style >= 9 && style <= 16) return { color: colorIn(schemeFill('lt1'), colors) ?? { r: 255, g: 255, b: 255, a: 1 }, width: 0.75 };
  if (style === 33) return { color: colorIn(schemeFill('dk1', { name: 'shade', val: 0.5 }), colors) ?? color, width: 0.75 };
  if (style >= 34 && style <= 40) return { color: { r: color.r * 0.5, g: color.g * 0.5, b: color.b * 0.5, a: 1 }, width: 0.75 };
  return undefined;
}

/** Line width of line series under a chart style: three times the theme's thin line for row 1, five for rows 2–3 and 5–6, seven for row 4. */
function styleLineWidth(style: number): number {
  const row = Math.ceil(style / 8);
  return 0.75 * (row === 1 ? 3 : row === 4 ? 7 : 5);
}

/**
 * The theme fill a chart style gives filled series (bars, areas) when they set none: the 48
 * built-in styles are six rows of eight; rows 3, 4 and 6 (styles 17–32, 41–48) fill with the
 * theme's intense fill style (`a:fillStyleLst`, third entry, usually a shaded gradient) in the
 * series colour, the others with the plain colour.
 */
function styleSeriesFill(dc: DrawContext, colors: ColorContext, style: number, color: Rgba, part: string): ResolvedFill | undefined {
  const row = Math.ceil(style / 8);
  if (row !== 3 && row !== 4 && row !== 6) return undefined;
  const el = dc.formatScheme().fill[2];
  return el ? { el, colors: { ...colors, phClr: color }, part: dc.theme.partName ?? part } : undefined;
}

/**
 * The colours of a chart's theme override (`c:chartSpace` relationship of type
 * themeOverride, §14.2.8: an `a:themeOverride` whose `a:clrScheme` replaces the theme's
 * colours for this chart), or undefined.
 */
function themeOverrideColors(dc: DrawContext, chartPart: string): Partial<Record<ThemeColorName, string>> | undefined {
  const rel = dc.pkg.rels(chartPart).find((r) => /\/themeOverride$/.test(r.type));
  if (!rel?.targetPartName || !dc.pkg.hasPart(rel.targetPartName)) return undefined;
  const scheme = child(dc.pkg.getXml(rel.targetPartName).documentElement ?? undefined, NS.a, 'clrScheme');
  if (!scheme) return undefined;
  const out: Partial<Record<ThemeColorName, string>> = {};
  for (const slot of children(scheme, NS.a)) {
    const c = child(slot, NS.a, 'srgbClr');
    const hex = c ? attr(c, 'val') : attr(child(slot, NS.a, 'sysClr'), 'lastClr');
    if (hex && /^[0-9a-fA-F]{6}$/.test(hex)) out[slot.localName as ThemeColorName] = hex.toUpperCase();
  }
  return Object.keys(out).length ? out : undefined;
}

function cacheStrings(src: Element | undefined): string[] {
  const out: string[] = [];
  if (!src) return out;
  const cache = src.getElementsByTagNameNS(NS.c, 'strCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'strLit')[0] ?? src.getElementsByTagNameNS(NS.c, 'numLit')[0] ?? src.getElementsByTagNameNS(NS.c, 'lvl')[0];
  const n = intAttr(child(cache, NS.c, 'ptCount'), 'val', 0);
  for (let i = 0; i < n; i++) out.push('');
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) out[intAttr(pt, 'idx', out.length)] = child(pt, NS.c, 'v')?.textContent ?? '';
  return out;
}

function cacheNumbers(src: Element | undefined): number[] {
  const out: number[] = [];
  if (!src) return out;
  const cache = src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numLit')[0];
  const n = intAttr(child(cache, NS.c, 'ptCount'), 'val', 0);
  for (let i = 0; i < n; i++) out.push(0);
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) out[intAttr(pt, 'idx', out.length)] = Number(child(pt, NS.c, 'v')?.textContent ?? 0) || 0;
  return out;
}

/** Which points of a number cache have a value (a `c:pt`); cells left empty have none. */
function cachePresence(src: Element | undefined): boolean[] {
  const out: boolean[] = [];
  const cache = src ? src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numLit')[0] : undefined;
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) out[intAttr(pt, 'idx', out.length)] = true;
  return out;
}

function cacheFormat(src: Element | undefined): string | undefined {
  const code = src ? src.getElementsByTagNameNS(NS.c, 'formatCode')[0]?.textContent ?? undefined : undefined;
  return code && code !== 'General' ? code : undefined;
}

/**
 * A number as a (simple) number format code shows it: percent formats (`0%`, `0.0%`) scale
 * by 100, the decimals are the zeros after the point, `#,##0` groups thousands; `General`
 * or anything else: up to three decimals.
 */
export function formatNumber(v: number, code: string | undefined): string {
  const section = (code ?? '').split(';')[0]!.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  if (!/[0#]/.test(section)) return String(Math.round(v * 1000) / 1000);
  const percent = section.includes('%');
  const decimals = (/\.([0#]+)/.exec(section)?.[1] ?? '').length;
  const x = percent ? v * 100 : v;
  let s = Math.abs(x).toFixed(decimals);
  if (section.includes(',')) {
    const [int, frac] = s.split('.');
    s = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
  }
  return `${x < 0 && Number(s.replace(/,/g, '')) !== 0 ? '-' : ''}${s}${percent ? '%' : ''}`;
}

/** What `c:dLbls` (a series' own, else its plot's) asks to show; undefined when nothing. */
function readLabels(dLbls: Element | undefined, colors: ColorContext): LabelSpec | undefined {
  if (!dLbls || attr(child(dLbls, NS.c, 'delete'), 'val') === '1') return undefined;
  const on = (name: string): boolean => { const v = attr(child(dLbls, NS.c, name), 'val'); return v === '1' || v === 'true'; };
  const spec: LabelSpec = {
    value: on('showVal'),
    percent: on('showPercent'),
    category: on('showCatName'),
    series: on('showSerName'),
    position: attr(child(dLbls, NS.c, 'dLblPos'), 'val'),
    separator: child(dLbls, NS.c, 'separator')?.textContent ?? ', ',
    formatCode: attr(child(dLbls, NS.c, 'numFmt'), 'sourceLinked') === '1' ? undefined : attr(child(dLbls, NS.c, 'numFmt'), 'formatCode'),
    color: colorIn(child(firstRPr(child(dLbls, NS.c, 'txPr')), NS.a, 'solidFill'), colors),
    size: firstRPr(child(dLbls, NS.c, 'txPr')) ? intAttr(firstRPr(child(dLbls, NS.c, 'txPr')), 'sz', 0) / 100 || undefined : undefined,
    deleted: new Set(),
  };
  for (const d of children(dLbls, NS.c, 'dLbl')) if (attr(child(d, NS.c, 'delete'), 'val') === '1') spec.deleted.add(intAttr(child(d, NS.c, 'idx'), 'val', -1));
  return spec.value || spec.percent || spec.category || spec.series ? spec : undefined;
}

/** Office's automatic marker symbols, in the order series take them. */
const AUTO_MARKERS = ['diamond', 'square', 'triangle', 'x', 'star', 'circle', 'plus', 'dash', 'dot'];

/**
 * A series' marker (`c:marker`, §21.2.2.106): its symbol and size (default 5) as stored; a
 * series without one, in a plot that shows markers, takes the automatic symbol of its index.
 */
function readMarker(ser: Element, index: number, plotShowsMarkers: boolean, color: Rgba, colors: ColorContext): Marker | undefined {
  const m = child(ser, NS.c, 'marker');
  const symbol = attr(child(m, NS.c, 'symbol'), 'val') ?? (plotShowsMarkers ? AUTO_MARKERS[index % AUTO_MARKERS.length]! : 'none');
  if (symbol === 'none') return undefined;
  const spPr = child(m, NS.c, 'spPr');
  const fillEl = fillOf(spPr);
  const lnEl = child(spPr, NS.a, 'ln');
  return {
    symbol: symbol === 'auto' ? AUTO_MARKERS[index % AUTO_MARKERS.length]! : symbol,
    size: Math.max(2, Math.min(72, intAttr(child(m, NS.c, 'size'), 'val', 5))),
    fill: fillEl?.localName === 'noFill' ? undefined : colorIn(fillEl, colors) ?? color,
    line: child(lnEl, NS.a, 'noFill') ? undefined : colorIn(child(lnEl, NS.a, 'solidFill'), colors) ?? color,
  };
}

const PLOTS = ['barChart', 'bar3DChart', 'lineChart', 'line3DChart', 'pieChart', 'pie3DChart', 'doughnutChart', 'areaChart', 'area3DChart', 'scatterChart', 'radarChart', 'bubbleChart', 'ofPieChart', 'stockChart', 'surfaceChart', 'surface3DChart'];
/** Plots drawn over categories and a value axis. */
const CATEGORY_PLOTS = ['barChart', 'bar3DChart', 'lineChart', 'line3DChart', 'areaChart', 'area3DChart', 'surfaceChart', 'surface3DChart', 'stockChart'];

/** Draws a chart graphic frame into `r` (points). */
export async function drawChart(dc: DrawContext, shape: Shape, r: RectPt): Promise<void> {
  const ctx = dc.ctx;
  const ref = child(shape.graphicData, NS.c, 'chart');
  const rId = attrNS(ref, NS.r, 'id');
  const partName = rId ? dc.pkg.rel(shape.part.partName, rId)?.targetPartName : undefined;
  if (!partName || !dc.pkg.hasPart(partName)) return labeledBox(dc, r, 'Chart');
  const space = dc.pkg.getXml(partName).documentElement;
  const chart = child(space ?? undefined, NS.c, 'chart');
  const plotArea = child(chart, NS.c, 'plotArea');
  const plotEls = plotArea ? children(plotArea, NS.c).filter((e) => PLOTS.includes(e.localName ?? '')) : [];
  if (!plotEls.length) return labeledBox(dc, r, 'Chart');
  const override = themeOverrideColors(dc, partName);
  const colors: ColorContext = override ? { ...dc.colors, theme: { ...dc.colors.theme, colors: { ...dc.colors.theme.colors, ...override } } } : dc.colors;
  const chartStyle = chartStyleOf(space ?? undefined);
  const allSer = plotEls.flatMap((p) => children(p, NS.c, 'ser'));
  const serIndex = (ser: Element, i: number): number => intAttr(child(ser, NS.c, 'idx'), 'val', i);
  const seriesCount = Math.max(0, ...allSer.map((s, i) => serIndex(s, i) + 1));
  const kindOf = (e: Element): string => e.localName ?? '';
  const filledKind = (k: string): boolean => !/^(line|scatter|radar|surface|stock)/.test(k);
  const readSeries = (plot: Element, ser: Element, i: number): Series => {
    const kind = kindOf(plot);
    const idx = serIndex(ser, i);
    const spPr = child(ser, NS.c, 'spPr');
    const ln = child(spPr, NS.a, 'ln');
    const own = fillOf(spPr);
    const filled = filledKind(kind);
    // Line series take their colour from the line, filled ones from the fill.
    const ownColor = filled
      ? colorIn(own?.localName === 'solidFill' ? own : undefined, colors) ?? (own?.localName === 'gradFill' ? fillColor({ el: own, colors, part: partName }) : undefined) ?? colorIn(child(ln, NS.a, 'solidFill'), colors)
      : colorIn(child(ln, NS.a, 'solidFill'), colors) ?? colorIn(own?.localName === 'solidFill' ? own : undefined, colors);
    const color = ownColor ?? styleSeriesColor(chartStyle, idx, seriesCount, colors);
    const pointColors = new Map<number, Rgba>();
    for (const dPt of children(ser, NS.c, 'dPt')) {
      const c = colorIn(child(child(dPt, NS.c, 'spPr'), NS.a, 'solidFill'), colors);
      if (c) pointColors.set(intAttr(child(dPt, NS.c, 'idx'), 'val', 0), c);
    }
    const lnNone = !!child(ln, NS.a, 'noFill');
    const lnColor = colorIn(child(ln, NS.a, 'solidFill'), colors);
    const outline = filled ? (lnNone ? undefined : lnColor ? { color: lnColor, width: intAttr(ln, 'w', 9525) / 12700 } : ln ? undefined : styleSeriesOutline(chartStyle, color, colors)) : undefined;
    const plotMarker = attr(child(plot, NS.c, 'marker'), 'val');
    const showsMarkers = (kind === 'lineChart' && plotMarker !== '0') || kind === 'scatterChart' || (kind === 'radarChart' && attr(child(plot, NS.c, 'radarStyle'), 'val') === 'marker');
    const valSrc = child(ser, NS.c, 'val') ?? child(ser, NS.c, 'yVal');
    const xSrc = child(ser, NS.c, 'xVal');
    return {
      name: cacheStrings(child(ser, NS.c, 'tx'))[0] || `Series ${idx + 1}`,
      values: cacheNumbers(valSrc),
      present: cachePresence(valSrc),
      xValues: xSrc && xSrc.getElementsByTagNameNS(NS.c, 'numCache').length + xSrc.getElementsByTagNameNS(NS.c, 'numLit').length ? cacheNumbers(xSrc) : undefined,
      color,
      fill: own ? (own.localName === 'gradFill' ? { el: own, colors, part: partName } : undefined) : filled ? styleSeriesFill(dc, colors, chartStyle, color, partName) : undefined,
      outline,
      lineWidth: lnNone ? 0 : ln && attr(ln, 'w') ? intAttr(ln, 'w', 28575) / 12700 : styleLineWidth(chartStyle),
      pointColors,
      marker: /3D/.test(kind) ? undefined : readMarker(ser, idx, showsMarkers, color, colors),
      labels: readLabels(child(ser, NS.c, 'dLbls') ?? child(plot, NS.c, 'dLbls'), colors),
      formatCode: cacheFormat(valSrc),
    };
  };
  const plots: Plot[] = plotEls.map((el) => ({
    el,
    kind: kindOf(el),
    series: children(el, NS.c, 'ser').map((ser, i) => readSeries(el, ser, i)),
    valAxId: attr(children(el, NS.c, 'axId')[1], 'val'),
    grouping: attr(child(el, NS.c, 'grouping'), 'val') ?? (/^bar/.test(kindOf(el)) ? 'clustered' : 'standard'),
  }));
  const first = plots[0]!;
  const kind = first.kind;
  const firstSer = children(first.el, NS.c, 'ser')[0];
  const cats = cacheStrings(child(firstSer, NS.c, 'cat') ?? child(firstSer, NS.c, 'xVal'));
  const nCat = Math.max(cats.length, ...plots.flatMap((p) => p.series.map((s) => s.values.length)), 0);
  const isPie = kind.startsWith('pie') || kind === 'doughnutChart' || kind === 'ofPieChart';
  // One series with varied colours (pies, or a bar chart with c:varyColors): the points take the style's colours.
  const vary = (isPie && attr(child(first.el, NS.c, 'varyColors'), 'val') !== '0') || (first.series.length === 1 && attr(child(first.el, NS.c, 'varyColors'), 'val') === '1');
  const pointColor = (s: Series, i: number, n: number): Rgba => s.pointColors.get(i) ?? (vary ? styleSeriesColor(chartStyle, i, n, colors) : s.color);
  // Chart area fill: white unless the chart says otherwise.
  const csSpPr = child(space ?? undefined, NS.c, 'spPr');
  const bg = colorIn(child(csSpPr, NS.a, 'solidFill'), colors);
  if (!child(csSpPr, NS.a, 'noFill')) {
    ctx.fillStyle = css(bg ?? { r: 255, g: 255, b: 255, a: 1 });
    ctx.fillRect(r.x, r.y, r.w, r.h);
  }
  // Text: the chart's own text colour (c:txPr), else the style's tx1 (Office 2007 chart styles 1–32).
  const spaceTxColor = colorIn(child(firstRPr(child(space ?? undefined, NS.c, 'txPr')), NS.a, 'solidFill'), colors);
  const textRgba = spaceTxColor ?? colorIn(TX1_FILL, colors) ?? { r: 0, g: 0, b: 0, a: 1 };
  const textColor = css(textRgba);
  const txSz = intAttr(space ? space.getElementsByTagNameNS(NS.a, 'defRPr')[0] : undefined, 'sz', 1000) / 100;
  const minor = dc.theme.minor;
  const minorShape = minor.latin ? shapeFromAttributes({ panose: minor.latinPanose, pitchFamily: minor.latinPitchFamily })?.shape : undefined;
  const font = (size: number, bold = false): string => cssFont(dc.family(minor.latin || 'Calibri', minorShape), size, bold, false, dc.fallbackFamilies);
  // Outer margins of the automatic layout (no c:manualLayout), as LibreOffice places plot areas.
  let top = r.y + r.h * 0.02;
  // Title.
  const titleEl = child(chart, NS.c, 'title');
  const autoDeleted = attr(child(chart, NS.c, 'autoTitleDeleted'), 'val') === '1';
  let title: string | undefined;
  const allSeries = plots.flatMap((p) => p.series);
  if (titleEl) {
    const ts = titleEl.getElementsByTagNameNS(NS.a, 't');
    title = ts.length ? Array.from(ts).map((t) => t.textContent ?? '').join('') : allSeries.length === 1 ? allSeries[0]!.name : 'Chart Title';
  } else if (!autoDeleted && allSeries.length === 1 && isPie) title = allSeries[0]!.name;
  if (title) {
    ctx.fillStyle = textColor;
    ctx.font = font(txSz * 1.2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(title, r.x + r.w / 2, top);
    top += txSz * 1.6;
  }
  const legendEl = child(chart, NS.c, 'legend');
  const legendPos = attr(child(legendEl, NS.c, 'legendPos'), 'val') ?? 'r';
  const legendItems = isPie || vary
    ? cats.map((c, i) => ({ name: c, color: pointColor(first.series[0]!, i, nCat) }))
    : allSeries.map((s) => ({ name: s.name, color: s.lineWidth === 0 && s.marker?.fill ? s.marker.fill : s.color }));
  let plotR: RectPt = { x: r.x + r.w * 0.03, y: top, w: r.w * 0.94, h: r.y + r.h - top - r.h * 0.025 };
  if (legendEl && legendItems.length) {
    ctx.font = font(txSz);
    const lw = Math.min(r.w * 0.3, Math.max(...legendItems.map((l) => ctx.measureText(l.name).width)) + 16);
    if (legendPos === 'b' || legendPos === 't') {
      const y = legendPos === 'b' ? r.y + r.h - 16 : top;
      let x = r.x + r.w / 2 - legendItems.reduce((s, l) => s + ctx.measureText(l.name).width + 18, 0) / 2;
      for (const l of legendItems) {
        ctx.fillStyle = css(l.color);
        ctx.fillRect(x, y + 3, 6, 6);
        ctx.fillStyle = textColor;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'middle';
        ctx.fillText(l.name, x + 9, y + 6);
        x += ctx.measureText(l.name).width + 18;
      }
      plotR = legendPos === 'b' ? { ...plotR, h: plotR.h - 18 } : { ...plotR, y: plotR.y + 18, h: plotR.h - 18 };
    } else {
      const x = r.x + r.w - lw - r.w * 0.02;
      let y = plotR.y + plotR.h / 2 - (legendItems.length * 14) / 2;
      for (const l of legendItems) {
        ctx.fillStyle = css(l.color);
        ctx.fillRect(x, y + 3, 6, 6);
        ctx.fillStyle = textColor;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'middle';
        ctx.fillText(l.name, x + 9, y + 6);
        y += 14;
      }
      plotR = { ...plotR, w: plotR.w - lw - 8 };
    }
  }
  const labelFont = (spec: LabelSpec): string => font(spec.size ?? txSz);
  if (isPie) {
    const s = first.series[0];
    const vals = s?.values ?? [];
    const total = vals.reduce((t, v) => t + Math.max(0, v), 0) || 1;
    const cx = plotR.x + plotR.w / 2;
    const is3D = kind === 'pie3DChart';
    // A 3-D pie seen from above at c:view3D/c:rotX (default 30°): an ellipse with a side wall.
    const rotX = is3D ? Math.max(10, Math.min(90, intAttr(child(child(chart, NS.c, 'view3D'), NS.c, 'rotX'), 'val', 30))) : 90;
    const squash = Math.sin((rotX * Math.PI) / 180);
    const rad = Math.max(1, Math.min(plotR.w / 2, plotR.h / (2 * squash) / (is3D ? 1.15 : 1)) * 0.9);
    const depth = is3D ? rad * 0.2 * Math.cos((rotX * Math.PI) / 180) + rad * 0.05 : 0;
    const cy = plotR.y + plotR.h / 2 - depth / 2;
    const a0 = -Math.PI / 2 + ((intAttr(child(first.el, NS.c, 'firstSliceAng'), 'val', 0) * Math.PI) / 180);
    const slices: Array<{ from: number; to: number; color: Rgba; i: number }> = [];
    let a = a0;
    vals.forEach((v, i) => {
      const sw = (Math.max(0, v) / total) * Math.PI * 2;
      slices.push({ from: a, to: a + sw, color: s ? pointColor(s, i, vals.length) : { r: 128, g: 128, b: 128, a: 1 }, i });
      a += sw;
    });
    const wedge = (from: number, to: number, dy: number): void => {
      ctx.beginPath();
      ctx.moveTo(cx, cy + dy);
      ctx.ellipse(cx, cy + dy, rad, rad * squash, 0, from, to);
      ctx.closePath();
    };
    if (depth > 0) {
      // The side wall: the slices repeated downwards, darkened.
      for (let dy = depth; dy > 0; dy -= 0.5) {
        for (const sl of slices) {
          wedge(sl.from, sl.to, dy);
          ctx.fillStyle = css({ r: sl.color.r * 0.7, g: sl.color.g * 0.7, b: sl.color.b * 0.7, a: 1 });
          ctx.fill();
        }
      }
    }
    for (const sl of slices) {
      wedge(sl.from, sl.to, 0);
      ctx.fillStyle = css(sl.color);
      ctx.fill();
      const edge = s?.outline?.color ?? (chartStyle >= 9 && chartStyle <= 16 ? undefined : { r: 255, g: 255, b: 255, a: 1 });
      ctx.strokeStyle = css(edge ?? { r: 255, g: 255, b: 255, a: 1 });
      ctx.lineWidth = 0.75;
      ctx.stroke();
    }
    if (kind === 'doughnutChart') {
      ctx.beginPath();
      ctx.arc(cx, cy, rad * intAttr(child(first.el, NS.c, 'holeSize'), 'val', 50) / 100, 0, Math.PI * 2);
      ctx.fillStyle = css(bg ?? { r: 255, g: 255, b: 255, a: 1 });
      ctx.fill();
    }
    const spec = s?.labels;
    if (s && spec) {
      ctx.font = labelFont(spec);
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const sl of slices) {
        if (spec.deleted.has(sl.i) || sl.to - sl.from <= 0) continue;
        const text = labelText(spec, s, sl.i, cats[sl.i] ?? '', vals[sl.i]! / total);
        const mid = (sl.from + sl.to) / 2;
        const outside = spec.position === 'outEnd';
        const k = outside ? 1.12 : kind === 'doughnutChart' ? 0.75 : spec.position === 'inEnd' ? 0.8 : spec.position === 'ctr' ? 0.5 : 0.65;
        const x = cx + Math.cos(mid) * rad * k;
        const y = cy + Math.sin(mid) * rad * squash * k;
        if (outside) ctx.textAlign = Math.cos(mid) >= 0 ? 'left' : 'right';
        ctx.fillStyle = css(spec.color ?? (outside ? textRgba : contrastOn(sl.color)));
        ctx.fillText(text, x, y);
        ctx.textAlign = 'center';
      }
    }
    return;
  }
  if (kind === 'scatterChart' || kind === 'bubbleChart') return drawScatter(dc, first, plotArea, plotR, { font, txSz, textColor, labelFont, cats });
  const drawn = plots.filter((p) => CATEGORY_PLOTS.includes(p.kind));
  if (!drawn.length || !CATEGORY_PLOTS.includes(kind) || nCat === 0) {
    return labeledBox(dc, r, kind.replace(/Chart$/, ' chart'));
  }
  const horizontal = drawn.some((p) => p.kind.startsWith('bar') && attr(child(p.el, NS.c, 'barDir'), 'val') === 'bar');
  // Value axes: the first plot's is the primary; a plot on another value axis is scaled on it.
  const valAxes = plotArea ? children(plotArea, NS.c, 'valAx') : [];
  const primaryId = first.valAxId;
  const axisOf = (id: string | undefined): Element | undefined => valAxes.find((v) => attr(child(v, NS.c, 'axId'), 'val') === id) ?? valAxes[0];
  const valAx = axisOf(primaryId);
  const secondaryIds = [...new Set(drawn.map((p) => p.valAxId).filter((id) => id !== primaryId && valAxes.some((v) => attr(child(v, NS.c, 'axId'), 'val') === id)))];
  const secondaryId = secondaryIds[0];
  const onAxis = (p: Plot): 'primary' | 'secondary' => (secondaryId !== undefined && p.valAxId === secondaryId ? 'secondary' : 'primary');
  const stackedOf = (p: Plot): boolean => p.grouping === 'stacked' || p.grouping === 'percentStacked';
  const rangeOf = (which: 'primary' | 'secondary'): { minV: number; maxV: number; percent: boolean } => {
    let maxV = 0;
    let minV = 0;
    let percent = false;
    for (const p of drawn.filter((q) => onAxis(q) === which)) {
      if (p.grouping === 'percentStacked') { percent = true; maxV = Math.max(maxV, 1); continue; }
      for (let i = 0; i < nCat; i++) {
        if (stackedOf(p)) {
          let pos = 0;
          let neg = 0;
          for (const s of p.series) { const v = s.values[i] ?? 0; if (v >= 0) pos += v; else neg += v; }
          maxV = Math.max(maxV, pos);
          minV = Math.min(minV, neg);
        } else for (const s of p.series) { maxV = Math.max(maxV, s.values[i] ?? 0); minV = Math.min(minV, s.values[i] ?? 0); }
      }
    }
    return { minV, maxV, percent };
  };
  /** The smallest "nice" step (1, 2 or 5 × 10^n) at least `raw`. */
  const niceAtLeast = (raw: number): number => {
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw - 1e-12) return m * p;
    return 10 * p;
  };
  const catAx = plotArea ? children(plotArea, NS.c).find((e) => e.localName === 'catAx' || e.localName === 'dateAx') : undefined;
  const shown = (ax: Element | undefined): boolean => !!ax && attr(child(ax, NS.c, 'delete'), 'val') !== '1' && attr(child(ax, NS.c, 'tickLblPos'), 'val') !== 'none';
  const catLabels = shown(catAx);
  const valLabels = shown(valAx);
  const valLine = !!valAx && attr(child(valAx, NS.c, 'delete'), 'val') !== '1';
  const gridlines = !!child(valAx, NS.c, 'majorGridlines');
  const midCat = attr(child(valAx, NS.c, 'crossBetween'), 'val') === 'midCat';
  const valTick = attr(child(valAx, NS.c, 'majorTickMark'), 'val') ?? 'cross';
  const axisColor = (ax: Element | undefined): string => {
    const c = colorIn(child(firstRPr(child(ax, NS.c, 'txPr')), NS.a, 'solidFill'), colors);
    return c ? css(c) : textColor;
  };
  /** An axis' number format: its own, or (source-linked) its first series' values format. */
  const axisFormat = (ax: Element | undefined, which: 'primary' | 'secondary'): string | undefined => {
    const nf = child(ax, NS.c, 'numFmt');
    if (nf && attr(nf, 'sourceLinked') !== '1') return attr(nf, 'formatCode');
    return drawn.find((p) => onAxis(p) === which)?.series[0]?.formatCode;
  };
  ctx.font = font(txSz);
  // Labels every n-th category when they would overlap (as PowerPoint skips them).
  const catWidest = Math.max(...cats.map((c) => ctx.measureText(c).width), 10);
  const catW = catLabels ? Math.min(plotR.w * 0.3, catWidest + 6) : 2;
  const lineH = txSz * 1.3;
  interface Scale { bottom: number; top: number; step: number; fmt: (v: number) => string }
  const scaleFor = (which: 'primary' | 'secondary', length: number, ax: Element | undefined): Scale => {
    const { minV, maxV, percent } = rangeOf(which);
    const code = percent ? '0%' : axisFormat(ax, which);
    const fmt = (v: number): string => formatNumber(v, code);
    let step = percent ? 0.1 : niceAtLeast((maxV - minV) / 10 || 1);
    let top2 = 1;
    let bottom = 0;
    for (let attempt = 0; attempt < 8; attempt++) {
      // The automatic maximum: the largest value plus 5 % of the range, rounded up to the step.
      top2 = percent ? 1 : Math.max(step, Math.ceil((maxV + 0.05 * (maxV - minV)) / step - 1e-9) * step);
      bottom = minV < 0 ? -Math.ceil((-minV + (maxV <= 0 ? 0.05 * (maxV - minV) : 0)) / step - 1e-9) * step : 0;
      if (maxV <= 0 && minV < 0) top2 = 0;
      const widest = Math.max(ctx.measureText(fmt(top2)).width, ctx.measureText(fmt(bottom)).width);
      const n = Math.max(1, Math.round((top2 - bottom) / step));
      // Labels may touch but not overlap.
      if (length / n >= (horizontal ? widest : txSz)) break;
      step = niceAtLeast(step * 1.01);
    }
    return { bottom, top: top2, step, fmt };
  };
  // A first estimate of the plot's length along the values decides the steps, then the label widths the area.
  const estimate = horizontal ? plotR.w - catW : plotR.h - txSz / 2 - (catLabels ? lineH : 2);
  const primary = scaleFor('primary', estimate, valAx);
  const secAx = secondaryId !== undefined ? axisOf(secondaryId) : undefined;
  const secondary = secondaryId !== undefined ? scaleFor('secondary', estimate, secAx) : undefined;
  const secLabels = !!secondary && shown(secAx);
  const widestOf = (s: Scale): number => Math.max(ctx.measureText(s.fmt(s.top)).width, ctx.measureText(s.fmt(s.bottom)).width);
  const labelW = valLabels ? widestOf(primary) + 6 : 2;
  const secW = secLabels && secondary && !horizontal ? widestOf(secondary) + 6 : 0;
  const half = horizontal && valLabels ? ctx.measureText(primary.fmt(primary.top)).width / 2 : 0;
  const halfFirst = horizontal && valLabels ? Math.max(0, ctx.measureText(primary.fmt(primary.bottom)).width / 2 - catW) : 0;
  const area: RectPt = horizontal
    ? { x: plotR.x + catW + halfFirst, y: plotR.y, w: plotR.w - catW - halfFirst - half, h: plotR.h - (valLabels ? lineH : 2) }
    : { x: plotR.x + labelW, y: plotR.y + txSz / 2, w: plotR.w - labelW - secW, h: plotR.h - txSz / 2 - (catLabels ? lineH : 2) };
  const posFor = (sc: Scale) => (v: number): number => {
    const span = sc.top - sc.bottom || 1;
    return horizontal ? area.x + ((v - sc.bottom) / span) * area.w : area.y + area.h - ((v - sc.bottom) / span) * area.h;
  };
  const valuePos = posFor(primary);
  ctx.strokeStyle = 'rgba(134,134,134,1)';
  ctx.lineWidth = 0.75;
  const tick = valTick === 'out' || valTick === 'cross' ? 4 : 0;
  const drawScale = (sc: Scale, ax: Element | undefined, right: boolean, labels: boolean, grid: boolean): void => {
    ctx.fillStyle = axisColor(ax);
    const steps = Math.max(1, Math.round((sc.top - sc.bottom) / sc.step));
    for (let k = 0; k <= steps; k++) {
      const v = sc.bottom + ((sc.top - sc.bottom) * k) / steps;
      const label = sc.fmt(v);
      if (horizontal) {
        const x = area.x + (area.w * k) / steps;
        if (grid) { ctx.beginPath(); ctx.moveTo(x, area.y); ctx.lineTo(x, area.y + area.h); ctx.stroke(); }
        if (valLine && tick && grid) { ctx.beginPath(); ctx.moveTo(x, area.y + area.h); ctx.lineTo(x, area.y + area.h + tick); ctx.stroke(); }
        if (labels) { ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillText(label, x, area.y + area.h + 2); }
      } else {
        const y = area.y + area.h - (area.h * k) / steps;
        if (grid) { ctx.beginPath(); ctx.moveTo(area.x, y); ctx.lineTo(area.x + area.w, y); ctx.stroke(); }
        if (valLine && tick && !right) { ctx.beginPath(); ctx.moveTo(area.x - tick, y); ctx.lineTo(area.x, y); ctx.stroke(); }
        if (labels) {
          ctx.textAlign = right ? 'left' : 'right';
          ctx.textBaseline = 'middle';
          ctx.fillText(label, right ? area.x + area.w + 4 : area.x - 4, y);
        }
      }
    }
  };
  drawScale(primary, valAx, false, valLabels, gridlines);
  if (secondary && !horizontal) drawScale(secondary, secAx, true, secLabels, false);
  const slot = (horizontal ? area.h : area.w) / nCat;
  if (catLabels) {
    ctx.fillStyle = axisColor(catAx);
    // Every n-th label when they would overlap (vertical charts: by width; horizontal: by line height).
    const every = horizontal ? Math.max(1, Math.ceil(lineH / Math.max(1, slot))) : Math.max(1, Math.ceil((catWidest + 4) / Math.max(1, slot)));
    for (let i = 0; i < nCat; i += every) {
      const label = cats[i] ?? String(i + 1);
      if (horizontal) { ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.fillText(label, area.x - 4, area.y + area.h - slot * (i + 0.5)); }
      else { ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillText(label, area.x + slot * (i + 0.5), area.y + area.h + 3); }
    }
  }
  const pendingLabels: Array<() => void> = [];
  // Filled plots (bars, areas) first, lines over them.
  const order = drawn.slice().sort((p, q) => Number(/^(line|surface|stock)/.test(p.kind)) - Number(/^(line|surface|stock)/.test(q.kind)));
  for (const p of order) {
    const vPos = onAxis(p) === 'secondary' && secondary ? posFor(secondary) : valuePos;
    const sc = onAxis(p) === 'secondary' && secondary ? secondary : primary;
    const stacked = stackedOf(p);
    if (p.kind.startsWith('bar')) {
      const gap = intAttr(child(p.el, NS.c, 'gapWidth'), 'val', 150) / 100;
      // gapWidth is the space between clusters as a share of one bar's width.
      const perCluster = stacked ? 1 : Math.max(1, p.series.length);
      const barW = slot / (perCluster + gap);
      const group = barW * perCluster;
      for (let i = 0; i < nCat; i++) {
        let pos = 0;
        let neg = 0;
        const total = p.series.reduce((t, x) => t + Math.abs(x.values[i] ?? 0), 0) || 1;
        for (let si = 0; si < p.series.length; si++) {
          const s = p.series[si]!;
          const raw = s.values[i] ?? 0;
          let v = raw;
          if (p.grouping === 'percentStacked') v = v / total;
          const start = stacked ? (v >= 0 ? pos : neg) : 0;
          const end = start + v;
          if (stacked) { if (v >= 0) pos = end; else neg = end; }
          const offset = (slot - group) / 2 + (stacked ? 0 : si * barW);
          const a = vPos(Math.max(sc.bottom, Math.min(start, end)));
          const b = vPos(Math.min(sc.top, Math.max(start, end)));
          const bar: RectPt = horizontal
            ? { x: a, y: area.y + area.h - slot * i - offset - barW, w: b - a, h: barW }
            : { x: area.x + slot * i + offset, y: b, w: barW, h: a - b };
          await fillSeriesRect(dc, s, i, bar, vary ? pointColor(s, i, nCat) : undefined);
          const spec = s.labels;
          if (spec && !spec.deleted.has(i) && s.present[i]) {
            const text = labelText(spec, s, i, cats[i] ?? '', raw / total);
            const position = spec.position ?? (stacked ? 'ctr' : 'outEnd');
            const neg0 = v < 0;
            pendingLabels.push(() => {
              ctx.font = labelFont(spec);
              const inside = position !== 'outEnd';
              ctx.fillStyle = css(spec.color ?? (inside ? contrastOn(s.pointColors.get(i) ?? s.color) : textRgba));
              if (horizontal) {
                ctx.textBaseline = 'middle';
                const y = bar.y + bar.h / 2;
                if (position === 'ctr') { ctx.textAlign = 'center'; ctx.fillText(text, bar.x + bar.w / 2, y); }
                else if (position === 'inBase') { ctx.textAlign = neg0 ? 'right' : 'left'; ctx.fillText(text, neg0 ? bar.x + bar.w - 2 : bar.x + 2, y); }
                else if (position === 'inEnd') { ctx.textAlign = neg0 ? 'left' : 'right'; ctx.fillText(text, neg0 ? bar.x + 2 : bar.x + bar.w - 2, y); }
                else { ctx.textAlign = neg0 ? 'right' : 'left'; ctx.fillText(text, neg0 ? bar.x - 2 : bar.x + bar.w + 2, y); }
              } else {
                ctx.textAlign = 'center';
                const x = bar.x + bar.w / 2;
                if (position === 'ctr') { ctx.textBaseline = 'middle'; ctx.fillText(text, x, bar.y + bar.h / 2); }
                else if (position === 'inBase') { ctx.textBaseline = neg0 ? 'top' : 'bottom'; ctx.fillText(text, x, neg0 ? bar.y + 2 : bar.y + bar.h - 2); }
                else if (position === 'inEnd') { ctx.textBaseline = neg0 ? 'bottom' : 'top'; ctx.fillText(text, x, neg0 ? bar.y + bar.h - 2 : bar.y + 2); }
                else { ctx.textBaseline = neg0 ? 'top' : 'bottom'; ctx.fillText(text, x, neg0 ? bar.y + bar.h + 2 : bar.y - 2); }
              }
            });
          }
        }
      }
      continue;
    }
    const isArea = p.kind.startsWith('area');
    const acc = new Array<number>(nCat).fill(0);
    const totals = Array.from({ length: nCat }, (_, i) => p.series.reduce((t2, x) => t2 + Math.abs(x.values[i] ?? 0), 0) || 1);
    // Lines of a combination with bars sit in the middle of the categories.
    const between = midCat && !drawn.some((q) => q.kind.startsWith('bar'));
    const xAt = (i: number): number => (between && nCat > 1 ? area.x + (area.w * i) / (nCat - 1) : area.x + slot * (i + 0.5));
    const polys: Array<{ s: Series; pts: Array<[number, number]>; base: Array<[number, number]>; present: boolean[] }> = [];
    for (const s of p.series) {
      const pts: Array<[number, number]> = [];
      const base: Array<[number, number]> = [];
      const present: boolean[] = [];
      for (let i = 0; i < nCat; i++) {
        let v = s.values[i] ?? 0;
        if (p.grouping === 'percentStacked') v = v / totals[i]!;
        base.push([xAt(i), vPos(stacked ? acc[i]! : Math.max(sc.bottom, 0))]);
        v += stacked ? acc[i]! : 0;
        if (stacked) acc[i] = v;
        pts.push([xAt(i), vPos(v)]);
        present.push(!!s.present[i]);
      }
      polys.push({ s, pts, base, present });
    }
    // Areas are drawn last series first: stacked bands each show, and overlapping areas have
    // the first series in front (as LibreOffice draws them).
    for (const { s, pts, base, present } of isArea ? polys.slice().reverse() : polys) {
      if (isArea) {
        ctx.beginPath();
        pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
        const floor = stacked ? base : base.map(([x]) => [x, vPos(Math.max(sc.bottom, 0))] as [number, number]);
        for (let i = floor.length - 1; i >= 0; i--) ctx.lineTo(floor[i]![0], floor[i]![1]);
        ctx.closePath();
        if (s.fill) {
          const path = new Path2D();
          pts.forEach(([x, y], i) => (i ? path.lineTo(x, y) : path.moveTo(x, y)));
          for (let i = floor.length - 1; i >= 0; i--) path.lineTo(floor[i]![0], floor[i]![1]);
          path.closePath();
          await paintFill(dc, s.fill, path, area);
        } else {
          ctx.fillStyle = css(s.color);
          ctx.fill();
        }
        if (s.outline) {
          ctx.strokeStyle = css(s.outline.color);
          ctx.lineWidth = s.outline.width;
          ctx.stroke();
        }
      } else {
        if (s.lineWidth > 0) {
          ctx.beginPath();
          // Points missing from the cache break the line (PowerPoint's default for empty cells: gaps).
          let open = false;
          pts.forEach(([x, y], i) => {
            if (!present[i]) { open = false; return; }
            if (open) ctx.lineTo(x, y); else ctx.moveTo(x, y);
            open = true;
          });
          ctx.strokeStyle = css(s.color);
          ctx.lineWidth = s.lineWidth;
          ctx.lineJoin = 'round';
          ctx.stroke();
        }
        if (s.marker) for (let i = 0; i < pts.length; i++) if (present[i]) drawMarker(dc, s.marker, pts[i]![0], pts[i]![1]);
      }
      const spec = s.labels;
      if (spec) {
        for (let i = 0; i < pts.length; i++) {
          if (!present[i] || spec.deleted.has(i)) continue;
          const text = labelText(spec, s, i, cats[i] ?? '', (s.values[i] ?? 0) / totals[i]!);
          const [x, y] = pts[i]!;
          const [, by] = base[i]!;
          const position = spec.position ?? (isArea ? 'ctr' : 'r');
          pendingLabels.push(() => {
            ctx.font = labelFont(spec);
            ctx.fillStyle = css(spec.color ?? (isArea ? contrastOn(s.color) : textRgba));
            const gap = (s.marker?.size ?? 0) / 2 + 3;
            if (isArea) { ctx.textAlign = 'center'; ctx.textBaseline = 'middle'; ctx.fillText(text, x, (y + by) / 2); }
            else if (position === 't') { ctx.textAlign = 'center'; ctx.textBaseline = 'bottom'; ctx.fillText(text, x, y - gap); }
            else if (position === 'b') { ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillText(text, x, y + gap); }
            else if (position === 'l') { ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.fillText(text, x - gap, y); }
            else if (position === 'ctr') { ctx.textAlign = 'center'; ctx.textBaseline = 'middle'; ctx.fillText(text, x, y); }
            else { ctx.textAlign = 'left'; ctx.textBaseline = 'middle'; ctx.fillText(text, x + gap, y); }
          });
        }
      }
    }
  }
  // Axis lines: the category axis where the values cross zero, the value axis along the plot's edge.
  ctx.strokeStyle = 'rgba(134,134,134,1)';
  ctx.lineWidth = 0.75;
  ctx.beginPath();
  const zero = valuePos(Math.max(primary.bottom, Math.min(primary.top, 0)));
  if (horizontal) { ctx.moveTo(zero, area.y); ctx.lineTo(zero, area.y + area.h); }
  else { ctx.moveTo(area.x, zero); ctx.lineTo(area.x + area.w, zero); }
  if (valLine) {
    if (horizontal) { ctx.moveTo(area.x, area.y + area.h); ctx.lineTo(area.x + area.w, area.y + area.h); }
    else { ctx.moveTo(area.x, area.y); ctx.lineTo(area.x, area.y + area.h); }
  }
  if (secLabels && !horizontal) { ctx.moveTo(area.x + area.w, area.y); ctx.lineTo(area.x + area.w, area.y + area.h); }
  ctx.stroke();
  for (const draw of pendingLabels) draw();
}

/** Shared text settings of one chart for the plot drawers. */
interface ChartText {
  font: (size: number, bold?: boolean) => string;
  txSz: number;
  textColor: string;
  labelFont: (spec: LabelSpec) => string;
  cats: string[];
}

/**
 * A scatter (or bubble) plot (§21.2.2.161): x and y value axes, each series' points joined by
 * its line unless the line is `a:noFill` (or the style is marker-only), markers as stored.
 */
function drawScatter(dc: DrawContext, plot: Plot, plotArea: Element | undefined, plotR: RectPt, t: ChartText): void {
  const ctx = dc.ctx;
  const xs = plot.series.flatMap((s) => (s.xValues ?? s.values.map((_, i) => i + 1)));
  const ys = plot.series.flatMap((s) => s.values);
  if (!xs.length || !ys.length) return;
  const axes = plotArea ? children(plotArea, NS.c, 'valAx') : [];
  const xAx = axes.find((a) => ['b', 't'].includes(attr(child(a, NS.c, 'axPos'), 'val') ?? '')) ?? axes[0];
  const yAx = axes.find((a) => a !== xAx) ?? axes[1];
  const niceScale = (lo0: number, hi0: number, room: number, widest: (a: number, b: number) => number): { lo: number; hi: number; step: number } => {
    const lo1 = Math.min(0, lo0);
    const hi1 = Math.max(hi0, lo1 + 1e-9);
    let step = niceStep((hi1 - lo1) / 8 || 1);
    for (let k = 0; k < 8; k++) {
      const lo = Math.floor(lo1 / step + 1e-9) * step;
      const hi = Math.max(lo + step, Math.ceil(hi1 / step - 1e-9) * step);
      if (room / Math.max(1, Math.round((hi - lo) / step)) >= widest(lo, hi)) return { lo, hi, step };
      step = niceStep(step * 1.01);
    }
    const lo = Math.floor(lo1 / step) * step;
    return { lo, hi: Math.max(lo + step, Math.ceil(hi1 / step) * step), step };
  };
  ctx.font = t.font(t.txSz);
  const yFmt = (v: number): string => formatNumber(v, attr(child(yAx, NS.c, 'numFmt'), 'sourceLinked') === '1' ? plot.series[0]?.formatCode : attr(child(yAx, NS.c, 'numFmt'), 'formatCode'));
  const xFmt = (v: number): string => formatNumber(v, attr(child(xAx, NS.c, 'numFmt'), 'sourceLinked') === '1' ? undefined : attr(child(xAx, NS.c, 'numFmt'), 'formatCode'));
  const ysc = niceScale(Math.min(...ys), Math.max(...ys), plotR.h, () => t.txSz);
  const labelW = Math.max(ctx.measureText(yFmt(ysc.lo)).width, ctx.measureText(yFmt(ysc.hi)).width) + 6;
  const xsc = niceScale(Math.min(...xs), Math.max(...xs), plotR.w - labelW, (a, b) => Math.max(ctx.measureText(xFmt(a)).width, ctx.measureText(xFmt(b)).width) + 4);
  const area: RectPt = { x: plotR.x + labelW, y: plotR.y + t.txSz / 2, w: plotR.w - labelW - t.txSz, h: plotR.h - t.txSz / 2 - t.txSz * 1.3 };
  const px = (x: number): number => area.x + ((x - xsc.lo) / (xsc.hi - xsc.lo)) * area.w;
  const py = (y: number): number => area.y + area.h - ((y - ysc.lo) / (ysc.hi - ysc.lo)) * area.h;
  ctx.strokeStyle = 'rgba(134,134,134,1)';
  ctx.lineWidth = 0.75;
  ctx.fillStyle = t.textColor;
  const ny = Math.round((ysc.hi - ysc.lo) / ysc.step);
  for (let k = 0; k <= ny; k++) {
    const v = ysc.lo + k * ysc.step;
    if (child(yAx, NS.c, 'majorGridlines')) { ctx.beginPath(); ctx.moveTo(area.x, py(v)); ctx.lineTo(area.x + area.w, py(v)); ctx.stroke(); }
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.fillText(yFmt(v), area.x - 4, py(v));
  }
  const nx = Math.round((xsc.hi - xsc.lo) / xsc.step);
  for (let k = 0; k <= nx; k++) {
    const v = xsc.lo + k * xsc.step;
    if (child(xAx, NS.c, 'majorGridlines')) { ctx.beginPath(); ctx.moveTo(px(v), area.y); ctx.lineTo(px(v), area.y + area.h); ctx.stroke(); }
    ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillText(xFmt(v), px(v), area.y + area.h + 3);
  }
  ctx.beginPath();
  ctx.moveTo(area.x, area.y); ctx.lineTo(area.x, area.y + area.h);
  ctx.moveTo(area.x, py(Math.max(ysc.lo, Math.min(ysc.hi, 0)))); ctx.lineTo(area.x + area.w, py(Math.max(ysc.lo, Math.min(ysc.hi, 0))));
  ctx.stroke();
  const style = attr(child(plot.el, NS.c, 'scatterStyle'), 'val') ?? 'lineMarker';
  const bubbles = plot.kind === 'bubbleChart';
  for (const s of plot.series) {
    const pts = s.values.map((y, i) => [px(s.xValues?.[i] ?? i + 1), py(y)] as [number, number]);
    if (!bubbles && s.lineWidth > 0 && style !== 'marker') {
      ctx.beginPath();
      pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.strokeStyle = css(s.color);
      ctx.lineWidth = s.lineWidth;
      ctx.lineJoin = 'round';
      ctx.stroke();
    }
    if (bubbles) {
      for (const [x, y] of pts) { ctx.beginPath(); ctx.arc(x, y, Math.min(area.w, area.h) * 0.06, 0, Math.PI * 2); ctx.fillStyle = css({ ...s.color, a: 0.75 }); ctx.fill(); }
    } else if (s.marker) for (const [x, y] of pts) drawMarker(dc, s.marker, x, y);
    const spec = s.labels;
    if (spec) {
      ctx.font = t.labelFont(spec);
      ctx.fillStyle = css(spec.color ?? { r: 0, g: 0, b: 0, a: 1 });
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      pts.forEach(([x, y], i) => { if (!spec.deleted.has(i)) ctx.fillText(labelText(spec, s, i, t.cats[i] ?? '', 0), x + (s.marker?.size ?? 0) / 2 + 3, y); });
    }
  }
}

/** The smallest "nice" step (1, 2 or 5 × 10^n) at least `raw`. */
function niceStep(raw: number): number {
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw - 1e-12) return m * p;
  return 10 * p;
}

/** The text of one data label: series name, category, value, percentage, in that order (§21.2.2.49). */
function labelText(spec: LabelSpec, s: Series, i: number, category: string, share: number): string {
  const parts: string[] = [];
  if (spec.series) parts.push(s.name);
  if (spec.category) parts.push(category);
  if (spec.value) parts.push(formatNumber(s.values[i] ?? 0, spec.formatCode ?? s.formatCode));
  if (spec.percent) parts.push(formatNumber(share, spec.formatCode && spec.formatCode.includes('%') ? spec.formatCode : '0%'));
  return parts.join(spec.separator);
}

/** Black or white, whichever reads on `c` (labels inside bars and slices). */
function contrastOn(c: Rgba): Rgba {
  const luma = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
  return luma > 150 ? { r: 0, g: 0, b: 0, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
}

/** Draws one marker (§21.2.3.46 ST_MarkerStyle) centred on (x, y), `size` points across. */
function drawMarker(dc: DrawContext, m: Marker, x: number, y: number): void {
  const ctx = dc.ctx;
  const h = m.size / 2;
  ctx.beginPath();
  switch (m.symbol) {
    case 'circle': ctx.arc(x, y, h, 0, Math.PI * 2); break;
    case 'diamond': ctx.moveTo(x, y - h); ctx.lineTo(x + h, y); ctx.lineTo(x, y + h); ctx.lineTo(x - h, y); ctx.closePath(); break;
    case 'triangle': ctx.moveTo(x, y - h); ctx.lineTo(x + h, y + h); ctx.lineTo(x - h, y + h); ctx.closePath(); break;
    case 'dash': ctx.rect(x - h, y - h / 4, m.size, h / 2); break;
    case 'dot': ctx.rect(x - h / 2, y - h / 2, h, h); break;
    case 'x': case 'star': case 'plus': {
      if (m.symbol !== 'plus') { ctx.moveTo(x - h, y - h); ctx.lineTo(x + h, y + h); ctx.moveTo(x + h, y - h); ctx.lineTo(x - h, y + h); }
      if (m.symbol !== 'x') { ctx.moveTo(x, y - h); ctx.lineTo(x, y + h); }
      if (m.symbol === 'plus') { ctx.moveTo(x - h, y); ctx.lineTo(x + h, y); }
      ctx.strokeStyle = css(m.line ?? m.fill ?? { r: 0, g: 0, b: 0, a: 1 });
      ctx.lineWidth = 0.75;
      ctx.stroke();
      return;
    }
    default: ctx.rect(x - h, y - h, m.size, m.size);
  }
  if (m.fill) { ctx.fillStyle = css(m.fill); ctx.fill(); }
  if (m.line) { ctx.strokeStyle = css(m.line); ctx.lineWidth = 0.75; ctx.stroke(); }
}

/** The first `a:defRPr` of a `c:txPr` (chart or axis text properties). */
function firstRPr(txPr: Element | undefined): Element | undefined {
  return txPr ? txPr.getElementsByTagNameNS(NS.a, 'defRPr')[0] : undefined;
}

/** Text colour when a chart names none: tx1 through the colour map. */
const TX1_FILL: Element = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="tx1"/></a:solidFill>`, 'chart text colour').documentElement!;

/**
 * Fills one bar (a rectangle in points) of series `s` at category `i`: its point colour (or
 * the varied colour `vary`), its fill, else its colour; then its outline.
 */
async function fillSeriesRect(dc: DrawContext, s: Series, i: number, bar: RectPt, vary?: Rgba): Promise<void> {
  const point = s.pointColors.get(i) ?? vary;
  if (!point && s.fill && bar.w > 0 && bar.h > 0) {
    const path = new Path2D();
    path.rect(bar.x, bar.y, bar.w, bar.h);
    await paintFill(dc, s.fill, path, bar);
  } else {
    dc.ctx.fillStyle = css(point ?? s.color);
    dc.ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
  }
  if (s.outline && bar.w > 0 && bar.h > 0) {
    dc.ctx.strokeStyle = css(s.outline.color);
    dc.ctx.lineWidth = s.outline.width;
    dc.ctx.strokeRect(bar.x, bar.y, bar.w, bar.h);
  }
}

function labeledBox(dc: DrawContext, r: RectPt, label: string): void {
  const ctx = dc.ctx;
  ctx.strokeStyle = 'rgba(166,166,166,1)';
  ctx.lineWidth = 0.75;
  ctx.strokeRect(r.x, r.y, r.w, r.h);
  ctx.fillStyle = 'rgba(89,89,89,1)';
  ctx.font = cssFont(dc.family('Liberation Sans'), 12, false, false);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, r.x + r.w / 2, r.y + r.h / 2);
}
