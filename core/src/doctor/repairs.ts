/**
 * The doctor's view of the repairs made to a template as it was read (`results.repairs`,
 * core/src/ooxml/repair.ts): each repair with the slide, layout or master it touched, so a
 * template owner can see which slides PowerPoint would have repaired and fix the file.
 */
import type { AnalysisResults, AnalyzedRepair } from '../analysis/types.js';
import type { DoctorRepairFinding } from './types.js';

/**
 * One finding per repair, in the order made, with the slide or layout id and index of the
 * part repaired (for a relationship, its source part).
 *
 * @param results - analysis results; `repairs` absent (results made before repairs were
 *   listed) counts as none
 */
export function repairFindings(results: AnalysisResults): DoctorRepairFinding[] {
  const repairs: readonly AnalyzedRepair[] = results.repairs ?? [];
  if (repairs.length === 0) return [];
  const where = new Map<string, Pick<DoctorRepairFinding, 'part_kind' | 'slide_id' | 'index'>>();
  results.slides.forEach((s) => where.set(s.part_name, { part_kind: 'slide', slide_id: s.slide_id, index: s.slide_index }));
  results.layouts.forEach((l) => where.set(l.part_name, { part_kind: 'layout', slide_id: l.slide_id, index: l.layout_index }));
  results.masters.forEach((m) => where.set(m.part_name, { part_kind: 'master', slide_id: null, index: m.master_index }));
  return repairs.map((r) => ({
    part_name: r.part,
    ...(where.get(r.part) ?? { part_kind: 'other' as const, slide_id: null, index: null }),
    element: r.element,
    action: r.action,
    detail: r.detail,
  }));
}
