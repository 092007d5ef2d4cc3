/**
 * SmartArt whose drawing part is empty or missing (as WPS Office writes it): the preview lays
 * the diagram out from its data model and layout definition, coloured by the colours part
 * (ECMA-376 Part 1 §21.4). A synthetic three-item list: each item a rounded box with the
 * item's text (left 40 % of the frame) beside a box of its child's text, in the theme's
 * accent 2 (orange, from the colours part). Without a layout definition, or with a hostile
 * one, the items are boxes stacked in the frame with their text. The slide is 720 × 540 pt
 * rendered 720 px wide: one point is one pixel.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { miniDeck } from '../ooxml/pml/mini-deck.js';
import { pngPixels, type Rgb } from '../../helpers/png-pixels.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const image = pngPixels;

/** Accent 2 of the mini deck's theme, ED7D31. */
const isOrange = (p: Rgb): boolean => Math.abs(p[0] - 0xed) < 20 && Math.abs(p[1] - 0x7d) < 25 && Math.abs(p[2] - 0x31) < 25;
const isWhite = (p: Rgb): boolean => p.every((v) => v >= 250);

const DGM = 'http://schemas.openxmlformats.org/drawingml/2006/diagram';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const DRAWING_RT = 'http://schemas.microsoft.com/office/2007/relationships/diagramDrawing';

const para = (s: string): string => `<dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${s}</a:t></a:r></a:p></dgm:t>`;

/** Data model: three items, each with one child; `texts` false leaves every text empty. */
function dataModel(texts = true): string {
  const pts: string[] = [`<dgm:pt modelId="0" type="doc"><dgm:prSet/><dgm:spPr/>${para('')}</dgm:pt>`];
  const cxns: string[] = [];
  for (let i = 1; i <= 3; i++) {
    pts.push(`<dgm:pt modelId="n${i}"><dgm:prSet/><dgm:spPr/>${para(texts ? `Item ${i}` : '')}</dgm:pt>`);
    pts.push(`<dgm:pt modelId="c${i}"><dgm:prSet/><dgm:spPr/>${para(texts ? `Detail of item ${i}` : '')}</dgm:pt>`);
    for (const k of ['pn', 'sn', 'pc', 'sc']) pts.push(`<dgm:pt modelId="${k}${i}" type="${k[0] === 'p' ? 'parTrans' : 'sibTrans'}" cxnId="x"><dgm:prSet/><dgm:spPr/>${para('')}</dgm:pt>`);
    cxns.push(`<dgm:cxn modelId="x${i}" srcId="0" destId="n${i}" srcOrd="${i - 1}" destOrd="0" parTransId="pn${i}" sibTransId="sn${i}"/>`);
    cxns.push(`<dgm:cxn modelId="y${i}" srcId="n${i}" destId="c${i}" srcOrd="0" destOrd="0" parTransId="pc${i}" sibTransId="sc${i}"/>`);
  }
  return `<dgm:dataModel xmlns:dgm="${DGM}" xmlns:a="${A}"><dgm:ptLst>${pts.join('')}</dgm:ptLst><dgm:cxnLst>${cxns.join('')}</dgm:cxnLst><dgm:bg/><dgm:whole/></dgm:dataModel>`;
}

/** A vertical list: items stacked top to bottom, each a text box (40 %) and a box of its children's text (60 %). */
const LIST_LAYOUT =
  `<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:a="${A}" xmlns:r="${R}" uniqueId="urn:test/list">` +
  '<dgm:layoutNode name="root"><dgm:alg type="lin"><dgm:param type="linDir" val="fromT"/></dgm:alg><dgm:shape r:blip=""/><dgm:presOf/>' +
  '<dgm:constrLst><dgm:constr type="w" for="ch" forName="item" refType="w"/><dgm:constr type="h" for="ch" forName="item" refType="h"/><dgm:constr type="h" for="ch" forName="sp" refType="h" fact="0.1"/></dgm:constrLst>' +
  '<dgm:forEach name="each" axis="ch" ptType="node"><dgm:layoutNode name="item"><dgm:alg type="composite"/><dgm:shape r:blip=""/><dgm:presOf/>' +
  '<dgm:constrLst><dgm:constr type="l" for="ch" forName="parentText"/><dgm:constr type="w" for="ch" forName="parentText" refType="w" fact="0.4"/><dgm:constr type="h" for="ch" forName="parentText" refType="h"/>' +
  '<dgm:constr type="l" for="ch" forName="childText" refType="w" fact="0.4"/><dgm:constr type="w" for="ch" forName="childText" refType="w" fact="0.6"/><dgm:constr type="h" for="ch" forName="childText" refType="h"/></dgm:constrLst>' +
  '<dgm:layoutNode name="parentText" styleLbl="node1"><dgm:alg type="tx"/><dgm:shape type="roundRect" r:blip=""/><dgm:presOf axis="self" ptType="node"/></dgm:layoutNode>' +
  '<dgm:choose name="c"><dgm:if name="i" axis="ch" ptType="node" func="cnt" op="gte" val="1"><dgm:layoutNode name="childText" styleLbl="node1"><dgm:alg type="tx"><dgm:param type="stBulletLvl" val="1"/></dgm:alg><dgm:shape type="rect" r:blip=""/><dgm:presOf axis="des" ptType="node"/></dgm:layoutNode></dgm:if><dgm:else name="e"/></dgm:choose>' +
  '</dgm:layoutNode><dgm:forEach name="gap" axis="followSib" ptType="sibTrans" cnt="1"><dgm:layoutNode name="sp"><dgm:alg type="sp"/><dgm:shape r:blip=""/><dgm:presOf/></dgm:layoutNode></dgm:forEach></dgm:forEach>' +
  '</dgm:layoutNode></dgm:layoutDef>';

