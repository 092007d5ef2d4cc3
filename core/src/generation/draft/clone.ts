/**
 * Fast deep copies of xmldom trees. xmldom's own `cloneNode` copies every enumerable
 * property of every node through its prototype chain, which costs tens of microseconds per
 * node; rebuilding through the factory methods is several times faster and yields the
 * same tree (elements with their namespaces and prefixes, attributes including namespace
 * declarations, text and CDATA). Comments and processing instructions are not copied.
 */
import { newAttribute, newElement, type Attr, type Document, type Element, type Node } from '../../ooxml/xml.js';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/**
 * Stand-ins for all the children of a source element (`sw:children`, see {@link cloneInto}'s
 * `contentUnedited`), written by the serializer as the source's children: stub → source.
 * Module-wide rather than per document, so copies of a copy keep them.
 */
const childrenStubs = new WeakMap<Element, Element>();

/** The source element whose children the stand-in `el` is written as, if it is one. */
export function childrenStubSource(el: Element): Element | undefined {
  return childrenStubs.get(el);
}

/**
 * A deep copy of `src` owned by `doc` (which may be `src`'s own document).
 *
 * @param prune - descendants for which it returns true are left out (with their subtrees)
 * @param contentUnedited - descendants for which it returns true are copied with their
 *   attributes only, their children replaced by one stand-in the serializer writes from the
 *   source: for elements read for their attributes whose content nothing edits (a table
 *   cell's `a:tcPr`, whose borders and fill are most of a cell). Their children must not
 *   be read from the copy, nor the source changed afterwards.
 */
export function cloneInto(doc: Document, src: Element, prune?: (el: Element) => boolean, contentUnedited?: (el: Element) => boolean): Element {
  const root = copyElement(doc, src);
  // two parallel stacks (node to copy, parent of its copy): no pair allocated per node
  const nodes: Node[] = [];
  const parents: Element[] = [];
  for (let c = src.lastChild; c; c = c.previousSibling) {
    nodes.push(c);
    parents.push(root);
  }
  // children are pushed in reverse and popped in order, so appending keeps document order
  while (nodes.length) {
    const node = nodes.pop()!;
    const parent = parents.pop()!;
    if (node.nodeType === ELEMENT_NODE) {
      if (prune && prune(node as Element)) continue;
      const el = copyElement(doc, node as Element);
      appendFresh(doc, parent, el);
      const standsFor = node.namespaceURI === STUB_NS ? childrenStubs.get(node as Element) : undefined;
      if (standsFor) childrenStubs.set(el, standsFor);
      else if (contentUnedited && node.firstChild && contentUnedited(node as Element)) {
        const stub = newElement(doc, STUB_NS, 'sw:children', 'sw', 'children');
        appendFresh(doc, el, stub);
        childrenStubs.set(stub, node as Element);
      } else {
        for (let c = node.lastChild; c; c = c.previousSibling) {
          nodes.push(c);
          parents.push(el);
        }
      }
    } else if (node.nodeType === TEXT_NODE) {
      appendFresh(doc, parent, doc.createTextNode(node.nodeValue ?? ''));
    } else if (node.nodeType === CDATA_SECTION_NODE) {
      appendFresh(doc, parent, doc.createCDATASection(node.nodeValue ?? ''));
    }
  }
  return root;
}

/** The tree links of an xmldom node (plain properties in 0.9). */
interface LinkFields {
  parentNode: LinkFields | null;
  firstChild: LinkFields | null;
  lastChild: LinkFields | null;
  previousSibling: LinkFields | null;
  nextSibling: LinkFields | null;
  childNodes: { length: number; [i: number]: LinkFields };
}

/** xmldom 0.9's document change counter: its live node lists re-read their nodes when it moves. */
interface ChangeCounter {
  _inc?: number;
}

/**
 * Appends `node`, created by this module a moment ago and in no tree yet, as the last child
 * of `parent`, an element of `doc`. Exactly the links xmldom's `appendChild` sets (siblings,
 * parent, the `childNodes` list, the document's change counter), without its pre-insertion
 * checks, which cost a fifth of a copy and cannot fail for a fresh node under an element.
 */
function appendFresh(doc: Document, parent: Element, node: Node): void {
  const p = parent as unknown as LinkFields;
  const n = node as unknown as LinkFields;
  const last = p.lastChild;
  n.previousSibling = last;
  n.nextSibling = null;
  if (last) last.nextSibling = n;
  else p.firstChild = n;
  p.lastChild = n;
  n.parentNode = p;
  const counter = doc as unknown as ChangeCounter;
  if (counter._inc) {
    counter._inc++;
    const list = p.childNodes;
    list[list.length++] = n;
  }
}

/**
 * A shallow copy of `src` (its attributes, no children) owned by `doc`.
 *
 * The names come from an element that is already in a well-formed tree, so they are set
 * as they are instead of through `createElementNS`/`setAttributeNS`, which check every
 * qualified name against the XML name production again (a third of the cost of a copy).
 * Each attribute gets its namespace before it joins the element, so xmldom's index of
 * attributes by namespace and local name (consulted when attribute nodes are added) keys
 * it as it keys a parsed one; the attribute is added without the two lookups by name
 * `setAttribute` makes.
 */
