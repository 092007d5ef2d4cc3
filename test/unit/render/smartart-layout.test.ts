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
import { layoutDiagram } from '../../../core/src/render/smartart-layout.js';
import { parseXml, type Element } from '../../../core/src/ooxml/xml.js';
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
const DSP = 'http://schemas.microsoft.com/office/drawing/2008/diagram';

const para = (s: string): string => `<dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${s}</a:t></a:r></a:p></dgm:t>`;

/** Data model: `items` items (three), each with one child unless `details` is false; `texts` false leaves every text empty. */
function dataModel(texts = true, items = 3, details = true): string {
  const pts: string[] = [`<dgm:pt modelId="0" type="doc"><dgm:prSet/><dgm:spPr/>${para('')}</dgm:pt>`];
  const cxns: string[] = [];
  for (let i = 1; i <= items; i++) {
    pts.push(`<dgm:pt modelId="n${i}"><dgm:prSet/><dgm:spPr/>${para(texts ? `Item ${i}` : '')}</dgm:pt>`);
    pts.push(`<dgm:pt modelId="c${i}"><dgm:prSet/><dgm:spPr/>${para(texts && details ? `Detail of item ${i}` : '')}</dgm:pt>`);
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

async function deck(opts: { layout?: string; drawing?: 'empty' | 'missing' | { spTree: string }; texts?: boolean; style?: string; items?: number; details?: boolean }): Promise<OpcPackage> {
  const rels: Array<[string, string, string]> = [
    ['rId2', `${PKG}/diagramData`, '../diagrams/data1.xml'],
    ['rId3', `${PKG}/diagramLayout`, '../diagrams/layout1.xml'],
    ['rId4', `${PKG}/diagramQuickStyle`, '../diagrams/quickStyle1.xml'],
    ['rId5', `${PKG}/diagramColors`, '../diagrams/colors1.xml'],
  ];
  const parts: Record<string, [string, string]> = {
    'ppt/diagrams/data1.xml': [`${CT}Data+xml`, dataModel(opts.texts ?? true, opts.items, opts.details)],
    'ppt/diagrams/layout1.xml': [`${CT}Layout+xml`, opts.layout ?? EMPTY_LAYOUT],
    'ppt/diagrams/quickStyle1.xml': [`${CT}Style+xml`, opts.style ?? STYLE],
    'ppt/diagrams/colors1.xml': [`${CT}Colors+xml`, COLORS],
  };
  if (opts.drawing && opts.drawing !== 'missing') {
    const shapes = opts.drawing === 'empty' ? '' : opts.drawing.spTree;
    rels.push(['rId6', DRAWING_RT, '../diagrams/drawing1.xml']);
    parts['ppt/diagrams/drawing1.xml'] = ['application/vnd.ms-office.drawingml.diagramDrawing+xml', `<dsp:drawing xmlns:dsp="${DSP}" xmlns:a="${A}"><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>${shapes}</dsp:spTree></dsp:drawing>`];
  }
  return miniDeck({ slides: [{ tree: FRAME, rels }], parts, sldSz: { cx: 9144000, cy: 6858000 } });
}

const render = async (pkg: OpcPackage) => image((await renderSlide(pkg, '/ppt/slides/slide1.xml', { widthPx: 720 })).png);

type Picture = Awaited<ReturnType<typeof image>>;

/** Whether two renderings differ at pixel (x, y) (by more than antialiasing noise). */
const differsAt = (a: Picture, b: Picture, x: number, y: number): boolean => {
  const p = a.at(x, y);
  const q = b.at(x, y);
  return Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 30;
};

/** Pixels of a region that differ between two renderings. */
function differing(a: Picture, b: Picture, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (differsAt(a, b, x, y)) n++;
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

/**
 * Two items in the top quadrants of the frame, as Office's matrix layouts place their tiles:
 * edges written without a value (`<dgm:constr type="l" for="ch" forName="tile1"/>`, which
 * is 0), the first tile turned a quarter (`rot="270"`, so its box is laid out across and
 * its geometry turned into it), each tile presenting its item's text.
 */
const TILES_LAYOUT =
  `<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:a="${A}" xmlns:r="${R}" uniqueId="urn:test/tiles">` +
  '<dgm:layoutNode name="root"><dgm:alg type="composite"/><dgm:shape r:blip=""/><dgm:presOf/>' +
  '<dgm:constrLst><dgm:constr type="l" for="ch" forName="tile1"/><dgm:constr type="t" for="ch" forName="tile1"/>' +
  '<dgm:constr type="r" for="ch" forName="tile1" refType="w" fact="0.5"/><dgm:constr type="b" for="ch" forName="tile1" refType="h" fact="0.5"/>' +
  '<dgm:constr type="l" for="ch" forName="tile2" refType="w" fact="0.5"/><dgm:constr type="t" for="ch" forName="tile2"/>' +
  '<dgm:constr type="r" for="ch" forName="tile2" refType="w"/><dgm:constr type="b" for="ch" forName="tile2" refType="h" fact="0.5"/></dgm:constrLst>' +
  '<dgm:layoutNode name="tile1" styleLbl="node1"><dgm:alg type="tx"/><dgm:shape rot="270" type="rect" r:blip=""/><dgm:presOf axis="ch" ptType="node" st="1" cnt="1"/></dgm:layoutNode>' +
  '<dgm:layoutNode name="tile2" styleLbl="node1"><dgm:alg type="tx"/><dgm:shape type="rect" r:blip=""/><dgm:presOf axis="ch" ptType="node" st="2" cnt="1"/></dgm:layoutNode>' +
  '</dgm:layoutNode></dgm:layoutDef>';

/** Bounding box of the pixels that differ between two renderings, within a region. */
function inkBox(a: Picture, b: Picture, x0: number, y0: number, x1: number, y1: number): { w: number; h: number } {
  let l = Infinity, t = Infinity, r = -Infinity, bottom = -Infinity;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!differsAt(a, b, x, y)) continue;
      l = Math.min(l, x); r = Math.max(r, x); t = Math.min(t, y); bottom = Math.max(bottom, y);
    }
  }
  return r < l ? { w: 0, h: 0 } : { w: r - l + 1, h: bottom - t + 1 };
}

