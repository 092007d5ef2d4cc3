/**
 * Charts drawn simply from their caches (ECMA-376 Part 1, §21.2: `c:chartSpace`,
 * `c:plotArea`, `c:ser` with `c:cat`/`c:val` string and number caches): column/bar
 * (clustered or stacked), line, area, scatter and pie/doughnut, every plot of a combination
 * chart over the same categories (a second value axis scaled on its own), 3-D bar, line and
 * area charts as their 2-D projection, 3-D pies tilted with a side wall, surfaces as their
 * series' lines, radar charts; series colours by the Office 2007 chart style (`c:style`
 * 1–48) from the theme accents (or the chart's theme override), markers, smoothed lines and
 * data labels as stored; title, gridlines, axis labels (wrapped or turned when crowded) and
 * a legend, each in its own text properties and at its manual layout when it has one. Any
 * other chart type as a labeled box.
 */
import { Path2D } from '@napi-rs/canvas';
import type { Shape } from '../ooxml/pml/shapes.js';
import { NS, attr, attrNS, child, children, intAttr, parseXml, type Element } from '../ooxml/xml.js';
import { colorIn, css, type ColorContext, type Rgba } from '../ooxml/pml/color.js';
import type { ThemeColorName } from '../ooxml/pml/theme.js';
import { DrawContext, fillColor, fillOf, mix, paintFill, type RectPt, type ResolvedFill } from './draw-context.js';
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
  /** Whether the series' line is smoothed (`c:smooth`, §21.2.2.194; an empty element is true). */
  smooth: boolean;
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
  /** Bold when the labels' text properties say so (`a:defRPr/@b`). */
  bold: boolean;
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

/**
 * The faces of a chart's theme override (§14.2.8: its `a:fontScheme` replaces the theme's
 * fonts for this chart): the minor and major Latin typefaces, '' where it names none.
 */
function themeOverrideFonts(dc: DrawContext, chartPart: string): { minor: string; major: string; scripts: string[] } | undefined {
  const rel = dc.pkg.rels(chartPart).find((r) => /\/themeOverride$/.test(r.type));
  if (!rel?.targetPartName || !dc.pkg.hasPart(rel.targetPartName)) return undefined;
  const scheme = child(dc.pkg.getXml(rel.targetPartName).documentElement ?? undefined, NS.a, 'fontScheme');
  if (!scheme) return undefined;
  const face = (name: string): string => attr(child(child(scheme, NS.a, name), NS.a, 'latin'), 'typeface') ?? '';
  const minorFont = child(scheme, NS.a, 'minorFont');
  const scripts = (minorFont ? children(minorFont, NS.a, 'font') : []).filter((f) => RTL_SCRIPTS.includes(attr(f, 'script') ?? '')).map((f) => attr(f, 'typeface') ?? '').filter(Boolean);
  return { minor: face('minorFont'), major: face('majorFont'), scripts };
}

/**
 * Most points of one series or category list a chart is drawn with: Excel's limit for a
 * 2-D chart's series up to Office 2010. A cache's `c:ptCount` (§21.2.2.153) and a point's
 * `c:pt/@idx` (§21.2.2.150) are numbers from the file: past this they would size arrays of
 * billions of entries (one edited index made a preview run out of memory).
 */
export const MAX_CHART_POINTS = 32_000;

/**
 * Points a cache may count beyond the last one it holds (blank cells at the end of its
 * range, which still take a category's place): a stated count far past the points present
 * would cost drawing time for nothing but empty places.
 */
export const MAX_TRAILING_BLANK_POINTS = 1_024;

/**
 * A cache's point count (`c:ptCount/@val`): at most {@link MAX_CHART_POINTS}, and at most
 * {@link MAX_TRAILING_BLANK_POINTS} past the last point it holds.
 */
function pointCountOf(cache: Element | undefined): number {
  let held = 0;
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) held = Math.max(held, (pointIndexOf(pt, held) ?? -1) + 1);
  return Math.max(0, Math.min(MAX_CHART_POINTS, held + MAX_TRAILING_BLANK_POINTS, intAttr(child(cache, NS.c, 'ptCount'), 'val', 0)));
}

/** A point's index (`c:pt/@idx`, `next` when absent); undefined below 0 or from {@link MAX_CHART_POINTS} on (not drawn). */
function pointIndexOf(pt: Element, next: number): number | undefined {
  const i = intAttr(pt, 'idx', next);
  return Number.isInteger(i) && i >= 0 && i < MAX_CHART_POINTS ? i : undefined;
}

/**
 * The texts of a string or number cache (§21.2.2.177 `c:strCache`, §21.2.2.120 `c:numCache`):
 * numbers as their format code shows them (dates for date codes, serials counted from 1900,
 * or 1904 with `date1904`), strings as they are.
 */
/** Scripts whose theme faces (`a:font/@script`) draw chart text the Latin face lacks. */
const RTL_SCRIPTS = ['Hebr', 'Arab'];

function cacheStrings(src: Element | undefined, date1904 = false): string[] {
  const out: string[] = [];
  if (!src) return out;
  const cache = src.getElementsByTagNameNS(NS.c, 'strCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'strLit')[0] ?? src.getElementsByTagNameNS(NS.c, 'numLit')[0] ?? src.getElementsByTagNameNS(NS.c, 'lvl')[0];
  const n = pointCountOf(cache);
  const numeric = cache?.localName === 'numCache' || cache?.localName === 'numLit';
  const code = numeric ? child(cache, NS.c, 'formatCode')?.textContent ?? undefined : undefined;
  for (let i = 0; i < n; i++) out.push('');
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) {
    const i = pointIndexOf(pt, out.length);
    if (i === undefined) continue;
    const text = child(pt, NS.c, 'v')?.textContent ?? '';
    const v = Number(text);
    out[i] = numeric && text.trim() !== '' && Number.isFinite(v) ? formatValue(v, attr(pt, 'formatCode') ?? code, date1904) : text;
  }
  return out;
}

/**
 * A number as a format code shows it: a date code (`d`, `m`, `y` outside quotes, no `0`/`#`)
 * formats the value as a spreadsheet date serial (§18.17.4.1: days since 1899-12-30, or
 * since 1904-01-01 with `date1904`); anything else as {@link formatNumber}.
 */
export function formatValue(v: number, code: string | undefined, date1904 = false): string {
  const section = (code ?? '').split(';')[0]!.replace(/"[^"]*"|\\./g, '').replace(/\[[^\]]*\]/g, '');
  if (!/[dmy]/i.test(section) || /[0#]/.test(section)) return formatNumber(v, code);
  const day = new Date(Date.UTC(date1904 ? 1904 : 1899, date1904 ? 0 : 11, date1904 ? 1 : 30) + Math.floor(v) * 86400000);
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const pad = (x: number): string => String(x).padStart(2, '0');
  return (code ?? '').split(';')[0]!.replace(/\[[^\]]*\]/g, '').replace(/"([^"]*)"|\\(.)|yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d/gi, (tok, quoted?: string, escaped?: string) => {
    if (quoted !== undefined) return quoted;
    if (escaped !== undefined) return escaped;
    switch (tok.toLowerCase()) {
      case 'yyyy': return String(day.getUTCFullYear());
      case 'yy': return pad(day.getUTCFullYear() % 100);
      case 'mmmm': return months[day.getUTCMonth()]!;
      case 'mmm': return months[day.getUTCMonth()]!.slice(0, 3);
      case 'mm': return pad(day.getUTCMonth() + 1);
      case 'm': return String(day.getUTCMonth() + 1);
      case 'dddd': return days[day.getUTCDay()]!;
      case 'ddd': return days[day.getUTCDay()]!.slice(0, 3);
      case 'dd': return pad(day.getUTCDate());
      default: return String(day.getUTCDate());
    }
  });
}

