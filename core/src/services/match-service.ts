/**
 * Matching: ranks the organization's analyzed slides or layouts by how well their
 * placeholders — and their room, measured by the template doctor — fit the content.
 * The scoring is core/src/matching (docs/matching.md); this service gathers candidates.
 */
import { notFound } from '../errors.js';
import { blobKeys, keys, type TemplateRecord } from '../domain/records.js';
import type { SlideData } from '../domain/content.js';
import type { AnalysisResults } from '../analysis/types.js';
import type { TemplateDoctorReport } from '../doctor/index.js';
import { matchTemplates } from '../matching/respond.js';
import type { Caller, ServiceDeps } from './deps.js';
import { checkOrgName } from './template-service.js';

export interface MatchRequest {
  slide_data: SlideData;
  org_name?: string | null;
  /** `slides` (default) or `layouts`. */
  match_against?: 'slides' | 'layouts' | null;
  /** 1–20, default 5. */
  top_k?: number | null;
}

/** Analysis results as stored: the doctor's report travels with them. */
type StoredResults = AnalysisResults & { doctor?: TemplateDoctorReport };

const RESULTS_KEPT = 64;

export class MatchService {
  /** Parsed results by analysis id; a completed analysis never changes. */
  private readonly cache = new Map<string, StoredResults>();

  constructor(private readonly deps: ServiceDeps) {}

  /** Ranks candidates of every ready template of the caller's organization. @throws ServiceError 403 */
  async match(caller: Caller, req: MatchRequest) {
    checkOrgName(caller, req.org_name ?? undefined);
    const against = req.match_against ?? 'slides';
    const topK = req.top_k ?? 5;
    const templates = (await this.deps.state.scan<TemplateRecord>(keys.templatePrefix(caller.org)))
      .map(([, t]) => t)
      .filter((t) => t.status === 'ready' && t.completed_analysis_id)
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.template_id.localeCompare(b.template_id));
    const searched = [];
    for (const t of templates) {
      const results = await this.results(t);
      searched.push({ template_id: t.template_id, results, doctor: results.doctor });
    }
    const result = matchTemplates(req.slide_data ?? {}, searched, against, topK);
    return { ...result, best_match: result.best_match ?? null };
  }

  private async results(t: TemplateRecord): Promise<StoredResults> {
    const id = t.completed_analysis_id!;
    const hit = this.cache.get(id);
    if (hit) return hit;
    const bytes = await this.deps.blobs.get(blobKeys.analysisResults(t.org_name, t.template_id, id));
    if (!bytes) throw notFound(`analysis results of template ${t.template_id}`);
    const results = JSON.parse(new TextDecoder().decode(bytes)) as StoredResults;
    this.cache.set(id, results);
    while (this.cache.size > RESULTS_KEPT) this.cache.delete(this.cache.keys().next().value!);
    return results;
  }
}
