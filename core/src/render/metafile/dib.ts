/**
 * Device-independent bitmaps inside metafiles ([MS-WMF] §2.2.2.9 DeviceIndependentBitmap,
 * BITMAPINFOHEADER / BITMAPCOREHEADER): uncompressed (BI_RGB, BI_BITFIELDS) 1, 4, 8, 16,
 * 24 and 32 bits per pixel decoded to a canvas, rows top-down. Compressed DIBs (RLE, JPEG,
 * PNG) are not decoded.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';

/** Largest bitmap decoded from a metafile, pixels (16 megapixels: a bad header cannot allocate more). */
export const MAX_DIB_PIXELS = 16_000_000;

/** A decoded bitmap: its canvas, and whether its rows were stored bottom-up (the DIB's usual order). */
export interface DecodedDib {
  canvas: Canvas;
  width: number;
  height: number;
  bottomUp: boolean;
}

/**
 * Decodes a DIB whose header starts at `info` (header and colour table `infoLen` bytes)
 * and whose pixels are `bitsLen` bytes at `bits` (defaults: right after the colour table).
 * @param alpha - keep the 32-bit alpha byte (AlphaBlend with AC_SRC_ALPHA); otherwise opaque
 * @returns undefined when the header is not one we decode, or the pixels do not fit the bytes
 */
export function decodeDib(b: Uint8Array, info: number, infoLen: number, bits?: number, bitsLen?: number, alpha = false): DecodedDib | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (info < 0 || info + 12 > b.length) return undefined;
  const headerSize = dv.getUint32(info, true);
  let width: number, height: number, bpp: number, compression = 0, used = 0;
  let paletteEntry = 4;
  if (headerSize === 12) {
    width = dv.getUint16(info + 4, true);
    height = dv.getInt16(info + 6, true);
    bpp = dv.getUint16(info + 10, true);
    paletteEntry = 3;
  } else if (headerSize >= 40 && info + 40 <= b.length) {
    width = dv.getInt32(info + 4, true);
    height = dv.getInt32(info + 8, true);
    bpp = dv.getUint16(info + 14, true);
    compression = dv.getUint32(info + 16, true);
    used = dv.getUint32(info + 32, true);
  } else {
    return undefined;
  }
  const bottomUp = height > 0;
  height = Math.abs(height);
  if (width <= 0 || height <= 0 || width * height > MAX_DIB_PIXELS) return undefined;
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) return undefined;
  // BI_RGB and BI_BITFIELDS only (3: masks after a 40-byte header or inside a V4/V5 header)
  if (compression !== 0 && compression !== 3) return undefined;
  let masks: [number, number, number] | undefined;
  let palettePos = info + headerSize;
  if (compression === 3) {
    const at = headerSize === 40 ? info + 40 : info + 40;
    if (at + 12 > b.length) return undefined;
    masks = [dv.getUint32(at, true), dv.getUint32(at + 4, true), dv.getUint32(at + 8, true)];
    if (headerSize === 40) palettePos += 12;
  }
  const colors = bpp <= 8 ? (used > 0 && used <= 1 << bpp ? used : 1 << bpp) : 0;
  const palette: number[] = [];
  for (let i = 0; i < colors; i++) {
    const p = palettePos + i * paletteEntry;
    if (p + 3 > b.length) break;
    palette.push((b[p + 2]! << 16) | (b[p + 1]! << 8) | b[p]!);
  }
  const stride = Math.floor((width * bpp + 31) / 32) * 4;
  const start = bits ?? palettePos + colors * paletteEntry;
  const avail = Math.min(b.length - start, bitsLen ?? Infinity);
  if (start < 0 || avail < stride * height) return undefined;
  const canvas = createCanvas(width, height);
  const cx = canvas.getContext('2d');
  const img = cx.createImageData(width, height);
  const d = img.data;
  const shiftOf = (m: number): number => (m === 0 ? 0 : 31 - Math.clz32(m & -m));
  const scaleOf = (m: number): number => (m === 0 ? 0 : 255 / (m >>> shiftOf(m)));
  const [mr, mg, mb] = masks ?? (bpp === 16 ? [0x7c00, 0x03e0, 0x001f] : [0xff0000, 0xff00, 0xff]);
  for (let row = 0; row < height; row++) {
    const src = start + (bottomUp ? height - 1 - row : row) * stride;
    let o = row * width * 4;
    for (let x = 0; x < width; x++, o += 4) {
      let rgb: number;
      let a = 255;
      if (bpp === 24) {
        const p = src + x * 3;
        rgb = (b[p + 2]! << 16) | (b[p + 1]! << 8) | b[p]!;
      } else if (bpp === 32 || bpp === 16) {
        const v = bpp === 32 ? dv.getUint32(src + x * 4, true) : dv.getUint16(src + x * 2, true);
        if (!masks && bpp === 32) {
          rgb = v & 0xffffff;
          if (alpha) a = v >>> 24;
        } else {
          const r = Math.round(((v & mr) >>> shiftOf(mr)) * scaleOf(mr));
          const g = Math.round(((v & mg) >>> shiftOf(mg)) * scaleOf(mg));
          const bl = Math.round(((v & mb) >>> shiftOf(mb)) * scaleOf(mb));
          rgb = (r << 16) | (g << 8) | bl;
        }
      } else {
        const bit = x * bpp;
        const byte = b[src + (bit >> 3)]!;
        const idx = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        rgb = palette[idx] ?? 0;
      }
      d[o] = (rgb >> 16) & 255;
      d[o + 1] = (rgb >> 8) & 255;
      d[o + 2] = rgb & 255;
      d[o + 3] = a;
    }
  }
  cx.putImageData(img, 0, 0);
  return { canvas, width, height, bottomUp };
}
