/**
 * Chart previews laid out as the chart part says (issue 21 item 6): a plot area's manual
 * layout (`c:manualLayout`, §21.2.2.95) with its border (`c:plotArea/c:spPr`), and category
 * labels turned 45° when they do not fit their slots (as PowerPoint lays them out) instead
 * of every n-th one. Corpus slides rendered and their pixels inspected.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { formatValue } from '../../../core/src/render/chart.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const TEMPLATE = 'incoming/templates/poi-aascu-6masters-combo-chart.pptx';
/** Slide width of the template, EMU (10 in). */
const SLIDE_CX = 9144000;
const WIDTH_PX = 800;

/** A rendered slide's RGBA pixels (of {@link TEMPLATE} unless another corpus file is named). */
async function pixels(slide: string, file = TEMPLATE): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
  const out = await renderSlide(pkg, slide, { widthPx: WIDTH_PX });
  const img = await loadImage(Buffer.from(out.png));
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  return { data: c.getContext('2d').getImageData(0, 0, img.width, img.height).data, width: img.width, height: img.height };
}

const px = (emu: number): number => (emu * WIDTH_PX) / SLIDE_CX;

t.test('a plot area with a manual inner layout has its border where the layout puts it', needsCorpus(TEMPLATE), async (t) => {
  // Slide 7: frame at (50800, 584200) 8985250 × 6223000 EMU; chart2's plot area: inner,
  // x 0.0444, y 0.0343, w 0.9456, h 0.8157, outlined 1 pt in tx1 (black).
  const { data, width } = await pixels('/ppt/slides/slide7.xml');
  const frame = { x: px(50800), y: px(584200), w: px(8985250), h: px(6223000) };
  const left = Math.round(frame.x + 0.044395 * frame.w);
  const top = Math.round(frame.y + 0.034258 * frame.h);
  const right = Math.round(frame.x + (0.044395 + 0.945616) * frame.w);
  const bottom = Math.round(frame.y + (0.034258 + 0.815661) * frame.h);
  const dark = (x: number, y: number): boolean => { const p = (y * width + x) * 4; return data[p]! + data[p + 1]! + data[p + 2]! < 200; };
  const darkNear = (x: number, y: number): boolean => [-1, 0, 1].some((d) => dark(x + d, y) || dark(x, y + d));
  let topHits = 0;
  let leftHits = 0;
  for (let x = left + 5; x < right - 5; x++) if (darkNear(x, top)) topHits++;
  for (let y = top + 5; y < bottom - 5; y++) if (darkNear(left, y)) leftHits++;
  t.ok(topHits >= 0.95 * (right - left - 10), `top border at y=${top}: ${topHits} of ${right - left - 10} columns dark`);
  t.ok(leftHits >= 0.95 * (bottom - top - 10), `left border at x=${left}: ${leftHits} of ${bottom - top - 10} rows dark`);
});

