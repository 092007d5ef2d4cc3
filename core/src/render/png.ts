/**
 * A fast PNG encoder for opaque canvases (PNG spec, ISO/IEC 15948: IHDR colour type 6,
 * 8-bit RGBA straight from the canvas, filter type 0 on every row, zlib level 1). Slides
 * are opaque (the renderer paints white first), so the premultiplied canvas pixels are
 * the plain colours and the constant alpha costs zlib almost nothing. Several times
 * faster than Skia's general encoder, which tries every filter on every row at level 6.
 */
import { promisify } from 'node:util';
import { crc32, deflate, deflateSync } from 'node:zlib';

const deflateAsync = promisify(deflate);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/**
 * Encodes opaque RGBA pixels (row-major, 4 bytes per pixel) as a PNG.
 *
 * @param level - zlib level (1–9), 1 by default (slides are mostly flat colour; level 1 is
 *   about 40 % faster than 3 for files about 3 % larger)
 */
export function encodeOpaquePng(rgba: Uint8Array, width: number, height: number, level = 1): Uint8Array {
  return assemble(width, height, deflateSync(filterRows(rgba, width, height), { level }));
}

/**
 * Like {@link encodeOpaquePng}, with the compression on the libuv thread pool so the
 * caller's thread (and the next slide's drawing) is not held up.
 */
export async function encodeOpaquePngAsync(rgba: Uint8Array, width: number, height: number, level = 1): Promise<Uint8Array> {
  const raw = filterRows(rgba, width, height, takeBuffer((width * 4 + 1) * height));
  try {
    return assemble(width, height, await deflateAsync(raw, { level }));
  } finally {
    giveBack(raw);
  }
}

/** Scanline buffers kept for reuse (a few, by size): a 1280 px slide's is 5 MB, and allocating one per slide keeps the garbage collector busy. */
const spare: Buffer[] = [];

function takeBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length === size);
  return i >= 0 ? spare.splice(i, 1)[0]! : Buffer.allocUnsafe(size);
}

function giveBack(b: Buffer): void {
  if (spare.length < 4) spare.push(b);
}

/**
 * Scanlines as PNG wants them: each row prefixed by its filter byte (0, None) and copied
 * whole (RGBA, a memcpy per row). Filtering in JavaScript cost more than zlib saves on
 * slides, which are mostly flat colour.
 */
function filterRows(rgba: Uint8Array, width: number, height: number, into?: Buffer): Buffer {
  const row = width * 4;
  const raw = into ?? Buffer.allocUnsafe((row + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (row + 1);
    raw[o] = 0;
    raw.set(rgba.subarray(y * row, y * row + row), o + 1);
  }
  return raw;
}

function assemble(width: number, height: number, idat: Uint8Array): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // truecolour with alpha (always opaque here)
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
