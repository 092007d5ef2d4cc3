/**
 * Reads the entries of a zip file from its bytes (PKWARE APPNOTE 6.3.x; ECMA-376 Part 2,
 * Annex C: a package is a ZIP file). Only the directory structure is read here — the
 * entries' data is handed back as views into the input, still compressed; inflating it
 * (with caps) is {@link inflateEntry}'s job in `zip-codec.ts`.
 *
 * The central directory is authoritative (APPNOTE §4.3.6): names, methods, sizes and CRCs
 * come from it. The local file header of each entry is only checked for its signature and
 * skipped (its own name and extra field lengths may differ from the central ones).
 *
 * Every offset and length read from the file is checked against the buffer before use, so
 * a lying header raises `zip_truncated` instead of reading out of range, and nothing is
 * allocated from a size a header claims: the declared entry count is checked against the
 * caller's limit before any per-entry object exists.
 */
import { crc32 } from 'node:zlib';
import { PackageError } from '../errors.js';

/** One entry of a zip file as its central directory describes it. */
export interface ZipEntry {
  /**
   * The entry's name as stored (not normalized): UTF-8 when general-purpose flag bit 11 is
   * set, else the Info-ZIP Unicode Path extra field (0x7075) when present and matching,
   * else CP437 (APPNOTE Appendix D).
   */
  name: string;
  /** Compression method (APPNOTE §4.4.5): 0 STORE, 8 DEFLATE; others are reported as found. */
  method: number;
  /** CRC-32 of the uncompressed data as declared (unsigned; not verified here). */
  crc32: number;
  /** Size of the stored data, bytes (ZIP64 value when the 32-bit field is 0xFFFFFFFF). */
  compressedSize: number;
  /** Size the data declares it inflates to, bytes (ZIP64 value when needed). Not trusted: a cap applies when inflating. */
  uncompressedSize: number;
  /** The entry's stored (compressed) bytes: a view into the input buffer, no copy. */
  data: Uint8Array;
  /** A folder entry: the name ends with `/`, or the MS-DOS directory attribute or the Unix S_IFDIR mode is set. */
  isDirectory: boolean;
}

