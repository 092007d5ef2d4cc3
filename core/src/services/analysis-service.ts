/**
 * Template analysis: starting (a job on the queue), reading results and status, cancelling,
 * and the job itself. A completed analysis registers every slide and layout id in the
 * organization's slide index in the same atomic step that marks the template `ready`.
 */
import { taskError } from '../threads/task-failure.js';
import { EngineError } from '../ooxml/errors.js';
import { ServiceError, notFound } from '../errors.js';
import { newId, nowIso } from '../domain/ids.js';
import { blobKeys, keys, type AnalysisRecord, type AnalysisStep, type SlideIndexEntry, type TemplateRecord } from '../domain/records.js';
import { PermanentJobError, type Job, type JobContext } from '../ports/job-queue.js';
import type { StateOp } from '../ports/state-store.js';
import type { AnalysisResults } from '../analysis/types.js';
import type { Caller, ServiceDeps } from './deps.js';
import type { TemplateService } from './template-service.js';

export const ANALYSIS_OPTION_NAMES = [
  'parse_master_template_layout',
  'parse_slides',
  'include_placeholder_positions',
  'include_placeholder_content',
  'include_custom_shapes',
  'include_table_details',
] as const;

const DEFAULT_OPTIONS: Record<(typeof ANALYSIS_OPTION_NAMES)[number], boolean> = {
  parse_master_template_layout: false,
  parse_slides: true,
  include_placeholder_positions: true,
  include_placeholder_content: true,
  include_custom_shapes: true,
  include_table_details: true,
};

const STEP_NAMES = ['queued', 'read_package', 'analyze_slides', 'store_results'] as const;

export interface StartAnalysisInput {
  /** Each option left out keeps its default. */
  options?: Partial<Record<(typeof ANALYSIS_OPTION_NAMES)[number], boolean>>;
  name?: string;
  description?: string;
  priority?: string;
  webhook_url?: string;
}

