import t from 'tap';
import { PmlModel } from '../../../../core/src/ooxml/pml/parts.js';
import { PackageError } from '../../../../core/src/ooxml/errors.js';
import { IDENTITY, effective, readShapeTree, type Shape } from '../../../../core/src/ooxml/pml/shapes.js';
import { miniDeck, sp } from './mini-deck.js';

function thrown(fn: () => unknown): { code: string; message: string } | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof PackageError ? { code: err.code, message: err.message } : { code: 'not a PackageError', message: String(err) };
  }
  return undefined;
}

function slideShapes(model: PmlModel, n = 0): Shape[] {
  return model.slide(model.presentation.slides[n]!.partName).shapes;
}

const MASTER = [
  sp(2, 'Title Placeholder 1', { ph: 'type="title"', xfrm: [100, 200, 3000, 400], body: '<a:p/>' }),
  sp(3, 'Text Placeholder 2', { ph: 'type="body" idx="1"', xfrm: [100, 800, 3000, 2000], body: '<a:p/>' }),
  sp(4, 'Date Placeholder 3', { ph: 'type="dt" sz="half" idx="2"', xfrm: [10, 6000, 500, 100], body: '<a:p/>' }),
].join('');

t.test('a p:ph with no type is obj and no idx is 0 (ECMA-376 §19.3.1.36)', async (t) => {
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, slides: [{ tree: sp(2, 'X', { ph: '' }) }] }));
  const [s] = slideShapes(model);
  t.equal(s!.placeholder!.type, 'obj');
  t.equal(s!.placeholder!.idx, 0);
  t.equal(s!.placeholder!.typeExplicit, false);
});

t.test('slide placeholder inherits its frame from the layout placeholder with the same idx', async (t) => {
  const layout = sp(2, 'Content', { ph: 'idx="1"', xfrm: [11, 22, 33, 44] }) + sp(3, 'Other', { ph: 'idx="2"', xfrm: [55, 66, 77, 88] });
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, layouts: [{ tree: layout }], slides: [{ tree: sp(5, 'S', { ph: 'idx="2"' }) }] }));
  const [s] = slideShapes(model);
  t.same(s!.frame, { x: 55, y: 66, cx: 77, cy: 88, rotation: 0, flipH: false, flipV: false });
  t.equal(s!.basePlaceholder!.name, 'Other');
});

t.test('slide placeholder falls back to the layout placeholder of the same type when no idx matches', async (t) => {
  const layout = sp(2, 'Layout title', { ph: 'type="title" idx="7"', xfrm: [1, 2, 3, 4] });
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, layouts: [{ tree: layout }], slides: [{ tree: sp(5, 'S', { ph: 'type="title"' }) }] }));
  t.same(slideShapes(model)[0]!.frame?.x, 1);
});

t.test('layout placeholder inherits from the master placeholder of the mapped type', async (t) => {
  const layout = sp(2, 'Centre title', { ph: 'type="ctrTitle"' }) + sp(3, 'Sub', { ph: 'type="subTitle" idx="1"' }) + sp(4, 'Date', { ph: 'type="dt" idx="10"' }) + sp(5, 'Pic', { ph: 'type="pic" idx="13"' });
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, layouts: [{ tree: layout }] }));
  const l = model.layout('/ppt/slideLayouts/slideLayout1.xml');
  const [ctr, sub, dt, pic] = l.shapes;
  t.equal(ctr!.basePlaceholder!.name, 'Title Placeholder 1', 'ctrTitle → title');
  t.equal(sub!.basePlaceholder!.name, 'Text Placeholder 2', 'subTitle → body');
  t.equal(dt!.basePlaceholder!.name, 'Date Placeholder 3', 'dt → dt');
  t.equal(pic!.basePlaceholder!.name, 'Text Placeholder 2', 'pic → body');
  t.same(ctr!.frame?.y, 200);
});

