/**
 * Picture bytes for drawing: the format and pixel dimensions are read from the header
 * (PNG IHDR, JPEG SOFn, GIF logical screen, BMP, WebP) before anything is decoded, so a
 * hostile picture claiming 100000 × 100000 pixels is refused without allocating it.
 */
import { Image } from '@napi-rs/canvas';
import { MAX_IMAGE_PIXELS } from '../ooxml/image-header.js';
import { MetafilePicture } from './metafile/index.js';

/** Largest picture decoded, in pixels: the project's one pixel limit (50 megapixels, core/src/ooxml/image-header.ts). */
export { MAX_IMAGE_PIXELS };

/** What the header says. */
export interface ImageHeader {
  format: 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'svg' | 'emf' | 'wmf' | 'tiff' | 'unknown';
  width: number;
  height: number;
}

/** Reads format and dimensions from the first bytes of an image; width/height 0 when unknown. */
export function readImageHeader(b: Uint8Array): ImageHeader {
  const u32be = (o: number): number => ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
  const u16be = (o: number): number => (b[o]! << 8) + b[o + 1]!;
  const u16le = (o: number): number => b[o]! + (b[o + 1]! << 8);
  const i32le = (o: number): number => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24);
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return { format: 'png', width: u32be(16), height: u32be(20) };
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return { format: 'gif', width: u16le(6), height: u16le(8) };
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) return { format: 'bmp', width: Math.abs(i32le(18)), height: Math.abs(i32le(22)) };
  if (b.length >= 30 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45) {
    const kind = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
    if (kind === 'VP8 ') return { format: 'webp', width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (kind === 'VP8L') {
      const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
      return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (kind === 'VP8X') return { format: 'webp', width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
    return { format: 'webp', width: 0, height: 0 };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let o = 2;
    while (o + 9 < b.length) {
      if (b[o] !== 0xff) { o++; continue; }
      const marker = b[o + 1]!;
      if (marker === 0xff) { o++; continue; }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { o += 2; continue; }
      const len = u16be(o + 2);
      if ((marker >= 0xc0 && marker <= 0xcf) && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { format: 'jpeg', width: u16be(o + 7), height: u16be(o + 5) };
      }
      o += 2 + len;
    }
    return { format: 'jpeg', width: 0, height: 0 };
  }
  if (b.length >= 44 && b[0] === 0x01 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46) return { format: 'emf', width: 0, height: 0 };
  if (b.length >= 4 && ((b[0] === 0xd7 && b[1] === 0xcd && b[2] === 0xc6 && b[3] === 0x9a) || (b[0] === 0x01 && b[1] === 0x00 && b[2] === 0x09 && b[3] === 0x00))) return { format: 'wmf', width: 0, height: 0 };
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)) && (b[2] === 42 || b[3] === 42)) return { format: 'tiff', width: 0, height: 0 };
  const head = new TextDecoder().decode(b.subarray(0, Math.min(b.length, 512)));
  if (/<svg[\s>]/i.test(head)) return { format: 'svg', width: 0, height: 0 };
  return { format: 'unknown', width: 0, height: 0 };
}

/** Why a picture is not drawn. */
export type ImageRefusal = 'too_large' | 'unsupported' | 'undecodable';

/**
 * Decodes a raster picture (PNG, JPEG, GIF, BMP, WebP) after checking its header: refuses
 * anything over `maxPixels` or in a format we do not decode (TIFF, SVG). WMF and EMF
 * pictures come back as a {@link MetafilePicture}, drawn as vectors ('undecodable' when
 * their header is not usable).
 */
export async function decodeImage(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): Promise<Image | MetafilePicture | ImageRefusal> {
  const h = readImageHeader(bytes);
  if (h.format === 'emf' || h.format === 'wmf') return MetafilePicture.parse(bytes) ?? 'undecodable';
  if (!['png', 'jpeg', 'gif', 'bmp', 'webp'].includes(h.format)) return 'unsupported';
  if (h.width <= 0 || h.height <= 0) return 'undecodable';
  if (h.width * h.height > maxPixels) return 'too_large';
  const img = new Image();
  try {
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = (err: Error) => reject(err);
      img.src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
  } catch {
    return 'undecodable';
  }
  return img.width > 0 && img.height > 0 ? img : 'undecodable';
}
