/**
 * The Open Packaging Conventions layer (ECMA-376 Part 2): a zip container of parts, their
 * content types and relationships. It knows nothing about slides.
 *
 * A package is read whole at {@link OpcPackage.open}: every limit (entry count, entry
 * names, declared and actual uncompressed size, compression ratio) is checked while the
 * container is inflated, before any XML is parsed. Afterwards every access is synchronous;
 * XML parts are parsed on first use and cached.
 *
 * Every XML part of an opened package is read in Transitional form (ISO/IEC 29500-4): an
 * ISO/IEC 29500-1 Strict package's namespaces, relationship types and value forms are
 * rewritten the first time a part is read, by `../strict.ts` — the one place the engine
 * knows about Strict. Transitional parts are scanned once for the string value forms
 * (`"90%"`, `"1in"`) and left as they are, the same bytes, when they hold none.
 */
import { PackageError } from '../errors.js';
import { STRICT_MARK, normalizePartBytes } from '../strict.js';
import { NS, attr, children, decodeXmlBytes, parseXml, serializeXml, type Document, type XmlLimits, DEFAULT_XML_LIMITS } from '../xml.js';
import { extensionOf, PartNameAllocator, relsPartName, resolveTarget, sourceOfRelsPart } from './part-names.js';
import { appendRelationship, relationshipsXml, type RelationshipDraft } from './relationships.js';
import { expandEntry, inflateEntry, rememberDeflated, writeZip, ZIP_DEFLATE, ZIP_STORE, type CompressedEntry, type ZipInput } from './zip-codec.js';
import { readZipEntries, type ZipEntry } from './zip-reader.js';

/** Limits enforced while a package is opened. Sizes are bytes. */
export interface PackageLimits {
  /** Most zip entries accepted. */
  maxEntries: number;
  /** Most bytes all entries may inflate to, together. */
  maxTotalUncompressedBytes: number;
  /** Most bytes one entry may inflate to. */
  maxEntryUncompressedBytes: number;
  /** Highest uncompressed/compressed ratio accepted for an entry larger than 1 MiB. */
  maxCompressionRatio: number;
  /** Largest XML part parsed, bytes (a bigger part is refused before parsing). */
  maxXmlPartBytes: number;
  xml: XmlLimits;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = {
  maxEntries: 20_000,
  maxTotalUncompressedBytes: 512 * 1024 * 1024,
  maxEntryUncompressedBytes: 128 * 1024 * 1024,
  maxCompressionRatio: 200,
  maxXmlPartBytes: 16 * 1024 * 1024,
  xml: DEFAULT_XML_LIMITS,
};

/** One relationship of a source part (ECMA-376 Part 2, §9.3). */
export interface Relationship {
  id: string;
  type: string;
  /** The `Target` attribute as written. */
  target: string;
  external: boolean;
  /** Absolute part name of an internal target; undefined for external targets. */
  targetPartName: string | undefined;
}

const CONTENT_TYPES_PART = '/[Content_Types].xml';

/** Media type of the relationships parts (ECMA-376 Part 2, §9.3.2). */
export const RELS_CONTENT_TYPE = 'application/vnd.openxmlformats-package.relationships+xml';

/**
 * Conformance class of a package as written (ISO/IEC 29500-1 §2.1): `strict` when its
 * package relationships use the Strict relationship types. Either way its parts are read
 * in Transitional form.
 */
export type Conformance = 'strict' | 'transitional';

/** An OPC package held in memory: parts by absolute name, content types, relationships. */
export class OpcPackage {
  private readonly parts = new Map<string, Uint8Array>();
  /** Parts held compressed ({@link setCompressed}), by canonical name (their `parts` entry is empty). */
  private readonly held = new Map<string, CompressedEntry>();
  private readonly xmlCache = new Map<string, Document>();
  private readonly relsCache = new Map<string, Relationship[]>();
  private readonly defaults = new Map<string, string>();
  private readonly overrides = new Map<string, string>();
  /**
   * XML parts of the opened file not yet read, so not yet brought to Transitional form
   * ({@link normalized}); parts the engine writes are never in it.
   */
  private readonly unread = new Set<string>();
  private conformanceClass: Conformance = 'transitional';

  private constructor(readonly limits: PackageLimits) {}

