/**
 * The zip codec under {@link OpcPackage}: entries are inflated and deflated by Node's
 * native zlib (ECMA-376 Part 2, Annex C: the package is a ZIP file, PKWARE APPNOTE 6.2
 * subset — methods 0 STORE and 8 DEFLATE, no encryption, no ZIP64 needed below 4 GiB).
 *
 * `zip-reader.ts` reads the central directory; this module does the byte work around it:
 *
 * - {@link inflateEntry} inflates one entry with a hard cap on its output, so a zip bomb
 *   stops at the cap instead of allocating what it claims.
 * - Every inflated part remembers the compressed bytes it came from
 *   ({@link rememberDeflated}); {@link writeZip} copies those bytes unchanged when the
 *   same part bytes are written again (a layout, a theme or a picture carried from a
 *   template into a generated deck), so unchanged parts are never re-compressed; within
 *   one zip, a byte array written as several entries (relationships parts of equal
 *   content sharing one array) is compressed once.
 * - {@link writeZip} writes local headers, data and the central directory itself, with a
 *   fixed timestamp (1980-01-01) so the same parts always give the same bytes.
 *
 * Compression runs on the calling thread. Node's asynchronous zlib was tried for slides
 * (compressed on libuv's pool while the next ones were built): per call its stream set-up
 * and callbacks cost the calling thread about what deflating a 16–30 KB slide does, and
 * the process ~25 % more CPU per deck in all.
 */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { PackageError } from '../errors.js';

/** Compression methods of APPNOTE §4.4.5 that packages use. */
export const ZIP_STORE = 0;
export const ZIP_DEFLATE = 8;

/** An entry's data as stored in a zip file. */
export interface CompressedEntry {
  /** 0 STORE or 8 DEFLATE. */
  method: number;
  /** The entry's data as stored (raw DEFLATE stream for method 8), bytes. */
  data: Uint8Array;
  /** CRC-32 of the uncompressed bytes. */
  crc32: number;
  /** Uncompressed size, bytes. */
  size: number;
}

/**
 * The raw DEFLATE stream part bytes were inflated from, keyed by the very `Uint8Array`
 * the inflated bytes live in: identity proves the content is unchanged (part bytes are
 * never mutated in place). The CRC is computed only if the bytes are ever written.
 */
const deflatedOf = new WeakMap<Uint8Array, { data: Uint8Array; crc32?: number }>();

/** Records that `bytes` were inflated from the raw DEFLATE stream `deflated` (for copying them on write unchanged). */
export function rememberDeflated(bytes: Uint8Array, deflated: Uint8Array): void {
  deflatedOf.set(bytes, { data: deflated });
}

/**
 * Inflates one entry's stored data.
 *
 * @param cap - most bytes the entry may inflate to
 * @throws PackageError `zip_bomb` past the cap, `zip_unsupported` for another method,
 *   `zip_truncated` for a corrupt stream
 */
export function inflateEntry(name: string, method: number, data: Uint8Array, cap: number): Uint8Array {
  if (method === ZIP_STORE) {
    if (data.length > cap) throw new PackageError('zip_bomb', `zip entry ${name} holds ${data.length} bytes, past the ${cap}-byte limit`);
    return data;
  }
  if (method !== ZIP_DEFLATE) throw new PackageError('zip_unsupported', `zip entry ${name} uses compression method ${method}; only STORE and DEFLATE are read`);
  try {
    const out = inflateRawSync(data, { maxOutputLength: Math.max(1, cap) });
    // A small part comes back as a view into zlib's 16 KiB output chunk: kept as a view, a
    // package of 10,000 small parts (a 3.6 MB upload) held 10,000 chunks, 160 MiB, for as
    // long as the package lived. Copied to its own size instead.
    if (out.buffer.byteLength > 2 * out.byteLength + 4096) return new Uint8Array(out);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      throw new PackageError('zip_bomb', `zip entry ${name} inflates past ${cap} bytes (compressed ${data.length}); refused as a zip bomb`, { cause: err });
    }
    throw new PackageError('zip_truncated', `zip entry ${name} cannot be read: ${e.message}`, { cause: err });
  }
}

