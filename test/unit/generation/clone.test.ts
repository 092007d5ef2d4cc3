/**
 * Copies made by `cloneInto`/`cloneWithStubs` must be trees xmldom keeps working with:
 * they bypass its checked `appendChild` and `setAttribute`, so every structure those keep
 * (child lists, sibling links, live node lists, the attribute index `setAttributeNS`
 * consults) is checked here against a tree xmldom built itself from the same text.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { NS, parseXml, serializeXml, type Element, type Node } from '../../../core/src/ooxml/xml.js';
import { cloneDocument, cloneInto, cloneWithStubs } from '../../../core/src/generation/draft/clone.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

/** How many child-list, sibling or parent links disagree below `root` (`appendChild` keeps them all in agreement). */
function linkProblems(root: Node): number {
  let problems = 0;
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    const list = n.childNodes;
    let i = 0;
    let prev: Node | null = null;
    for (let c = n.firstChild; c; c = c.nextSibling, i++) {
      if (list[i] !== c || list.item(i) !== c) problems++;
      if (c.parentNode !== n || c.previousSibling !== prev) problems++;
      prev = c;
      stack.push(c);
    }
    if (list.length !== i || n.lastChild !== prev) problems++;
  }
  return problems;
}

const XML = `<p:sld xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"><p:cSld><p:spTree>` +
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/></p:nvSpPr><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US" b="1"/><a:t>One &amp; two</a:t></a:r></a:p></p:txBody></p:sp>` +
  `<p:pic><p:blipFill><a:blip r:embed="rId2"/></p:blipFill></p:pic>` +
  `</p:spTree></p:cSld></p:sld>`;

t.test('a copy serializes as its source and keeps every link xmldom keeps', async (t) => {
  const src = parseXml(XML, 'slide');
  const copy = cloneDocument(src);
  t.equal(serializeXml(copy), serializeXml(src));
  t.equal(linkProblems(copy), 0, 'child lists, sibling and parent links agree');
  // xmldom's live lists see the copied nodes, and see later changes
  const runs = copy.getElementsByTagNameNS(NS.a, 'r');
  t.equal(runs.length, 1);
  const p = copy.getElementsByTagNameNS(NS.a, 'p').item(0)!;
  p.appendChild(cloneInto(copy, runs.item(0)!));
  t.equal(runs.length, 2, 'a live list follows an append after the copy');
  t.equal(linkProblems(copy), 0, 'child lists, sibling and parent links agree');
});

t.test('copied attributes answer to the namespace-aware calls as parsed ones do', async (t) => {
  const copy = cloneDocument(parseXml(XML, 'slide'));
  const blip = copy.getElementsByTagNameNS(NS.a, 'blip').item(0)!;
  t.equal(blip.getAttributeNS(NS.r, 'embed'), 'rId2');
  // setting it again replaces it in place: one attribute, the new value
  blip.setAttributeNS(NS.r, 'r:embed', 'rId7');
  t.equal(blip.attributes.length, 1);
  t.equal(blip.getAttributeNS(NS.r, 'embed'), 'rId7');
  // removed and added back through the index: still one, and where a reader looks
  blip.removeAttributeNS(NS.r, 'embed');
  t.equal(blip.attributes.length, 0);
  const fresh = copy.createAttributeNS(NS.r, 'r:embed');
  fresh.value = 'rId9';
  blip.setAttributeNodeNS(fresh);
  blip.setAttributeNS(NS.r, 'r:embed', 'rId10');
  t.equal(blip.attributes.length, 1);
  t.equal(blip.getAttributeNS(NS.r, 'embed'), 'rId10');
  t.equal(serializeXml(copy).match(/r:embed=/g)?.length, 1, 'written once');
  const rPr = copy.getElementsByTagNameNS(NS.a, 'rPr').item(0)!;
  rPr.setAttribute('b', '0');
  rPr.setAttribute('sz', '1200');
  t.same(Array.from({ length: rPr.attributes.length }, (_, i) => `${rPr.attributes.item(i)!.name}=${rPr.attributes.item(i)!.value}`), ['lang=en-US', 'b=0', 'sz=1200']);
});

t.test('slides of real templates copied with stand-ins keep every link', needsCorpus('bench/SlideWithTables.pptx', 'bench/pp_test_slides.pptx'), async (t) => {
  for (const file of ['bench/SlideWithTables.pptx', 'bench/pp_test_slides.pptx']) {
    const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
    const doc = pkg.getXml('/ppt/slides/slide1.xml');
    const { doc: copy } = cloneWithStubs(doc, (shape: Element) => shape.localName !== 'pic');
    t.equal(linkProblems(copy), 0, 'child lists, sibling and parent links agree');
    t.equal(copy.getElementsByTagNameNS(NS.a, 'tbl').length, doc.getElementsByTagNameNS(NS.a, 'tbl').length, `${file}: the tables are found in the copy`);
  }
});

t.test('the xmldom internals clone.ts writes have the shape it expects (xmldom is pinned exactly for them)', async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
  const installed = JSON.parse(readFileSync(new URL('../../../node_modules/@xmldom/xmldom/package.json', import.meta.url), 'utf8')) as { version: string };
  t.match(pkg.dependencies['@xmldom/xmldom'], /^\d+\.\d+\.\d+$/, 'package.json names one exact version, no range');
  t.equal(installed.version, pkg.dependencies['@xmldom/xmldom'], 'the installed xmldom is the pinned one');
  const doc = parseXml(XML, 'slide');
  const internals = doc as unknown as { _inc?: unknown; _createAttribute?: unknown };
  t.equal(typeof internals._inc, 'number', "the document's change counter (_inc) that live lists watch");
  t.equal(typeof internals._createAttribute, 'function', 'the attribute factory without the name check');
  const el = doc.documentElement!;
  for (const field of ['parentNode', 'firstChild', 'lastChild', 'previousSibling', 'nextSibling', 'namespaceURI', 'prefix', 'localName']) {
    const own = Object.getOwnPropertyDescriptor(el, field) ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el) as object, field);
    t.ok(own && ('value' in own || own.set), `${field} is a plain or settable property`);
  }
  t.ok(Object.getOwnPropertyDescriptor(el.childNodes, 'length')?.writable, 'childNodes.length is a plain writable field');
});
