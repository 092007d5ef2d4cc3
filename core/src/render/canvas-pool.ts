/**
 * Canvases kept for reuse, per pixel size. A 1280 × 960 raster surface is 4.9 MB of native
 * memory; allocating one per slide keeps V8's garbage collector (which accounts for that
 * external memory) busy. A render takes a canvas, draws, reads its pixels back and returns
 * it; renders in flight at once on one thread each hold their own.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';

/** Canvases kept per thread at most (the rest are left to the collector). */
const KEPT = 4;
const free: Canvas[] = [];

/**
 * A canvas of `width` × `height` px with an identity transform and default state, its
 * pixels undefined (the caller paints every pixel first).
 */
export function takeCanvas(width: number, height: number): Canvas {
  const i = free.findIndex((c) => c.width === width && c.height === height);
  if (i < 0) return createCanvas(width, height);
  const canvas = free.splice(i, 1)[0]!;
  const ctx = canvas.getContext('2d');
  ctx.reset();
  return canvas;
}

/** Gives a canvas back for reuse once its pixels have been read. */
export function giveCanvas(canvas: Canvas): void {
  free.push(canvas);
  if (free.length > KEPT) free.shift();
}
