/**
 * Slide previews: PNGs of template slides and of generated decks' slides, rendered in a
 * worker thread and cached in the blob store, so a repeated call is a file read. When an
 * analysis starts, every slide of the template is pre-rendered at the default width beside
 * it (the analysis runs on one CPU thread, the slides on the others), a few slides per task
 * in slide order, each stored as soon as its task ends; a request for a slide the pre-render
 * has not stored yet waits for it instead of rendering it again. Template previews are
 * cached by slide part (not slide number), so what the pre-render stores before the
 * analysis has numbered the slides is right whatever the numbering turns out to be.
 */
import { taskError } from '../threads/task-failure.js';
import { ServiceError, notFound } from '../errors.js';
import { createHash } from 'node:crypto';
import { blobKeys, keys, type GenerationRecord, type TemplateRecord } from '../domain/records.js';
import type { AnalysisResults } from '../analysis/types.js';
import type { RenderedImage, RenderTarget } from '../threads/cpu-task.js';
import { renderAcrossPool } from '../threads/render-split.js';
import { BoundedMemo } from '../bounded-memo.js';
import type { Caller, ServiceDeps } from './deps.js';
import type { TemplateService } from './template-service.js';

/** Default preview width, px. */
export const DEFAULT_PREVIEW_WIDTH = 1280;
/** Largest preview width the API accepts, px. */
export const MAX_PREVIEW_WIDTH = 3840;

/**
 * Slides per pre-render task: small enough that the first slides are stored while the
 * others render (a client shows a slide strip from the first slide on), large enough that a
 * task's overhead (the package bytes copied to its thread) stays small beside its drawing.
 */
export const PRERENDER_SLIDES_PER_TASK = 4;

/** What the preview RPCs return. Sizes in px and EMU. */
export interface PreviewImage {
  png: Uint8Array;
  width_px: number;
  height_px: number;
  width_emu: number;
  height_emu: number;
  etag: string;
  font_substitutions: string;
}

/** A slide a pre-render draws: its part, its previews' name in the folder, its PNG's blob key. */
interface PrerenderSlide {
  part_name: string;
  name: string;
  key: string;
}

/** What is cached beside each PNG. */
interface PreviewMeta {
  width_px: number;
  height_px: number;
  width_emu: number;
  height_emu: number;
  font_substitutions: Record<string, string>;
}

export class PreviewService {
  /**
   * Previews a pre-render is drawing, by the blob key their PNG will have: what a request
   * for one of them waits for (undefined when the pre-render could not draw it).
   */
  private readonly drawing = new Map<string, Promise<RenderedImage | undefined>>();
  /**
   * Pre-renders that have started but not yet marked their slides in {@link drawing}, by
   * preview folder: a request that finds neither a stored preview nor a drawing waits for
   * this before it renders on its own (the analysis may complete while the slide list is read).
   */
  private readonly preparing = new Map<string, Promise<void>>();
  /** Pre-renders under way ({@link settled} waits for them). */
  private readonly prerendering = new Set<Promise<void>>();
  /** Slide numbers → part names of analyses, by results key (results never change once stored). */
  private readonly slideLists = new BoundedMemo<ReadonlyMap<number, string>>(256);

  constructor(
    private readonly deps: ServiceDeps,
    private readonly templates: TemplateService,
  ) {}

  /**
   * PNG of slide `slideNumber` (1-based) of a template's live analysis.
   * @param widthPx - output width, px (height follows the slide's aspect ratio)
   * @throws ServiceError 404 (template or slide number), 409 before an analysis completed
   */
  async templateSlide(caller: Caller, templateId: string, slideNumber: number, widthPx = DEFAULT_PREVIEW_WIDTH): Promise<PreviewImage> {
    const template = await this.templates.requireRecord(caller, templateId);
    if (!template.completed_analysis_id || !template.blob_key) throw new ServiceError('conflict', `template ${templateId} has no completed analysis yet`);
    const slides = await this.slideList(template);
    const partName = slides.get(slideNumber);
    if (partName === undefined) throw notFound(`slide ${slideNumber} of template ${templateId} (it has ${slides.size} slides)`);
    return this.cachedOrRendered(template.blob_key, template.file_hash, templatePreviewFolder(template), partPreviewName(partName), { part_name: partName }, widthPx);
  }

