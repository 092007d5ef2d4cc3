/**
 * Reading one element of a shape tree (`ShapeTreePart.shapesOf`): the quality checks read
 * only the shapes a slide writes itself, and must get the very objects the whole tree's
 * reading gives (the contrast check finds a shape's place among `part.shapes` by identity).
 * Also the element factory and attribute reader every tree walk uses (core/src/ooxml/xml.ts).
 */
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { PmlModel, type ShapeTreePart } from '../../../../core/src/ooxml/pml/parts.js';
import type { Shape } from '../../../../core/src/ooxml/pml/shapes.js';
import { NS, attr, child, children, createElement, parseXml, serializeXml, type Element } from '../../../../core/src/ooxml/xml.js';
import { corpusFilesOfFor, corpusPath } from '../../../helpers/corpus.js';
import { miniDeck, sp } from './mini-deck.js';

const GROUP = `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="10" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/><a:chOff x="0" y="0"/><a:chExt cx="100" cy="100"/></a:xfrm></p:grpSpPr>${sp(11, 'Inner 1', { xfrm: [0, 0, 50, 50] })}${sp(12, 'Inner 2', { xfrm: [50, 50, 50, 50] })}</p:grpSp>`;
const ALTERNATE = `<mc:AlternateContent><mc:Choice Requires="p14">${sp(20, 'Chosen', { xfrm: [1, 2, 3, 4] })}</mc:Choice><mc:Fallback>${sp(21, 'Fallback', { xfrm: [1, 2, 3, 4] })}</mc:Fallback></mc:AlternateContent>`;
const TREE = `${sp(2, 'Title', { ph: 'type="title"', body: '<a:p><a:r><a:t>Hello</a:t></a:r></a:p>' })}${GROUP}${ALTERNATE}${sp(3, 'Last', { xfrm: [5, 6, 7, 8] })}`;

function names(shapes: readonly Shape[]): string[] {
  return shapes.flatMap((s) => [s.name, ...s.children.map((c) => `${s.name}/${c.name}`)]);
}

/** The child elements of a part's shape tree. */
function treeElements(part: ShapeTreePart): Element[] {
  return children(child(child(part.root, NS.p, 'cSld'), NS.p, 'spTree')!);
}

/** Reads every element one by one, then the whole tree; checks both give the same objects. */
function checkPart(t: Test, part: ShapeTreePart, label: string, wholeFirst: boolean): void {
  const els = treeElements(part);
  const whole = wholeFirst ? part.shapes : undefined;
  const oneByOne = els.flatMap((el) => [...part.shapesOf(el)]);
  const all = whole ?? part.shapes;
  t.same(names(oneByOne), names(all), `${label}: the elements' shapes, in order, are the tree's (${all.length} shapes)`);
  t.ok(oneByOne.length === all.length && oneByOne.every((s, i) => s === all[i]), `${label}: the very same objects`);
  t.ok(
    els.every((el) => part.shapesOf(el).every((s, i, list) => s === part.shapesOf(el)[i] && list.length === part.shapesOf(el).length)),
    `${label}: an element read twice gives the same objects`,
  );
}

t.test('shapes of one element: groups with their members, the chosen branch of alternate content, nothing for other elements', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: TREE }] });
  const part = new PmlModel(pkg).slidesInOrder()[0]!;
  const els = treeElements(part);
  const byName = (name: string): Element => els.find((e) => e.localName === name)!;
  t.same(part.shapesOf(byName('nvGrpSpPr')), [], 'the tree group properties hold no shape');
  const group = part.shapesOf(byName('grpSp'));
  t.same(names(group), ['Group', 'Group/Inner 1', 'Group/Inner 2'], 'a group with its members');
  t.same(names(part.shapesOf(byName('AlternateContent'))), ['Chosen'], 'the branch a reader that knows p14 takes');
  t.same(part.shapesOf(byName('AlternateContent'))[0]!.frame, { x: 1, y: 2, cx: 3, cy: 4, rotation: 0, flipH: false, flipV: false });
  // the whole tree read afterwards reuses them: the contrast check finds a shape among part.shapes by identity
  t.equal(part.shapes.indexOf(group[0]!), 1, 'part.shapes holds the group read before');
  checkPart(t, part, 'mini deck', false);
});

