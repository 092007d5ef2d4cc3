/**
 * Template pictures past the pixel limits (issue 17, item 5), below the deck: the header
 * reader on every format it knows (PNG, JPEG, GIF, BMP, WebP's three kinds, TIFF in both
 * byte orders, truncated headers), the one limit (50 megapixels, 32767 px a side) shared
 * with image blocks, the plan made from the header alone (downsample when decoding is
 * bounded, else a stand-in), and what is made: downsampled copies within the limits with
 * the picture's colours, stand-ins of the picture's aspect, a stand-in when decoding fails.
 */
import t from 'tap';
import { exceedsPixelLimits, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, PIXEL_LIMITS, readPictureHeader } from '../../../core/src/ooxml/image-header.js';
import { MAX_IMAGE_PIXELS as BLOCK_MAX_PIXELS, MAX_IMAGE_SIDE as BLOCK_MAX_SIDE } from '../../../core/src/generation/slide/images.js';
import { MAX_IMAGE_PIXELS as RENDER_MAX_PIXELS, decodeImage } from '../../../core/src/render/images.js';
import {
  deliverOversizedPicture,
  downsampledSize,
  MAX_DECODED_PIXELS,
  planOversizedPicture,
  standInSize,
  STAND_IN_RGB,
  TEMPLATE_PICTURE_LIMITS,
  type TemplatePictureLimits,
} from '../../../core/src/generation/deck/picture-limits.js';
import { halvesJpeg, rampPng } from '../../fixtures/oversized-pictures-template.js';
import { hugeGif, hugeJpeg, hugePng, hugeWebp } from '../../hostile/samples.js';

const le16 = (v: number): number[] => [v & 255, (v >> 8) & 255];
const le32 = (v: number): number[] => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
const be16 = (v: number): number[] => [(v >> 8) & 255, v & 255];
const be32 = (v: number): number[] => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];

/** A BMP file header and BITMAPINFOHEADER (40 bytes) for `w` × `h` (negative `h`: top-down). */
function bmpHeader(w: number, h: number): Uint8Array {
  return new Uint8Array([0x42, 0x4d, ...le32(54), 0, 0, 0, 0, ...le32(54), ...le32(40), ...le32(w), ...le32(h >>> 0), ...le16(1), ...le16(24), ...new Array<number>(24).fill(0)]);
}

/** A BMP with the old BITMAPCOREHEADER (12 bytes, 16-bit sides). */
function bmpCoreHeader(w: number, h: number): Uint8Array {
  return new Uint8Array([0x42, 0x4d, ...le32(26), 0, 0, 0, 0, ...le32(26), ...le32(12), ...le16(w), ...le16(h), ...le16(1), ...le16(24)]);
}

function riff(kind: string, payload: number[]): Uint8Array {
  const body = [...Buffer.from('WEBP'), ...Buffer.from(kind), ...le32(payload.length), ...payload];
  return new Uint8Array([...Buffer.from('RIFF'), ...le32(body.length), ...body]);
}

/** A TIFF whose first IFD holds ImageWidth and ImageLength (SHORT or LONG values). */
function tiff(little: boolean, w: number, h: number, type: 3 | 4): Uint8Array {
  const u16 = little ? le16 : be16;
  const u32 = little ? le32 : be32;
  const entry = (tag: number, v: number): number[] => [...u16(tag), ...u16(type), ...u32(1), ...(type === 3 ? [...u16(v), 0, 0] : u32(v))];
  return new Uint8Array([...(little ? [0x49, 0x49, 42, 0] : [0x4d, 0x4d, 0, 42]), ...u32(8), ...u16(3), ...entry(254, 0), ...entry(256, w), ...entry(257, h), ...u32(0)]);
}