/** One entry to write: a name inside the zip (no leading slash) and its bytes. */
export interface ZipInput {
  name: string;
  /** The entry's bytes (unused when {@link ZipInput.compressed} is given). */
  bytes: Uint8Array;
  /** Store rather than deflate (already-compressed media). */
  store?: boolean;
  /** The entry already in its stored form ({@link compressEntry}): written as it is. */
  compressed?: CompressedEntry;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** MS-DOS date of 1980-01-01 (the epoch of the format), time 00:00. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
/** General-purpose flag bit 11: names are UTF-8 (APPNOTE Appendix D). */
const FLAG_UTF8 = 1 << 11;
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

/**
 * Writes a zip file of `entries` in the given order: DEFLATE (at `level`) unless stored,
 * with part bytes remembered by {@link rememberDeflated} copied as they were compressed.
 *
 * @param level - DEFLATE level 1–9
 * @throws PackageError `too_large` past what a zip without ZIP64 holds (65 535 entries, 4 GiB)
 */
export function writeZip(entries: readonly ZipInput[], level = 6): Uint8Array {
  if (entries.length > MAX_ENTRIES) throw new PackageError('too_large', `a package of ${entries.length} parts cannot be written (at most ${MAX_ENTRIES})`);
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  // entries sharing one byte array (equal content) share its compressed form
  const done = new Map<Uint8Array, CompressedEntry>();
  for (const e of entries) {
    const name = encoder.encode(e.name);
    let c = e.compressed ?? done.get(e.bytes);
    if (!c) {
      c = compressedFor(e, level);
      done.set(e.bytes, c);
    }
    const flags = /[^\x20-\x7e]/.test(e.name) ? FLAG_UTF8 : 0;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, LOCAL_HEADER, true);
    local.setUint16(4, 20, true); // version needed: 2.0 (DEFLATE)
    local.setUint16(6, flags, true);
    local.setUint16(8, c.method, true);
    local.setUint16(10, DOS_TIME, true);
    local.setUint16(12, DOS_DATE, true);
    local.setUint32(14, c.crc32, true);
    local.setUint32(18, c.data.length, true);
    local.setUint32(22, c.size, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, CENTRAL_HEADER, true);
    cd.setUint16(4, (3 << 8) | 20, true); // made by: UNIX, 2.0
    cd.setUint16(6, 20, true);
    cd.setUint16(8, flags, true);
    cd.setUint16(10, c.method, true);
    cd.setUint16(12, DOS_TIME, true);
    cd.setUint16(14, DOS_DATE, true);
    cd.setUint32(16, c.crc32, true);
    cd.setUint32(20, c.data.length, true);
    cd.setUint32(24, c.size, true);
    cd.setUint16(28, name.length, true);
    // extra, comment, disk number, internal attributes: 0
    cd.setUint32(38, (0o100644 << 16) >>> 0, true); // external attributes: a regular file, rw-r--r--
    cd.setUint32(42, offset, true);
    chunks.push(new Uint8Array(local.buffer), name, c.data);
    central.push(new Uint8Array(cd.buffer), name);
    offset += 30 + name.length + c.data.length;
    if (offset > MAX_OFFSET) throw new PackageError('too_large', 'the package would pass 4 GiB, which a zip without ZIP64 cannot hold');
  }
  let centralSize = 0;
  for (const c of central) centralSize += c.length;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, END_OF_CENTRAL_DIRECTORY, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + 22);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  for (const c of central) {
    out.set(c, at);
    at += c.length;
  }
  out.set(new Uint8Array(end.buffer), at);
  return out;
}

/**
 * `bytes` in the form {@link writeZip} stores them (DEFLATE at `level`, with their CRC-32
 * and size), for a part that is held compressed until the package is written.
 *
 * @param level - DEFLATE level 1–9
 */
export function compressEntry(bytes: Uint8Array, level = 6): CompressedEntry {
  return compressedFor({ name: '', bytes }, level);
}

/**
 * The bytes of an entry made by {@link compressEntry}.
 *
 * @throws PackageError `zip_truncated` when the data does not inflate to its recorded size
 */
export function expandEntry(name: string, c: CompressedEntry): Uint8Array {
  const bytes = inflateEntry(name, c.method, c.data, c.size);
  if (bytes.length !== c.size) throw new PackageError('zip_truncated', `zip entry ${name} inflates to ${bytes.length} bytes, ${c.size} recorded`);
  return bytes;
}

/**
 * The DEFLATE window for `size` bytes of input, as zlib's `windowBits` (9–15): the smallest
 * window that still reaches back over the whole input (zlib keeps 262 bytes of lookahead
 * out of the window), so the output is what the 32 KiB window gives. zlib allocates and
 * clears its window and hash tables by this size on every call, which for the many small
 * parts of a deck (relationships, properties) cost more than compressing them. Raw DEFLATE
 * data does not record its window (RFC 1951), so any inflater reads it.
 */
export function deflateWindowBits(size: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(size + 262))));
}

function compressedFor(e: ZipInput, level: number): CompressedEntry {
  const known = deflatedOf.get(e.bytes);
  if (known) {
    known.crc32 ??= crc32(e.bytes) >>> 0;
    return { method: ZIP_DEFLATE, data: known.data, crc32: known.crc32, size: e.bytes.length };
  }
  const crc = crc32(e.bytes) >>> 0;
  if (e.store || e.bytes.length === 0) return { method: ZIP_STORE, data: e.bytes, crc32: crc, size: e.bytes.length };
  const d = deflateRawSync(e.bytes, { level, windowBits: deflateWindowBits(e.bytes.length) });
  return { method: ZIP_DEFLATE, data: new Uint8Array(d.buffer, d.byteOffset, d.byteLength), crc32: crc, size: e.bytes.length };
}
