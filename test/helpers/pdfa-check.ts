/**
 * A structural check of PDF/A-2b (ISO 19005-2, level B) for the PDF export tests, for the
 * rules that can be read from the file's objects without a full validator (veraPDF, the
 * reference validator, is a Java program packaged neither for Debian nor for npm). It reads
 * a PDF with a classic cross-reference table (what Skia writes; no object or xref streams)
 * and reports each rule broken, with the clause of ISO 19005-2 it comes from:
 *
 * - 6.1.2 header: `%PDF-1.n` and a comment of at least four bytes above 127 on the next line;
 * - 6.1.3 trailer: an `ID` of two strings, no `Encrypt`; cross-reference offsets that point
 *   at their objects (6.1.4);
 * - 6.1.7 streams: `Length` bytes of data, then an end of line and `endstream`; no `F`
 *   (external file), no LZW;
 * - 6.2.2/6.2.3 an output intent `GTS_PDFA1` whose `DestOutputProfile` is an ICC profile
 *   (`acsp` signature, version ≤ 4) with as many components as its `N` says; one profile
 *   if there are several intents; 6.2.4.3 no DeviceCMYK with an RGB intent;
 * - 6.2.8 no `Interpolate true`, no `Alternates`, no `OPI`; 6.2.5 no `TR` transfer functions;
 * - 6.2.10 blend modes from ISO 32000-1's standard set; a transparency group on a page
 *   names its colour space (CS) when there is no output intent;
 * - 6.2.11 every font but Type 3 embedded (FontFile, FontFile2 or FontFile3); a
 *   CIDFontType2 has a `CIDToGIDMap`;
 * - 6.3 annotations: no forbidden types (3D, Sound, Screen, Movie), each printable (`F`
 *   with Print set; Hidden, Invisible and NoView clear);
 * - 6.5/6.6 no JavaScript, no forbidden actions (Launch, Sound, Movie, ResetForm,
 *   ImportData, Hide, SetOCGState, Rendition, Trans, GoTo3DView), no `AA`;
 * - 6.8 no embedded files;
 * - 6.6.2 the catalog's `Metadata` stream is XMP, unfiltered, declaring `pdfaid:part` 2
 *   and `pdfaid:conformance` B; 6.6.3 the document information entries it has
 *   (Title, Author, Subject, Keywords, Creator, Producer) equal their XMP properties.
 *
 * Not checked (needs a renderer or a font parser): glyph widths against the embedded font
 * programs, content-stream operators (colour operators `k`/`K`, undefined operators), ICC
 * profile contents beyond the header.
 */
import { inflateSync } from 'node:zlib';

/** A PDF value as parsed. */
export type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfValue[] | PdfDict;
export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfString {
  constructor(readonly bytes: Buffer) {}
  /** Text string: UTF-16BE with a BOM, else PDFDocEncoding (read as Latin-1, which it equals for printable ASCII). */
  text(): string {
    const b = this.bytes;
    if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
      const swapped = Buffer.from(b.subarray(2));
      swapped.swap16();
      return swapped.toString('utf16le');
    }
    return b.toString('latin1');
  }
}
export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
export type PdfDict = Map<string, PdfValue>;

interface PdfObject {
  value: PdfValue;
  /** The stream's bytes as stored (still filtered), when the object is a stream. */
  stream?: Buffer;
}

const DELIMS = new Set('()<>[]{}/%'.split(''));
const isWhite = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\0';

/** Reads PDF objects from a Latin-1 view of the file (one character per byte). */
class Lexer {
  constructor(
    private readonly s: string,
    public pos: number,
  ) {}

  private skip(): void {
    for (;;) {
      while (isWhite(this.s[this.pos])) this.pos++;
      if (this.s[this.pos] !== '%') return;
      while (this.pos < this.s.length && this.s[this.pos] !== '\n' && this.s[this.pos] !== '\r') this.pos++;
    }
  }

