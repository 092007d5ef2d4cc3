/**
 * Picture headers and the project's pixel limits: the format and pixel dimensions of a
 * picture read from its first bytes only (PNG IHDR, JPEG SOFn, GIF logical screen, BMP
 * info header, WebP VP8/VP8L/VP8X, TIFF first IFD), so that a decompression bomb (a tiny
 * file whose header claims 30000 × 30000 px, 3.6 GB once decoded) is recognised without
 * decoding a pixel of it.
 *
 * The limits are the same wherever Slidewright meets a picture: image blocks of a request
 * are refused past them, template pictures past them are reported by the template doctor
 * and never delivered as they are in a generated deck (see
 * `core/src/generation/deck/picture-limits.ts`), and previews do not decode them.
 */

/** Largest picture accepted or delivered, pixels (width × height from the header): 50 megapixels. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Largest side accepted or delivered, pixels (the largest side of a Skia surface, 2^15 − 1). */
export const MAX_IMAGE_SIDE = 32_767;

/** Raster formats whose dimensions the header gives. */
export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'tiff';

/** What the first bytes of a picture say. */
export interface PictureHeader {
  format: RasterFormat | 'svg' | 'emf' | 'wmf' | 'unknown';
  /** Pixels; 0 when the header does not give them (vector formats, truncated or odd headers). */
  width: number;
  /** Pixels; 0 when unknown. */
  height: number;
}

const NONE = (format: PictureHeader['format']): PictureHeader => ({ format, width: 0, height: 0 });

/**
 * Reads the format and the pixel dimensions from the first bytes of a picture. Never reads
 * past `b.length`; dimensions are 0 when the bytes at hand do not hold them.
 *
 * - PNG (ISO/IEC 15948 §11.2.2): the first chunk must be IHDR (length 13).
 * - JPEG (ITU T.81 §B.2.2): segments up to the first frame header SOF0–SOF15 (not DHT C4,
 *   JPG C8, DAC CC); the scan or the end of the image ends the search.
 * - GIF (GIF89a §18): the logical screen descriptor.
 * - BMP: BITMAPCOREHEADER (16-bit sides) or a later info header (signed 32-bit; a negative
 *   height means top-down rows).
 * - WebP (RFC 9649): VP8 frame header, VP8L header, or VP8X canvas size.
 * - TIFF (TIFF 6.0 §2): tags ImageWidth (256) and ImageLength (257) of the first IFD.
 */
export function readPictureHeader(b: Uint8Array): PictureHeader {
  const n = b.length;
  const u16be = (o: number): number => (b[o]! << 8) | b[o + 1]!;
  const u16le = (o: number): number => b[o]! | (b[o + 1]! << 8);
  const u32be = (o: number): number => ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
  const u32le = (o: number): number => ((b[o + 3]! << 24) >>> 0) + (b[o + 2]! << 16) + (b[o + 1]! << 8) + b[o]!;
  const starts = (...sig: number[]): boolean => n >= sig.length && sig.every((v, i) => b[i] === v);

  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) {
    if (n < 24 || u32be(8) !== 13 || b[12] !== 0x49 || b[13] !== 0x48 || b[14] !== 0x44 || b[15] !== 0x52) return NONE('png');
    return { format: 'png', width: u32be(16), height: u32be(20) };
  }
  if (starts(0x47, 0x49, 0x46, 0x38) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) {
    return n < 10 ? NONE('gif') : { format: 'gif', width: u16le(6), height: u16le(8) };
  }
  if (starts(0xff, 0xd8, 0xff)) return jpegHeader(b, u16be);
  if (starts(0x42, 0x4d)) {
    if (n < 26) return NONE('bmp');
    const size = u32le(14);
    if (size === 12) return { format: 'bmp', width: u16le(18), height: u16le(20) };
    if (size < 40) return NONE('bmp');
    const i32 = (o: number): number => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24);
    return { format: 'bmp', width: Math.abs(i32(18)), height: Math.abs(i32(22)) };
  }
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) {
    if (n < 30) return NONE('webp');
    const kind = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
    if (kind === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return { format: 'webp', width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (kind === 'VP8L' && b[20] === 0x2f) {
      const bits = u32le(21);
      return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (kind === 'VP8X') return { format: 'webp', width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
    return NONE('webp');
  }
  if (starts(0x49, 0x49, 0x2a, 0x00)) return tiffHeader(b, true);
  if (starts(0x4d, 0x4d, 0x00, 0x2a)) return tiffHeader(b, false);
  if (n >= 44 && starts(0x01, 0, 0, 0) && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46) return NONE('emf');
  if (starts(0xd7, 0xcd, 0xc6, 0x9a) || starts(0x01, 0x00, 0x09, 0x00) || starts(0x02, 0x00, 0x09, 0x00)) return NONE('wmf');
  const head = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, Math.min(n, 512))).trimStart();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && /<svg[\s>]/.test(head))) return NONE('svg');
  return NONE('unknown');
}

function jpegHeader(b: Uint8Array, u16be: (o: number) => number): PictureHeader {
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return NONE('jpeg');
    const marker = b[o + 1]!;
    if (marker === 0xff) {
      o++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      o += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no frame header before
    const len = u16be(o + 2);
    if (len < 2) break;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (o + 9 > b.length) break;
      return { format: 'jpeg', width: u16be(o + 7), height: u16be(o + 5) };
    }
    o += 2 + len;
  }
  return NONE('jpeg');
}

function tiffHeader(b: Uint8Array, little: boolean): PictureHeader {
  const n = b.length;
  const u16 = (o: number): number => (little ? b[o]! | (b[o + 1]! << 8) : (b[o]! << 8) | b[o + 1]!);
  const u32 = (o: number): number => (little ? ((b[o + 3]! << 24) >>> 0) + (b[o + 2]! << 16) + (b[o + 1]! << 8) + b[o]! : ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!);
  if (n < 8) return NONE('tiff');
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > n) return NONE('tiff');
  const count = u16(ifd);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > n) break;
    const tag = u16(e);
    if (tag !== 256 && tag !== 257) continue;
    const type = u16(e + 2);
    // SHORT (3) values sit in the first two bytes of the value field, LONG (4) fill it
    const value = type === 3 ? u16(e + 8) : type === 4 ? u32(e + 8) : 0;
    if (tag === 256) width = value;
    else height = value;
  }
  return { format: 'tiff', width, height };
}

/** The pixel limits a picture is held to (defaults: {@link MAX_IMAGE_PIXELS}, {@link MAX_IMAGE_SIDE}). */
export interface PixelLimits {
  /** Largest width × height, pixels. */
  maxPixels: number;
  /** Largest width or height, pixels. */
  maxSide: number;
}

/** The project's pixel limits. */
export const PIXEL_LIMITS: Readonly<PixelLimits> = Object.freeze({ maxPixels: MAX_IMAGE_PIXELS, maxSide: MAX_IMAGE_SIDE });

/** True when a `width` × `height` px picture is past the limits (more pixels, or a longer side). */
export function exceedsPixelLimits(width: number, height: number, limits: PixelLimits = PIXEL_LIMITS): boolean {
  return width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels;
}
