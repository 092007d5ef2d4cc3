/**
 * A zip writer for hostile test samples: every header field can be set by hand, including
 * to values that lie (PKWARE APPNOTE 6.3.x: local file header §4.3.7, central directory
 * header §4.3.12, ZIP64 end record §4.3.14 and locator §4.3.15, end record §4.3.16, ZIP64
 * extra field §4.5.3).
 *
 * Unlike the project's own writer (`core/src/ooxml/opc/zip-codec.ts`), nothing here is
 * checked or derived behind the caller's back: a spec says what each header declares and
 * the bytes are written as said. {@link deflatedEntry} and {@link storedEntry} make
 * honest entries; samples change the fields they want to lie about. Output is
 * deterministic (fixed timestamp, no randomness).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** Compression methods (APPNOTE §4.4.5). */
export const STORE = 0;
export const DEFLATE = 8;

/** General-purpose flag bits (APPNOTE §4.4.4). */
export const FLAG_ENCRYPTED = 1 << 0;
export const FLAG_DATA_DESCRIPTOR = 1 << 3;
export const FLAG_UTF8 = 1 << 11;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;
const SIG_DATA_DESCRIPTOR = 0x08074b50;

/** 2020-01-01 00:00:00 as MS-DOS date and time (APPNOTE §4.4.6). */
const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

/** Sentinels a ZIP64 archive writes in the 16- and 32-bit fields it moves to the ZIP64 records. */
export const U16_MAX = 0xffff;
export const U32_MAX = 0xffffffff;

/** One entry as its headers declare it. Sizes are bytes. */
export interface ZipEntrySpec {
  /** Name as text (written as UTF-8) or as raw bytes (written as they are). */
  name: string | Uint8Array;
  /** The entry's data exactly as stored (a raw DEFLATE stream for method 8). */
  data: Uint8Array;
  method: number;
  /** CRC-32 the headers declare. */
  crc32: number;
  /** Compressed size the headers declare. */
  compressedSize: number;
  /** Uncompressed size the headers declare. */
  uncompressedSize: number;
  /** General-purpose flags of both headers; default UTF-8 (bit 11) when the name is text with non-ASCII characters, else 0. */
  flags?: number;
  /** "Version made by" of the central header; default Unix host, 2.0. */
  madeBy?: number;
  /** "Version needed to extract"; default 2.0 (4.5 would announce ZIP64). */
  versionNeeded?: number;
  /** External attributes of the central header; default a regular file, rw-r--r--. */
  externalAttributes?: number;
  /** Extra field of the local header. */
  localExtra?: Uint8Array;
  /** Extra field of the central header. */
  centralExtra?: Uint8Array;
  /** Where the local header disagrees with the central directory: these fields replace the central values in it. */
  local?: { name?: string | Uint8Array; crc32?: number; compressedSize?: number; uncompressedSize?: number; flags?: number; method?: number };
  /** Bytes written right after the data (a data descriptor, see {@link dataDescriptor}). */
  trailer?: Uint8Array;
  /**
   * Write no local header or data of this entry; its central record points at the local
   * header of the entry with this index instead (entries sharing one header and data).
   */
  sharesLocalOf?: number;
  /** The local-header offset the central record declares, replacing the real one. */
  localOffset?: number;
}

/** The end of the archive: what the end records declare, when it is not the truth. */
export interface ZipEndSpec {
  /** Entry count of the end record (both fields). */
  entries?: number;
  /** Central directory size of the end record, bytes. */
  centralSize?: number;
  /** Central directory offset of the end record, bytes. */
  centralOffset?: number;
  /** Disk number fields of the end record. */
  disk?: number;
  /** Archive comment. */
  comment?: Uint8Array;
}

/** ZIP64 end records (APPNOTE §4.3.14, §4.3.15). Fields left out carry the truth. */
export interface Zip64EndSpec {
  entries?: number | bigint;
  centralSize?: number | bigint;
  centralOffset?: number | bigint;
  /** Offset of the ZIP64 end record the locator declares. */
  recordOffset?: number | bigint;
  /** Total number of disks the locator declares (1 for a single file). */
  totalDisks?: number;
  /** Disk holding the ZIP64 end record, as the locator declares it. */
  recordDisk?: number;
  /** Write the 16/32-bit fields of the classic end record as ZIP64 sentinels (default true). */
  saturate?: boolean;
}