t.test('a slide title on a layout without one inherits from the master title', async (t) => {
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, layouts: [{ tree: '' }], slides: [{ tree: sp(2, 'T', { ph: 'type="title"' }) }] }));
  const [s] = slideShapes(model);
  t.equal(s!.basePlaceholder!.part.kind, 'master');
  t.same(s!.frame, { x: 100, y: 200, cx: 3000, cy: 400, rotation: 0, flipH: false, flipV: false });
});

t.test("a placeholder's own xfrm wins over the inherited one", async (t) => {
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, slides: [{ tree: sp(2, 'T', { ph: 'type="title"', xfrm: [9, 8, 7, 6] }) }] }));
  t.same(slideShapes(model)[0]!.frame?.x, 9);
});

t.test('effective() walks slide → layout → master and stops at the first value', async (t) => {
  const layout = sp(2, 'L', { ph: 'type="body" idx="1"' });
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, layouts: [{ tree: layout }], slides: [{ tree: sp(3, 'S', { ph: 'idx="1"' }) }] }));
  const [s] = slideShapes(model);
  t.equal(effective(s, (x) => (x.part.kind === 'slide' ? undefined : x.part.kind)), 'layout');
  t.same([...s!.chain()].map((x) => x.part.kind), ['slide', 'layout', 'master']);
});

t.test('rotation is rot/60000 degrees and flips are read', async (t) => {
  const model = new PmlModel(await miniDeck({ slides: [{ tree: sp(2, 'R', { xfrm: [0, 0, 10, 10], extraXfrm: 'rot="5400000" flipH="1"' }) }] }));
  const f = slideShapes(model)[0]!.frame!;
  t.equal(f.rotation, 90);
  t.equal(f.flipH, true);
  t.equal(f.flipV, false);
});

function group(id: number, xfrm: string, members: string): string {
  return `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${id}" name="Group ${id}"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr>${xfrm}</p:grpSpPr>${members}</p:grpSp>`;
}

t.test('group members are mapped from chOff/chExt into the group box', async (t) => {
  // Child space 0..2000 maps onto a 1000-wide box at (500, 300): a scale of 0.5.
  const xfrm = '<a:xfrm><a:off x="500" y="300"/><a:ext cx="1000" cy="1000"/><a:chOff x="0" y="0"/><a:chExt cx="2000" cy="2000"/></a:xfrm>';
  const model = new PmlModel(await miniDeck({ slides: [{ tree: group(10, xfrm, sp(2, 'A', { xfrm: [200, 400, 600, 800] })) }] }));
  const [g] = slideShapes(model);
  t.equal(g!.kind, 'grpSp');
  t.same(g!.children[0]!.frame, { x: 600, y: 500, cx: 300, cy: 400, rotation: 0, flipH: false, flipV: false });
});

t.test('a rotated group turns its members about the group centre', async (t) => {
  // Group box (0,0)-(1000,1000), centre (500,500), 90° clockwise; member centre (250, 500) goes to (500, 250).
  const xfrm = '<a:xfrm rot="5400000"><a:off x="0" y="0"/><a:ext cx="1000" cy="1000"/><a:chOff x="0" y="0"/><a:chExt cx="1000" cy="1000"/></a:xfrm>';
  const model = new PmlModel(await miniDeck({ slides: [{ tree: group(10, xfrm, sp(2, 'A', { xfrm: [200, 450, 100, 100] })) }] }));
  const f = slideShapes(model)[0]!.children[0]!.frame!;
  t.same([f.x, f.y, f.cx, f.cy, f.rotation], [450, 200, 100, 100, 90]);
});

t.test('a horizontally flipped group mirrors its members about its centre', async (t) => {
  const xfrm = '<a:xfrm flipH="1"><a:off x="0" y="0"/><a:ext cx="1000" cy="1000"/><a:chOff x="0" y="0"/><a:chExt cx="1000" cy="1000"/></a:xfrm>';
  const model = new PmlModel(await miniDeck({ slides: [{ tree: group(10, xfrm, sp(2, 'A', { xfrm: [0, 0, 100, 100] })) }] }));
  const f = slideShapes(model)[0]!.children[0]!.frame!;
  t.same([f.x, f.y, f.flipH], [900, 0, true]);
});