t.test('one pixel limit: image blocks, template pictures and previews share it', async (t) => {
  t.equal(MAX_IMAGE_PIXELS, 50_000_000, '50 megapixels');
  t.equal(MAX_IMAGE_SIDE, 32_767);
  t.equal(BLOCK_MAX_PIXELS, MAX_IMAGE_PIXELS, 'image blocks');
  t.equal(BLOCK_MAX_SIDE, MAX_IMAGE_SIDE);
  t.equal(RENDER_MAX_PIXELS, MAX_IMAGE_PIXELS, 'previews decode nothing larger');
  t.same({ maxPixels: TEMPLATE_PICTURE_LIMITS.maxPixels, maxSide: TEMPLATE_PICTURE_LIMITS.maxSide }, PIXEL_LIMITS, 'template pictures');
  t.ok(MAX_IMAGE_PIXELS < 2 ** 28, "stricter than the OOXML referee's 2^28 pixels");
  t.notOk(exceedsPixelLimits(7071, 7071), '7071² = 49999041 px is within');
  t.ok(exceedsPixelLimits(7072, 7072), '7072² = 50013184 px is past');
  t.ok(exceedsPixelLimits(32_768, 10), 'a side past 32767');
  t.notOk(exceedsPixelLimits(32_767, 1000));
});

t.test('headers: dimensions of every raster format from the first bytes, nothing decoded', async (t) => {
  t.same(readPictureHeader(hugePng(30_000, 30_000)), { format: 'png', width: 30_000, height: 30_000 });
  t.same(readPictureHeader(hugeJpeg()), { format: 'jpeg', width: 65_500, height: 65_500 }, 'JPEG: SOF0 after APP0, DQT');
  t.same(readPictureHeader(hugeGif()), { format: 'gif', width: 65_535, height: 65_535 });
  t.same(readPictureHeader(hugeWebp()), { format: 'webp', width: 16_777_216, height: 16_777_216 }, 'WebP VP8X canvas');
  t.same(readPictureHeader(bmpHeader(40_000, 30_000)), { format: 'bmp', width: 40_000, height: 30_000 });
  t.same(readPictureHeader(bmpHeader(800, -600)), { format: 'bmp', width: 800, height: 600 }, 'a top-down BMP (negative height)');
  t.same(readPictureHeader(bmpCoreHeader(640, 480)), { format: 'bmp', width: 640, height: 480 }, 'BITMAPCOREHEADER');
  // VP8: frame tag (3 bytes), start code 9d 01 2a, 14-bit width and height
  t.same(readPictureHeader(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(16_000), ...le16(9_000), 0, 0])), { format: 'webp', width: 16_000, height: 9_000 });
  // VP8L: signature 2f, then width − 1 and height − 1 in 14 bits each
  const bits = (12_000 - 1) | ((11_000 - 1) << 14);
  t.same(readPictureHeader(riff('VP8L', [0x2f, ...le32(bits), 0, 0, 0, 0, 0])), { format: 'webp', width: 12_000, height: 11_000 });
  t.same(readPictureHeader(tiff(true, 60_000, 50_000, 4)), { format: 'tiff', width: 60_000, height: 50_000 }, 'TIFF little-endian, LONG values');
  t.same(readPictureHeader(tiff(false, 40_000, 20_000, 3)), { format: 'tiff', width: 40_000, height: 20_000 }, 'TIFF big-endian, SHORT values');
  const jpeg = await halvesJpeg(240, 160);
  t.same(readPictureHeader(jpeg), { format: 'jpeg', width: 240, height: 160 }, "a real JPEG (Skia's encoder)");
  t.same(readPictureHeader(rampPng(300, 200)), { format: 'png', width: 300, height: 200 });
});

