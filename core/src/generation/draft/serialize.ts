/**
 * A lean XML serializer for the parts generation writes. It emits elements and attributes
 * under the names they carry, adds a namespace declaration only where an element or
 * attribute prefix is not bound in scope (elements created by us inside a part whose root
 * uses other prefixes), and escapes text and attribute values (XML 1.0 §2.4, §3.3.3).
 * Comments and processing instructions are dropped; CDATA is written as escaped text.
 *
 * It does the same job as xmldom's XMLSerializer several times faster, which matters when
 * a deck has hundreds of slides.
 */
import type { Document, Element, Node } from '../../ooxml/xml.js';
import { STUB_NS, childrenStubSource } from './clone.js';
import { keepsRunAttribute, keepsRunChild, paragraphMarkers, type DeferredParagraphs } from './deferred-paragraphs.js';
import { MERGE_ATTRS, rowMarkers, type DeferredCell, type DeferredRows } from './deferred-rows.js';
import { NS, child } from '../../ooxml/xml.js';
import { BoundedMemo } from '../../bounded-memo.js';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;
const XMLNS = 'http://www.w3.org/2000/xmlns/';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** Escapes text for element content (`&`, `<`, `>`; XML 1.0 §2.4). */
export function escapeText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!) : s;
}

/** Escapes an attribute value written in double quotes (`&`, `<`, `"`, and tab and line ends as references; XML 1.0 §3.3.3). */
export function escapeAttr(s: string): string {
  return /[&<"\t\n\r]/.test(s) ? s.replace(/[&<"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!) : s;
}

/** Prefix → namespace bindings in scope; a child scope inherits through the prototype chain. */
type Scope = Record<string, string>;

/**
 * Serializes a document with the XML declaration Office writes (UTF-8, standalone).
 *
 * @param stubs - stand-in elements (see `cloneWithStubs`) and the source elements to write in their place
 */
