/**
 * What fillSlide says when a slide cannot take `slide_data.header` or a column `header`:
 * the placeholder it looked for and what to use instead, naming the free placeholders that
 * could take the text. Slides are written by hand: no corpus needed.
 */
import t from 'tap';
import { fillSlide, newSlideFromLayout, type FillContext } from '../../../core/src/generation/slide/fill-slide.js';
import { placeholders, shapeTree, type Rect } from '../../../core/src/generation/slide/shapes.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { plainText } from '../../../core/src/generation/slide/text.js';
import { toFailure } from '../../../core/src/generation/deck/slide-failure.js';
import { NS, descendants, parseXml, type Document } from '../../../core/src/ooxml/xml.js';

const NS_DECL = `xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"`;

/** One placeholder `p:sp` (type omitted = obj), with its own geometry when `rect` is given (EMU). */
function ph(id: number, name: string, type: string | undefined, idx: number, rect?: Rect): string {
  const xfrm = rect ? `<a:xfrm><a:off x="${rect.x}" y="${rect.y}"/><a:ext cx="${rect.cx}" cy="${rect.cy}"/></a:xfrm>` : '';
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr/><p:nvPr><p:ph${type ? ` type="${type}"` : ''} idx="${idx}"/></p:nvPr></p:nvSpPr>` +
    `<p:spPr>${xfrm}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p/></p:txBody></p:sp>`
  );
}

/** A slide (or, with `root` = `p:sldLayout`, a layout) holding these shapes. */
function part(shapes: string[], root = 'p:sld'): Document {
  return parseXml(
    `<${root} ${NS_DECL}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
      `${shapes.join('')}</p:spTree></p:cSld></${root}>`,
    'test part',
  );
}

const TITLE = ph(2, 'Title 1', 'title', 0, { x: 457200, y: 274638, cx: 8229600, cy: 1143000 });

/** Fills `doc` with `data`; the warnings it gave. */
function fill(doc: Document, data: SlideData, more: Partial<FillContext> = {}): string[] {
  const warnings: string[] = [];
  fillSlide({ doc, slideData: data, options: {}, layoutPhs: [], masterPhs: [], fromLayout: false, slideNumber: 1, tableStyleId: undefined, warn: (m) => warnings.push(m), ...more });
  return warnings;
}

/** Non-empty texts of the slide's shapes, in shape order (paragraph models included). */
const texts = (doc: Document): string[] => descendants(doc, NS.p, 'txBody').map(plainText).filter((s) => s !== '');