  /**
   * The conformance class the package was written in: `strict` when `/_rels/.rels` uses
   * Strict relationship types (`http://purl.oclc.org/ooxml/…`). A package made by
   * {@link create} is `transitional`, and so is everything the engine reads or writes.
   */
  get conformance(): Conformance {
    return this.conformanceClass;
  }

  /** A package with no parts and the two Defaults every package uses (rels and xml). */
  static create(limits: PackageLimits = DEFAULT_PACKAGE_LIMITS): OpcPackage {
    const pkg = new OpcPackage(limits);
    pkg.defaults.set('rels', RELS_CONTENT_TYPE);
    pkg.defaults.set('xml', 'application/xml');
    return pkg;
  }

  /**
   * Opens a package from its bytes.
   *
   * @throws PackageError — `empty`, `encrypted` (an OLE compound file: a password-protected
   *   Office file or a legacy binary .ppt; or a zip with encrypted entries), `not_zip`,
   *   `zip_truncated`, `zip_unsupported`, `too_many_parts`, `bad_entry_name`,
   *   `duplicate_entry`, `zip_bomb` (sizes past the limits, or entries sharing bytes),
   *   `missing_part` (no `[Content_Types].xml`), `xml_*` for a hostile content-types part.
   */
  static async open(bytes: Uint8Array, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS): Promise<OpcPackage> {
    checkContainerSignature(bytes);
    // zip_truncated, too_many_parts (declared count, before any entry is read), encrypted, …
    const entries = readZipEntries(bytes, { maxEntries: limits.maxEntries }).filter((e) => !e.isDirectory);

    const pkg = new OpcPackage(limits);
    let declaredTotal = 0;
    const seen = new Set<string>();
    for (const entry of entries) {
      const raw = entry.name;
      checkEntryName(raw);
      const lower = raw.toLowerCase();
      if (seen.has(lower)) throw new PackageError('duplicate_entry', `the zip holds "${raw}" twice (part names are case-insensitive)`);
      seen.add(lower);
      if (entry.method !== ZIP_STORE && entry.method !== ZIP_DEFLATE) {
        throw new PackageError('zip_unsupported', `the zip uses an unsupported compression method (${entry.method} for ${JSON.stringify(raw.slice(0, 200))}; only STORE and DEFLATE are read)`);
      }
      declaredTotal += entry.uncompressedSize;
    }
    if (declaredTotal > limits.maxTotalUncompressedBytes) {
      throw new PackageError('zip_bomb', `the package declares ${declaredTotal} bytes uncompressed; at most ${limits.maxTotalUncompressedBytes} are accepted`);
    }

    const budget = { remaining: limits.maxTotalUncompressedBytes };
    for (const entry of entries) {
      const data = inflateBounded(entry, limits, budget);
      pkg.putPart(`/${entry.name}`, data);
    }

    const ctBytes = pkg.findPartBytes(CONTENT_TYPES_PART);
    if (!ctBytes) throw new PackageError('missing_part', 'the package has no [Content_Types].xml; it is not an Office Open XML file');
    pkg.dropPart(pkg.canonicalName(CONTENT_TYPES_PART)!);
    pkg.readContentTypes(parseXml(decodeXmlBytes(ctBytes), CONTENT_TYPES_PART, limits.xml));
    pkg.noteUnreadXmlParts();
    return pkg;
  }

  /**
   * Records the XML parts to bring to Transitional form when first read. Relationships
   * parts hold nothing but relationship types to convert, so they are listed only in a
   * Strict package (a Transitional package's relationships parts, however many and large,
   * are never scanned).
   */
  private noteUnreadXmlParts(): void {
    const rootRels = this.canonicalName('/_rels/.rels');
    if (rootRels !== undefined) {
      const b = this.parts.get(rootRels)!;
      if (Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(STRICT_MARK_BYTES)) this.conformanceClass = 'strict';
    }
    const strict = this.conformanceClass === 'strict';
    for (const name of this.parts.keys()) {
      const ext = extensionOf(name);
      if (ext === 'rels') {
        if (strict) this.unread.add(name);
        continue;
      }
      const type = this.contentType(name);
      if (type === undefined ? ext === 'xml' : type.endsWith('+xml') || type === 'application/xml' || type === 'text/xml') this.unread.add(name);
    }
  }