  /** The next bare word (number, keyword) without consuming it. */
  peekWord(): string {
    this.skip();
    let end = this.pos;
    while (end < this.s.length && !isWhite(this.s[end]) && !DELIMS.has(this.s[end]!)) end++;
    return this.s.slice(this.pos, end);
  }

  word(): string {
    const w = this.peekWord();
    this.pos += w.length;
    return w;
  }

  value(): PdfValue {
    this.skip();
    const c = this.s[this.pos];
    if (c === '/') {
      let end = this.pos + 1;
      while (end < this.s.length && !isWhite(this.s[end]) && !DELIMS.has(this.s[end]!)) end++;
      const raw = this.s.slice(this.pos + 1, end);
      this.pos = end;
      return new PdfName(raw.replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
    }
    if (c === '<' && this.s[this.pos + 1] === '<') {
      this.pos += 2;
      const dict: PdfDict = new Map();
      for (;;) {
        this.skip();
        if (this.s.startsWith('>>', this.pos)) {
          this.pos += 2;
          return dict;
        }
        const key = this.value();
        if (!(key instanceof PdfName)) throw new Error(`a dictionary key that is not a name at ${this.pos}`);
        dict.set(key.name, this.value());
      }
    }
    if (c === '<') {
      const end = this.s.indexOf('>', this.pos);
      const hex = this.s.slice(this.pos + 1, end).replace(/\s+/g, '');
      this.pos = end + 1;
      return new PdfString(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
    }
    if (c === '(') return this.literal();
    if (c === '[') {
      this.pos++;
      const arr: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (this.s[this.pos] === ']') {
          this.pos++;
          return arr;
        }
        arr.push(this.value());
      }
    }
    const w = this.word();
    if (w === 'true') return true;
    if (w === 'false') return false;
    if (w === 'null') return null;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(w)) throw new Error(`unexpected "${w || this.s[this.pos]}" at ${this.pos}`);
    const n = Number(w);
    // `n g R`: an indirect reference
    if (/^\d+$/.test(w)) {
      const save = this.pos;
      const g = this.word();
      if (/^\d+$/.test(g) && this.word() === 'R') return new PdfRef(n, Number(g));
      this.pos = save;
    }
    return n;
  }

  private literal(): PdfString {
    const out: number[] = [];
    let depth = 0;
    this.pos++;
    for (;;) {
      const c = this.s[this.pos++];
      if (c === undefined) throw new Error('an unterminated string');
      if (c === '\\') {
        const e = this.s[this.pos++]!;
        const esc: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
        if (e in esc) out.push(esc[e]!);
        else if (/[0-7]/.test(e)) {
          let oct = e;
          while (oct.length < 3 && /[0-7]/.test(this.s[this.pos] ?? '')) oct += this.s[this.pos++];
          out.push(parseInt(oct, 8) & 0xff);
        } else if (e === '\r') {
          if (this.s[this.pos] === '\n') this.pos++;
        } else if (e !== '\n') out.push(e.charCodeAt(0));
        continue;
      }
      if (c === '(') depth++;
      if (c === ')' && depth-- === 0) return new PdfString(Buffer.from(out));
      out.push(c.charCodeAt(0));
    }
  }
}

/** A PDF read through its cross-reference table. */
export class PdfFile {
  readonly text: string;
  readonly offsets = new Map<number, number>();
  readonly trailer: PdfDict;
  readonly problems: string[] = [];
  private readonly cache = new Map<number, PdfObject>();

