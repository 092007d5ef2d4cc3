/**
 * A pool of worker threads for CPU-heavy work (see cpu-task.ts). From the TypeScript
 * sources (tests, development) each thread starts at cpu-task.dev.mjs, which registers tsx
 * in the thread itself; from the compiled build it runs cpu-task.js.
 */
import { NO_VISIBLE_SLIDE_MESSAGE, taskError } from './task-failure.js';
import { Piscina } from 'piscina';
import { BACKGROUND_LANE, LanedTaskQueue, type TaskLane } from './task-lanes.js';
import { fileURLToPath } from 'node:url';
import type { AnalyzeResult, BuildResult, BuildTemplateRef, ChartInventoryResult, CpuTask, InspectResult, PdfResult, PdfShareResult, RenderResult, RenderTarget, SlidePartsResult, TemplatesMissing, UpdateChartsResult, WarmUpTaskResult } from './cpu-task.js';
import { createHash } from 'node:crypto';
import type { ChartUpdateSpec } from '../generation/charts/deck-update.js';
import type { AnalysisOptions } from '../analysis/analyze.js';
import type { DeckSlideSpec } from '../generation/deck/build-deck.js';
import { THREAD_OLD_GENERATION_MB, THREAD_YOUNG_GENERATION_MB } from './heap-limits.js';
import { WARM_UP_ROUNDS } from './warm-up.js';
import { mergePdfs } from '../render/pdf-merge.js';

/**
 * A template of a deck build ({@link CpuPool.build}): its id in the request, the SHA-256 of
 * its bytes (hex) when known, and its bytes — given, or read by `load` only when a thread
 * needs them (undefined: the file is gone, and the template's slides fail as not provided).
 */
export interface BuildTemplate {
  id: string;
  key?: string;
  bytes?: Uint8Array;
  load?: () => Promise<Uint8Array | undefined>;
}

/** Template traffic of deck builds into the threads since the pool started ({@link CpuPool.templateTraffic}). */
export interface TemplateTraffic {
  /** Build tasks sent (a task sent again after a miss counts twice). */
  tasks: number;
  /** Templates sent with their bytes. */
  templatesWithBytes: number;
  /** Templates sent by key only. */
  templatesByKey: number;
  /** Template bytes sent, summed. */
  bytes: number;
  /** Build tasks a thread answered with templates it did not have open (sent again with bytes). */
  misses: number;
}

/** The content key of template bytes: their SHA-256, hex (as threads key the templates they keep open). */
function contentKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Content keys the pool remembers threads holding (least recently used forgotten first). */
const SENT_KEYS_KEPT = 64;

/** What {@link CpuPool.warmUp} did. */
export interface PoolWarmUp {
  /** Each thread's synthetic deck build times, ms, the real templates it opened (in ms), its preview drawing and its analysis, ms. */
  threads: Array<{ threadId: number; roundsMs: number[]; templatesOpened: number; templatesMs: number; renderMs: number; analysisMs: number }>;
  /** From the first task sent to the last answer, ms. */
  totalMs: number;
}

export class CpuPool {
  private readonly pool: Piscina;
  private readonly threads: number;
  /**
   * Content key → the ids of the threads known to keep that template open (each told the
   * pool so: after a build from its bytes, a build by its key, or its warm-up), most recent
   * last. A thread that answers a build with the template missing is taken out again.
   */
  private readonly holders = new Map<string, Set<number>>();
  /** Tasks sent to the threads and not yet answered. */
  private inFlight = 0;
  private readonly traffic: TemplateTraffic = { tasks: 0, templatesWithBytes: 0, templatesByKey: 0, bytes: 0, misses: 0 };

