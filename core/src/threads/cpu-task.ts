/**
 * The code that runs inside worker threads: everything CPU-heavy (unzipping, XML parsing,
 * analysis, deck assembly) so the event loop that serves the API stays responsive.
 * Results cross the thread boundary as plain data; known failures come back as values
 * (`{ ok: false, error }`) so their codes survive the trip.
 */
import { OpcPackage } from '../ooxml/opc/package.js';
import { EngineError, PackageError } from '../ooxml/errors.js';
import { NO_VISIBLE_SLIDE_MESSAGE, type TaskFailure } from './task-failure.js';
import { CT } from '../ooxml/opc/constants.js';
import { checkPresentationPackage } from '../ooxml/pml/presentation.js';
import type { AnalysisOptions } from '../analysis/analyze.js';
import { analyzeTemplate, type StoredAnalysisResults } from '../analysis/analyze-template.js';
import type { DeckSlideSpec } from '../generation/deck/build-deck.js';
import { checkedBuild } from '../quality/checked-build.js';
import type { QualityReport } from '../quality/types.js';
import { DEFAULT_TEMPLATE_LIMITS } from '../ooxml/integrity.js';
import type { SlideError, SlideWarning } from '../domain/content.js';
import { renderSlide, type RenderedSlide } from '../render/render-slide.js';
import { renderPdf, slideShown, visibleSlideParts } from '../render/pdf.js';
import { chartInventory, updateDeckCharts, type ChartUpdateSpec, type DeckChartInventory, type DeckChartsResult } from '../generation/charts/deck-update.js';
import { readPresentation } from '../ooxml/pml/presentation.js';
import { threadId } from 'node:worker_threads';
import { openedTemplates } from '../ooxml/pml/opened-templates.js';
import { warmUpThread } from './warm-up.js';
import { keptTemplate, type KeptTemplate } from '../generation/deck/templates.js';
import { repairTemplateParts } from '../ooxml/repair.js';

/**
 * Cache keys of the packages this thread keeps open for rendering, least recently used first
 * (for tests and diagnostics); kept in the thread's opened templates (ooxml/pml/opened-templates.ts).
 */
export function keptPackages(): string[] {
  return openedTemplates.readPackageKeys();
}

export type CpuTask =
  | { op: 'inspect'; bytes: Uint8Array }
  | { op: 'analyze'; bytes: Uint8Array; templateId: string; options: AnalysisOptions }
  | { op: 'chartInventory'; bytes: Uint8Array }
  | { op: 'updateCharts'; bytes: Uint8Array; charts: ChartUpdateSpec[] }
  | { op: 'build'; templates: BuildTemplateRef[]; slides: DeckSlideSpec[]; minTextPt?: number }
  | { op: 'slideParts'; bytes: Uint8Array; cacheKey: string }
  | { op: 'render'; bytes: Uint8Array; cacheKey: string; slides: RenderTarget[]; widthPx: number }
  | { op: 'pdf'; bytes: Uint8Array; cacheKey: string; pdfa: boolean; share?: PdfShare }
  | { op: 'warmUp'; rounds: number; templates: Array<[string, Uint8Array]> };

/**
 * A template as a build task carries it: its id in the request, and either its bytes or
 * only `key`, the SHA-256 of its bytes (hex), naming a template the receiving thread is
 * expected to have open. Neither: the template was not provided (its slides fail).
 */
export interface BuildTemplateRef {
  id: string;
  key?: string;
  bytes?: Uint8Array;
}

/**
 * A build task's answer when templates it named by key only are not open on the thread
 * that took it: the sender sends the task again with their bytes.
 */
export interface TemplatesMissing {
  ok: false;
  /** Ids of the templates whose bytes are needed. */
  missing_templates: string[];
  /** The thread that answered (`worker_threads` threadId). */
  thread_id: number;
  error: { code: 'templates_missing'; message: string };
}

/** A slide to render: a slide or layout part, or (`slide_number`) the n-th slide in deck order. */
export type RenderTarget = { part_name: string } | { slide_number: number };

export interface RenderedImage extends Omit<RenderedSlide, 'png'> {
  png: Uint8Array;
  part_name: string;
}

export type { TaskFailure } from './task-failure.js';

