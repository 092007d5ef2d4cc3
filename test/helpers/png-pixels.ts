/**
 * A PNG's pixels for tests that look at what a preview drew: width, height (px) and the
 * RGB colour at a point (rounded to the nearest pixel).
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';

export type Rgb = [number, number, number];

export interface PngPixels {
  w: number;
  h: number;
  at(x: number, y: number): Rgb;
}

/** Decodes `png` and returns its size and a colour reader. */
export async function pngPixels(png: Uint8Array): Promise<PngPixels> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  const d = c.getContext('2d').getImageData(0, 0, img.width, img.height).data;
  return {
    w: img.width,
    h: img.height,
    at: (x, y) => {
      const i = (Math.round(y) * img.width + Math.round(x)) * 4;
      return [d[i]!, d[i + 1]!, d[i + 2]!];
    },
  };
}