t.test('edges written without a value stand at 0: tiles in the top quadrants, the turned one with upright text', async (t) => {
  const img = await render(await deck({ layout: TILES_LAYOUT, drawing: 'empty', items: 2, details: false }));
  // frame 72..648 × 72..360 pt: tile 1 at 72..360 × 72..216, tile 2 at 360..648 × 72..216
  for (const [x, y, what] of [[80, 80, 'tile 1, top left'], [350, 210, 'tile 1, bottom right'], [370, 80, 'tile 2, top left'], [640, 210, 'tile 2, bottom right']] as const) {
    t.ok(isOrange(img.at(x, y)), `${what} corner is filled (${JSON.stringify(img.at(x, y))})`);
  }
  for (const [x, y] of [[80, 230], [360, 300], [640, 350]] as const) t.ok(isWhite(img.at(x, y)), `the lower half of the frame is empty at ${x}, ${y}`);
  // "Item 1" on one line, upright: wider than tall, whatever the tile's turn
  const blank = await render(await deck({ layout: TILES_LAYOUT, drawing: 'empty', items: 2, texts: false }));
  for (const [k, x0] of [72, 360].entries()) {
    const ink = inkBox(img, blank, x0 + 4, 76, x0 + 284, 212);
    t.ok(ink.w > 1.5 * ink.h && ink.h > 5, `tile ${k + 1}: its text reads across (ink ${ink.w} × ${ink.h} px)`);
  }
});

/** The laid-out shapes of a diagram, from the same parts as {@link deck}. */
function laidOut(layout: string, style = STYLE, data = dataModel()): Element[] {
  const doc = (xml: string) => parseXml(xml, 'test part');
  const tree = layoutDiagram({ data: doc(data), layout: doc(layout), colors: doc(COLORS), style: doc(style) }, 7315200, 3657600).spTree;
  return Array.from(tree.getElementsByTagNameNS(DSP, 'sp'));
}

