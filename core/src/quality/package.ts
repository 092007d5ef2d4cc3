/**
 * PowerPoint safety of a package (issue 23, item 2): the structural rules whose violation
 * makes PowerPoint refuse a file or offer to repair it, checked on every generated deck
 * before it is stored. The rules are those of the project's referee linter
 * (shared/tools/ooxml-lint.py: OPC content types and relationships, PresentationML id
 * lists, layout/master/notes links, shape ids, tables), written for the engine's own
 * package model so the check runs in-process on the deck the build just wrote.
 *
 * - Relationships (OPC, ECMA-376 Part 2 §9.3): every `.rels` part belongs to a part; ids
 *   unique; internal targets exist; absolute URIs are `External`; structural relationship
 *   types (slide, slideLayout, slideMaster, notesSlide, notesMaster, handoutMaster, theme)
 *   point at parts of the matching content type; every `r:*` attribute of an XML part
 *   names one of its relationships (empty values allowed: PowerPoint writes `r:id=""`).
 * - Content types (Part 2 §10.1): every part has one; no Override for a missing part.
 * - Part names (Part 2 §9.1.1): absolute, no empty, `.` or `..` segments, no segment ending
 *   in a dot, no percent-encoded `/` or `\`.
 * - Required parts: `_rels/.rels` with exactly one officeDocument relationship to a
 *   presentation main part; that part's root element matches its content type.
 * - Presentation (Part 1 §19.2.1): `p:sldId/@id` unique in [256, 2^31−1]; master and
 *   layout ids unique across the package in [2^31, 2^32−1]; every id list entry names a
 *   relationship of the right type; no slide listed twice, every related slide listed;
 *   `p:sldMasterIdLst` non-empty; `p:notesSz` present.
 * - Each master has one theme; each slide one layout; each layout one master, which lists
 *   it; each notes slide one slide that points back and one notes master.
 * - Shape ids (`p:cNvPr/@id`) unique per slide and notes slide (branches of one
 *   `mc:AlternateContent` may share; an OLE object's fallback picture is not a shape).
 * - Tables: every row has as many cells as the grid has columns.
 *
 * Speed: a deck is checked on every generation, so parts are read as text, not as trees
 * (the engine's XML trees cost ~5 ms per slide to build; a scan of its tags ~50 µs):
 * relationships parts, relationship attributes, root elements, shape ids and table grids
 * are found with a tag scanner that knows the parts' namespace prefixes from their root
 * element; only the presentation part is parsed. Well-formedness is not re-checked: the
 * engine writes every part with its own serializer.
 */
import type { OpcPackage } from '../ooxml/opc/package.js';
import { CT, PRESENTATION_MAIN_TYPES, RT } from '../ooxml/opc/constants.js';
import { relsPartName, resolveTarget, sourceOfRelsPart } from '../ooxml/opc/part-names.js';
import { NS, attr, attrNS, child, children, type Element } from '../ooxml/xml.js';
import { BoundedMemo } from '../bounded-memo.js';

/** One rule a package breaks. */
export interface PackageProblem {
  /** The part at fault (its absolute name; `/` for the package). */
  part: string;
  /** The rule's tag, as the referee linter names it (`rels`, `rid`, `content-types`, `pres-ids`, `shape-id`, ...). */
  check: string;
  message: string;
}

const SLIDE_ID_MIN = 256;
const SLIDE_ID_MAX = 2_147_483_647;
const MASTER_ID_MIN = 2_147_483_648;
const MASTER_ID_MAX = 4_294_967_295;

/** Root element (local name) each PresentationML content type must have. */
const ROOTS: ReadonlyMap<string, string> = new Map([
  [CT.slide, 'sld'],
  [CT.slideLayout, 'sldLayout'],
  [CT.slideMaster, 'sldMaster'],
  [CT.notesSlide, 'notes'],
  [CT.notesMaster, 'notesMaster'],
  [CT.presentationMain, 'presentation'],
  [CT.templateMain, 'presentation'],
  [CT.slideshowMain, 'presentation'],
  [CT.theme, 'theme'],
]);

/** Content type a structural relationship's target must have. */
const REL_TARGET_TYPES: ReadonlyMap<string, string> = new Map([
  [RT.slide, CT.slide],
  [RT.slideLayout, CT.slideLayout],
  [RT.slideMaster, CT.slideMaster],
  [RT.notesSlide, CT.notesSlide],
  [RT.notesMaster, CT.notesMaster],
  [RT.theme, CT.theme],
  [RT.handoutMaster, 'application/vnd.openxmlformats-officedocument.presentationml.handoutMaster+xml'],
]);

/** At most this many problems are listed per rule (the count of a broken deck says enough). */
const MAX_PER_CHECK = 50;

type Report = (part: string, check: string, message: string) => void;

/** A relationship as read from a relationships part. */
interface Rel {
  id: string;
  type: string;
  target: string;
  external: boolean;
  /** Resolved absolute part name (internal targets). */
  targetPart: string | undefined;
  /** An internal target written as an absolute URI (`scheme:`), which needs `TargetMode="External"`. */
  absoluteUri: boolean;
}

/** Relationships resolved from a source folder, by the entries read from one relationships text (read-only once made). */
const resolvedRelationships = new WeakMap<readonly RelationshipEntry[], Map<string, Rel[]>>();

/**
 * Texts of relationships parts by their bytes: the build writes the same bytes object for
 * slides whose relationships are the same, so a deck's many slides are decoded once.
 */
const relsTextByBytes = new WeakMap<Uint8Array, string>();

/** What the checks share: part texts and relationships, each read once. */
class Reader {
  private readonly texts = new Map<string, string | null>();
  private readonly relsBySource = new Map<string, Rel[]>();
  private readonly decoder = new TextDecoder();
  constructor(
    readonly pkg: OpcPackage,
    private readonly written?: ReadonlyMap<string, Uint8Array>,
  ) {}

  /** A part's bytes as written (undefined when they cannot be read). */
  bytes(part: string): Uint8Array | undefined {
    try {
      return this.written?.get(part) ?? this.pkg.getBytes(part);
    } catch {
      return undefined;
    }
  }

  text(part: string): string | undefined {
    let t = this.texts.get(part);
    if (t === undefined) {
      try {
        const bytes = this.written?.get(part) ?? this.pkg.getBytes(part);
        if (part.toLowerCase().endsWith('.rels')) {
          t = relsTextByBytes.get(bytes);
          if (t === undefined) relsTextByBytes.set(bytes, (t = this.decoder.decode(bytes)));
        } else t = this.decoder.decode(bytes);
      } catch {
        t = null;
      }
      this.texts.set(part, t);
    }
    return t ?? undefined;
  }

  /** Relationships of `source` (`/` for the package), from its relationships part; [] without one. */
  rels(source: string): Rel[] {
    let list = this.relsBySource.get(source);
    if (!list) {
      list = [];
      const relsName = relsPartName(source);
      const text = this.pkg.hasPart(relsName) ? this.text(relsName) : undefined;
      if (text) {
        // resolved once per distinct text and source folder (a fragment-only or empty
        // target names the source part itself: such lists are resolved per part)
        const entries = relationshipEntries(text);
        const perFolder = entries.every((e) => e.target === undefined || (e.target !== '' && !e.target.startsWith('#')));
        const folder = source.slice(0, source.lastIndexOf('/') + 1);
        let byFolder = resolvedRelationships.get(entries);
        const known = perFolder ? byFolder?.get(folder) : undefined;
        if (known) list = known;
        else {
          for (const { id, type, target, external } of entries) {
            if (!id || !type || target === undefined) continue;
            list.push({ id, type, target, external, targetPart: external ? undefined : resolveTarget(source, target), absoluteUri: !external && ABSOLUTE_URI.test(target) });
          }
          if (perFolder) {
            if (!byFolder) resolvedRelationships.set(entries, (byFolder = new Map()));
            byFolder.set(folder, list);
          }
        }
      }
      this.relsBySource.set(source, list);
    }
    return list;
  }

  private byType: Map<string, string[]> | undefined;

