/**
 * OpenType font collections (`.ttc`/`.otc`): the faces a collection holds, their family
 * names, and one face copied out as a standalone font file.
 *
 * Skia registers only the first face of a collection, so the regional faces of Noto Sans
 * CJK (SC, TC, HK, KR after JP in Debian's `NotoSansCJK-Regular.ttc`) can be drawn only once
 * they are extracted and registered on their own (`fonts.ts` {@link cjkRegionalFamily}).
 *
 * Formats (OpenType specification 1.9, published as ISO/IEC 14496-22 "Open Font Format"),
 * chapter "The OpenType Font File":
 * - "Font Collections", TTC header: tag `ttcf`, major/minor version (1.0 or 2.0; 2.0 adds
 *   a DSIG reference, not read here), `numFonts`, then one uint32 offset per face to its
 *   table directory, from the start of the file.
 * - "Table Directory": `sfntVersion`, `numTables`, `searchRange`, `entrySelector`,
 *   `rangeShift`, then 16-byte table records (tag, checksum, offset, length) sorted by
 *   tag. In a collection the offsets count from the start of the collection file, and
 *   faces share tables.
 * - "Calculating Checksums": the sum of a table's big-endian uint32 words (zero-padded to
 *   4 bytes); `head.checksumAdjustment` makes the whole file sum to 0xB1B0AFBA.
 * And chapter "name — Naming Table": records of platform, encoding, language, name ID,
 * length and offset into the string storage; name ID 1 family, 16 typographic family.
 *
 * Every read is bounds-checked: a truncated or hostile file fails with a
 * {@link FontFileError}, never a read outside the data.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { EngineError } from '../ooxml/errors.js';

/** A font file that cannot be read as the OpenType specification describes it (code `font_invalid`). */
export class FontFileError extends EngineError<'font_invalid'> {
  override readonly name = 'FontFileError';
  constructor(message: string, options?: ErrorOptions) {
    super('font_invalid', message, options);
  }
}

/** Random access to the bytes of a font file: a buffer, or a file read piece by piece. */
export interface FontBytes {
  /** Size in bytes. */
  readonly length: number;
  /**
   * `length` bytes from `offset`.
   * @throws FontFileError when the range runs past the end (`what` names it in the message)
   */
  read(offset: number, length: number, what: string): Uint8Array;
  /**
   * Copies `length` bytes from `offset` into `target` at `targetAt` (a face's tables go
   * straight into the extracted file, without a second copy).
   * @throws FontFileError as {@link FontBytes.read}
   */
  readInto(target: Uint8Array, targetAt: number, offset: number, length: number, what: string): void;
}

function checkRange(size: number, offset: number, length: number, what: string): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
    throw new FontFileError(`${what}: bytes ${offset}–${offset + length} lie outside the font file of ${size} bytes`);
  }
}

/** {@link FontBytes} over bytes in memory. */
export function fontBytesOf(data: Uint8Array): FontBytes {
  return {
    length: data.length,
    read(offset, length, what) {
      checkRange(data.length, offset, length, what);
      return data.subarray(offset, offset + length);
    },
    readInto(target, targetAt, offset, length, what) {
      checkRange(data.length, offset, length, what);
      target.set(data.subarray(offset, offset + length), targetAt);
    },
  };
}

/**
 * Runs `use` with a {@link FontBytes} reading the file at `path` piece by piece (only the
 * parts asked for are held in memory), then closes the file.
 */
export function withFontFile<T>(path: string, use: (bytes: FontBytes) => T): T {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const readInto = (target: Uint8Array, targetAt: number, offset: number, length: number, what: string): void => {
      checkRange(size, offset, length, what);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, target, targetAt + done, length - done, offset + done);
        if (n === 0) throw new FontFileError(`${what}: the file ended after ${offset + done} bytes`);
        done += n;
      }
    };
    return use({
      length: size,
      read(offset, length, what) {
        const out = Buffer.alloc(length);
        readInto(out, 0, offset, length, what);
        return out;
      },
      readInto,
    });
  } finally {
    closeSync(fd);
  }
}