  /**
   * The stored bytes of a part, brought to Transitional form on the first read of an XML
   * part of the opened file (see `../strict.ts`); the same bytes when there is nothing to
   * change.
   */
  private normalized(canonical: string): Uint8Array {
    const bytes = this.parts.get(canonical)!;
    if (!this.unread.delete(canonical)) return bytes;
    const out = normalizePartBytes(bytes);
    if (out !== bytes) this.parts.set(canonical, out);
    return out;
  }

  /** Absolute names of every part, relationship parts included, content types excluded. */
  partNames(): string[] {
    return [...this.parts.keys()];
  }

  hasPart(partName: string): boolean {
    return this.canonicalName(partName) !== undefined;
  }

  /** Total uncompressed size of all parts in bytes. */
  totalBytes(): number {
    let n = 0;
    for (const b of this.parts.values()) n += b.length;
    for (const c of this.held.values()) n += c.size;
    return n;
  }

  /** Content type of a part: its Override, else the Default of its extension (Part 2, §10.1.2.4). */
  contentType(partName: string): string | undefined {
    const canonical = this.canonicalName(partName) ?? partName;
    return this.overrides.get(canonical.toLowerCase()) ?? this.defaults.get(extensionOf(canonical));
  }

  /** Names of the parts whose content type is `contentType`, in package order. */
  partsOfType(contentType: string): string[] {
    return this.partNames().filter((n) => this.contentType(n) === contentType);
  }

  /**
   * Bytes of a part; for XML parts already parsed and changed, the serialized current tree.
   * XML parts of an opened file come in Transitional form (a Strict part rewritten, see
   * the class comment), otherwise as stored.
   * @throws PackageError `missing_part`
   */
  getBytes(partName: string): Uint8Array {
    const canonical = this.canonicalName(partName);
    if (canonical === undefined) throw new PackageError('missing_part', `the package has no part ${partName}`);
    if (this.held.has(canonical)) return this.storedBytes(canonical);
    const bytes = this.normalized(canonical);
    const doc = this.xmlCache.get(canonical);
    if (doc && (bytes === EMPTY || this.dirty.has(canonical))) return new TextEncoder().encode(serializeXml(doc));
    return bytes;
  }

  /**
   * The parsed XML of a part, cached: changes made to the returned document are kept and
   * written by {@link toBytes}.
   * @throws PackageError `missing_part`, `too_large` (over `maxXmlPartBytes`), `xml_dtd`, `xml_too_deep`, `xml_malformed`
   */
  getXml(partName: string): Document {
    const canonical = this.canonicalName(partName);
    if (canonical === undefined) throw new PackageError('missing_part', `the package has no part ${partName}`);
    let doc = this.xmlCache.get(canonical);
    if (!doc) {
      const held = this.held.get(canonical);
      const size = held ? held.size : this.parts.get(canonical)!.length;
      if (size > this.limits.maxXmlPartBytes) {
        throw new PackageError('too_large', `${canonical} is ${size} bytes of XML; parts over ${this.limits.maxXmlPartBytes} bytes are refused`);
      }
      doc = parseXml(decodeXmlBytes(this.storedBytes(canonical), canonical), canonical, this.limits.xml);
      this.xmlCache.set(canonical, doc);
    }
    return doc;
  }

  /** Adds or replaces a part holding `doc`; sets an Override when its extension's Default differs. */
  setXml(partName: string, doc: Document, contentType?: string): void {
    const canonical = this.canonicalName(partName) ?? partName;
    this.putPart(canonical, EMPTY);
    this.xmlCache.set(canonical, doc);
    this.dirty.delete(canonical);
    if (contentType) this.setContentType(canonical, contentType);
  }

  /** Adds or replaces a binary part (a picture, an embedded workbook). */
  setBytes(partName: string, bytes: Uint8Array, contentType?: string): void {
    const canonical = this.canonicalName(partName) ?? partName;
    this.putPart(canonical, bytes);
    this.xmlCache.delete(canonical);
    this.relsCache.delete(sourceOfRelsPart(canonical) ?? '');
    if (contentType) this.setContentType(canonical, contentType);
  }