  /** Keeps the parts by content type (`types[i]` is the content type of `names[i]`), for {@link partsOfType}. */
  indexTypes(names: readonly string[], types: ReadonlyArray<string | undefined>): void {
    this.byType = new Map();
    names.forEach((name, i) => {
      const ct = types[i];
      if (ct === undefined) return;
      const list = this.byType!.get(ct);
      if (list) list.push(name);
      else this.byType!.set(ct, [name]);
    });
  }

  /** The package's parts of a content type, in the package's order (`OpcPackage.partsOfType`). */
  partsOfType(ct: string): readonly string[] {
    return this.byType ? (this.byType.get(ct) ?? []) : this.pkg.partsOfType(ct);
  }

  has(part: string | undefined): part is string {
    return part !== undefined && this.pkg.hasPart(part);
  }
}

/** A `Relationship` element as written, its attributes possibly missing. */
interface RelationshipEntry {
  id: string | undefined;
  type: string | undefined;
  target: string | undefined;
  external: boolean;
}

/**
 * The relationships of a relationships part's text, read once per distinct text: a deck's
 * slides made from one template slide have the same relationships part, and so do the
 * decks made from it (bounded: cleared when full).
 */
const relationshipsByText = new Map<string, RelationshipsText>();
/** A URI with a scheme (RFC 3986 §3.1). */
const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:/i;
const MAX_CACHED_RELATIONSHIP_TEXTS = 4096;

/** What a relationships part's text holds, read once per distinct text. */
interface RelationshipsText {
  /** The root element's local name (undefined without one). */
  root: string | undefined;
  entries: readonly RelationshipEntry[];
  /** What is wrong with the entries themselves (missing attributes, ids used twice), as messages. */
  problems: readonly string[];
}

function relationshipsText(text: string): RelationshipsText {
  let known = relationshipsByText.get(text);
  if (!known) {
    const entries: RelationshipEntry[] = [];
    for (const m of text.matchAll(/<(?:[\w.-]+:)?Relationship\b([^>]*)>/g)) {
      const a = attributes(m[1]!);
      entries.push({ id: a.get('Id'), type: a.get('Type'), target: a.get('Target'), external: a.get('TargetMode') === 'External' });
    }
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const { id, type, target } of entries) {
      if (!id || !type || target === undefined) problems.push(`a relationship lacks its Id, Type or Target (Id="${id ?? ''}")`);
      else if (ids.has(id)) problems.push(`the relationship id ${id} is used twice`);
      if (id) ids.add(id);
    }
    if (relationshipsByText.size >= MAX_CACHED_RELATIONSHIP_TEXTS) relationshipsByText.clear();
    relationshipsByText.set(text, (known = { root: rootOf(text)?.local, entries, problems }));
  }
  return known;
}

function relationshipEntries(text: string): readonly RelationshipEntry[] {
  return relationshipsText(text).entries;
}

const ATTR_RE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The attributes of a start tag's text (after its name), entities decoded. */
function attributes(tagRest: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tagRest.matchAll(ATTR_RE)) out.set(m[1]!, decodeEntities(m[2] ?? m[3] ?? ''));
  return out;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g, (_, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    if (dec) return String.fromCodePoint(Number(dec));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[named as 'amp'];
  });
}