/** One table record of a face's table directory ("Table Directory"). */
export interface TableRecord {
  /** Four-character tag, e.g. `cmap`. */
  tag: string;
  checksum: number;
  /** Offset from the start of the file (of the collection, for a face in one), bytes. */
  offset: number;
  length: number;
}

/** One face of a font file. */
export interface FontFace {
  /** Position in the collection (0 for a single font). */
  index: number;
  /** Offset of its table directory from the start of the file, bytes. */
  directoryOffset: number;
  /** `sfntVersion`: 0x00010000 (TrueType outlines) or `OTTO` (CFF). */
  sfntVersion: number;
  tables: TableRecord[];
  /**
   * Family name from the `name` table: the typographic family (name ID 16), else the
   * family (name ID 1), Windows platform (3) Unicode BMP encoding (1), US English
   * preferred; null when the face has neither.
   */
  family: string | null;
}

const TAG_TTCF = 0x74746366; // 'ttcf'
const SFNT_TRUETYPE = 0x00010000;
const SFNT_CFF = 0x4f54544f; // 'OTTO'
const SFNT_APPLE = 0x74727565; // 'true'
/** More faces or tables than any real font has: refuse instead of reading a hostile count. */
const MAX_FACES = 1024;
const MAX_TABLES = 512;

function u16(b: Uint8Array, at: number): number {
  return (b[at]! << 8) | b[at + 1]!;
}

function u32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
}