t.test('crowded category labels are turned, not thinned out', needsCorpus(TEMPLATE), async (t) => {
  // Slide 5: 20 categories ("100 years and over" … "Under 5 years") under a column chart
  // too narrow for them on one line. Turned 45°, the labels fill a band several lines tall
  // under the axis; thinned out to every n-th one they would be one line.
  const { data, width, height } = await pixels('/ppt/slides/slide5.xml');
  const bar = (x: number, y: number): boolean => { const p = (y * width + x) * 4; return Math.abs(data[p]! - 0x2f) < 30 && Math.abs(data[p + 1]! - 0xa4) < 40 && Math.abs(data[p + 2]! - 0xc0) < 40; };
  // The chart's frame: (228600, 914400) 8534400 × 5334000 EMU; the axis: its lowest row that
  // crosses many bars (the master's teal swoosh, under the frame's bottom left, is one run).
  const frame = { x: px(228600), y: px(914400), w: px(8534400), h: px(5334000) };
  const barRuns = (y: number): number => {
    let runs = 0;
    for (let x = Math.round(frame.x), inBar = false; x < frame.x + frame.w; x++) {
      const b = bar(x, y);
      if (b && !inBar) runs++;
      inBar = b;
    }
    return runs;
  };
  let axis = 0;
  for (let y = Math.round(frame.y); y < Math.min(height, frame.y + frame.h); y++) if (barRuns(y) >= 10) axis = y;
  t.ok(axis > 0, `bars found (axis at y=${axis})`);
  const inkRows = new Set<number>();
  for (let y = axis + 2; y < Math.min(height, axis + 120); y++) {
    for (let x = Math.round(frame.x); x < frame.x + frame.w; x++) {
      const p = (y * width + x) * 4;
      if (data[p]! + data[p + 1]! + data[p + 2]! < 150) { inkRows.add(y); break; }
    }
  }
  // Rows with text from the axis down, without a gap.
  const first = [...inkRows].sort((a, b) => a - b)[0] ?? axis;
  let band = 0;
  while (first - axis < 10 && (inkRows.has(first + band) || inkRows.has(first + band + 1))) band++;
  t.ok(band >= 40, `labels fill ${band} px under the axis (one line is about 12 px)`);
  // Turned labels start at their tick and run down to the left: every category has ink
  // just under its tick.
  let ticked = 0;
  const columns: number[] = [];
  for (let x = Math.round(frame.x); x < frame.x + frame.w; x++) if (bar(x, axis - 3)) columns.push(x);
  const starts = columns.filter((x, i) => i === 0 || x - columns[i - 1]! > 3);
  for (const x0 of starts) {
    let ink = false;
    for (let y = axis + 2; y < axis + 14 && !ink; y++) for (let x = x0 - 10; x < x0 + 16; x++) { const p = (y * width + x) * 4; if (data[p]! + data[p + 1]! + data[p + 2]! < 150) { ink = true; break; } }
    if (ink) ticked++;
  }
  t.ok(starts.length >= 20, `20 bars (${starts.length} runs of bar colour)`);
  t.equal(ticked, starts.length, `a label under every bar (${ticked} of ${starts.length})`);
});

t.test('category numbers are shown in their format: dates as dates', async (t) => {
  // §18.17.4.1 serials: 37261 is 2002-01-05 (1900 system); 1904 system counts from 1904-01-01.
  t.equal(formatValue(37261, 'm/d/yy'), '1/5/02');
  t.equal(formatValue(37261, 'mmm yyyy'), 'Jan 2002');
  t.equal(formatValue(43831, '[$-409]d\\-mmm;@'), '1-Jan');
  t.equal(formatValue(0, 'dd/mm/yyyy', true), '01/01/1904');
  t.equal(formatValue(37261, 'General'), '37261', 'numbers in General lose the cache\'s ".0"');
  t.equal(formatValue(0.25, '0%'), '25%');
});

const RADAR = 'templates/python-pptx-chart-types.pptx';
t.test('radar charts are drawn: a polygon per series over spokes, categories around the rim', needsCorpus(RADAR), async (t) => {
  // Slide 7: three radar charts (standard, marker, filled) of two series over five dates.
  const img = await pixels('/ppt/slides/slide7.xml', RADAR);
  const d = img.data;
  // Series colours of chart style 2 over the Office theme: accent1 4F81BD, accent2 C0504D.
  const near = (p: number, rgb: [number, number, number]): boolean => Math.abs(d[p]! - rgb[0]) < 24 && Math.abs(d[p + 1]! - rgb[1]) < 24 && Math.abs(d[p + 2]! - rgb[2]) < 24;
  let blue = 0;
  let red = 0;
  for (let p = 0; p < d.length; p += 4) { if (near(p, [0x4f, 0x81, 0xbd])) blue++; if (near(p, [0xc0, 0x50, 0x4d])) red++; }
  t.ok(blue > 2000, `first series drawn (${blue} px)`);
  t.ok(red > 1000, `second series drawn (${red} px)`);
  // No "radar chart" placeholder box: its grey (A6A6A6) frame would run across the chart.
  let longest = 0;
  for (let y = 0; y < img.height; y++) {
    let run = 0;
    for (let x = 0; x < img.width; x++) { run = near((y * img.width + x) * 4, [0xa6, 0xa6, 0xa6]) ? run + 1 : 0; longest = Math.max(longest, run); }
  }
  t.ok(longest < 150, `no placeholder frame (longest grey run ${longest} px)`);
});

