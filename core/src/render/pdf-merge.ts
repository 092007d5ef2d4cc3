/**
 * Joins PDF documents that {@link renderPdf} wrote for parts of one presentation into one
 * document (issue 22: the pages of a PDF export are drawn on several worker threads at once).
 *
 * Reads what Skia's PDF backend writes (ISO 32000-1): a classic cross-reference table
 * (§7.5.4; no cross-reference or object streams), a catalog with a page tree (§7.7.3) and
 * named destinations (`Dests`, §12.3.2.3), and writes one file: every object of every part
 * renumbered, one flat page tree in the order asked, the named destinations of all parts
 * together (a link on one part's page may name another part's slide), the catalog, document
 * information and trailer `ID` of the first part (its PDF/A metadata and output intent, when
 * it has them, hold for the whole file), and nothing no longer referenced (the other parts'
 * catalogs, page trees and document information). Stream data is copied byte for byte: the
 * pictures, fonts and page contents are not decoded again.
 *
 * Font subsets keep their fonts' names behind a six-letter tag (§9.6.4); each part tags its
 * own subsets from `AAAAAA+` on, so the tags of later parts are renamed where they meet an
 * earlier part's, and no two different subsets in the file share a name.
 */

/** A part to join: a PDF document and, for each of its pages in its order, that page's index (0-based) in the joined document. */
export interface PdfPart {
  pdf: Uint8Array;
  pages: readonly number[];
}

/** Thrown when a part is not a PDF this joiner reads (not one {@link renderPdf} wrote). */
export class PdfMergeError extends Error {
  override readonly name = 'PdfMergeError';
}

/** A parsed value. Names, numbers, strings and keywords keep their text as written. */
type Value = Raw | Ref | Value[] | Dict | PartValue;
/** A token kept as written: a name (`/N`), number, string (`(..)`, `<..>`) or keyword (`true`, `null`). */
class Raw {
  constructor(readonly text: string) {}
}
class Ref {
  constructor(public num: number) {}
}
/** A value of one part carried into the joined catalog's destinations (written with that part's numbering). */
class PartValue {
  constructor(
    readonly part: number,
    readonly value: Value,
  ) {}
}
/** A dictionary: keys are names without the slash, as written (still #-escaped). */
type Dict = Map<string, Value>;

/** One object of a part: its value and the bytes after it (a stream's keyword and data, `endobj`). */
interface PartObject {
  value: Value;
  tail: Uint8Array;
}

/** Character classes (§7.2.2): 1 white-space, 2 delimiter, 0 regular. */
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[c] = 1;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = 2;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Reads PDF values from text (Latin-1, one character per byte). */
class Lexer {
  constructor(
    private readonly s: string,
    public pos: number,
  ) {}

  private skip(): void {
    const s = this.s;
    for (;;) {
      while (this.pos < s.length && CLASS[s.charCodeAt(this.pos)] === 1) this.pos++;
      if (s.charCodeAt(this.pos) !== 0x25) return;
      while (this.pos < s.length && s.charCodeAt(this.pos) !== 0x0a && s.charCodeAt(this.pos) !== 0x0d) this.pos++;
    }
  }

  /** Moves past a run of regular characters. */
  private regular(): void {
    const s = this.s;
    while (this.pos < s.length && CLASS[s.charCodeAt(this.pos) & 0xff] === 0) this.pos++;
  }

  /** The next regular token (number, keyword) without its delimiters. */
  word(): string {
    this.skip();
    const start = this.pos;
    this.regular();
    if (this.pos === start) throw new PdfMergeError(`a token expected at byte ${start}`);
    return this.s.slice(start, this.pos);
  }