  /**
   * @param threads - worker threads (≥ 1)
   * @param youngGenerationMb - young generation of each thread, MiB (see {@link THREAD_YOUNG_GENERATION_MB})
   * @param keepThreads - keep every thread alive while idle (a warmed thread that exits
   *   takes its optimized code with it); otherwise idle threads beyond one exit after 60 s
   * @param niceIncrement - how much lower each thread's scheduling priority is (`nice(2)`,
   *   0–19; the service passes `CPU_THREAD_NICE` of heap-limits.ts unless configured); 0 keeps the process's
   */
  constructor(threads: number, youngGenerationMb = THREAD_YOUNG_GENERATION_MB, keepThreads = false, niceIncrement = 0) {
    const entry = import.meta.url.endsWith('.ts') ? './cpu-task.dev.mjs' : './cpu-task.js';
    this.threads = Math.max(1, threads);
    this.pool = new Piscina({
      filename: fileURLToPath(new URL(entry, import.meta.url)),
      minThreads: keepThreads ? this.threads : 1,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      niceIncrement,
      // Tasks start in the order they were sent. Without it Piscina, finding every thread
      // busy as one frees, moves the task it could not place to the back of the queue on
      // each completion: a pre-render's first slides came out among its last, and a deck
      // queued behind others could be passed over again and again.
      stricterFIFO: true,
      // background work (previews pre-rendered for later) waits behind what a client waits for
      taskQueue: new LanedTaskQueue(),
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
   *
   * Template bytes travel to a thread only when it may not have them open: a template whose
   * bytes went to the threads often enough for each to have had them ({@link holdsTemplate})
   * is sent by content key alone; a thread without it open answers so, and the task goes
   * again with those templates' bytes (read by their `load` if not given).
   * @param minTextPt - smallest text size the report's accessibility check accepts, pt
   */
  async build(templates: readonly BuildTemplate[], slides: DeckSlideSpec[], minTextPt?: number): Promise<BuildResult> {
    const refs: BuildTemplateRef[] = templates.map((t) => (t.key && this.holdsTemplate(t.key)) || !t.bytes ? { id: t.id, key: t.key } : { id: t.id, key: t.key, bytes: t.bytes });
    const first = await this.runBuild(refs, slides, minTextPt);
    if (first.ok || !('missing_templates' in first)) return first;
    this.traffic.misses++;
    const missing = new Set(first.missing_templates);
    const again: BuildTemplateRef[] = await Promise.all(
      templates.map(async (t, i) => {
        if (!missing.has(t.id)) return refs[i]!;
        // that thread let it go (or never had it): not trusted there until its bytes have travelled to it anew
        if (t.key) this.holders.get(t.key)?.delete(first.thread_id);
        const bytes = t.bytes ?? (await t.load?.());
        return bytes ? { id: t.id, key: t.key, bytes } : { id: t.id };
      }),
    );
    const second = await this.runBuild(again, slides, minTextPt);
    if (second.ok || !('missing_templates' in second)) return second;
    // every template of the second task had bytes or no key: a thread cannot answer so
    return { ok: false, error: { code: 'internal', message: second.error.message } };
  }

  /**
   * Whether every thread of the pool now running told the pool it keeps the template with
   * content key `key` (SHA-256, hex) open, so a build can name it by key alone. A thread
   * started since (an idle one that exited is replaced) has not, so the bytes travel again
   * until it has.
   */
  holdsTemplate(key: string): boolean {
    const holders = this.holders.get(key);
    if (!holders) return false;
    const running = this.pool.threads;
    return running.length > 0 && running.every((w) => holders.has(w.threadId));
  }

  /** Template traffic of deck builds into the threads so far (counters; a copy). */
  templateTraffic(): TemplateTraffic {
    return { ...this.traffic };
  }

  private async runBuild(refs: BuildTemplateRef[], slides: DeckSlideSpec[], minTextPt: number | undefined): Promise<BuildResult | TemplatesMissing> {
    this.traffic.tasks++;
    for (const r of refs) {
      if (r.bytes) {
        this.traffic.templatesWithBytes++;
        this.traffic.bytes += r.bytes.byteLength;
      } else if (r.key) this.traffic.templatesByKey++;
    }
    const result = await this.run<BuildResult | TemplatesMissing>({ op: 'build', templates: refs, slides, minTextPt });
    // the templates that thread keeps open under the key later builds will name them by
    if (result.ok) for (const r of refs) if (r.key && result.kept_keys.includes(r.key)) this.noteHeld(r.key, result.thread_id);
    return result;
  }

  private noteHeld(key: string, threadId: number): void {
    const holders = this.holders.get(key) ?? new Set<number>();
    holders.add(threadId);
    this.holders.delete(key);
    this.holders.set(key, holders);
    for (const k of this.holders.keys()) {
      if (this.holders.size <= SENT_KEYS_KEPT) break;
      this.holders.delete(k);
    }
  }

  /**
   * The slide parts of a package in deck order, as analysis lists them (its slide numbers
   * count along this list). The thread keeps the package open under `cacheKey` for rendering.
   */
  slideParts(bytes: Uint8Array, cacheKey: string, lane: TaskLane = 'foreground'): Promise<SlidePartsResult> {
    return this.run<SlidePartsResult>({ op: 'slideParts', bytes, cacheKey }, lane);
  }

  /**
   * Renders slides of a package to PNG.
   * @param cacheKey - identifies the bytes (their hash), so a thread can reuse an opened package
   * @param widthPx - output width, px
   * @param lane - `background` for work no client waits for yet (it waits behind the rest)
   */
  render(bytes: Uint8Array, cacheKey: string, slides: RenderTarget[], widthPx: number, lane: TaskLane = 'foreground'): Promise<RenderResult> {
    return this.run<RenderResult>({ op: 'render', bytes, cacheKey, slides, widthPx }, lane);
  }

  /**
   * Renders the visible slides of a package to one PDF (issue 22). With more than one
   * thread and no other task of the pool under way, the pages are shared out, one task per
   * thread (each opens the package and draws every n-th slide into a PDF of its own), and
   * the parts are joined into one document here ({@link mergePdfs}: pictures, fonts and page
   * contents copied as drawn). Sharing costs ~5–10 % more CPU time in all (each thread
   * opens the package and reads the masters, layouts and theme; fonts are subset per part)
   * for about half the wait on free cores, so a busy pool draws an export on one thread.
   * @param cacheKey - identifies the bytes (their hash), so a thread can reuse an opened package
   * @param pdfa - declare PDF/A-2b conformance
   */
  async pdf(bytes: Uint8Array, cacheKey: string, pdfa: boolean): Promise<PdfResult> {
    if (this.threads < 2 || this.inFlight > 0) return this.run<PdfResult>({ op: 'pdf', bytes, cacheKey, pdfa });
    const of = this.threads;
    const shares = await Promise.all(Array.from({ length: of }, (_, index) => this.run<PdfShareResult>({ op: 'pdf', bytes, cacheKey, pdfa, share: { index, of } })));
    const fontSubstitutions: Record<string, string> = {};
    for (const r of shares) {
      if (!r.ok) return r;
      Object.assign(fontSubstitutions, r.font_substitutions);
    }
    // A page's place: its slide's rank among the slides drawn (every visible one, in deck order).
    const drawn = shares.flatMap((r) => (r.ok ? r.slide_indices : [])).sort((a, b) => a - b);
    if (drawn.length === 0) return { ok: false, error: { code: 'no_slides', message: NO_VISIBLE_SLIDE_MESSAGE } };
    const page = new Map(drawn.map((slide, i) => [slide, i]));
    const parts = shares.flatMap((r) => (r.ok && r.slide_indices.length > 0 ? [{ pdf: r.pdf, pages: r.slide_indices.map((i) => page.get(i)!) }] : []));
    let pdf: Uint8Array;
    try {
      pdf = mergePdfs(parts);
    } catch {
      // parts the joiner cannot read (not expected of Skia's files): the document drawn on one thread
      return this.run<PdfResult>({ op: 'pdf', bytes, cacheKey, pdfa });
    }
    return { ok: true, pdf, pages: drawn.length, font_substitutions: fontSubstitutions };
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
      threads.push({ threadId: r.threadId, roundsMs: r.roundsMs, templatesOpened: r.templatesOpened, templatesMs: r.templatesMs, renderMs: r.renderMs, analysisMs: r.analysisMs });
    }
    // each thread that opened every template holds them: decks from them need not send their bytes there
    for (const x of threads) if (x.templatesOpened === templates.length) for (const [, bytes] of templates) this.noteHeld(contentKey(bytes), x.threadId);
    return { threads, totalMs: performance.now() - t0 };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private async run<R>(task: CpuTask, lane: TaskLane = 'foreground'): Promise<R> {
    this.inFlight++;
    try {
      // the lane rides on the task under Piscina's symbol, which is not copied to the thread
      return (await this.pool.run(lane === 'background' ? { ...task, [Piscina.queueOptionsSymbol]: BACKGROUND_LANE } : task)) as R;
    } catch (err) {
      // A worker that died (out of memory, stack) fails only this task.
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: { code: /memory/i.test(message) ? 'too_large' : 'internal', message } } as R;
    } finally {
      this.inFlight--;
    }
  }
}