function cacheNumbers(src: Element | undefined): number[] {
  const out: number[] = [];
  if (!src) return out;
  const cache = src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numLit')[0];
  const n = pointCountOf(cache);
  for (let i = 0; i < n; i++) out.push(0);
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) {
    const i = pointIndexOf(pt, out.length);
    if (i !== undefined) out[i] = Number(child(pt, NS.c, 'v')?.textContent ?? 0) || 0;
  }
  return out;
}

/** Which points of a number cache have a value (a `c:pt`); cells left empty have none. */
function cachePresence(src: Element | undefined): boolean[] {
  const out: boolean[] = [];
  const cache = src ? src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numLit')[0] : undefined;
  for (const pt of cache ? children(cache, NS.c, 'pt') : []) {
    const i = pointIndexOf(pt, out.length);
    if (i !== undefined) out[i] = true;
  }
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
    bold: attr(firstRPr(child(dLbls, NS.c, 'txPr')), 'b') === '1',
    deleted: new Set(),
  };
  for (const d of children(dLbls, NS.c, 'dLbl')) if (attr(child(d, NS.c, 'delete'), 'val') === '1') spec.deleted.add(intAttr(child(d, NS.c, 'idx'), 'val', -1));
  return spec.value || spec.percent || spec.category || spec.series ? spec : undefined;
}

/**
 * How one chart element's text looks (§21.2.2.216 `c:txPr`, §21.2.2.156 `c:rich`): size in
 * points, weight, slant, colour, face (a theme font reference `+mn-lt`/`+mj-lt` resolved),
 * and the rotation of its body (`a:bodyPr/@rot`, degrees; undefined when not set, which for
 * category labels means "automatic").
 */
export interface ChartTextStyle {
  size: number;
  bold: boolean;
  italic: boolean;
  color: Rgba;
  family: string;
  rot: number | undefined;
}

/**
 * The text style of an element with run properties `rPr` (an `a:defRPr` or `a:rPr`) and body
 * `bodyPr`, inheriting what they leave out from `base` (the chart space's text, §21.2.2.216).
 */
function textStyleFrom(rPr: Element | undefined, bodyPr: Element | undefined, base: ChartTextStyle, colors: ColorContext, theme: { major: string; minor: string }): ChartTextStyle {
  const flag = (name: string): boolean | undefined => { const v = attr(rPr, name); return v === undefined ? undefined : v === '1' || v === 'true'; };
  const sz = intAttr(rPr, 'sz', 0);
  const face = attr(child(rPr, NS.a, 'latin'), 'typeface');
  const family = face === '+mn-lt' ? theme.minor || base.family : face === '+mj-lt' ? theme.major || base.family : face || base.family;
  const rot = attr(bodyPr, 'rot');
  return {
    size: sz >= 100 ? sz / 100 : base.size,
    bold: flag('b') ?? base.bold,
    italic: flag('i') ?? base.italic,
    color: colorIn(child(rPr, NS.a, 'solidFill'), colors) ?? base.color,
    family,
    rot: rot !== undefined && /^-?\d+$/.test(rot) ? Number(rot) / 60000 : base.rot,
  };
}

/** The text style a `c:txPr` gives (its first paragraph's `a:defRPr` and its `a:bodyPr`), over `base`. */
function txPrStyle(txPr: Element | undefined, base: ChartTextStyle, colors: ColorContext, theme: { major: string; minor: string }): ChartTextStyle {
  return textStyleFrom(firstRPr(txPr), child(txPr, NS.a, 'bodyPr'), base, colors, theme);
}

/** The number an element's `val` attribute holds (chart elements carry their value so); undefined when absent or not finite. */
function valNumber(el: Element | undefined): number | undefined {
  const raw = attr(el, 'val');
  const v = Number(raw);
  return raw !== undefined && Number.isFinite(v) ? v : undefined;
}

/**
 * An element's manual position (`c:layout/c:manualLayout`, §21.2.2.95) as fractions of the
 * chart space in edge mode: x, y (top-left) and, when given, w and h; `inner` when the
 * layout target is the plot's inner rectangle (the axes' box, without tick labels).
 * Factor mode (offsets from the automatic position) is not followed: undefined.
 */
export function manualLayoutOf(el: Element | undefined): { x: number; y: number; w: number | undefined; h: number | undefined; inner: boolean } | undefined {
  const ml = child(child(el, NS.c, 'layout'), NS.c, 'manualLayout');
  if (!ml) return undefined;
  const num = (name: string): number | undefined => valNumber(child(ml, NS.c, name));
  const x = num('x');
  const y = num('y');
  if (x === undefined || y === undefined) return undefined;
  if ((attr(child(ml, NS.c, 'xMode'), 'val') ?? 'factor') !== 'edge' || (attr(child(ml, NS.c, 'yMode'), 'val') ?? 'factor') !== 'edge') return undefined;
  const w = num('w');
  const h = num('h');
  return { x, y, w: w !== undefined && w > 0 ? w : undefined, h: h !== undefined && h > 0 ? h : undefined, inner: attr(child(ml, NS.c, 'layoutTarget'), 'val') === 'inner' };
}

/** A chart line's colour and width (pt) from an `a:ln` in `spPr`: undefined for `a:noFill`, `fallback` when unset. */
function chartLine(spPr: Element | undefined, fallback: { color: Rgba; width: number } | undefined, colors: ColorContext): { color: Rgba; width: number } | undefined {
  const ln = child(spPr, NS.a, 'ln');
  if (!ln) return fallback;
  if (child(ln, NS.a, 'noFill')) return undefined;
  const color = colorIn(child(ln, NS.a, 'solidFill'), colors) ?? fallback?.color;
  if (!color) return undefined;
  return { color, width: attr(ln, 'w') !== undefined ? Math.max(0.25, intAttr(ln, 'w', 9525) / 12700) : fallback?.width ?? 0.75 };
}

/**
 * Words of `text` broken into lines at most `width` wide as `ctx` measures them (explicit
 * line breaks kept); a word wider than `width` stays whole on its own line.
 */
function wrapWords(ctx: { measureText(t: string): { width: number } }, text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(next).width > width) { out.push(line); line = word; } else line = next;
    }
    out.push(line);
  }
  return out;
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

/**
 * What an axis fixes of its scale (`c:scaling`, §21.2.2.195: `c:max`, `c:min`,
 * `c:orientation`; `c:majorUnit`, §21.2.2.102); anything absent or unusable is left to the
 * automatic scale (undefined).
 */
