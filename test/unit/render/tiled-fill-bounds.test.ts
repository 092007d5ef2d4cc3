/**
 * A tiled picture fill (`a:blipFill/a:tile`, ECMA-376 Part 1 §20.1.8.58) is drawn tile by
 * tile only over the part of its box the canvas shows. Found by an extreme-value probe of
 * the corpus (every `cy` of a template set to 2³¹−1 EMU): the tiles of a box 169,000 pt
 * tall were all drawn into the clip, 8.8 s for one preview; a box that large both ways
 * would be hundreds of millions of tiles.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { NS, child, parseXml, serializeXml } from '../../../core/src/ooxml/xml.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

/** Its first master holds "Right Triangle 13", a 50 % tiled texture (`a:tile sx/sy 50000`); slide 2 shows it. */
const TEMPLATE = 'incoming/templates/poi-aascu-6masters-combo-chart.pptx';
const MASTER = '/ppt/slideMasters/slideMaster1.xml';
const SLIDE = '/ppt/slides/slide2.xml';
const SHAPE = 'Right Triangle 13';

/** Slide 2 with the textured shape made a rectangle at the slide's top-left corner, `cx` × `cy` EMU. */
async function slideWithTexture(cx: number, cy: number): Promise<Uint8Array> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(TEMPLATE)));
  const master = parseXml(serializeXml(pkg.getXml(MASTER)), MASTER);
  const shape = [...master.getElementsByTagNameNS(NS.p, 'sp')].find((sp) => child(child(sp, NS.p, 'nvSpPr'), NS.p, 'cNvPr')?.getAttribute('name') === SHAPE);
  if (!shape) throw new Error(`${SHAPE} is not in ${MASTER}`);
  const spPr = child(shape, NS.p, 'spPr')!;
  const xfrm = child(spPr, NS.a, 'xfrm')!;
  child(xfrm, NS.a, 'off')!.setAttribute('x', '0');
  child(xfrm, NS.a, 'off')!.setAttribute('y', '0');
  child(xfrm, NS.a, 'ext')!.setAttribute('cx', String(cx));
  child(xfrm, NS.a, 'ext')!.setAttribute('cy', String(cy));
  child(spPr, NS.a, 'prstGeom')!.setAttribute('prst', 'rect');
  // its fill overlay's gradient spans the box, its theme shadow shows through the half-transparent
  // texture off the box's edges: both left out, so only the tiles are compared
  const effects = child(spPr, NS.a, 'effectLst');
  if (effects) spPr.removeChild(effects);
  child(child(shape, NS.p, 'style'), NS.a, 'effectRef')?.setAttribute('idx', '0');
  if (!child(spPr, NS.a, 'blipFill') || !child(child(spPr, NS.a, 'blipFill'), NS.a, 'tile')) throw new Error(`${SHAPE} has no tiled fill`);
  pkg.setXml(MASTER, master);
  return (await renderSlide(pkg, SLIDE, { widthPx: 480 })).png;
}

t.test('a tiled fill on a box far larger than the slide draws what the slide shows, as a box just covering it does', needsCorpus(TEMPLATE), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(TEMPLATE)));
  const size = child(pkg.getXml('/ppt/presentation.xml').documentElement!, NS.p, 'sldSz')!;
  const covering = await slideWithTexture(Number(size.getAttribute('cx')), Number(size.getAttribute('cy')));
  const tiny = await slideWithTexture(12700, 12700);
  t.notSame(Buffer.from(covering), Buffer.from(tiny), 'the texture is drawn on the slide');
  const huge = await slideWithTexture(2147483647, 2147483647);
  t.same(Buffer.from(huge), Buffer.from(covering), 'the same pixels: the tiles over the slide are the same tiles');
});