t.test('the turned tile written as PowerPoint writes one: its text box turned back', (t) => {
  const [tile1, tile2] = laidOut(TILES_LAYOUT, STYLE, dataModel(true, 2, false));
  const rotOf = (sp: Element | undefined, name: string) => sp?.getElementsByTagNameNS(name === 'txXfrm' ? DSP : A, name)[0]?.getAttribute('rot');
  t.equal(rotOf(tile1, 'xfrm'), '16200000', 'tile 1 turned 270°');
  t.equal(rotOf(tile1, 'txXfrm'), '-16200000', 'its text box turned back by as much');
  t.equal(rotOf(tile2, 'txXfrm'), '0', 'tile 2 not turned, nor its text');
  t.end();
});

t.test('fill and line come from the style definition\'s references, not a flat colour', (t) => {
  // fillRef 2 (the theme's second fill style: a gradient in Office themes), lnRef 0 (no line)
  const style = STYLE.replace('<a:lnRef idx="1">', '<a:lnRef idx="0">').replace('<a:fillRef idx="1">', '<a:fillRef idx="2">');
  const [sp] = laidOut(LIST_LAYOUT, style);
  const spPr = sp!.getElementsByTagNameNS(DSP, 'spPr')[0]!;
  const local = (e: Element) => Array.from(e.childNodes).filter((n): n is Element => n.nodeType === 1).map((n) => n.localName);
  t.notOk(local(spPr).some((n) => /Fill$/.test(n ?? '') || n === 'ln'), `no fill or line of its own (${local(spPr).join(', ')})`);
  const fillRef = sp!.getElementsByTagNameNS(A, 'fillRef')[0]!;
  t.equal(fillRef.getAttribute('idx'), '2', 'fillRef idx from the style definition');
  t.equal(fillRef.getElementsByTagNameNS(A, 'schemeClr')[0]?.getAttribute('val'), 'accent2', 'in the colours definition\'s colour');
  t.equal(sp!.getElementsByTagNameNS(A, 'lnRef')[0]?.getAttribute('idx'), '0', 'lnRef 0: no line');
  t.end();
});

t.test('custom text formatting (custT) keeps its sizes; other text shrinks to fit', (t) => {
  const custom = dataModel().replace('<dgm:pt modelId="n1"><dgm:prSet/>', '<dgm:pt modelId="n1"><dgm:prSet custT="1"/>');
  const autofit = (sps: Element[], text: string) => {
    const sp = sps.find((e) => Array.from(e.getElementsByTagNameNS(A, 't')).some((x) => x.textContent === text));
    const bodyPr = sp?.getElementsByTagNameNS(A, 'bodyPr')[0];
    return bodyPr ? Array.from(bodyPr.childNodes).filter((n): n is Element => n.nodeType === 1).map((n) => n.localName).join() : 'none';
  };
  const sps = laidOut(LIST_LAYOUT, STYLE, custom);
  t.equal(autofit(sps, 'Item 1'), 'noAutofit', 'the custom-formatted item keeps its size');
  t.equal(autofit(sps, 'Item 2'), 'normAutofit', 'the others shrink on overflow');
  t.end();
});