/** The root element's local name and the prefixes its namespace declarations bind, by namespace. */
function rootOf(text: string): { local: string; prefixes: Map<string, Set<string>> } | undefined {
  // sticky, not `^`: an anchored pattern would still be tried at every position of a part that has no root
  ROOT_RE.lastIndex = 0;
  const m = ROOT_RE.exec(text);
  if (!m) return undefined;
  const prefixes = new Map<string, Set<string>>();
  for (const d of m[3]!.matchAll(/xmlns:([\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const uri = d[2] ?? d[3] ?? '';
    let set = prefixes.get(uri);
    if (!set) prefixes.set(uri, (set = new Set()));
    set.add(d[1]!);
  }
  return { local: m[2]!, prefixes };
}

/** Prolog (BOM, whitespace, declaration, comments) and the root start tag: prefix, local name, attributes. */
const ROOT_RE = /(?:\uFEFF)?(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<(?:([\w.-]+):)?([\w.-]+)([^>]*)>/y;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/**
 * The rules that read a slide's own text (root element, relationship attributes, shape
 * ids, table grids), for a slide whose XML is at hand: generation checks each slide on the
 * bytes it serialized and is about to compress, so the package check need not inflate and
 * read it again.
 *
 * The engine's serializer writes every attribute as ` name="value"` (one space before it,
 * double quotes, `"` escaped in values), so on its output the rules are found with native
 * byte searches for fixed tags (`<p:cNvPr`, `<a:tbl>`, ` r:`), a few times faster than
 * searching the string, which V8 may still hold as a rope of the serializer's pieces or in
 * two-byte form. A slide with `mc:AlternateContent` or OLE objects (whose branches may share
 * shape ids) is read with the general patterns of {@link checkShapeTree}.
 *
 * What is read from the bytes between repeated ranges is kept too, by those bytes with the
 * plain ranges (`rows` marked plain, `plain`) left out: slides filled from one template
 * slide differ there only in their paragraphs' text, so a deck's slides are mostly
 * compared with what was read before rather than searched (bounded).
 *
 * @param text - the slide's XML as written: UTF-8 bytes, or a string (encoded here)
 * @param relIds - the ids of the slide's relationships, as written to its `.rels` part
 * @param repeated - ranges that repeat a template element's text (in order, not overlapping)
 * @param rows - table rows written from row models (in order)
 * @param plain - ranges (in order) holding nothing the rules look for: paragraphs written from models
 */
export function checkSlideText(part: string, text: string | Uint8Array, relIds: ReadonlySet<string>, repeated: readonly RepeatedRange[] = [], rows: readonly ModelRows[] = [], plain: readonly ByteRange[] = []): PackageProblem[] {
  const out: PackageProblem[] = [];
  const report: Report = (p, check, message) => {
    if (out.length < MAX_PER_CHECK) out.push({ part: p, check, message });
  };
  const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const { root, signature } = slideHead(buf);
  if (!root) {
    report(part, 'xml', 'the part has no root element');
    return out;
  }
  if (root.local !== 'sld') report(part, 'part', `the root element is ${root.local}, not sld as its content type requires`);
  // the text between repeated ranges is read now; each repeated range once per template element
  const skips = skipRanges(rows, plain, buf.length);
  // ranges not as the serializer writes them: the slide is read as one piece, every byte searched
  if (!skips) return checkWhole(part, buf, root.prefixes, relIds, out, report, rows, NO_RANGES);
  const pieces: SlideTextFacts[] = [];
  let at = 0;
  for (const r of repeated) {
    if (r.start < at || r.end > buf.length || r.end < r.start) return checkWhole(part, buf, root.prefixes, relIds, out, report, rows, skips);
    if (r.start > at) pieces.push(pieceFacts(buf.subarray(at, r.start), root.prefixes, signature, rowsWithin(rows, at, r.start), rangesWithin(skips, at, r.start)));
    let kept = factsOfRepeated.get(r.source);
    if (!kept || kept.signature !== signature || kept.length !== r.end - r.start) {
      kept = { signature, length: r.end - r.start, facts: slideTextFacts(buf.subarray(r.start, r.end), root.prefixes) };
      factsOfRepeated.set(r.source, kept);
    }
    pieces.push(kept.facts);
    at = r.end;
  }
  if (at < buf.length) pieces.push(pieceFacts(buf.subarray(at), root.prefixes, signature, rowsWithin(rows, at, buf.length), rangesWithin(skips, at, buf.length)));
  // alternate content and OLE objects need the general reading
  if (pieces.some((f) => f.special)) return checkWhole(part, buf, root.prefixes, relIds, out, report, rows, skips);
  for (const f of pieces) for (const r of f.rids) if (!relIds.has(r.value)) report(part, 'rid', `${r.name}="${r.value}" names no relationship in ${relsPartName(part)}`);
  const ids = new Set<string>();
  for (const f of pieces) for (const s of f.shapes) checkShapeId(part, s.id, s.name, ids, report, s.valid);
  // a table split across pieces (its children repeated from the template) is read in the whole slide
  if (pieces.every((f) => f.tablesWhole)) {
    for (const f of pieces) for (const m of f.tableProblems) report(part, 'table', m);
  } else checkSerializedTables(part, buf, root.prefixes, report, rows);
  return out;
}

/**
 * Table rows a slide's bytes hold as the serializer wrote them from a row model (see
 * `WrittenRows` in the generation serializer): the byte range, from the first row's `<a:tr`
 * to the last row's `</a:tr>`, and per row the `a:tc` start tags in it. The rows' bytes are
 * a function of the model, so the table rules take these counts instead of searching the
 * range (ranges not where a row starts are read from the bytes as any other).
 */
export interface ModelRows {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
  /** Per row in order, its `<a:tc` start tags. */
  cells: readonly number[];
  /**
   * The rows hold nothing else the slide-text rules look for (no relationship or other
   * prefixed attribute, shape, alternate content, OLE object, table tag or grid column):
   * their bytes are passed over.
   */
  plain?: boolean;
}

const NO_ROWS: readonly ModelRows[] = [];

/** The model rows wholly inside bytes `from`–`to`, as offsets from `from`. */
function rowsWithin(rows: readonly ModelRows[], from: number, to: number): readonly ModelRows[] {
  if (rows.length === 0) return NO_ROWS;
  let inside: ModelRows[] | undefined;
  for (const r of rows) if (r.start >= from && r.end <= to && r.start <= r.end) (inside ??= []).push(from === 0 ? r : { start: r.start - from, end: r.end - from, cells: r.cells, plain: r.plain });
  return inside ?? NO_ROWS;
}

/** A range of a slide's bytes. */
export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
}

const NO_RANGES: readonly ByteRange[] = [];

/** A piece of a slide the rules pass over, and what it is: a paragraphs' text, or model rows with their cells. */
interface SkippedRange extends ByteRange {
  rows: ModelRows | undefined;
}

/**
 * The ranges the slide-text rules pass over (plain model rows and plain ranges), merged in
 * order; undefined when they are not as the serializer writes them (out of order,
 * overlapping or past the end), and the slide is then read whole.
 */
function skipRanges(rows: readonly ModelRows[], plain: readonly ByteRange[], length: number): SkippedRange[] | undefined {
  const out: SkippedRange[] = [];
  let i = 0;
  let j = 0;
  let at = 0;
  for (;;) {
    while (i < rows.length && !rows[i]!.plain) i++;
    const r = rows[i];
    const p = plain[j];
    if (!r && !p) return out;
    const takeRow = r !== undefined && (p === undefined || r.start <= p.start);
    const next: SkippedRange = takeRow ? { start: r.start, end: r.end, rows: r } : { start: p!.start, end: p!.end, rows: undefined };
    if (takeRow) i++;
    else j++;
    if (next.start < at || next.end < next.start || next.end > length) return undefined;
    out.push(next);
    at = next.end;
  }
}

/** The skipped ranges wholly inside bytes `from`–`to`, as offsets from `from`. */
function rangesWithin(ranges: readonly SkippedRange[], from: number, to: number): readonly SkippedRange[] {
  let inside: SkippedRange[] | undefined;
  for (const r of ranges) if (r.start >= from && r.end <= to) (inside ??= []).push(from === 0 ? r : { start: r.start - from, end: r.end - from, rows: r.rows });
  return inside ?? NO_SKIPS;
}

const NO_SKIPS: readonly SkippedRange[] = [];

/** What was read from a piece of a slide, kept with the bytes it was read from. */
interface KeptPiece {
  signature: string;
  /** The piece's skipped ranges as they stood among its bytes: per range, `p` or its rows' cells. */
  shape: string;
  /** The bytes around the skipped ranges (copies). */
  gaps: Buffer[];
  facts: SlideTextFacts;
}

/**
 * Pieces read lately, by the number of bytes around their skipped ranges (bounded: at most
 * {@link MAX_PIECE_LENGTHS} lengths, cleared past that, and the latest
 * {@link MAX_PIECES_PER_LENGTH} pieces of each).
 */
const keptPieces = new Map<number, KeptPiece[]>();
const MAX_PIECE_LENGTHS = 256;
const MAX_PIECES_PER_LENGTH = 8;

/**
 * {@link slideTextFacts} of a piece of a slide between repeated ranges, kept by its bytes
 * outside the skipped ranges, the skipped ranges' kinds and model rows' cells: the rules
 * read nothing else, so equal bytes there give equal facts.
 */
function pieceFacts(buf: Buffer, prefixes: Map<string, Set<string>>, signature: string, rows: readonly ModelRows[], skips: readonly SkippedRange[]): SlideTextFacts {
  const gaps = gapsAround(buf, skips);
  let length = 0;
  for (const g of gaps) length += g.length;
  // where the skipped ranges and model rows stand among the searched bytes, and what they
  // are, decide the table counts: offsets counted in the gaps' bytes
  let shape = '';
  let skipped = 0;
  let k = 0;
  for (const r of skips) {
    shape += `${r.start - skipped}${r.rows ? `r${r.rows.cells.join(',')}` : 'p'};`;
    skipped += r.end - r.start;
  }
  skipped = 0;
  for (const r of rows) {
    if (r.plain) continue;
    while (k < skips.length && skips[k]!.end <= r.start) {
      skipped += skips[k]!.end - skips[k]!.start;
      k++;
    }
    shape += `${r.start - skipped}R${r.cells.join(',')};`;
  }
  let list = keptPieces.get(length);
  if (list) {
    for (const kept of list) {
      if (kept.signature !== signature || kept.shape !== shape || kept.gaps.length !== gaps.length) continue;
      let same = true;
      for (let i = 0; same && i < gaps.length; i++) same = gaps[i]!.equals(kept.gaps[i]!);
      if (same) return kept.facts;
    }
  }
  const facts = slideTextFacts(buf, prefixes, rows, skips);
  if (!list) {
    if (keptPieces.size >= MAX_PIECE_LENGTHS) keptPieces.clear();
    keptPieces.set(length, (list = []));
  }
  if (list.length >= MAX_PIECES_PER_LENGTH) list.shift();
  list.push({ signature, shape, gaps: gaps.map((g) => Buffer.from(g)), facts });
  return facts;
}

/** What a slide's prolog and root start tag give the slide-text rules. */
interface SlideHead {
  /** The prolog and root start tag's bytes (a copy). */
  bytes: Buffer;
  root: ReturnType<typeof rootOf>;
  /** {@link prefixSignature} of the root's prefixes. */
  signature: string;
}

/**
 * Heads of the slides read lately, most recent first: a deck's slides made from one
 * template slide start with the same bytes, whose root element is read once (bounded).
 */
const slideHeads: SlideHead[] = [];
const MAX_SLIDE_HEADS = 16;

/** The root element of a slide's bytes, read once per distinct prolog and root start tag. */
function slideHead(buf: Buffer): SlideHead {
  // bytes that start with a known head have that head: the head ends at the first `>` after
  // the root's `<`, which the known head holds
  for (let i = 0; i < slideHeads.length; i++) {
    const known = slideHeads[i]!;
    const n = known.bytes.length;
    if (n <= buf.length && buf.compare(known.bytes, 0, n, 0, n) === 0) {
      if (i > 0) {
        slideHeads.splice(i, 1);
        slideHeads.unshift(known);
      }
      return known;
    }
  }
  const end = rootHeadEnd(buf);
  const root = rootOf(buf.toString('utf8', 0, end === -1 ? buf.length : end));
  const signature = root ? prefixSignature(root.prefixes) : '';
  // bytes without a whole root start tag are read as they are, not kept: longer bytes starting with them may have one
  if (end === -1) return { bytes: Buffer.alloc(0), root, signature };
  const made: SlideHead = { bytes: Buffer.from(buf.subarray(0, end)), root, signature };
  slideHeads.unshift(made);
  if (slideHeads.length > MAX_SLIDE_HEADS) slideHeads.pop();
  return made;
}

/** A range of a slide's bytes that repeats a template element's text (see the generation serializer). */
export interface RepeatedRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
  /** The template element the text was written from: the same element, the same bytes. */
  source: object;
}

/** What the slide-text rules read from a piece of a slide's bytes. */
interface SlideTextFacts {
  /** Relationship attributes with a value: qualified name and value. */
  rids: Array<{ name: string; value: string }>;
  /** `p:cNvPr` ids and names, in document order. */
  shapes: Array<{ id: string; name: string; valid: boolean }>;
  /** Problems of the tables wholly inside the piece. */
  tableProblems: string[];
  /** Every table that starts in the piece ends in it, and none ends there that started before. */
  tablesWhole: boolean;
  /** The piece holds `mc:AlternateContent` or OLE objects. */
  special: boolean;
}

/** Facts of repeated template text by template element (dropped with its template). */
const factsOfRepeated = new WeakMap<object, { signature: string; length: number; facts: SlideTextFacts }>();

/** The prefixes the rules search for, as one string: facts read under other prefixes are not reused. */
function prefixSignature(prefixes: Map<string, Set<string>>): string {
  return [NS.r, NS.p, NS.p14, NS.a].map((ns) => [...(prefixes.get(ns) ?? [])].join(',')).join('|');
}

function slideTextFacts(buf: Buffer, prefixes: Map<string, Set<string>>, rows: readonly ModelRows[] = NO_ROWS, skips: readonly ByteRange[] = NO_RANGES): SlideTextFacts {
  // skipped ranges hold nothing but their paragraphs or cells: the other rules read around them
  const gaps = gapsAround(buf, skips);
  let special = false;
  for (const g of gaps) if (ALTERNATE_CONTENT.in(g) !== -1 || OLE_OBJECT.in(g) !== -1) special = true;
  const facts: SlideTextFacts = { rids: [], shapes: [], tableProblems: [], tablesWhole: true, special };
  if (special) return facts;
  for (const g of gaps) scanSerializedRelationshipIds(g, prefixes, (name, value) => facts.rids.push({ name, value }));
  // (whether an id is an unsignedInt is read once: repeated template text's facts are kept)
  for (const g of gaps) scanSerializedShapeIds(g, prefixes, (id, name) => facts.shapes.push({ id, name, valid: isShapeId(id) }));
  facts.tablesWhole = checkSerializedTables('', buf, prefixes, (_part, _check, message) => facts.tableProblems.push(message), rows);
  return facts;
}

/** The bytes of `buf` outside `skips` (in order, inside `buf`), as views. */
function gapsAround(buf: Buffer, skips: readonly ByteRange[]): Buffer[] {
  if (skips.length === 0) return [buf];
  const gaps: Buffer[] = [];
  let at = 0;
  for (const r of skips) {
    gaps.push(buf.subarray(at, r.start));
    at = r.end;
  }
  gaps.push(buf.subarray(at));
  return gaps;
}

/** The slide's bytes read as one piece; `out` holds the root element's finding, if any. */
function checkWhole(part: string, buf: Buffer, prefixes: Map<string, Set<string>>, relIds: ReadonlySet<string>, out: PackageProblem[], report: Report, rows: readonly ModelRows[], skips: readonly ByteRange[]): PackageProblem[] {
  const gaps = gapsAround(buf, skips);
  for (const g of gaps) {
    scanSerializedRelationshipIds(g, prefixes, (name, value) => {
      if (!relIds.has(value)) report(part, 'rid', `${name}="${value}" names no relationship in ${relsPartName(part)}`);
    });
  }
  if (gaps.every((g) => ALTERNATE_CONTENT.in(g) === -1 && OLE_OBJECT.in(g) === -1)) {
    const ids = new Set<string>();
    for (const g of gaps) scanSerializedShapeIds(g, prefixes, (id, name) => checkShapeId(part, id, name, ids, report));
    checkSerializedTables(part, buf, prefixes, report, rows);
  } else checkShapeTree(part, buf.toString('utf8'), prefixes, report);
  return out;
}

/** A shape id's rules: an unsignedInt, not used before on the slide (`ids`, updated). */
function checkShapeId(part: string, id: string, name: string, ids: Set<string>, report: Report, valid = isShapeId(id)): void {
  if (!valid) report(part, 'shape-id', `shape "${name}" has the id "${id}", not an unsignedInt`);
  else if (ids.has(id)) report(part, 'shape-id', `the shape id ${id} ("${name}") is used twice`);
  ids.add(id);
}

/** Whether a shape id (`p:cNvPr/@id`) is an unsignedInt. */
function isShapeId(id: string): boolean {
  return /^\d{1,10}$/.test(id) && Number(id) <= MASTER_ID_MAX;
}

const LT = 0x3c;
const GT = 0x3e;
const QUOTE = 0x22;
const EQUALS = 0x3d;
const SLASH = 0x2f;

/**
 * A byte string searched for by a rarer part of it. Node searches a short needle by
 * looking for its first byte and comparing from there: a needle starting with `<` stops at
 * every tag of a part, one starting with a letter that XML rarely holds (an upper-case
 * letter, `b`) runs at the speed of a memory scan (`<p:cNvPr` found by `NvPr` is some
 * twenty times faster). {@link in} finds exactly what `indexOf` of the whole needle finds.
 */
class Needle {
  readonly bytes: Buffer;
  readonly length: number;
  /** The part searched for, and where it starts in the needle. */
  private readonly anchor: Buffer;
  private readonly offset: number;

  constructor(text: string) {
    this.bytes = Buffer.from(text, 'utf8');
    this.length = this.bytes.length;
    let best = 0;
    for (let i = 1; i < this.length; i++) if (rarity(this.bytes[i]!) > rarity(this.bytes[best]!)) best = i;
    // Node searches needles shorter than 8 bytes by their first byte; longer ones otherwise
    const end = Math.min(this.length, best + 7);
    const useWhole = rarity(this.bytes[best]!) === 0 || (best === 0 && end === this.length);
    this.offset = useWhole ? 0 : best;
    this.anchor = useWhole ? this.bytes : this.bytes.subarray(best, end);
  }

  /** `buf.indexOf(this.bytes, from)` for `from` ≥ 0: the first occurrence at or after `from`, else -1. */
  in(buf: Buffer, from = 0): number {
    if (this.anchor === this.bytes) return buf.indexOf(this.bytes, from);
    const bytes = this.bytes;
    const n = this.length;
    for (let q = buf.indexOf(this.anchor, from + this.offset); q !== -1; q = buf.indexOf(this.anchor, q + 1)) {
      const p = q - this.offset;
      if (p + n > buf.length) return -1;
      let i = 0;
      while (i < n && buf[p + i] === bytes[i]) i++;
      if (i === n) return p;
    }
    return -1;
  }
}

/** How rarely a byte occurs in the markup of a part (0: often — `<`, `:`, lower-case letters of common names). */
function rarity(c: number): number {
  if (c >= 65 && c <= 90) return 2; // upper case
  if (c === 98 || c === 106 || c === 107 || c === 113 || c === 118 || c === 119 || c === 120 || c === 121 || c === 122) return 1; // b j k q v w x y z
  return 0;
}

/** Search needles (tags and attribute prefixes under the prefixes parts declare), bounded. */
const needles = new BoundedMemo<Needle>(1024);
function needle(text: string): Needle {
  return needles.get(text) ?? needles.set(text, new Needle(text));
}

/** The needles the slide-text rules search for under a part's prefixes. */
interface SlideNeedles {
  /** ` r:` per relationships prefix. */
  rel: Array<{ prefix: string; find: Needle }>;
  /** `<p:cNvPr` per PresentationML prefix, p14's after p's. */
  cNvPr: Needle[];
  /** Per DrawingML prefix: `<a:tbl>`, `</a:tbl>`, `<a:tr`, `</a:tr>`, `<a:tc`, `<a:gridCol`. */
  tables: Array<{ prefix: string; open: Needle; close: Needle; tr: Needle; trEnd: Needle; tc: Needle; gridCol: Needle }>;
}

/** The needles of the slide-text rules by the prefixes read from a root element (made once per head read). */
const slideNeedles = new WeakMap<Map<string, Set<string>>, SlideNeedles>();

function needlesOf(prefixes: Map<string, Set<string>>): SlideNeedles {
  let known = slideNeedles.get(prefixes);
  if (!known) {
    known = {
      rel: [...(prefixes.get(NS.r) ?? [])].map((prefix) => ({ prefix, find: needle(` ${prefix}:`) })),
      cNvPr: [...(prefixes.get(NS.p) ?? ['p']), ...(prefixes.get(NS.p14) ?? [])].map((prefix) => needle(`<${prefix}:cNvPr`)),
      tables: [...(prefixes.get(NS.a) ?? ['a'])].map((a) => ({
        prefix: a,
        open: needle(`<${a}:tbl>`),
        close: needle(`</${a}:tbl>`),
        tr: needle(`<${a}:tr`),
        trEnd: needle(`</${a}:tr>`),
        tc: needle(`<${a}:tc`),
        gridCol: needle(`<${a}:gridCol`),
      })),
    };
    slideNeedles.set(prefixes, known);
  }
  return known;
}

const ALTERNATE_CONTENT = needle('AlternateContent');
const OLE_OBJECT = needle('oleObj');

/**
 * Where the prolog and root start tag of a part's bytes end: after the `>` of the first tag
 * that is not a declaration, processing instruction or comment; -1 when the bytes end first.
 */
function rootHeadEnd(buf: Buffer): number {
  let at = buf.indexOf(LT);
  while (at !== -1) {
    const next = buf[at + 1];
    if (next === 0x3f /* ? */) at = buf.indexOf('?>', at + 2, 'latin1');
    else if (next === 0x21 /* ! */) at = buf.indexOf('-->', at + 2, 'latin1');
    else break;
    if (at === -1) break;
    at = buf.indexOf(LT, at);
  }
  if (at === -1) return -1;
  const end = buf.indexOf(GT, at);
  return end === -1 ? -1 : end + 1;
}

/** Bytes of `[\w.-]` (an attribute name's characters as the general patterns read them). */
function isNameUnit(c: number | undefined): boolean {
  return c !== undefined && ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45);
}

/** {@link scanRelationshipIds}'s reading on bytes the engine serialized: each relationship attribute with a value, as `prefix:name` and value. */
function scanSerializedRelationshipIds(buf: Buffer, prefixes: Map<string, Set<string>>, found: (name: string, value: string) => void): void {
  for (const { prefix, find } of needlesOf(prefixes).rel) {
    for (let at = find.in(buf); at !== -1; at = find.in(buf, at + find.length)) {
      const nameStart = at + find.length;
      let end = nameStart;
      while (end < buf.length && isNameUnit(buf[end])) end++;
      if (end === nameStart || buf[end] !== EQUALS || buf[end + 1] !== QUOTE) continue;
      // text content may hold ` r:id="…"` as words (`"` is not escaped in text)
      if (!insideSerializedStartTag(buf, at)) continue;
      const close = buf.indexOf(QUOTE, end + 2);
      if (close === -1) break;
      const value = decodeEntities(buf.toString('utf8', end + 2, close));
      if (value !== '') found(`${prefix}:${buf.toString('latin1', nameStart, end)}`, value);
    }
  }
}

/**
 * Whether byte `at` of serialized XML lies inside a start tag, not in text content: no `>`
 * outside an attribute value since the last `<` (which neither text nor values hold raw;
 * values may hold `>`, never a raw `"`).
 */
function insideSerializedStartTag(buf: Buffer, at: number): boolean {
  const lt = buf.lastIndexOf(LT, at);
  if (lt === -1) return false;
  let inValue = false;
  for (let i = lt + 1; i < at; i++) {
    const c = buf[i];
    if (c === QUOTE) inValue = !inValue;
    else if (c === GT && !inValue) return false;
  }
  return true;
}

/**
 * {@link insideSerializedStartTag} for XML written by anyone: values may be in either
 * quote, and text may hold `>` raw (never `<`).
 */
function insideStartTag(text: string, at: number): boolean {
  const lt = text.lastIndexOf('<', at);
  if (lt === -1) return false;
  let quote = '';
  for (let i = lt + 1; i < at; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return false;
  }
  return true;
}

/** Bytes of `\w`: a tag name followed by one is a longer name (`a:tcPr` is not `a:tc`). */
function isWordUnit(c: number | undefined): boolean {
  return c !== undefined && ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95);
}