export type InspectResult = { ok: true; isTemplate: boolean; slideCount: number } | TaskFailure;
export type { StoredAnalysisResults };
export type AnalyzeResult = { ok: true; results: StoredAnalysisResults } | TaskFailure;
export type RenderResult = { ok: true; images: RenderedImage[] } | TaskFailure;
/** A presentation's slide parts in deck order (hidden slides included), as analysis lists them. */
export type SlidePartsResult = { ok: true; part_names: string[] } | TaskFailure;
/** A presentation's visible slides as one PDF (pages: how many). */
export type PdfResult = { ok: true; pdf: Uint8Array; pages: number; font_substitutions: Record<string, string> } | TaskFailure;
/**
 * The share of a PDF export one thread draws when the pages are shared out: of the slides
 * in deck order, those whose index i has i mod `of` = `index` (one slide in `of` each, so
 * slides heavy to draw that stand together are shared too), hidden ones left out.
 */
export interface PdfShare {
  index: number;
  of: number;
}
/**
 * A share's pages as a PDF of their own (`pdf` empty when the share has none) and, for each
 * page in order, its slide's index in deck order (0-based, hidden slides counted).
 */
export type PdfShareResult = { ok: true; pdf: Uint8Array; slide_indices: number[]; font_substitutions: Record<string, string> } | TaskFailure;
/** The charts of a generated deck, per slide (update-charts checks its references against it). */
export type ChartInventoryResult = ({ ok: true } & DeckChartInventory) | TaskFailure;
/** A deck with chart updates applied (`bytes` undefined when none could be). */
export type UpdateChartsResult = ({ ok: true } & DeckChartsResult) | TaskFailure;
/** A thread's warm-up: which thread, and each synthetic deck's build time, ms. */
export type WarmUpTaskResult = { ok: true; threadId: number; roundsMs: number[]; templatesOpened: number; templatesMs: number; renderMs: number; analysisMs: number } | TaskFailure;
export type BuildResult =
  | {
      ok: true;
      bytes: Uint8Array | undefined;
      pages_generated: number;
      errors: SlideError[];
      warnings: SlideWarning[];
      /** The quality report of the deck (undefined when no slide was built). */
      report: QualityReport | undefined;
      /** Time the package check and the report took, ms. */
      report_ms: number;
      /** Content keys of the task's templates the thread keeps open after the build (later builds may name them by key alone). */
      kept_keys: string[];
      /** The thread that built the deck (`worker_threads` threadId): it keeps `kept_keys` open. */
      thread_id: number;
    }
  | TaskFailure;

/** A package's slide parts in deck order as analysis numbers them: after the package-level repairs analysis makes first. */
function deckOrder(pkg: OpcPackage): string[] {
  repairTemplateParts(pkg, []);
  return readPresentation(pkg).slides.map((s) => s.partName);
}

function failure(err: unknown): TaskFailure {
  if (err instanceof EngineError) return { ok: false, error: { code: err.code, message: err.message } };
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return { ok: false, error: { code: 'too_complex', message: 'the presentation nests too deeply to process' } };
  }
  return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
}