  /**
   * Adds or replaces a part given in the form it is written in (`compressEntry` of
   * `zip-codec`): the package holds it compressed, writes it as it is, and inflates it
   * only if it is read. For parts made in large numbers and not read again (a deck's
   * slides), so that their uncompressed bytes do not all wait in memory for
   * {@link toBytes}; its `level` does not apply to them.
   */
  setCompressed(partName: string, entry: CompressedEntry, contentType?: string): void {
    this.setBytes(partName, EMPTY, contentType);
    this.held.set(this.canonicalName(partName)!, entry);
  }

  /** Removes a part with its relationships part and Override. */
  removePart(partName: string): void {
    const canonical = this.canonicalName(partName);
    if (canonical === undefined) return;
    this.dropPart(canonical);
    this.xmlCache.delete(canonical);
    this.overrides.delete(canonical.toLowerCase());
    const rels = this.canonicalName(relsPartName(canonical));
    if (rels) {
      this.dropPart(rels);
      this.xmlCache.delete(rels);
    }
    this.relsCache.delete(canonical);
  }

  /** Records `contentType` for a part: as a Default when its extension maps to it, else an Override. */
  setContentType(partName: string, contentType: string): void {
    const ext = extensionOf(partName);
    if (this.defaults.get(ext) === contentType) {
      this.overrides.delete(partName.toLowerCase());
      return;
    }
    if (!this.defaults.has(ext) && ext !== 'xml' && !contentType.endsWith('+xml')) {
      this.defaults.set(ext, contentType);
      return;
    }
    this.overrides.set(partName.toLowerCase(), contentType);
  }

  /**
   * The `Override` entries of `[Content_Types].xml` as read or set: lower-cased part name
   * → content type (entries naming parts the package lacks included, for checkers).
   */
  contentTypeOverrides(): ReadonlyMap<string, string> {
    return this.overrides;
  }

  /** The Default content type registered for an extension. */
  defaultContentType(ext: string): string | undefined {
    return this.defaults.get(ext.toLowerCase());
  }

  /**
   * Relationships of a part (`/` for the package relationships), in document order.
   * A missing relationships part yields an empty list.
   */
  rels(sourcePartName: string): Relationship[] {
    const cached = this.relsCache.get(sourcePartName);
    if (cached) return cached;
    const relsName = relsPartName(sourcePartName);
    const out: Relationship[] = [];
    if (this.hasPart(relsName)) {
      const doc = this.getXml(relsName);
      for (const el of children(doc.documentElement!, NS.pkgRels, 'Relationship')) {
        const id = attr(el, 'Id');
        const type = attr(el, 'Type');
        const target = attr(el, 'Target');
        if (!id || !type || target === undefined) continue;
        const external = attr(el, 'TargetMode') === 'External';
        out.push({ id, type, target, external, targetPartName: external ? undefined : resolveTarget(sourcePartName, target) });
      }
    }
    this.relsCache.set(sourcePartName, out);
    return out;
  }

  /** The relationship `rId` of a part, or undefined. */
  rel(sourcePartName: string, rId: string): Relationship | undefined {
    return this.rels(sourcePartName).find((r) => r.id === rId);
  }

  /** Target part of the first relationship of `type` from a part, or undefined. */
  relatedPartName(sourcePartName: string, type: string): string | undefined {
    const r = this.rels(sourcePartName).find((x) => x.type === type && !x.external);
    return r?.targetPartName;
  }

  /**
   * Replaces the relationships of a part. Ids are kept as given, so references in the
   * source part's XML stay valid.
   */
  setRels(sourcePartName: string, rels: readonly RelationshipDraft[]): void {
    // written as text (Part 2, §9.3.2.1 `Relationships`): no tree is built for it
    const { xml, targets } = relationshipsXml(sourcePartName, rels);
    // parts with the same relationships (slides made from one template slide) share one
    // byte array, which the zip writer compresses once
    let bytes = this.relsBytes.get(xml);
    if (!bytes) {
      bytes = new TextEncoder().encode(xml);
      this.relsBytes.set(xml, bytes);
    }
    const relsName = relsPartName(sourcePartName);
    const canonical = this.canonicalName(relsName) ?? relsName;
    this.putPart(canonical, bytes);
    this.xmlCache.delete(canonical);
    this.dirty.delete(canonical);
    this.relsCache.set(
      sourcePartName,
      rels.map((r, i) => ({ id: r.id, type: r.type, external: r.external, target: targets[i]!, targetPartName: r.external ? undefined : r.targetPartName })),
    );
  }