/** Start tags `<{name}` (not a longer name) in `buf`, counted. */
function countStartTags(buf: Buffer, find: Needle): number {
  let n = 0;
  for (let at = find.in(buf); at !== -1; at = find.in(buf, at + find.length)) if (!isWordUnit(buf[at + find.length])) n++;
  return n;
}

/**
 * {@link checkTablesIn} on bytes the engine serialized; rows written from a model
 * (`rows`, offsets in `buf`, in order) are counted by it where a row of an `a:` table starts.
 * @returns whether every table that starts in `buf` ends in it and none ends there that started before
 */
function checkSerializedTables(part: string, buf: Buffer, prefixes: Map<string, Set<string>>, report: Report, rows: readonly ModelRows[] = NO_ROWS): boolean {
  let whole = true;
  for (const { prefix, open, close, tr, trEnd, tc, gridCol } of needlesOf(prefixes).tables) {
    const firstOpen = open.in(buf);
    const firstClose = close.in(buf);
    if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) whole = false;
    for (let at = firstOpen; at !== -1; at = open.in(buf, at + open.length)) {
      const end = close.in(buf, at);
      if (end === -1) whole = false;
      // searches stay inside the table: a view of its bytes
      const body = buf.subarray(at, end === -1 ? buf.length : end);
      const cols = countStartTags(body, gridCol);
      // the serializer writes model rows as `a:tr`
      const known = prefix === 'a' ? rowsWithin(rows, at, at + body.length) : NO_ROWS;
      let k = 0;
      let row = 0;
      for (let i = tr.in(body); i !== -1; ) {
        while (k < known.length && known[k]!.start < i) k++;
        const model = known[k];
        if (model !== undefined && model.start === i) {
          // rows from a model: the count of each row's cells is the model's
          for (const cells of model.cells) {
            row++;
            if (cols > 0 && cells !== cols) report(part, 'table', `table row ${row} has ${cells} cells; the grid has ${cols} columns`);
          }
          k++;
          i = tr.in(body, model.end);
          continue;
        }
        if (isWordUnit(body[i + tr.length])) {
          i = tr.in(body, i + tr.length);
          continue;
        }
        row++;
        const tagEnd = body.indexOf(GT, i);
        if (tagEnd === -1) break;
        let cells = 0;
        if (body[tagEnd - 1] !== SLASH /* a self-closing row has no cells */) {
          const rowEnd = trEnd.in(body, tagEnd);
          cells = countStartTags(body.subarray(tagEnd, rowEnd === -1 ? body.length : rowEnd), tc);
          i = rowEnd === -1 ? body.length : rowEnd;
        }
        if (cols > 0 && cells !== cols) report(part, 'table', `table row ${row} has ${cells} cells; the grid has ${cols} columns`);
        if (i >= body.length) break;
        i = tr.in(body, i + tr.length);
      }
      if (cols === 0) report(part, 'table', 'a table has no grid columns');
      if (end === -1) break;
    }
  }
  return whole;
}

