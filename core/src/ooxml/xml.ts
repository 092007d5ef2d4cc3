/**
 * Safe XML parsing and small DOM helpers for OOXML parts.
 *
 * Every part of an uploaded package is hostile until proven otherwise: a DOCTYPE (and so
 * any entity declaration, internal or external) is refused before the parser sees the
 * text, and element nesting is bounded before a tree is built, so neither XXE, "billion
 * laughs" nor a 10,000-deep group can reach the engine.
 *
 * Elements are always matched by namespace URI and local name, never by the prefix a
 * producer happened to choose.
 */
import { createRequire } from 'node:module';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Attr, Document, Element, Node } from '@xmldom/xmldom';
import { PackageError } from './errors.js';

export type { Attr, Document, Element, Node };

/** Namespace URIs used by PresentationML (ECMA-376 Part 1, §19) and DrawingML (§20, §21). */
export const NS = {
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  c: 'http://schemas.openxmlformats.org/drawingml/2006/chart',
  dgm: 'http://schemas.openxmlformats.org/drawingml/2006/diagram',
  mc: 'http://schemas.openxmlformats.org/markup-compatibility/2006',
  pkgRels: 'http://schemas.openxmlformats.org/package/2006/relationships',
  contentTypes: 'http://schemas.openxmlformats.org/package/2006/content-types',
  p14: 'http://schemas.microsoft.com/office/powerpoint/2010/main',
  a14: 'http://schemas.microsoft.com/office/drawing/2010/main',
  extendedProperties: 'http://schemas.openxmlformats.org/officeDocument/2006/extended-properties',
} as const;

/** Limits applied to every XML part before and while it is parsed. */
export interface XmlLimits {
  /** Deepest element nesting accepted (elements). */
  maxDepth: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxDepth: 256 };

/** A piece of an expression xmldom's grammar joins: its own text, or an expression's source. */
type ExpressionPiece = string | RegExp;

/** The function of xmldom's grammar module (`lib/grammar.js`) that joins pieces into one expression. */
interface XmldomGrammar {
  reg: (this: unknown, ...pieces: ExpressionPiece[]) => RegExp;
}

/** A node of {@link JoinedExpressions}: the expression of the pieces read so far, and the next piece's nodes. */
interface ExpressionNode {
  expr?: RegExp;
  next: Map<ExpressionPiece, ExpressionNode>;
}

/**
 * Expressions by the pieces they were joined from (a string by value, an expression by
 * identity: the grammar passes its own constant ones), at most `limit` nodes, then afresh.
 */
class JoinedExpressions {
  private root: ExpressionNode = { next: new Map() };
  private nodes = 0;

  constructor(private readonly limit: number) {}

  /** The expression remembered for `pieces`, else `join(pieces)`, remembered. */
  of(pieces: ExpressionPiece[], join: (pieces: ExpressionPiece[]) => RegExp): RegExp {
    let node = this.root;
    for (const piece of pieces) {
      let next = node.next.get(piece);
      if (!next) {
        if (++this.nodes > this.limit) {
          this.root = { next: new Map() };
          this.nodes = 0;
          return join(pieces);
        }
        next = { next: new Map() };
        node.next.set(piece, next);
      }
      node = next;
    }
    if (node.expr) return node.expr;
    const expr = join(pieces);
    // An expression with `g` or `y` keeps its position between calls: never shared.
    if (!expr.global && !expr.sticky) node.expr = expr;
    return expr;
  }
}

/**
 * The expressions xmldom's grammar has joined. xmldom 0.9 joins and compiles a new Unicode
 * expression for the XML Name production at every end tag it reads (`sax.js`:
 * `g.reg('^', g.QName_group, g.S_OPT, '$')`): about a quarter of a part's parse time, and
 * much of its garbage, went there. The expressions have neither the `g` nor the `y` flag,
 * so `exec` keeps no state in them and one compiled expression serves every call.
 */
const xmldomExpressions = new JoinedExpressions(256);

/** Makes xmldom's grammar answer a list of pieces it has joined before with the expression it compiled then. */
function rememberXmldomExpressions(): void {
  const grammar = createRequire(import.meta.url)('@xmldom/xmldom/lib/grammar.js') as Partial<XmldomGrammar>;
  const join = grammar.reg;
  // Another xmldom version may not have this function; parsing is then only slower.
  if (typeof join !== 'function') return;
  grammar.reg = function (this: unknown, ...pieces: ExpressionPiece[]): RegExp {
    // The grammar checks the pieces as it joins them (it may throw): nothing is kept then.
    return xmldomExpressions.of(pieces, (p) => join.apply(this, p));
  };
}
rememberXmldomExpressions();

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/**
 * Parses one XML part.
 *
 * @param text - the part's text (already decoded from UTF-8/UTF-16)
 * @param partName - used in error messages only
 * @throws PackageError `xml_dtd` when the part declares a DOCTYPE, `xml_too_deep` past
 *   `limits.maxDepth`, `xml_malformed` when the text is not well-formed XML
 */