  /**
   * PNG of slide `slideNumber` of a generated deck.
   * @throws ServiceError 404, 409 before the generation is `completed` or `partial`
   */
  async generatedSlide(caller: Caller, generationId: string, slideNumber: number, widthPx = DEFAULT_PREVIEW_WIDTH): Promise<PreviewImage> {
    const r = await this.deps.state.get<GenerationRecord>(keys.generation(caller.org, generationId));
    if (!r) throw notFound(`generation ${generationId}`);
    if ((r.status !== 'completed' && r.status !== 'partial') || !r.output_key) {
      throw new ServiceError('conflict', `generation ${generationId} is ${r.status}; previews are possible once it is completed or partial`);
    }
    if (slideNumber > r.total_pages_generated) throw notFound(`slide ${slideNumber} of generation ${generationId} (it has ${r.total_pages_generated} slides)`);
    const folder = `orgs/${caller.org}/generations/${generationId}/previews/`;
    return this.cachedOrRendered(r.output_key, generationId, folder, `${slideNumber}`, { slide_number: slideNumber }, widthPx);
  }

  /**
   * Renders every slide of an uploaded template at the default width into the cache, a few
   * slides per task ({@link PRERENDER_SLIDES_PER_TASK}) queued in slide order on the worker
   * threads, each task's images stored when it ends. Called as the template's analysis
   * starts (after its task is queued, so the analysis goes first): the slides are listed by a
   * task of their own and marked as being drawn before this returns to the event loop's
   * requests. Slides already stored (an earlier analysis of the same file) are not drawn
   * again. Failures are logged, never raised: previews can always be rendered on demand.
   * @param bytes - the template's file (the bytes under its `blob_key`)
   */
  prerender(template: TemplateRecord, bytes: Uint8Array): Promise<void> {
    if (!template.blob_key) return Promise.resolve();
    const folder = templatePreviewFolder(template);
    if (this.preparing.has(folder)) return Promise.resolve(); // one is listing this file's slides already
    const waiting = new Map<string, (img: RenderedImage | undefined) => void>();
    // started before this returns: requests from now on find the listing and wait for it
    const marking = this.markSlides(template, bytes, folder, waiting);
    const listed = marking.then(
      () => undefined,
      () => undefined,
    );
    this.preparing.set(folder, listed);
    void listed.then(() => {
      if (this.preparing.get(folder) === listed) this.preparing.delete(folder);
    });
    const run = marking
      .then((slides) => this.drawSlides(template, bytes, folder, slides, waiting))
      .catch((err: unknown) => this.deps.log.warn({ template_id: template.template_id, err: (err as Error).message }, 'pre-rendering previews failed'))
      .finally(() => {
        // what was not drawn is rendered on demand
        for (const [key, resolve] of waiting) {
          resolve(undefined);
          this.drawing.delete(key);
        }
        this.prerendering.delete(run);
      });
    this.prerendering.add(run);
    return run;
  }

  /** Resolves when the pre-renders under way have ended (at shutdown, before the CPU threads and stores close). */
  async settled(): Promise<void> {
    while (this.prerendering.size > 0) await Promise.all([...this.prerendering]);
  }

  /**
   * Lists the template's slides (a background task) and marks those to draw in {@link drawing}:
   * not one stored by an earlier analysis of this file, nor one another pre-render draws.
   */
  private async markSlides(template: TemplateRecord, bytes: Uint8Array, folder: string, waiting: Map<string, (img: RenderedImage | undefined) => void>): Promise<PrerenderSlide[]> {
    const { blobs, cpu } = this.deps;
    // background work: a deck or a preview a client asks for meanwhile goes first
    const list = await cpu.slideParts(bytes, template.file_hash, 'background');
    if (!list.ok) throw new Error(list.error.message, { cause: taskError(list) });
    const all = list.part_names.map((part_name) => {
      const name = partPreviewName(part_name);
      return { part_name, name, key: pngKey(folder, name, DEFAULT_PREVIEW_WIDTH) };
    });
    const stored = await Promise.all(all.map((s) => blobs.get(metaKey(folder, s.name, DEFAULT_PREVIEW_WIDTH)).then((m) => m !== undefined)));
    const slides = all.filter((s, i) => !stored[i] && !this.drawing.has(s.key));
    for (const s of slides) this.drawing.set(s.key, new Promise((resolve) => waiting.set(s.key, resolve)));
    return slides;
  }

