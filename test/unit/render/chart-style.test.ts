/**
 * Chart previews (issue 21 item 6): series colours by the Office 2007 chart style (`c:style`
 * 1–48) from the theme accents, 3-D pies tilted with a side wall, markers and data labels as
 * stored. Every corpus template's charts are taken as they are and restyled (style number,
 * series formatting removed), then rendered and their pixels counted; expected colours are
 * computed here from the theme with DrawingML's shade/tint rule (linear RGB).
 */
import t from 'tap';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { formatNumber } from '../../../core/src/render/chart.js';
import { NS, child, children, parseXml, serializeXml, type Document, type Element } from '../../../core/src/ooxml/xml.js';
import { corpusFilesFor, corpusPath } from '../../helpers/corpus.js';
import { readFileSync } from 'node:fs';

type Rgb = [number, number, number];
const toLin = (v: number): number => { const x = v / 255; return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
const toSrgb = (x: number): number => 255 * (x <= 0.0031308 ? x * 12.92 : 1.055 * x ** (1 / 2.4) - 0.055);
const shade = (c: Rgb, k: number): Rgb => c.map((v) => toSrgb(toLin(v) * k)) as Rgb;
const tint = (c: Rgb, k: number): Rgb => c.map((v) => toSrgb(1 - (1 - toLin(v)) * k)) as Rgb;
const hex = (h: string): Rgb => [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;

/** How many pixels of a PNG are within `tol` of each colour. */
async function counts(png: Uint8Array, colors: Rgb[], tol = 4): Promise<number[]> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, img.width, img.height).data;
  const out = colors.map(() => 0);
  for (let p = 0; p < d.length; p += 4) {
    colors.forEach((col, k) => { if (Math.abs(d[p]! - col[0]) <= tol && Math.abs(d[p + 1]! - col[1]) <= tol && Math.abs(d[p + 2]! - col[2]) <= tol) out[k]!++; });
  }
  return out;
}

/** How many pixels differ (by more than a rounding step) between two PNGs of one size. */
async function differing(a: Uint8Array, b: Uint8Array): Promise<number> {
  const data = async (png: Uint8Array): Promise<Uint8ClampedArray> => {
    const img = await loadImage(Buffer.from(png));
    const c = createCanvas(img.width, img.height);
    c.getContext('2d').drawImage(img, 0, 0);
    return c.getContext('2d').getImageData(0, 0, img.width, img.height).data;
  };
  const [x, y] = [await data(a), await data(b)];
  let n = 0;
  for (let p = 0; p < x.length; p += 4) if (Math.abs(x[p]! - y[p]!) + Math.abs(x[p + 1]! - y[p + 1]!) + Math.abs(x[p + 2]! - y[p + 2]!) > 6) n++;
  return n;
}

interface ChartCase { pkg: OpcPackage; slide: string; chart: string; accents: Rgb[]; plot: string }

const typeEnds = (rel: { type: string }, name: string): boolean => rel.type.endsWith(`/${name}`);

/** The charts of a template (without a theme override) with the slide showing them and the theme's accents. */
async function chartsOf(file: string): Promise<ChartCase[]> {
  const pkg = await OpcPackage.open(readFileSync(file));
  const out: ChartCase[] = [];
  for (const slide of pkg.partNames().filter((p) => /^\/ppt\/slides\/slide\d+\.xml$/.test(p))) {
    const layout = pkg.rels(slide).find((r) => typeEnds(r, 'slideLayout'))?.targetPartName;
    const master = layout ? pkg.rels(layout).find((r) => typeEnds(r, 'slideMaster'))?.targetPartName : undefined;
    const theme = master ? pkg.rels(master).find((r) => typeEnds(r, 'theme'))?.targetPartName : undefined;
    if (!theme) continue;
    const scheme = pkg.getXml(theme).getElementsByTagNameNS(NS.a, 'clrScheme')[0];
    const accents = [1, 2, 3, 4, 5, 6].map((i) => {
      const slot = scheme ? child(scheme, NS.a, `accent${i}`) : undefined;
      const c = slot ? children(slot, NS.a)[0] : undefined;
      return c?.getAttribute(c.localName === 'sysClr' ? 'lastClr' : 'val') ?? '';
    });
    if (accents.some((a) => !/^[0-9A-Fa-f]{6}$/.test(a))) continue;
    for (const rel of pkg.rels(slide).filter((r) => typeEnds(r, 'chart'))) {
      const chart = rel.targetPartName;
      if (!chart || !pkg.hasPart(chart) || pkg.rels(chart).some((r) => typeEnds(r, 'themeOverride'))) continue;
      const plotArea = pkg.getXml(chart).getElementsByTagNameNS(NS.c, 'plotArea')[0];
      const plot = plotArea ? children(plotArea, NS.c).find((e) => /Chart$/.test(e.localName ?? '')) : undefined;
      if (plot) out.push({ pkg, slide, chart, accents: accents.map(hex), plot: plot.localName ?? '' });
    }
  }
  return out;
}

