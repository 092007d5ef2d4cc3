/**
 * Image blocks: the bytes of a picture checked from their header before anything else
 * (format by magic number: PNG, JPEG, GIF; pixel dimensions from PNG IHDR, the JPEG frame
 * header SOFn, the GIF logical screen descriptor), the crop that fills a placeholder while
 * keeping the picture's aspect (`a:srcRect`, ECMA-376 Part 1, §20.1.8.55), and the
 * picture shape (`p:pic`, §19.3.1.37) that shows it.
 *
 * Geometry is in EMU (914 400 per inch); crop offsets in thousandths of a percent
 * (ST_Percentage: 100000 = 100 %).
 */
import type { ImageBlock } from '../../domain/content.js';
import { exceedsPixelLimits, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, readPictureHeader } from '../../ooxml/image-header.js';
import { NS, createElement, type Document, type Element } from '../../ooxml/xml.js';
import { EngineError } from '../../ooxml/errors.js';
import { nonVisualProps, setRect, type Rect } from './shapes.js';
import { xmlSafeText } from './text.js';

/** Largest decoded picture accepted, bytes (checked from the base64 length before decoding). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
// the project's one pixel limit (50 megapixels, 32767 px a side), also held by template pictures
export { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../../ooxml/image-header.js';

/** Formats an image block may hold. */
export type ImageFormat = 'png' | 'jpeg' | 'gif';

export interface ImageInfo {
  format: ImageFormat;
  /** Pixels. */
  width: number;
  height: number;
  contentType: string;
  /** Part name extension. */
  extension: string;
}

/** Why an image block cannot be placed; `code` becomes the slide error's code. */
export class ImageError extends EngineError<'image_invalid' | 'image_unsupported' | 'image_too_large'> {
  override readonly name = 'ImageError';
}

const FORMATS: Readonly<Record<ImageFormat, { contentType: string; extension: string }>> = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpeg' },
  gif: { contentType: 'image/gif', extension: 'gif' },
};

/**
 * What the first bytes say: a format an image block may hold with its dimensions (0 when
 * the bytes at hand do not reach them), or the name of another format (or `unknown`).
 * The header reader is the project's one ({@link readPictureHeader}).
 */
export function sniffImage(b: Uint8Array): { format: ImageFormat; width: number; height: number } | { format: string; width?: undefined; height?: undefined } {
  const h = readPictureHeader(b);
  if (h.format === 'png' || h.format === 'jpeg' || h.format === 'gif') return { format: h.format, width: h.width, height: h.height };
  return { format: h.format };
}

/** Decoded size of a base64 text (without decoding it), bytes. */
export function base64DecodedLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x3d && c > 0x20) n++;
  }
  return Math.floor((n * 3) / 4);
}

/**
 * The bytes and facts of an image block. Checks, in order and before anything is
 * decoded beyond what each needs: a source is given, the decoded size (from the base64
 * length), the format (magic number), the pixel dimensions (header).
 *
 * @throws ImageError `image_invalid` (no data, not base64, header without dimensions),
 *   `image_unsupported` (asset ids, formats other than PNG/JPEG/GIF), `image_too_large`
 */
