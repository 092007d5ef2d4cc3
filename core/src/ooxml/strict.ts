/**
 * ISO/IEC 29500 Strict packages, read as Transitional, in one place: the package layer
 * (`opc/package.ts`) passes every XML part through {@link normalizePartBytes} the first
 * time the part is read, so that every reader, and every part a generated deck copies from
 * a template, sees Transitional markup.
 *
 * What changes (ISO/IEC 29500-1 Strict against 29500-4 Transitional):
 * - namespaces: `http://purl.oclc.org/ooxml/…` instead of `http://schemas.openxmlformats.org/…`
 *   ({@link STRICT_NAMESPACES}); the package's own namespaces (content types, relationships,
 *   core properties, Part 2) and Markup Compatibility's (Part 3) are the same in both;
 * - relationship types: `http://purl.oclc.org/ooxml/officeDocument/relationships/…`, with
 *   three names that are not the Transitional ones under another prefix
 *   (`extendedProperties`, `customProperties`, `metadata/thumbnail`;
 *   {@link STRICT_RELATIONSHIP_TYPES});
 * - `a:graphicData/@uri` names the Strict namespace of its content (chart, diagram,
 *   picture, locked canvas) or Strict's table and OLE URIs ({@link STRICT_GRAPHIC_DATA_URIS}),
 *   and so may `dsp:dataModelExt/@minVer` (Office 2010's SmartArt drawing extension);
 * - `p:presentation/@conformance="strict"` (§19.2.1.26) is removed (omitted, the class is
 *   Transitional);
 * - value forms: Strict writes percentages as `"90%"` and may write universal measures
 *   (`"1in"`); these become the integer forms the engine reads, per attribute as the
 *   schemas type it (`value-forms.ts`). Transitional admits the same string forms, so a
 *   Transitional part holding one is converted too. Booleans (`true`/`false`, which both
 *   classes admit) become `1`/`0` in parts written in Strict namespaces: Office writes `1`/`0`
 *   in Transitional, and a Transitional part keeps its booleans as written (looking for them
 *   in every part would double the cost of the scan).
 *
 * Content types are the same in both classes. Where Strict writes ISO 8601 dates instead of
 * serial numbers (SpreadsheetML cell values, ISO/IEC 29500-1 §18.17.4) nothing in a
 * presentation's own parts changes: PresentationML and DrawingML dates (`p:cm/@dt`) are
 * xsd:dateTime in both classes, and core properties are W3CDTF (Part 2) in both.
 *
 * Sources of the tables: the namespaces and relationship types of ISO/IEC 29500-1 (Strict)
 * and 29500-4 (Transitional), as paired by the Open XML SDK (`OpenXmlNamespaceResolver`:
 * Strict ↔ Transitional namespaces and relationship types) and read by LibreOffice
 * (`oox/source/token/namespaces-strict.txt`, `oox/source/core/relations.cxx`), checked
 * against a package PowerPoint 2016 saved as Strict (corpus
 * `incoming/templates/clippit-strict-16x9.pptx`).
 */
import { VALUE_FORM_ATTRIBUTES, convertValueForm, type ValueFormTable } from './value-forms.js';

const S = 'http://purl.oclc.org/ooxml/';
const T = 'http://schemas.openxmlformats.org/';

/** Strict namespace URI → Transitional namespace URI (ISO/IEC 29500-1 and 29500-4). */
export const STRICT_NAMESPACES: ReadonlyMap<string, string> = new Map([
  [`${S}presentationml/main`, `${T}presentationml/2006/main`],
  [`${S}drawingml/main`, `${T}drawingml/2006/main`],
  [`${S}drawingml/chart`, `${T}drawingml/2006/chart`],
  [`${S}drawingml/chartDrawing`, `${T}drawingml/2006/chartDrawing`],
  [`${S}drawingml/diagram`, `${T}drawingml/2006/diagram`],
  [`${S}drawingml/picture`, `${T}drawingml/2006/picture`],
  [`${S}drawingml/lockedCanvas`, `${T}drawingml/2006/lockedCanvas`],
  [`${S}drawingml/compatibility`, `${T}drawingml/2006/compatibility`],
  [`${S}drawingml/spreadsheetDrawing`, `${T}drawingml/2006/spreadsheetDrawing`],
  [`${S}drawingml/wordprocessingDrawing`, `${T}drawingml/2006/wordprocessingDrawing`],
  [`${S}officeDocument/relationships`, `${T}officeDocument/2006/relationships`],
  [`${S}officeDocument/extendedProperties`, `${T}officeDocument/2006/extended-properties`],
  [`${S}officeDocument/customProperties`, `${T}officeDocument/2006/custom-properties`],
  [`${S}officeDocument/docPropsVTypes`, `${T}officeDocument/2006/docPropsVTypes`],
  [`${S}officeDocument/sharedTypes`, `${T}officeDocument/2006/sharedTypes`],
  [`${S}officeDocument/math`, `${T}officeDocument/2006/math`],
  [`${S}officeDocument/bibliography`, `${T}officeDocument/2006/bibliography`],
  [`${S}officeDocument/customXml`, `${T}officeDocument/2006/customXml`],
  [`${S}officeDocument/customXmlDataProps`, `${T}officeDocument/2006/customXmlDataProps`],
  [`${S}spreadsheetml/main`, `${T}spreadsheetml/2006/main`],
  [`${S}wordprocessingml/main`, `${T}wordprocessingml/2006/main`],
  [`${S}schemaLibrary/main`, `${T}schemaLibrary/2006/main`],
]);