/**
 * The chart rewritten: style `style`, one plot of kind `kind` with its series (at most
 * `maxSeries`) stripped of their own formatting, varyColors off, other plots removed;
 * `edit` changes each series further.
 */
function restyle(doc: Document, style: number, kind: string | undefined, maxSeries: number, edit?: (ser: Element, i: number) => void): Document {
  const out = parseXml(serializeXml(doc), 'chart');
  const space = out.documentElement!;
  for (const el of children(space, NS.c, 'style').concat(children(space, NS.mc, 'AlternateContent'))) space.removeChild(el);
  const st = out.createElementNS(NS.c, 'c:style');
  st.setAttribute('val', String(style));
  space.insertBefore(st, child(space, NS.c, 'chart') ?? null);
  const plotArea = out.getElementsByTagNameNS(NS.c, 'plotArea')[0]!;
  const plots = children(plotArea, NS.c).filter((e) => /Chart$/.test(e.localName ?? ''));
  for (const p of plots.slice(1)) plotArea.removeChild(p);
  let plot = plots[0]!;
  if (kind && plot.localName !== kind) {
    const renamed = out.createElementNS(NS.c, `c:${kind}`);
    while (plot.firstChild) renamed.appendChild(plot.firstChild);
    plotArea.replaceChild(renamed, plot);
    plot = renamed;
  }
  const vary = child(plot, NS.c, 'varyColors');
  if (vary) vary.setAttribute('val', kind?.startsWith('pie') ? '1' : '0');
  children(plot, NS.c, 'ser').forEach((ser, i) => {
    if (i >= maxSeries) { plot.removeChild(ser); return; }
    for (const name of ['spPr', 'dPt', 'dLbls', 'marker']) for (const e of children(ser, NS.c, name)) ser.removeChild(e);
    edit?.(ser, i);
  });
  for (const e of children(plot, NS.c, 'dLbls')) plot.removeChild(e);
  return out;
}

async function render(c: ChartCase, doc: Document): Promise<Uint8Array> {
  const original = c.pkg.getXml(c.chart);
  c.pkg.setXml(c.chart, doc);
  try {
    return (await renderSlide(c.pkg, c.slide, { widthPx: 960 })).png;
  } finally {
    c.pkg.setXml(c.chart, original);
  }
}

const sers = (doc: Document): Element[] => Array.from(doc.getElementsByTagNameNS(NS.c, 'ser'));