/** Limits applied while the central directory is read. */
export interface ZipReadOptions {
  /** Most entries (folder entries included) the central directory may declare. */
  maxEntries: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;
const SIG_EOCD64 = 0x06064b50;

/** Fixed sizes of the records, bytes (APPNOTE §4.3.7, §4.3.12, §4.3.14, §4.3.15, §4.3.16). */
const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const EOCD_SIZE = 22;
const EOCD64_LOCATOR_SIZE = 20;
const EOCD64_SIZE = 56;
/** Longest zip file comment: the EOCD record can start at most this far before its minimal end. */
const MAX_COMMENT = 0xffff;

const EXTRA_ZIP64 = 0x0001;
const EXTRA_UNICODE_PATH = 0x7075;

/** General-purpose flag bits (APPNOTE §4.4.4). */
const FLAG_ENCRYPTED = 1 << 0;
const FLAG_UTF8 = 1 << 11;
/** Bit 13: the central directory itself is encrypted (APPNOTE §7.3). */
const FLAG_CD_ENCRYPTED = 1 << 13;

const U32_MAX = 0xffffffff;

/** Host system of "version made by" (APPNOTE §4.4.2.2) whose high 16 external-attribute bits are a Unix mode. */
const HOST_UNIX = 3;
const DOS_ATTR_DIRECTORY = 0x10;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

/**
 * Reads every entry of a zip file, in central-directory order.
 *
 * Nothing is inflated or CRC-checked; see {@link ZipEntry.data}. ZIP64 archives are read;
 * spanned (multi-disk) archives are not: their offsets point elsewhere, so they fail the
 * bounds and signature checks, or are refused outright when the ZIP64 locator counts disks.
 *
 * @param bytes - the whole zip file
 * @param options - `maxEntries`: the most central-directory records accepted
 * @returns the entries; their `data` are views into `bytes`
 * @throws PackageError
 *   - `zip_truncated` — no End Of Central Directory record; a record past the end of the
 *     buffer; an entry's data reaching past the end or into the central directory; a bad
 *     record signature; a central directory whose size does not match its declared entries;
 *     ZIP64 fields announced but missing;
 *   - `too_many_parts` — more entries declared than `maxEntries` (checked before any entry is read);
 *   - `encrypted` — an entry (or the central directory) is encrypted;
 *   - `zip_unsupported` — a ZIP64 end record on another disk or a disk count above 1 (a spanned archive);
 *   - `bad_entry_name` — a name flagged UTF-8 that is not valid UTF-8;
 *   - `zip_bomb` — entries that share bytes (overlapping local headers or data: a way to
 *     make a small file inflate many times over).
 */
export function readZipEntries(bytes: Uint8Array, options: ZipReadOptions): ZipEntry[] {
  const dir = readEndOfCentralDirectory(bytes);
  if (dir.entries > options.maxEntries) {
    throw new PackageError('too_many_parts', `the package has ${dir.entries} entries; at most ${options.maxEntries} are accepted`);
  }
  const cdEnd = dir.offset + dir.size;
  if (cdEnd > dir.recordStart) {
    throw new PackageError('zip_truncated', `the zip's central directory (${dir.size} bytes at offset ${dir.offset}) reaches past its end record; the file is truncated or corrupt`);
  }
  if (dir.entries * CENTRAL_HEADER_SIZE > dir.size) {
    throw new PackageError('zip_truncated', `the zip declares ${dir.entries} entries in a central directory of only ${dir.size} bytes`);
  }

  const entries: ZipEntry[] = [];
  /** Byte ranges [local header start, data end) of each entry, to find overlaps. */
  const spans: Array<[number, number]> = [];
  let pos = dir.offset;
  for (let i = 0; i < dir.entries; i++) {
    if (pos + CENTRAL_HEADER_SIZE > cdEnd || u32(bytes, pos) !== SIG_CENTRAL) {
      throw new PackageError('zip_truncated', `the zip's central directory is corrupt: entry ${i + 1} of ${dir.entries} has no header at offset ${pos}`);
    }
    const madeBy = u16(bytes, pos + 4);
    const flags = u16(bytes, pos + 8);
    const method = u16(bytes, pos + 10);
    const crc = u32(bytes, pos + 16);
    let compressedSize = u32(bytes, pos + 20);
    let uncompressedSize = u32(bytes, pos + 24);
    const nameLength = u16(bytes, pos + 28);
    const extraLength = u16(bytes, pos + 30);
    const commentLength = u16(bytes, pos + 32);
    const externalAttributes = u32(bytes, pos + 38);
    let localOffset = u32(bytes, pos + 42);
    const nameStart = pos + CENTRAL_HEADER_SIZE;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > cdEnd) {
      throw new PackageError('zip_truncated', `the zip's central directory is corrupt: entry ${i + 1} of ${dir.entries} runs past its end`);
    }
    const rawName = bytes.subarray(nameStart, extraStart);
    if (flags & (FLAG_ENCRYPTED | FLAG_CD_ENCRYPTED)) {
      throw new PackageError('encrypted', `the zip entry ${JSON.stringify(decodeName(rawName, flags, undefined).slice(0, 200))} is encrypted; password-protected zip files are not supported`);
    }

    const extra = bytes.subarray(extraStart, extraStart + extraLength);
    const needs64 = uncompressedSize === U32_MAX || compressedSize === U32_MAX || localOffset === U32_MAX;
    if (needs64) {
      const z = findExtraField(extra, EXTRA_ZIP64);
      let at = 0;
      const take = (): number => {
        if (!z || at + 8 > z.length) {
          throw new PackageError('zip_truncated', `the zip's central directory is corrupt: entry ${i + 1} lacks the ZIP64 sizes it announces`);
        }
        at += 8;
        return u64(z, at - 8);
      };
      // Only the fields whose 32-bit value is saturated are present, in this order (APPNOTE §4.5.3);
      // the disk number that may follow is not needed: there is one disk, this buffer.
      if (uncompressedSize === U32_MAX) uncompressedSize = take();
      if (compressedSize === U32_MAX) compressedSize = take();
      if (localOffset === U32_MAX) localOffset = take();
    }

    const name = decodeName(rawName, flags, extra);
    const isDirectory =
      name.endsWith('/') ||
      (externalAttributes & DOS_ATTR_DIRECTORY) !== 0 ||
      (madeBy >>> 8 === HOST_UNIX && ((externalAttributes >>> 16) & S_IFMT) === S_IFDIR);

    // The local header: check it is there, skip its own name and extra field.
    if (localOffset + LOCAL_HEADER_SIZE > dir.offset || u32(bytes, localOffset) !== SIG_LOCAL) {
      throw new PackageError('zip_truncated', `the zip entry ${JSON.stringify(name.slice(0, 200))} has no local header at offset ${localOffset}; the file is truncated or corrupt`);
    }
    const dataStart = localOffset + LOCAL_HEADER_SIZE + u16(bytes, localOffset + 26) + u16(bytes, localOffset + 28);
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > dir.offset) {
      throw new PackageError('zip_truncated', `the zip entry ${JSON.stringify(name.slice(0, 200))} declares ${compressedSize} bytes of data that the file does not hold (truncated or corrupt)`);
    }

    entries.push({ name, method, crc32: crc, compressedSize, uncompressedSize, data: bytes.subarray(dataStart, dataEnd), isDirectory });
    spans.push([localOffset, dataEnd]);
    pos = next;
  }
  if (pos !== cdEnd) {
    throw new PackageError('zip_truncated', `the zip's central directory (${dir.size} bytes) holds more than the ${dir.entries} entries its end record declares`);
  }
  checkNoOverlap(spans);
  return entries;
}