/** The value of attribute `name` in a start tag's serialized text, entities decoded; undefined without it. */
function serializedAttr(tag: string, name: string): string | undefined {
  const find = ` ${name}="`;
  const at = tag.indexOf(find);
  if (at === -1) return undefined;
  const start = at + find.length;
  const close = tag.indexOf('"', start);
  return close === -1 ? undefined : decodeEntities(tag.slice(start, close));
}

/** {@link checkShapeIdsPlain}'s reading on bytes the engine serialized: each `p:cNvPr`'s id and name, in document order. */
function scanSerializedShapeIds(buf: Buffer, prefixes: Map<string, Set<string>>, found: (id: string, name: string) => void): void {
  for (const find of needlesOf(prefixes).cNvPr) {
    for (let at = find.in(buf); at !== -1; at = find.in(buf, at + find.length)) {
      const next = buf[at + find.length];
      // a longer name (`cNvPrX`) is another element
      if (isNameUnit(next) && next !== 46 && next !== 45) continue;
      const end = buf.indexOf(GT, at);
      const tag = buf.toString('utf8', at + find.length, end === -1 ? buf.length : end);
      found(serializedAttr(tag, 'id') ?? '', serializedAttr(tag, 'name') ?? '');
    }
  }
}

/** Options of {@link checkPackage}. */
export interface CheckPackageOptions {
  /**
   * Parts whose text was checked already ({@link checkSlideText}), with what that found:
   * their text is not read again.
   */
  checkedText?: ReadonlyMap<string, readonly PackageProblem[]>;
  /**
   * Bytes of parts as written, by part name, read instead of the package's (a package that
   * holds a part as a tree serializes it on every read of its bytes).
   */
  writtenBytes?: ReadonlyMap<string, Uint8Array>;
}

