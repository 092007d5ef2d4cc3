/**
 * Charts drawn simply from their caches (ECMA-376 Part 1, §21.2: `c:chartSpace`,
 * `c:plotArea`, `c:ser` with `c:cat`/`c:val` string and number caches): column/bar
 * (clustered or stacked), line, area and pie/doughnut, with title, value gridlines,
 * category labels and a legend; any other chart type as a labeled box.
 */
import { Path2D } from '@napi-rs/canvas';
import type { Shape } from '../ooxml/pml/shapes.js';
import { NS, attr, attrNS, child, children, intAttr, parseXml, type Element } from '../ooxml/xml.js';
import { colorIn, css, hexToRgba, type Rgba } from '../ooxml/pml/color.js';
import { DrawContext, fillColor, fillOf, paintFill, type RectPt, type ResolvedFill } from './draw-context.js';
import { cssFont } from './fonts.js';
import { shapeFromAttributes } from '../text/font-class.js';

interface Series {
  name: string;
  values: number[];
  color: Rgba;
  /** How the series' bars and areas are filled (undefined: solid {@link color}). */
  fill: ResolvedFill | undefined;
  pointColors: Map<number, Rgba>;
}

/**
 * The chart's built-in style number (`c:style`, §21.2.2.196, 1–48), read from the chart space
 * or its markup-compatibility fallback; 2 (PowerPoint's default) when absent.
 */
function chartStyleOf(space: Element | undefined): number {
  if (!space) return 2;
  let el = child(space, NS.c, 'style');
  if (!el) {
    for (const ac of children(space, NS.mc, 'AlternateContent')) {
      el = child(child(ac, NS.mc, 'Fallback'), NS.c, 'style');
      if (el) break;
    }
  }
  const v = intAttr(el, 'val', 2);
  return v >= 1 && v <= 48 ? v : 2;
}

/**
 * The theme fill a chart style gives filled series (bars, areas) when they set none: the 48
 * built-in styles are six rows of eight; rows 3, 4 and 6 (styles 17–32, 41–48) fill with the
 * theme's intense fill style (`a:fillStyleLst`, third entry, usually a shaded gradient) in the
 * series colour, the others with the plain colour.
 */
function styleSeriesFill(dc: DrawContext, style: number, color: Rgba, part: string): ResolvedFill | undefined {
  const row = Math.ceil(style / 8);
  if (row !== 3 && row !== 4 && row !== 6) return undefined;
  const el = dc.formatScheme().fill[2];
  return el ? { el, colors: { ...dc.colors, phClr: color }, part: dc.theme.partName ?? part } : undefined;
}

