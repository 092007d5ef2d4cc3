/**
 * Deck generation: accepting a request (validated, slide ids resolved, the organization's
 * pending limit applied atomically), the job that builds the deck, status and download.
 *
 * Nothing is left half-written: the request is stored before the record exists, the record
 * and the pending set change in one atomic step, and a failed publish takes both back.
 */
import { taskError } from '../threads/task-failure.js';
import type { BuildTemplate } from '../threads/cpu-pool.js';
import { ServiceError, notFound } from '../errors.js';
import { newId, nowIso } from '../domain/ids.js';
import { blobKeys, keys, type GenerationErrorEntry, type GenerationRecord, type RecentTemplate, type SlideIndexEntry, type TemplateRecord } from '../domain/records.js';
import type { GenerationOptions, SlideData } from '../domain/content.js';
import { PermanentJobError, type Job, type JobContext } from '../ports/job-queue.js';
import type { DeckSlideSpec } from '../generation/deck/build-deck.js';
import type { ChartUpdateSpec } from '../generation/charts/deck-update.js';
import type { Caller, ServiceDeps } from './deps.js';
import { checkOrgName } from './template-service.js';
import { downloadPath, generationStatusPath } from '../protocol/index.js';
import type { QualityReport } from '../quality/types.js';

export interface DeckSlideRequest {
  template_slide_id: string;
  slide_data?: SlideData;
  /** When present (even empty) it replaces the deck options for this slide. */
  options?: GenerationOptions | null;
}

export interface DeckRequest {
  slides: DeckSlideRequest[];
  org_name?: string | null;
  options?: GenerationOptions | null;
  /** Notified with the status record when the job ends. */
  webhook_url?: string | null;
}

export interface SingleSlideRequest extends DeckSlideRequest {
  org_name?: string | null;
  webhook_url?: string | null;
}

/** The request an update-charts job stores (`chart-update.ts`). */
export interface StoredChartUpdateRequest {
  source_generation_id: string;
  charts: ChartUpdateSpec[];
}

const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/** Templates remembered for the threads' warm-up ({@link recentTemplateFiles}). */
export const RECENT_TEMPLATES_KEPT = 4;

