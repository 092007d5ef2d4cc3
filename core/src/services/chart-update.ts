/**
 * `PUT /presentations/{id}/update-charts`: a new `gen_` job whose file is the source
 * presentation with chart parts updated (XML caches, formulas and the embedded workbook
 * together; see `generation/charts/`).
 *
 * Answers:
 * - 202 with the job (`generation_id`, `status: "pending"`, `status_url`, ...);
 * - 404 when `id` is not a `gen_` id of the caller's organization (`pres_` ids: this
 *   deployment stores none), 403 when `org_name` names another organization;
 * - 409 when the source generation has no file yet (not `completed` or `partial`);
 * - 422 (the contract's validation shape) for a request that cannot apply to that file,
 *   checked against the file before any job is made: neither or both of `chart_index`
 *   and `chart_name`; `slide_index` past the deck's slides; `chart_index` past the
 *   slide's charts or a `chart_name` no chart of the slide has (each `loc` names the
 *   field, e.g. `["body", "charts", 0, "chart_index"]`); a chart that cannot be updated
 *   (extended `cx:` charts such as waterfall, bubble and stock plots); data without a
 *   category or series, or a series whose value count differs from the category count.
 *   Empty `categories` and `series` with a `title` change the title only;
 * - 429 past the organization's pending limit (the job counts like any generation).
 *
 * `slide_index` and `chart_index` are 0-based; a slide's charts are counted in document
 * (z) order, the order of the analysis' `shapes[]`, including charts in groups. The job
 * itself reports an update it could not apply as an error entry (`partial`; `failed` when
 * none applied).
 */
import { taskError } from '../threads/task-failure.js';
import { ServiceError, notFound } from '../errors.js';
import { keys, type GenerationRecord } from '../domain/records.js';
import type { Violation } from '../domain/violation.js';
import { checkChartUpdate, type ChartUpdateSpec } from '../generation/charts/deck-update.js';
import type { Caller, ServiceDeps } from './deps.js';
import type { GenerationService, StoredChartUpdateRequest } from './generation-service.js';
import { checkOrgName } from './template-service.js';

/** The update-charts request as decoded from JSON or protobuf. */
export interface UpdateChartsRequest {
  id: string;
  charts: Array<{
    slide_index: number;
    chart_index?: number | null;
    chart_name?: string | null;
    title?: string | null;
    categories?: string[];
    series?: Array<{ name?: string; values?: number[] }>;
  }>;
  org_name?: string | null;
  webhook_url?: string | null;
}

/** `series[1].values` → `["series", 1, "values"]`. */
function fieldLoc(field: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of field.matchAll(/([A-Za-z_]+)|\[(\d+)\]/g)) out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return out;
}

export class ChartUpdateService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly generations: GenerationService,
  ) {}

  /**
   * Checks the updates against the source deck and starts the job.
   * @throws ServiceError 403, 404, 409, 422, 429, 503
   */
  async updateCharts(caller: Caller, req: UpdateChartsRequest) {
    checkOrgName(caller, req.org_name ?? undefined);
    await this.deps.webhooks.checkUrl(req.webhook_url, ['body', 'webhook_url']);
    const id = req.id;
    if (!id.startsWith('gen_')) throw notFound(`presentation ${id}`);
    const source = await this.deps.state.get<GenerationRecord>(keys.generation(caller.org, id));
    if (!source) throw notFound(`presentation ${id}`);
    if ((source.status !== 'completed' && source.status !== 'partial') || !source.output_key) {
      throw new ServiceError('conflict', `generation ${id} is ${source.status}; its charts can be updated once it is completed or partial`);
    }
    const charts: ChartUpdateSpec[] = req.charts.map((c) => ({
      slide_index: c.slide_index,
      ...(c.chart_index !== undefined && c.chart_index !== null ? { chart_index: c.chart_index } : {}),
      ...(c.chart_name !== undefined && c.chart_name !== null && c.chart_name !== '' ? { chart_name: c.chart_name } : {}),
      ...(c.title !== undefined && c.title !== null ? { title: c.title } : {}),
      categories: c.categories ?? [],
      series: (c.series ?? []).map((s) => ({ name: s.name ?? '', values: s.values ?? [] })),
    }));

    const bytes = await this.deps.blobs.get(source.output_key);
    if (!bytes) throw new ServiceError('internal', `the file of generation ${id} is missing from storage`);
    const inv = await this.deps.cpu.chartInventory(bytes);
    if (!inv.ok) throw new ServiceError('internal', `the file of generation ${id} cannot be read: ${inv.error.message}`, {}, { cause: taskError(inv) });
    const violations: Violation[] = [];
    charts.forEach((c, i) => {
      for (const p of checkChartUpdate(inv, c)) {
        const input = p.field === 'slide_index' ? c.slide_index : p.field === 'chart_index' ? (c.chart_index ?? null) : p.field === 'chart_name' ? (c.chart_name ?? null) : null;
        violations.push({ loc: ['body', 'charts', i, ...fieldLoc(p.field)], msg: `Value error, ${p.message}`, type: 'value_error', input, ctx: { error: p.message } });
      }
    });
    if (violations.length) throw new ServiceError('invalid_argument', 'the chart updates do not match the presentation', { violations });

    const stored: StoredChartUpdateRequest = { source_generation_id: id, charts };
    return this.generations.enqueue(caller, 'update_charts', stored, inv.slides.length, req.webhook_url);
  }
}