/**
 * Checks a package against the rules above.
 *
 * @returns the problems found, empty for a sound package
 */
export function checkPackage(pkg: OpcPackage, options: CheckPackageOptions = {}): PackageProblem[] {
  const out: PackageProblem[] = [];
  const perCheck = new Map<string, number>();
  const report: Report = (part, check, message) => {
    const n = (perCheck.get(check) ?? 0) + 1;
    perCheck.set(check, n);
    if (n <= MAX_PER_CHECK) out.push({ part, check, message });
  };
  const r = new Reader(pkg, options.writtenBytes);
  const names = pkg.partNames();
  // each part's content type, looked up once (the rules below read it up to three times)
  const types = names.map((n) => pkg.contentType(n));
  const isRels = names.map((n) => n.toLowerCase().endsWith('.rels'));
  r.indexTypes(names, types);

  checkNamesAndTypes(pkg, names, types, report);
  names.forEach((name, i) => {
    if (isRels[i]) checkRelsPart(r, name, report);
  });
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const ct = types[i] ?? '';
    if (isRels[i] || !isXmlType(ct)) continue;
    const done = options.checkedText?.get(name);
    if (done) {
      for (const p of done) report(p.part, p.check, p.message);
      continue;
    }
    const want = ROOTS.get(ct);
    if (ct !== CT.slide && ct !== CT.notesSlide) {
      // root and relationship attributes, read once per bytes object
      const bytes = r.bytes(name);
      let facts = bytes && xmlPartFactsByBytes.get(bytes);
      if (!facts) {
        const text = r.text(name);
        const root = text === undefined ? undefined : rootOf(text);
        facts = { root, references: root ? relationshipReferences(text!, root.prefixes) : [] };
        if (bytes) xmlPartFactsByBytes.set(bytes, facts);
      }
      if (!facts.root) {
        report(name, 'xml', 'the part has no root element');
        continue;
      }
      if (want && facts.root.local !== want) report(name, 'part', `the root element is ${facts.root.local}, not ${want} as its content type requires`);
      if (facts.references.length > 0) {
        const ids = new Set(r.rels(name).map((x) => x.id));
        for (const { name: attrName, value } of facts.references) if (!ids.has(value)) report(name, 'rid', `${attrName}="${value}" names no relationship in ${relsPartName(name)}`);
      }
      continue;
    }
    const text = r.text(name);
    const root = text === undefined ? undefined : rootOf(text);
    if (!text || !root) {
      report(name, 'xml', 'the part has no root element');
      continue;
    }
    if (want && root.local !== want) report(name, 'part', `the root element is ${root.local}, not ${want} as its content type requires`);
    checkRelationshipIds(r, name, text, root.prefixes, report);
    checkShapeTree(name, text, root.prefixes, report);
  }
  const main = mainPart(r, report);
  if (main) checkPresentation(r, main, report);
  checkLinks(r, report);
  return out;
}

/** Whether a content type is an XML one (`…+xml`, `application/xml`, `text/xml`). */
function isXmlType(ct: string): boolean {
  return ct.endsWith('+xml') || ct === 'application/xml' || ct === 'text/xml';
}

/** Part names (Part 2 §9.1.1.1) and content types (§10.1.2); `types[i]` is the content type of `names[i]`. */
function checkNamesAndTypes(pkg: OpcPackage, names: readonly string[], types: readonly (string | undefined)[], report: Report): void {
  const present = new Set(names.map((n) => n.toLowerCase()));
  names.forEach((name, i) => {
    const why = illegalPartName(name);
    if (why) report(name, 'part-name', `the part name is not legal: ${why}`);
    if (!types[i]) report(name, 'content-types', 'the part has no content type (no Override and no Default for its extension)');
  });
  for (const lower of pkg.contentTypeOverrides().keys()) {
    if (!present.has(lower)) report(lower, 'content-types-orphan', `[Content_Types].xml has an Override for ${lower}, which is not in the package`);
  }
}

/** Part names legal by §9.1.1.1 on sight: `/` then segments with no empty, dot-ending, percent-encoded or control-character one. */
/**
 * Whether a name is `/`-separated segments of ASCII letters, digits, `_` and `-` with inner
 * single dots (what the names of packages are): one pass over the characters, as
 * `/^(?:\/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)+$/` would match but without its backtracking.
 */
function isPlainPartName(name: string): boolean {
  const n = name.length;
  if (n < 2 || name.charCodeAt(0) !== 0x2f) return false;
  let prev = 0x2f;
  for (let i = 1; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2f || c === 0x2e) {
      // a slash or dot only after a name character: no empty segment, no leading, double or trailing dot
      if (prev === 0x2f || prev === 0x2e) return false;
    } else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d)) return false;
    prev = c;
  }
  return prev !== 0x2f && prev !== 0x2e;
}

/** Why a part name breaks §9.1.1.1, or undefined when it is legal. */
export function illegalPartName(name: string): string | undefined {
  // the names packages hold (segments of letters, digits, `_` and `-` with inner dots) are
  // legal by one test; any other name is read segment by segment
  if (isPlainPartName(name)) return undefined;
  if (!name.startsWith('/')) return 'it does not start with /';
  if (name.endsWith('/')) return 'it ends with /';
  for (const seg of name.slice(1).split('/')) {
    if (seg === '') return 'it has an empty segment';
    if (seg === '.' || seg === '..') return `it has a "${seg}" segment`;
    if (seg.endsWith('.')) return `the segment "${seg}" ends with a dot`;
    if (/%(2f|5c)/i.test(seg)) return `the segment "${seg}" holds a percent-encoded / or \\`;
    if (/[\\\u0000-\u001f]/.test(seg)) return `the segment "${seg}" holds a backslash or control character`;
  }
  return undefined;
}

/** One `.rels` part: it belongs to a part, ids unique, targets resolve, structural types target the right content type. */
function checkRelsPart(r: Reader, relsName: string, report: Report): void {
  const source = sourceOfRelsPart(relsName);
  if (source === undefined) {
    report(relsName, 'rels', 'a .rels part outside a _rels folder');
    return;
  }
  if (source !== '/' && !r.has(source)) report(relsName, 'rels', `the relationships part belongs to ${source}, which is not in the package`);
  const text = r.text(relsName);
  const read = text === undefined ? undefined : relationshipsText(text);
  if (!read || read.root !== 'Relationships') {
    report(relsName, 'rels', `the root element is ${read?.root ?? 'missing'}, not Relationships`);
    return;
  }
  for (const message of read.problems) report(relsName, 'rels', message);
  for (const rel of r.rels(source)) {
    if (rel.external) continue;
    if (rel.absoluteUri) {
      report(relsName, 'rels', `${rel.id} targets the absolute URI ${rel.target} without TargetMode="External"`);
      continue;
    }
    if (!r.has(rel.targetPart)) {
      report(relsName, 'rels', `${rel.id} (${shortType(rel.type)}) targets ${rel.targetPart ?? rel.target}, which is not in the package`);
      continue;
    }
    const want = REL_TARGET_TYPES.get(rel.type);
    const got = r.pkg.contentType(rel.targetPart);
    if (want && got !== want) report(relsName, 'rels', `${rel.id} is a ${shortType(rel.type)} relationship but targets ${rel.targetPart}, a ${got ?? 'part without content type'}`);
  }
}

function shortType(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1);
}

/** Every attribute in the relationships namespace names a relationship of the part (empty values allowed). */
function checkRelationshipIds(r: Reader, part: string, text: string, prefixes: Map<string, Set<string>>, report: Report): void {
  let ids: Set<string> | undefined;
  scanRelationshipIds(part, text, prefixes, () => (ids ??= new Set(r.rels(part).map((x) => x.id))), report);
}