const S_REL = `${S}officeDocument/relationships/`;
const T_REL = `${T}officeDocument/2006/relationships/`;

/** Relationship types whose Strict name is the Transitional one under the Strict prefix. */
const SAME_NAME_RELATIONSHIPS = [
  'officeDocument', 'slide', 'slideLayout', 'slideMaster', 'notesSlide', 'notesMaster', 'handoutMaster', 'theme', 'themeOverride',
  'presProps', 'viewProps', 'tableStyles', 'commentAuthors', 'comments', 'tags', 'slideUpdateInfo', 'font', 'image', 'audio', 'video',
  'movie', 'hyperlink', 'oleObject', 'package', 'chart', 'chartUserShapes', 'diagramData', 'diagramLayout', 'diagramQuickStyle',
  'diagramColors', 'control', 'customXml', 'customXmlProps', 'customProperty', 'printerSettings', 'drawing', 'worksheet', 'sharedStrings',
  'styles', 'settings', 'webSettings', 'fontTable', 'numbering', 'footnotes', 'endnotes', 'header', 'footer', 'glossaryDocument',
  'attachedTemplate', 'aFChunk', 'subDocument', 'frame', 'transform', 'calcChain', 'chartsheet', 'dialogsheet', 'externalLink',
  'externalLinkPath', 'pivotTable', 'pivotCacheDefinition', 'pivotCacheRecords', 'queryTable', 'table', 'tableSingleCells',
  'volatileDependencies', 'xmlMaps', 'connections', 'revisionHeaders', 'revisionLog', 'usernames', 'sheetMetadata', 'htmlPubSaveAs',
  'mailMergeHeaderSource', 'mailMergeRecipientData', 'mailMergeSource', 'slideUpdateUrl',
] as const;

