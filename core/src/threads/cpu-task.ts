/**
 * The code that runs inside worker threads: everything CPU-heavy (unzipping, XML parsing,
 * analysis, deck assembly) so the event loop that serves the API stays responsive.
 * Results cross the thread boundary as plain data; known failures come back as values
 * (`{ ok: false, error }`) so their codes survive the trip.
 */
import { OpcPackage } from '../ooxml/opc/package.js';
import { PackageError } from '../ooxml/errors.js';
import { CT } from '../ooxml/opc/constants.js';
import { checkPresentationPackage } from '../ooxml/pml/presentation.js';
import { analyzePresentation, type AnalysisOptions } from '../analysis/analyze.js';
import type { AnalysisResults } from '../analysis/types.js';
import { buildDeck, type DeckSlideSpec } from '../generation/build-deck.js';
import { templateSlideId } from '../domain/ids.js';
import { checkPresentationIntegrity, DEFAULT_TEMPLATE_LIMITS } from '../ooxml/integrity.js';
import type { SlideError } from '../domain/content.js';

export type CpuTask =
  | { op: 'inspect'; bytes: Uint8Array }
  | { op: 'analyze'; bytes: Uint8Array; templateId: string; options: AnalysisOptions }
  | { op: 'build'; templates: Array<[string, Uint8Array]>; slides: DeckSlideSpec[] };

export interface TaskFailure {
  ok: false;
  error: { code: string; message: string };
}

export type InspectResult = { ok: true; isTemplate: boolean; slideCount: number } | TaskFailure;
export type AnalyzeResult = { ok: true; results: AnalysisResults } | TaskFailure;
export type BuildResult =
  | { ok: true; bytes: Uint8Array | undefined; pages_generated: number; errors: SlideError[]; warnings: string[] }
  | TaskFailure;

function failure(err: unknown): TaskFailure {
  if (err instanceof PackageError) return { ok: false, error: { code: err.code, message: err.message } };
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return { ok: false, error: { code: 'too_complex', message: 'the presentation nests too deeply to process' } };
  }
  return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
}

export default async function run(task: CpuTask): Promise<InspectResult | AnalyzeResult | BuildResult> {
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
      case 'analyze': {
        const pkg = await OpcPackage.open(task.bytes);
        const { mainPartName } = checkPresentationPackage(pkg);
        checkPresentationIntegrity(pkg, mainPartName);
        const results = analyzePresentation({ pkg, options: task.options, idFor: (kind, partName) => templateSlideId(task.templateId, kind, partName) });
        return { ok: true, results };
      }
      case 'build': {
        const r = await buildDeck({ slides: task.slides, templates: new Map(task.templates) });
        return { ok: true, ...r };
      }
    }
  } catch (err) {
    return failure(err);
  }
}