t.test('headers: truncated or odd bytes give 0, never a read past the end; other formats are named', async (t) => {
  t.same(readPictureHeader(hugePng().subarray(0, 20)), { format: 'png', width: 0, height: 0 }, 'PNG cut inside IHDR');
  t.same(readPictureHeader(hugeJpeg().subarray(0, 30)), { format: 'jpeg', width: 0, height: 0 }, 'JPEG cut before SOF');
  t.same(readPictureHeader(hugeGif().subarray(0, 8)), { format: 'gif', width: 0, height: 0 });
  t.same(readPictureHeader(tiff(true, 10, 10, 4).subarray(0, 12)), { format: 'tiff', width: 0, height: 0 }, 'TIFF cut inside its IFD');
  t.same(readPictureHeader(riff('VP8 ', [0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0])), { format: 'webp', width: 0, height: 0 }, 'VP8 without its start code');
  t.equal(readPictureHeader(new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')).format, 'svg');
  t.equal(readPictureHeader(new Uint8Array([0xd7, 0xcd, 0xc6, 0x9a, 0, 0])).format, 'wmf');
  t.equal(readPictureHeader(new TextEncoder().encode('hello')).format, 'unknown');
  t.equal(readPictureHeader(new Uint8Array(0)).format, 'unknown');
});

t.test('the plan comes from the header: within the limits nothing, bounded decoding a downsampled copy, else a stand-in', async (t) => {
  t.equal(planOversizedPicture(rampPng(300, 200)), undefined, 'within the limits');
  t.equal(planOversizedPicture(new TextEncoder().encode('<svg/>')), undefined, 'vector pictures have no pixel limits');
  t.equal(planOversizedPicture(hugePng().subarray(0, 20)), undefined, 'no dimensions, no plan');
  t.match(planOversizedPicture(hugePng(30_000, 30_000)), { action: 'replace', contentType: 'image/png', extension: 'png', width: 64, height: 64, header: { format: 'png', width: 30_000, height: 30_000 } }, '900 megapixels: a stand-in');
  t.match(planOversizedPicture(hugeJpeg()), { action: 'replace', contentType: 'image/png', width: 64, height: 64 }, 'a JPEG bomb too');
  t.match(planOversizedPicture(tiff(true, 60_000, 500, 4)), { action: 'replace', width: 64, height: 1 }, 'TIFF is not decoded: a stand-in of its aspect');
  t.match(planOversizedPicture(hugePng(8_000, 7_000)), { action: 'downsample', contentType: 'image/png', width: 4378, height: 3831 }, '56 megapixels decode within the bound: downsampled to at most 2^24 pixels');
  t.match(planOversizedPicture(hugePng(40_000, 100)), { action: 'downsample', width: 32_767, height: 81 }, 'a long side is brought within 32767');
  t.ok(MAX_DECODED_PIXELS >= 2 * MAX_IMAGE_PIXELS, 'the decode bound leaves room above the limit');
  t.match(planOversizedPicture(hugePng(10_000, 10_000)), { action: 'downsample' }, 'exactly 100 megapixels: decoded');
  t.match(planOversizedPicture(hugePng(10_001, 10_000)), { action: 'replace' }, 'one row more: not decoded');
  const small: TemplatePictureLimits = { ...TEMPLATE_PICTURE_LIMITS, maxPixels: 10_000, maxDecodedPixels: 1_000_000, downsampledPixels: 5_000 };
  t.match(planOversizedPicture(await halvesJpeg(240, 160), small), { action: 'downsample', contentType: 'image/jpeg', extension: 'jpeg', width: 86, height: 57 }, 'a JPEG stays a JPEG');
  t.match(planOversizedPicture(hugeGif(), { ...small, maxDecodedPixels: 5e9 }), { action: 'downsample', contentType: 'image/png' }, 'a GIF becomes a PNG');
  for (const [w, h] of [
    [30_000, 30_000],
    [65_535, 1],
    [7_073, 7_073],
    [123_456, 54_321],
  ] as const) {
    const d = downsampledSize(w, h);
    t.ok(!exceedsPixelLimits(d.width, d.height) && d.width * d.height <= 16_777_216 && d.width >= 1 && d.height >= 1, `${w} × ${h} downsampled to ${d.width} × ${d.height}`);
    t.ok(Math.abs(d.width / d.height - w / h) / (w / h) < 0.02 || d.height === 1, 'aspect kept');
    const s = standInSize(w, h);
    t.equal(Math.max(s.width, s.height), 64, `stand-in ${s.width} × ${s.height}`);
  }
});

t.test('what is made: downsampled copies within the limits keep the picture; stand-ins are plain; failures fall back', async (t) => {
  const small: TemplatePictureLimits = { ...TEMPLATE_PICTURE_LIMITS, maxPixels: 10_000, maxDecodedPixels: 1_000_000, downsampledPixels: 5_000 };
  const pixelsOf = async (bytes: Uint8Array): Promise<{ w: number; h: number; at: (x: number, y: number) => number[] }> => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const img = await decodeImage(bytes);
    if (typeof img === 'string' || !('src' in img)) throw new Error(`not a raster picture: ${String(img)}`);
    const c = createCanvas(img.width, img.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, img.height).data;
    return { w: img.width, h: img.height, at: (x, y) => [...data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)] };
  };

  const jpeg = await halvesJpeg(240, 160);
  const jplan = planOversizedPicture(jpeg, small)!;
  const j = await deliverOversizedPicture(jpeg, jplan, small);
  t.match(j, { action: 'downsample', width: 86, height: 57 });
  t.same(readPictureHeader(j.bytes), { format: 'jpeg', width: 86, height: 57 }, 'a JPEG within the limits');
  const jp = await pixelsOf(j.bytes);
  const [r1, , b1] = jp.at(10, 28);
  const [r2, , b2] = jp.at(75, 28);
  t.ok(r1! > 150 && b1! < 80 && b2! > 150 && r2! < 80, `the picture is kept: red left (${jp.at(10, 28)}), blue right (${jp.at(75, 28)})`);

  const png = rampPng(300, 200);
  const p = await deliverOversizedPicture(png, planOversizedPicture(png, small)!, small);
  t.same(readPictureHeader(p.bytes), { format: 'png', width: 86, height: 57 });
  const pp = await pixelsOf(p.bytes);
  t.ok(pp.at(85, 0)[0]! > pp.at(0, 0)[0]! + 150, 'the ramp still runs left to right');

  // a PNG bomb within the decode bound: only 4 of its 600 rows hold data; it decodes (the rest is blank) and is downsampled
  const bomb = hugePng(600, 400);
  const b = await deliverOversizedPicture(bomb, planOversizedPicture(bomb, small)!, small);
  t.match(b, { action: 'downsample' });
  t.notOk(exceedsPixelLimits(b.width, b.height, small), `${b.width} × ${b.height} is within the test's limits`);

  // a 30000² PNG bomb: a 64 × 64 stand-in, light grey and opaque
  const big = hugePng(30_000, 30_000);
  const s = await deliverOversizedPicture(big, planOversizedPicture(big)!);
  t.match(s, { action: 'replace', width: 64, height: 64 });
  t.same(readPictureHeader(s.bytes), { format: 'png', width: 64, height: 64 });
  const sp = await pixelsOf(s.bytes);
  t.same(sp.at(0, 0), [...STAND_IN_RGB, 255]);
  t.same(sp.at(63, 63), [...STAND_IN_RGB, 255]);
  t.ok(s.bytes.length < 1024, `${s.bytes.length} bytes`);

  // a picture planned for downsampling (from its header) that cannot be decoded: a stand-in in the planned format
  const bf = await deliverOversizedPicture(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), jplan, small);
  t.match(bf, { action: 'replace', reason: String, width: 64, height: 43 }, `a stand-in of the planned picture's aspect (${bf.reason})`);
  t.equal(readPictureHeader(bf.bytes).format, 'jpeg', 'a JPEG stand-in: the part name keeps its planned extension');
});
