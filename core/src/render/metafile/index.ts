/**
 * Windows metafile pictures (WMF, EMF) drawn as vectors: a picture is read once (header and
 * frame), then its records are played onto whatever 2D context the picture is drawn on, so
 * PNG previews get pixels and PDF pages get paths and text. Hostile files are bounded: at
 * most {@link MAX_RECORDS} records, {@link MAX_OBJECTS} objects, 256 saved states, bitmaps
 * of at most 16 megapixels; a record that does not fit its file ends playback.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { emfPictureRect, playEmf, readEmfHeader, type EmfHeader } from './emf.js';
import { Player } from './player.js';
import { playWmf, readWmfHeader, type WmfHeader } from './wmf.js';

export { MAX_OBJECTS, MAX_RECORDS } from './emf.js';

/** A destination rectangle (the picture's frame after crop), in the context's user units. */
export interface MetafileBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A parsed metafile: `width` × `height` is its natural size in pixels at 96 dpi (for tiling
 * and rasterizing); {@link MetafilePicture.draw} plays it into a box.
 */
export class MetafilePicture {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly emf: EmfHeader | undefined,
    private readonly wmf: WmfHeader | undefined,
    /** Natural width, px at 96 dpi. */
    readonly width: number,
    /** Natural height, px at 96 dpi. */
    readonly height: number,
  ) {}

  /**
   * Reads a WMF (placeable or not) or EMF header.
   * @returns undefined when the bytes are not a metafile with a usable frame
   */
  static parse(bytes: Uint8Array): MetafilePicture | undefined {
    try {
      const emf = readEmfHeader(bytes);
      if (emf) {
        const r = emfPictureRect(emf);
        if (!r || !(r.w > 0) || !(r.h > 0)) return undefined;
        // Natural size: the frame in 0.01 mm at 96 dpi.
        const [fl, ft, fr, fb] = emf.frame;
        const w = fr > fl ? ((fr - fl) / 2540) * 96 : r.w;
        const h = fb > ft ? ((fb - ft) / 2540) * 96 : r.h;
        return new MetafilePicture(bytes, emf, undefined, Math.max(1, Math.round(w)), Math.max(1, Math.round(h)));
      }
      const wmf = readWmfHeader(bytes);
      if (wmf) {
        let w = wmf.frame.w, h = wmf.frame.h;
        // A placeable header says how many logical units make an inch.
        const inch = bytes.length >= 16 && bytes[0] === 0xd7 ? bytes[14]! | (bytes[15]! << 8) : 0;
        if (inch > 0) { w = (w / inch) * 96; h = (h / inch) * 96; }
        const k = Math.min(1, 4096 / Math.max(w, h));
        return new MetafilePicture(bytes, undefined, wmf, Math.max(1, Math.round(w * k)), Math.max(1, Math.round(h * k)));
      }
    } catch {
      // not a metafile we read
    }
    return undefined;
  }

  /**
   * Plays the records into `box` on `ctx` (user units of the context). Never throws: a
   * failure mid-way leaves what was drawn so far and the context's state as it was.
   * @param hairline - thinnest line, user units (default 0.5)
   */
  draw(ctx: SKRSContext2D, box: MetafileBox, hairline = 0.5): void {
    const p = new Player(ctx, { hairline });
    try {
      if (this.emf) {
        const r = emfPictureRect(this.emf)!;
        p.device = { a: box.w / r.w, b: 0, c: 0, d: box.h / r.h, e: box.x - (r.x * box.w) / r.w, f: box.y - (r.y * box.h) / r.h };
        p.touch();
        playEmf(this.bytes, p, this.emf);
      } else if (this.wmf) {
        const f = this.wmf.frame;
        p.device = { a: box.w / f.w, b: 0, c: 0, d: box.h / f.h, e: box.x - (f.x * box.w) / f.w, f: box.y - (f.y * box.h) / f.h };
        p.touch();
        playWmf(this.bytes, p, this.wmf);
      }
    } catch {
      // a malformed record ends playback
    } finally {
      p.finish();
    }
  }

  /** The picture rasterized at `width` × `height` px (for colour effects and tiles). */
  toCanvas(width = this.width, height = this.height): Canvas {
    const c = createCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height)));
    this.draw(c.getContext('2d'), { x: 0, y: 0, w: c.width, h: c.height }, 1);
    return c;
  }
}
