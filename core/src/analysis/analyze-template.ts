/**
 * A template file analysed as the analysis job does it: opened, checked as a presentation,
 * repaired where PowerPoint repairs (listed as `results.repairs`), checked for what PowerPoint
 * refuses, analysed, and diagnosed by the template doctor (its report travels with the
 * results as `doctor`). The CPU threads run it for analysis jobs and in their warm-up.
 */
import { OpcPackage } from '../ooxml/opc/package.js';
import { checkPresentationPackage } from '../ooxml/pml/presentation.js';
import { checkPresentationIntegrity } from '../ooxml/integrity.js';
import { repairTemplate } from '../ooxml/repair.js';
import { templateSlideId } from '../domain/ids.js';
import { diagnose, type TemplateDoctorReport } from '../doctor/index.js';
import { analyzePresentation, type AnalysisOptions } from './analyze.js';
import type { AnalysisResults } from './types.js';

/** Analysis results as stored and returned: the template doctor's report travels with them (`results.doctor`). */
export type StoredAnalysisResults = AnalysisResults & { doctor: TemplateDoctorReport };

/**
 * Analyses the template file `bytes` (slide and layout ids made from `templateId`).
 *
 * @throws PackageError when the file is not a presentation the engine accepts (see
 *   `checkPresentationPackage`, `checkPresentationIntegrity`)
 */
export async function analyzeTemplate(bytes: Uint8Array, templateId: string, options: AnalysisOptions): Promise<StoredAnalysisResults> {
  const pkg = await OpcPackage.open(bytes);
  const { mainPartName } = checkPresentationPackage(pkg);
  // what PowerPoint repairs is repaired here (listed as results.repairs); what it refuses stays refused below
  repairTemplate(pkg, mainPartName);
  checkPresentationIntegrity(pkg, mainPartName);
  const results = analyzePresentation({ pkg, options, idFor: (kind, partName) => templateSlideId(templateId, kind, partName) });
  return { ...results, doctor: diagnose(results, pkg) };
}