function cacheStrings(src: Element | undefined): string[] {
  const out: string[] = [];
  if (!src) return out;
  const cache = src.getElementsByTagNameNS(NS.c, 'strCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'numCache')[0] ?? src.getElementsByTagNameNS(NS.c, 'strLit')[0] ?? src.getElementsByTagNameNS(NS.c, 'lvl')[0];
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

const PLOTS = ['barChart', 'bar3DChart', 'lineChart', 'line3DChart', 'pieChart', 'pie3DChart', 'doughnutChart', 'areaChart', 'area3DChart', 'scatterChart', 'radarChart', 'bubbleChart', 'ofPieChart', 'stockChart', 'surfaceChart', 'surface3DChart'];

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
  const plot = plotArea ? children(plotArea, NS.c).find((e) => PLOTS.includes(e.localName ?? '')) : undefined;
  if (!plot) return labeledBox(dc, r, 'Chart');
  const kind = plot.localName ?? '';
  const chartStyle = chartStyleOf(space ?? undefined);
  const accents = ['accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6'].map((a) => hexToRgba(dc.theme.colors[a as 'accent1']) ?? { r: 79, g: 129, b: 189, a: 1 });
  const series: Series[] = children(plot, NS.c, 'ser').map((ser, i) => {
    const spPr = child(ser, NS.c, 'spPr');
    const solid = child(spPr, NS.a, 'solidFill') ?? child(child(spPr, NS.a, 'ln'), NS.a, 'solidFill');
    const pointColors = new Map<number, Rgba>();
    for (const dPt of children(ser, NS.c, 'dPt')) {
      const c = colorIn(child(child(dPt, NS.c, 'spPr'), NS.a, 'solidFill'), dc.colors);
      if (c) pointColors.set(intAttr(child(dPt, NS.c, 'idx'), 'val', 0), c);
    }
    const own = fillOf(spPr);
    const color = colorIn(solid, dc.colors) ?? (own?.localName === 'gradFill' ? fillColor({ el: own, colors: dc.colors, part: partName }) : undefined) ?? accents[i % 6]!;
    return {
      name: cacheStrings(child(ser, NS.c, 'tx'))[0] ?? `Series ${i + 1}`,
      values: cacheNumbers(child(ser, NS.c, 'val') ?? child(ser, NS.c, 'yVal')),
      color,
      fill: own ? (own.localName === 'gradFill' ? { el: own, colors: dc.colors, part: partName } : undefined) : styleSeriesFill(dc, chartStyle, color, partName),
      pointColors,
    };
  });
  const firstSer = children(plot, NS.c, 'ser')[0];
  const cats = cacheStrings(child(firstSer, NS.c, 'cat') ?? child(firstSer, NS.c, 'xVal'));
  const nCat = Math.max(cats.length, ...series.map((s) => s.values.length), 0);
  // Chart area fill: white unless the chart says otherwise.
  const csSpPr = child(space ?? undefined, NS.c, 'spPr');
  const bg = colorIn(child(csSpPr, NS.a, 'solidFill'), dc.colors);
  if (!child(csSpPr, NS.a, 'noFill')) {
    ctx.fillStyle = css(bg ?? { r: 255, g: 255, b: 255, a: 1 });
    ctx.fillRect(r.x, r.y, r.w, r.h);
  }
  // Text: the chart's own text colour (c:txPr), else the style's tx1 (Office 2007 chart styles 1–32).
  const spaceTxColor = colorIn(child(firstRPr(child(space ?? undefined, NS.c, 'txPr')), NS.a, 'solidFill'), dc.colors);
  const textColor = css(spaceTxColor ?? colorIn(TX1_FILL, dc.colors) ?? { r: 0, g: 0, b: 0, a: 1 });
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
  if (titleEl) {
    const ts = titleEl.getElementsByTagNameNS(NS.a, 't');
    title = ts.length ? Array.from(ts).map((t) => t.textContent ?? '').join('') : series.length === 1 ? series[0]!.name : 'Chart Title';
  } else if (!autoDeleted && series.length === 1 && (kind.startsWith('pie') || kind === 'doughnutChart')) title = series[0]!.name;
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
  const isPie = kind.startsWith('pie') || kind === 'doughnutChart' || kind === 'ofPieChart';
  const legendItems = isPie ? cats.map((c, i) => ({ name: c, color: series[0]?.pointColors.get(i) ?? accents[i % 6]! })) : series.map((s) => ({ name: s.name, color: s.color }));
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
  if (isPie) {
    const vals = series[0]?.values ?? [];
    const total = vals.reduce((s, v) => s + Math.max(0, v), 0) || 1;
    const cx = plotR.x + plotR.w / 2;
    const cy = plotR.y + plotR.h / 2;
    const rad = Math.max(1, Math.min(plotR.w, plotR.h) / 2 * 0.9);
    let a = -Math.PI / 2 + ((intAttr(child(plot, NS.c, 'firstSliceAng'), 'val', 0) * Math.PI) / 180);
    vals.forEach((v, i) => {
      const sw = (Math.max(0, v) / total) * Math.PI * 2;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.arc(cx, cy, rad, a, a + sw);
      ctx.closePath();
      ctx.fillStyle = css(series[0]?.pointColors.get(i) ?? accents[i % 6]!);
      ctx.fill();
      ctx.strokeStyle = '#FFFFFF';
      ctx.lineWidth = 0.75;
      ctx.stroke();
      a += sw;
    });
    if (kind === 'doughnutChart') {
      ctx.beginPath();
      ctx.arc(cx, cy, rad * 0.5, 0, Math.PI * 2);
      ctx.fillStyle = css(bg ?? { r: 255, g: 255, b: 255, a: 1 });
      ctx.fill();
    }
    return;
  }
  if (!['barChart', 'bar3DChart', 'lineChart', 'line3DChart', 'areaChart', 'area3DChart'].includes(kind) || nCat === 0) {
    return labeledBox(dc, r, kind.replace(/Chart$/, ' chart'));
  }
  const horizontal = attr(child(plot, NS.c, 'barDir'), 'val') === 'bar';
  const grouping = attr(child(plot, NS.c, 'grouping'), 'val') ?? 'clustered';
  const stacked = grouping === 'stacked' || grouping === 'percentStacked';
  let maxV = 0;
  let minV = 0;
  for (let i = 0; i < nCat; i++) {
    if (stacked) {
      let pos = 0;
      let neg = 0;
      for (const s of series) { const v = s.values[i] ?? 0; if (v >= 0) pos += v; else neg += v; }
      maxV = Math.max(maxV, pos);
      minV = Math.min(minV, neg);
    } else for (const s of series) { maxV = Math.max(maxV, s.values[i] ?? 0); minV = Math.min(minV, s.values[i] ?? 0); }
  }
  if (grouping === 'percentStacked') { maxV = 1; minV = 0; }
  /** The smallest "nice" step (1, 2 or 5 × 10^n) at least `raw`. */
  const niceAtLeast = (raw: number): number => {
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw - 1e-12) return m * p;
    return 10 * p;
  };
  const catAx = plotArea ? children(plotArea, NS.c).find((e) => e.localName === 'catAx' || e.localName === 'dateAx') : undefined;
  const valAx = plotArea ? child(plotArea, NS.c, 'valAx') : undefined;
  const shown = (ax: Element | undefined): boolean => !!ax && attr(child(ax, NS.c, 'delete'), 'val') !== '1' && attr(child(ax, NS.c, 'tickLblPos'), 'val') !== 'none';
  const catLabels = shown(catAx);
  const valLabels = shown(valAx);
  const valLine = !!valAx && attr(child(valAx, NS.c, 'delete'), 'val') !== '1';
  const gridlines = !!child(valAx, NS.c, 'majorGridlines');
  const midCat = attr(child(valAx, NS.c, 'crossBetween'), 'val') === 'midCat';
  const valTick = attr(child(valAx, NS.c, 'majorTickMark'), 'val') ?? 'cross';
  const axisColor = (ax: Element | undefined): string => {
    const c = colorIn(child(firstRPr(child(ax, NS.c, 'txPr')), NS.a, 'solidFill'), dc.colors);
    return c ? css(c) : textColor;
  };
  ctx.font = font(txSz);
  const fmt = (v: number): string => (grouping === 'percentStacked' ? `${Math.round(v * 100)}%` : String(Math.round(v * 1000) / 1000));
  const catW = catLabels ? Math.min(plotR.w * 0.3, Math.max(...cats.map((c) => ctx.measureText(c).width), 10) + 6) : 2;
  const lineH = txSz * 1.3;
  // The value axis: a nice step for at most ten intervals, widened until its labels do not collide.
  let step = niceAtLeast((maxV - minV) / 10 || 1);
  if (grouping === 'percentStacked') step = 0.1;
  let top2 = 1;
  let bottom = 0;
  let area: RectPt = plotR;
  for (let attempt = 0; attempt < 6; attempt++) {
    // The automatic maximum: the largest value plus 5 % of the range, rounded up to the step.
    top2 = grouping === 'percentStacked' ? 1 : Math.max(step, Math.ceil((maxV + 0.05 * (maxV - minV)) / step - 1e-9) * step);
    bottom = minV < 0 ? -Math.ceil(-minV / step - 1e-9) * step : 0;
    const widest = Math.max(ctx.measureText(fmt(top2)).width, ctx.measureText(fmt(bottom)).width);
    const labelW = valLabels ? widest + 6 : 2;
    // Value labels centred under the ends of a horizontal value axis stay inside the chart.
    const half = horizontal && valLabels ? ctx.measureText(fmt(top2)).width / 2 : 0;
    const halfFirst = horizontal && valLabels ? Math.max(0, ctx.measureText(fmt(bottom)).width / 2 - catW) : 0;
    area = horizontal
      ? { x: plotR.x + catW + halfFirst, y: plotR.y, w: plotR.w - catW - halfFirst - half, h: plotR.h - (valLabels ? lineH : 2) }
      : { x: plotR.x + labelW, y: plotR.y + txSz / 2, w: plotR.w - labelW, h: plotR.h - txSz / 2 - (catLabels ? lineH : 2) };
    const n = Math.max(1, Math.round((top2 - bottom) / step));
    const room = horizontal ? area.w / n : area.h / n;
    // Labels may touch but not overlap.
    if (!valLabels || room >= (horizontal ? widest : txSz)) break;
    step = niceAtLeast(step * 1.01);
  }
  const span = top2 - bottom || 1;
  const steps = Math.max(1, Math.round(span / step));
  ctx.strokeStyle = 'rgba(134,134,134,1)';
  ctx.lineWidth = 0.75;
  ctx.fillStyle = axisColor(valAx);
  const tick = valTick === 'out' || valTick === 'cross' ? 4 : 0;
  for (let k = 0; k <= steps; k++) {
    const v = bottom + (span * k) / steps;
    const label = fmt(v);
    if (horizontal) {
      const x = area.x + (area.w * k) / steps;
      if (gridlines) { ctx.beginPath(); ctx.moveTo(x, area.y); ctx.lineTo(x, area.y + area.h); ctx.stroke(); }
      if (valLine && tick) { ctx.beginPath(); ctx.moveTo(x, area.y + area.h); ctx.lineTo(x, area.y + area.h + tick); ctx.stroke(); }
      if (valLabels) { ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillText(label, x, area.y + area.h + 2); }
    } else {
      const y = area.y + area.h - (area.h * k) / steps;
      if (gridlines) { ctx.beginPath(); ctx.moveTo(area.x, y); ctx.lineTo(area.x + area.w, y); ctx.stroke(); }
      if (valLine && tick) { ctx.beginPath(); ctx.moveTo(area.x - tick, y); ctx.lineTo(area.x, y); ctx.stroke(); }
      if (valLabels) { ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.fillText(label, area.x - 4, y); }
    }
  }
  const slot = (horizontal ? area.h : area.w) / nCat;
  const valuePos = (v: number): number => (horizontal ? area.x + ((v - bottom) / span) * area.w : area.y + area.h - ((v - bottom) / span) * area.h);
  for (let i = 0; i < nCat && catLabels; i++) {
    ctx.fillStyle = axisColor(catAx);
    const label = cats[i] ?? String(i + 1);
    if (horizontal) { ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.fillText(label, area.x - 4, area.y + area.h - slot * (i + 0.5)); }
    else { ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillText(label, area.x + slot * (i + 0.5), area.y + area.h + 3); }
  }
  if (kind.startsWith('bar')) {
    const gap = intAttr(child(plot, NS.c, 'gapWidth'), 'val', 150) / 100;
    // gapWidth is the space between clusters as a share of one bar's width.
    const perCluster = stacked ? 1 : Math.max(1, series.length);
    const barW = slot / (perCluster + gap);
    const group = barW * perCluster;
    for (let i = 0; i < nCat; i++) {
      let pos = 0;
      let neg = 0;
      const total = series.reduce((s, x) => s + Math.abs(x.values[i] ?? 0), 0) || 1;
      for (let si = 0; si < series.length; si++) {
        const s = series[si]!;
        let v = s.values[i] ?? 0;
        if (grouping === 'percentStacked') v = v / total;
        const start = stacked ? (v >= 0 ? pos : neg) : 0;
        const end = start + v;
        if (stacked) { if (v >= 0) pos = end; else neg = end; }
        const offset = (slot - group) / 2 + (stacked ? 0 : si * barW);
        const a = valuePos(Math.max(bottom, Math.min(start, end)));
        const b = valuePos(Math.max(start, end));
        const bar: RectPt = horizontal
          ? { x: a, y: area.y + area.h - slot * i - offset - barW, w: b - a, h: barW }
          : { x: area.x + slot * i + offset, y: b, w: barW, h: a - b };
        await fillSeriesRect(dc, s, i, bar);
      }
    }
  } else {
    const isArea = kind.startsWith('area');
    const acc = new Array<number>(nCat).fill(0);
    const totals = Array.from({ length: nCat }, (_, i) => series.reduce((t2, x) => t2 + Math.abs(x.values[i] ?? 0), 0) || 1);
    const xAt = (i: number): number => (midCat && nCat > 1 ? area.x + (area.w * i) / (nCat - 1) : area.x + slot * (i + 0.5));
    const polys: Array<{ s: Series; pts: Array<[number, number]>; base: Array<[number, number]> }> = [];
    for (const s of series) {
      const pts: Array<[number, number]> = [];
      const base: Array<[number, number]> = [];
      for (let i = 0; i < nCat; i++) {
        let v = s.values[i] ?? 0;
        if (grouping === 'percentStacked') v = v / totals[i]!;
        base.push([xAt(i), valuePos(stacked ? acc[i]! : Math.max(bottom, 0))]);
        v += stacked ? acc[i]! : 0;
        if (stacked) acc[i] = v;
        pts.push([xAt(i), valuePos(v)]);
      }
      polys.push({ s, pts, base });
    }
    // Areas are drawn last series first: stacked bands each show, and overlapping areas have
    // the first series in front (as LibreOffice draws them).
    for (const { s, pts, base } of isArea ? polys.slice().reverse() : polys) {
      ctx.beginPath();
      pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      if (isArea) {
        const floor = stacked ? base : base.map(([x]) => [x, valuePos(Math.max(bottom, 0))] as [number, number]);
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
      } else {
        ctx.strokeStyle = css(s.color);
        ctx.lineWidth = 2.25;
        ctx.lineJoin = 'round';
        ctx.stroke();
      }
    }
  }
  // Axis lines: the category axis where the values cross zero, the value axis along the plot's edge.
  ctx.strokeStyle = 'rgba(134,134,134,1)';
  ctx.lineWidth = 0.75;
  ctx.beginPath();
  if (horizontal) { ctx.moveTo(valuePos(0), area.y); ctx.lineTo(valuePos(0), area.y + area.h); }
  else { ctx.moveTo(area.x, valuePos(0)); ctx.lineTo(area.x + area.w, valuePos(0)); }
  if (valLine) {
    if (horizontal) { ctx.moveTo(area.x, area.y + area.h); ctx.lineTo(area.x + area.w, area.y + area.h); }
    else { ctx.moveTo(area.x, area.y); ctx.lineTo(area.x, area.y + area.h); }
  }
  ctx.stroke();
}

/** The first `a:defRPr` of a `c:txPr` (chart or axis text properties). */
function firstRPr(txPr: Element | undefined): Element | undefined {
  return txPr ? txPr.getElementsByTagNameNS(NS.a, 'defRPr')[0] : undefined;
}

/** Text colour when a chart names none: tx1 through the colour map. */
const TX1_FILL: Element = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="tx1"/></a:solidFill>`, 'chart text colour').documentElement!;

/** Fills one bar (a rectangle in points) of series `s` at category `i`: its point colour, its fill, else its colour. */
async function fillSeriesRect(dc: DrawContext, s: Series, i: number, bar: RectPt): Promise<void> {
  const point = s.pointColors.get(i);
  if (!point && s.fill && bar.w > 0 && bar.h > 0) {
    const path = new Path2D();
    path.rect(bar.x, bar.y, bar.w, bar.h);
    await paintFill(dc, s.fill, path, bar);
    return;
  }
  dc.ctx.fillStyle = css(point ?? s.color);
  dc.ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
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