  constructor(readonly bytes: Uint8Array) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    const sx = this.text.lastIndexOf('startxref');
    if (sx < 0) throw new Error('no startxref');
    const xrefAt = Number(/startxref\s+(\d+)/.exec(this.text.slice(sx))?.[1]);
    if (!this.text.startsWith('xref', xrefAt)) throw new Error('startxref does not point at a cross-reference table (xref streams are not read here)');
    const lex = new Lexer(this.text, xrefAt + 4);
    for (;;) {
      const w = lex.peekWord();
      if (w === 'trailer') break;
      const first = Number(lex.word());
      const count = Number(lex.word());
      for (let i = 0; i < count; i++) {
        const off = Number(lex.word());
        lex.word(); // generation
        if (lex.word() === 'n') this.offsets.set(first + i, off);
      }
    }
    lex.word();
    this.trailer = lex.value() as PdfDict;
  }

  /** Object `num`, parsed (streams with their stored bytes). @throws Error when its offset does not hold it */
  object(num: number): PdfObject {
    const hit = this.cache.get(num);
    if (hit) return hit;
    const off = this.offsets.get(num);
    if (off === undefined) throw new Error(`object ${num} is not in the cross-reference table`);
    const lex = new Lexer(this.text, off);
    if (lex.word() !== String(num) || !/^\d+$/.test(lex.word()) || lex.word() !== 'obj') throw new Error(`the cross-reference offset of object ${num} does not point at it (6.1.4)`);
    const value = lex.value();
    const obj: PdfObject = { value };
    if (lex.peekWord() === 'stream' && value instanceof Map) {
      lex.word();
      let start = lex.pos;
      if (this.text[start] === '\r' && this.text[start + 1] === '\n') start += 2;
      else if (this.text[start] === '\n') start += 1;
      else this.problems.push(`object ${num}: "stream" is not followed by an end of line (6.1.7.1)`);
      const declared = this.resolve(value.get('Length'));
      // the data is Length bytes, then an end of line, then `endstream`
      if (typeof declared !== 'number' || !/^(\r\n|\n|\r)endstream/.test(this.text.slice(start + declared, start + declared + 11))) {
        this.problems.push(`object ${num}: stream Length ${String(declared)} is not followed by an end of line and "endstream" (6.1.7.1)`);
      }
      const end = this.text.indexOf('endstream', start);
      obj.stream = Buffer.from(this.bytes.subarray(start, typeof declared === 'number' ? start + declared : end));
    }
    this.cache.set(num, obj);
    return obj;
  }

  resolve(v: PdfValue | undefined): PdfValue | undefined {
    for (let hops = 0; v instanceof PdfRef && hops < 32; hops++) v = this.object(v.num).value;
    return v;
  }

  dict(v: PdfValue | undefined): PdfDict | undefined {
    const r = this.resolve(v);
    return r instanceof Map ? r : undefined;
  }

  /** A stream's bytes with FlateDecode undone (the only filter Skia writes besides DCT for JPEG). */
  decoded(v: PdfValue | undefined): Buffer | undefined {
    if (!(v instanceof PdfRef)) return undefined;
    const o = this.object(v.num);
    if (!o.stream || !(o.value instanceof Map)) return undefined;
    const f = this.resolve(o.value.get('Filter'));
    const filters = (Array.isArray(f) ? f : f === undefined ? [] : [f]).map((x) => (x instanceof PdfName ? x.name : ''));
    if (filters.length === 0) return o.stream;
    if (filters.length === 1 && filters[0] === 'FlateDecode') return inflateSync(o.stream);
    return undefined;
  }
}

const name = (v: PdfValue | undefined): string | undefined => (v instanceof PdfName ? v.name : undefined);

const STANDARD_BLEND_MODES = new Set(['Normal', 'Compatible', 'Multiply', 'Screen', 'Overlay', 'Darken', 'Lighten', 'ColorDodge', 'ColorBurn', 'HardLight', 'SoftLight', 'Difference', 'Exclusion', 'Hue', 'Saturation', 'Color', 'Luminosity']);
const FORBIDDEN_ACTIONS = new Set(['Launch', 'Sound', 'Movie', 'ResetForm', 'ImportData', 'Hide', 'SetOCGState', 'Rendition', 'Trans', 'GoTo3DView', 'JavaScript']);
const FORBIDDEN_ANNOTS = new Set(['3D', 'Sound', 'Screen', 'Movie']);