/** The relationship attributes (qualified name, value; empty values left out) in a part's start tags. */
function relationshipReferences(text: string, prefixes: Map<string, Set<string>>): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  const rPrefixes = prefixes.get(NS.r);
  if (!rPrefixes) return out;
  const re = new RegExp(`\\s(${[...rPrefixes].map(escapeRe).join('|')}):([\\w.-]+)\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!insideStartTag(text, m.index)) {
      // text content: the words may hold what reads like an attribute; read on right after its start
      re.lastIndex = m.index + 1;
      continue;
    }
    const value = decodeEntities(m[3] ?? m[4] ?? '');
    if (value !== '') out.push({ name: `${m[1]}:${m[2]}`, value });
  }
  return out;
}

/** What the rules read from an XML part other than a slide or notes slide: its root, and its relationship attributes. */
interface XmlPartFacts {
  root: ReturnType<typeof rootOf>;
  references: ReadonlyArray<{ name: string; value: string }>;
}

/**
 * {@link XmlPartFacts} by the part's bytes: a deck's parts copied unchanged from a template
 * (layouts, themes) are the template's bytes objects, so each is read once, not per deck.
 */
const xmlPartFactsByBytes = new WeakMap<Uint8Array, XmlPartFacts>();

function scanRelationshipIds(part: string, text: string, prefixes: Map<string, Set<string>>, relIds: ReadonlySet<string> | (() => ReadonlySet<string>), report: Report): void {
  const rPrefixes = prefixes.get(NS.r);
  if (!rPrefixes) return;
  const re = new RegExp(`\\s(${[...rPrefixes].map(escapeRe).join('|')}):([\\w.-]+)\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!insideStartTag(text, m.index)) {
      // text content: the words may hold what reads like an attribute; read on right after its start
      re.lastIndex = m.index + 1;
      continue;
    }
    const value = decodeEntities(m[3] ?? m[4] ?? '');
    if (value === '') continue;
    const ids = typeof relIds === 'function' ? relIds() : relIds;
    if (!ids.has(value)) report(part, 'rid', `${m[1]}:${m[2]}="${value}" names no relationship in ${relsPartName(part)}`);
  }
}

/**
 * Shape ids (`p:cNvPr/@id`) unique within a slide or notes slide — the branches of an
 * `mc:AlternateContent` are alternatives (one is read), so they may repeat each other's
 * ids; an OLE object's fallback picture is not a shape of the tree — and every table row
 * with one cell per grid column (§21.1.3.13; merged cells are still present).
 */
function checkShapeTree(part: string, text: string, prefixes: Map<string, Set<string>>, report: Report): void {
  // most slides hold neither alternate content nor OLE objects: their ids are read with one
  // plain pattern, and the tags of tables only inside the tables
  if (!text.includes('AlternateContent') && !text.includes('oleObj')) {
    checkShapeIdsPlain(part, text, prefixes, report);
    checkTablesIn(part, text, prefixes, report);
    return;
  }
  // prefixes declared below the root (an mc:AlternateContent declaring its own) are not
  // seen by the scanner: the conventional prefix stands in when the root binds none
  const names = (ns: string, conventional: string): string[] => [...(prefixes.get(ns) ?? [conventional])];
  const pLike = new Set([...names(NS.p, 'p'), ...names(NS.p14, 'p14')]);
  const mc = new Set(names(NS.mc, 'mc'));
  const a = new Set(names(NS.a, 'a'));
  const tag = /<(\/?)(?:([\w.-]+):)?(AlternateContent|Choice|Fallback|oleObj|cNvPr|tbl|tr|tc|gridCol)\b([^>]*?)(\/?)>/g;
  let ids = new Set<string>();
  const acStack: Array<{ base: Set<string>; union: Set<string> }> = [];
  let oleDepth = 0;
  const tables: Array<{ cols: number; row: number; cells: number }> = [];
  for (const m of text.matchAll(tag)) {
    const closing = m[1] === '/';
    const prefix = m[2] ?? '';
    const local = m[3]!;
    const selfClosing = m[5] === '/';
    if (mc.has(prefix) && local === 'AlternateContent') {
      if (!closing) {
        if (!selfClosing) acStack.push({ base: ids, union: new Set() });
      } else {
        const frame = acStack.pop();
        if (frame) {
          ids = frame.base;
          for (const id of frame.union) ids.add(id);
        }
      }
    } else if (mc.has(prefix) && (local === 'Choice' || local === 'Fallback')) {
      const frame = acStack[acStack.length - 1];
      if (!frame || selfClosing) continue;
      if (!closing) ids = new Set(frame.base);
      else {
        for (const id of ids) if (!frame.base.has(id)) frame.union.add(id);
        ids = frame.base;
      }
    } else if (pLike.has(prefix) && local === 'oleObj') {
      if (!closing && !selfClosing) oleDepth++;
      else if (closing) oleDepth = Math.max(0, oleDepth - 1);
    } else if (pLike.has(prefix) && local === 'cNvPr') {
      if (closing || oleDepth > 0) continue;
      const at = attributes(m[4]!);
      checkShapeId(part, at.get('id') ?? '', at.get('name') ?? '', ids, report);
    } else if (a.has(prefix)) {
      const tbl = tables[tables.length - 1];
      if (local === 'tbl') {
        if (!closing && !selfClosing) tables.push({ cols: 0, row: 0, cells: 0 });
        else if (closing) {
          tables.pop();
          if (tbl && tbl.cols === 0) report(part, 'table', 'a table has no grid columns');
        }
      } else if (!tbl) continue;
      else if (local === 'gridCol' && !closing) tbl.cols++;
      else if (local === 'tr') {
        if (!closing) {
          tbl.row++;
          tbl.cells = 0;
        }
        if (closing || selfClosing) {
          if (tbl.cols > 0 && tbl.cells !== tbl.cols) report(part, 'table', `table row ${tbl.row} has ${tbl.cells} cells; the grid has ${tbl.cols} columns`);
        }
      } else if (local === 'tc' && !closing) tbl.cells++;
    }
  }
}

function checkShapeIdsPlain(part: string, text: string, prefixes: Map<string, Set<string>>, report: Report): void {
  const pLike = [...(prefixes.get(NS.p) ?? ['p']), ...(prefixes.get(NS.p14) ?? [])];
  const re = new RegExp(`<(?:${pLike.map(escapeRe).join('|')}):cNvPr\\b([^>]*)>`, 'g');
  const ids = new Set<string>();
  for (const m of text.matchAll(re)) {
    const at = attributes(m[1]!);
    checkShapeId(part, at.get('id') ?? '', at.get('name') ?? '', ids, report);
  }
}

/** Table grids (§21.1.3.13), scanning only the text of each `a:tbl`. */
function checkTablesIn(part: string, text: string, prefixes: Map<string, Set<string>>, report: Report): void {
  for (const a of prefixes.get(NS.a) ?? ['a']) {
    const open = `<${a}:tbl>`;
    const close = `</${a}:tbl>`;
    const tag = new RegExp(`<(\\/?)${escapeRe(a)}:(tr|tc|gridCol)\\b[^>]*?(\\/?)>`, 'g');
    for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + open.length)) {
      const end = text.indexOf(close, at);
      const body = text.slice(at, end === -1 ? text.length : end);
      let cols = 0;
      let row = 0;
      let cells = 0;
      for (const m of body.matchAll(tag)) {
        const closing = m[1] === '/';
        const local = m[2];
        if (local === 'gridCol') {
          if (!closing) cols++;
        } else if (local === 'tc') {
          if (!closing) cells++;
        } else {
          if (!closing) {
            row++;
            cells = 0;
          }
          if ((closing || m[3] === '/') && cols > 0 && cells !== cols) report(part, 'table', `table row ${row} has ${cells} cells; the grid has ${cols} columns`);
        }
      }
      if (cols === 0) report(part, 'table', 'a table has no grid columns');
    }
  }
}