export function parseXml(text: string, partName: string, limits: XmlLimits = DEFAULT_XML_LIMITS): Document {
  checkPrologAndDepth(text, partName, limits.maxDepth);
  let firstError: string | undefined;
  const parser = new DOMParser({
    // no lineNumber/columnNumber on every node: two properties per node of every template kept in memory
    locator: false,
    // elements and attributes made as the engine's copies are (one hidden class; names already checked by the parser)
    domHandler: TreeBuilder as unknown as DomHandlerClass,
    onError: (level, message) => {
      if (level !== 'warning' && firstError === undefined) firstError = message;
      if (level === 'fatalError') throw new PackageError('xml_malformed', `${partName} is not well-formed XML: ${message}`);
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(text, 'application/xml');
  } catch (err) {
    if (err instanceof PackageError) throw err;
    throw new PackageError('xml_malformed', `${partName} is not well-formed XML: ${(err as Error).message}`, { cause: err });
  }
  if (firstError !== undefined || !doc.documentElement) {
    throw new PackageError('xml_malformed', `${partName} is not well-formed XML: ${firstError ?? 'no root element'}`);
  }
  return doc;
}

/** What xmldom's SAX reader hands a DOM handler for an element's attributes. */
interface SaxAttributes {
  readonly length: number;
  getURI(i: number): string | undefined;
  getValue(i: number): string;
  getQName(i: number): string;
  getLocalName(i: number): string;
}

/** The fields of xmldom 0.9's DOM handler (lib/dom-parser.js) a subclass reads and sets. */
interface DomHandlerBase {
  doc: Document;
  currentElement: Element | undefined;
  startElement(namespaceURI: string | undefined, localName: string, qName: string, attrs: SaxAttributes): void;
}

type DomHandlerClass = new (options?: object) => DomHandlerBase;

/** xmldom 0.9's own DOM handler, which the parser's `domHandler` option lets us extend. */
const XmldomHandler = (createRequire(import.meta.url)('@xmldom/xmldom/lib/dom-parser.js') as { __DOMHandler: DomHandlerClass }).__DOMHandler;

/**
 * Builds parsed trees the way the engine builds copies ({@link newElement},
 * {@link newAttribute}): every parsed element then has the hidden class of the engine's
 * own elements (the reading model and the serializer read both kinds), and the names the
 * SAX reader has already checked are not checked a second time.
 */
class TreeBuilder extends XmldomHandler {
  override startElement(namespaceURI: string | undefined, localName: string, qName: string, attrs: SaxAttributes): void {
    const doc = this.doc;
    const colon = qName.indexOf(':');
    const el = newElement(doc, namespaceURI || null, qName, colon < 0 ? null : qName.slice(0, colon), colon < 0 ? qName : qName.slice(colon + 1));
    const parent = this.currentElement;
    if (parent) parent.appendChild(el);
    else doc.appendChild(el);
    this.currentElement = el;
    for (let i = 0; i < attrs.length; i++) {
      const name = attrs.getQName(i);
      const at = name.indexOf(':');
      el.setAttributeNode(newAttribute(doc, attrs.getURI(i) || null, name, at < 0 ? null : name.slice(0, at), at < 0 ? name : name.slice(at + 1), attrs.getValue(i)));
    }
  }
}

/**
 * One linear pass over the text: refuses DOCTYPE/ENTITY declarations and measures element
 * depth without building anything, so hostile nesting is refused in O(n) with O(1) memory.
 */
function checkPrologAndDepth(text: string, partName: string, maxDepth: number): void {
  let depth = 0;
  let i = text.indexOf('<');
  while (i !== -1 && i < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        i = end === -1 ? -1 : text.indexOf('<', end + 3);
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        const end = text.indexOf(']]>', i + 9);
        i = end === -1 ? -1 : text.indexOf('<', end + 3);
        continue;
      }
      throw new PackageError('xml_dtd', `${partName} declares a DOCTYPE or entity; DTDs are refused in OOXML parts`);
    }
    if (next === 0x3f /* ? */) {
      const end = text.indexOf('?>', i + 2);
      i = end === -1 ? -1 : text.indexOf('<', end + 2);
      continue;
    }
    const close = findTagEnd(text, i + 1);
    if (close === -1) return; // malformed: the parser reports it
    if (next === 0x2f /* / */) depth--;
    else if (text.charCodeAt(close - 1) !== 0x2f) {
      depth++;
      if (depth > maxDepth) {
        throw new PackageError('xml_too_deep', `${partName} nests elements deeper than ${maxDepth} levels`);
      }
    }
    i = text.indexOf('<', close + 1);
  }
}