/** Unescapes the XML character references and predefined entities XMP text uses. */
function xmlText(s: string): string {
  return s
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The text of an XMP property: a simple element, the first `rdf:li` of a container, or an attribute. */
function xmpProperty(xmp: string, qname: string): string | undefined {
  const el = new RegExp(`<${qname}(?:\\s[^>]*)?>([\\s\\S]*?)</${qname}>`).exec(xmp);
  if (el) {
    const li = /<rdf:li(?:\s[^>]*)?>([\s\S]*?)<\/rdf:li>/.exec(el[1]!);
    return xmlText((li ? li[1]! : el[1]!).trim());
  }
  const attr = new RegExp(`\\s${qname}="([^"]*)"`).exec(xmp);
  return attr ? xmlText(attr[1]!) : undefined;
}

/**
 * The PDF/A-2b rules (of those listed above) that `pdf` breaks, one line each with its
 * clause; empty when every checked rule holds.
 */
export function pdfaProblems(pdf: Uint8Array): string[] {
  const problems: string[] = [];
  let file: PdfFile;
  try {
    file = new PdfFile(pdf);
  } catch (err) {
    return [`cannot read the file's structure: ${(err as Error).message}`];
  }
  if (!/^%PDF-1\.[0-7]\r?\n%[\x80-\xff]{4}/.test(file.text.slice(0, 20))) problems.push('header: no "%PDF-1.n" line followed by a comment of four bytes above 127 (6.1.2)');
  const id = file.resolve(file.trailer.get('ID'));
  if (!Array.isArray(id) || id.length !== 2 || !id.every((x) => x instanceof PdfString)) problems.push('trailer: no ID of two strings (6.1.3)');
  if (file.trailer.has('Encrypt')) problems.push('trailer: the file is encrypted (6.1.3)');

  // Every object: parse, then look at dictionaries (and stream dictionaries) by kind.
  let hasCmyk = false;
  const groupsWithoutCs: number[] = [];
  for (const num of [...file.offsets.keys()].sort((a, b) => a - b)) {
    let obj: PdfObject;
    try {
      obj = file.object(num);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    const visit = (v: PdfValue, where: string): void => {
      if (Array.isArray(v)) return v.forEach((x) => visit(x, where));
      if (v instanceof PdfName && v.name === 'DeviceCMYK') hasCmyk = true;
      if (!(v instanceof Map)) return;
      for (const x of v.values()) visit(x, where);
      const type = name(v.get('Type'));
      const subtype = name(v.get('Subtype'));
      if (v.has('JS') || v.has('JavaScript')) problems.push(`${where}: JavaScript (6.6.1)`);
      if (v.has('AA')) problems.push(`${where}: additional actions (AA) (6.6.2)`);
      if (v.has('EmbeddedFiles')) problems.push(`${where}: embedded files (6.8)`);
      const action = name(v.get('S'));
      if ((type === 'Action' || v.has('URI') || v.has('D') || v.has('N')) && action && FORBIDDEN_ACTIONS.has(action)) problems.push(`${where}: a ${action} action (6.6.1)`);
      if (v.get('Interpolate') === true) problems.push(`${where}: Interpolate true (6.2.8)`);
      if (v.has('Alternates')) problems.push(`${where}: image Alternates (6.2.8)`);
      if (v.has('OPI')) problems.push(`${where}: OPI (6.2.8)`);
      if (type === 'ExtGState' || v.has('BM') || v.has('ca')) {
        if (v.has('TR')) problems.push(`${where}: a transfer function (TR) (6.2.5)`);
        const tr2 = v.get('TR2');
        if (tr2 !== undefined && name(tr2) !== 'Default') problems.push(`${where}: TR2 other than Default (6.2.5)`);
        const bm = file.resolve(v.get('BM'));
        for (const m of Array.isArray(bm) ? bm : bm === undefined ? [] : [bm]) if (!STANDARD_BLEND_MODES.has(name(m) ?? '')) problems.push(`${where}: blend mode ${name(m) ?? String(m)} (6.2.10)`);
      }
      if (subtype === 'PS' || (type === 'XObject' && subtype === 'PS')) problems.push(`${where}: a PostScript XObject (6.2.9)`);
      if (type === 'Page') {
        const group = file.dict(v.get('Group'));
        if (group && name(group.get('S')) === 'Transparency' && !group.has('CS')) groupsWithoutCs.push(num);
      }
      if (type === 'Annot' || (subtype && v.has('Rect') && (v.has('A') || v.has('Dest') || v.has('Border')))) {
        if (subtype && FORBIDDEN_ANNOTS.has(subtype)) problems.push(`${where}: a ${subtype} annotation (6.3.1)`);
        const f = file.resolve(v.get('F'));
        const flags = typeof f === 'number' ? f : 0;
        if (subtype !== 'Popup' && (!(flags & 4) || flags & (1 | 2 | 32))) problems.push(`${where}: a ${subtype ?? ''} annotation not printable (F ${flags}; Print must be set, Hidden, Invisible and NoView clear) (6.3.2)`);
      }
      const fontSubtype = type === 'Font' ? subtype : undefined;
      if (fontSubtype && fontSubtype !== 'Type3' && fontSubtype !== 'Type0') {
        const fd = file.dict(v.get('FontDescriptor'));
        if (!fd || !(fd.has('FontFile') || fd.has('FontFile2') || fd.has('FontFile3'))) problems.push(`${where}: font ${name(v.get('BaseFont')) ?? '?'} (${fontSubtype}) not embedded (6.2.11.4.1)`);
        if (fontSubtype === 'CIDFontType2' && !v.has('CIDToGIDMap')) problems.push(`${where}: CIDFontType2 ${name(v.get('BaseFont')) ?? '?'} without CIDToGIDMap (6.2.11.3.2)`);
      }
    };
    visit(obj.value, `object ${num}`);
    if (obj.stream && obj.value instanceof Map) {
      const d = obj.value;
      if (d.has('F') || d.has('FFilter') || d.has('FDecodeParms')) problems.push(`object ${num}: a stream in an external file (6.1.7.1)`);
      const f = file.resolve(d.get('Filter'));
      for (const x of Array.isArray(f) ? f : f === undefined ? [] : [f]) if (name(x) === 'LZWDecode') problems.push(`object ${num}: LZW compression (6.1.7.2)`);
    }
  }
  problems.push(...file.problems);

  const catalog = file.dict(file.trailer.get('Root'));
  if (!catalog) return [...problems, 'trailer: no document catalog'];

  // 6.2.2 / 6.2.3: the output intent and its ICC profile.
  const intents = file.resolve(catalog.get('OutputIntents'));
  const pdfaIntents = (Array.isArray(intents) ? intents : []).map((x) => file.dict(x)).filter((d): d is PdfDict => !!d && name(d.get('S')) === 'GTS_PDFA1');
  let intentComponents: number | undefined;
  if (pdfaIntents.length === 0) problems.push('catalog: no GTS_PDFA1 output intent (6.2.3)');
  const profiles = new Set(pdfaIntents.map((d) => (d.get('DestOutputProfile') instanceof PdfRef ? (d.get('DestOutputProfile') as PdfRef).num : -1)));
  if (profiles.size > 1) problems.push('catalog: output intents with different profiles (6.2.3)');
  for (const intent of pdfaIntents) {
    const ref = intent.get('DestOutputProfile');
    const icc = file.decoded(ref);
    const dict = file.dict(ref);
    if (!icc || !dict) {
      problems.push('output intent: no readable DestOutputProfile stream (6.2.3)');
      continue;
    }
    if (icc.length < 128 || icc.toString('latin1', 36, 40) !== 'acsp') problems.push('output intent: the profile is not an ICC profile (no "acsp" signature) (6.2.3)');
    if (icc[8]! > 4) problems.push(`output intent: ICC profile version ${icc[8]} (PDF/A-2 allows up to 4) (6.2.3)`);
    const space = icc.toString('latin1', 16, 20);
    const components = space === 'RGB ' ? 3 : space === 'CMYK' ? 4 : space === 'GRAY' ? 1 : undefined;
    if (components === undefined) problems.push(`output intent: profile colour space "${space}" is not RGB, CMYK or grey (6.2.3)`);
    if (components !== undefined && file.resolve(dict.get('N')) !== components) problems.push(`output intent: N ${String(file.resolve(dict.get('N')))} but a ${space.trim()} profile (6.2.3)`);
    const cls = icc.toString('latin1', 12, 16);
    if (cls !== 'prtr' && cls !== 'mntr') problems.push(`output intent: profile class "${cls}" (an output or monitor profile is required) (6.2.3)`);
    intentComponents = components;
  }
  if (hasCmyk && intentComponents !== 4) problems.push('DeviceCMYK is used without a CMYK output intent (6.2.4.3)');
  if (pdfaIntents.length === 0 && groupsWithoutCs.length) problems.push(`pages ${groupsWithoutCs.join(', ')}: a transparency group without CS and no output intent (6.2.10)`);

  // 6.6.2: the XMP metadata and its PDF/A identification; 6.6.3: agreement with Info.
  const metaRef = catalog.get('Metadata');
  const metaDict = file.dict(metaRef);
  const meta = metaRef instanceof PdfRef ? file.object(metaRef.num).stream : undefined;
  if (!metaDict || !meta) return [...problems, 'catalog: no Metadata stream (6.6.2.1)'];
  if (metaDict.has('Filter')) problems.push('metadata stream: filtered (it must be stored as plain text) (6.6.2.1)');
  if (name(metaDict.get('Type')) !== 'Metadata' || name(metaDict.get('Subtype')) !== 'XML') problems.push('metadata stream: not Type Metadata / Subtype XML (6.6.2.1)');
  const xmp = meta.toString('utf8');
  if (!/<\?xpacket begin=/.test(xmp) || !/<\?xpacket end=/.test(xmp)) problems.push('metadata: not an XMP packet (xpacket header and trailer) (6.6.2.1)');
  if (!/xmlns:pdfaid="http:\/\/www\.aiim\.org\/pdfa\/ns\/id\/"/.test(xmp)) problems.push('metadata: the pdfaid namespace is not declared (6.6.4)');
  if (xmpProperty(xmp, 'pdfaid:part') !== '2') problems.push(`metadata: pdfaid:part is ${xmpProperty(xmp, 'pdfaid:part') ?? 'missing'}, not 2 (6.6.4)`);
  if (xmpProperty(xmp, 'pdfaid:conformance') !== 'B') problems.push(`metadata: pdfaid:conformance is ${xmpProperty(xmp, 'pdfaid:conformance') ?? 'missing'}, not B (6.6.4)`);
  const info = file.dict(file.trailer.get('Info'));
  if (info) {
    const pairs: Array<[string, string]> = [
      ['Title', 'dc:title'],
      ['Author', 'dc:creator'],
      ['Subject', 'dc:description'],
      ['Keywords', 'pdf:Keywords'],
      ['Creator', 'xmp:CreatorTool'],
      ['Producer', 'pdf:Producer'],
    ];
    for (const [key, prop] of pairs) {
      const v = file.resolve(info.get(key));
      if (!(v instanceof PdfString)) continue;
      const x = xmpProperty(xmp, prop);
      if (x !== v.text()) problems.push(`document information ${key} "${v.text()}" but XMP ${prop} ${x === undefined ? 'missing' : `"${x}"`} (6.6.3)`);
    }
  }
  return problems;
}