t.test('nested groups compose their transforms', async (t) => {
  const outer = '<a:xfrm><a:off x="1000" y="1000"/><a:ext cx="1000" cy="1000"/><a:chOff x="0" y="0"/><a:chExt cx="2000" cy="2000"/></a:xfrm>';
  const inner = '<a:xfrm><a:off x="0" y="0"/><a:ext cx="2000" cy="2000"/><a:chOff x="0" y="0"/><a:chExt cx="4000" cy="4000"/></a:xfrm>';
  const model = new PmlModel(await miniDeck({ slides: [{ tree: group(10, outer, group(11, inner, sp(2, 'A', { xfrm: [400, 0, 400, 400] }))) }] }));
  const f = slideShapes(model)[0]!.children[0]!.children[0]!.frame!;
  t.same([f.x, f.y, f.cx, f.cy], [1100, 1000, 100, 100]);
});

t.test('shapes come in document order with their kinds', async (t) => {
  const pic = '<p:pic><p:nvPicPr><p:cNvPr id="3" name="Pic"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill/><p:spPr><a:xfrm><a:off x="1" y="1"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr></p:pic>';
  const cxn = '<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="4" name="Line"/><p:cNvCxnSpPr/><p:nvPr/></p:nvCxnSpPr><p:spPr/></p:cxnSp>';
  const frame = '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="7" y="8"/><a:ext cx="9" cy="10"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl/></a:graphicData></a:graphic></p:graphicFrame>';
  const model = new PmlModel(await miniDeck({ slides: [{ tree: sp(2, 'A') + pic + cxn + frame }] }));
  const shapes = slideShapes(model);
  t.same(shapes.map((s) => s.kind), ['sp', 'pic', 'cxnSp', 'graphicFrame']);
  t.same(shapes.map((s) => s.id), [2, 3, 4, 5]);
  t.same(shapes[3]!.frame?.x, 7, 'graphic frame geometry from p:xfrm');
});

t.test('mc:AlternateContent is read through its Choice when understood, else its Fallback', async (t) => {
  const understood = `<mc:AlternateContent><mc:Choice Requires="p14">${sp(2, 'Chosen')}</mc:Choice><mc:Fallback>${sp(3, 'Fallback')}</mc:Fallback></mc:AlternateContent>`;
  const unknown = `<mc:AlternateContent xmlns:zz="urn:unknown"><mc:Choice Requires="zz">${sp(4, 'Unknown')}</mc:Choice><mc:Fallback>${sp(5, 'Fallback 2')}</mc:Fallback></mc:AlternateContent>`;
  const model = new PmlModel(await miniDeck({ slides: [{ tree: understood + unknown }] }));
  t.same(slideShapes(model).map((s) => s.name), ['Chosen', 'Fallback 2']);
});

t.test('a p14:contentPart is a contentPart shape with its p14:xfrm', async (t) => {
  const cp =
    '<mc:AlternateContent><mc:Choice Requires="p14"><p14:contentPart r:id="rId5"><p14:nvContentPartPr><p14:cNvPr id="7" name="Ink 6"/><p14:cNvContentPartPr/><p14:nvPr/></p14:nvContentPartPr>' +
    '<p14:xfrm><a:off x="10" y="20"/><a:ext cx="30" cy="40"/></p14:xfrm></p14:contentPart></mc:Choice><mc:Fallback/></mc:AlternateContent>';
  const model = new PmlModel(await miniDeck({ slides: [{ tree: cp }] }));
  const [s] = slideShapes(model);
  t.equal(s!.kind, 'contentPart');
  t.equal(s!.contentPartRId, 'rId5');
  t.same([s!.frame?.x, s!.frame?.cy], [10, 40]);
});