export class AnalysisService {
  /**
   * Runs as an analysis that lists slides starts, once its task is queued (pre-rendering the
   * template's previews beside it). The job does not wait for it: its failures, and waiting
   * for it at shutdown, are its own.
   */
  onStarted: ((template: TemplateRecord, bytes: Uint8Array) => void) | undefined;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly templates: TemplateService,
  ) {}

  /**
   * Starts (or restarts) analysis of an uploaded template. Earlier analyses are kept.
   * @throws ServiceError 404, 409 when no file was uploaded or the template is deleted
   */
  async start(caller: Caller, templateId: string, input: StartAnalysisInput) {
    const { state, queue } = this.deps;
    const template = await this.templates.requireRecord(caller, templateId);
    if (template.status === 'deleted') throw new ServiceError('conflict', `template ${templateId} is deleted`);
    if (!template.blob_key) throw new ServiceError('conflict', `template ${templateId} has no uploaded file yet; upload it first`);
    await this.deps.webhooks.checkUrl(input.webhook_url, ['body', 'webhook_url']);
    const now = nowIso();
    const options = { ...DEFAULT_OPTIONS };
    for (const name of ANALYSIS_OPTION_NAMES) {
      const v = input.options?.[name];
      if (typeof v === 'boolean') options[name] = v;
    }
    const record: AnalysisRecord = {
      analysis_id: newId('ana'),
      template_id: templateId,
      org_name: caller.org,
      status: 'pending',
      options,
      name: input.name,
      description: input.description,
      priority: input.priority,
      webhook_url: this.deps.webhooks.urlFor(caller.org, input.webhook_url),
      created_at: now,
      started_at: now,
      progress: 0,
      current_step: 'queued',
      message: 'analysis queued',
      steps: STEP_NAMES.map((name, i): AnalysisStep => (i === 0 ? { name, status: 'running', started_at: now } : { name, status: 'pending' })),
    };
    const tplKey = keys.template(caller.org, templateId);
    await state.update<TemplateRecord>(tplKey, (cur) => {
      if (!cur) return { value: undefined };
      return {
        value: { ...cur, status: 'analyzing', latest_analysis_id: record.analysis_id, updated_at: now },
        also: [{ type: 'put', key: keys.analysis(caller.org, templateId, record.analysis_id), value: record }],
      };
    });
    try {
      await queue.publish({ id: record.analysis_id, kind: 'analysis', org: caller.org, subject: record.analysis_id, parent: templateId, request_id: caller.requestId });
    } catch (err) {
      // Nothing may stay half-written: take the record back and restore the template.
      await state.update<TemplateRecord>(tplKey, (cur) =>
        cur
          ? {
              value: { ...cur, status: template.status, latest_analysis_id: template.latest_analysis_id, updated_at: nowIso() },
              also: [{ type: 'del', key: keys.analysis(caller.org, templateId, record.analysis_id) }],
            }
          : { value: undefined },
      );
      throw new ServiceError('unavailable', `the job queue is unavailable: ${(err as Error).message}`, {}, { cause: err });
    }
    return this.view(record, undefined);
  }

  /** An analysis with its results (the latest when `analysisId` is omitted). @throws ServiceError 404 */
  async get(caller: Caller, templateId: string, analysisId?: string) {
    const record = await this.requireAnalysis(caller, templateId, analysisId);
    let results: AnalysisResults | undefined;
    if (record.results_key) {
      const bytes = await this.deps.blobs.get(record.results_key);
      if (bytes) results = JSON.parse(new TextDecoder().decode(bytes)) as AnalysisResults;
    }
    return this.view(record, results);
  }

  /** Progress of an analysis. @throws ServiceError 404 */
  async status(caller: Caller, templateId: string, analysisId?: string) {
    return this.statusView(await this.requireAnalysis(caller, templateId, analysisId));
  }

  /** The analysis status record of the API for a stored record. */
  statusView(r: AnalysisRecord) {
    const started = Date.parse(r.started_at);
    const end = r.completed_at ? Date.parse(r.completed_at) : Date.now();
    const elapsed = Math.max(0, (end - started) / 1000);
    const eta = r.status === 'running' && r.progress > 0.05 ? new Date(started + (end - started) / r.progress).toISOString() : null;
    return {
      analysis_id: r.analysis_id,
      status: r.status,
      progress: r.progress,
      current_step: r.current_step,
      message: r.message,
      steps: r.steps,
      started_at: r.started_at,
      estimated_completion_at: r.completed_at ?? eta,
      elapsed_time: elapsed,
      error: r.error ?? null,
    };
  }

  /**
   * Cancels a pending or running analysis; the template keeps its last completed analysis.
   * @throws ServiceError 404, 409 when the analysis already ended
   */
  async cancel(caller: Caller, templateId: string, analysisId: string) {
    const { state } = this.deps;
    const key = keys.analysis(caller.org, templateId, analysisId);
    const tplKey = keys.template(caller.org, templateId);
    type CancelOutcome = { missing: true } | { conflict: string } | { record: AnalysisRecord };
    const outcome = await state.transact<CancelOutcome>([key, tplKey], ([a, t]) => {
      const cur = a as AnalysisRecord | undefined;
      if (!cur) return { ops: [], result: { missing: true } };
      if (cur.status !== 'pending' && cur.status !== 'running') return { ops: [], result: { conflict: cur.status } };
      const now = nowIso();
      const next: AnalysisRecord = { ...cur, status: 'cancelled', message: 'analysis cancelled', completed_at: now, current_step: 'cancelled' };
      return { ops: [{ type: 'put', key, value: next }, ...settleOps(tplKey, t as TemplateRecord | undefined, next), ...this.deliveryOps(next)], result: { record: next } };
    });
    if ('missing' in outcome) throw notFound(`analysis ${analysisId}`);
    if ('conflict' in outcome) throw new ServiceError('conflict', `analysis ${analysisId} has already ended (${outcome.conflict})`);
    this.kickWebhooks(outcome.record);
    return this.view(outcome.record, undefined);
  }

  /**
   * The analysis job. Idempotent: a redelivered job for an analysis that already ended does
   * nothing. Package errors fail the analysis at once with their reason.
   */
  async run(job: Job, ctx: JobContext): Promise<void> {
    const { state, blobs, cpu, log } = this.deps;
    const org = job.org;
    const template = await this.findTemplateOfAnalysis(job);
    if (!template) return; // template permanently deleted meanwhile
    const key = keys.analysis(org, template.template_id, job.subject);
    const record = await state.get<AnalysisRecord>(key);
    if (!record || record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled') return;

    await this.progress(key, 'read_package', 0.1, 'reading the package');
    const bytes = template.blob_key ? await blobs.get(template.blob_key) : undefined;
    if (!bytes) throw new PermanentJobError(`the file of template ${template.template_id} is missing`);
    await this.progress(key, 'analyze_slides', 0.3, 'analyzing slides and layouts');
    const analyzing = cpu.analyze(bytes, template.template_id, record.options);
    // previews are of slides: an analysis that lists none has none to serve
    if (record.options.parse_slides !== false) this.onStarted?.(template, bytes);
    const result = await analyzing;
    ctx.signal.throwIfAborted(); // shutting down: the queue keeps the job for the next start
    if (!result.ok) {
      throw new PermanentJobError(result.error.message, { code: result.error.code, cause: taskError(result) });
    }
    await this.progress(key, 'store_results', 0.9, 'storing results');
    const resultsKey = blobKeys.analysisResults(org, template.template_id, record.analysis_id);
    await blobs.put(resultsKey, new TextEncoder().encode(JSON.stringify(result.results)));

    const slideIds = result.results.slides.map((s) => s.slide_id);
    const layoutIds = result.results.layouts.map((l) => l.slide_id);
    const indexOps: StateOp[] = [
      ...result.results.slides.map((s): StateOp => ({ type: 'put', key: keys.slide(org, s.slide_id), value: indexEntry(org, template.template_id, record.analysis_id, 'slide', s.slide_id, s.part_name) })),
      ...result.results.layouts.map((l): StateOp => ({ type: 'put', key: keys.slide(org, l.slide_id), value: indexEntry(org, template.template_id, record.analysis_id, 'layout', l.slide_id, l.part_name) })),
    ];
    const now = nowIso();
    const tplKey = keys.template(org, template.template_id);
    const completed = await state.transact<AnalysisRecord | undefined>([key, tplKey], ([a, t]) => {
      const cur = a as AnalysisRecord | undefined;
      if (!cur || cur.status !== 'running') return { ops: [], result: undefined };
      const next: AnalysisRecord = {
          ...cur,
          status: 'completed',
          progress: 1,
          current_step: 'completed',
          message: `analyzed ${slideIds.length} slides and ${layoutIds.length} layouts`,
          completed_at: now,
          steps: cur.steps.map((s) => ({ ...s, status: 'completed' as const, started_at: s.started_at ?? now, completed_at: s.completed_at ?? now })),
          results_key: resultsKey,
          summary: { slide_count: slideIds.length, slide_ids: slideIds, layout_count: layoutIds.length, layout_ids: layoutIds },
      };
      return { ops: [{ type: 'put', key, value: next }, ...indexOps, ...settleOps(tplKey, t as TemplateRecord | undefined, next), ...this.deliveryOps(next)], result: next };
    });
    if (!completed) {
      await blobs.delete(resultsKey); // cancelled meanwhile
      return;
    }
    this.kickWebhooks(completed);
    log.info({ job_id: job.id, template_id: template.template_id, slides: slideIds.length, layouts: layoutIds.length }, 'analysis completed');
  }

  /** Dead-letter hook: the job failed for good. */
  async fail(job: Job, error: Error): Promise<void> {
    const template = await this.findTemplateOfAnalysis(job);
    if (!template) return;
    const key = keys.analysis(job.org, template.template_id, job.subject);
    const code = (error instanceof PermanentJobError || error instanceof EngineError ? error.code : undefined) ?? 'analysis_failed';
    const tplKey = keys.template(job.org, template.template_id);
    const failed = await this.deps.state.transact<AnalysisRecord | undefined>([key, tplKey], ([a, t]) => {
      const cur = a as AnalysisRecord | undefined;
      if (!cur || cur.status === 'cancelled' || cur.status === 'completed' || cur.status === 'failed') return { ops: [], result: undefined };
      const now = nowIso();
      const next: AnalysisRecord = {
          ...cur,
          status: 'failed',
          message: `analysis failed: ${error.message}`,
          completed_at: now,
          current_step: 'failed',
          error: { code, message: error.message },
          steps: cur.steps.map((s) => (s.status === 'running' ? { ...s, status: 'failed' as const, completed_at: now } : s)),
      };
      return { ops: [{ type: 'put', key, value: next }, ...settleOps(tplKey, t as TemplateRecord | undefined, next), ...this.deliveryOps(next)], result: next };
    });
    if (failed) this.kickWebhooks(failed);
  }

  /**
   * The webhook delivery reporting an analysis that ended, as operations to apply in the
   * same atomic step as its final state (the outbox); none without a URL.
   */
  private deliveryOps(r: AnalysisRecord): StateOp[] {
    if (r.status !== 'completed' && r.status !== 'failed' && r.status !== 'cancelled') return [];
    return this.deps.webhooks.deliveryOps(r.org_name, r.webhook_url, `analysis.${r.status}`, { template_id: r.template_id, ...this.statusView(r) });
  }

  /** Wakes the delivery loop after an ended analysis with a webhook was stored. */
  private kickWebhooks(r: AnalysisRecord): void {
    if (r.webhook_url) this.deps.webhooks.kick();
  }

  private async progress(key: string, step: string, progress: number, message: string): Promise<void> {
    const now = nowIso();
    await this.deps.state.update<AnalysisRecord>(key, (cur) => {
      if (!cur || (cur.status !== 'pending' && cur.status !== 'running')) return { value: cur };
      const idx = STEP_NAMES.indexOf(step as (typeof STEP_NAMES)[number]);
      return {
        value: {
          ...cur,
          status: 'running',
          progress,
          current_step: step,
          message,
          steps: cur.steps.map((s, i) =>
            i < idx ? { ...s, status: 'completed' as const, completed_at: s.completed_at ?? now } : i === idx ? { ...s, status: 'running' as const, started_at: s.started_at ?? now } : s,
          ),
        },
      };
    });
  }

  private async requireAnalysis(caller: Caller, templateId: string, analysisId?: string): Promise<AnalysisRecord> {
    const template = await this.templates.requireRecord(caller, templateId);
    const id = analysisId || template.latest_analysis_id;
    if (!id) throw notFound(`analysis of template ${templateId}`);
    const r = await this.deps.state.get<AnalysisRecord>(keys.analysis(caller.org, templateId, id));
    if (!r) throw notFound(`analysis ${id}`);
    return r;
  }

  private async findTemplateOfAnalysis(job: Job): Promise<TemplateRecord | undefined> {
    return job.parent ? this.deps.state.get<TemplateRecord>(keys.template(job.org, job.parent)) : undefined;
  }

  private view(r: AnalysisRecord, results: AnalysisResults | undefined) {
    return {
      analysis_id: r.analysis_id,
      template_id: r.template_id,
      status: r.status,
      started_at: r.started_at,
      options: r.options,
      org_name: r.org_name,
      completed_at: r.completed_at ?? null,
      results: (results ?? null) as unknown as Record<string, unknown> | null,
      metadata: { name: r.name ?? null, description: r.description ?? null, priority: r.priority ?? null },
      error: r.error ?? null,
    };
  }
}

/**
 * The template after analysis `ended` ended, as operations to apply with it: `ready` when
 * some analysis completed (the newest completed one is live), back to `uploaded` when the
 * only one was cancelled, else `failed`. An older analysis ending changes nothing.
 */
function settleOps(tplKey: string, tpl: TemplateRecord | undefined, ended: AnalysisRecord): StateOp[] {
  if (!tpl || tpl.status === 'deleted' || tpl.latest_analysis_id !== ended.analysis_id) return [];
  const completedId = ended.status === 'completed' ? ended.analysis_id : tpl.completed_analysis_id;
  const status = completedId ? 'ready' : ended.status === 'cancelled' ? 'uploaded' : 'failed';
  const next: TemplateRecord = {
    ...tpl,
    status,
    completed_analysis_id: completedId,
    error: ended.status === 'failed' ? ended.error?.message : undefined,
    updated_at: nowIso(),
  };
  return [{ type: 'put', key: tplKey, value: next }];
}

function indexEntry(org: string, templateId: string, analysisId: string, kind: 'slide' | 'layout', slideId: string, partName: string): SlideIndexEntry {
  return { slide_id: slideId, org_name: org, template_id: templateId, analysis_id: analysisId, kind, part_name: partName };
}
