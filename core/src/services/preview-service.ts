/**
 * Slide previews: PNGs of template slides and of generated decks' slides, rendered in a
 * worker thread and cached in the blob store, so a repeated call is a file read. After an
 * analysis completes, every slide of the template is pre-rendered at the default width.
 */
import { taskError } from '../threads/task-failure.js';
import { ServiceError, notFound } from '../errors.js';
import { blobKeys, keys, type GenerationRecord, type TemplateRecord } from '../domain/records.js';
import type { AnalysisResults } from '../analysis/types.js';
import type { RenderedImage, RenderTarget } from '../threads/cpu-task.js';
import { renderAcrossPool } from '../threads/render-split.js';
import type { Caller, ServiceDeps } from './deps.js';
import type { TemplateService } from './template-service.js';

/** Default preview width, px. */
export const DEFAULT_PREVIEW_WIDTH = 1280;
/** Largest preview width the API accepts, px. */
export const MAX_PREVIEW_WIDTH = 3840;

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

/** What is cached beside each PNG. */
interface PreviewMeta {
  width_px: number;
  height_px: number;
  width_emu: number;
  height_emu: number;
  font_substitutions: Record<string, string>;
}

export class PreviewService {
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
    const results = await this.results(template);
    const slide = results.slides.find((s) => s.slide_number === slideNumber);
    if (!slide) throw notFound(`slide ${slideNumber} of template ${templateId} (it has ${results.slides.length} slides)`);
    const folder = `${blobKeys.templateFolder(caller.org, templateId)}previews/${template.file_hash.slice(0, 16)}/`;
    return this.cachedOrRendered(template.blob_key, template.file_hash, folder, `${slideNumber}`, { part_name: slide.part_name }, widthPx);
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
   * Renders every slide of a template at the default width into the cache (after an
   * analysis), spread across the worker threads. Failures are logged, never raised: previews can always be rendered on demand.
   */
  async prerender(org: string, templateId: string): Promise<void> {
    const { state, blobs, cpu, log } = this.deps;
    const template = await state.get<TemplateRecord>(keys.template(org, templateId));
    if (!template?.blob_key || !template.completed_analysis_id) return;
    try {
      const results = await this.results(template);
      const bytes = await blobs.get(template.blob_key);
      if (!bytes || results.slides.length === 0) return;
      const folder = `${blobKeys.templateFolder(org, templateId)}previews/${template.file_hash.slice(0, 16)}/`;
      // The slides are spread over the pool's threads (contiguous runs, one task each).
      const targets = results.slides.map((s) => ({ part_name: s.part_name }));
      const rendered = await renderAcrossPool(cpu, bytes, template.file_hash, targets, DEFAULT_PREVIEW_WIDTH, { threads: this.deps.config.workerThreads });
      if (!rendered.ok) {
        log.warn({ template_id: templateId, err: rendered.error.message }, 'pre-rendering previews failed');
        return;
      }
      await Promise.all(rendered.images.map((img, i) => this.store(folder, `${results.slides[i]!.slide_number}`, DEFAULT_PREVIEW_WIDTH, img)));
    } catch (err) {
      log.warn({ template_id: templateId, err: (err as Error).message }, 'pre-rendering previews failed');
    }
  }

  private async results(template: TemplateRecord): Promise<AnalysisResults> {
    const bytes = await this.deps.blobs.get(blobKeys.analysisResults(template.org_name, template.template_id, template.completed_analysis_id!));
    if (!bytes) throw notFound(`analysis results of template ${template.template_id}`);
    return JSON.parse(new TextDecoder().decode(bytes)) as AnalysisResults;
  }

  private async cachedOrRendered(sourceKey: string, version: string, folder: string, name: string, target: RenderTarget, widthPx: number): Promise<PreviewImage> {
    const { blobs, cpu } = this.deps;
    const etag = `"${version.slice(0, 16)}-${name}-${widthPx}"`;
    const [png, meta] = await Promise.all([blobs.get(`${folder}${name}-${widthPx}.png`), blobs.get(`${folder}${name}-${widthPx}.json`)]);
    if (png && meta) return { png, etag, ...toView(JSON.parse(new TextDecoder().decode(meta)) as PreviewMeta) };
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
    await this.deps.blobs.put(`${folder}${name}-${widthPx}.png`, img.png);
    await this.deps.blobs.put(`${folder}${name}-${widthPx}.json`, new TextEncoder().encode(JSON.stringify(meta)));
  }
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
