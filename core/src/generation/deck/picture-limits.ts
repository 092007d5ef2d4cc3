/**
 * Template pictures past the pixel limits ({@link MAX_IMAGE_PIXELS} pixels, {@link
 * MAX_IMAGE_SIDE} px a side, the same limits image blocks are held to) are never delivered
 * as they are in a generated deck: such a picture is a decompression bomb for whoever opens
 * the deck (a 30000 × 30000 px PNG of a few hundred bytes is 3.6 GB of pixels), and the
 * OOXML referee flags it.
 *
 * What a deck gets instead, decided from the header alone ({@link planOversizedPicture}):
 *
 * - **downsampled** (`downsample`): when decoding it is bounded, that is, the picture has at
 *   most {@link MAX_DECODED_PIXELS} pixels (400 MB of RGBA at 4 bytes a pixel, for the
 *   moment of the copy) and is in a format Skia decodes (PNG, JPEG, GIF, BMP, WebP): it is
 *   decoded and drawn at the largest size with at most {@link DOWNSAMPLED_PIXELS} pixels
 *   (4096 × 4096; more than a widescreen slide printed at 300 dpi needs, 4000 × 2250), its
 *   aspect kept; a JPEG stays a JPEG (quality 90), anything else becomes a PNG (GIF: its
 *   first frame).
 * - **replaced** (`replace`): otherwise (a bomb, or TIFF), or when decoding fails: a plain
 *   light grey picture ({@link STAND_IN_RGB}) of the same aspect whose longer side is
 *   {@link STAND_IN_SIDE} px. A stand-in rather than removing the picture: every shape,
 *   background, table cell and theme fill that shows it keeps a valid reference (a
 *   background or a fill may not simply lose its `a:blip`, ECMA-376 Part 1, §20.1.8.14),
 *   geometry and crop stay as they are (`a:stretch`/`a:srcRect` are relative), and the
 *   author sees where a picture belongs and can change it.
 *
 * Planning reads headers only and loads no native code (the template doctor uses it);
 * Skia is loaded when a picture is made.
 */
import type { Image } from '@napi-rs/canvas';
import { exceedsPixelLimits, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, readPictureHeader, type PictureHeader, type PixelLimits, type RasterFormat } from '../../ooxml/image-header.js';
import { encodeOpaquePng } from '../../render/png.js';

/** Largest template picture decoded to make a downsampled copy, pixels: 100 megapixels (400 MB decoded). */
export const MAX_DECODED_PIXELS = 100_000_000;
/** Largest downsampled copy, pixels: 2^24 (4096 × 4096). */
export const DOWNSAMPLED_PIXELS = 16_777_216;
/** Longer side of the stand-in of a picture that is not decoded, px. */
export const STAND_IN_SIDE = 64;
/** Colour of the stand-in: light grey (D9D9D9, PowerPoint's "Background 1, darker 15 %"). */
export const STAND_IN_RGB: readonly [number, number, number] = [0xd9, 0xd9, 0xd9];
/** JPEG quality of a downsampled JPEG, 0–100. */
const JPEG_QUALITY = 90;

/** What generation holds template pictures to. */
export interface TemplatePictureLimits extends PixelLimits {
  /** Largest picture decoded to downsample it, pixels. */
  maxDecodedPixels: number;
  /** Largest downsampled copy, pixels. */
  downsampledPixels: number;
  /** Longer side of a stand-in, px. */
  standInSide: number;
}

/** The limits generation uses (tests pass smaller ones). */
export const TEMPLATE_PICTURE_LIMITS: Readonly<TemplatePictureLimits> = Object.freeze({
  maxPixels: MAX_IMAGE_PIXELS,
  maxSide: MAX_IMAGE_SIDE,
  maxDecodedPixels: MAX_DECODED_PIXELS,
  downsampledPixels: DOWNSAMPLED_PIXELS,
  standInSide: STAND_IN_SIDE,
});

/** What generation does with a picture past the limits. */
export type OversizedAction = 'downsample' | 'replace';

/** Formats Skia (`@napi-rs/canvas`) decodes. */
const DECODABLE: ReadonlySet<RasterFormat> = new Set(['png', 'jpeg', 'gif', 'bmp', 'webp']);

/** A picture past the limits and what it becomes. */
export interface OversizedPicture {
  /** The header's format and dimensions, px (both > 0). */
  header: PictureHeader & { format: RasterFormat };
  action: OversizedAction;
  /** Format of what is delivered: `image/jpeg` for a JPEG downsampled, else `image/png`. */
  contentType: 'image/png' | 'image/jpeg';
  /** Part name extension of what is delivered. */
  extension: 'png' | 'jpeg';
  /** Planned size of what is delivered, px. */
  width: number;
  height: number;
}