t.test('smoothed series are drawn as curves through their points', needsCorpus(RADAR), async (t) => {
  // Slide 5: scatter charts of the same three points (0.7, 2.7), (1.8, 3.2), (2.6, 0.8) in
  // frames of one size: "Chart 3" with straight lines, "Chart 6" smoothed (c:smooth). A
  // straight line climbs to the highest point; the curve, with its tangent there following
  // the neighbours, is already at its top further left, well above the straight line.
  const img = await pixels('/ppt/slides/slide5.xml', RADAR);
  const d = img.data;
  const frameW = Math.round(px(2736304));
  /** The first row (from the frame's top) with line colour in each column of a frame. */
  const tops = (offX: number, offY: number): number[] => {
    const x0 = Math.round(px(offX));
    const y0 = Math.round(px(offY));
    return Array.from({ length: frameW }, (_, k) => {
      for (let y = y0; y < y0 + px(1872208); y++) {
        const p = (y * img.width + x0 + k) * 4;
        if (Math.abs(d[p]! - 0x4f) < 30 && Math.abs(d[p + 1]! - 0x81) < 30 && Math.abs(d[p + 2]! - 0xbd) < 30) return y - y0;
      }
      return Infinity;
    });
  };
  const straight = tops(3203848, 692696);
  const smooth = tops(3203848, 4005064);
  // Where the curve is highest, the straight line (climbing to its peak further right) is lower.
  const peak = smooth.indexOf(Math.min(...smooth));
  t.ok(Number.isFinite(smooth[peak]!) && Number.isFinite(straight[peak]!), `lines found (column ${peak}: ${straight[peak]} and ${smooth[peak]} px under their frames)`);
  t.ok(straight[peak]! - smooth[peak]! >= 3, `the curve rises above the straight line there (${straight[peak]! - smooth[peak]!} px)`);
});

t.test('a legend placed in a narrow box stacks its entries', needsCorpus(TEMPLATE), async (t) => {
  // Slide 16: three charts; one legend at the bottom (legendPos b) with a manual layout
  // narrower than its five entries in a row: PowerPoint flows them into rows of that width,
  // here one entry a row, their keys one under the other.
  const { data, width, height } = await pixels('/ppt/slides/slide16.xml');
  const accents: Array<[number, number, number]> = [[0x4f, 0x81, 0xbd], [0xc0, 0x50, 0x4d], [0x9b, 0xbb, 0x59], [0x80, 0x64, 0xa2], [0x4b, 0xac, 0xc6]];
  const keys = accents.map((rgb) => {
    let n = 0;
    let sx = 0;
    let sy = 0;
    for (let y = Math.round(height * 0.75); y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = (y * width + x) * 4;
        if (Math.abs(data[p]! - rgb[0]) < 12 && Math.abs(data[p + 1]! - rgb[1]) < 12 && Math.abs(data[p + 2]! - rgb[2]) < 12) { n++; sx += x; sy += y; }
      }
    }
    return { n, x: sx / Math.max(1, n), y: sy / Math.max(1, n) };
  });
  t.ok(keys.every((k) => k.n >= 20), `five legend keys in the lower quarter (${keys.map((k) => k.n).join(', ')} px)`);
  t.ok(Math.max(...keys.map((k) => k.x)) - Math.min(...keys.map((k) => k.x)) < 3, `keys in one column (x ${keys.map((k) => k.x.toFixed(0)).join(', ')})`);
  t.ok(keys.slice(1).every((k, i) => k.y - keys[i]!.y >= 10), `one under the other (y ${keys.map((k) => k.y.toFixed(0)).join(', ')})`);
});