export default async function run(task: CpuTask): Promise<InspectResult | AnalyzeResult | BuildResult | TemplatesMissing | SlidePartsResult | RenderResult | PdfResult | PdfShareResult | ChartInventoryResult | UpdateChartsResult | WarmUpTaskResult> {
  try {
    switch (task.op) {
      case 'inspect': {
        const pkg = await OpcPackage.open(task.bytes);
        const { isTemplate } = checkPresentationPackage(pkg);
        const slideCount = pkg.partsOfType(CT.slide).length;
        if (slideCount > DEFAULT_TEMPLATE_LIMITS.maxSlides) {
          throw new PackageError('too_large', `the presentation has ${slideCount} slides; templates may have at most ${DEFAULT_TEMPLATE_LIMITS.maxSlides}`);
        }
        return { ok: true, isTemplate, slideCount };
      }
      case 'analyze':
        // the template doctor's report (roles, capacities, fonts, unfillable constructs, pictures past the pixel limits) travels with the results
        return { ok: true, results: await analyzeTemplate(task.bytes, task.templateId, task.options) };
      case 'slideParts':
        // opened as rendering opens it: kept under the same key, so this thread's render tasks find it open
        return { ok: true, part_names: deckOrder(await openedTemplates.readPackage(task.cacheKey, task.bytes)) };
      case 'render': {
        const pkg = await openedTemplates.readPackage(task.cacheKey, task.bytes);
        let order: string[] | undefined;
        const parts = task.slides.map((target) => {
          if ('part_name' in target) return target.part_name;
          order ??= deckOrder(pkg);
          const found = order[target.slide_number - 1];
          if (!found) throw new PackageError('missing_part', `the presentation has ${order.length} slides, not ${target.slide_number}`);
          return found;
        });
        // Two slides in flight: while one slide's PNG is compressed on the libuv pool, the next is drawn.
        const images: RenderedImage[] = new Array(parts.length);
        let next = 0;
        const lane = async (): Promise<void> => {
          for (let i = next++; i < parts.length; i = next++) images[i] = { ...(await renderSlide(pkg, parts[i]!, { widthPx: task.widthPx })), part_name: parts[i]! };
        };
        await Promise.all([lane(), lane()]);
        return { ok: true, images };
      }
      case 'pdf': {
        // Opened through the same per-thread cache as previews: the package is often just previewed.
        const pkg = await openedTemplates.readPackage(task.cacheKey, task.bytes);
        const share = task.share;
        if (share) {
          // Only this share's slides are read (each thread parses the slides it draws, no others).
          const slides = readPresentation(pkg).slides.map((s) => s.partName);
          const mine = slides.map((_, i) => i).filter((i) => i % share.of === share.index && slideShown(pkg, slides[i]!));
          if (mine.length === 0) return { ok: true, pdf: new Uint8Array(0), slide_indices: [], font_substitutions: {} } satisfies PdfShareResult;
          const r = await renderPdf(pkg, { pdfa: task.pdfa, slidePartNames: mine.map((i) => slides[i]!) });
          return { ok: true, pdf: r.pdf, slide_indices: mine, font_substitutions: r.font_substitutions } satisfies PdfShareResult;
        }
        const parts = visibleSlideParts(pkg);
        if (parts.length === 0) return { ok: false, error: { code: 'no_slides', message: NO_VISIBLE_SLIDE_MESSAGE } };
        const r = await renderPdf(pkg, { pdfa: task.pdfa, slidePartNames: parts });
        return { ok: true, pdf: r.pdf, pages: r.slide_part_names.length, font_substitutions: r.font_substitutions };
      }
      case 'chartInventory': {
        const pkg = await OpcPackage.open(task.bytes);
        return { ok: true, ...chartInventory(pkg) };
      }
      case 'updateCharts': {
        return { ok: true, ...(await updateDeckCharts(task.bytes, task.charts)) };
      }
      case 'build': {
        const bytes = new Map<string, Uint8Array>();
        const kept = new Map<string, KeptTemplate>();
        const missing: string[] = [];
        for (const t of task.templates) {
          if (t.bytes) bytes.set(t.id, t.bytes);
          else if (t.key) {
            // held for the whole build (and a rebuild without faulty slides), whatever the registry lets go meanwhile
            const k = keptTemplate(t.key);
            if (k) kept.set(t.id, k);
            else missing.push(t.id);
          }
        }
        if (missing.length > 0) return { ok: false, missing_templates: missing, thread_id: threadId, error: { code: 'templates_missing', message: `templates not open on this thread: ${missing.join(', ')}` } };
        // checked before it leaves the thread: a deck PowerPoint would refuse is never delivered
        const r = await checkedBuild({ slides: task.slides, templates: bytes, kept }, { minTextPt: task.minTextPt });
        if (!r.ok) return r;
        // a template too large to keep, or sent under a key that is not its bytes' SHA-256, is not among them
        const keptKeys = task.templates.flatMap((t) => (t.key && keptTemplate(t.key) ? [t.key] : []));
        return { ok: true, bytes: r.bytes, pages_generated: r.pages_generated, errors: r.errors, warnings: r.warnings, report: r.report, report_ms: r.report_ms, kept_keys: keptKeys, thread_id: threadId };
      }
      case 'warmUp': {
        const r = await warmUpThread(task.rounds, task.templates);
        return { ok: true, threadId, roundsMs: r.roundsMs, templatesOpened: r.templatesOpened, templatesMs: r.templatesMs, renderMs: r.renderMs, analysisMs: r.analysisMs };
      }
    }
  } catch (err) {
    return failure(err);
  }
}