export function serializeDocument(doc: Document, stubs?: ReadonlyMap<Element, Element>): string {
  const out: Sink = { s: XML_DECLARATION };
  serializeElement(doc.documentElement!, documentScope(), out, stubs);
  return out.s;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

function documentScope(): Scope {
  const scope: Scope = Object.create(null) as Scope;
  scope['xml'] = XML_NS;
  return scope;
}

/**
 * Where a serialized document repeats the text of a template element written before: the
 * byte range, and the element the text was written from (the same element gives the same
 * bytes every time, so what is read from them can be kept).
 */
export interface RepeatedText {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
  /** The template element (a stand-in's source shape, or the parent whose children stand in). */
  source: object;
}

/**
 * Where a serialized document holds table rows written from a row model (`deferred-rows.ts`):
 * the byte range (from the first row's `<a:tr` to the last row's `</a:tr>`) and, per row,
 * the `a:tc` start tags written in it. The rows' bytes are a function of the model, so a
 * check of the table's rows can take the counts instead of searching the bytes for them.
 */
export interface WrittenRows {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
  /** Per row in order, the `<a:tc` start tags it holds. */
  cells: number[];
  /**
   * The rows hold nothing else the package check's slide-text rules look for: no
   * relationship or other prefixed attribute, shape, alternate content, OLE object, table
   * tag or grid column (read from the template texts once and from each text written), so
   * a check can pass over their bytes.
   */
  plain: boolean;
}

/**
 * Where a serialized document holds paragraphs written from a paragraph model
 * (`deferred-paragraphs.ts`) that hold nothing the package check's slide-text rules look
 * for (see {@link WrittenRows}`.plain`): a check can pass over their bytes, and the bytes
 * around them are the same on every slide filled from one template shape.
 */
export interface PlainParagraphs {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
}

/**
 * A document written as UTF-8, with the ranges of repeated template text
 * ({@link RepeatedText}), of rows written from row models ({@link WrittenRows}) and of plain
 * paragraphs written from paragraph models ({@link PlainParagraphs}), each in document order.
 */
export interface SerializedBytes {
  bytes: Uint8Array;
  repeated: RepeatedText[];
  rows: WrittenRows[];
  paragraphs: PlainParagraphs[];
}

/**
 * {@link serializeDocument} written straight to UTF-8 bytes (the same bytes as encoding its
 * text). Text repeated from template elements is encoded once and copied afterwards, and
 * its byte ranges are returned: a check of the bytes can read those ranges once per
 * template element rather than once per slide.
 */
export function serializeDocumentBytes(doc: Document, stubs?: ReadonlyMap<Element, Element>): SerializedBytes {
  const out: Sink = { s: XML_DECLARATION, chunks: [] };
  serializeElement(doc.documentElement!, documentScope(), out, stubs);
  if (out.s) out.chunks!.push(out.s);
  const pieces = out.chunks!.map((c) => (typeof c === 'string' ? utf8.encode(c) : 'bytes' in c ? c.bytes : utf8.encode(c.text)));
  const bytes = new Uint8Array(pieces.reduce((n, b) => n + b.length, 0));
  const repeated: RepeatedText[] = [];
  const rows: WrittenRows[] = [];
  const paragraphs: PlainParagraphs[] = [];
  let at = 0;
  out.chunks!.forEach((c, i) => {
    const b = pieces[i]!;
    bytes.set(b, at);
    if (typeof c !== 'string') {
      if ('bytes' in c) repeated.push({ start: at, end: at + b.length, source: c.source });
      else if ('cells' in c) rows.push({ start: at, end: at + b.length, cells: c.cells, plain: c.plain });
      else paragraphs.push({ start: at, end: at + b.length });
    }
    at += b.length;
  });
  return { bytes, repeated, rows, paragraphs };
}

const utf8 = new TextEncoder();

/** Prefixes and end tags by qualified name: a part uses a few dozen names thousands of times. */
const prefixes = new BoundedMemo<string>();
const endTags = new BoundedMemo<string>();

function prefixOf(qname: string): string {
  // '' without a colon (indexOf -1)
  return prefixes.get(qname) ?? prefixes.set(qname, qname.slice(0, Math.max(0, qname.indexOf(':'))));
}

function closeTag(qname: string): string {
  return endTags.get(qname) ?? endTags.set(qname, `</${qname}>`);
}

interface AttrLike {
  name: string;
  value: string;
  namespaceURI: string | null;
}

/**
 * Serialized text of source shapes written in place of stubs, by source element. A stub
 * stands under copies of the source shape's own ancestors (same namespace bindings), so
 * the text is the same every time the shape is written.
 */
const stubText = new WeakMap<Element, KeptText>();

/** Serialized children of source elements written in place of `sw:children` stand-ins (see `cloneInto`), by source element. */
const childrenText = new WeakMap<Element, KeptText>();

/**
 * `s` made one flat string in place. V8 keeps a string built by `+=` as a tree of its
 * pieces (a rope) and copies every piece again each time an enclosing string is encoded;
 * a search flattens the tree once, for good. Text kept for reuse is flattened so that
 * writing a slide full of unchanged shapes copies each shape's text as one block (a third
 * of the time of encoding the bench deck's slides).
 */
function flattened(s: string): string {
  s.indexOf('\u0000');
  return s;
}

/** Text of a template element kept for reuse, and its UTF-8 bytes once asked for. */
interface KeptText {
  text: string;
  source: Element;
  encoded?: Uint8Array;
}

/** A kept text's UTF-8 bytes, encoded on first use. */
function keptBytes(k: KeptText): Uint8Array {
  return (k.encoded ??= utf8.encode(k.text));
}

/**
 * The text written so far (appending to one string lets V8 build a rope); with `chunks`
 * (bytes wanted), kept template texts are set apart from the text around them.
 */
interface Sink {
  s: string;
  chunks?: Array<string | { bytes: Uint8Array; source: Element } | { text: string; cells: number[]; plain: boolean } | { text: string; paragraphs: true }>;
}

/** Appends a kept template text to `out`. */
function appendKept(out: Sink, k: KeptText): void {
  if (!out.chunks) {
    out.s += k.text;
    return;
  }
  if (out.s) out.chunks.push(out.s);
  out.s = '';
  out.chunks.push({ bytes: keptBytes(k), source: k.source });
}

/** The text `write` gives for a template element, written once and kept flat in `cache`. */
function sourceText(cache: WeakMap<Element, KeptText>, src: Element, write: (sink: Sink) => void): KeptText {
  let kept = cache.get(src);
  if (kept === undefined) {
    const sink: Sink = { s: '' };
    write(sink);
    kept = { text: flattened(sink.s), source: src };
    cache.set(src, kept);
  }
  return kept;
}

function serializeElement(el: Element, parentScope: Scope, out: Sink, stubs: ReadonlyMap<Element, Element> | undefined): void {
  if (el.namespaceURI === STUB_NS) {
    // a source stands under a copy of its own ancestors, so its text never changes
    const src = stubs?.get(el);
    if (src) {
      appendKept(out, sourceText(stubText, src, (sink) => serializeElement(src, parentScope, sink, undefined)));
      return;
    }
    const parent = childrenStubSource(el);
    if (parent) {
      appendKept(out, sourceText(childrenText, parent, (sink) => writeChildren(parent, parentScope, sink)));
      return;
    }
    if (stubs) return;
  }
  const model = paragraphMarkers.modelOf(el);
  if (model) {
    if (!out.chunks) {
      serializeDeferred(model, parentScope, out);
      return;
    }
    // with bytes wanted, plain paragraphs are a chunk of their own (see PlainParagraphs)
    const sink: Sink = { s: '' };
    const audit: Audit = { plain: true };
    serializeDeferred(model, parentScope, sink, audit);
    if (!audit.plain || sink.s === '') {
      out.s += sink.s;
      return;
    }
    if (out.s) out.chunks.push(out.s);
    out.s = '';
    out.chunks.push({ text: sink.s, paragraphs: true });
    return;
  }
  const rows = rowMarkers.modelOf(el);
  if (rows) {
    serializeRows(rows, parentScope, out);
    return;
  }
  const name = el.nodeName;
  const scope = openTag(name, el.namespaceURI, el.attributes as unknown as ArrayLike<AttrLike>, parentScope, out);
  writeContent(name, el, scope, out, stubs);
}

/**
 * Appends `<name attributes` (namespace declarations added where a prefix in use is not
 * bound in scope; the tag is left open) and returns the scope of the element's content.
 */
function openTag(name: string, ns: string | null, attrs: ArrayLike<AttrLike>, parentScope: Scope, out: Sink): Scope {
  let scope = parentScope;
  const n = attrs.length;
  for (let i = 0; i < n; i++) {
    const a = attrs[i]!;
    if (a.name.charCodeAt(0) === 120 /* x */ && (a.name === 'xmlns' || a.name.startsWith('xmlns:'))) {
      if (scope === parentScope) scope = Object.create(parentScope) as Scope;
      scope[a.name === 'xmlns' ? '' : a.name.slice(6)] = a.value;
    }
  }
  let tag = `<${name}`;
  let extraDecls = '';
  if (ns) {
    const p = prefixOf(name);
    if (scope[p] !== ns) {
      if (scope === parentScope) scope = Object.create(parentScope) as Scope;
      scope[p] = ns;
      extraDecls += p ? ` xmlns:${p}="${escapeAttr(ns)}"` : ` xmlns="${escapeAttr(ns)}"`;
    }
  }
  for (let i = 0; i < n; i++) {
    const a = attrs[i]!;
    const ans = a.namespaceURI;
    if (ans && ans !== XMLNS && ans !== XML_NS) {
      const p = prefixOf(a.name);
      if (p && scope[p] !== ans) {
        if (scope === parentScope) scope = Object.create(parentScope) as Scope;
        scope[p] = ans;
        extraDecls += ` xmlns:${p}="${escapeAttr(ans)}"`;
      }
    }
    tag += ` ${a.name}="${escapeAttr(a.value)}"`;
  }
  out.s += extraDecls ? tag + extraDecls : tag;
  return scope;
}

/** `a:rPr` (or `a:endParaRPr`) copied from `src` as `setParagraphs` builds it, with `sz` when given (hundredths of a point). */
function writeRunProps(localName: 'rPr' | 'endParaRPr', src: Element | undefined, sz: number | undefined, scope: Scope, out: Sink): void {
  const attrs: AttrLike[] = [];
  if (src) {
    const own = src.attributes as unknown as ArrayLike<AttrLike>;
    for (let i = 0; i < own.length; i++) {
      const a = own[i]!;
      if (keepsRunAttribute(a.name)) attrs.push({ name: a.name, value: a.value, namespaceURI: null });
    }
  } else attrs.push({ name: 'lang', value: 'en-US', namespaceURI: null });
  attrs.push({ name: 'dirty', value: '0', namespaceURI: null });
  if (sz !== undefined) {
    const at = attrs.findIndex((a) => a.name === 'sz');
    if (at >= 0) attrs[at] = { name: 'sz', value: String(sz), namespaceURI: null };
    else attrs.push({ name: 'sz', value: String(sz), namespaceURI: null });
  }
  const name = `a:${localName}`;
  const scope2 = openTag(name, NS.a, attrs, scope, out);
  writeContent(name, src, scope2, out, undefined, (c) => c.nodeType === ELEMENT_NODE && keepsRunChild((c as Element).localName));
}

/**
 * Closes an open tag `name` with the children of `src` that `keep` accepts (all when
 * omitted): `/>` when there are none, else `>`, the children and the end tag.
 */
function writeContent(name: string, src: Element | undefined, scope: Scope, out: Sink, stubs?: ReadonlyMap<Element, Element>, keep?: (c: Node) => boolean): void {
  const any = src ? writeChildren(src, scope, out, stubs, keep, '>') : false;
  out.s += any ? closeTag(name) : '/>';
}

/**
 * Writes the element, text and CDATA children of `parent` that `keep` accepts (all when
 * omitted), `before` ahead of the first one; true when there was one.
 */
function writeChildren(parent: Element, scope: Scope, out: Sink, stubs?: ReadonlyMap<Element, Element>, keep?: (c: Node) => boolean, before = ''): boolean {
  let any = false;
  for (let c: Node | null = parent.firstChild; c; c = c.nextSibling) {
    if (keep && !keep(c)) continue;
    const t = c.nodeType;
    if (t !== ELEMENT_NODE && t !== TEXT_NODE && t !== CDATA_SECTION_NODE) continue;
    if (!any && before) out.s += before;
    any = true;
    if (t === ELEMENT_NODE) serializeElement(c as Element, scope, out, stubs);
    else out.s += escapeText(c.nodeValue ?? '');
  }
  return any;
}

/**
 * Writes deferred paragraphs as the nodes `materializeParagraphs` would build for them
 * (same elements, attributes and order), without building them.
 */
function serializeDeferred(m: DeferredParagraphs, scope: Scope, out: Sink, audit?: Audit): void {
  // run properties are the same text for every run of one size: written once per size
  const runText = new Map<number | undefined, string>();
  const endText = new Map<number | undefined, string>();
  const cached = (cache: Map<number | undefined, string>, localName: 'rPr' | 'endParaRPr', src: Element | undefined, sz: number | undefined, at: Scope): string => {
    let t = cache.get(sz);
    if (t === undefined) {
      const sink: Sink = { s: '' };
      writeRunProps(localName, src, sz, at, sink);
      t = sink.s;
      cache.set(sz, t);
      if (audit && !isPlainParagraphMarkup(t)) audit.plain = false;
    }
    return t;
  };
  let pPrText: string | undefined;
  m.lines.forEach((segments, pi) => {
    const sizes = m.sizes?.[pi];
    let ri = 0;
    const pScope = openTag('a:p', NS.a, NO_ATTRS, scope, out);
    out.s += '>';
    // (a scope of its own means namespace declarations were written)
    if (audit && pScope !== scope) audit.plain = false;
    if (m.paraProps) {
      if (pPrText === undefined) {
        const sink: Sink = { s: '' };
        const pPr = m.paraProps;
        const attrs = Array.from(pPr.attributes as unknown as ArrayLike<AttrLike>).filter((a) => a.name !== 'lvl');
        writeContent(pPr.nodeName, pPr, openTag(pPr.nodeName, pPr.namespaceURI, attrs, pScope, sink), sink);
        pPrText = sink.s;
        if (audit && !isPlainParagraphMarkup(pPrText)) audit.plain = false;
      }
      out.s += pPrText;
    }
    segments.forEach((seg, i) => {
      if (i > 0) {
        const brScope = openTag('a:br', NS.a, NO_ATTRS, pScope, out);
        out.s += `>${cached(runText, 'rPr', m.runProps, sizes?.runs[ri++], brScope)}</a:br>`;
        if (audit && brScope !== pScope) audit.plain = false;
      }
      if (seg === '') return;
      const rScope = openTag('a:r', NS.a, NO_ATTRS, pScope, out);
      out.s += `>${cached(runText, 'rPr', m.runProps, sizes?.runs[ri++], rScope)}`;
      const tScope = openTag('a:t', NS.a, NO_ATTRS, rScope, out);
      out.s += `>${escapeText(seg)}</a:t></a:r>`;
      if (audit && (rScope !== pScope || tScope !== rScope || !isPlainText(seg))) audit.plain = false;
    });
    out.s += cached(endText, 'endParaRPr', m.endProps, sizes?.end, pScope);
    out.s += '</a:p>';
  });
}

/**
 * Whether rows being written hold nothing the package check's slide-text rules look for
 * other than the rows and cells themselves (see {@link WrittenRows}`.plain`).
 */
interface Audit {
  plain: boolean;
}

/**
 * Markup that holds nothing the slide-text rules look for: no prefixed attribute (a
 * relationship attribute is one), no shape (`cNvPr`), alternate content or OLE object, no
 * table tag or grid column.
 */
function isPlainMarkup(s: string): boolean {
  return !PREFIXED_ATTRIBUTE.test(s) && !s.includes('cNvPr') && !s.includes('AlternateContent') && !s.includes('oleObj') && !s.includes('tbl') && !s.includes('gridCol');
}

/**
 * {@link isPlainMarkup} for a paragraph's properties: besides, no table row or cell tag
 * (a cell's own frame holds those, and rows count them by their model; paragraphs do not).
 */
function isPlainParagraphMarkup(s: string): boolean {
  return isPlainMarkup(s) && !ROW_OR_CELL_TAG.test(s);
}

/** A table row or cell tag under any prefix (`<a:tr`, `</a:tc>`; not `a:tcPr`). */
const ROW_OR_CELL_TAG = /<\/?[\w.-]+:t[rc](?![\w])/;

/** ` prefix:name="` in written markup. */
const PREFIXED_ATTRIBUTE = /\s[^\s<>="/]*:[\w.-]*="/;

/**
 * Text (element content) that the slide-text rules cannot read as markup: its `<` is
 * escaped, so only what reads like an attribute (`="`) or the names the rules look for
 * anywhere could count.
 */
function isPlainText(s: string): boolean {
  return !s.includes('="') && !s.includes('AlternateContent') && !s.includes('oleObj');
}

const NO_ATTRS: readonly AttrLike[] = [];

/**
 * Writes deferred rows as the nodes `materializeRows` would build for them (same
 * elements, attributes and order), without building them.
 */
function serializeRows(m: DeferredRows, scope: Scope, out: Sink): void {
  // with bytes wanted, the rows are a chunk of their own with their cell counts (see
  // WrittenRows); a cell whose template text holds other `a:tc` or `a:tr` tags than its own
  // leaves the rows to be read from the bytes
  const sink: Sink = out.chunks && m.rows.length > 0 ? { s: '' } : out;
  const cells: number[] = [];
  const audit: Audit | undefined = sink !== out ? { plain: true } : undefined;
  let countable = true;
  for (const row of m.rows) {
    const trScope = openTag('a:tr', NS.a, [{ name: 'h', value: String(row.h), namespaceURI: null }], scope, sink);
    sink.s += '>';
    if (audit && trScope !== scope) audit.plain = false;
    for (const cell of row.cells) countable = serializeCell(cell, trScope, sink, audit) && countable;
    sink.s += '</a:tr>';
    cells.push(row.cells.length);
  }
  if (sink === out) return;
  if (out.s) out.chunks!.push(out.s);
  out.s = '';
  out.chunks!.push(countable ? { text: sink.s, cells, plain: audit!.plain } : sink.s);
}

/** A template cell's text before and after its paragraphs, and the scope they are written in. */
interface CellFrame {
  head: string;
  tail: string;
  paragraphScope: Scope;
  /** The frame's text holds one `a:tc` start tag (its own) and no `a:tr` tag: a row's cells can be counted without reading it. */
  countable: boolean;
  /** The frame's text holds nothing else the slide-text rules look for ({@link isPlainMarkup}). */
  plain: boolean;
}

/**
 * The frames of template cells, written once: a template cell stands under a copy of its
 * own table (or, for a table rewritten from its own rows, where those rows stood), so its
 * text is the same every time.
 */
const cellFrames = new WeakMap<Element, CellFrame>();

/** Writes a cell; false when the cell's text may hold tags a count of the row's cells by the model would miss ({@link CellFrame}). */
function serializeCell(cell: DeferredCell, scope: Scope, out: Sink, audit?: Audit): boolean {
  const tc = cell.template;
  if (!tc) {
    const tcScope = openTag('a:tc', NS.a, NO_ATTRS, scope, out);
    out.s += '>';
    const txScope = openEmptyCellTextBody(tcScope, out);
    serializeDeferred(cell.paragraphs, txScope, out, audit);
    out.s += '</a:txBody>';
    const prScope = openTag('a:tcPr', NS.a, NO_ATTRS, tcScope, out);
    out.s += '/></a:tc>';
    if (audit && (tcScope !== scope || txScope !== tcScope || prScope !== tcScope)) audit.plain = false;
    return true;
  }
  let frame = cellFrames.get(tc);
  if (!frame) {
    frame = cellFrame(tc, scope);
    cellFrames.set(tc, frame);
  }
  out.s += frame.head;
  serializeDeferred(cell.paragraphs, frame.paragraphScope, out, audit);
  out.s += frame.tail;
  if (audit && !frame.plain) audit.plain = false;
  return frame.countable;
}

/** `<a:txBody><a:bodyPr/><a:lstStyle/>` (the text body a cell without one gets); returns the paragraphs' scope. */
function openEmptyCellTextBody(scope: Scope, out: Sink): Scope {
  const txScope = openTag('a:txBody', NS.a, NO_ATTRS, scope, out);
  out.s += '>';
  openTag('a:bodyPr', NS.a, NO_ATTRS, txScope, out);
  out.s += '/>';
  openTag('a:lstStyle', NS.a, NO_ATTRS, txScope, out);
  out.s += '/>';
  return txScope;
}

function isParagraphNode(c: Node): boolean {
  return c.nodeType === ELEMENT_NODE && (c as Element).localName === 'p' && (c as Element).namespaceURI === NS.a;
}

function cellFrame(tc: Element, scope: Scope): CellFrame {
  const head: Sink = { s: '' };
  const tail: Sink = { s: '' };
  const attrs = Array.from(tc.attributes as unknown as ArrayLike<AttrLike>).filter((a) => !MERGE_ATTRS.includes(a.name));
  const tcScope = openTag(tc.nodeName, tc.namespaceURI, attrs, scope, head);
  head.s += '>';
  const txBody = child(tc, NS.a, 'txBody');
  let paragraphScope: Scope;
  if (txBody) {
    // children before the text body, the text body without its paragraphs (they are
    // replaced; its a:bodyPr and a:lstStyle stay), then the children after it
    let sink = head;
    for (let c: Node | null = tc.firstChild; c; c = c.nextSibling) {
      if (c === txBody) {
        paragraphScope = openTag(txBody.nodeName, txBody.namespaceURI, txBody.attributes as unknown as ArrayLike<AttrLike>, tcScope, head);
        if (!writeChildren(txBody, paragraphScope, head, undefined, (n) => !isParagraphNode(n), '>')) head.s += '>';
        tail.s += closeTag(txBody.nodeName);
        sink = tail;
        continue;
      }
      if (c.nodeType === ELEMENT_NODE) serializeElement(c as Element, tcScope, sink, undefined);
      else if (c.nodeType === TEXT_NODE || c.nodeType === CDATA_SECTION_NODE) sink.s += escapeText(c.nodeValue ?? '');
    }
  } else {
    // a cell without a text body gets an empty one before its other children
    paragraphScope = openEmptyCellTextBody(tcScope, head);
    tail.s += '</a:txBody>';
    writeChildren(tc, tcScope, tail);
  }
  tail.s += closeTag(tc.nodeName);
  const text = head.s + tail.s;
  const countable = tc.nodeName === 'a:tc' && CELL_START.exec(text.slice(1)) === null && !/<\/?[\w.-]+:tr[\s/>]/.test(text);
  return { head: flattened(head.s), tail: flattened(tail.s), paragraphScope: paragraphScope!, countable, plain: isPlainMarkup(text) };
}

/** A start tag of a cell under any prefix (`<x:tc` not followed by a name character). */
const CELL_START = /<[\w.-]+:tc(?![\w])/;