t.test('without category labels the plot keeps half a value label free under its axis', needsCorpus(RADAR), async (t) => {
  // Slide 3: six line charts whose category axis has c:tickLblPos="none", value labels at
  // 18 pt (c:txPr), no manual layout. LibreOffice fits the axes with their labels into the
  // chart, so the lowest value label ("0", centred on the axis) keeps 9 pt free under the
  // plot as the top label does above it: in its PDF the zero gridline of "Chart 1" (frame
  // (228600, 228600) 2759224 × 2768352 EMU) is 13.4 pt above the frame's bottom edge, and
  // the top gridline 13.3 pt under its top. Only 2 pt were kept there before.
  const img = await pixels('/ppt/slides/slide3.xml', RADAR);
  const d = img.data;
  const frame = { x: px(228600), y: px(228600), w: px(2759224), h: px(2768352) };
  // Gridlines: rows grey (0x86, antialiased) across most of the frame's right half.
  const grey = (p: number): boolean => Math.abs(d[p]! - d[p + 2]!) < 8 && d[p]! > 0x60 && d[p]! < 0xd8;
  const rows: number[] = [];
  for (let y = Math.round(frame.y); y < frame.y + frame.h; y++) {
    let n = 0;
    for (let x = Math.round(frame.x + frame.w * 0.5); x < frame.x + frame.w * 0.95; x++) if (grey((y * img.width + x) * 4)) n++;
    if (n >= 0.8 * frame.w * 0.45) rows.push(y);
  }
  t.ok(rows.length >= 5, `gridlines found (rows ${rows.join(', ')})`);
  const ptPerPx = 720 / WIDTH_PX;
  const below = (frame.y + frame.h - Math.max(...rows)) * ptPerPx;
  const above = (Math.min(...rows) - frame.y) * ptPerPx;
  t.ok(Math.abs(below - 13.4) <= 1, `zero gridline ${below.toFixed(1)} pt above the frame's bottom (LibreOffice: 13.4 pt)`);
  t.ok(Math.abs(below - above) <= 2, `as far from the bottom as the top gridline from the top (${above.toFixed(1)} pt)`);
});

t.test('a value axis with a fixed maximum ends there (c:scaling/c:max)', needsCorpus(TEMPLATE), async (t) => {
  // Slide 16: three clustered column charts of scores relative to 1, each value axis with
  // c:max val="1". The first chart (frame (0, 914400) 3048000 × 4800600 EMU) holds bars at
  // exactly 1: they reach the top gridline, with no gridline above them. With an automatic
  // maximum (1.2, the data's maximum plus 5 % rounded up to the step) the top gridline
  // stood a sixth of the plot's height above the bars.
  const img = await pixels('/ppt/slides/slide16.xml');
  const d = img.data;
  const frame = { x: px(0), y: px(914400), w: px(3048000), h: px(4800600) };
  // The first series' bars (accent 1, #4F81BD): their highest pixel.
  const blue = (p: number): boolean => Math.abs(d[p]! - 0x4f) < 25 && Math.abs(d[p + 1]! - 0x81) < 25 && Math.abs(d[p + 2]! - 0xbd) < 25;
  let barTop = Infinity;
  for (let y = Math.round(frame.y); y < frame.y + frame.h * 0.8; y++) for (let x = Math.round(frame.x); x < frame.x + frame.w; x++) if (blue((y * img.width + x) * 4)) barTop = Math.min(barTop, y);
  t.ok(Number.isFinite(barTop), `bars found (top at y=${barTop})`);
  // Gridlines: grey (antialiased) rows in the gaps between the clusters, columns where no
  // bar is drawn from the top gridline down
  const grey = (p: number): boolean => Math.abs(d[p]! - d[p + 2]!) < 10 && d[p]! > 0x60 && d[p]! < 0xe0;
  const white = (p: number): boolean => d[p]! > 0xf0 && d[p + 1]! > 0xf0 && d[p + 2]! > 0xf0;
  const gaps: number[] = [];
  for (let x = Math.round(frame.x + frame.w * 0.2); x < frame.x + frame.w * 0.95; x++) {
    let clear = 0;
    for (let y = barTop + 4; y < barTop + 60; y++) if (white((y * img.width + x) * 4)) clear++;
    if (clear >= 40) gaps.push(x);
  }
  t.ok(gaps.length >= 3, `gaps between clusters found (${gaps.length} columns)`);
  const rows: number[] = [];
  for (let y = Math.round(frame.y); y < frame.y + frame.h * 0.8; y++) {
    const n = gaps.filter((x) => grey((y * img.width + x) * 4)).length;
    if (n >= 0.7 * gaps.length) rows.push(y);
  }
  t.ok(rows.length >= 5, `gridlines found (rows ${rows.join(', ')})`);
  t.ok(Math.abs(Math.min(...rows) - barTop) <= 2, `the top gridline (y=${Math.min(...rows)}) is where the bars at 1 end (y=${barTop})`);
  // ten intervals of 0.1 (the automatic step for a range of 1 in a plot this tall): eleven gridlines
  const distinct = rows.filter((y, i) => i === 0 || y - rows[i - 1]! > 2);
  t.equal(distinct.length, 11, `gridlines at 0, 0.1 … 1 (${distinct.join(', ')})`);
});