/** A layout definition nested 200 deep (forEach on self): over the depth limit. */
const DEEP_LAYOUT = `<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:r="${R}"><dgm:layoutNode name="root">${'<dgm:forEach axis="self"><dgm:layoutNode name="n">'.repeat(120)}<dgm:shape type="rect" r:blip=""/><dgm:presOf axis="des" ptType="node"/>${'</dgm:layoutNode></dgm:forEach>'.repeat(120)}</dgm:layoutNode></dgm:layoutDef>`;

/** forEach over every point of the diagram, nested ten deep: 9^10 expansions unless bounded. */
const BOMB_LAYOUT = `<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:r="${R}"><dgm:layoutNode name="root">${'<dgm:forEach axis="root des" ptType="all all">'.repeat(10)}<dgm:layoutNode name="n"><dgm:shape type="rect" r:blip=""/><dgm:presOf axis="self"/></dgm:layoutNode>${'</dgm:forEach>'.repeat(10)}</dgm:layoutNode></dgm:layoutDef>`;

/** Colours: node1 filled with accent 2, white lines and text. */
const COLORS = `<dgm:colorsDef xmlns:dgm="${DGM}" xmlns:a="${A}" uniqueId="urn:test/colors"><dgm:styleLbl name="node1"><dgm:fillClrLst meth="repeat"><a:schemeClr val="accent2"/></dgm:fillClrLst><dgm:linClrLst meth="repeat"><a:schemeClr val="lt1"/></dgm:linClrLst><dgm:txFillClrLst meth="repeat"><a:schemeClr val="lt1"/></dgm:txFillClrLst></dgm:styleLbl></dgm:colorsDef>`;

/** A layout definition without layout nodes. */
const EMPTY_LAYOUT = `<dgm:layoutDef xmlns:dgm="${DGM}"/>`;

/** Style: node1 with a thin line, no effects. */
const STYLE = `<dgm:styleDef xmlns:dgm="${DGM}" xmlns:a="${A}" uniqueId="urn:test/style"><dgm:styleLbl name="node1"><dgm:style><a:lnRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"/></dgm:style></dgm:styleLbl></dgm:styleDef>`;

/** Frame: 72 pt from the left and top, 576 × 288 pt. */
const FRAME =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Diagram 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="914400" y="914400"/><a:ext cx="7315200" cy="3657600"/></p:xfrm>' +
  `<a:graphic><a:graphicData uri="${DGM}"><dgm:relIds xmlns:dgm="${DGM}" r:dm="rId2" r:lo="rId3" r:qs="rId4" r:cs="rId5"/></a:graphicData></a:graphic></p:graphicFrame>`;

const CT = 'application/vnd.openxmlformats-officedocument.drawingml.diagram';

async function deck(opts: { layout?: string; drawing?: 'empty' | 'missing'; texts?: boolean }): Promise<OpcPackage> {
  const rels: Array<[string, string, string]> = [
    ['rId2', `${PKG}/diagramData`, '../diagrams/data1.xml'],
    ['rId3', `${PKG}/diagramLayout`, '../diagrams/layout1.xml'],
    ['rId4', `${PKG}/diagramQuickStyle`, '../diagrams/quickStyle1.xml'],
    ['rId5', `${PKG}/diagramColors`, '../diagrams/colors1.xml'],
  ];
  const parts: Record<string, [string, string]> = {
    'ppt/diagrams/data1.xml': [`${CT}Data+xml`, dataModel(opts.texts ?? true)],
    'ppt/diagrams/layout1.xml': [`${CT}Layout+xml`, opts.layout ?? EMPTY_LAYOUT],
    'ppt/diagrams/quickStyle1.xml': [`${CT}Style+xml`, STYLE],
    'ppt/diagrams/colors1.xml': [`${CT}Colors+xml`, COLORS],
  };
  if (opts.drawing === 'empty') {
    rels.push(['rId6', DRAWING_RT, '../diagrams/drawing1.xml']);
    parts['ppt/diagrams/drawing1.xml'] = ['application/vnd.ms-office.drawingml.diagramDrawing+xml', '<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/></dsp:spTree></dsp:drawing>'];
  }
  return miniDeck({ slides: [{ tree: FRAME, rels }], parts, sldSz: { cx: 9144000, cy: 6858000 } });
}

