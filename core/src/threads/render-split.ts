/**
 * Renders many slides of one package across the worker-thread pool: the list is cut into
 * contiguous runs (neighbouring slides tend to share a layout, whose parts and pictures a
 * thread then parses and decodes once), one task per run, all queued at once, and the
 * images put back in the order asked. The preview service pre-renders a template's slides
 * this way after an analysis; `bench/render.bench.ts` measures the same call.
 */
import type { CpuPool } from './cpu-pool.js';
import type { RenderedImage, RenderResult, RenderTarget } from './cpu-task.js';

/** Options of {@link renderAcrossPool}. */
export interface RenderSplitOptions {
  /** Worker threads the pool runs (the number of runs the list is cut into, at most). */
  threads: number;
  /** Fewest slides worth a task of their own (default 4): a task copies the package bytes to its thread. */
  minPerTask?: number;
}

/**
 * Renders `slides` of the package `bytes` at `widthPx` (px) on up to `threads` threads at
 * once. Succeeds only when every run succeeds; the first failure is returned otherwise.
 *
 * @param cacheKey - identifies the bytes (their hash), so each thread opens the package once
 */
export async function renderAcrossPool(
  cpu: Pick<CpuPool, 'render'>,
  bytes: Uint8Array,
  cacheKey: string,
  slides: RenderTarget[],
  widthPx: number,
  opts: RenderSplitOptions,
): Promise<RenderResult> {
  const runs = splitRuns(slides, Math.max(1, Math.floor(opts.threads)), opts.minPerTask ?? 4);
  const results = await Promise.all(runs.map((run) => cpu.render(bytes, cacheKey, run, widthPx)));
  const images: RenderedImage[] = [];
  for (const r of results) {
    if (!r.ok) return r;
    images.push(...r.images);
  }
  return { ok: true, images };
}

/** Cuts `items` into at most `parts` contiguous runs of nearly equal length, none shorter than `minPer` unless there is only one. */
export function splitRuns<T>(items: T[], parts: number, minPer: number): T[][] {
  const n = Math.max(1, Math.min(parts, Math.floor(items.length / Math.max(1, minPer))));
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = Math.round(((i + 1) * items.length) / n);
    out.push(items.slice(start, end));
    start = end;
  }
  return out.filter((r) => r.length > 0);
}
