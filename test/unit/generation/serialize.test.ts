import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { NS, createElement, descendants, parseXml, serializeXml, type Element } from '../../../core/src/ooxml/xml.js';
import { childrenStubSource, cloneDocument, cloneInto, cloneWithStubs, STUB_NS } from '../../../core/src/generation/draft/clone.js';
import { serializeDocument } from '../../../core/src/generation/draft/serialize.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const body = (xml: string) => xml.replace(/^<\?xml[^>]*\?>\s*/, '');

t.test('the lean serializer writes what xmldom writes for real slides and layouts', needsCorpus('templates/poi-layouts-showcase.pptx', 'templates/onlyoffice-sample-en.pptx', 'templates/poi-japanese-table.pptx'), async (t) => {
  for (const name of ['poi-layouts-showcase.pptx', 'onlyoffice-sample-en.pptx', 'poi-japanese-table.pptx']) {
    const pkg = await OpcPackage.open(readFileSync(corpusPath(`templates/${name}`)));
    for (const part of pkg.partNames().filter((n) => /\/(slides\/slide|slideLayouts\/slideLayout)\d+\.xml$/.test(n))) {
      const doc = pkg.getXml(part);
      t.equal(body(serializeDocument(doc)), body(serializeXml(doc)), `${name} ${part}`);
    }
  }
});

t.test('a deep copy serializes like its source', needsCorpus('templates/python-pptx-populated-placeholders.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/python-pptx-populated-placeholders.pptx')));
  for (const part of ['/ppt/slides/slide3.xml', '/ppt/slides/slide4.xml', '/ppt/slideMasters/slideMaster1.xml']) {
    const doc = pkg.getXml(part);
    t.equal(serializeDocument(cloneDocument(doc)), serializeDocument(doc), part);
  }
});

t.test('a deep copy names every element and attribute as its source does, and answers namespaced lookups', needsCorpus('templates/python-pptx-populated-placeholders.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/python-pptx-populated-placeholders.pptx')));
  // slide 1 holds a picture (r:embed) besides placeholders
  const doc = pkg.getXml('/ppt/slides/slide1.xml');
  const copy = cloneDocument(doc);
  const walk = (d: typeof doc): Element[] => {
    const out: Element[] = [];
    const stack: Element[] = [d.documentElement!];
    while (stack.length) {
      const e = stack.pop()!;
      out.push(e);
      for (let c = e.lastChild; c; c = c.previousSibling) if (c.nodeType === 1) stack.push(c as Element);
    }
    return out;
  };
  const a = walk(doc);
  const b = walk(copy);
  t.equal(b.length, a.length, 'same number of elements');
  let mismatches = 0;
  a.forEach((src, i) => {
    const c = b[i]!;
    if (c.namespaceURI !== src.namespaceURI || c.prefix !== src.prefix || c.localName !== src.localName || c.nodeName !== src.nodeName) mismatches++;
    for (let k = 0; k < src.attributes.length; k++) {
      const sa = src.attributes.item(k)!;
      const ca = c.getAttributeNodeNS(sa.namespaceURI, sa.localName ?? sa.name);
      if (!ca || ca.value !== sa.value || ca.prefix !== sa.prefix || ca.name !== sa.name) mismatches++;
    }
  });
  t.equal(mismatches, 0, 'namespace, prefix, local name and attributes agree on every element');
  const embeds = descendants(copy, NS.a, 'blip').map((e) => e.getAttributeNS(NS.r, 'embed'));
  t.ok(embeds.length > 0 && embeds.every((id) => /^rId\d+$/.test(id ?? '')), 'r:embed found by namespace on the copy');
  t.same(embeds, descendants(doc, NS.a, 'blip').map((e) => e.getAttributeNS(NS.r, 'embed')));
  t.equal(descendants(copy, NS.p, 'sp').length, descendants(doc, NS.p, 'sp').length, 'elements found by namespace on the copy');
  t.equal(serializeXml(copy), serializeXml(doc), "xmldom's own serializer writes the copy as the source");
});

t.test('stubbed shapes are written from the source; copied ones can change', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/poi-layouts-showcase.pptx')));
  const src = pkg.getXml('/ppt/slides/slide9.xml');
  const { doc, stubs } = cloneWithStubs(src, (shape) => shape.localName === 'sp');
  t.ok(stubs.size > 0, 'the picture is left in the source');
  t.equal(descendants(doc, STUB_NS, 'shape').length, stubs.size);
  t.equal(serializeDocument(doc, stubs), serializeDocument(src), 'unchanged copy writes the same text');
  const t0 = descendants(doc, NS.a, 't')[0]!;
  t0.textContent = 'changed & <escaped>';
  const out = serializeDocument(doc, stubs);
  t.match(out, /changed &amp; &lt;escaped&gt;/);
  t.equal(descendants(src, NS.a, 't')[0]!.textContent === 'changed & <escaped>', false, 'the source is untouched');
  parseXml(out, 'round trip');
});

t.test('elements created with a prefix the root does not declare get a declaration', async (t) => {
  const doc = parseXml('<x:sld xmlns:x="http://schemas.openxmlformats.org/presentationml/2006/main"/>', 'x');
  const el = createElement(doc, NS.a, 'a:t');
  el.setAttributeNS(NS.r, 'r:id', 'rId1');
  doc.documentElement!.appendChild(el);
  const out = serializeDocument(doc);
  const again = parseXml(out, 'again');
  const t2 = descendants(again, NS.a, 't')[0];
  t.ok(t2, 'a:t is in the DrawingML namespace after a round trip');
  t.equal(t2!.getAttributeNS(NS.r, 'id'), 'rId1');
});

t.test('table cells copied with their a:tcPr content left to the template serialize as full copies, also when copied again', needsCorpus('templates/poi-japanese-table.pptx', 'templates/onlyoffice-sample-en.pptx', 'bench/SlideWithTables.pptx'), async (t) => {
  const isTcPr = (el: Element): boolean => el.localName === 'tcPr' && el.namespaceURI === NS.a;
  let cells = 0;
  let stood = 0;
  for (const name of ['templates/poi-japanese-table.pptx', 'templates/onlyoffice-sample-en.pptx', 'bench/SlideWithTables.pptx']) {
    const pkg = await OpcPackage.open(readFileSync(corpusPath(name)));
    for (const part of pkg.partNames().filter((n) => /\/slides\/slide\d+\.xml$/.test(n))) {
      const doc = pkg.getXml(part);
      const full = cloneDocument(doc);
      const lean = cloneDocument(doc);
      const fullCells = descendants(full.documentElement!, NS.a, 'tc');
      const leanCells = descendants(lean.documentElement!, NS.a, 'tc');
      descendants(doc.documentElement!, NS.a, 'tc').forEach((tc, i) => {
        const a = cloneInto(full, tc);
        fullCells[i]!.parentNode!.replaceChild(a, fullCells[i]!);
        // a copy of the lean copy must keep the stand-in (rows copied again, e.g. onto continuation slides)
        const b = cloneInto(lean, cloneInto(lean, tc, undefined, isTcPr));
        for (const el of descendants(b, STUB_NS, 'children')) if (childrenStubSource(el)) stood++;
        leanCells[i]!.parentNode!.replaceChild(b, leanCells[i]!);
        cells++;
      });
      t.equal(serializeDocument(lean), serializeDocument(full), `${name} ${part}`);
    }
  }
  t.ok(cells > 20, `${cells} cells copied`);
  t.ok(stood >= 18, `${stood} a:tcPr contents written from the template`);
});