const render = async (pkg: OpcPackage) => image((await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 720 })).png);

/** Pixels of a region that differ between two renderings. */
function differing(a: Awaited<ReturnType<typeof image>>, b: Awaited<ReturnType<typeof image>>, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { const p = a.at(x, y); const q = b.at(x, y); if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 30) n++; }
  return n;
}

t.test('an empty drawing part: the list is laid out from its layout definition', async (t) => {
  const img = await render(await deck({ layout: LIST_LAYOUT, drawing: 'empty' }));
  // three items in 288 pt with gaps of a tenth of an item: item 90 pt, gap 9 pt → rows at 72, 171, 270 pt
  for (const [k, top] of [72, 171, 270].entries()) {
        // just inside the top of each box, above its text
    t.ok(isOrange(img.at(72 + 115, top + 5)), `item ${k + 1}: its text box is filled with accent 2 (${JSON.stringify(img.at(72 + 115, top + 5))})`);
    t.ok(isOrange(img.at(72 + 500, top + 5)), `item ${k + 1}: its detail box too, on the right`);
    t.ok(isWhite(img.at(72 + 288, top + 90 + 4)) || k === 2, `item ${k + 1}: a gap below it`);
  }
  // nothing outside the frame
  let outside = 0;
  for (let y = 0; y < 540; y += 3) for (let x = 0; x < 720; x += 3) if ((x < 70 || x > 650 || y < 70 || y > 362) && !isWhite(img.at(x, y))) outside++;
  t.equal(outside, 0, 'nothing is drawn outside the frame');
  // the text: the same diagram with empty texts differs inside both boxes of every item
  const blank = await render(await deck({ layout: LIST_LAYOUT, drawing: 'empty', texts: false }));
  for (const [k, top] of [72, 171, 270].entries()) {
    t.ok(differing(img, blank, 80, top, 72 + 225, top + 90) > 30, `item ${k + 1}: its text is drawn in its box`);
    t.ok(differing(img, blank, 72 + 235, top, 640, top + 90) > 30, `item ${k + 1}: its child's text in the detail box`);
  }
});

t.test('a missing drawing part is laid out the same way', async (t) => {
  const a = await render(await deck({ layout: LIST_LAYOUT, drawing: 'empty' }));
  const b = await render(await deck({ layout: LIST_LAYOUT, drawing: 'missing' }));
  t.equal(differing(a, b, 0, 0, 720, 540), 0, 'same picture');
});

for (const [name, layout] of [['no layout nodes in the layout definition', undefined], ['a layout definition nested too deeply', DEEP_LAYOUT], ['a forEach expansion bomb', BOMB_LAYOUT]] as const) {
  t.test(`${name}: the items are boxes stacked in the frame, their text kept`, async (t) => {
    const img = await render(await deck({ layout, drawing: 'empty' }));
    const blank = await render(await deck({ layout, drawing: 'empty', texts: false }));
    // three boxes over 288 pt, gaps of 0.12 box: box 83.6 pt
    const h = 288 / (3 + 2 * 0.12);
    for (let k = 0; k < 3; k++) {
      const top = 72 + k * h * 1.12;
      t.ok(isOrange(img.at(72 + 10, top + h / 2)), `box ${k + 1} is filled with accent 2 (${JSON.stringify(img.at(82, top + h / 2))})`);
      t.ok(differing(img, blank, 72, top, 648, top + h) > 60, `box ${k + 1} holds its item's and child's text`);
    }
  });
}

t.test('the WPS Office deck: its SmartArt slides are drawn', needsCorpus('incoming/templates/poi-stress022-arabic-slideshow-type.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('incoming/templates/poi-stress022-arabic-slideshow-type.pptx')));
  // slides 5 (vList5), 7 (chevron2), 22 (vList6), 41 (vList2): every drawing part is empty;
  // the slide with its diagram frames against the slide without them
  for (const n of [5, 7, 22, 41]) {
    const slide = `/ppt/slides/slide${n}.xml`;
    const img = await image((await renderSlide(pkg, slide, { widthPx: 720 })).png);
    const saved = pkg.getBytes(slide);
    // a fresh copy of the deck (a package's reading model is built once)
    const bare = await OpcPackage.open(readFileSync(corpusPath('incoming/templates/poi-stress022-arabic-slideshow-type.pptx')));
    const xml = new TextDecoder().decode(saved).replace(/<p:graphicFrame\b(?:(?!<\/p:graphicFrame>)[\s\S])*?drawingml\/2006\/diagram[\s\S]*?<\/p:graphicFrame>/g, '');
    t.not(xml, new TextDecoder().decode(saved), `slide ${n} has a diagram frame`);
    bare.setBytes(slide, new TextEncoder().encode(xml));
    const without = await image((await renderSlide(bare, slide, { widthPx: 720 })).png);
    const share = differing(img, without, 0, 0, img.w, img.h) / (img.w * img.h);
    t.ok(share > 0.08, `slide ${n}: the diagram covers ${Math.round(100 * share)} % of the slide`);
  }
});