t.test('after the whole tree is read, one element gives the listed objects', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: TREE }] });
  const part = new PmlModel(pkg).slidesInOrder()[0]!;
  checkPart(t, part, 'mini deck, whole tree first', true);
});

const files = corpusFilesOfFor(t, 'templates');
if (files.length) t.test('corpus slides: every element read alone gives the objects of the whole tree, in order', async (t) => {
  let parts = 0;
  for (const file of files) {
    let model: PmlModel;
    try {
      model = new PmlModel(await OpcPackage.open(readFileSync(corpusPath(file))));
    } catch {
      continue; // a file the engine refuses is another test's business
    }
    model.slidesInOrder().forEach((part, i) => {
      const els = treeElements(part);
      const oneByOne = els.flatMap((el) => [...part.shapesOf(el)]);
      const all = part.shapes;
      if (oneByOne.length !== all.length || oneByOne.some((s, k) => s !== all[k])) t.fail(`${file} slide ${i + 1}: element by element differs from the whole tree`);
      parts++;
    });
  }
  t.ok(parts > 100, `${parts} corpus slides read element by element, then whole`);
});

t.test('createElement: new elements carry their namespace and prefix, and are written like parsed ones', async (t) => {
  const doc = parseXml(`<p:sld xmlns:p="${NS.p}" xmlns:a="${NS.a}"><p:cSld/></p:sld>`, '/ppt/slides/slide1.xml');
  const cSld = child(doc.documentElement!, NS.p, 'cSld')!;
  const tree = createElement(doc, NS.p, 'p:spTree');
  const off = createElement(doc, NS.a, 'a:off', { x: 5, y: 0, hidden: true });
  tree.appendChild(off);
  cSld.appendChild(tree);
  t.equal(tree.namespaceURI, NS.p);
  t.equal(tree.prefix, 'p');
  t.equal(tree.localName, 'spTree');
  t.equal(child(cSld, NS.p, 'spTree'), tree, 'found by namespace and local name');
  t.equal(tree.parentNode, cSld);
  t.equal(off.previousSibling, null);
  t.equal(tree.firstChild, off);
  t.match(serializeXml(doc), /<p:spTree><a:off x="5" y="0" hidden="1"\/><\/p:spTree>/);
  t.throws(() => createElement(doc, NS.p, '1bad'), 'a name that is no XML name is refused as before');
  const plain = createElement(doc, NS.p, 'sld');
  t.equal(plain.prefix, null, 'no prefix: the default namespace');
  t.equal(plain.localName, 'sld');
});

t.test('attr reads an attribute by its qualified name, as getAttribute does', async (t) => {
  const doc = parseXml(`<a:blip xmlns:a="${NS.a}" xmlns:r="${NS.r}" r:embed="rId7" cstate="print" empty=""/>`, '/ppt/media/x.xml');
  const el = doc.documentElement!;
  t.equal(attr(el, 'r:embed'), 'rId7');
  t.equal(attr(el, 'embed'), undefined, 'the local name alone is not the qualified name');
  t.equal(attr(el, 'cstate'), 'print');
  t.equal(attr(el, 'empty'), '', 'an empty value is a value');
  t.equal(attr(el, 'missing'), undefined);
  t.equal(attr(undefined, 'x'), undefined);
  el.setAttribute('late', 'yes');
  t.equal(attr(el, 'late'), 'yes', 'attributes added after parsing');
  el.removeAttribute('cstate');
  t.equal(attr(el, 'cstate'), undefined, 'removed attributes are gone');
});
