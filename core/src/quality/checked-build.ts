/**
 * A deck build that never delivers a broken package (issue 23, item 2): the deck is
 * built, opened and checked (./package.ts); when slides own the broken parts, those
 * slides fail with the reason (`package_invalid`) and the deck is built again without
 * them; a problem no slide owns (the presentation part, a master) fails the whole build.
 * Then the quality report of the deck as delivered is made.
 */
import { buildDeck, type BuildDeckInput, type BuildDeckResult } from '../generation/deck/build-deck.js';
import { OpcPackage } from '../ooxml/opc/package.js';
import type { SlideError } from '../domain/content.js';
import { checkPackage } from './package.js';
import { buildReport, packageFindings } from './report.js';
import type { QualityReport } from './types.js';

/** A checked build: the build's result, the report of the delivered deck, and what checking cost. */
export type CheckedBuildResult =
  | (BuildDeckResult & { ok: true; report: QualityReport | undefined; report_ms: number })
  | { ok: false; error: { code: 'package_invalid'; message: string } };

/** Options of {@link checkedBuild}. */
export interface CheckedBuildOptions {
  /** Smallest text size the accessibility check accepts, pt. */
  minTextPt?: number;
  /** Stands in for {@link buildDeck} (tests plant faults in its output). */
  build?: (input: BuildDeckInput) => Promise<BuildDeckResult>;
}

/**
 * Builds, checks and reports a deck.
 *
 * @returns `ok: false` when the package is broken in a part no slide owns
 */
export async function checkedBuild(input: BuildDeckInput, options: CheckedBuildOptions = {}): Promise<CheckedBuildResult> {
  const build = options.build ?? buildDeck;
  input = { ...input, quality: input.quality ?? { minTextPt: options.minTextPt } };
  let result = await build(input);
  let reportMs = 0;
  const failed: SlideError[] = [];
  // at most two rounds: a rebuild without the faulty slides must be clean
  for (let round = 0; result.bytes; round++) {
    const t0 = performance.now();
    // the build's own package holds the parts the bytes were written from (no second
    // inflate of every part); bytes from a build given in the options are opened
    const pkg = !options.build && result.package ? result.package : await OpcPackage.open(result.bytes);
    // slides whose text the build checked as it serialized it are not read again; bytes
    // from a build given in the options (tests planting faults) are read in full
    const checkedText = options.build ? undefined : new Map(result.slides.filter((s) => s.package_problems).map((s) => [s.part_name, s.package_problems!] as const));
    // the parts kept as trees are read as the build wrote them (not serialized again)
    const problems = checkPackage(pkg, { checkedText, writtenBytes: options.build ? undefined : result.treeBytes });
    if (problems.length === 0) {
      const report = buildReport({ pkg, slides: result.slides, vocabulary: { fonts: new Set(result.vocabulary.fonts), colors: new Set(result.vocabulary.colors) }, minTextPt: options.minTextPt, packageProblems: problems });
      reportMs += performance.now() - t0;
      return { ...withoutPackage(result), errors: sortErrors([...result.errors, ...failed]), ok: true, report, report_ms: reportMs };
    }
    const findings = packageFindings(pkg, problems);
    reportMs += performance.now() - t0;
    const bad = new Map<number, string[]>();
    let unowned: string | undefined;
    for (const f of findings) {
      const rec = f.slide_index >= 0 ? result.slides[f.slide_index] : undefined;
      if (!rec) {
        unowned ??= f.message;
        continue;
      }
      bad.set(rec.slide_index, [...(bad.get(rec.slide_index) ?? []), f.message]);
    }
    if (unowned !== undefined || round > 0) {
      return { ok: false, error: { code: 'package_invalid', message: `the generated deck would not open cleanly in PowerPoint: ${unowned ?? findings[0]!.message}${findings.length > 1 ? ` (and ${findings.length - 1} more problems)` : ''}` } };
    }
    const keep: number[] = [];
    input.slides.forEach((spec, i) => {
      const why = bad.get(i);
      if (why) failed.push({ slide_index: i, template_slide_id: spec.template_slide_id, code: 'package_invalid', message: `the slide would break the deck's package: ${why[0]}${why.length > 1 ? ` (and ${why.length - 1} more problems)` : ''}` });
      else keep.push(i);
    });
    const rebuilt = await build({ ...input, slides: keep.map((i) => input.slides[i]!) });
    // the rebuild numbers slides within what it got: map back to the request
    const back = (i: number): number => (i < 0 ? i : (keep[i] ?? i));
    result = {
      ...rebuilt,
      errors: rebuilt.errors.map((e) => ({ ...e, slide_index: back(e.slide_index) })),
      warnings: rebuilt.warnings.map((w) => ({ ...w, slide_index: back(w.slide_index) })),
      slides: rebuilt.slides.map((s) => ({ ...s, slide_index: back(s.slide_index) })),
    };
  }
  return { ...withoutPackage(result), errors: sortErrors([...result.errors, ...failed]), ok: true, report: undefined, report_ms: reportMs };
}

/** The result without the written package (checked already; the caller keeps the bytes). */
function withoutPackage(result: BuildDeckResult): BuildDeckResult {
  const { package: _written, treeBytes: _trees, ...rest } = result;
  return rest;
}

function sortErrors(errors: SlideError[]): SlideError[] {
  return errors.sort((a, b) => a.slide_index - b.slide_index);
}
