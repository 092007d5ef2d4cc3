/**
 * The chart area of a chart on a slide (issue 21 item 7): filled only as its `c:spPr`
 * (§21.2.2.197) says. A chart that states no fill is transparent in a presentation — the
 * slide's background shows around its plot, as PowerPoint draws it and LibreOffice's
 * PowerPoint import sets it — where the preview used to paint it white.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { NS, child, parseXml, serializeXml } from '../../../core/src/ooxml/xml.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

/** Six line charts on slide 3, none with a `c:chartSpace/c:spPr`; the first in a frame at (228600, 228600) EMU. */
const TEMPLATE = 'templates/python-pptx-chart-types.pptx';
const SLIDE = '/ppt/slides/slide3.xml';
const CHART = '/ppt/charts/chart13.xml';
const WIDTH_PX = 800;

/** A doughnut of three points with a hole of half its radius (§21.2.2.50), its title deleted. */
const DOUGHNUT = `<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>`
  + '<c:doughnutChart><c:varyColors val="1"/><c:ser><c:idx val="0"/><c:order val="0"/><c:val><c:numLit><c:ptCount val="3"/>'
  + '<c:pt idx="0"><c:v>1</c:v></c:pt><c:pt idx="1"><c:v>2</c:v></c:pt><c:pt idx="2"><c:v>3</c:v></c:pt></c:numLit></c:val></c:ser>'
  + '<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:doughnutChart></c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>';

/**
 * The slide with a green background, and the first chart's area filled as `spPr` says (none:
 * as stored), or that chart replaced by `chartXml`.
 */
async function slideWith(spPr: string | undefined, chartXml?: string): Promise<OpcPackage> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(TEMPLATE)));
  const slide = parseXml(serializeXml(pkg.getXml(SLIDE)), SLIDE);
  const cSld = slide.getElementsByTagNameNS(NS.p, 'cSld')[0]!;
  const bg = parseXml(`<p:bg xmlns:p="${NS.p}" xmlns:a="${NS.a}"><p:bgPr><a:solidFill><a:srgbClr val="00FF00"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>`, 'bg').documentElement!;
  cSld.insertBefore(slide.importNode(bg, true), child(cSld, NS.p, 'spTree') ?? null);
  pkg.setXml(SLIDE, slide);
  if (chartXml) pkg.setXml(CHART, parseXml(chartXml, CHART));
  if (spPr) {
    const chart = parseXml(serializeXml(pkg.getXml(CHART)), CHART);
    const space = chart.documentElement!;
    if (child(space, NS.c, 'spPr')) throw new Error('the chart already states its area');
    const el = parseXml(`<c:spPr xmlns:c="${NS.c}" xmlns:a="${NS.a}">${spPr}</c:spPr>`, 'spPr').documentElement!;
    // c:spPr follows c:chart in CT_ChartSpace (§21.2.2.29)
    space.insertBefore(chart.importNode(el, true), child(space, NS.c, 'chart')?.nextSibling ?? null);
    pkg.setXml(CHART, chart);
  }
  return pkg;
}

/** The first chart's frame, px: at (228600, 228600) EMU, 2759224 × 2768352 EMU, on a 9144000 EMU wide slide. */
const FRAME = { x: (228600 * WIDTH_PX) / 9144000, y: (228600 * WIDTH_PX) / 9144000, w: (2759224 * WIDTH_PX) / 9144000, h: (2768352 * WIDTH_PX) / 9144000 };

/**
 * The mean colour of a 4 × 4 px patch of the rendered slide: by default just inside the
 * first chart's top-left corner (outside its plot area).
 */
async function cornerColour(pkg: OpcPackage, at = { x: Math.ceil(FRAME.x) + 1, y: Math.ceil(FRAME.y) + 1 }): Promise<[number, number, number]> {
  const out = await renderSlide(pkg, SLIDE, { widthPx: WIDTH_PX });
  const img = await loadImage(Buffer.from(out.png));
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  const d = c.getContext('2d').getImageData(at.x, at.y, 4, 4).data;
  const sum = [0, 0, 0];
  for (let p = 0; p < d.length; p += 4) for (let k = 0; k < 3; k++) sum[k]! += d[p + k]!;
  return sum.map((v) => Math.round(v / 16)) as [number, number, number];
}

t.test('a chart that states no area fill lets the slide background show', needsCorpus(TEMPLATE), async (t) => {
  const [r, g, b] = await cornerColour(await slideWith(undefined));
  t.ok(r < 20 && g > 235 && b < 20, `corner of the chart area is the slide's green, got ${r},${g},${b}`);
});

t.test('a chart area fill the chart states is painted', needsCorpus(TEMPLATE), async (t) => {
  const [r, g, b] = await cornerColour(await slideWith('<a:solidFill><a:srgbClr val="FF0000"/></a:solidFill>'));
  t.ok(r > 235 && g < 20 && b < 20, `solid red area, got ${r},${g},${b}`);
  const [r2, g2, b2] = await cornerColour(await slideWith('<a:noFill/><a:ln><a:noFill/></a:ln>'));
  t.ok(r2 < 20 && g2 > 235 && b2 < 20, `no fill: the green background, got ${r2},${g2},${b2}`);
  const [r3, g3, b3] = await cornerColour(await slideWith('<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="0000FF"/></a:gs><a:gs pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst><a:lin ang="0"/></a:gradFill>'));
  t.ok(r3 < 20 && g3 < 20 && b3 > 235, `a gradient area is painted, got ${r3},${g3},${b3}`);
});

t.test("a doughnut's hole shows what lies behind the chart", needsCorpus(TEMPLATE), async (t) => {
  // The ring is centred in the chart; its hole (half its radius) is far wider than the patch.
  const centre = { x: Math.round(FRAME.x + FRAME.w / 2) - 2, y: Math.round(FRAME.y + FRAME.h / 2) - 2 };
  const [r, g, b] = await cornerColour(await slideWith(undefined, DOUGHNUT), centre);
  t.ok(r < 20 && g > 235 && b < 20, `the hole shows the slide's green, got ${r},${g},${b}`);
  const ring = { x: Math.round(FRAME.x + FRAME.w / 2) - 2, y: Math.round(FRAME.y + FRAME.h / 2 - FRAME.h * 0.3) - 2 };
  const [r2, g2, b2] = await cornerColour(await slideWith(undefined, DOUGHNUT), ring);
  t.notOk(r2 < 20 && g2 > 235 && b2 < 20, `the ring itself is drawn, got ${r2},${g2},${b2}`);
});