  /** Relationships parts written by {@link setRels}, by their XML. */
  private readonly relsBytes = new Map<string, Uint8Array>();

  /** Adds one relationship to a part and returns its new id ({@link appendRelationship}). */
  addRel(sourcePartName: string, type: string, targetPartName: string): string {
    const rels: RelationshipDraft[] = [...this.rels(sourcePartName)];
    const id = appendRelationship(rels, type, targetPartName);
    this.setRels(sourcePartName, rels);
    return id;
  }

  /**
   * A part name not yet used, like `example` (its own name when free unless `numbered`,
   * else the same folder, stem and extension with the next free number,
   * {@link PartNameAllocator}).
   */
  newPartName(example: string, numbered = true): string {
    return this.names.allocate(example, numbered);
  }

  /** The package's part names: the parts it holds and the names handed out for parts still to be written. */
  readonly names = new PartNameAllocator((name) => this.canonicalName(name) !== undefined);

  /**
   * Writes the package: `[Content_Types].xml` first, then every part (XML from its current
   * tree; parts of an opened file in Transitional form). Parts are DEFLATE-compressed
   * except already-compressed media.
   *
   * @param level - DEFLATE level 1–9
   * @param onSerialized - told the bytes written for each XML part serialized from its tree
   *   (what {@link getBytes} would give for it until the tree changes)
   */
  async toBytes(level = 6, onSerialized?: (partName: string, bytes: Uint8Array) => void): Promise<Uint8Array> {
    // an opened Strict file is written in Transitional form too
    for (const name of [...this.unread]) this.normalized(name);
    const encoder = new TextEncoder();
    const entries: ZipInput[] = [{ name: '[Content_Types].xml', bytes: encoder.encode(this.contentTypesXml()) }];
    for (const [name, bytes] of this.parts) {
      // No folder entries: they are not parts (ECMA-376 Part 2, §10.2.1).
      const held = this.held.get(name);
      if (held) {
        entries.push({ name: name.slice(1), bytes, compressed: held });
        continue;
      }
      const doc = this.xmlCache.get(name);
      let data = bytes;
      if (doc && (bytes === EMPTY || this.dirty.has(name))) {
        data = encoder.encode(serializeXml(doc));
        onSerialized?.(name, data);
      }
      entries.push({ name: name.slice(1), bytes: data, store: STORED_EXTENSIONS.has(extensionOf(name)) });
    }
    return writeZip(entries, level);
  }

  private readonly dirty = new Set<string>();

  /** Marks a parsed XML part as changed so {@link toBytes} serializes its tree. */
  markDirty(partName: string): void {
    const canonical = this.canonicalName(partName);
    if (canonical !== undefined) this.dirty.add(canonical);
  }

  private contentTypesXml(): string {
    const lines = [`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="${NS.contentTypes}">`];
    for (const [ext, type] of this.defaults) lines.push(`<Default Extension="${escapeAttr(ext)}" ContentType="${escapeAttr(type)}"/>`);
    const present = new Map([...this.parts.keys()].map((n) => [n.toLowerCase(), n]));
    for (const [lower, type] of this.overrides) {
      const name = present.get(lower);
      if (name !== undefined) lines.push(`<Override PartName="${escapeAttr(name)}" ContentType="${escapeAttr(type)}"/>`);
    }
    lines.push('</Types>');
    return lines.join('');
  }

  private readContentTypes(doc: Document): void {
    const root = doc.documentElement!;
    if (root.localName !== 'Types') throw new PackageError('bad_structure', '[Content_Types].xml has no Types root element');
    for (const el of children(root)) {
      const type = attr(el, 'ContentType');
      if (!type) continue;
      if (el.localName === 'Default') {
        const ext = attr(el, 'Extension');
        if (ext) this.defaults.set(ext.toLowerCase(), type);
      } else if (el.localName === 'Override') {
        const name = attr(el, 'PartName');
        if (name) this.overrides.set(name.toLowerCase(), type);
      }
    }
  }