export function decodeImageBlock(block: ImageBlock): { bytes: Uint8Array; info: ImageInfo; warnings: string[] } {
  const warnings: string[] = [];
  let text = block.data_base64 ?? '';
  if (!text) {
    if (block.asset_id) throw new ImageError('image_unsupported', `image asset ${block.asset_id} cannot be used: this deployment has no asset store; send the picture as data_base64`);
    throw new ImageError('image_invalid', 'the image block has neither data_base64 nor asset_id');
  }
  const dataUrl = /^data:([^;,]*)(;base64)?,/i.exec(text.slice(0, 200));
  if (dataUrl) text = text.slice(dataUrl[0].length);
  const size = base64DecodedLength(text);
  if (size > MAX_IMAGE_BYTES) throw new ImageError('image_too_large', `the image is ${size} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(text)) throw new ImageError('image_invalid', 'data_base64 is not base64');
  // the header alone first: a few KiB are enough for PNG and GIF and for most JPEGs
  const headLen = Math.min(text.replace(/\s+/g, '').length, 65_536) & ~3;
  const head = new Uint8Array(Buffer.from(text.replace(/\s+/g, '').slice(0, headLen), 'base64'));
  let sniff = sniffImage(head);
  if (sniff.format === 'jpeg' && sniff.width === 0 && headLen < text.length) sniff = { format: 'jpeg', width: -1, height: -1 };
  if (sniff.width === undefined) throw new ImageError('image_unsupported', `the image is ${sniff.format === 'unknown' ? 'in an unknown format' : `a ${sniff.format.toUpperCase()} image`}; PNG, JPEG and GIF are accepted`);
  if (sniff.width > 0) checkDimensions(sniff.width, sniff.height);
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  const full = sniff.width === -1 ? sniffImage(bytes) : sniff;
  if (full.width === undefined || full.format !== sniff.format) throw new ImageError('image_invalid', 'the image header cannot be read');
  if (!full.width || !full.height) throw new ImageError('image_invalid', `the ${full.format.toUpperCase()} header has no pixel dimensions`);
  checkDimensions(full.width, full.height);
  const format = full.format as ImageFormat;
  const declared = block.content_type?.trim().toLowerCase();
  if (declared && declared !== FORMATS[format].contentType && !(format === 'jpeg' && declared === 'image/jpg')) {
    warnings.push(`the image was declared ${declared} but is ${FORMATS[format].contentType}; stored as ${FORMATS[format].contentType}`);
  }
  return { bytes, info: { format, width: full.width, height: full.height, ...FORMATS[format] }, warnings };
}

function checkDimensions(width: number, height: number): void {
  if (exceedsPixelLimits(width, height)) {
    throw new ImageError('image_too_large', `the image is ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS} pixels and ${MAX_IMAGE_SIDE} per side are accepted`);
  }
}

/** Crop offsets of `a:srcRect` in thousandths of a percent of the picture (l, t, r, b; 0 = no crop on that side). */
export interface SrcRect {
  l: number;
  t: number;
  r: number;
  b: number;
}

/**
 * The crop that makes a `width` × `height` picture fill a `boxCx` × `boxCy` box without
 * distortion, centred: the picture's wider dimension (relative to the box) is cut equally
 * on both sides. With aspect A = width/height and box aspect B = cx/cy: when A > B, the
 * visible width is B/A of the picture and l = r = (1 − B/A)/2; when A < B, t = b = (1 − A/B)/2.
 */
export function cropToFill(width: number, height: number, boxCx: number, boxCy: number): SrcRect {
  const none: SrcRect = { l: 0, t: 0, r: 0, b: 0 };
  if (!(width > 0 && height > 0 && boxCx > 0 && boxCy > 0)) return none;
  const a = width / height;
  const box = boxCx / boxCy;
  if (Math.abs(a - box) / box < 1e-6) return none;
  if (a > box) {
    const side = Math.round(((1 - box / a) / 2) * 100_000);
    return { l: side, t: 0, r: side, b: 0 };
  }
  const side = Math.round(((1 - a / box) / 2) * 100_000);
  return { l: 0, t: side, r: 0, b: side };
}

/** What a picture shape needs. */
export interface PictureSpec {
  id: number;
  name: string;
  /** Alternative text (`p:cNvPr/@descr`). */
  descr?: string;
  /** Relationship id of the image part (`a:blip/@r:embed`). */
  rId: string;
  /** EMU. */
  rect: Rect;
  crop: SrcRect;
  /** The placeholder's `p:ph` to copy (type, idx, ...), or undefined for a free picture. */
  ph?: Element;
}

/** A `p:pic` (§19.3.1.37) showing the image `rId`, stretched into `rect` after `crop`. */
export function buildPicture(doc: Document, spec: PictureSpec): Element {
  const pic = createElement(doc, NS.p, 'p:pic');
  const nv = createElement(doc, NS.p, 'p:nvPicPr');
  nv.appendChild(createElement(doc, NS.p, 'p:cNvPr', { id: spec.id, name: spec.name, descr: spec.descr ? xmlSafeText(spec.descr) : undefined }));
  const cNvPicPr = createElement(doc, NS.p, 'p:cNvPicPr');
  cNvPicPr.appendChild(createElement(doc, NS.a, 'a:picLocks', { noGrp: spec.ph ? '1' : undefined, noChangeAspect: '1' }));
  nv.appendChild(cNvPicPr);
  nv.appendChild(nonVisualProps(doc, spec.ph));
  pic.appendChild(nv);
  const blipFill = createElement(doc, NS.p, 'p:blipFill');
  const blip = createElement(doc, NS.a, 'a:blip');
  blip.setAttributeNS(NS.r, 'r:embed', spec.rId);
  blipFill.appendChild(blip);
  const { l, t, r, b } = spec.crop;
  blipFill.appendChild(createElement(doc, NS.a, 'a:srcRect', { l: l || undefined, t: t || undefined, r: r || undefined, b: b || undefined }));
  const stretch = createElement(doc, NS.a, 'a:stretch');
  stretch.appendChild(createElement(doc, NS.a, 'a:fillRect'));
  blipFill.appendChild(stretch);
  pic.appendChild(blipFill);
  const spPr = createElement(doc, NS.p, 'p:spPr');
  const xfrm = createElement(doc, NS.a, 'a:xfrm');
  setRect(doc, xfrm, spec.rect);
  spPr.appendChild(xfrm);
  if (!spec.ph) {
    const geom = createElement(doc, NS.a, 'a:prstGeom', { prst: 'rect' });
    geom.appendChild(createElement(doc, NS.a, 'a:avLst'));
    spPr.appendChild(geom);
  }
  pic.appendChild(spPr);
  return pic;
}
