/**
 * Grayscale SSIM (Wang et al. 2004) for the fidelity test: images are converted to luma
 * (ITU-R BT.601 weights), box-downscaled to a common width, and compared in 8 × 8 windows
 * with a stride of 4; the result is the mean SSIM over all windows.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';

/** A grayscale image: luma 0–255, row-major. */
export interface Gray {
  width: number;
  height: number;
  data: Float64Array;
}

/** Decodes a PNG and converts it to grayscale, box-downscaled to `width` pixels wide. */
export async function grayFromPng(png: Uint8Array, width: number): Promise<Gray> {
  const img = await loadImage(Buffer.from(png));
  const height = Math.max(1, Math.round((width * img.height) / img.width));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(0, 0, img.width, img.height);
  ctx.drawImage(img, 0, 0);
  const rgba = ctx.getImageData(0, 0, img.width, img.height).data;
  const sum = new Float64Array(width * height);
  const cnt = new Float64Array(width * height);
  for (let y = 0; y < img.height; y++) {
    const ty = Math.min(height - 1, Math.floor((y * height) / img.height));
    for (let x = 0; x < img.width; x++) {
      const tx = Math.min(width - 1, Math.floor((x * width) / img.width));
      const i = (y * img.width + x) * 4;
      const l = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
      sum[ty * width + tx]! += l;
      cnt[ty * width + tx]! += 1;
    }
  }
  const data = new Float64Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = cnt[i]! ? sum[i]! / cnt[i]! : 255;
  return { width, height, data };
}

/** Mean SSIM of two grayscale images of the same size (8 × 8 windows, stride 4). */
export function ssim(a: Gray, b: Gray, win = 8, stride = 4): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`size mismatch ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let total = 0;
  let n = 0;
  for (let y = 0; y + win <= a.height; y += stride) {
    for (let x = 0; x + win <= a.width; x += stride) {
      let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
      for (let j = 0; j < win; j++) {
        const row = (y + j) * a.width + x;
        for (let i = 0; i < win; i++) {
          const va = a.data[row + i]!;
          const vb = b.data[row + i]!;
          sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb;
        }
      }
      const N = win * win;
      const ma = sa / N, mb = sb / N;
      const va = saa / N - ma * ma, vb = sbb / N - mb * mb, cov = sab / N - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      n++;
    }
  }
  return n ? total / n : 1;
}