/** Index of the `>` closing the tag that starts before `from`, skipping quoted attribute values. */
function findTagEnd(text: string, from: number): number {
  let quote = 0;
  for (let j = from; j < text.length; j++) {
    const ch = text.charCodeAt(j);
    if (quote) {
      if (ch === quote) quote = 0;
    } else if (ch === 0x22 || ch === 0x27) quote = ch;
    else if (ch === 0x3e) return j;
  }
  return -1;
}

/** Serializes a document with an XML declaration (UTF-8, standalone) as Office writes it. */
export function serializeXml(doc: Document): string {
  const body = new XMLSerializer().serializeToString(doc.documentElement as unknown as Node);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a part's bytes honouring a UTF-16 BOM; UTF-8 otherwise (ECMA-376 Part 2, §8.1.4).
 * @throws PackageError `xml_malformed` when the bytes are not valid in that encoding
 */
export function decodeXmlBytes(bytes: Uint8Array, partName = 'an XML part'): string {
  try {
    if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    return UTF8.decode(bytes);
  } catch {
    throw new PackageError('xml_malformed', `${partName} is not valid UTF-8/UTF-16 text`);
  }
}

export function isElement(n: Node | null | undefined): n is Element {
  return !!n && n.nodeType === ELEMENT_NODE;
}

/** Child elements of `parent`, optionally only those with namespace `ns` and local name `local`. */
export function children(parent: Element | Document, ns?: string, local?: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (!isElement(n)) continue;
    if (ns !== undefined && n.namespaceURI !== ns) continue;
    if (local !== undefined && n.localName !== local) continue;
    out.push(n);
  }
  return out;
}

/** First child element with namespace `ns` and local name `local`, or undefined. */
export function child(parent: Element | Document | undefined, ns: string, local: string): Element | undefined {
  if (!parent) return undefined;
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (isElement(n) && n.localName === local && n.namespaceURI === ns) return n;
  }
  return undefined;
}

/** Follows a path of (ns, local) steps through first children: `path(sp, [NS.p,'spPr'], [NS.a,'xfrm'])`. */
export function path(parent: Element | Document | undefined, ...steps: Array<readonly [string, string]>): Element | undefined {
  let cur: Element | Document | undefined = parent;
  for (const [ns, local] of steps) {
    cur = child(cur, ns, local);
    if (!cur) return undefined;
  }
  return cur as Element | undefined;
}

/** All descendant elements with namespace `ns` and local name `local`, in document order. */
export function descendants(root: Element | Document, ns: string, local: string): Element[] {
  const out: Element[] = [];
  const stack: Node[] = [];
  for (let n = root.lastChild; n; n = n.previousSibling) stack.push(n);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (n.localName === local && n.namespaceURI === ns) out.push(n);
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return out;
}

/** Attribute value or undefined when absent (xmldom returns null or ''). */
export function attr(el: Element | undefined, name: string): string | undefined {
  if (!el) return undefined;
  const list = el.attributes;
  for (let i = 0; i < list.length; i++) {
    const a = list[i]!;
    if (a.nodeName === name) return a.value;
  }
  return undefined;
}

/** Attribute in a namespace (e.g. `r:id`), or undefined when absent. */
export function attrNS(el: Element | undefined, ns: string, local: string): string | undefined {
  if (!el || !el.hasAttributeNS(ns, local)) return undefined;
  return el.getAttributeNS(ns, local) ?? undefined;
}

/** Integer attribute, or `fallback` when absent or not an integer. */
export function intAttr(el: Element | undefined, name: string): number | undefined;
export function intAttr(el: Element | undefined, name: string, fallback: number): number;
export function intAttr(el: Element | undefined, name: string, fallback?: number): number | undefined {
  const v = attr(el, name);
  if (v === undefined) return fallback;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : fallback;
}

/** ST_OnOff boolean attribute (`1`, `true`, `on` are true; ECMA-376 Part 1, §22.9.2.7). */
export function boolAttr(el: Element | undefined, name: string): boolean | undefined {
  const v = attr(el, name);
  if (v === undefined) return undefined;
  return v === '1' || v === 'true' || v === 'on';
}

/** Concatenated text of all text and CDATA descendants. */
export function textContent(el: Element): string {
  let s = '';
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === TEXT_NODE || n.nodeType === CDATA_SECTION_NODE) s += n.nodeValue ?? '';
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return s;
}