/** Where the central directory is, from the End Of Central Directory record (and its ZIP64 form). */
interface CentralDirectory {
  /** Number of central directory records. */
  entries: number;
  /** Size of the central directory, bytes. */
  size: number;
  /** Offset of the central directory from the start of the file, bytes. */
  offset: number;
  /** Offset of the first end record (EOCD64 when present, else EOCD): the central directory must end by then. */
  recordStart: number;
}

/**
 * Finds the End Of Central Directory record (APPNOTE §4.3.16): the last signature within
 * the final 65,535 + 22 bytes whose comment length fits in the file; then the ZIP64 end
 * record (§4.3.14) through its locator (§4.3.15) when one precedes it.
 */
function readEndOfCentralDirectory(bytes: Uint8Array): CentralDirectory {
  const min = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  let at = -1;
  for (let i = bytes.length - EOCD_SIZE; i >= min; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06 && i + EOCD_SIZE + u16(bytes, i + 20) <= bytes.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new PackageError('zip_truncated', 'the zip has no central directory (truncated or not a zip)');

  let entries = u16(bytes, at + 10);
  let size = u32(bytes, at + 12);
  let offset = u32(bytes, at + 16);
  let recordStart = at;

  const locator = at - EOCD64_LOCATOR_SIZE;
  if (locator >= 0 && u32(bytes, locator) === SIG_EOCD64_LOCATOR) {
    const rec = u64(bytes, locator + 8);
    if (u32(bytes, locator + 4) !== 0 || u32(bytes, locator + 16) > 1) {
      throw new PackageError('zip_unsupported', 'the zip is split across several files (a spanned archive); only single-file zips are read');
    }
    if (rec + EOCD64_SIZE > locator || u32(bytes, rec) !== SIG_EOCD64) {
      throw new PackageError('zip_truncated', 'the zip\'s ZIP64 end of central directory record is missing or out of place (truncated or corrupt)');
    }
    entries = u64(bytes, rec + 32);
    size = u64(bytes, rec + 40);
    offset = u64(bytes, rec + 48);
    recordStart = rec;
  }
  return { entries, size, offset, recordStart };
}

/** The data of the first extra field block with `id` (APPNOTE §4.5.1), or undefined; a truncated block ends the search. */
function findExtraField(extra: Uint8Array, id: number): Uint8Array | undefined {
  let p = 0;
  while (p + 4 <= extra.length) {
    const len = u16(extra, p + 2);
    if (p + 4 + len > extra.length) return undefined;
    if (u16(extra, p) === id) return extra.subarray(p + 4, p + 4 + len);
    p += 4 + len;
  }
  return undefined;
}

/** Entries must not share bytes: each one's local header and data lie apart from every other's. */
function checkNoOverlap(spans: Array<[number, number]>): void {
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]![0] < spans[i - 1]![1]) {
      throw new PackageError('zip_bomb', 'the zip has entries whose data overlap (a construction that makes a small file inflate many times over); refused as a zip bomb');
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Code page 437, bytes 0x80–0xFF (APPNOTE Appendix D: names without flag bit 11). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»' +
  '░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀' +
  'αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * An entry name as text: UTF-8 when flag bit 11 is set; else the Info-ZIP Unicode Path
 * extra field when its CRC matches the stored name; else CP437 (ASCII maps to itself).
 */
function decodeName(raw: Uint8Array, flags: number, extra: Uint8Array | undefined): string {
  if (flags & FLAG_UTF8) return decodeUtf8Name(raw);
  let ascii = true;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
  const upath = extra && findExtraField(extra, EXTRA_UNICODE_PATH);
  // version 1, CRC-32 of the stored name, then the UTF-8 name
  if (upath && upath.length >= 5 && upath[0] === 1 && u32(upath, 1) === crc32(raw) >>> 0) return decodeUtf8Name(upath.subarray(5));
  let s = '';
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    s += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80]!;
  }
  return s;
}

function decodeUtf8Name(raw: Uint8Array): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new PackageError('bad_entry_name', `the zip holds an entry name flagged UTF-8 that is not valid UTF-8: ${JSON.stringify(Buffer.from(raw.subarray(0, 200)).toString('latin1'))}`);
  }
}

/** Little-endian reads (unsigned). Callers bounds-check `p`; a byte past the end would read as 0. */
function u16(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8);
}

function u32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}

/**
 * A 64-bit little-endian value as a number. Values past 2^53 are not exact, but any value
 * that large is also past any buffer, so the bounds checks that follow reject it.
 */
function u64(b: Uint8Array, p: number): number {
  return u32(b, p) + u32(b, p + 4) * 0x100000000;
}