function copyElement(doc: Document, src: Element): Element {
  const el = newElement(doc, src.namespaceURI, src.nodeName, src.prefix, src.localName ?? src.nodeName);
  const attrs = src.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    el.setAttributeNode(newAttribute(doc, a.namespaceURI, a.name, a.prefix, a.localName ?? a.name, a.value));
  }
  return el;
}

/** A deep copy of a whole document (its root element and everything below). */
export function cloneDocument(src: Document): Document {
  const root = src.documentElement!;
  const doc = src.implementation.createDocument(root.namespaceURI ?? null, root.nodeName, null);
  const copy = cloneInto(doc, root);
  doc.replaceChild(copy, doc.documentElement!);
  return doc;
}

/** Namespace of the stand-in elements {@link cloneWithStubs} leaves for shapes it does not copy. */
export const STUB_NS = 'urn:slidewright:generation:stub';

/** Child elements of `p:spTree` that are shapes (§19.3.1.45) or wrap one (`mc:AlternateContent`). */
const SHAPE_NAMES: ReadonlySet<string> = new Set(['sp', 'grpSp', 'graphicFrame', 'cxnSp', 'pic', 'contentPart', 'AlternateContent']);

/**
 * A copy of a slide document in which the top-level shapes that `keep` rejects are not
 * copied: each is replaced by an empty stand-in element (namespace {@link STUB_NS}) that
 * `stubs` maps back to the source shape, and that the serializer writes as the source
 * shape. Shapes nobody edits (pictures, decorations, charts, untouched tables) thus cost
 * nothing; everything else is a deep copy as {@link cloneDocument} makes it. When `keep`
 * returns a function, the shape is copied without the descendants that function selects
 * (e.g. the rows of a table about to be rewritten). `sources` maps each copied shape to
 * its source.
 */
export function cloneWithStubs(
  src: Document,
  keep: (shape: Element) => boolean | ((el: Element) => boolean),
): { doc: Document; stubs: Map<Element, Element>; sources: Map<Element, Element> } {
  const srcRoot = src.documentElement!;
  const doc = src.implementation.createDocument(srcRoot.namespaceURI ?? null, srcRoot.nodeName, null);
  const root = copyElement(doc, srcRoot);
  doc.replaceChild(root, doc.documentElement!);
  const stubs = new Map<Element, Element>();
  const sources = new Map<Element, Element>();
  for (let c = srcRoot.firstChild; c; c = c.nextSibling) {
    if (!isNamed(c, 'cSld')) {
      appendCopy(doc, root, c);
      continue;
    }
    const cSld = copyElement(doc, c as Element);
    appendFresh(doc, root, cSld);
    for (let cc = c.firstChild; cc; cc = cc.nextSibling) {
      if (!isNamed(cc, 'spTree')) {
        appendCopy(doc, cSld, cc);
        continue;
      }
      const tree = copyElement(doc, cc as Element);
      appendFresh(doc, cSld, tree);
      for (let s = cc.firstChild; s; s = s.nextSibling) {
        const isShape = s.nodeType === ELEMENT_NODE && SHAPE_NAMES.has((s as Element).localName ?? '');
        if (!isShape) {
          appendCopy(doc, tree, s);
          continue;
        }
        const decision = keep(s as Element);
        if (decision === false) {
          const stub = newElement(doc, STUB_NS, 'sw:shape', 'sw', 'shape');
          appendFresh(doc, tree, stub);
          stubs.set(stub, s as Element);
        } else {
          const copy = cloneInto(doc, s as Element, typeof decision === 'function' ? decision : undefined);
          appendFresh(doc, tree, copy);
          sources.set(copy, s as Element);
        }
      }
    }
  }
  return { doc, stubs, sources };
}

function isNamed(n: Node, local: string): boolean {
  return n.nodeType === ELEMENT_NODE && (n as Element).localName === local;
}

function appendCopy(doc: Document, parent: Element, n: Node): void {
  if (n.nodeType === ELEMENT_NODE) appendFresh(doc, parent, cloneInto(doc, n as Element));
  else if (n.nodeType === TEXT_NODE) appendFresh(doc, parent, doc.createTextNode(n.nodeValue ?? ''));
  else if (n.nodeType === CDATA_SECTION_NODE) appendFresh(doc, parent, doc.createCDATASection(n.nodeValue ?? ''));
}

/**
 * A copy of a part's root element in which only the children named in `keep` (local
 * names) are copied; every other child is a stand-in for its source (see
 * {@link cloneWithStubs}), written from the source by the serializer. For parts of which
 * generation edits one list and nothing else (a slide master's `p:sldLayoutIdLst`).
 */
export function cloneRootWithStubs(src: Document, keep: ReadonlySet<string>): { doc: Document; stubs: Map<Element, Element> } {
  const srcRoot = src.documentElement!;
  const doc = src.implementation.createDocument(srcRoot.namespaceURI ?? null, srcRoot.nodeName, null);
  const root = copyElement(doc, srcRoot);
  doc.replaceChild(root, doc.documentElement!);
  const stubs = new Map<Element, Element>();
  for (let c = srcRoot.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== ELEMENT_NODE || keep.has((c as Element).localName ?? '')) {
      appendCopy(doc, root, c);
      continue;
    }
    const stub = newElement(doc, STUB_NS, 'sw:part', 'sw', 'part');
    appendFresh(doc, root, stub);
    stubs.set(stub, c as Element);
  }
  return { doc, stubs };
}
