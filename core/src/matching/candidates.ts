/**
 * Builds match candidates from analysis results (one per slide or per layout).
 */
import type { AnalysisResults, AnalyzedShape } from '../analysis/types.js';
import { diagnose, FOOTER_AREA_TYPES } from '../doctor/diagnose.js';
import type { TemplateDoctorReport } from '../doctor/types.js';
import type { MatchCandidate } from './types.js';

function footerTypes(shapes: readonly AnalyzedShape[] | undefined): string[] {
  const out: string[] = [];
  for (const s of shapes ?? []) {
    const t = s.placeholder?.type;
    if (t && FOOTER_AREA_TYPES.has(t) && s.kind === 'sp' && !out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * The candidates of one analyzed template: its slides (`against = 'slides'`) or layouts,
 * in file order, each with its doctor entry (from `doctor`, else from {@link diagnose}) and
 * the footer-area placeholder types its layout (and master, when master shapes were
 * analyzed) offers.
 *
 * @param templateId - the template's id
 * @param results - its analysis results
 * @param against - `slides` or `layouts`
 * @param doctor - `results.doctor` when the analysis already carries it
 * @param templateOrder - position of the template in the search (ties rank the lower first)
 */
export function candidatesFromAnalysis(
  templateId: string,
  results: AnalysisResults,
  against: 'slides' | 'layouts',
  doctor?: TemplateDoctorReport,
  templateOrder?: number,
): MatchCandidate[] {
  const report = doctor ?? diagnose(results);
  const layoutFooters = new Map<string, string[]>();
  for (const l of results.layouts) {
    const master = results.masters[l.master_index];
    layoutFooters.set(l.slide_id, [...new Set([...footerTypes(l.shapes), ...footerTypes(master?.shapes)])]);
  }
  if (against === 'layouts') {
    return results.layouts.map((l, i) => ({
      template_id: templateId,
      slide_id: l.slide_id,
      slide_index: l.layout_index,
      layout_name: l.name,
      shapes: l.shapes,
      doctor: report.layouts[i],
      inherited_footer_types: footerTypes(results.masters[l.master_index]?.shapes),
      ...(templateOrder !== undefined ? { template_order: templateOrder } : {}),
    }));
  }
  return results.slides.map((s, i) => ({
    template_id: templateId,
    slide_id: s.slide_id,
    slide_index: s.slide_index,
    layout_name: s.layout_name,
    shapes: s.shapes,
    doctor: report.slides[i],
    inherited_footer_types: layoutFooters.get(s.layout_slide_id) ?? [],
    ...(templateOrder !== undefined ? { template_order: templateOrder } : {}),
  }));
}