/** A whole archive. */
export interface ZipSpec {
  entries: readonly ZipEntrySpec[];
  /** Bytes before the first local header (a self-extractor stub, a polyglot's other file). */
  prefix?: Uint8Array;
  end?: ZipEndSpec;
  /** Write ZIP64 end records before the classic end record. */
  zip64?: Zip64EndSpec;
  /** Leave out the central directory and the end records altogether. */
  noCentralDirectory?: boolean;
}

const encoder = new TextEncoder();

function nameBytes(name: string | Uint8Array): Uint8Array {
  return typeof name === 'string' ? encoder.encode(name) : name;
}

function defaultFlags(name: string | Uint8Array): number {
  return typeof name === 'string' && /[^\x20-\x7e]/.test(name) ? FLAG_UTF8 : 0;
}

/** Appends little-endian fields and byte arrays into one growing buffer. */
class ByteSink {
  private readonly chunks: Uint8Array[] = [];
  length = 0;

  bytes(b: Uint8Array): this {
    this.chunks.push(b);
    this.length += b.length;
    return this;
  }

  u16(v: number): this {
    const b = new Uint8Array(2);
    new DataView(b.buffer).setUint16(0, v & 0xffff, true);
    return this.bytes(b);
  }

  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, true);
    return this.bytes(b);
  }

  u64(v: number | bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
    return this.bytes(b);
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

/**
 * Writes an archive exactly as `spec` declares it.
 *
 * @returns the zip file's bytes
 * @throws RangeError when `sharesLocalOf` names an entry that is not written before this one
 */
export function buildZip(spec: ZipSpec): Uint8Array {
  const out = new ByteSink();
  if (spec.prefix) out.bytes(spec.prefix);
  const offsets: number[] = [];
  spec.entries.forEach((e, i) => {
    if (e.sharesLocalOf !== undefined) {
      const shared = offsets[e.sharesLocalOf];
      if (shared === undefined || e.sharesLocalOf >= i) throw new RangeError(`entry ${i} shares the local header of entry ${e.sharesLocalOf}, which is not written before it`);
      offsets.push(shared);
      return;
    }
    offsets.push(out.length);
    const l = e.local ?? {};
    const name = nameBytes(l.name ?? e.name);
    const extra = e.localExtra ?? new Uint8Array(0);
    out
      .u32(SIG_LOCAL)
      .u16(e.versionNeeded ?? 20)
      .u16(l.flags ?? e.flags ?? defaultFlags(e.name))
      .u16(l.method ?? e.method)
      .u16(DOS_TIME)
      .u16(DOS_DATE)
      .u32(l.crc32 ?? e.crc32)
      .u32(l.compressedSize ?? e.compressedSize)
      .u32(l.uncompressedSize ?? e.uncompressedSize)
      .u16(name.length)
      .u16(extra.length)
      .bytes(name)
      .bytes(extra)
      .bytes(e.data);
    if (e.trailer) out.bytes(e.trailer);
  });
  if (spec.noCentralDirectory) return out.toBytes();

  const centralOffset = out.length;
  spec.entries.forEach((e, i) => {
    const name = nameBytes(e.name);
    const extra = e.centralExtra ?? new Uint8Array(0);
    out
      .u32(SIG_CENTRAL)
      .u16(e.madeBy ?? (3 << 8) | 20)
      .u16(e.versionNeeded ?? 20)
      .u16(e.flags ?? defaultFlags(e.name))
      .u16(e.method)
      .u16(DOS_TIME)
      .u16(DOS_DATE)
      .u32(e.crc32)
      .u32(e.compressedSize)
      .u32(e.uncompressedSize)
      .u16(name.length)
      .u16(extra.length)
      .u16(0) // comment length
      .u16(0) // disk number start
      .u16(0) // internal attributes
      .u32(e.externalAttributes ?? (0o100644 << 16) >>> 0)
      .u32(e.localOffset ?? offsets[i]!)
      .bytes(name)
      .bytes(extra);
  });
  const centralSize = out.length - centralOffset;
  const count = spec.entries.length;
  const end = spec.end ?? {};

  if (spec.zip64) {
    const z = spec.zip64;
    const recordOffset = out.length;
    out
      .u32(SIG_EOCD64)
      .u64(44) // size of the rest of this record
      .u16((3 << 8) | 45)
      .u16(45)
      .u32(0) // this disk
      .u32(0) // disk of the central directory
      .u64(z.entries ?? count)
      .u64(z.entries ?? count)
      .u64(z.centralSize ?? centralSize)
      .u64(z.centralOffset ?? centralOffset);
    out
      .u32(SIG_EOCD64_LOCATOR)
      .u32(z.recordDisk ?? 0)
      .u64(z.recordOffset ?? recordOffset)
      .u32(z.totalDisks ?? 1);
  }
  const saturate = spec.zip64 !== undefined && spec.zip64.saturate !== false;
  const comment = end.comment ?? new Uint8Array(0);
  out
    .u32(SIG_EOCD)
    .u16(end.disk ?? 0)
    .u16(end.disk ?? 0)
    .u16(end.entries ?? (saturate ? U16_MAX : count))
    .u16(end.entries ?? (saturate ? U16_MAX : count))
    .u32(end.centralSize ?? (saturate ? U32_MAX : centralSize))
    .u32(end.centralOffset ?? (saturate ? U32_MAX : centralOffset))
    .u16(comment.length)
    .bytes(comment);
  return out.toBytes();
}

/** Raw DEFLATE (no zlib header) of `data` at `level` 0–9. */
export function rawDeflate(data: Uint8Array, level = 9): Uint8Array {
  const d = deflateRawSync(data, { level });
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/** Unsigned CRC-32 of `data`, continuing from `previous`. */
export function crcOf(data: Uint8Array, previous = 0): number {
  return crc32(data, previous) >>> 0;
}

/** An honest DEFLATE entry: the headers declare the data's real CRC and sizes. */
export function deflatedEntry(name: string | Uint8Array, content: Uint8Array | string, level = 9): ZipEntrySpec {
  const bytes = typeof content === 'string' ? encoder.encode(content) : content;
  const data = rawDeflate(bytes, level);
  return { name, data, method: DEFLATE, crc32: crcOf(bytes), compressedSize: data.length, uncompressedSize: bytes.length };
}

/** An honest STORE entry. */
export function storedEntry(name: string | Uint8Array, content: Uint8Array | string): ZipEntrySpec {
  const bytes = typeof content === 'string' ? encoder.encode(content) : content;
  return { name, data: bytes, method: STORE, crc32: crcOf(bytes), compressedSize: bytes.length, uncompressedSize: bytes.length };
}

/** A valid zip of `parts` in order, every part deflated honestly. */
export function zipOf(parts: Iterable<readonly [string, Uint8Array | string]>): Uint8Array {
  return buildZip({ entries: [...parts].map(([name, content]) => deflatedEntry(name, content)) });
}

/** A data descriptor with its optional signature (APPNOTE §4.3.9), for `trailer` with {@link FLAG_DATA_DESCRIPTOR}. */
export function dataDescriptor(crc: number, compressedSize: number, uncompressedSize: number): Uint8Array {
  return new ByteSink().u32(SIG_DATA_DESCRIPTOR).u32(crc).u32(compressedSize).u32(uncompressedSize).toBytes();
}

/**
 * A ZIP64 extended information extra field (APPNOTE §4.5.3): the given 64-bit values in the
 * order the format fixes (uncompressed size, compressed size, local header offset), only
 * those whose 32-bit field is saturated.
 */
export function zip64Extra(values: ReadonlyArray<number | bigint>): Uint8Array {
  const s = new ByteSink().u16(0x0001).u16(values.length * 8);
  for (const v of values) s.u64(v);
  return s.toBytes();
}

/** A DEFLATE stream and what its entry must declare. */
export interface DeflateStream {
  data: Uint8Array;
  crc32: number;
  /** Bytes it inflates to. */
  size: number;
}

/**
 * A raw DEFLATE stream of `head`, then `filler` `repeats` times, then `tail`, without ever
 * holding the inflated whole: each piece is compressed on its own and flushed to a byte
 * boundary (a full flush ends with an empty stored block and no final bit), so the pieces
 * concatenate into one valid stream; the compressed filler is repeated as bytes. The CRC
 * is carried along piece by piece.
 */
export function repeatedDeflate(head: Uint8Array, filler: Uint8Array, repeats: number, tail: Uint8Array): DeflateStream {
  const flushed = (b: Uint8Array): Uint8Array => {
    const d = deflateRawSync(b, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
    return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  };
  const h = flushed(head);
  const m = flushed(filler);
  const t = rawDeflate(tail, 9);
  const data = new Uint8Array(h.length + m.length * repeats + t.length);
  data.set(h, 0);
  for (let i = 0; i < repeats; i++) data.set(m, h.length + i * m.length);
  data.set(t, h.length + m.length * repeats);
  let crc = crcOf(head);
  for (let i = 0; i < repeats; i++) crc = crcOf(filler, crc);
  crc = crcOf(tail, crc);
  return { data, crc32: crc, size: head.length + filler.length * repeats + tail.length };
}
