/**
 * A pool of worker threads for CPU-heavy work (see cpu-task.ts). From the TypeScript
 * sources (tests, development) each thread starts at cpu-task.dev.mjs, which registers tsx
 * in the thread itself; from the compiled build it runs cpu-task.js.
 */
import { taskError } from './task-failure.js';
import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { AnalyzeResult, BuildResult, ChartInventoryResult, CpuTask, InspectResult, PdfResult, RenderResult, RenderTarget, UpdateChartsResult, WarmUpTaskResult } from './cpu-task.js';
import type { ChartUpdateSpec } from '../generation/charts/deck-update.js';
import type { AnalysisOptions } from '../analysis/analyze.js';
import type { DeckSlideSpec } from '../generation/deck/build-deck.js';
import { THREAD_OLD_GENERATION_MB, THREAD_YOUNG_GENERATION_MB } from './heap-limits.js';
import { WARM_UP_ROUNDS } from './warm-up.js';

/** What {@link CpuPool.warmUp} did. */
export interface PoolWarmUp {
  /** Each thread's synthetic deck build times, ms, and the real templates it opened (in ms). */
  threads: Array<{ threadId: number; roundsMs: number[]; templatesOpened: number; templatesMs: number }>;
  /** From the first task sent to the last answer, ms. */
  totalMs: number;
}

export class CpuPool {
  private readonly pool: Piscina;
  private readonly threads: number;

  /**
   * @param threads - worker threads (≥ 1)
   * @param youngGenerationMb - young generation of each thread, MiB (see {@link THREAD_YOUNG_GENERATION_MB})
   * @param keepThreads - keep every thread alive while idle (a warmed thread that exits
   *   takes its optimized code with it); otherwise idle threads beyond one exit after 60 s
   */
  constructor(threads: number, youngGenerationMb = THREAD_YOUNG_GENERATION_MB, keepThreads = false) {
    const entry = import.meta.url.endsWith('.ts') ? './cpu-task.dev.mjs' : './cpu-task.js';
    this.threads = Math.max(1, threads);
    this.pool = new Piscina({
      filename: fileURLToPath(new URL(entry, import.meta.url)),
      minThreads: keepThreads ? this.threads : 1,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_GENERATION_MB, maxYoungGenerationSizeMb: youngGenerationMb },
    });
  }

  /** Opens a package and checks it is a presentation Slidewright accepts. */
  inspect(bytes: Uint8Array): Promise<InspectResult> {
    return this.run<InspectResult>({ op: 'inspect', bytes });
  }

  analyze(bytes: Uint8Array, templateId: string, options: AnalysisOptions): Promise<AnalyzeResult> {
    return this.run<AnalyzeResult>({ op: 'analyze', bytes, templateId, options });
  }

  /**
   * Builds a deck, checks its package and makes its quality report (core/src/quality).
   * @param minTextPt - smallest text size the report's accessibility check accepts, pt
   */
  build(templates: Array<[string, Uint8Array]>, slides: DeckSlideSpec[], minTextPt?: number): Promise<BuildResult> {
    return this.run<BuildResult>({ op: 'build', templates, slides, minTextPt });
  }

  /**
   * Renders slides of a package to PNG.
   * @param cacheKey - identifies the bytes (their hash), so a thread can reuse an opened package
   * @param widthPx - output width, px
   */
  render(bytes: Uint8Array, cacheKey: string, slides: RenderTarget[], widthPx: number): Promise<RenderResult> {
    return this.run<RenderResult>({ op: 'render', bytes, cacheKey, slides, widthPx });
  }

  /**
   * Renders the visible slides of a package to one PDF (issue 22).
   * @param cacheKey - identifies the bytes (their hash), so a thread can reuse an opened package
   * @param pdfa - declare PDF/A-2b conformance
   */
  pdf(bytes: Uint8Array, cacheKey: string, pdfa: boolean): Promise<PdfResult> {
    return this.run<PdfResult>({ op: 'pdf', bytes, cacheKey, pdfa });
  }

  /** Lists the charts of each slide of a deck (update-charts validates its references with it). */
  chartInventory(bytes: Uint8Array): Promise<ChartInventoryResult> {
    return this.run<ChartInventoryResult>({ op: 'chartInventory', bytes });
  }

  /** Applies chart updates to a deck: chart caches and embedded workbooks together. */
  updateCharts(bytes: Uint8Array, charts: ChartUpdateSpec[]): Promise<UpdateChartsResult> {
    return this.run<UpdateChartsResult>({ op: 'updateCharts', bytes, charts });
  }

  /**
   * Warms every thread: each builds {@link WARM_UP_ROUNDS} synthetic decks, then opens
   * `templates` and keeps them open (threads/warm-up.ts); one task per thread sent at
   * once, so each thread takes one.
   * @param templates - template files to have open in every thread (those recent decks used)
   * @throws Error when a thread's warm-up fails (a fault of the engine, not of any input)
   */
  async warmUp(rounds = WARM_UP_ROUNDS, templates: Array<[string, Uint8Array]> = []): Promise<PoolWarmUp> {
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: this.threads }, () => this.run<WarmUpTaskResult>({ op: 'warmUp', rounds, templates })));
    const threads: PoolWarmUp['threads'] = [];
    for (const r of results) {
      if (!r.ok) throw new Error(`thread warm-up failed: ${r.error.message}`, { cause: taskError(r) });
      threads.push({ threadId: r.threadId, roundsMs: r.roundsMs, templatesOpened: r.templatesOpened, templatesMs: r.templatesMs });
    }
    return { threads, totalMs: performance.now() - t0 };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private async run<R>(task: CpuTask): Promise<R> {
    try {
      return (await this.pool.run(task)) as R;
    } catch (err) {
      // A worker that died (out of memory, stack) fails only this task.
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: { code: /memory/i.test(message) ? 'too_large' : 'internal', message } } as R;
    }
  }
}