  /** Draws the marked slides a few per task, each image handed to its waiting requests and stored as its task ends. */
  private async drawSlides(template: TemplateRecord, bytes: Uint8Array, folder: string, slides: PrerenderSlide[], waiting: Map<string, (img: RenderedImage | undefined) => void>): Promise<void> {
    if (slides.length === 0) return;
    const rendered = await renderAcrossPool(this.deps.cpu, bytes, template.file_hash, slides.map((s) => ({ part_name: s.part_name })), DEFAULT_PREVIEW_WIDTH, {
      threads: this.deps.config.workerThreads,
      slidesPerTask: PRERENDER_SLIDES_PER_TASK,
      lane: 'background',
      onRun: (first, images) =>
        Promise.all(
          images.map(async (img, i) => {
            const { name, key } = slides[first + i]!;
            // waiting requests get the image at once; once it is stored, later ones read it from the store
            waiting.get(key)?.(img);
            waiting.delete(key);
            await this.store(folder, name, DEFAULT_PREVIEW_WIDTH, img).finally(() => this.drawing.delete(key));
          }),
        ).then(() => undefined),
    });
    if (!rendered.ok) this.deps.log.warn({ template_id: template.template_id, err: rendered.error.message }, 'pre-rendering previews failed');
  }

  /** Slide numbers → part names of a template's live analysis (read once per analysis). */
  private async slideList(template: TemplateRecord): Promise<ReadonlyMap<number, string>> {
    const key = blobKeys.analysisResults(template.org_name, template.template_id, template.completed_analysis_id!);
    const known = this.slideLists.get(key);
    if (known) return known;
    const bytes = await this.deps.blobs.get(key);
    if (!bytes) throw notFound(`analysis results of template ${template.template_id}`);
    const results = JSON.parse(new TextDecoder().decode(bytes)) as AnalysisResults;
    return this.slideLists.set(key, new Map(results.slides.map((s) => [s.slide_number, s.part_name])));
  }

  private async cachedOrRendered(sourceKey: string, version: string, folder: string, name: string, target: RenderTarget, widthPx: number): Promise<PreviewImage> {
    const { blobs, cpu } = this.deps;
    const etag = `"${version.slice(0, 16)}-${name}-${widthPx}"`;
    const [png, meta] = await Promise.all([blobs.get(pngKey(folder, name, widthPx)), blobs.get(metaKey(folder, name, widthPx))]);
    if (png && meta) return { png, etag, ...toView(JSON.parse(new TextDecoder().decode(meta)) as PreviewMeta) };
    // a pre-render drawing this preview (or still listing its slides): its image, not a second rendering
    await this.preparing.get(folder);
    const drawn = await this.drawing.get(pngKey(folder, name, widthPx));
    if (drawn) return { png: drawn.png, etag, ...toView(drawn) };
    const bytes = await blobs.get(sourceKey);
    if (!bytes) throw new ServiceError('internal', 'the presentation file is missing from storage');
    const rendered = await cpu.render(bytes, version, [target], widthPx);
    if (!rendered.ok) throw new ServiceError(rendered.error.code === 'missing_part' ? 'not_found' : 'internal', `the slide cannot be rendered: ${rendered.error.message}`, {}, { cause: taskError(rendered) });
    const img = rendered.images[0]!;
    await this.store(folder, name, widthPx, img);
    return { png: img.png, etag, ...toView(img) };
  }

  private async store(folder: string, name: string, widthPx: number, img: RenderedImage): Promise<void> {
    const meta: PreviewMeta = { width_px: img.width_px, height_px: img.height_px, width_emu: img.width_emu, height_emu: img.height_emu, font_substitutions: img.font_substitutions };
    // The metadata is written last: a PNG without it is never served as cached.
    await this.deps.blobs.put(pngKey(folder, name, widthPx), img.png);
    await this.deps.blobs.put(metaKey(folder, name, widthPx), new TextEncoder().encode(JSON.stringify(meta)));
  }
}

/** Blob folder of a template's previews (per file version). */
function templatePreviewFolder(template: TemplateRecord): string {
  return `${blobKeys.templateFolder(template.org_name, template.template_id)}previews/${template.file_hash.slice(0, 16)}/`;
}

/** Blob key of a cached preview PNG. */
function pngKey(folder: string, name: string, widthPx: number): string {
  return `${folder}${name}-${widthPx}.png`;
}

/** Blob key of what is cached beside a preview PNG (written after it: its presence means both are stored). */
function metaKey(folder: string, name: string, widthPx: number): string {
  return `${folder}${name}-${widthPx}.json`;
}

/**
 * Name of a template slide's previews in its folder: from its part name (any characters a
 * part name may hold, any length), so the same for every analysis of the file.
 */
export function partPreviewName(partName: string): string {
  return `part-${createHash('sha256').update(partName).digest('hex').slice(0, 24)}`;
}

function toView(m: PreviewMeta): Omit<PreviewImage, 'png' | 'etag'> {
  return {
    width_px: m.width_px,
    height_px: m.height_px,
    width_emu: m.width_emu,
    height_emu: m.height_emu,
    font_substitutions: Object.entries(m.font_substitutions)
      .map(([from, to]) => `${from}=${to}`)
      .join('; '),
  };
}