/** Strict relationship type → Transitional relationship type (ECMA-376 Part 1 §15, Part 2 §9.3). */
export const STRICT_RELATIONSHIP_TYPES: ReadonlyMap<string, string> = new Map([
  ...SAME_NAME_RELATIONSHIPS.map((n): [string, string] => [`${S_REL}${n}`, `${T_REL}${n}`]),
  [`${S_REL}extendedProperties`, `${T_REL}extended-properties`],
  [`${S_REL}customProperties`, `${T_REL}custom-properties`],
  // Transitional's thumbnail relationship is the package's own (Part 2, §13)
  [`${S_REL}metadata/thumbnail`, 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail'],
]);

/**
 * `a:graphicData/@uri` values (ECMA-376 Part 1 §20.1.2.2.17) of Strict: the namespaces of
 * the content, and the table (§21.1.3) and OLE object (§19.3.2.4) URIs, which are not
 * namespaces.
 */
export const STRICT_GRAPHIC_DATA_URIS: ReadonlyMap<string, string> = new Map([
  ...STRICT_NAMESPACES,
  [`${S}drawingml/table`, `${T}drawingml/2006/table`],
  [`${S}presentationml/ole`, `${T}presentationml/2006/ole`],
]);

/** The text every Strict namespace and relationship type starts with. */
export const STRICT_MARK = S;

const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const A = `${T}drawingml/2006/main`;
const P = `${T}presentationml/2006/main`;
/** Office 2010's diagram drawing extension; its `dataModelExt/@minVer` names the diagram namespace. */
const DSP = 'http://schemas.microsoft.com/office/drawing/2008/diagram';

/**
 * Whether a part may hold something {@link normalizeXmlText} changes: a Strict namespace,
 * or a digit followed by `%` or a measure unit and a quote. One pattern search over the
 * part read as Latin-1 (every mark is ASCII; UTF-8 multi-byte sequences cannot form one);
 * false positives only cost a scan. About 1 ms per MiB.
 */
const MARKS = /purl\.oclc\.org\/ooxml\/|[0-9](?:%|in|cm|mm|pt|pc|pi)["']/;

/** What {@link normalizeXmlText} did. */
export interface NormalizedText {
  text: string;
  /** Strict namespaces or URIs rewritten. */
  namespaces: number;
  /** Relationship types rewritten. */
  relationshipTypes: number;
  /** Attribute values converted from a string form. */
  values: number;
}

/**
 * A part's bytes in Transitional form: Strict namespaces, relationship types and graphic
 * data URIs rewritten, and the string value forms of the attributes listed in
 * `value-forms-data.ts` converted (see the module comment). The encoding (UTF-8, or UTF-16
 * with its byte order mark) is kept.
 *
 * Cheap when there is nothing to do (one pattern search over the bytes; the bytes are
 * returned as they are, the same object), so it runs on every XML part read.
 *
 * @param bytes - the part as stored
 * @returns `bytes` itself when nothing changes, else new bytes
 */
export function normalizePartBytes(bytes: Uint8Array): Uint8Array {
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text: string;
  if (utf16) {
    try {
      text = new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be', { fatal: true }).decode(bytes.subarray(2));
    } catch {
      return bytes; // not valid UTF-16: the parser reports it
    }
    if (!MARKS.test(text)) return bytes;
  } else {
    if (!MARKS.test(buf.toString('latin1'))) return bytes;
    try {
      text = UTF8.decode(bytes);
    } catch {
      return bytes; // not valid UTF-8: the parser reports it
    }
  }
  const out = normalizeXmlText(text);
  if (!out) return bytes;
  if (!utf16) return new Uint8Array(Buffer.from(out.text, 'utf8'));
  const le = Buffer.from(out.text, 'utf16le');
  if (bytes[0] === 0xfe) le.swap16();
  const withBom = new Uint8Array(le.length + 2);
  withBom[0] = bytes[0]!;
  withBom[1] = bytes[1]!;
  withBom.set(le, 2);
  return withBom;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** An attribute as written in a start tag: its name, where it starts (the space before it) and where its value lies. */
interface RawAttr {
  name: string;
  /** Index of the white space before the attribute's name. */
  from: number;
  /** Value: from `start` to `end` (the closing quote), exclusive. */
  start: number;
  end: number;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/**
 * The text of an XML part in Transitional form (see {@link normalizePartBytes}), or
 * undefined when nothing changes — also when the text is not well-formed enough to read its
 * tags, or declares a DOCTYPE: the parser refuses those afterwards, with its own message.
 *
 * One pass over the tags, keeping the namespace declarations in scope (prefixes are the
 * producer's choice; elements are matched by namespace URI and local name). Text, comments,
 * CDATA sections and processing instructions are left as they are.
 */
export function normalizeXmlText(text: string, table: ValueFormTable = VALUE_FORM_ATTRIBUTES): NormalizedText | undefined {
  const edits: Array<[start: number, end: number, value: string]> = [];
  let namespaces = 0;
  let relationshipTypes = 0;
  let values = 0;
  // declarations per open element (undefined: it declares none)
  const scopes: Array<Map<string, string> | undefined> = [];
  const resolve = (prefix: string): string | undefined => {
    if (prefix === 'xml') return XML_NS;
    for (let i = scopes.length - 1; i >= 0; i--) {
      const uri = scopes[i]?.get(prefix);
      if (uri !== undefined) return uri;
    }
    return undefined;
  };
  const n = text.length;
  let pos = 0;
  for (;;) {
    const lt = text.indexOf('<', pos);
    if (lt < 0 || lt + 1 >= n) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 0x21 /* ! */) {
      let end: number;
      if (text.startsWith('<!--', lt)) end = text.indexOf('-->', lt + 4) + 3;
      else if (text.startsWith('<![CDATA[', lt)) end = text.indexOf(']]>', lt + 9) + 3;
      else return undefined; // a DOCTYPE: refused by the parser
      if (end < 3) return undefined;
      pos = end;
      continue;
    }
    if (c === 0x3f /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) return undefined;
      pos = end + 2;
      continue;
    }
    if (c === 0x2f /* / */) {
      const end = text.indexOf('>', lt + 2);
      if (end < 0) return undefined;
      scopes.pop();
      pos = end + 1;
      continue;
    }
    // a start tag: its name, then its attributes
    let i = lt + 1;
    while (i < n && !isNameEnd(text.charCodeAt(i))) i++;
    const name = text.slice(lt + 1, i);
    if (!name) return undefined;
    const attrs: RawAttr[] = [];
    let selfClosing = false;
    for (;;) {
      const from = i;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (i >= n) return undefined;
      const ch = text.charCodeAt(i);
      if (ch === 0x3e /* > */) {
        i++;
        break;
      }
      if (ch === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x3e) {
        selfClosing = true;
        i += 2;
        break;
      }
      const nameStart = i;
      while (i < n && !isNameEnd(text.charCodeAt(i)) && text.charCodeAt(i) !== 0x3d /* = */) i++;
      const attrName = text.slice(nameStart, i);
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (!attrName || text.charCodeAt(i) !== 0x3d) return undefined;
      i++;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      const quote = text.charCodeAt(i);
      if (quote !== 0x22 && quote !== 0x27) return undefined;
      const end = text.indexOf(quote === 0x22 ? '"' : "'", i + 1);
      if (end < 0) return undefined;
      if (from === nameStart) return undefined; // attributes are separated by white space
      attrs.push({ name: attrName, from, start: i + 1, end });
      i = end + 1;
    }
    pos = i;

    // namespace declarations first: they apply to the element's own name and attributes
    let decls: Map<string, string> | undefined;
    for (const a of attrs) {
      if (a.name !== 'xmlns' && !a.name.startsWith('xmlns:')) continue;
      let uri = valueOf(text, a);
      const transitional = STRICT_NAMESPACES.get(uri);
      if (transitional !== undefined) {
        edits.push([a.start, a.end, transitional]);
        namespaces++;
        uri = transitional;
      }
      (decls ??= new Map()).set(a.name === 'xmlns' ? '' : a.name.slice(6), uri);
    }
    scopes.push(decls);

    const colon = name.indexOf(':');
    const ns = resolve(colon < 0 ? '' : name.slice(0, colon));
    const local = colon < 0 ? name : name.slice(colon + 1);
    const forms = ns === undefined ? undefined : table[ns]?.[local];
    for (const a of attrs) {
      if (a.name.includes(':') || a.name === 'xmlns') continue; // qualified attributes: none is in the tables
      let replacement: string | undefined;
      if (ns === PKG_RELS && local === 'Relationship' && a.name === 'Type') {
        replacement = STRICT_RELATIONSHIP_TYPES.get(valueOf(text, a));
        if (replacement !== undefined) relationshipTypes++;
      } else if ((ns === A && local === 'graphicData' && a.name === 'uri') || (ns === DSP && local === 'dataModelExt' && a.name === 'minVer')) {
        replacement = STRICT_GRAPHIC_DATA_URIS.get(valueOf(text, a));
        if (replacement !== undefined) namespaces++;
      } else if (ns === P && local === 'presentation' && a.name === 'conformance' && namespaces > 0) {
        // the whole attribute goes: omitted, the class is Transitional
        if (valueOf(text, a).trim() === 'strict') edits.push([a.from, a.end + 1, '']);
        continue;
      } else {
        const form = forms?.[a.name];
        // booleans only in a part written in Strict namespaces (see the module comment)
        if (form !== undefined && (form !== 'bool' || namespaces > 0)) {
          replacement = convertValueForm(form, valueOf(text, a));
          if (replacement !== undefined) values++;
        }
      }
      if (replacement !== undefined) edits.push([a.start, a.end, replacement]);
    }
    if (selfClosing) scopes.pop();
  }
  if (!edits.length) return undefined;
  // a tag's namespace declarations were edited first, wherever they stand in it
  edits.sort((x, y) => x[0] - y[0]);
  let out = '';
  let last = 0;
  for (const [start, end, value] of edits) {
    out += text.slice(last, start) + (value && escapeAttr(value));
    last = end;
  }
  out += text.slice(last);
  return { text: out, namespaces, relationshipTypes, values };
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isNameEnd(c: number): boolean {
  return isSpace(c) || c === 0x3e /* > */ || c === 0x2f /* / */;
}

/** An attribute's value with its entity and character references resolved. */
function valueOf(text: string, a: RawAttr): string {
  const raw = text.slice(a.start, a.end);
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g, (whole: string, hex?: string, dec?: string, named?: string) => {
    if (named) return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[named] ?? whole;
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/</g, '&lt;');
}