/** A qualified name made of ASCII name characters (what the engine's own element names are). */
const QNAME = /^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/;

/** The naming and tree-link fields of xmldom 0.9's element nodes (plain properties). */
interface ElementFields {
  namespaceURI: string | null;
  prefix: string | null;
  localName: string | null;
  previousSibling: Node | null;
  nextSibling: Node | null;
  parentNode: Node | null;
  firstChild: Node | null;
  lastChild: Node | null;
}

/**
 * A new element of `doc` with its names set as given (not checked again: the caller's
 * names come from a parsed tree or are checked against {@link QNAME}), and every field an
 * element gains in a tree present from the start, always in one order.
 *
 * Why: V8 gives objects whose properties were added in different orders different hidden
 * classes. xmldom adds the tree links when a node is first inserted and the child links
 * when it first gets a child, so elements made by different paths, and leaves versus
 * parents, would have up to six classes, and every property read of the engine's tree
 * walks (`child`, the serializer, the reading model) would pay for the mix. Elements made
 * here share one class.
 */
export function newElement(doc: Document, ns: string | null, qualifiedName: string, prefix: string | null, localName: string): Element {
  const el = doc.createElement(qualifiedName);
  const f = el as unknown as ElementFields;
  f.namespaceURI = ns;
  f.prefix = prefix;
  f.localName = localName;
  f.previousSibling = null;
  f.nextSibling = null;
  f.parentNode = null;
  f.firstChild = null;
  f.lastChild = null;
  return el;
}

/** The fields of xmldom 0.9's attribute nodes set here (plain properties). */
interface AttrFields {
  namespaceURI: string | null;
  prefix: string | null;
  localName: string | null;
  value: string;
  nodeValue: string;
}

/** xmldom 0.9's attribute factory without the name check. */
interface AttrFactory {
  _createAttribute?: (name: string) => Attr;
}

/**
 * A new attribute node of `doc` (not yet on an element) with its names as given, not
 * checked again, and its fields always set in one order (one hidden class, as
 * {@link newElement} does for elements).
 */
export function newAttribute(doc: Document, ns: string | null, qualifiedName: string, prefix: string | null, localName: string, value: string): Attr {
  const factory = doc as unknown as AttrFactory;
  const node = factory._createAttribute ? factory._createAttribute(qualifiedName) : doc.createAttribute(qualifiedName);
  const f = node as unknown as AttrFields;
  f.namespaceURI = ns;
  f.prefix = prefix;
  f.localName = localName;
  f.value = f.nodeValue = value;
  return node;
}

/**
 * Creates an element in namespace `ns`, with the prefix conventional for it, so new markup
 * reads like Office's own (`a:p`, `p:sp`).
 */
export function createElement(doc: Document, ns: string, qualifiedName: string, attrs?: Record<string, string | number | boolean | undefined>): Element {
  const colon = qualifiedName.indexOf(':');
  const el = QNAME.test(qualifiedName) ? newElement(doc, ns, qualifiedName, colon < 0 ? null : qualifiedName.slice(0, colon), qualifiedName.slice(colon + 1)) : doc.createElementNS(ns, qualifiedName);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined) continue;
      el.setAttribute(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
    }
  }
  return el;
}

/**
 * Inserts `el` as a child of `parent` before the first existing child whose local name is
 * in `successors` (the names the schema places after it), else appends. This keeps the
 * sequence order that ECMA-376 schemas fix for child elements.
 */
export function insertInOrder(parent: Element, el: Element, successors: readonly string[]): Element {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (isElement(n) && successors.includes(n.localName ?? '')) {
      parent.insertBefore(el, n);
      return el;
    }
  }
  parent.appendChild(el);
  return el;
}

/** Removes every child node of `el`. */
export function removeChildren(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/**
 * The element a consumer that understands the 2006 namespaces sees for
 * `mc:AlternateContent`: the first `mc:Choice` whose `Requires` prefixes all resolve to
 * namespaces we read, else `mc:Fallback` (ECMA-376 Part 3, §10.2).
 */
export function resolveAlternateContent(ac: Element): Element | undefined {
  const understood = new Set<string>([NS.p, NS.a, NS.r, NS.c, NS.p14, NS.a14, NS.dgm]);
  for (const choice of children(ac, NS.mc, 'Choice')) {
    const requires = (attr(choice, 'Requires') ?? '').split(/\s+/).filter(Boolean);
    if (requires.every((prefix) => understood.has(choice.lookupNamespaceURI(prefix) ?? ''))) return choice;
  }
  return child(ac, NS.mc, 'Fallback');
}