function tagOf(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

/**
 * The faces of a font file: every face of a collection ("Font Collections", TTC header), or the one face
 * of a plain OpenType/TrueType file, each with its table records (checked to lie inside
 * the file) and family name.
 * @throws FontFileError for a file that is neither, or whose header, directories or
 *   `name` table run past its end
 */
export function readFontFaces(bytes: FontBytes): FontFace[] {
  const head = bytes.read(0, 12, 'font header');
  const tag = u32(head, 0);
  if (tag !== TAG_TTCF) return [readFace(bytes, 0, 0)];
  const major = u16(head, 4);
  if (major !== 1 && major !== 2) throw new FontFileError(`TTC header: version ${major}.${u16(head, 6)} is not 1.0 or 2.0`);
  const numFonts = u32(head, 8);
  if (numFonts === 0 || numFonts > MAX_FACES) throw new FontFileError(`TTC header: numFonts ${numFonts} is out of range`);
  const offsets = bytes.read(12, 4 * numFonts, 'TTC header tableDirectoryOffsets');
  const faces: FontFace[] = [];
  for (let i = 0; i < numFonts; i++) faces.push(readFace(bytes, i, u32(offsets, 4 * i)));
  return faces;
}

/** The table directory at `at` ("Table Directory") and the family name of the face it describes. */
function readFace(bytes: FontBytes, index: number, at: number): FontFace {
  const what = `face ${index} table directory`;
  const dir = bytes.read(at, 12, what);
  const sfntVersion = u32(dir, 0);
  if (sfntVersion !== SFNT_TRUETYPE && sfntVersion !== SFNT_CFF && sfntVersion !== SFNT_APPLE) {
    throw new FontFileError(`${what}: sfntVersion 0x${sfntVersion.toString(16)} is not an OpenType font`);
  }
  const numTables = u16(dir, 4);
  if (numTables === 0 || numTables > MAX_TABLES) throw new FontFileError(`${what}: numTables ${numTables} is out of range`);
  const records = bytes.read(at + 12, 16 * numTables, what);
  const tables: TableRecord[] = [];
  for (let i = 0; i < numTables; i++) {
    const r = 16 * i;
    const table = { tag: tagOf(records, r), checksum: u32(records, r + 4), offset: u32(records, r + 8), length: u32(records, r + 12) };
    checkRange(bytes.length, table.offset, table.length, `face ${index} table '${table.tag}'`);
    tables.push(table);
  }
  const name = tables.find((t) => t.tag === 'name');
  const family = name ? familyName(bytes.read(name.offset, name.length, `face ${index} table 'name'`), index) : null;
  return { index, directoryOffset: at, sfntVersion, tables, family };
}

/** Name ID 16 (typographic family), else 1 (family), from Windows Unicode records; US English first. */
function familyName(name: Uint8Array, faceIndex: number): string | null {
  const what = `face ${faceIndex} table 'name'`;
  if (name.length < 6) throw new FontFileError(`${what}: ${name.length} bytes is shorter than its header`);
  const count = u16(name, 2);
  const storage = u16(name, 4);
  if (6 + 12 * count > name.length) throw new FontFileError(`${what}: ${count} name records run past its end`);
  let best: { rank: number; text: string } | undefined;
  for (let i = 0; i < count; i++) {
    const r = 6 + 12 * i;
    const platform = u16(name, r);
    const encoding = u16(name, r + 2);
    const language = u16(name, r + 4);
    const nameId = u16(name, r + 6);
    if (platform !== 3 || (encoding !== 1 && encoding !== 10) || (nameId !== 1 && nameId !== 16)) continue;
    const length = u16(name, r + 8);
    const start = storage + u16(name, r + 10);
    if (start + length > name.length) throw new FontFileError(`${what}: name record ${i} runs past the table's end`);
    // lower is better: typographic family before family, US English before other languages
    const rank = (nameId === 16 ? 0 : 2) + (language === 0x409 ? 0 : 1);
    if (best && best.rank <= rank) continue;
    best = { rank, text: utf16be(name.subarray(start, start + length)) };
  }
  return best?.text ?? null;
}

function utf16be(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode(u16(b, i));
  return s;
}

/** "Calculating Checksums": the sum of the big-endian uint32 words of `b`, the last one zero-padded. */
export function tableChecksum(b: Uint8Array): number {
  let sum = 0;
  const whole = b.length & ~3;
  for (let i = 0; i < whole; i += 4) sum = (sum + u32(b, i)) >>> 0;
  if (whole < b.length) {
    let last = 0;
    for (let i = whole; i < whole + 4; i++) last = (last << 8) | (i < b.length ? b[i]! : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

function put16(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 8) & 0xff;
  b[at + 1] = v & 0xff;
}

function put32(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 24) & 0xff;
  b[at + 1] = (v >>> 16) & 0xff;
  b[at + 2] = (v >>> 8) & 0xff;
  b[at + 3] = v & 0xff;
}

/**
 * One face as a standalone font file ("Table Directory"): its table directory, then its tables (a table
 * several faces share is copied once per face that uses it, i.e. once here), each at a
 * 4-byte boundary, zero-padded, with the offsets of the new file, checksums recomputed and
 * `head.checksumAdjustment` set for the whole file ("Calculating Checksums").
 * @throws FontFileError when a table runs past the end of the file
 */
export function extractFace(bytes: FontBytes, face: FontFace): Buffer {
  const tables = [...face.tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0)); // records are sorted by tag ("Table Directory")
  const n = tables.length;
  const dirSize = 12 + 16 * n;
  let size = dirSize;
  for (const t of tables) size += (t.length + 3) & ~3;
  const out = Buffer.alloc(size);
  put32(out, 0, face.sfntVersion);
  put16(out, 4, n);
  // searchRange: (largest power of two ≤ numTables) × 16; entrySelector its log2; rangeShift the rest
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= n) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  put16(out, 6, searchRange);
  put16(out, 8, entrySelector);
  put16(out, 10, n * 16 - searchRange);
  let at = dirSize;
  let headAt = -1;
  tables.forEach((t, i) => {
    bytes.readInto(out, at, t.offset, t.length, `face ${face.index} table '${t.tag}'`);
    if (t.tag === 'head') {
      if (t.length < 12) throw new FontFileError(`face ${face.index} table 'head': ${t.length} bytes is too short`);
      headAt = at;
      put32(out, at + 8, 0); // checksumAdjustment is summed as 0 ("Calculating Checksums")
    }
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[r + k] = t.tag.charCodeAt(k);
    put32(out, r + 4, tableChecksum(out.subarray(at, at + t.length)));
    put32(out, r + 8, at);
    put32(out, r + 12, t.length);
    at += (t.length + 3) & ~3;
  });
  if (headAt >= 0) put32(out, headAt + 8, (0xb1b0afba - tableChecksum(out)) >>> 0);
  return out;
}