  private findPartBytes(partName: string): Uint8Array | undefined {
    const canonical = this.canonicalName(partName);
    return canonical === undefined ? undefined : this.storedBytes(canonical);
  }

  /** The bytes a part was stored with (inflated when it is held compressed), whatever its parsed tree holds. */
  private storedBytes(canonical: string): Uint8Array {
    const held = this.held.get(canonical);
    return held ? expandEntry(canonical, held) : this.normalized(canonical);
  }

  /** Lower-cased part name → stored spelling, kept in step with `parts`. */
  private readonly lowerIndex = new Map<string, string>();

  private putPart(name: string, bytes: Uint8Array): void {
    this.held.delete(name);
    this.unread.delete(name);
    this.parts.set(name, bytes);
    this.lowerIndex.set(name.toLowerCase(), name);
  }

  private dropPart(name: string): void {
    this.held.delete(name);
    this.unread.delete(name);
    this.parts.delete(name);
    if (this.lowerIndex.get(name.toLowerCase()) === name) this.lowerIndex.delete(name.toLowerCase());
  }

  /** The stored spelling of a part name, matched case-insensitively (Part 2, §9.1.1.2). */
  private canonicalName(partName: string): string | undefined {
    if (this.parts.has(partName)) return partName;
    return this.lowerIndex.get(partName.toLowerCase());
  }
}

const EMPTY = new Uint8Array(0);
const STRICT_MARK_BYTES = Buffer.from(STRICT_MARK);
const STORED_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'mp4', 'm4v', 'mp3', 'wmv', 'zip']);

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function checkContainerSignature(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new PackageError('empty', 'the file is empty');
  if (bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0 && bytes[4] === 0xa1 && bytes[5] === 0xb1 && bytes[6] === 0x1a && bytes[7] === 0xe1) {
    throw new PackageError('encrypted', 'the file is encrypted: password-protected files are not supported (it is an OLE compound document, as PowerPoint writes an encrypted .pptx or a legacy .ppt); save it without a password as .pptx');
  }
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new PackageError('not_zip', 'the file is not a zip package, so it cannot be a .pptx or .potx');
  }
}

function checkEntryName(name: string): void {
  const bad =
    name.length === 0 ||
    name.length > 1024 ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    /^[a-zA-Z]:/.test(name) ||
    name.split('/').some((seg) => seg === '..' || seg === '.');
  if (bad) throw new PackageError('bad_entry_name', `the zip holds an entry with an unsafe name: ${JSON.stringify(name.slice(0, 200))}`);
}

/**
 * Inflates one entry, stopping as soon as it passes the per-entry, total or ratio limit
 * (zlib's output cap: nothing past the limit is allocated), or the size its central
 * directory record declares: the declared sizes were summed and checked against the total
 * limit before anything was inflated, so an entry that inflates past its own declared size
 * (a lying header, the one way past that check) is refused at its first surplus byte
 * instead of after the whole budget. An entry that declares 0 bytes uncompressed is an
 * empty part, whatever data it holds.
 *
 * @throws PackageError `zip_bomb` past a limit or past the declared size
 */
function inflateBounded(entry: ZipEntry, limits: PackageLimits, budget: { remaining: number }): Uint8Array {
  if (entry.uncompressedSize === 0) return new Uint8Array(0);
  const packed = Math.max(1, entry.compressedSize);
  const limit = Math.min(limits.maxEntryUncompressedBytes, budget.remaining, Math.max(1024 * 1024, packed * limits.maxCompressionRatio));
  const cap = Math.min(limit, entry.uncompressedSize);
  let data: Uint8Array;
  try {
    data = inflateEntry(entry.name, entry.method, entry.data, cap);
  } catch (err) {
    if (err instanceof PackageError && err.code === 'zip_bomb' && cap < limit) {
      throw new PackageError('zip_bomb', `zip entry ${entry.name} inflates past the ${entry.uncompressedSize} bytes its header declares (compressed ${entry.compressedSize}); refused as a zip bomb`, { cause: err });
    }
    throw err;
  }
  budget.remaining -= data.length;
  if (entry.method === ZIP_DEFLATE) rememberDeflated(data, entry.data);
  return data;
}
