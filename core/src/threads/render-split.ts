/**
 * Renders many slides of one package across the worker-thread pool: the list is cut into
 * contiguous runs (neighbouring slides tend to share a layout; each thread opens the package
 * once per cache key and keeps its parsed parts and decoded pictures), one task per run, all
 * queued at once in slide order, and the images put back in the order asked. With
 * `slidesPerTask` the runs are that short, so the first slides' images are ready (and handed
 * to `onRun`) while the others still render: the preview service pre-renders a template's
 * slides this way beside its analysis; `bench/render.bench.ts` measures the same call.
 */
import type { CpuPool } from './cpu-pool.js';
import type { RenderedImage, RenderResult, RenderTarget } from './cpu-task.js';
import type { TaskLane } from './task-lanes.js';

/** Options of {@link renderAcrossPool}. */
export interface RenderSplitOptions {
  /** Worker threads the pool runs (the number of runs the list is cut into, at most, without `slidesPerTask`). */
  threads: number;
  /** Fewest slides worth a task of their own (default 4): a task copies the package bytes to its thread. */
  minPerTask?: number;
  /** Slides per task: the list is cut into runs of about this many, queued in order (default: one run per thread). */
  slidesPerTask?: number;
  /** The pool lane the tasks wait in (default foreground; the pre-render's are background). */
  lane?: TaskLane;
  /** Told each run's images as soon as its task ends: the index of its first slide in `slides`, and the images in order. */
  onRun?: (first: number, images: readonly RenderedImage[]) => void | Promise<void>;
}

/**
 * Renders `slides` of the package `bytes` at `widthPx` (px) on up to `threads` threads at
 * once. Succeeds only when every run succeeds; the first failure is returned otherwise (the
 * runs that succeeded were handed to `onRun` all the same).
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
  const parts = opts.slidesPerTask ? Math.ceil(slides.length / Math.max(1, Math.floor(opts.slidesPerTask))) : Math.max(1, Math.floor(opts.threads));
  const runs = splitRuns(slides, parts, opts.slidesPerTask ? 1 : (opts.minPerTask ?? 4));
  const firsts: number[] = [];
  let at = 0;
  for (const run of runs) {
    firsts.push(at);
    at += run.length;
  }
  const results = await Promise.all(
    runs.map(async (run, k) => {
      const r = await cpu.render(bytes, cacheKey, run, widthPx, opts.lane);
      if (r.ok && opts.onRun) await opts.onRun(firsts[k]!, r.images);
      return r;
    }),
  );
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