function axisScaling(ax: Element | undefined): { max: number | undefined; min: number | undefined; majorUnit: number | undefined; reversed: boolean } {
  const scaling = child(ax, NS.c, 'scaling');
  let max = valNumber(child(scaling, NS.c, 'max'));
  let min = valNumber(child(scaling, NS.c, 'min'));
  if (max !== undefined && min !== undefined && !(max > min)) max = min = undefined;
  const unit = valNumber(child(ax, NS.c, 'majorUnit'));
  const range = max !== undefined && min !== undefined ? max - min : undefined;
  // at most 1,000 intervals: a unit too small for the range is left to the automatic step
  const majorUnit = unit !== undefined && unit > 0 && (range === undefined || range / unit <= 1000) ? unit : undefined;
  return { max, min, majorUnit, reversed: attr(child(scaling, NS.c, 'orientation'), 'val') === 'maxMin' };
}

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
      smooth: !!child(ser, NS.c, 'smooth') && !['0', 'false'].includes(attr(child(ser, NS.c, 'smooth'), 'val') ?? '1'),
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
  const date1904 = attr(child(space ?? undefined, NS.c, 'date1904'), 'val') === '1';
  const cats = cacheStrings(child(firstSer, NS.c, 'cat') ?? child(firstSer, NS.c, 'xVal'), date1904);
  const nCat = Math.max(cats.length, ...plots.flatMap((p) => p.series.map((s) => s.values.length)), 0);
  const isPie = kind.startsWith('pie') || kind === 'doughnutChart' || kind === 'ofPieChart';
  // One series with varied colours (pies, or a bar chart with c:varyColors): the points take the style's colours.
  const vary = (isPie && attr(child(first.el, NS.c, 'varyColors'), 'val') !== '0') || (first.series.length === 1 && attr(child(first.el, NS.c, 'varyColors'), 'val') === '1');
  const pointColor = (s: Series, i: number, n: number): Rgba => s.pointColors.get(i) ?? (vary ? styleSeriesColor(chartStyle, i, n, colors) : s.color);
  // Chart area fill (c:chartSpace/c:spPr, §21.2.2.197): only the fill the chart states. In
  // a presentation the automatic chart area is unfilled, so the slide shows through a chart
  // that states none (PowerPoint draws it so, and LibreOffice's PowerPoint import makes the
  // default chart area fill "none" for that reason); white is the default of workbooks only.
  const areaFill = fillOf(child(space ?? undefined, NS.c, 'spPr'));
  if (areaFill) {
    const areaPath = new Path2D();
    areaPath.rect(r.x, r.y, r.w, r.h);
    await paintFill(dc, { el: areaFill, colors, part: partName }, areaPath, r);
  }
  // Text: the chart space's own (c:txPr, §21.2.2.216) over 10 pt in the theme's minor face and
  // tx1 (Office 2007 chart styles 1–32); titles, legend, axes and labels each refine it.
  const minor = dc.theme.minor;
  const minorShape = minor.latin ? shapeFromAttributes({ panose: minor.latinPanose, pitchFamily: minor.latinPitchFamily })?.shape : undefined;
  const overrideFaces = themeOverrideFonts(dc, partName);
  const faces = { minor: overrideFaces?.minor || minor.latin || 'Calibri', major: overrideFaces?.major || dc.theme.major.latin || minor.latin || 'Calibri' };
  const spaceTxPr = child(space ?? undefined, NS.c, 'txPr');
  const base = txPrStyle(spaceTxPr, { size: 10, bold: false, italic: false, color: colorIn(TX1_FILL, colors) ?? { r: 0, g: 0, b: 0, a: 1 }, family: faces.minor, rot: undefined }, colors, faces);
  base.rot = undefined;
  const textRgba = base.color;
  const textColor = css(textRgba);
  const txSz = base.size;
  // Hebrew and Arabic text the Latin face lacks is drawn in the font scheme's faces for those
  // scripts (§20.1.4.1.16 a:font/@script), as PowerPoint picks them for such runs.
  const scriptFaces = (overrideFaces?.scripts ?? RTL_SCRIPTS.map((k) => minor.scripts[k] ?? '').filter(Boolean)).map((f) => dc.family(f));
  const styledFont = (st: ChartTextStyle): string => cssFont(dc.family(st.family, st.family === minor.latin ? minorShape : undefined), st.size, st.bold, st.italic, [...scriptFaces, ...dc.fallbackFamilies]);
  const font = (size: number, bold = false): string => styledFont({ ...base, size, bold });
  // Outer margins of the automatic layout (no c:manualLayout), as LibreOffice places plot areas.
  let top = r.y + r.h * 0.02;
  // Title (§21.2.2.210): its rich text (empty paragraphs: no title), else the series' name
  // or "Chart Title"; 18 pt bold unless its text says otherwise (1.2 × a chart text size
  // that is set), wrapped to 80 % of the chart's width.
  const titleEl = child(chart, NS.c, 'title');
  const autoDeleted = attr(child(chart, NS.c, 'autoTitleDeleted'), 'val') === '1';
  let title: string | undefined;
  const allSeries = plots.flatMap((p) => p.series);
  const rich = child(child(titleEl, NS.c, 'tx'), NS.c, 'rich');
  const titleRef = child(child(titleEl, NS.c, 'tx'), NS.c, 'strRef');
  if (titleEl) {
    if (rich) title = children(rich, NS.a, 'p').map((para) => Array.from(para.getElementsByTagNameNS(NS.a, 't')).map((t) => t.textContent ?? '').join('')).join('\n').trim();
    else if (titleRef) title = cacheStrings(titleRef).join(' ');
    else title = allSeries.length === 1 ? allSeries[0]!.name : 'Chart Title';
  } else if (!autoDeleted && allSeries.length === 1 && isPie) title = allSeries[0]!.name;
  if (title) {
    const titleBase: ChartTextStyle = { ...base, size: intAttr(firstRPr(spaceTxPr), 'sz', 0) >= 100 ? base.size * 1.2 : 18, bold: true };
    const titleStyle = txPrStyle(child(titleEl, NS.c, 'txPr') ?? rich, titleBase, colors, faces);
    // each paragraph of rich text in the style of its paragraph defaults and first run (a
    // title's second line is often a smaller subtitle); other titles as one paragraph
    const paras = (rich ? children(rich, NS.a, 'p') : []).map((para) => {
      const text = Array.from(para.getElementsByTagNameNS(NS.a, 't')).map((t) => t.textContent ?? '').join('');
      let st = textStyleFrom(child(child(para, NS.a, 'pPr'), NS.a, 'defRPr'), undefined, titleStyle, colors, faces);
      const run = para.getElementsByTagNameNS(NS.a, 'rPr')[0];
      if (run) st = textStyleFrom(run, undefined, st, colors, faces);
      return { text, st };
    });
    while (paras.length && !paras[paras.length - 1]!.text.trim()) paras.pop();
    while (paras.length && !paras[0]!.text.trim()) paras.shift();
    if (!paras.length) paras.push({ text: title, st: titleStyle });
    const lines = paras.flatMap(({ text, st }) => {
      ctx.font = styledFont(st);
      return (text.trim() ? wrapWords(ctx, text.trim(), r.w * 0.8) : ['']).map((l) => ({ l, st, w: ctx.measureText(l).width }));
    });
    const at = manualLayoutOf(titleEl);
    const widest = Math.max(...lines.map((x) => x.w));
    const cx = at ? r.x + at.x * r.w + widest / 2 : r.x + r.w / 2;
    const ty = at ? r.y + at.y * r.h : top;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    let y = ty;
    for (const { l, st } of lines) {
      ctx.fillStyle = css(st.color);
      ctx.font = styledFont(st);
      ctx.fillText(l, cx, y);
      y += st.size * 1.2;
    }
    // Unless it overlays the plot, the plot area starts under the title (wherever it is placed).
    if (attr(child(titleEl, NS.c, 'overlay'), 'val') !== '1') top = Math.max(top, y + (lines[lines.length - 1]?.st.size ?? titleStyle.size) * 0.4);
  }
  const legendEl = child(chart, NS.c, 'legend');
  const legendPos = attr(child(legendEl, NS.c, 'legendPos'), 'val') ?? 'r';
  const deletedEntries = new Set((legendEl ? children(legendEl, NS.c, 'legendEntry') : []).filter((e) => attr(child(e, NS.c, 'delete'), 'val') === '1').map((e) => intAttr(child(e, NS.c, 'idx'), 'val', -1)));
  const legendItems = (isPie || vary
    ? cats.map((c, i) => ({ name: c, color: pointColor(first.series[0]!, i, nCat) }))
    : allSeries.map((s) => ({ name: s.name, color: s.lineWidth === 0 && s.marker?.fill ? s.marker.fill : s.color }))).filter((_, i) => !deletedEntries.has(i));
  let plotR: RectPt = { x: r.x + r.w * 0.03, y: top, w: r.w * 0.94, h: r.y + r.h - top - r.h * 0.025 };
  if (legendEl && legendItems.length) {
    // Legend (§21.2.2.93): its own text, keys a square of 0.6 × the text size, one entry a line
    // at the sides, in one row at the top or bottom; at its manual position when it has one.
    const ls = txPrStyle(child(legendEl, NS.c, 'txPr'), base, colors, faces);
    ctx.font = styledFont(ls);
    const key = ls.size * 0.6;
    const rowH = ls.size * 1.25;
    const entryW = (l: { name: string }): number => ctx.measureText(l.name).width + key + ls.size * 0.4;
    const lw = Math.min(r.w * 0.3, Math.max(...legendItems.map(entryW)) + ls.size * 0.4);
    const at = manualLayoutOf(legendEl);
    const drawEntry = (l: { name: string; color: Rgba }, x: number, y: number): void => {
      ctx.fillStyle = css(l.color);
      ctx.fillRect(x, y + (rowH - key) / 2, key, key);
      ctx.fillStyle = css(ls.color);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(l.name, x + key + ls.size * 0.3, y + rowH / 2);
    };
    const overlay = attr(child(legendEl, NS.c, 'overlay'), 'val') === '1';
    if (legendPos === 'b' || legendPos === 't') {
      // Entries flow in rows as wide as the legend's box (its manual width, else the chart's).
      const gap = ls.size * 0.8;
      const boxW = at?.w !== undefined ? at.w * r.w : r.w * 0.95;
      const rows: Array<typeof legendItems> = [[]];
      let used = 0;
      for (const l of legendItems) {
        const w = entryW(l) + gap;
        if (used > 0 && used + w - gap > boxW) { rows.push([]); used = 0; }
        rows[rows.length - 1]!.push(l);
        used += w;
      }
      const blockH = rows.length * rowH;
      const boxX = at ? r.x + at.x * r.w : r.x + (r.w - boxW) / 2;
      let y = at ? r.y + at.y * r.h + (at.h !== undefined ? Math.max(0, at.h * r.h - blockH) / 2 : 0) : legendPos === 'b' ? r.y + r.h - blockH - r.h * 0.02 : top;
      // One row: centred; several: a block whose rows start at one edge, the block centred.
      const rowWidth = (row: typeof legendItems): number => row.reduce((sum, l) => sum + entryW(l) + gap, 0) - gap;
      const blockW = Math.max(...rows.map(rowWidth));
      for (const row of rows) {
        let x = boxX + (boxW - (rows.length > 1 ? blockW : rowWidth(row))) / 2;
        for (const l of row) { drawEntry(l, x, y); x += entryW(l) + gap; }
        y += rowH;
      }
      if (!at && !overlay) plotR = legendPos === 'b' ? { ...plotR, h: plotR.h - blockH - 4 } : { ...plotR, y: plotR.y + blockH + 4, h: plotR.h - blockH - 4 };
    } else {
      const x = at ? r.x + at.x * r.w : legendPos === 'l' ? r.x + r.w * 0.02 : r.x + r.w - lw - r.w * 0.02;
      let y = at ? r.y + at.y * r.h + ((at.h !== undefined ? at.h * r.h : legendItems.length * rowH) - legendItems.length * rowH) / 2 : plotR.y + plotR.h / 2 - (legendItems.length * rowH) / 2;
      for (const l of legendItems) { drawEntry(l, x, y); y += rowH; }
      if (!at && !overlay) plotR = legendPos === 'l' ? { ...plotR, x: plotR.x + lw + 8, w: plotR.w - lw - 8 } : { ...plotR, w: plotR.w - lw - 8 };
    }
  }
  const plotLayout = manualLayoutOf(plotArea);
  if (plotLayout && !plotLayout.inner && plotLayout.w !== undefined && plotLayout.h !== undefined) {
    plotR = { x: r.x + plotLayout.x * r.w, y: r.y + plotLayout.y * r.h, w: plotLayout.w * r.w, h: plotLayout.h * r.h };
  }
  /** The inner plot rectangle a manual layout fixes (the axes' box), if any. */
  const innerR: RectPt | undefined = plotLayout?.inner && plotLayout.w !== undefined && plotLayout.h !== undefined
    ? { x: r.x + plotLayout.x * r.w, y: r.y + plotLayout.y * r.h, w: plotLayout.w * r.w, h: plotLayout.h * r.h }
    : undefined;
  const labelFont = (spec: LabelSpec): string => font(spec.size ?? txSz, spec.bold);
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
    // A doughnut's slices are rings (c:holeSize, §21.2.2.82, percent of the radius): its hole
    // shows what lies behind the chart, as the chart area is not necessarily filled.
    const hole = kind === 'doughnutChart' ? (rad * Math.min(90, Math.max(1, intAttr(child(first.el, NS.c, 'holeSize'), 'val', 50)))) / 100 : 0;
    const wedge = (from: number, to: number, dy: number): void => {
      ctx.beginPath();
      if (hole > 0) {
        ctx.ellipse(cx, cy + dy, rad, rad * squash, 0, from, to);
        ctx.ellipse(cx, cy + dy, hole, hole * squash, 0, to, from, true);
      } else {
        ctx.moveTo(cx, cy + dy);
        ctx.ellipse(cx, cy + dy, rad, rad * squash, 0, from, to);
      }
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
        ctx.fillStyle = css(spec.color ?? textRgba);
        ctx.fillText(text, x, y);
        ctx.textAlign = 'center';
      }
    }
    return;
  }
  if (kind === 'radarChart') return drawRadar(dc, first, plotArea, plotR, { font, txSz, textColor, labelFont, cats }, colors);
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
  // Axis lines, gridlines and the plot area's own fill and border (c:spPr, §21.2.2.197).
  const axisGrey = { color: { r: 134, g: 134, b: 134, a: 1 }, width: 0.75 };
  const valLine = !!valAx && attr(child(valAx, NS.c, 'delete'), 'val') !== '1' ? chartLine(child(valAx, NS.c, 'spPr'), axisGrey, colors) : undefined;
  const catLine = catAx && attr(child(catAx, NS.c, 'delete'), 'val') === '1' ? undefined : chartLine(child(catAx, NS.c, 'spPr'), axisGrey, colors);
  const gridOf = (ax: Element | undefined): { color: Rgba; width: number } | undefined => {
    const g = child(ax, NS.c, 'majorGridlines');
    return g ? chartLine(child(g, NS.c, 'spPr'), axisGrey, colors) : undefined;
  };
  const gridline = gridOf(valAx);
  const catGridline = gridOf(catAx);
  const midCat = attr(child(valAx, NS.c, 'crossBetween'), 'val') === 'midCat';
  const valTick = attr(child(valAx, NS.c, 'majorTickMark'), 'val') ?? 'cross';
  const valStyle = txPrStyle(child(valAx, NS.c, 'txPr'), base, colors, faces);
  const catStyle = txPrStyle(child(catAx, NS.c, 'txPr'), base, colors, faces);
  // -60000000 (rot="-60000000" in 60000ths) is PowerPoint's "automatic" angle.
  const catRot = catStyle.rot !== undefined && catStyle.rot > -360 && catStyle.rot < 360 ? catStyle.rot : undefined;
  /** An axis' number format: its own, or (source-linked) its first series' values format. */
  const axisFormat = (ax: Element | undefined, which: 'primary' | 'secondary'): string | undefined => {
    const nf = child(ax, NS.c, 'numFmt');
    if (nf && attr(nf, 'sourceLinked') !== '1') return attr(nf, 'formatCode');
    return drawn.find((p) => onAxis(p) === which)?.series[0]?.formatCode;
  };
  ctx.font = styledFont(catStyle);
  const catWidest = Math.max(...cats.map((c) => ctx.measureText(c).width), 10);
  const catLineH = catStyle.size * 1.2;
  const catW = catLabels ? Math.min(plotR.w * 0.3, catWidest + 6) : 2;
  const lineH = valStyle.size * 1.3;
  ctx.font = styledFont(valStyle);
  interface Scale { bottom: number; top: number; step: number; fmt: (v: number) => string; reversed: boolean }
  const scaleFor = (which: 'primary' | 'secondary', length: number, ax: Element | undefined): Scale => {
    const { minV, maxV, percent } = rangeOf(which);
    const code = percent ? '0%' : axisFormat(ax, which);
    const fmt = (v: number): string => formatNumber(v, code);
    const fixed = axisScaling(ax);
    // a fixed end outside the data still bounds the automatic one (an axis from 0.2 to an automatic maximum)
    const lo = Math.min(minV, fixed.max ?? minV);
    const hi = Math.max(maxV, fixed.min ?? maxV);
    let step = fixed.majorUnit ?? (percent ? 0.1 : niceAtLeast(((fixed.max ?? hi) - (fixed.min ?? lo)) / 10 || 1));
    let top2 = 1;
    let bottom = 0;
    for (let attempt = 0; attempt < 8; attempt++) {
      // The automatic maximum: the largest value plus 5 % of the range, rounded up to the step.
      top2 = percent ? 1 : Math.max(step, Math.ceil((hi + 0.05 * (hi - lo)) / step - 1e-9) * step);
      bottom = lo < 0 ? -Math.ceil((-lo + (hi <= 0 ? 0.05 * (hi - lo) : 0)) / step - 1e-9) * step : 0;
      if (hi <= 0 && lo < 0) top2 = 0;
      if (fixed.max !== undefined) top2 = fixed.max;
      if (fixed.min !== undefined) bottom = fixed.min;
      if (fixed.majorUnit !== undefined || !(top2 > bottom)) break;
      const widest = Math.max(ctx.measureText(fmt(top2)).width, ctx.measureText(fmt(bottom)).width);
      const n = Math.max(1, Math.round((top2 - bottom) / step));
      // At most ten intervals, each at least 1.5 lines tall (vertical axes; percentages keep
      // their tenths while the labels do not overlap) or as wide as the widest label.
      if (n <= 10 && length / n >= (horizontal ? widest : valStyle.size * (percent ? 1 : 1.5))) break;
      step = niceAtLeast(step * 1.01);
    }
    if (!(top2 > bottom)) top2 = bottom + step;
    return { bottom, top: top2, step, fmt, reversed: fixed.reversed };
  };
  const secAx = secondaryId !== undefined ? axisOf(secondaryId) : undefined;
  const secLabels = secondaryId !== undefined && shown(secAx);
  const widestOf = (sc: Scale): number => Math.max(ctx.measureText(sc.fmt(sc.top)).width, ctx.measureText(sc.fmt(sc.bottom)).width);
  /**
   * How category labels under a vertical chart fit their slots (§21.2.2.216 `a:bodyPr/@rot`
   * when set; else as PowerPoint lays them out automatically): on one line when they fit,
   * wrapped at spaces when every word fits (at most five lines), else turned 45°
   * counterclockwise, every n-th when even that overlaps. Returns the band's height.
   */
  interface CatPlan { angle: number; lines: string[][]; every: number; band: number }
  const planCats = (slotW: number): CatPlan => {
    ctx.font = styledFont(catStyle);
    const skip = intAttr(child(catAx, NS.c, 'tickLblSkip'), 'val', 0);
    const labels = Array.from({ length: nCat }, (_, i) => cats[i] ?? String(i + 1));
    const room = Math.max(1, slotW - 2);
    const turned = (angle: number): CatPlan => {
      const a = (Math.abs(angle) * Math.PI) / 180;
      const need = Math.abs(angle) < 1 ? catWidest + 4 : catLineH / Math.max(0.2, Math.sin(a));
      const every = skip > 0 ? skip : Math.max(1, Math.ceil(need / Math.max(1, slotW)));
      const band = Math.max(...labels.map((l) => ctx.measureText(l).width * Math.sin(a) + catLineH * Math.cos(a))) + 4;
      return { angle, lines: labels.map((l) => [l]), every, band };
    };
    if (catRot !== undefined && Math.abs(catRot) >= 1) return turned(catRot);
    if (labels.every((l) => ctx.measureText(l).width <= room)) return { angle: 0, lines: labels.map((l) => [l]), every: 1, band: catLineH + 3 };
    const wrapped = labels.map((l) => wrapWords(ctx, l, room));
    const fits = wrapped.every((ls) => ls.length <= 5 && ls.every((w) => ctx.measureText(w).width <= room));
    if (fits) return { angle: 0, lines: wrapped, every: 1, band: Math.max(...wrapped.map((ls) => ls.length)) * catLineH + 3 };
    if (catRot === 0) return { ...turned(0), band: catLineH + 3 };
    return turned(-45);
  };
  // A first estimate of the plot's length along the values decides the steps, then the label widths the area.
  // Without category labels the band under a vertical chart's axis is not empty: LibreOffice
  // fits the box around the axes and all their labels into the plot area, and the value axis'
  // lowest label, centred on the axis line, reaches half its height below it (as its top label
  // reaches above the top gridline), so that half height stays free under the plot, over
  // its outer margin of 2 % of the chart's height (plotR keeps 2.5 % there, the labels' band
  // included).
  const bareBand = !horizontal && (valLabels || secLabels) ? Math.max(2, valStyle.size / 2 - r.h * 0.005) : 2;
  let catPlan: CatPlan = { angle: 0, lines: [], every: 1, band: catLabels ? catLineH + 3 : bareBand };
  const estimate = innerR ? (horizontal ? innerR.w : innerR.h) : horizontal ? plotR.w - catW : plotR.h - valStyle.size / 2 - catPlan.band;
  let primary = scaleFor('primary', estimate, valAx);
  let secondary = secondaryId !== undefined ? scaleFor('secondary', estimate, secAx) : undefined;
  const labelW = valLabels ? widestOf(primary) + 6 : 2;
  const secW = secLabels && secondary && !horizontal ? widestOf(secondary) + 6 : 0;
  if (!horizontal && catLabels) {
    catPlan = planCats((innerR ? innerR.w : plotR.w - labelW - secW) / nCat);
    if (!innerR) {
      ctx.font = styledFont(valStyle);
      primary = scaleFor('primary', plotR.h - valStyle.size / 2 - catPlan.band, valAx);
      secondary = secondaryId !== undefined ? scaleFor('secondary', plotR.h - valStyle.size / 2 - catPlan.band, secAx) : undefined;
    }
  }
  ctx.font = styledFont(valStyle);
  const half = horizontal && valLabels ? ctx.measureText(primary.fmt(primary.top)).width / 2 : 0;
  const halfFirst = horizontal && valLabels ? Math.max(0, ctx.measureText(primary.fmt(primary.bottom)).width / 2 - catW) : 0;
  // categories in reverse order (c:orientation maxMin): the first at the top of a bar chart
  // or at the right of a column chart; the value axis, crossing at the first category,
  // moves with it (to the top of a bar chart)
  const catReversed = axisScaling(catAx).reversed;
  const catAt = (i: number): number => (catReversed ? nCat - 1 - i : i);
  const valuesOnTop = horizontal && catReversed;
  const flatArea: RectPt = innerR ?? (horizontal
    ? { x: plotR.x + catW + halfFirst, y: plotR.y + (valuesOnTop && valLabels ? lineH : 0), w: plotR.w - catW - halfFirst - half, h: plotR.h - (valLabels ? lineH : 2) }
    : { x: plotR.x + labelW, y: plotR.y + valStyle.size / 2, w: plotR.w - labelW - secW, h: plotR.h - valStyle.size / 2 - catPlan.band });
  // A 3-D bar chart: the plot's front plane, where values and categories are measured, and
  // the depth the back wall lies behind it, projected (points; dy > 0 is up the page)
  const depth = drawn.length === 1 && drawn[0]!.kind === 'bar3DChart' ? barDepth(chart, drawn[0]!, (horizontal ? flatArea.h : flatArea.w) / nCat) : undefined;
  const area: RectPt = depth
    ? { x: flatArea.x + Math.max(0, -depth.dx), y: flatArea.y + Math.max(0, depth.dy), w: flatArea.w - Math.abs(depth.dx), h: flatArea.h - Math.abs(depth.dy) }
    : flatArea;
  // a vertical 3-D plot whose depth runs left has its value axis on the back wall's left edge
  const valueAxisShift = !horizontal && depth && depth.dx < 0 ? { x: depth.dx, y: -depth.dy } : { x: 0, y: 0 };
  const posFor = (sc: Scale) => (v: number): number => {
    const span = sc.top - sc.bottom || 1;
    const f = sc.reversed ? (sc.top - v) / span : (v - sc.bottom) / span;
    return horizontal ? area.x + f * area.w : area.y + area.h - f * area.h;
  };
  const valuePos = posFor(primary);
  const plotSpPr = child(plotArea, NS.c, 'spPr');
  const plotFill = colorIn(child(plotSpPr, NS.a, 'solidFill'), colors);
  if (plotFill) { ctx.fillStyle = css(plotFill); ctx.fillRect(area.x, area.y, area.w, area.h); }
  const stroke = (line: { color: Rgba; width: number }, draw: () => void): void => {
    ctx.strokeStyle = css(line.color);
    ctx.lineWidth = line.width;
    ctx.beginPath();
    draw();
    ctx.stroke();
  };
  const tick = valTick === 'out' || valTick === 'cross' ? 4 : 0;
  const drawScale = (sc: Scale, ax: Element | undefined, right: boolean, labels: boolean, grid: { color: Rgba; width: number } | undefined): void => {
    const st = ax === valAx ? valStyle : txPrStyle(child(ax, NS.c, 'txPr'), base, colors, faces);
    ctx.font = styledFont(st);
    ctx.fillStyle = css(st.color);
    // gridlines and labels at the minimum and every major unit above it (a last interval may be shorter)
    const span = sc.top - sc.bottom;
    const steps = Math.min(1000, Math.floor(span / sc.step + 1e-6));
    const marks = Array.from({ length: steps + 1 }, (_, k) => sc.bottom + k * sc.step);
    for (const v of marks) {
      const f = sc.reversed ? (sc.top - v) / span : (v - sc.bottom) / span;
      const label = sc.fmt(Math.abs(v) < sc.step * 1e-9 ? 0 : v);
      if (horizontal) {
        const x = area.x + area.w * f;
        if (grid && depth) stroke(grid, () => { ctx.moveTo(x, area.y + area.h); ctx.lineTo(x + depth.dx, area.y + area.h - depth.dy); ctx.lineTo(x + depth.dx, area.y - depth.dy); });
        else if (grid) stroke(grid, () => { ctx.moveTo(x, area.y); ctx.lineTo(x, area.y + area.h); });
        if (valLine && tick && grid) stroke(valLine, () => { ctx.moveTo(x, area.y + area.h); ctx.lineTo(x, area.y + area.h + tick); });
        if (labels) {
          ctx.textAlign = 'center';
          ctx.textBaseline = valuesOnTop ? 'bottom' : 'top';
          ctx.fillText(label, x, valuesOnTop ? area.y - 2 : area.y + area.h + 2);
        }
      } else {
        const y = area.y + area.h - area.h * f;
        const wallX = depth && depth.dx < 0 ? area.x + area.w : area.x;
        if (grid && depth) stroke(grid, () => { ctx.moveTo(wallX, y); ctx.lineTo(wallX + depth.dx, y - depth.dy); ctx.lineTo(wallX + depth.dx + (depth.dx < 0 ? -area.w : area.w), y - depth.dy); });
        else if (grid) stroke(grid, () => { ctx.moveTo(area.x, y); ctx.lineTo(area.x + area.w, y); });
        const shift = right ? { x: 0, y: 0 } : valueAxisShift;
        if (valLine && tick && !right) stroke(valLine, () => { ctx.moveTo(area.x + shift.x - tick, y + shift.y); ctx.lineTo(area.x + shift.x, y + shift.y); });
        if (labels) {
          ctx.textAlign = right ? 'left' : 'right';
          ctx.textBaseline = 'middle';
          ctx.fillText(label, right ? area.x + area.w + 4 : area.x + shift.x - 4, y + shift.y);
        }
      }
    }
  };
  drawScale(primary, valAx, false, valLabels, gridline);
  if (secondary && !horizontal) drawScale(secondary, secAx, true, secLabels, undefined);
  const slot = (horizontal ? area.h : area.w) / nCat;
  if (catGridline) {
    // Category gridlines (§21.2.2.100) on the boundaries between categories.
    for (let k = 0; k <= nCat; k++) {
      if (horizontal) stroke(catGridline, () => { ctx.moveTo(area.x, area.y + slot * k); ctx.lineTo(area.x + area.w, area.y + slot * k); });
      else stroke(catGridline, () => { ctx.moveTo(area.x + slot * k, area.y); ctx.lineTo(area.x + slot * k, area.y + area.h); });
    }
  }
  if (catLabels) {
    ctx.font = styledFont(catStyle);
    ctx.fillStyle = css(catStyle.color);
    if (horizontal) {
      const every = Math.max(1, Math.ceil(catLineH / Math.max(1, slot)));
      for (let i = 0; i < nCat; i += every) { ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.fillText(cats[i] ?? String(i + 1), area.x - 4, area.y + area.h - slot * (catAt(i) + 0.5)); }
    } else {
      for (let i = 0; i < nCat; i += catPlan.every) {
        const x = area.x + slot * (catAt(i) + 0.5);
        const y = area.y + area.h + 3;
        const lines = catPlan.lines[i] ?? [cats[i] ?? String(i + 1)];
        if (catPlan.angle === 0) {
          ctx.textAlign = 'center';
          ctx.textBaseline = 'top';
          lines.forEach((l, k) => ctx.fillText(l, x, y + k * catLineH));
        } else {
          // Turned labels end (counterclockwise) or start (clockwise) at their tick.
          ctx.save();
          ctx.translate(x, y);
          ctx.rotate((catPlan.angle * Math.PI) / 180);
          ctx.textAlign = catPlan.angle < 0 ? 'right' : 'left';
          ctx.textBaseline = 'middle';
          ctx.fillText(lines.join(' '), 0, 0);
          ctx.restore();
        }
      }
    }
  }
  const pendingLabels: Array<() => void> = [];
  const boxes: Array<{ bar: RectPt; draw: () => Promise<void> }> = [];
  // Filled plots (bars, areas) first, lines over them.
  const order = drawn.slice().sort((p, q) => Number(/^(line|surface|stock)/.test(p.kind)) - Number(/^(line|surface|stock)/.test(q.kind)));
  for (const p of order) {
    const vPos = onAxis(p) === 'secondary' && secondary ? posFor(secondary) : valuePos;
    const sc = onAxis(p) === 'secondary' && secondary ? secondary : primary;
    const stacked = stackedOf(p);
    if (p.kind.startsWith('bar')) {
      const gap = intAttr(child(p.el, NS.c, 'gapWidth'), 'val', 150) / 100;
      // gapWidth is the space between clusters as a share of one bar's width; c:overlap
      // (§21.2.2.131, −100…100 %) how far each bar of a cluster covers the one before it
      // (negative: a space between them; PowerPoint writes −27 for new clustered charts).
      const perCluster = stacked ? 1 : Math.max(1, p.series.length);
      const overlap = stacked ? 0 : Math.max(-1, Math.min(1, intAttr(child(p.el, NS.c, 'overlap'), 'val', 0) / 100));
      const barW = slot / (perCluster - (perCluster - 1) * overlap + gap);
      const step = barW * (1 - overlap);
      const group = barW + step * (perCluster - 1);
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
          const offset = (slot - group) / 2 + (stacked ? 0 : (catReversed ? perCluster - 1 - si : si) * step);
          const a = vPos(Math.max(sc.bottom, Math.min(start, end)));
          const b = vPos(Math.min(sc.top, Math.max(start, end)));
          const bar: RectPt = horizontal
            ? { x: a, y: area.y + area.h - slot * catAt(i) - offset - barW, w: b - a, h: barW }
            : { x: area.x + slot * catAt(i) + offset, y: b, w: barW, h: a - b };
          const vary1 = vary ? pointColor(s, i, nCat) : undefined;
          if (depth) boxes.push({ bar, draw: () => drawBox(dc, s, i, bar, depth, vary1) });
          else await fillSeriesRect(dc, s, i, bar, vary1);
          const spec = s.labels;
          if (spec && !spec.deleted.has(i) && s.present[i]) {
            const text = labelText(spec, s, i, cats[i] ?? '', raw / total);
            const position = spec.position ?? (stacked ? 'ctr' : 'outEnd');
            const neg0 = v < 0;
            pendingLabels.push(() => {
              ctx.font = labelFont(spec);
              // without a colour of its own a label takes the chart's text colour, inside a bar too:
              // PowerPoint's automatic label colour does not turn white on dark fills (nor LibreOffice's)
              ctx.fillStyle = css(spec.color ?? textRgba);
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
      if (boxes.length && depth) {
        // painter's order: boxes further from the viewer first (along the depth's sideways
        // direction, then lower on the page: a stacked segment's top hides under the next)
        const side = depth.dx >= 0 ? 1 : -1;
        const cx = (b: RectPt): number => b.x + b.w / 2;
        const bottom = (b: RectPt): number => b.y + b.h;
        boxes.sort((a, b) => (horizontal ? bottom(b.bar) - bottom(a.bar) || side * (cx(a.bar) - cx(b.bar)) : side * (cx(a.bar) - cx(b.bar)) || bottom(b.bar) - bottom(a.bar)));
        for (const box of boxes.splice(0)) await box.draw();
      }
      continue;
    }
    const isArea = p.kind.startsWith('area');
    const acc = new Array<number>(nCat).fill(0);
    const totals = Array.from({ length: nCat }, (_, i) => p.series.reduce((t2, x) => t2 + Math.abs(x.values[i] ?? 0), 0) || 1);
    // Lines of a combination with bars sit in the middle of the categories.
    const between = midCat && !drawn.some((q) => q.kind.startsWith('bar'));
    const xAt = (i: number): number => (between && nCat > 1 ? area.x + (area.w * catAt(i)) / (nCat - 1) : area.x + slot * (catAt(i) + 0.5));
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
          let run: Array<[number, number]> = [];
          pts.forEach((pt, i) => {
            if (present[i]) run.push(pt);
            if (!present[i] || i === pts.length - 1) { traceLine(ctx, run, s.smooth); run = []; }
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
            ctx.fillStyle = css(spec.color ?? textRgba);
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
  const zero = valuePos(Math.max(primary.bottom, Math.min(primary.top, 0)));
  if (catLine) stroke(catLine, () => { if (horizontal) { ctx.moveTo(zero, area.y); ctx.lineTo(zero, area.y + area.h); } else { ctx.moveTo(area.x, zero); ctx.lineTo(area.x + area.w, zero); } });
  const valEdge = horizontal ? (valuesOnTop ? area.y : area.y + area.h) : area.x + valueAxisShift.x;
  if (valLine) stroke(valLine, () => { if (horizontal) { ctx.moveTo(area.x, valEdge); ctx.lineTo(area.x + area.w, valEdge); } else { ctx.moveTo(valEdge, area.y + valueAxisShift.y); ctx.lineTo(valEdge, area.y + area.h + valueAxisShift.y); } });
  if (secLabels && !horizontal) stroke(axisGrey, () => { ctx.moveTo(area.x + area.w, area.y); ctx.lineTo(area.x + area.w, area.y + area.h); });
  const plotBorder = chartLine(plotSpPr, undefined, colors);
  if (plotBorder) { ctx.strokeStyle = css(plotBorder.color); ctx.lineWidth = plotBorder.width; ctx.strokeRect(area.x, area.y, area.w, area.h); }
  for (const draw of pendingLabels) draw();
}

/**
 * The depth of a 3-D bar chart's plot (§21.2.2.16 `c:bar3DChart`), drawn as an oblique
 * projection of right-angle axes (`c:view3D`, §21.2.2.228: `c:rotX` up, default 15°;
 * `c:rotY` around, default 20°; perspective views are drawn the same way): a bar is as deep
 * as `c:depthPercent` (default 100) of its width, and the plot as deep as a bar and the gap
 * around it (`c:gapDepth`, §21.2.2.75, a percentage of a bar's depth, default 150).
 * `slot` is a category's width on the page (points).
 */
function barDepth(chart: Element | undefined, plot: Plot, slot: number): Depth3D {
  const view = child(chart, NS.c, 'view3D');
  const deg = (name: string, fallback: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, intAttr(child(view, NS.c, name), 'val', fallback))) * (Math.PI / 180);
  const rotX = deg('rotX', 15, -90, 90);
  const rotY = deg('rotY', 20, 0, 360);
  const depthPercent = Math.max(20, Math.min(2000, intAttr(child(view, NS.c, 'depthPercent'), 'val', 100))) / 100;
  const gapDepth = Math.max(0, Math.min(500, intAttr(child(plot.el, NS.c, 'gapDepth'), 'val', 150))) / 100;
  const gapWidth = Math.max(0, Math.min(500, intAttr(child(plot.el, NS.c, 'gapWidth'), 'val', 150))) / 100;
  const stacked = plot.grouping === 'stacked' || plot.grouping === 'percentStacked';
  const barWidth = slot / ((stacked ? 1 : Math.max(1, plot.series.length)) + gapWidth);
  // never deeper than one and a half categories (a steep view would hide the plot)
  const depth = Math.min(slot * 1.5, barWidth * depthPercent * (1 + gapDepth));
  return { dx: depth * Math.sin(rotY) * Math.cos(rotX), dy: depth * Math.sin(rotX), bar: 1 / (1 + gapDepth) };
}

/** A 3-D bar chart's plot depth, projected (dx right, dy up the page, points), and a bar's share of it. */
interface Depth3D { dx: number; dy: number; bar: number }

/**
 * One bar of a 3-D bar chart as a box: its front face (`bar`, drawn as a flat bar is, moved
 * back to the middle of the plot's depth), the top face a little darker and the side face
 * towards the depth darker still, as PowerPoint shades a box lit from the front.
 */
async function drawBox(dc: DrawContext, s: Series, i: number, bar: RectPt, depth: Depth3D, vary: Rgba | undefined): Promise<void> {
  const ctx = dc.ctx;
  const share = depth.bar;
  const back = (1 - share) / 2;
  const front: RectPt = { x: bar.x + depth.dx * back, y: bar.y - depth.dy * back, w: bar.w, h: bar.h };
  const dx = depth.dx * share;
  const dy = depth.dy * share;
  const base = s.pointColors.get(i) ?? vary ?? s.color;
  const darker = (c: Rgba, k: number): Rgba => mix(c, { r: 0, g: 0, b: 0, a: c.a }, 1 - k);
  const face = (pts: ReadonlyArray<readonly [number, number]>, color: Rgba): void => {
    ctx.beginPath();
    ctx.moveTo(pts[0]![0], pts[0]![1]);
    for (const [x, y] of pts.slice(1)) ctx.lineTo(x, y);
    ctx.closePath();
    ctx.fillStyle = css(color);
    ctx.fill();
  };
  if (front.w <= 0 || front.h <= 0) return;
  const sideX = dx >= 0 ? front.x + front.w : front.x;
  // the face towards the depth, then the top (or the bottom, seen from below), then the front over both
  // both reach a point under the front face, so no background shows through the antialiased seams
  const under = Math.sign(dx) || 1;
  face([[sideX - under, front.y], [sideX + dx, front.y - dy], [sideX + dx, front.y + front.h - dy], [sideX - under, front.y + front.h]], darker(base, 0.72));
  const capY = dy >= 0 ? front.y : front.y + front.h;
  const into = dy >= 0 ? 1 : -1;
  face([[front.x, capY + into], [front.x + front.w, capY + into], [front.x + front.w + dx, capY - dy], [front.x + dx, capY - dy]], darker(base, 0.86));
  await fillSeriesRect(dc, s, i, front, vary);
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
      const n = Math.max(1, Math.round((hi - lo) / step));
      if (n <= 10 && room / n >= widest(lo, hi)) return { lo, hi, step };
      step = niceStep(step * 1.01);
    }
    const lo = Math.floor(lo1 / step) * step;
    return { lo, hi: Math.max(lo + step, Math.ceil(hi1 / step) * step), step };
  };
  ctx.font = t.font(t.txSz);
  const yFmt = (v: number): string => formatNumber(v, attr(child(yAx, NS.c, 'numFmt'), 'sourceLinked') === '1' ? plot.series[0]?.formatCode : attr(child(yAx, NS.c, 'numFmt'), 'formatCode'));
  const xFmt = (v: number): string => formatNumber(v, attr(child(xAx, NS.c, 'numFmt'), 'sourceLinked') === '1' ? undefined : attr(child(xAx, NS.c, 'numFmt'), 'formatCode'));
  // As on category charts: at most ten intervals, each at least 1.5 lines tall.
  const ysc = niceScale(Math.min(...ys), Math.max(...ys), plotR.h, () => t.txSz * 1.5);
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
      traceLine(ctx, pts, s.smooth);
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

/**
 * A radar plot (§21.2.2.153 `c:radarChart`): one spoke per category, clockwise from the top;
 * the value axis' gridlines as polygons over the spokes and its labels along the first one;
 * each series a closed polygon through its values — outlined (`standard`, `marker` with its
 * markers) or filled (`filled`, the first series in front); category names outside the rim.
 */
function drawRadar(dc: DrawContext, plot: Plot, plotArea: Element | undefined, plotR: RectPt, t: ChartText, colors: ColorContext): void {
  const ctx = dc.ctx;
  const n = Math.max(t.cats.length, ...plot.series.map((s) => s.values.length));
  if (n < 3) return;
  const valAx = plotArea ? child(plotArea, NS.c, 'valAx') : undefined;
  const catAx = plotArea ? child(plotArea, NS.c, 'catAx') : undefined;
  const style = attr(child(plot.el, NS.c, 'radarStyle'), 'val') ?? 'standard';
  ctx.font = t.font(t.txSz);
  const lineH = t.txSz * 1.2;
  const widest = Math.max(0, ...t.cats.map((c) => ctx.measureText(c).width));
  const catShown = !!catAx && attr(child(catAx, NS.c, 'delete'), 'val') !== '1';
  const angle = (i: number): number => -Math.PI / 2 + (i * 2 * Math.PI) / n;
  // the polygon's own extent (a pentagon reaches 0.81 of its radius below the centre and
  // 0.95 to the sides): the radius as large as the plot allows with the labels outside it,
  // the polygon centred
  let across = 0;
  let below = 0;
  for (let i = 0; i < n; i++) {
    across = Math.max(across, Math.abs(Math.cos(angle(i))));
    below = Math.max(below, Math.sin(angle(i))); // ≥ 0: the first spoke points up
  }
  const padX = catShown ? widest + 6 : 2;
  const padY = catShown ? lineH + 4 : 2;
  const radius = Math.max(4, Math.min((plotR.w / 2 - padX) / Math.max(0.5, across), (plotR.h - 2 * padY) / (1 + below)));
  const cx = plotR.x + plotR.w / 2;
  const cy = plotR.y + (plotR.h - radius * (1 + below)) / 2 + radius;
  const values = plot.series.flatMap((s) => s.values);
  const hi0 = Math.max(0, ...values);
  const lo = Math.min(0, ...values);
  // rings at least 1.5 lines apart, as a value axis' gridlines
  const step = niceStep(Math.max(1e-9, ((hi0 - lo) * 1.05) / Math.max(1, radius / (t.txSz * 1.5))));
  const hi = Math.max(lo + step, Math.ceil((hi0 + 0.05 * (hi0 - lo)) / step - 1e-9) * step);
  const at = (i: number, v: number): [number, number] => {
    const k = ((v - lo) / (hi - lo)) * radius;
    return [cx + Math.cos(angle(i)) * k, cy + Math.sin(angle(i)) * k];
  };
  const grey = { color: { r: 134, g: 134, b: 134, a: 1 }, width: 0.75 };
  const grid = child(valAx, NS.c, 'majorGridlines') ? chartLine(child(child(valAx, NS.c, 'majorGridlines'), NS.c, 'spPr'), grey, colors) : undefined;
  const rings = Math.round((hi - lo) / step);
  if (grid) {
    ctx.strokeStyle = css(grid.color);
    ctx.lineWidth = grid.width;
    for (let k = 1; k <= rings; k++) {
      ctx.beginPath();
      for (let i = 0; i < n; i++) { const [x, y] = at(i, lo + k * step); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); }
      ctx.closePath();
      ctx.stroke();
    }
  }
  const spoke = chartLine(child(catAx, NS.c, 'spPr'), grey, colors);
  if (spoke) {
    ctx.strokeStyle = css(spoke.color);
    ctx.lineWidth = spoke.width;
    ctx.beginPath();
    for (let i = 0; i < n; i++) { const [x, y] = at(i, hi); ctx.moveTo(cx, cy); ctx.lineTo(x, y); }
    ctx.stroke();
  }
  const series = style === 'filled' ? plot.series.slice().reverse() : plot.series;
  for (const s of series) {
    const pts = Array.from({ length: n }, (_, i) => at(i, s.values[i] ?? 0));
    ctx.beginPath();
    pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    if (style === 'filled') { ctx.fillStyle = css(s.color); ctx.fill(); }
    else if (s.lineWidth > 0) { ctx.strokeStyle = css(s.color); ctx.lineWidth = s.lineWidth; ctx.lineJoin = 'round'; ctx.stroke(); }
    if (s.marker && style !== 'filled') for (const [x, y] of pts) drawMarker(dc, s.marker, x, y);
  }
  ctx.fillStyle = t.textColor;
  if (valAx && attr(child(valAx, NS.c, 'delete'), 'val') !== '1') {
    const code = attr(child(valAx, NS.c, 'numFmt'), 'sourceLinked') === '1' ? plot.series[0]?.formatCode : attr(child(valAx, NS.c, 'numFmt'), 'formatCode');
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    // every ring labelled while the labels keep 1.5 lines apart, else every second (third …) one
    const every = Math.max(1, Math.ceil((t.txSz * 1.5) / Math.max(1e-6, radius / Math.max(1, rings)) - 1e-9));
    for (let k = 0; k <= rings; k += every) { const [x, y] = at(0, lo + k * step); ctx.fillText(formatNumber(lo + k * step, code), x + 3, y); }
  }
  if (catShown) {
    for (let i = 0; i < n; i++) {
      const a = angle(i);
      const x = cx + Math.cos(a) * (radius + 4);
      const y = cy + Math.sin(a) * (radius + 4);
      const c = Math.cos(a);
      ctx.textAlign = Math.abs(c) < 0.1 ? 'center' : c > 0 ? 'left' : 'right';
      ctx.textBaseline = Math.abs(Math.sin(a)) > 0.9 ? (Math.sin(a) < 0 ? 'bottom' : 'top') : 'middle';
      ctx.fillText(t.cats[i] ?? String(i + 1), x, y);
    }
  }
}

/**
 * Adds a series' line through `pts` to the current path: straight segments, or for a
 * smoothed series (`c:smooth`) a curve through every point — each segment a cubic Bézier
 * whose handles follow the neighbouring points (Catmull-Rom tangents, a sixth of the chord
 * between the neighbours), so the curve keeps the points' order and passes through them.
 */
function traceLine(ctx: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void; bezierCurveTo(a: number, b: number, c: number, d: number, e: number, f: number): void }, pts: ReadonlyArray<readonly [number, number]>, smooth: boolean): void {
  if (!pts.length) return;
  ctx.moveTo(pts[0]![0], pts[0]![1]);
  for (let i = 1; i < pts.length; i++) {
    const p1 = pts[i]!;
    if (!smooth || pts.length < 3) { ctx.lineTo(p1[0], p1[1]); continue; }
    const p0 = pts[i - 1]!;
    const before = pts[i - 2] ?? p0;
    const after = pts[i + 1] ?? p1;
    ctx.bezierCurveTo(p0[0] + (p1[0] - before[0]) / 6, p0[1] + (p1[1] - before[1]) / 6, p1[0] - (after[0] - p0[0]) / 6, p1[1] - (after[1] - p0[1]) / 6, p1[0], p1[1]);
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