t.test('a category axis in reverse order (c:orientation maxMin) puts the first category at the top of a bar chart', needsCorpus('bench/SlideWithCharts.pptx'), async (t) => {
  // Slide 1: a stacked bar chart (c:barDir bar) of four categories whose category axis is
  // c:orientation="maxMin", as bar charts are made to read top-down; "Kategorie 1" is the
  // longest (2 + 2 + 2 against 1 + 1 + 1). Its bar is the top one, and the longest.
  const img = await pixels('/ppt/slides/slide1.xml', 'bench/SlideWithCharts.pptx');
  const d = img.data;
  // the first series' colour (accent 1 of the Office 2013+ theme, #4472C4), then the bars'
  // extent to the right: any non-white, non-grey pixel
  const blue = (p: number): boolean => Math.abs(d[p]! - 0x44) < 30 && Math.abs(d[p + 1]! - 0x72) < 30 && Math.abs(d[p + 2]! - 0xc4) < 30;
  const coloured = (p: number): boolean => Math.max(d[p]!, d[p + 1]!, d[p + 2]!) - Math.min(d[p]!, d[p + 1]!, d[p + 2]!) > 20 || d[p]! < 0xc0;
  const bars: Array<{ y: number; width: number }> = [];
  let inBar = false;
  for (let y = 0; y < img.height; y++) {
    let first = -1;
    for (let x = 0; x < img.width && first < 0; x++) if (blue((y * img.width + x) * 4)) first = x;
    if (first < 0) { inBar = false; continue; }
    let end = first;
    while (end < img.width && coloured((y * img.width + end) * 4)) end++;
    if (!inBar) bars.push({ y, width: end - first });
    else bars[bars.length - 1]!.width = Math.max(bars[bars.length - 1]!.width, end - first);
    inBar = true;
  }
  // the legend's key is a blue square too: bars are the wide ones
  const wide = bars.filter((b) => b.width > 40);
  t.equal(wide.length, 4, `four bars (${wide.map((b) => `y ${b.y}: ${b.width} px`).join(', ')})`);
  t.ok(wide.slice(1).every((b) => wide[0]!.width > b.width * 1.5), 'the top bar is the first category, the longest');
});

