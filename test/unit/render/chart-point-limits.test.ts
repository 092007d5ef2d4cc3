/**
 * Point counts and indexes a chart's caches state (`c:ptCount` §21.2.2.153, `c:pt/@idx`
 * §21.2.2.150) are numbers from the file, not sizes to allocate. Found by
 * test/hostile/mutated-templates.test.ts: one `c:pt idx="2147483647"` made the preview of
 * its slide grow to 2 GB and never end, and stated counts of 2³¹−1 took seconds per chart to
 * draw empty places. A list is drawn with at most MAX_CHART_POINTS points, and at most
 * MAX_TRAILING_BLANK_POINTS empty places past its last point; the points within are drawn
 * as before.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { MAX_TRAILING_BLANK_POINTS } from '../../../core/src/render/chart.js';
import { NS, parseXml } from '../../../core/src/ooxml/xml.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

/** Six line charts on slide 3; the first (chart13) in a frame at (228600, 228600) EMU, 2759224 × 2768352 EMU. */
const TEMPLATE = 'templates/python-pptx-chart-types.pptx';
const SLIDE = '/ppt/slides/slide3.xml';
const CHART = '/ppt/charts/chart13.xml';
const WIDTH_PX = 800;

/** A red column chart of three points whose caches state `count` points and hold one more at index `farIdx`. */
function columns(count: string, farIdx: string): string {
  const pts = (v: (i: number) => string): string => [0, 1, 2].map((i) => `<c:pt idx="${i}"><c:v>${v(i)}</c:v></c:pt>`).join('') + `<c:pt idx="${farIdx}"><c:v>${v(3)}</c:v></c:pt>`;
  return (
    `<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>` +
    '<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/>' +
    '<c:spPr><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></c:spPr>' +
    `<c:cat><c:strLit><c:ptCount val="${count}"/>${pts((i) => `C${i}`)}</c:strLit></c:cat>` +
    `<c:val><c:numLit><c:ptCount val="${count}"/>${pts((i) => String(i + 1))}</c:numLit></c:val></c:ser>` +
    '<c:gapWidth val="50"/><c:axId val="1"/><c:axId val="2"/></c:barChart>' +
    '<c:catAx><c:axId val="1"/><c:scaling/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx>' +
    '<c:valAx><c:axId val="2"/><c:scaling/><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx>' +
    '</c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>'
  );
}

/** Pixels of the chart's frame that are the bars' red. */
async function redPixels(chartXml: string): Promise<number> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(TEMPLATE)));
  pkg.setXml(CHART, parseXml(chartXml, CHART));
  const out = await renderSlide(pkg, SLIDE, { widthPx: WIDTH_PX });
  const img = await loadImage(Buffer.from(out.png));
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  const px = (emu: number): number => Math.round((emu * WIDTH_PX) / 9144000);
  const d = c.getContext('2d').getImageData(px(228600), px(228600), px(2759224), px(2768352)).data;
  let red = 0;
  for (let p = 0; p < d.length; p += 4) if (d[p]! > 200 && d[p + 1]! < 60 && d[p + 2]! < 60) red++;
  return red;
}

t.test('a cache stating 2³¹−1 points, or a point at that index, is drawn with the points it holds', needsCorpus(TEMPLATE), async (t) => {
  const plain = await redPixels(columns('3', '2'));
  t.ok(plain > 500, `three bars drawn (${plain} red px)`);
  const farPoint = await redPixels(columns('3', '2147483647'));
  t.ok(farPoint > 100, `a point at index 2³¹−1 is left out, the others drawn (${farPoint} red px)`);
  const manyPoints = await redPixels(columns('2147483647', '2147483646'));
  // the stated count still sets the category places, up to the limit past the points held: three bars among 1,027 places are slivers
  t.ok(manyPoints < plain / 10, `a stated count of 2³¹−1 points is drawn as ${3 + MAX_TRAILING_BLANK_POINTS} places (${manyPoints} red px)`);
  const fewBlanks = await redPixels(columns('6', '2'));
  t.ok(fewBlanks > plain / 3 && fewBlanks < plain, `three blank places after the points are kept: the bars narrower than with none (${fewBlanks} red px)`);
  const negative = await redPixels(columns('-5', '-1'));
  t.ok(negative > 100, `negative counts and indexes are left out (${negative} red px)`);
});
