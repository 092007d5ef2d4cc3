/**
 * How parsed and engine-made trees are built (core/src/ooxml/xml.ts `TreeBuilder`,
 * `newElement`, `newAttribute`; core/src/generation/draft/clone.ts): parsed parts are built
 * as the engine's copies are, so every element, attribute and text node of either kind has
 * one V8 hidden class, and the tree is the one xmldom's own handler builds.
 *
 * - Every XML part of every corpus template parses to the same markup, the same names and
 *   namespaces of every element and attribute, and the same in-scope namespace lookups as
 *   with xmldom's own handler.
 * - In a child process with V8's natives syntax: parsed elements (leaves and parents), copies,
 *   elements made by `createElement`, their attributes and their text nodes share one hidden
 *   class per kind of node (a change in xmldom's internals that splits them fails here).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { DOMParser } from '@xmldom/xmldom';
import { parseXml, serializeXml, type Document, type Element, type Node } from '../../../core/src/ooxml/xml.js';

/** The tree xmldom's own DOM handler builds (what parseXml built before), after parseXml's own checks. */
function xmldomTree(xml: string, part: string): Document {
  parseXml(xml, part);
  return new DOMParser({ locator: false, onError: () => undefined }).parseFromString(xml, 'application/xml');
}
import { corpusFilesOfFor, corpusPath } from '../../helpers/corpus.js';

/** Every element's and attribute's names, and the namespace its prefix resolves to in scope. */
function names(node: Node, out: string[] = []): string[] {
  if (node.nodeType === 1) {
    const el = node as Element;
    out.push(`<${el.nodeName} ${el.namespaceURI} ${el.prefix} ${el.localName} ${el.lookupNamespaceURI(el.prefix)}`);
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i)!;
      out.push(`@${a.name} ${a.namespaceURI} ${a.prefix} ${a.localName}=${a.value}`);
    }
  } else if (node.nodeType === 3 || node.nodeType === 4) out.push(`#${node.nodeValue}`);
  for (let c = node.firstChild; c; c = c.nextSibling) names(c, out);
  return out;
}

t.test('a small part: the same tree either way, namespace declarations included', async (t) => {
  const xml = '<p:sld xmlns:p="urn:p" xmlns:a="urn:a" xmlns="urn:d" plain="1" a:q="2"><p:cSld><a:t xml:space="preserve"> x </a:t><e/><![CDATA[<c>]]></p:cSld></p:sld>';
  const before = xmldomTree(xml, '/x.xml');
  const after = parseXml(xml, '/x.xml');
  t.equal(serializeXml(after), serializeXml(before));
  t.same(names(after), names(before));
  const e = after.documentElement!.firstChild!.childNodes.item(1) as Element;
  t.equal(e.namespaceURI, 'urn:d', 'an unprefixed element takes the default namespace');
  t.equal(after.documentElement!.getAttributeNS('urn:a', 'q'), '2', 'attributes found by namespace and local name');
  t.equal(after.documentElement!.getAttributeNode('plain')!.namespaceURI, null, 'an unprefixed attribute has no namespace');
});

const files = corpusFilesOfFor(t, 'templates');
if (files.length) {
  t.test('every XML part of the corpus templates parses to the tree xmldom builds', async (t) => {
    let parts = 0;
    let differ = 0;
    const decoder = new TextDecoder();
    for (const file of files) {
      let pkg: OpcPackage;
      try {
        pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
      } catch {
        continue; // refused packages are the hostile tests' business
      }
      for (const part of pkg.partNames()) {
        if (!/\.(xml|rels|vml)$/i.test(part)) continue;
        const text = decoder.decode(pkg.getBytes(part));
        let before: string[];
        let after: string[];
        try {
          const a = xmldomTree(text, part);
          before = [serializeXml(a), ...names(a)];
        } catch {
          continue; // a part parseXml refuses (hostile inputs are tested elsewhere)
        }
        const b = parseXml(text, part);
        after = [serializeXml(b), ...names(b)];
        parts++;
        if (before.length !== after.length || before.some((x, i) => x !== after[i])) {
          differ++;
          if (differ <= 5) t.fail(`${file} ${part}: the trees differ`);
        }
      }
    }
    t.equal(differ, 0, `${parts} parts compared, none differs`);
    t.ok(parts > 1000, 'the corpus parts were read');
  });
}

const PROBE = `
import { parseXml, createElement, NS } from ${JSON.stringify(fileURLToPath(new URL('../../../core/src/ooxml/xml.js', import.meta.url)))};
import { cloneDocument } from ${JSON.stringify(fileURLToPath(new URL('../../../core/src/generation/draft/clone.js', import.meta.url)))};
const same = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const doc = parseXml('<p:sld xmlns:p="' + NS.p + '" xmlns:a="' + NS.a + '"><p:cSld><a:t>hello</a:t><a:br/><a:t b="1">x</a:t></p:cSld></p:sld>', '/x.xml');
const copy = cloneDocument(doc);
const made = createElement(copy, NS.a, 'a:r', { lang: 'en' });
copy.documentElement.firstChild.appendChild(made);
const parent = doc.documentElement.firstChild, leaf = parent.childNodes.item(1);
const copyParent = copy.documentElement.firstChild, copyLeaf = copyParent.childNodes.item(1);
const text = parent.firstChild.firstChild, copyText = copyParent.firstChild.firstChild;
const attr = parent.childNodes.item(2).attributes.item(0), copyAttr = copyParent.childNodes.item(2).attributes.item(0);
console.log(JSON.stringify({
  'parsed parent ~ parsed leaf': same(parent, leaf),
  'parsed ~ copied': same(parent, copyParent) && same(leaf, copyLeaf),
  'parsed ~ made by createElement': same(parent, made),
  'parsed text ~ copied text': same(text, copyText),
  'parsed attribute ~ copied attribute': same(attr, copyAttr),
  'parsed attribute ~ made by createElement': same(attr, made.attributes.item(0)),
}));
`;

t.test('parsed, copied and made nodes share one hidden class per kind', async (t) => {
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', PROBE], { encoding: 'utf8' });
  t.equal(r.status, 0, r.stderr.slice(-1000));
  const result = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, boolean>;
  for (const [what, ok] of Object.entries(result)) t.ok(ok, what);
  t.equal(Object.keys(result).length, 6);
});