t.test('3-D columns are drawn as boxes: a darker side towards the depth and a top face', needsCorpus(TEMPLATE), async (t) => {
  // Slide 5: a clustered c:bar3DChart with right-angle axes and PowerPoint's default view
  // (c:view3D holds only rAngAx: rotX 15°, rotY 20°), 20 columns in accent colour #2FA4C0
  // (the flat test above finds the same bars). Drawn flat before: no side, no top.
  const { data, width, height } = await pixels('/ppt/slides/slide5.xml');
  const at = (x: number, y: number): [number, number, number] => { const p = (y * width + x) * 4; return [data[p]!, data[p + 1]!, data[p + 2]!]; };
  const front = (c: [number, number, number]): boolean => Math.abs(c[0] - 0x2f) < 10 && Math.abs(c[1] - 0xa4) < 10 && Math.abs(c[2] - 0xc0) < 10;
  // a darker pixel of the same hue: every channel 60–95 % of the front's
  const darker = (c: [number, number, number], f: [number, number, number]): boolean => [0, 1, 2].every((k) => c[k]! <= f[k]! * 0.95 + 2 && c[k]! >= f[k]! * 0.55 - 2) && c[2] > c[0];
  // along a row through the columns' lower half: each front face's right edge
  const y = Math.round(height * 0.68);
  let fronts = 0;
  let sides = 0;
  for (let x = 1; x < width - 3; x++) {
    if (front(at(x, y)) && !front(at(x + 1, y))) {
      fronts++;
      const f = at(x, y);
      if ([1, 2, 3].some((d) => darker(at(x + d, y), f))) sides++;
    }
  }
  t.ok(fronts >= 18, `column fronts crossed on row ${y}: ${fronts}`);
  t.ok(sides >= fronts - 1, `a darker side face right of ${sides} of ${fronts} fronts`);
  // the top face: over the tallest column's front a darker band leaning right
  let topFaces = 0;
  for (let x = 1; x < width - 3; x++) {
    let yTop = -1;
    for (let yy = 0; yy < y && yTop < 0; yy++) if (front(at(x, yy))) yTop = yy;
    if (yTop > 2 && darker(at(x, yTop - 2), at(x, yTop + 2))) topFaces++;
  }
  t.ok(topFaces >= 100, `a darker top face over the fronts in ${topFaces} columns of pixels`);
});

t.test('a radar chart fills its plot: the polygon centred on its own extent, rings labelled a line and a half apart', needsCorpus('templates/python-pptx-chart-types.pptx'), async (t) => {
  // Slide 7: three radar charts of five categories, 18 pt text; the first in the frame
  // (228600, 228600) 4271392 × 3056384 EMU. A pentagon reaches 0.81 of its radius below its
  // centre: centred on the frame it left a fifth of the height unused (the rings spanned
  // 0.79 of the frame's height; LibreOffice's 0.94 with the labels).
  const img = await pixels('/ppt/slides/slide7.xml', 'templates/python-pptx-chart-types.pptx');
  const d = img.data;
  const frame = { x: px(228600), y: px(228600), w: px(4271392), h: px(3056384) };
  const grey = (p: number): boolean => Math.abs(d[p]! - d[p + 1]!) < 6 && Math.abs(d[p]! - d[p + 2]!) < 6 && Math.abs(d[p]! - 0x86) < 40;
  let top = Infinity;
  let bottom = -1;
  for (let y = Math.round(frame.y); y < frame.y + frame.h; y++) for (let x = Math.round(frame.x); x < frame.x + frame.w; x++) if (grey((y * img.width + x) * 4)) { top = Math.min(top, y); bottom = Math.max(bottom, y); }
  t.ok((bottom - top) / frame.h >= 0.84, `the rings span ${((bottom - top) / frame.h).toFixed(2)} of the frame's height`);
});