  value(): Value {
    this.skip();
    const s = this.s;
    const c = s.charCodeAt(this.pos);
    if (Number.isNaN(c)) throw new PdfMergeError('the file ends inside an object');
    if (c === 0x3c && s.charCodeAt(this.pos + 1) === 0x3c) {
      this.pos += 2;
      const d: Dict = new Map();
      for (;;) {
        this.skip();
        if (s.charCodeAt(this.pos) === 0x3e && s.charCodeAt(this.pos + 1) === 0x3e) {
          this.pos += 2;
          return d;
        }
        const key = this.value();
        if (!(key instanceof Raw) || !key.text.startsWith('/')) throw new PdfMergeError(`a dictionary key expected at byte ${this.pos}`);
        d.set(key.text.slice(1), this.value());
      }
    }
    if (c === 0x5b) {
      this.pos++;
      const a: Value[] = [];
      for (;;) {
        this.skip();
        if (s.charCodeAt(this.pos) === 0x5d) {
          this.pos++;
          return a;
        }
        a.push(this.value());
      }
    }
    if (c === 0x28) {
      const start = this.pos++;
      let depth = 1;
      while (depth > 0) {
        if (this.pos >= s.length) throw new PdfMergeError('a string runs past the end of the file');
        const ch = s.charCodeAt(this.pos++);
        if (ch === 0x5c) this.pos++;
        else if (ch === 0x28) depth++;
        else if (ch === 0x29) depth--;
      }
      return new Raw(s.slice(start, this.pos));
    }
    if (c === 0x3c) {
      const end = s.indexOf('>', this.pos);
      if (end < 0) throw new PdfMergeError('a hex string runs past the end of the file');
      const text = s.slice(this.pos, end + 1);
      this.pos = end + 1;
      return new Raw(text);
    }
    if (c === 0x2f) {
      const start = this.pos++;
      this.regular();
      return new Raw(s.slice(start, this.pos));
    }
    const start = this.pos;
    this.regular();
    if (this.pos === start) throw new PdfMergeError(`a value expected at byte ${start}`);
    const w = s.slice(start, this.pos);
    if (isDigit(c) && /^\d+$/.test(w)) {
      // `n g R` is a reference; otherwise the integer alone
      const save = this.pos;
      this.skip();
      const g = this.pos;
      while (isDigit(s.charCodeAt(this.pos))) this.pos++;
      if (this.pos > g) {
        this.skip();
        if (s.charCodeAt(this.pos) === 0x52 && (this.pos + 1 >= s.length || CLASS[s.charCodeAt(this.pos + 1) & 0xff] !== 0)) {
          this.pos++;
          return new Ref(Number(w));
        }
      }
      this.pos = save;
    }
    return new Raw(w);
  }
}

/** One part read: its objects by number, the trailer. */
interface ReadPart {
  objects: Map<number, PartObject>;
  trailer: Dict;
  header: string;
}

function readPart(pdf: Uint8Array, which: number): ReadPart {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const s = buf.toString('latin1');
  const header = /^%PDF-\d\.\d/.exec(s)?.[0];
  if (!header) throw new PdfMergeError(`part ${which} is not a PDF`);
  const sx = s.lastIndexOf('startxref');
  const xrefAt = sx < 0 ? NaN : Number(/^startxref\s+(\d+)/.exec(s.slice(sx))?.[1]);
  if (!(xrefAt >= 0) || !s.startsWith('xref', xrefAt)) throw new PdfMergeError(`part ${which} has no cross-reference table`);
  const lex = new Lexer(s, xrefAt + 4);
  const offsets: Array<[number, number]> = [];
  for (;;) {
    const w = lex.word();
    if (w === 'trailer') break;
    const first = Number(w);
    const count = Number(lex.word());
    if (!Number.isInteger(first) || !Number.isInteger(count)) throw new PdfMergeError(`part ${which}: a malformed cross-reference table`);
    for (let i = 0; i < count; i++) {
      const off = Number(lex.word());
      lex.word();
      if (lex.word() === 'n') offsets.push([first + i, off]);
    }
  }
  const trailer = lex.value();
  if (!(trailer instanceof Map)) throw new PdfMergeError(`part ${which}: no trailer dictionary`);
  // Each object runs to the next one (or the cross-reference table): stream data need not be parsed.
  offsets.sort((a, b) => a[1] - b[1]);
  const objects = new Map<number, PartObject>();
  for (let i = 0; i < offsets.length; i++) {
    const [num, off] = offsets[i]!;
    const end = i + 1 < offsets.length ? offsets[i + 1]![1] : xrefAt;
    const ol = new Lexer(s, off);
    if (ol.word() !== String(num) || !/^\d+$/.test(ol.word()) || ol.word() !== 'obj') throw new PdfMergeError(`part ${which}: object ${num} is not where the cross-reference table says`);
    const value = ol.value();
    if (ol.pos > end) throw new PdfMergeError(`part ${which}: object ${num} overlaps the next`);
    objects.set(num, { value, tail: buf.subarray(ol.pos, end) });
  }
  return { objects, trailer, header };
}