t.test('a drawing part\'s text box turns on top of its shape (rot 270° + 90°: upright)', async (t) => {
  // PowerPoint's matrix tiles: the shape turned 270°, its text box by +90° relative to it
  const shape = (rot: number, txRot: number | undefined, text: string) =>
    `<dsp:sp modelId="{t}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr><dsp:spPr><a:xfrm rot="${rot}"><a:off x="1371600" y="-457200"/><a:ext cx="1828800" cy="3657600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="ED7D31"/></a:solidFill></dsp:spPr>` +
    `<dsp:txBody><a:bodyPr anchor="ctr"><a:noAutofit/></a:bodyPr><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" sz="3600"/><a:t>${text}</a:t></a:r></a:p></dsp:txBody>` +
    `<dsp:txXfrm${txRot === undefined ? '' : ` rot="${txRot}"`}><a:off x="457200" y="457200"/><a:ext cx="3657600" cy="914400"/></dsp:txXfrm></dsp:sp>`;
  const box = [72 + 36, 72 + 36, 72 + 36 + 288, 72 + 36 + 72] as const;
  const draw = async (txRot: number | undefined, text: string) => render(await deck({ drawing: { spTree: shape(16200000, txRot, text) } }));
  const upright = inkBox(await draw(5400000, 'Item one'), await draw(5400000, ''), 72, 72, 648, 360);
  t.ok(upright.w > 2 * upright.h && upright.h > 10, `text box rot 90° on a shape turned 270°: reads across (ink ${upright.w} × ${upright.h} px)`);
  t.ok(upright.w < box[2] - box[0], 'within its text box');
  const turned = inkBox(await draw(undefined, 'Item one'), await draw(undefined, ''), 72, 0, 648, 540);
  t.ok(turned.h > 2 * turned.w, `without its own rotation the text turns with the shape (ink ${turned.w} × ${turned.h} px)`);
});

/** Items stacked top to bottom, each a box of its own text; `equal` adds the constraint that sizes their text alike (as Office's list layouts do). */
const stackLayout = (equal: boolean): string =>
  `<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:a="${A}" xmlns:r="${R}" uniqueId="urn:test/stack">` +
  '<dgm:layoutNode name="root"><dgm:alg type="lin"><dgm:param type="linDir" val="fromT"/></dgm:alg><dgm:shape r:blip=""/><dgm:presOf/>' +
  `<dgm:constrLst><dgm:constr type="w" for="ch" forName="node" refType="w"/><dgm:constr type="h" for="ch" forName="node" refType="h"/>${equal ? '<dgm:constr type="primFontSz" for="ch" ptType="node" op="equ" val="65"/>' : ''}</dgm:constrLst>` +
  '<dgm:forEach name="each" axis="ch" ptType="node"><dgm:layoutNode name="node" styleLbl="node1"><dgm:alg type="tx"/><dgm:shape type="rect" r:blip=""/><dgm:presOf axis="self"/></dgm:layoutNode></dgm:forEach>' +
  '</dgm:layoutNode></dgm:layoutDef>';

t.test('text under an equal-size constraint takes one size: the size the fullest node fits at', async (t) => {
  const long = 'A much longer item that has to shrink a long way before it fits its box';
  const data = (texts: boolean): string => dataModel(texts, 2, false).replace('Item 2', long);
  const draw = async (equal: boolean, texts: boolean) => {
    const base = await deck({ layout: stackLayout(equal), drawing: 'empty', items: 2, details: false, texts });
    base.setBytes('/ppt/diagrams/data1.xml', new TextEncoder().encode(data(texts)));
    return render(base);
  };
  const blank = await draw(false, false);
  // the frame's two halves: item 1 at 72..216 pt, item 2 at 216..360 pt
  const ink = async (equal: boolean) => {
    const img = await draw(equal, true);
    return { short: inkBox(img, blank, 76, 76, 644, 212), long: inkBox(img, blank, 76, 220, 644, 356) };
  };
  const apart = await ink(false);
  const alike = await ink(true);
  t.ok(alike.short.h < 0.6 * apart.short.h, `"Item 1" drawn at the long item's size: ${alike.short.h} px tall against ${apart.short.h} on its own`);
  t.ok(Math.abs(alike.long.w - apart.long.w) <= 2 && Math.abs(alike.long.h - apart.long.h) <= 2, `the long item, which sets the size, as before (${alike.long.w} × ${alike.long.h} against ${apart.long.w} × ${apart.long.h})`);
});

t.test('a data model without dgm:bg and dgm:whole (both optional) is laid out', (t) => {
  const data = dataModel().replace('<dgm:bg/><dgm:whole/>', '');
  t.not(data, dataModel(), 'the test data had them');
  const sps = laidOut(LIST_LAYOUT, STYLE, data);
  t.ok(sps.length >= 6, `${sps.length} shapes laid out`);
  t.end();
});