t.test('clustered bars keep the space c:overlap puts between them (−27 %: a gap inside each cluster)', needsCorpus('incoming/templates/clippit-chart-xlexternaldata.pptx'), async (t) => {
  // A 4:3 slide (9144000 EMU wide), chart frame (1524000, 1397000) 6096000 × 4064000 EMU, three series
  // over four categories, every value ≥ 1.8 on a 0–6 axis: a row a little above the axis crosses
  // all twelve bars. With the overlap, each bar is set apart from its neighbour by white.
  const { data, width } = await pixels('/ppt/slides/slide1.xml', 'incoming/templates/clippit-chart-xlexternaldata.pptx');
  const frame = { x: px(1524000), y: px(1397000), w: px(6096000), h: px(4064000) };
  const white = (x: number, y: number): boolean => { const p = (y * width + x) * 4; return data[p]! > 235 && data[p + 1]! > 235 && data[p + 2]! > 235; };
  // the axis: lowest row of the frame's middle third holding a long coloured run
  let best = { y: 0, bars: 0, gaps: 0 };
  for (let y = Math.round(frame.y + frame.h * 0.5); y < frame.y + frame.h * 0.85; y += 2) {
    let bars = 0;
    let gaps = 0;
    let inBar = false;
    let sinceBar = -1;
    for (let x = Math.round(frame.x); x < frame.x + frame.w; x++) {
      const w = white(x, y);
      if (!w && !inBar) { bars++; if (sinceBar > 0 && sinceBar < frame.w * 0.03) gaps++; }
      if (w) sinceBar = inBar ? 1 : sinceBar >= 0 ? sinceBar + 1 : -1;
      inBar = !w;
    }
    if (bars === 12) best = { y, bars, gaps };
  }
  t.equal(best.bars, 12, `a row through twelve separate bars (y=${best.y})`);
  t.ok(best.gaps >= 8, `${best.gaps} narrow white gaps inside the clusters (8 expected)`);
});

t.test('an Office 2016 chart (cx:chart) draws the picture of its mc:Fallback, as PowerPoint saved it', needsCorpus('templates/automizer-waterfall-chartex.pptx'), async (t) => {
  // The waterfall's frame (2032000, 719666) 8128000 × 5418667 EMU on a 16:9 slide (12192000 EMU wide).
  const { data, width } = await pixels('/ppt/slides/slide1.xml', 'templates/automizer-waterfall-chartex.pptx');
  const scale = WIDTH_PX / 12192000;
  const x0 = Math.round(2032000 * scale);
  const y0 = Math.round(719666 * scale);
  const x1 = Math.round((2032000 + 8128000) * scale);
  const y1 = Math.round((719666 + 5418667) * scale);
  let coloured = 0;
  let orange = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const p = (y * width + x) * 4;
      const [r, g, b] = [data[p]!, data[p + 1]!, data[p + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
      if (r > 200 && g > 100 && g < 150 && b < 80) orange++; // accent 2, the "Abfall" bars
    }
  }
  const area = (x1 - x0) * (y1 - y0);
  t.ok(coloured > area * 0.03, `${coloured} of ${area} frame pixels coloured (the bars)`);
  t.ok(orange > area * 0.005, `${orange} orange pixels: the falling steps`);
});

t.test('data labels without a colour of their own are drawn in the chart text colour, inside dark bars too', needsCorpus('templates/poi-aascu-summit-9masters.pptx'), async (t) => {
  // Slide 6: a 100 % stacked column chart, its lowest series dark red, labels centred in the bars with
  // no c:txPr colour. The first column's lowest bar holds the label "26" near (325, 418) px at 800 px.
  const { data, width } = await pixels('/ppt/slides/slide6.xml', 'templates/poi-aascu-summit-9masters.pptx');
  let dark = 0;
  let white = 0;
  for (let y = 405; y < 432; y++) {
    for (let x = 308; x < 342; x++) {
      const p = (y * width + x) * 4;
      const [r, g, b] = [data[p]!, data[p + 1]!, data[p + 2]!];
      if (r + g + b < 130) dark++;
      if (r > 225 && g > 225 && b > 225) white++;
    }
  }
  t.ok(dark >= 8, `${dark} near-black label pixels in the bar`);
  t.equal(white, 0, 'no white label pixels');
});