t.test('a hidden slide (show="0") is not shown', async (t) => {
  const model = new PmlModel(await miniDeck({ slides: [{ tree: '', attrs: 'show="0"' }, { tree: '' }] }));
  t.equal(model.slide('/ppt/slides/slide1.xml').shown, false);
  t.equal(model.slide('/ppt/slides/slide2.xml').shown, true);
});

t.test('a slide without a layout relationship is bad_structure', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  pkg.setRels('/ppt/slides/slide1.xml', []);
  const model = new PmlModel(pkg);
  const e = thrown(() => model.slide('/ppt/slides/slide1.xml'));
  t.equal(e?.code, 'bad_structure');
  t.match(e?.message, /slide1\.xml has no slide layout/);
});

t.test('a layout without a master relationship is bad_structure', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  pkg.setRels('/ppt/slideLayouts/slideLayout1.xml', []);
  const model = new PmlModel(pkg);
  const e = thrown(() => model.layout('/ppt/slideLayouts/slideLayout1.xml'));
  t.equal(e?.code, 'bad_structure');
  t.match(e?.message, /slideLayout1\.xml has no slide master/);
});

t.test('a slide relationship that targets a part of another kind is bad_structure', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  const rels = pkg.rels('/ppt/presentation.xml').map((r) => (r.type.endsWith('/slide') ? { ...r, targetPartName: '/ppt/theme/theme1.xml' } : r));
  pkg.setRels('/ppt/presentation.xml', rels);
  const model = new PmlModel(pkg);
  const e = thrown(() => model.slide(model.presentation.slides[0]!.partName));
  t.equal(e?.code, 'bad_structure');
  t.match(e?.message, /should be a slide/);
});

t.test('slides follow p:sldIdLst order, not part names', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }, { tree: '' }, { tree: '' }] });
  const pres = pkg.getXml('/ppt/presentation.xml').documentElement!;
  const lst = pres.getElementsByTagNameNS('http://schemas.openxmlformats.org/presentationml/2006/main', 'sldIdLst')[0]!;
  const last = lst.lastChild!;
  lst.removeChild(last);
  lst.insertBefore(last, lst.firstChild);
  const model = new PmlModel(pkg);
  t.same(model.presentation.slides.map((s) => s.partName), ['/ppt/slides/slide3.xml', '/ppt/slides/slide1.xml', '/ppt/slides/slide2.xml']);
});

t.test('slide size defaults to 4:3 when p:sldSz is absent', async (t) => {
  const model = new PmlModel(await miniDeck({ sldSz: null }));
  t.same([model.presentation.slideWidthEmu, model.presentation.slideHeightEmu], [9144000, 6858000]);
});

t.test('position and size are inherited separately (an xfrm with only a:off keeps the base size)', async (t) => {
  const slide = '<p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="77" y="88"/></a:xfrm></p:spPr></p:sp>';
  const model = new PmlModel(await miniDeck({ masterTree: MASTER, slides: [{ tree: slide }] }));
  t.same(slideShapes(model)[0]!.frame, { x: 77, y: 88, cx: 3000, cy: 400, rotation: 0, flipH: false, flipV: false });
});

t.test('a shape tree past the shape budget is refused as too_large, not silently cut', async (t) => {
  const tree = sp(2, 'A') + `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="3" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${sp(4, 'B')}${sp(5, 'C')}</p:grpSp>`;
  const model = new PmlModel(await miniDeck({ slides: [{ tree }] }));
  const part = model.slide('/ppt/slides/slide1.xml');
  const spTree = part.cSld!.getElementsByTagNameNS('http://schemas.openxmlformats.org/presentationml/2006/main', 'spTree')[0]!;
  const within: Shape[] = [];
  readShapeTree(spTree, part, undefined, IDENTITY, within, { remaining: 4, limit: 4 });
  t.equal(within.length, 2, 'four shapes fit a budget of four');
  const e = thrown(() => readShapeTree(spTree, part, undefined, IDENTITY, [], { remaining: 3, limit: 3 }));
  t.equal(e?.code, 'too_large');
});