/** The presentation main part, from the package relationships. */
function mainPart(r: Reader, report: Report): string | undefined {
  if (!r.pkg.hasPart('/_rels/.rels')) {
    report('/', 'main-part', 'the package has no /_rels/.rels');
    return undefined;
  }
  const docs = r.rels('/').filter((x) => x.type === RT.officeDocument && !x.external);
  if (docs.length !== 1) {
    report('/_rels/.rels', 'main-part', `the package has ${docs.length} officeDocument relationships; exactly one is required`);
    if (docs.length === 0) return undefined;
  }
  const main = docs[0]!.targetPart;
  if (!r.has(main)) return undefined;
  if (!PRESENTATION_MAIN_TYPES.has(r.pkg.contentType(main) ?? '')) {
    report(main, 'main-part', `the main part is a ${r.pkg.contentType(main) ?? 'part without content type'}, not a presentation`);
    return undefined;
  }
  return main;
}

/** Child elements of an element that may be missing. */
function kids(parent: Element | undefined, ns: string, local: string): Element[] {
  return parent ? children(parent, ns, local) : [];
}

/** `p:presentation`'s id lists (§19.2.1.33/.35/.36/.38) and the masters' layout id lists (§19.3.1.41). */
function checkPresentation(r: Reader, main: string, report: Report): void {
  let pres: Element | undefined;
  try {
    pres = r.pkg.getXml(main).documentElement ?? undefined;
  } catch (err) {
    report(main, 'xml', `the presentation part cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!pres) return;
  const rels = new Map(r.rels(main).map((x) => [x.id, x]));
  const listed = new Set<string>();
  const slideIds = new Set<number>();
  for (const el of kids(child(pres, NS.p, 'sldIdLst'), NS.p, 'sldId')) {
    const id = Number(attr(el, 'id'));
    if (!Number.isInteger(id) || id < SLIDE_ID_MIN || id > SLIDE_ID_MAX) report(main, 'pres-ids', `p:sldId id="${attr(el, 'id') ?? ''}" is outside ${SLIDE_ID_MIN}–${SLIDE_ID_MAX}`);
    else if (slideIds.has(id)) report(main, 'pres-ids', `p:sldId id="${id}" is used twice`);
    slideIds.add(id);
    const rel = rels.get(attrNS(el, NS.r, 'id') ?? '');
    if (!rel || rel.type !== RT.slide) {
      report(main, 'pres-ids', `p:sldId id="${attr(el, 'id') ?? ''}" names no slide relationship`);
      continue;
    }
    const target = (rel.targetPart ?? '').toLowerCase();
    if (listed.has(target)) report(main, 'pres-ids', `${rel.targetPart} is listed twice in p:sldIdLst`);
    listed.add(target);
  }
  for (const rel of rels.values()) {
    if (rel.type === RT.slide && rel.targetPart && !listed.has(rel.targetPart.toLowerCase())) report(main, 'pres-ids', `${rel.targetPart} is related from the presentation but not listed in p:sldIdLst`);
  }
  const masters = kids(child(pres, NS.p, 'sldMasterIdLst'), NS.p, 'sldMasterId');
  if (masters.length === 0) report(main, 'pres-ids', 'p:sldMasterIdLst is missing or empty');
  if (!child(pres, NS.p, 'notesSz')) report(main, 'pres-ids', 'p:notesSz is missing');
  // master and layout ids share one range and must be unique across the package
  const wideIds = new Map<number, string>();
  const wide = (raw: string | undefined, part: string, what: string): void => {
    if (raw === undefined) return;
    const id = Number(raw);
    if (!Number.isInteger(id) || id < MASTER_ID_MIN || id > MASTER_ID_MAX) {
      report(part, 'pres-ids', `${what} id="${raw}" is outside ${MASTER_ID_MIN}–${MASTER_ID_MAX}`);
      return;
    }
    const other = wideIds.get(id);
    if (other !== undefined) report(part, 'pres-ids', `${what} id="${id}" is also used in ${other}`);
    else wideIds.set(id, part);
  };
  for (const el of masters) {
    wide(attr(el, 'id'), main, 'p:sldMasterId');
    const rel = rels.get(attrNS(el, NS.r, 'id') ?? '');
    if (!rel || rel.type !== RT.slideMaster) report(main, 'pres-ids', `p:sldMasterId id="${attr(el, 'id') ?? ''}" names no slideMaster relationship`);
  }
  for (const master of r.partsOfType(CT.slideMaster)) {
    const mrels = new Map(r.rels(master).map((x) => [x.id, x]));
    for (const entry of layoutIdList(r, master)) {
      wide(entry.id, master, 'p:sldLayoutId');
      const rel = mrels.get(entry.rId);
      if (!rel || rel.type !== RT.slideLayout) report(master, 'pres-ids', `p:sldLayoutId id="${entry.id ?? ''}" names no slideLayout relationship`);
    }
  }
}

/** The `p:sldLayoutId` entries of a master (`id`, `r:id`), read from its text. */
function layoutIdList(r: Reader, master: string): Array<{ id: string | undefined; rId: string }> {
  const text = r.text(master);
  const root = text === undefined ? undefined : rootOf(text);
  if (!text || !root) return [];
  const rPrefixes = root.prefixes.get(NS.r) ?? new Set<string>();
  const out: Array<{ id: string | undefined; rId: string }> = [];
  for (const m of text.matchAll(/<(?:[\w.-]+:)?sldLayoutId\b([^>]*)>/g)) {
    const a = attributes(m[1]!);
    let rId = '';
    for (const p of rPrefixes) rId ||= a.get(`${p}:id`) ?? '';
    out.push({ id: a.get('id'), rId });
  }
  return out;
}

/** Master → theme, slide → layout → master (listed), notes ↔ slide. */
function checkLinks(r: Reader, report: Report): void {
  const of = (part: string, type: string): Rel[] => r.rels(part).filter((x) => x.type === type && !x.external);
  for (const master of r.partsOfType(CT.slideMaster)) {
    const n = of(master, RT.theme).length;
    if (n !== 1) report(master, 'master', `the slide master has ${n} theme relationships; exactly one is required`);
  }
  for (const slide of r.partsOfType(CT.slide)) {
    const n = of(slide, RT.slideLayout).length;
    if (n !== 1) report(slide, 'layout', `the slide has ${n} slideLayout relationships; exactly one is required`);
    const notes = of(slide, RT.notesSlide);
    if (notes.length > 1) report(slide, 'notes', `the slide has ${notes.length} notes slides; at most one is allowed`);
  }
  const listedByMaster = new Map<string, Set<string>>();
  for (const layout of r.partsOfType(CT.slideLayout)) {
    const masters = of(layout, RT.slideMaster);
    if (masters.length !== 1) {
      report(layout, 'layout', `the slide layout has ${masters.length} slideMaster relationships; exactly one is required`);
      continue;
    }
    const master = masters[0]!.targetPart;
    if (!r.has(master)) continue;
    let listed = listedByMaster.get(master);
    if (!listed) {
      const ids = new Set(layoutIdList(r, master).map((e) => e.rId));
      listed = new Set(r.rels(master).filter((x) => x.type === RT.slideLayout && ids.has(x.id)).map((x) => (x.targetPart ?? '').toLowerCase()));
      listedByMaster.set(master, listed);
    }
    if (!listed.has(layout.toLowerCase())) report(layout, 'layout', `the slide layout is not listed in p:sldLayoutIdLst of its master ${master}`);
  }
  const claimed = new Map<string, string>();
  for (const notes of r.partsOfType(CT.notesSlide)) {
    const slides = of(notes, RT.slide);
    if (slides.length !== 1) {
      report(notes, 'notes', `the notes slide has ${slides.length} slide relationships; exactly one is required`);
    } else {
      const slide = slides[0]!.targetPart ?? '';
      const back = r.has(slide) && r.rels(slide).some((x) => x.type === RT.notesSlide && x.targetPart?.toLowerCase() === notes.toLowerCase());
      if (!back) report(notes, 'notes', `the notes slide's slide ${slide} does not point back to it`);
      const other = claimed.get(slide.toLowerCase());
      if (other) report(notes, 'notes', `${other} and this notes slide both claim ${slide}`);
      claimed.set(slide.toLowerCase(), notes);
    }
    const nm = of(notes, RT.notesMaster).length;
    if (nm !== 1) report(notes, 'notes', `the notes slide has ${nm} notesMaster relationships; exactly one is required`);
  }
}