/** Subset tags (`ABCDEF+`, §9.6.4) in the names a font object carries. */
const TAG_KEYS: ReadonlySet<string> = new Set(['BaseFont', 'FontName']);

/**
 * Joins parts into one PDF: every page of every part, at the index its part gives it.
 *
 * @param parts - at least one; the page indices of all parts together are 0 … n−1, each once
 * @returns the joined file (one part alone comes back as it is)
 * @throws PdfMergeError when a part is not a PDF as Skia writes it, or the page indices do
 *   not match the parts' pages
 */
export function mergePdfs(parts: readonly PdfPart[]): Uint8Array {
  if (parts.length === 0) throw new PdfMergeError('nothing to join');
  if (parts.length === 1 && parts[0]!.pages.every((p, i) => p === i)) return parts[0]!.pdf;
  const total = parts.reduce((n, p) => n + p.pages.length, 0);
  const pageAt: Array<[number, number] | undefined> = new Array(total);
  const read = parts.map((p, i) => readPart(p.pdf, i));
  // Object (part, number) → new number, given as objects are first reached from the new catalog.
  const newNum = read.map(() => new Map<number, number>());
  const order: Array<[number, number]> = [];
  const usedTags = new Set<string>();
  const tagMaps = read.map(() => new Map<string, string>());
  let nextTag = 0;
  const freshTag = (): string => {
    for (;;) {
      let n = nextTag++;
      let tag = '';
      for (let i = 0; i < 6; i++, n = Math.floor(n / 26)) tag += String.fromCharCode(65 + (n % 26));
      if (!usedTags.has(tag)) return tag;
    }
  };
  for (const r of read) {
    for (const o of r.objects.values()) {
      if (!(o.value instanceof Map)) continue;
      for (const k of TAG_KEYS) {
        const v = o.value.get(k);
        if (v instanceof Raw && /^\/[A-Z]{6}\+/.test(v.text)) usedTags.add(v.text.slice(1, 7));
      }
    }
  }
  const dict = (v: Value | undefined, what: string): Dict => {
    if (!(v instanceof Map)) throw new PdfMergeError(`${what} is not a dictionary`);
    return v;
  };
  const deref = (part: number, v: Value | undefined): Value | undefined => (v instanceof Ref ? read[part]!.objects.get(v.num)?.value : v);

  // Pages of each part in its page-tree order (§7.7.3.2), and the named destinations.
  const dests: Dict = new Map();
  const catalogs: Dict[] = [];
  read.forEach((r, i) => {
    const rootRef = r.trailer.get('Root');
    if (!(rootRef instanceof Ref)) throw new PdfMergeError(`part ${i}: no catalog`);
    const catalog = dict(deref(i, rootRef), `part ${i}'s catalog`);
    catalogs.push(catalog);
    const leaves: number[] = [];
    const walk = (ref: Value | undefined, depth: number): void => {
      if (!(ref instanceof Ref) || depth > 64) throw new PdfMergeError(`part ${i}: a broken page tree`);
      const node = dict(deref(i, ref), `part ${i}'s page tree node ${ref.num}`);
      const type = node.get('Type');
      if (type instanceof Raw && type.text === '/Pages') {
        const kids = node.get('Kids');
        if (!Array.isArray(kids)) throw new PdfMergeError(`part ${i}: a page tree node without kids`);
        for (const k of kids) walk(k, depth + 1);
      } else leaves.push(ref.num);
    };
    walk(catalog.get('Pages'), 0);
    const want = parts[i]!.pages;
    if (leaves.length !== want.length) throw new PdfMergeError(`part ${i} has ${leaves.length} pages, not ${want.length}`);
    leaves.forEach((num, k) => {
      const at = want[k]!;
      if (!(at >= 0 && at < total) || pageAt[at]) throw new PdfMergeError(`page index ${at} out of range or given twice`);
      pageAt[at] = [i, num];
    });
    const d = deref(i, catalog.get('Dests'));
    // each keeps its part's numbering until written
    if (d instanceof Map) for (const [name, dest] of d) if (!dests.has(name)) dests.set(name, new PartValue(i, dest));
  });

  const rootNum = 1;
  const pagesNum = 2;
  const destsNum = dests.size > 0 ? 3 : 0;
  let count = destsNum ? 3 : 2;
  const numberOf = (part: number, old: number): number => {
    const m = newNum[part]!;
    let n = m.get(old);
    if (n === undefined) {
      if (!read[part]!.objects.has(old)) throw new PdfMergeError(`part ${part} refers to object ${old}, which it does not have`);
      n = ++count;
      m.set(old, n);
      order.push([part, old]);
    }
    return n;
  };
  const pageNums = new Set<string>();
  const kids = pageAt.map((p) => {
    if (!p) throw new PdfMergeError('a page index is missing');
    pageNums.add(`${p[0]} ${p[1]}`);
    return numberOf(p[0], p[1]);
  });

  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  const emit = (b: Uint8Array | string): void => {
    const bytes = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(bytes);
    size += bytes.length;
  };
  const write = (part: number, v: Value, key?: string): string => {
    if (v instanceof PartValue) return write(v.part, v.value);
    if (v instanceof Ref) return `${numberOf(part, v.num)} 0 R`;
    if (Array.isArray(v)) return `[${v.map((x) => write(part, x)).join(' ')}]`;
    if (v instanceof Map) {
      let s = '<<';
      for (const [k, x] of v) s += `/${k} ${write(part, x, k)}\n`;
      return `${s.replace(/\n$/, '')}>>`;
    }
    if (part > 0 && key && TAG_KEYS.has(key) && /^\/[A-Z]{6}\+/.test(v.text)) {
      const map = tagMaps[part]!;
      const old = v.text.slice(1, 7);
      let tag = map.get(old);
      if (!tag) {
        tag = freshTag();
        usedTags.add(tag);
        map.set(old, tag);
      }
      return `/${tag}${v.text.slice(7)}`;
    }
    return v.text;
  };
  const header = read.map((r) => r.header).reduce((a, b) => (b > a ? b : a));
  emit(`${header}\n%\xd3\xeb\xe9\xe1\n`);
  const object = (num: number, body: string, tail: Uint8Array | string = '\nendobj\n'): void => {
    offsets[num] = size;
    emit(`${num} 0 obj\n${body}`);
    emit(tail);
  };

  // The first part's catalog, with the joined page tree and destinations.
  const catalog = new Map(catalogs[0]!);
  catalog.set('Pages', new Raw(`${pagesNum} 0 R`));
  if (destsNum) catalog.set('Dests', new Raw(`${destsNum} 0 R`));
  else catalog.delete('Dests');
  const info = read[0]!.trailer.get('Info');
  const infoNum = info instanceof Ref ? numberOf(0, info.num) : 0;
  const trailerId = read[0]!.trailer.get('ID');
  object(rootNum, write(0, catalog));
  object(pagesNum, `<</Type /Pages\n/Count ${total}\n/Kids [${kids.map((n) => `${n} 0 R`).join(' ')}]>>`);
  if (destsNum) object(destsNum, write(0, dests));
  for (let i = 0; i < order.length; i++) {
    const [part, old] = order[i]!;
    const o = read[part]!.objects.get(old)!;
    let value = o.value;
    if (pageNums.has(`${part} ${old}`) && value instanceof Map) {
      value = new Map(value);
      value.set('Parent', new Raw(`${pagesNum} 0 R`));
    }
    object(newNum[part]!.get(old)!, write(part, value), o.tail);
  }
  const xrefAt = size;
  let xref = `xref\n0 ${count + 1}\n0000000000 65535 f \n`;
  for (let n = 1; n <= count; n++) xref += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  const trailer = [`/Size ${count + 1}`, `/Root ${rootNum} 0 R`, ...(infoNum ? [`/Info ${infoNum} 0 R`] : []), ...(trailerId ? [`/ID ${write(0, trailerId)}`] : [])];
  emit(`${xref}trailer\n<<${trailer.join('\n')}>>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat(chunks, size);
}