t.test('slide_data.header: says it looked for a hdr placeholder and names the free placeholders title or subtitle would fill', async (t) => {
  const titleSlide = part([ph(2, 'Title 1', 'ctrTitle', 0), ph(3, 'Subtitle 2', 'subTitle', 1)]);
  const [w1, ...rest1] = fill(titleSlide, { title: 'Q3 review', header: 'Confidential' });
  t.same(rest1, []);
  t.match(w1, /^header not placed: slide_data\.header goes into a header placeholder \(type hdr\) of the slide, its layout or its master, else into the layout's header-like text placeholder .*, and there is neither/);
  t.match(w1, /notes and handout pages/);
  t.match(w1, /put the text in `subtitle` \(fills the free subTitle placeholder "Subtitle 2"\) instead$/, 'subtitle and the placeholder it would fill');
  t.notMatch(w1, /`title` \(/, 'title is taken by the request');

  const content = part([TITLE, ph(3, 'Text Placeholder 2', 'body', 1)]);
  const [w2] = fill(content, { header: 'Confidential' });
  t.match(w2, /put the text in `title` \(fills the free title placeholder "Title 1"\) or `subtitle` \(fills the free body placeholder "Text Placeholder 2"\) instead$/);

  const titleOnly = part([TITLE]);
  const [w3] = fill(titleOnly, { title: 'Only a title', header: 'Confidential' });
  t.match(w3, /this slide has no free title or text placeholder left either: .*use a layout with a free subtitle or body placeholder$/);
  t.same(texts(titleOnly), ['Only a title'], 'nothing placed');
});

t.test('slide_data.header goes into a hdr placeholder of the slide or, like the footer, one copied from the layout', async (t) => {
  const hdr = ph(9, 'Header Placeholder 8', 'hdr', 13, { x: 0, y: 0, cx: 3000000, cy: 300000 });
  const own = part([TITLE, hdr]);
  t.same(fill(own, { header: 'Confidential' }), []);
  t.same(texts(own), ['Confidential']);

  const layout = part([TITLE, hdr], 'p:sldLayout');
  const layoutPhs = placeholders(shapeTree(layout));
  const fresh = newSlideFromLayout(layout);
  t.same(fill(fresh, { title: 'From the layout', header: 'Confidential' }, { layoutPhs, fromLayout: true }), []);
  t.same(texts(fresh), ['From the layout', 'Confidential']);
  t.ok(placeholders(shapeTree(fresh)).some((p) => p.type === 'hdr'), 'the slide got a hdr placeholder linked to the layout');
});

t.test("slide_data.header goes into the layout's header-like placeholder when no hdr placeholder exists; content and subtitle keep off it", async (t) => {
  const band = ph(3, 'Header Band', 'body', 10, { x: 457200, y: 1417638, cx: 8229600, cy: 400000 });
  const content = ph(4, 'Content Placeholder 3', undefined, 1, { x: 457200, y: 1900000, cx: 8229600, cy: 4200000 });
  const layout = part([TITLE, band, content], 'p:sldLayout');
  const layoutPhs = placeholders(shapeTree(layout));
  const headerPlaceholder = { type: 'body', idx: 10, shapeId: 3 };

  const withHeader = newSlideFromLayout(layout);
  const w = fill(withHeader, { title: 'T', header: 'Confidential', subtitle: 'Sub', content: [{ blocks: [bullets('a', 'b')] }] }, { layoutPhs, fromLayout: true, headerPlaceholder });
  t.same(texts(withHeader), ['T', 'Confidential', 'a\nb'], 'header in the band, bullets in the content area');
  t.same(w.length, 1, 'one warning: the subtitle has no free placeholder (the band is the header\'s)');
  t.match(w[0], /subtitle not placed/);

  // without a header the band is free as before: the subtitle takes it
  const noHeader = newSlideFromLayout(layout);
  t.same(fill(noHeader, { title: 'T', subtitle: 'Sub' }, { layoutPhs, fromLayout: true, headerPlaceholder }), []);
  t.same(texts(noHeader), ['T', 'Sub']);

  // a hdr placeholder on the layout comes first
  const hdr = ph(9, 'Header Placeholder 8', 'hdr', 13, { x: 0, y: 0, cx: 3000000, cy: 300000 });
  const layoutWithHdr = part([TITLE, band, content, hdr], 'p:sldLayout');
  const fresh = newSlideFromLayout(layoutWithHdr);
  t.same(fill(fresh, { title: 'T', header: 'Confidential', subtitle: 'Sub' }, { layoutPhs: placeholders(shapeTree(layoutWithHdr)), fromLayout: true, headerPlaceholder }), []);
  const got = placeholders(shapeTree(fresh)).map((p) => `${p.type}:${plainText(p.shape)}`);
  t.same(got, ['title:T', 'body:Sub', 'hdr:Confidential'], 'the header in hdr, the band free for the subtitle');
});

const bullets = (...b: string[]) => ({ type: 'text' as const, text: { bullets: b } });
const LEFT: Rect = { x: 457200, y: 1600200, cx: 4038600, cy: 4525963 };
const RIGHT: Rect = { x: 4648200, y: 1600200, cx: 4038600, cy: 4525963 };

t.test('column header: states the rule (a free body placeholder right above the content area) and which part failed', async (t) => {
  // a heading above the left content area only
  const slide = part([TITLE, ph(3, 'Left Heading', 'body', 1, { ...LEFT, y: 1100000, cy: 450000 }), ph(4, 'Content Placeholder 3', undefined, 2, LEFT), ph(5, 'Content Placeholder 4', undefined, 3, RIGHT)]);
  const warnings = fill(slide, { content: [{ header: 'Left', blocks: [bullets('l')] }, { header: 'Right', blocks: [bullets('r')] }] });
  t.equal(warnings.length, 1);
  t.match(warnings[0], /^column 2: header not placed: a column header goes into a free body placeholder right above the column's content area, and none is above the column's obj placeholder "Content Placeholder 4";/);
  t.match(warnings[0], /make the heading the column's first bullet, or use a layout with a heading placeholder above each content area \(the template analysis gives such layouts the role `comparison`\)$/);
  t.same(texts(slide), ['Left', 'l', 'r'], 'the left header is placed');

  // a free body placeholder elsewhere is named
  const below = part([TITLE, ph(3, 'Caption', 'body', 1, { ...LEFT, y: 6200000, cy: 400000 }), ph(4, 'Content Placeholder 3', undefined, 2, LEFT)]);
  t.match(fill(below, { content: [{ header: 'Left', blocks: [bullets('l')] }] })[0], /none is above the column's obj placeholder "Content Placeholder 3" \(free elsewhere: body placeholder "Caption"\)/);

  // body placeholders are the content areas when there is no obj/tbl
  const bodyOnly = part([TITLE, ph(3, 'Text Placeholder 2', 'body', 1, LEFT)]);
  t.match(fill(bodyOnly, { content: [{ header: 'Head', blocks: [bullets('b')] }] })[0], /this slide's body placeholders are its content areas \(it has no obj or tbl placeholder\), so none is left for headings/);

  // more columns than content areas
  const one = part([TITLE, ph(3, 'Content Placeholder 2', undefined, 1, LEFT)]);
  const w = fill(one, { content: [{ blocks: [bullets('a')] }, { header: 'Second', blocks: [bullets('b')] }] });
  t.match(w[0], /^column 2: header not placed: .* and the slide has only 1 free content placeholder \(obj or tbl, else body\), none left for column 2;/);
  t.match(w[1], /^column 2: no free content placeholder/, 'the text warning follows');
});

t.test('a source without a shape tree is a broken source (source_corrupt), not a failure of the engine', async (t) => {
  // found by test/hostile/mutated-templates.test.ts: the slide failed as generation_failed, the code of an unexpected exception
  const doc = parseXml(`<p:sld ${NS_DECL}><p:cSld/></p:sld>`, 'test part');
  let thrown: unknown;
  try {
    fillSlide({ doc, slideData: { title: 'T' }, options: {}, layoutPhs: [], masterPhs: [], fromLayout: false, slideNumber: 1, tableStyleId: undefined, warn: () => undefined });
  } catch (err) {
    thrown = err;
  }
  t.equal(toFailure(thrown).code, 'source_corrupt');
  t.match(toFailure(thrown).message, /no shape tree \(p:cSld\/p:spTree\)/);
});