/** What is delivered in place of an oversized picture. */
export interface DeliveredPicture {
  bytes: Uint8Array;
  /** `replace` also when a planned downsampling could not decode the picture. */
  action: OversizedAction;
  /** Px. */
  width: number;
  height: number;
  /** Why a planned downsampling fell back to a stand-in. */
  reason?: string;
}

/**
 * The plan for a picture whose header says it is past the limits, from its header alone;
 * undefined when it is within them, or not a raster picture with known dimensions.
 */
export function planOversizedPicture(bytes: Uint8Array, limits: TemplatePictureLimits = TEMPLATE_PICTURE_LIMITS): OversizedPicture | undefined {
  const h = readPictureHeader(bytes);
  if (h.format === 'svg' || h.format === 'emf' || h.format === 'wmf' || h.format === 'unknown') return undefined;
  if (!(h.width > 0 && h.height > 0) || !exceedsPixelLimits(h.width, h.height, limits)) return undefined;
  const header = { format: h.format, width: h.width, height: h.height };
  if (DECODABLE.has(h.format) && h.width * h.height <= limits.maxDecodedPixels) {
    const { width, height } = downsampledSize(h.width, h.height, limits);
    const jpeg = h.format === 'jpeg';
    return { header, action: 'downsample', contentType: jpeg ? 'image/jpeg' : 'image/png', extension: jpeg ? 'jpeg' : 'png', width, height };
  }
  return { header, action: 'replace', contentType: 'image/png', extension: 'png', ...standInSize(h.width, h.height, limits.standInSide) };
}

/** The largest size with the picture's aspect, at most `downsampledPixels` and `maxSide` a side, px. */
export function downsampledSize(width: number, height: number, limits: TemplatePictureLimits = TEMPLATE_PICTURE_LIMITS): { width: number; height: number } {
  const scale = Math.min(1, Math.sqrt(limits.downsampledPixels / (width * height)), limits.maxSide / width, limits.maxSide / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/** The stand-in's size: the picture's aspect with the longer side `side` px (the shorter at least 1 px). */
export function standInSize(width: number, height: number, side: number = STAND_IN_SIDE): { width: number; height: number } {
  const scale = side / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Makes what a deck gets for an oversized picture: its downsampled copy (when the plan says
 * so and it decodes), else its stand-in, in the plan's format.
 */
export async function deliverOversizedPicture(bytes: Uint8Array, plan: OversizedPicture, limits: TemplatePictureLimits = TEMPLATE_PICTURE_LIMITS): Promise<DeliveredPicture> {
  if (plan.action === 'downsample') {
    let reason: string;
    try {
      const { createCanvas } = await import('@napi-rs/canvas');
      const img = await decode(bytes);
      const { width, height } = img.width === plan.header.width && img.height === plan.header.height ? plan : downsampledSize(img.width, img.height, limits);
      const canvas = createCanvas(width, height);
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, width, height);
      const out = plan.contentType === 'image/jpeg' ? await canvas.encode('jpeg', JPEG_QUALITY) : await canvas.encode('png');
      return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), action: 'downsample', width, height };
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
    const size = standInSize(plan.header.width, plan.header.height, limits.standInSide);
    return { bytes: await standIn(size.width, size.height, plan.contentType), action: 'replace', ...size, reason };
  }
  return { bytes: await standIn(plan.width, plan.height, plan.contentType), action: 'replace', width: plan.width, height: plan.height };
}

/** Decodes a picture with Skia. @throws Error when it cannot be decoded */
async function decode(bytes: Uint8Array): Promise<Image> {
  const { Image } = await import('@napi-rs/canvas');
  const img = new Image();
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = (err: Error) => reject(err);
    img.src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });
  if (!(img.width > 0 && img.height > 0)) throw new Error('the decoder gave no pixels');
  return img;
}

/** A `width` × `height` px picture of {@link STAND_IN_RGB}. */
async function standIn(width: number, height: number, contentType: OversizedPicture['contentType']): Promise<Uint8Array> {
  if (contentType === 'image/jpeg') {
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = `rgb(${STAND_IN_RGB.join(',')})`;
    ctx.fillRect(0, 0, width, height);
    const out = await canvas.encode('jpeg', JPEG_QUALITY);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([STAND_IN_RGB[0], STAND_IN_RGB[1], STAND_IN_RGB[2], 255], i);
  return encodeOpaquePng(rgba, width, height, 9);
}