for (const file of corpusFilesFor(t, 'templates')) {
  t.test(file, async (t) => {
    const cases = (await chartsOf(corpusPath(`templates/${file}`))).filter((c) => /^(bar|line|area)Chart$/.test(c.plot));
    const c = cases.find((k) => sers(k.pkg.getXml(k.chart)).length >= 1);
    if (!c) { t.pass('no 2-D bar, line or area chart'); return; }
    const doc = c.pkg.getXml(c.chart);
    const [a1, a2, a3] = c.accents as [Rgb, Rgb, Rgb, ...Rgb[]];
    // Three series for the pattern; the template's first series' values repeated when it has fewer.
    const three = (d: Document): Document => {
      const list = sers(d);
      const plot = list[0]!.parentNode as Element;
      for (let i = list.length; i < 3; i++) plot.insertBefore(list[0]!.cloneNode(true), list[list.length - 1]!.nextSibling);
      sers(d).forEach((s, i) => { const idx = child(s, NS.c, 'idx'); if (idx) idx.setAttribute('val', String(i)); });
      return d;
    };
    const bars = (style: number): Document => three(restyle(doc, style, 'barChart', 3));
    // Style 2: the accents in order.
    const [n1, n2, n3] = await counts(await render(c, bars(2)), [a1, a2, a3]);
    t.ok(n1! > 20 && n2! > 20 && n3! > 20, `style 2: series in accents 1, 2, 3 (${n1}, ${n2}, ${n3} px)`);
    // Style 3: accent 1 only — a 35 % shade, the accent, a 35 % tint; no accent 2.
    const one = await counts(await render(c, bars(3)), [shade(a1, 0.65), a1, tint(a1, 0.65), a2]);
    t.ok(one[0]! > 20 && one[1]! > 20 && one[2]! > 20, `style 3: shade, accent 1, tint (${one.slice(0, 3).join(', ')} px)`);
    t.equal(one[3], 0, 'style 3: accent 2 is not used');
    // Style 5: the third accent's shades.
    const five = await counts(await render(c, bars(5)), [a3, a1]);
    t.ok(five[0]! > 20, `style 5: accent 3 (${five[0]} px)`);
    // Style 1: greys (tints of dk1), not the accents.
    const grey = await counts(await render(c, bars(1)), [a1, a2]);
    t.same(grey, [0, 0], 'style 1: no accent colour');
    // Markers as stored: a line series with square markers paints more of its colour than without.
    const line = (symbol: string): Document => restyle(doc, 2, 'lineChart', 1, (ser) => {
      const m = ser.ownerDocument!.createElementNS(NS.c, 'c:marker');
      m.appendChild(parseXml(`<c:symbol xmlns:c="${NS.c}" val="${symbol}"/>`, 'm').documentElement!);
      m.appendChild(parseXml(`<c:size xmlns:c="${NS.c}" val="12"/>`, 'm').documentElement!);
      ser.insertBefore(m, child(ser, NS.c, 'cat') ?? child(ser, NS.c, 'val') ?? null);
    });
    const [plain] = await counts(await render(c, line('none')), [a1]);
    const [marked] = await counts(await render(c, line('square')), [a1]);
    t.ok(marked! > plain! + 40, `square markers add pixels of the series colour (${plain} → ${marked})`);
    // Data labels as stored: showVal adds label text to the chart.
    const labelled = (on: boolean): Document => restyle(doc, 2, 'barChart', 1, (ser) => {
      if (!on) return;
      ser.insertBefore(parseXml(`<c:dLbls xmlns:c="${NS.c}"><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="0"/></c:dLbls>`, 'l').documentElement!, child(ser, NS.c, 'cat') ?? child(ser, NS.c, 'val') ?? null);
    });
    const changed = await differing(await render(c, labelled(false)), await render(c, labelled(true)));
    t.ok(changed > 40, `value labels are drawn (${changed} px change)`);
    // A 3-D pie has a side wall: the first slice's colour darkened, which a flat pie lacks.
    const pie = (kind: string): Document => restyle(doc, 2, kind, 1);
    // Style 2 colours point i of n: accent (i mod 6), each repetition of the six shaded or
    // tinted as a whole, evenly from −70 % to +70 % exclusive.
    const n = Number(sers(doc)[0]!.getElementsByTagNameNS(NS.c, 'ptCount')[1]?.getAttribute('val') ?? sers(doc)[0]!.getElementsByTagNameNS(NS.c, 'ptCount')[0]?.getAttribute('val') ?? 6);
    const cycles = Math.floor((n - 1) / 6) + 1;
    const styled = Array.from({ length: n }, (_, i) => {
      const f = ((Math.floor(i / 6) + 1) / (cycles + 1)) * 1.4 - 0.7;
      const a = c.accents[i % 6]!;
      return Math.abs(f) < 1e-9 ? a : f < 0 ? shade(a, 1 + f) : tint(a, 1 - f);
    });
    const walls = styled.map((a) => a.map((v) => v * 0.7) as Rgb);
    const sum = (xs: number[]): number => xs.reduce((x, y) => x + y, 0);
    const flat = sum(await counts(await render(c, pie('pieChart')), walls, 2));
    const tiltedPng = await render(c, pie('pie3DChart'));
    const tilted = sum(await counts(tiltedPng, walls, 2));
    const [top] = await counts(tiltedPng, [styled[0]!], 2);
    t.ok(tilted > flat + 20 && top! > 20, `pie3DChart: top in the style's first colour and darker side walls (${flat} → ${tilted} px)`);
  });
}

t.test('number formats of axes and labels', async (t) => {
  t.equal(formatNumber(0.25, '0%'), '25%');
  t.equal(formatNumber(-0.155, '0.0%'), '-15.5%');
  t.equal(formatNumber(1234567.8, '#,##0'), '1,234,568');
  t.equal(formatNumber(97.5122, '0.0'), '97.5');
  t.equal(formatNumber(2.5, undefined), '2.5');
  t.equal(formatNumber(-0.0001, '0.0'), '0.0');
});