export class GenerationService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The template set this process last recorded as recent: the same set again writes nothing. */
  private lastRecent = '';

  /**
   * Records the templates a deck was built from as the most recent ones (at most
   * {@link RECENT_TEMPLATES_KEPT}); a failure to record is only logged.
   */
  private async rememberTemplates(org: string, templates: readonly TemplateRecord[]): Promise<void> {
    const used = templates.filter((t) => t.blob_key).map((t): RecentTemplate => ({ org, template_id: t.template_id, blob_key: t.blob_key! }));
    const tag = JSON.stringify(used);
    if (used.length === 0 || tag === this.lastRecent) return;
    this.lastRecent = tag;
    try {
      await this.deps.state.update<RecentTemplate[]>(keys.recentTemplates(), (cur = []) => {
        const rest = cur.filter((c) => !used.some((u) => u.org === c.org && u.template_id === c.template_id));
        return { value: [...used, ...rest].slice(0, RECENT_TEMPLATES_KEPT) };
      });
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message }, 'could not record the recently used templates');
    }
  }

  /**
   * Accepts a deck request and queues it.
   * @throws ServiceError 403 (org_name mismatch), 404 (unknown slide id), 409 (deleted template), 429 (pending limit), 503 (queue down)
   */
  async generateDeck(caller: Caller, req: DeckRequest, kind: GenerationRecord['kind'] = 'deck') {
    checkOrgName(caller, req.org_name ?? undefined);
    await this.deps.webhooks.checkUrl(req.webhook_url, ['body', 'webhook_url']);
    await this.resolveSlides(caller.org, req.slides);
    return this.enqueue(caller, kind, req, req.slides.length, req.webhook_url);
  }

  /**
   * Stores a request, creates its `gen_` record (pending, counted against the
   * organization's pending limit) and queues the job.
   * @param totalSlides - the record's `total_slides_requested`
   * @throws ServiceError 429 (pending limit), 503 (queue down)
   */
  async enqueue(caller: Caller, kind: GenerationRecord['kind'], req: object, totalSlides: number, webhookUrl: string | null | undefined) {
    const { state, blobs, queue, config } = this.deps;
    const tooMany = () => new ServiceError('too_many_requests', `organization ${caller.org} already has ${config.maxPendingPerOrg} pending generations; retry later`, { retryAfterSeconds: 5 });
    // A 429 writes nothing: refuse before the request is stored when the limit is reached
    // already (the atomic check below still decides for requests that race).
    if (((await state.get<string[]>(keys.pending(caller.org))) ?? []).length >= config.maxPendingPerOrg) throw tooMany();
    const id = newId('gen');
    const now = nowIso();
    const record: GenerationRecord = {
      generation_id: id,
      org_name: caller.org,
      kind,
      status: 'pending',
      message: 'generation queued',
      progress: 0,
      total_slides_requested: totalSlides,
      total_pages_generated: 0,
      created_at: now,
      updated_at: now,
      errors: [],
      warnings: [],
      request_key: blobKeys.generationRequest(caller.org, id),
      request_id: caller.requestId,
      webhook_url: this.deps.webhooks.urlFor(caller.org, webhookUrl ?? undefined),
    };
    await blobs.put(record.request_key, new TextEncoder().encode(JSON.stringify(req)));

    const job = { id, kind: 'generation' as const, org: caller.org, subject: id, request_id: caller.requestId };
    // a queue kept in this state store enqueues in the same atomic write as the record
    const staged = queue.stage?.(job);
    let overLimit = false;
    await state.update<string[]>(keys.pending(caller.org), (cur = []) => {
      if (cur.length >= config.maxPendingPerOrg) {
        overLimit = true;
        return { value: cur };
      }
      return { value: [...cur, id], also: [{ type: 'put', key: keys.generation(caller.org, id), value: record }, ...(staged?.ops ?? [])] };
    });
    if (overLimit) {
      await blobs.delete(record.request_key);
      throw tooMany();
    }
    if (staged) staged.written();
    else {
      try {
        await queue.publish(job);
      } catch (err) {
        await state.update<string[]>(keys.pending(caller.org), (cur = []) => ({
          value: cur.filter((x) => x !== id),
          also: [{ type: 'del', key: keys.generation(caller.org, id) }],
        }));
        await blobs.delete(record.request_key);
        throw new ServiceError('unavailable', `the job queue is unavailable: ${(err as Error).message}`, {}, { cause: err });
      }
    }
    return {
      generation_id: id,
      status: 'pending',
      message: 'generation started',
      status_url: `${this.deps.signer.publicUrl}${generationStatusPath(id)}`,
      created_at: now,
    };
  }

  /** Single-slide generation: a deck of one slide (pagination may still make several). */
  generateSlide(caller: Caller, req: SingleSlideRequest) {
    const slide: DeckSlideRequest = { template_slide_id: req.template_slide_id, slide_data: req.slide_data };
    return this.generateDeck(caller, { slides: [slide], org_name: req.org_name, options: req.options ?? undefined, webhook_url: req.webhook_url }, 'slide');
  }

  /** The status record, with a signed download URL once there is a file. @throws ServiceError 404 */
  async status(caller: Caller, generationId: string) {
    return this.statusView(await this.requireRecord(caller, generationId));
  }

  /** The status record of the API for a stored record. */
  statusView(r: GenerationRecord) {
    const done = r.status === 'completed' || r.status === 'partial';
    return {
      generation_id: r.generation_id,
      status: r.status,
      message: r.message,
      progress: r.progress,
      total_slides_requested: r.total_slides_requested,
      total_pages_generated: r.total_pages_generated,
      download_url: done ? this.deps.signer.sign('GET', downloadPath(r.generation_id), r.org_name) : null,
      download_url_expires_in: done ? this.deps.signer.ttlSeconds : null,
      created_at: r.created_at,
      updated_at: r.updated_at,
      completed_at: r.completed_at ?? null,
      errors: r.errors,
      warnings: r.warnings,
      report_summary: r.report_summary ?? null,
    };
  }

  /**
   * The quality report of a generated deck (package, fit, accessibility, brand; see
   * core/src/quality).
   * @throws ServiceError 404 (unknown id), 409 (no deck yet, or a deck made before reports or by update-charts)
   */
  async report(caller: Caller, id: string): Promise<QualityReport> {
    const r = await this.requireRecord(caller, id);
    if (r.status !== 'completed' && r.status !== 'partial') {
      throw new ServiceError('conflict', `generation ${id} is ${r.status}; its report exists once it is completed or partial`);
    }
    const bytes = r.report_key ? await this.deps.blobs.get(r.report_key) : undefined;
    if (!bytes) throw new ServiceError('conflict', `generation ${id} has no quality report (chart updates and decks generated before reports have none)`);
    return JSON.parse(new TextDecoder().decode(bytes)) as QualityReport;
  }

  /**
   * The generated file. `gen_` ids are generation jobs; `pres_` ids name stored
   * presentations of the older direct-return API, of which this deployment has none.
   * @throws ServiceError 404, 409 before the job is `completed` or `partial`
   */
  async download(caller: Caller, id: string): Promise<{ bytes: Uint8Array; filename: string; contentType: string }> {
    if (!id.startsWith('gen_')) throw notFound(`presentation ${id}`);
    const r = await this.requireRecord(caller, id);
    if (r.status !== 'completed' && r.status !== 'partial') {
      throw new ServiceError('conflict', `generation ${id} is ${r.status}; download is possible once it is completed or partial`);
    }
    const bytes = r.output_key ? await this.deps.blobs.get(r.output_key) : undefined;
    if (!bytes) throw new ServiceError('internal', `the file of generation ${id} is missing from storage`);
    return { bytes, filename: `${id}.pptx`, contentType: PPTX_MEDIA_TYPE };
  }

  /** The generation job; idempotent (a redelivery after completion does nothing). */
  async run(job: Job, ctx: JobContext): Promise<void> {
    const { state, blobs, cpu, log } = this.deps;
    const key = keys.generation(job.org, job.subject);
    const record = await state.get<GenerationRecord>(key);
    if (!record || isTerminal(record.status)) return;
    if (record.kind === 'update_charts') return this.runChartUpdate(job, ctx, record);
    const t0 = performance.now();

    const reqBytes = await blobs.get(record.request_key);
    if (!reqBytes) throw new PermanentJobError('the stored request is missing');
    const req = JSON.parse(new TextDecoder().decode(reqBytes)) as DeckRequest;

    const errors: GenerationErrorEntry[] = [];
    const specs: DeckSlideSpec[] = [];
    const templates = new Map<string, BuildTemplate>();
    const templateRecords: TemplateRecord[] = [];
    const specIndex: number[] = [];
    // a deck names few distinct slides many times (the reference deck: 3 ids, 100 slides): each is looked up once
    const resolved = new Map<string, { index: SlideIndexEntry; template: TemplateRecord }>();
    for (const [i, slide] of req.slides.entries()) {
      try {
        let entry = resolved.get(slide.template_slide_id);
        if (!entry) {
          entry = await this.resolveOne(job.org, slide.template_slide_id, i);
          resolved.set(slide.template_slide_id, entry);
        }
        if (!templates.has(entry.template.template_id)) {
          const { template_id: id, blob_key: blobKey, file_hash: hash } = entry.template;
          const load = async (): Promise<Uint8Array | undefined> => (blobKey ? blobs.get(blobKey) : undefined);
          // the CPU threads have this file open already: they are sent its content key, its bytes only if one turns out not to
          if (hash && blobKey && cpu.holdsTemplate(hash)) templates.set(id, { id, key: hash, load });
          else {
            const bytes = await load();
            if (!bytes) throw new ServiceError('not_found', `the file of template ${id} is missing`);
            templates.set(id, { id, key: hash || undefined, bytes, load });
          }
          templateRecords.push(entry.template);
        }
        specs.push({
          template_id: entry.template.template_id,
          template_slide_id: slide.template_slide_id,
          source: { kind: entry.index.kind, part_name: entry.index.part_name },
          slide_data: slide.slide_data ?? {},
          options: slide.options !== undefined && slide.options !== null ? slide.options : (req.options ?? {}),
        });
        specIndex.push(i);
      } catch (err) {
        errors.push({ slide_index: i, template_slide_id: slide.template_slide_id, code: 'template_slide_unavailable', message: (err as Error).message });
      }
    }
    // one synced write marks the job under way; the build does not wait for the disk: it
    // starts at once, and the write is awaited with it (so it lands before the final state)
    const underWay = this.patch(key, { status: 'processing', progress: 0.3, message: `building ${specs.length} slides` });
    const t1 = performance.now();

    let bytes: Uint8Array | undefined;
    let pages = 0;
    let report: QualityReport | undefined;
    const warnings: GenerationErrorEntry[] = [];
    if (specs.length === 0) await underWay;
    else {
      const [built] = await Promise.all([cpu.build([...templates.values()], specs, this.deps.config.reportMinTextPt), underWay]);
      ctx.signal.throwIfAborted(); // shutting down: the queue keeps the job for the next start
      if (!built.ok) throw new PermanentJobError(`deck assembly failed: ${built.error.message}`, { cause: taskError(built) });
      if (built.bytes) void this.rememberTemplates(job.org, templateRecords);
      bytes = built.bytes;
      pages = built.pages_generated;
      report = built.report;
      log.debug({ job_id: job.id, generation_id: job.subject, report_ms: Math.round(built.report_ms) }, 'deck checked and reported');
      // map slide indexes back to the request, as for errors (-1 stays: a deck-level warning)
      for (const w of built.warnings) warnings.push({ ...w, slide_index: w.slide_index < 0 ? -1 : (specIndex[w.slide_index] ?? w.slide_index) });
      // The engine numbers slides within the specs it got; map back to request indexes.
      for (const e of built.errors) errors.push({ ...e, slide_index: specIndex[e.slide_index] ?? e.slide_index });
    }
    errors.sort((a, b) => a.slide_index - b.slide_index);
    const t2 = performance.now();

    let outputKey: string | undefined;
    let reportKey: string | undefined;
    if (bytes) {
      outputKey = blobKeys.generationOutput(job.org, job.subject);
      // report slide indexes are deck positions; the request index of each finding's slide is in its details where it matters
      if (report) reportKey = blobKeys.generationReport(job.org, job.subject);
      // the deck and its report are written side by side: the record that names them follows both
      await Promise.all([blobs.put(outputKey, bytes), report && reportKey ? blobs.put(reportKey, new TextEncoder().encode(JSON.stringify(report))) : undefined]);
    }
    const status: GenerationRecord['status'] = !bytes ? 'failed' : errors.length > 0 ? 'partial' : 'completed';
    const message =
      status === 'completed'
        ? `generated ${pages} slides`
        : status === 'partial'
          ? `generated ${pages} slides; ${errors.length} of ${req.slides.length} requested slides failed`
          : 'no slide could be generated';
    await this.finish(job.org, job.subject, { status, message, progress: 1, total_pages_generated: pages, errors, warnings, output_key: outputKey, report_key: reportKey, report_summary: report?.summary });
    // where the job's time went, ms: reading the request and the templates, the build in a CPU thread (with the record's write marking it under way), storing the deck
    const timing = { prepare_ms: Math.round(t1 - t0), build_ms: Math.round(t2 - t1), store_ms: Math.round(performance.now() - t2) };
    log.info({ job_id: job.id, generation_id: job.subject, status, pages, ...timing }, 'generation finished');
  }

  /**
   * The update-charts job (see `chart-update.ts`): the source deck (a completed or partial
   * `gen_` output of the same organization) with chart caches and embedded workbooks
   * updated in a worker thread; each chart update that fails is an error entry (its
   * `slide_index`, `template_slide_id` empty), the others are still applied.
   */
  private async runChartUpdate(job: Job, ctx: JobContext, record: GenerationRecord): Promise<void> {
    const { state, blobs, cpu, log } = this.deps;
    const key = keys.generation(job.org, job.subject);
    await this.patch(key, { status: 'processing', message: 'updating charts', progress: 0.1 });
    const reqBytes = await blobs.get(record.request_key);
    if (!reqBytes) throw new PermanentJobError('the stored request is missing');
    const req = JSON.parse(new TextDecoder().decode(reqBytes)) as StoredChartUpdateRequest;
    const source = await state.get<GenerationRecord>(keys.generation(job.org, req.source_generation_id));
    const deck = source?.output_key ? await blobs.get(source.output_key) : undefined;
    if (!deck) throw new PermanentJobError(`the file of generation ${req.source_generation_id} is missing`);
    const r = await cpu.updateCharts(deck, req.charts);
    ctx.signal.throwIfAborted(); // shutting down: the queue keeps the job for the next start
    if (!r.ok) throw new PermanentJobError(`chart update failed: ${r.error.message}`, { cause: taskError(r) });
    const errors: GenerationErrorEntry[] = r.errors.map((e) => ({ slide_index: e.slide_index, template_slide_id: '', code: e.code, message: e.message }));
    const warnings: GenerationErrorEntry[] = r.warnings.map((w) => ({ slide_index: w.slide_index, template_slide_id: '', code: 'chart_workbook_replaced', message: `charts[${w.update_index}]: ${w.message}` }));
    let outputKey: string | undefined;
    if (r.bytes) {
      outputKey = blobKeys.generationOutput(job.org, job.subject);
      await blobs.put(outputKey, r.bytes);
    }
    const status: GenerationRecord['status'] = !r.bytes ? 'failed' : errors.length ? 'partial' : 'completed';
    const message =
      status === 'completed'
        ? `updated ${r.applied} chart${r.applied === 1 ? '' : 's'}`
        : status === 'partial'
          ? `updated ${r.applied} of ${req.charts.length} charts; ${errors.length} failed`
          : 'no chart could be updated';
    await this.finish(job.org, job.subject, { status, message, progress: 1, total_pages_generated: r.bytes ? r.slideCount : 0, errors, warnings, output_key: outputKey });
    log.info({ job_id: job.id, generation_id: job.subject, status, charts: r.applied }, 'chart update finished');
  }

  /** Dead-letter hook: the job failed for good. */
  async fail(job: Job, error: Error): Promise<void> {
    await this.finish(job.org, job.subject, { status: 'failed', message: `generation failed: ${error.message}`, progress: 1 });
  }

  /** Records a terminal state and leaves the pending set, in one atomic step. */
  private async finish(org: string, id: string, fields: Partial<GenerationRecord>): Promise<void> {
    const { state } = this.deps;
    const key = keys.generation(org, id);
    const current = await state.get<GenerationRecord>(key);
    if (!current || isTerminal(current.status)) return;
    const now = nowIso();
    const next: GenerationRecord = { ...current, ...fields, updated_at: now, completed_at: now };
    // the webhook delivery is stored in the same atomic step as the final state (outbox)
    const delivery = this.deps.webhooks.deliveryOps(org, next.webhook_url, `generation.${next.status as 'completed' | 'partial' | 'failed'}`, this.statusView(next));
    await state.update<string[]>(keys.pending(org), (cur = []) => ({ value: cur.filter((x) => x !== id), also: [{ type: 'put', key, value: next }, ...delivery] }));
    if (delivery.length > 0) this.deps.webhooks.kick();
  }

  private async patch(key: string, fields: Partial<GenerationRecord>): Promise<void> {
    await this.deps.state.update<GenerationRecord>(key, (cur) => (cur && !isTerminal(cur.status) ? { value: { ...cur, ...fields, updated_at: nowIso() } } : { value: cur }));
  }

  private async requireRecord(caller: Caller, id: string): Promise<GenerationRecord> {
    const r = await this.deps.state.get<GenerationRecord>(keys.generation(caller.org, id));
    if (!r) throw notFound(`generation ${id}`);
    return r;
  }

  /** Every slide id must name a slide or layout of a live, analyzed template of the caller's organization. */
  private async resolveSlides(org: string, slides: DeckSlideRequest[]): Promise<void> {
    // each distinct slide id once (two state reads each): a deck repeats a few ids many times
    const checked = new Set<string>();
    for (const [i, s] of slides.entries()) {
      if (checked.has(s.template_slide_id)) continue;
      await this.resolveOne(org, s.template_slide_id, i);
      checked.add(s.template_slide_id);
    }
  }

  private async resolveOne(org: string, slideId: string, index: number): Promise<{ index: SlideIndexEntry; template: TemplateRecord }> {
    const { state } = this.deps;
    const entry = await state.get<SlideIndexEntry>(keys.slide(org, slideId));
    if (!entry) throw new ServiceError('not_found', `slides[${index}].template_slide_id "${slideId}" not found`);
    const template = await state.get<TemplateRecord>(keys.template(org, entry.template_id));
    if (!template) throw new ServiceError('not_found', `slides[${index}].template_slide_id "${slideId}" not found`);
    if (template.status === 'deleted') {
      throw new ServiceError('conflict', `slides[${index}].template_slide_id "${slideId}" belongs to deleted template ${template.template_id}`);
    }
    return { index: entry, template };
  }
}

/**
 * The files of the templates recent decks were built from (newest first, those whose file
 * is gone left out), for the CPU threads to open at start.
 */
export async function recentTemplateFiles(deps: Pick<ServiceDeps, 'state' | 'blobs'>): Promise<Array<[string, Uint8Array]>> {
  const recent = (await deps.state.get<RecentTemplate[]>(keys.recentTemplates())) ?? [];
  const out: Array<[string, Uint8Array]> = [];
  for (const r of recent.slice(0, RECENT_TEMPLATES_KEPT)) {
    const bytes = await deps.blobs.get(r.blob_key).catch(() => undefined);
    if (bytes) out.push([`${r.org}/${r.template_id}`, bytes]);
  }
  return out;
}

function isTerminal(status: GenerationRecord['status']): boolean {
  return status === 'completed' || status === 'partial' || status === 'failed';
}
