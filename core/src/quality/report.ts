/**
 * The quality report of a deck (issue 23): the `package`, `fit`, `accessibility` and
 * `brand` checks over the deck as written, with findings located by deck slide and shape.
 * Severities follow ./types.ts.
 */
import type { OpcPackage } from '../ooxml/opc/package.js';
import { CT, RT } from '../ooxml/opc/constants.js';
import { relsPartName } from '../ooxml/opc/part-names.js';
import type { PmlModel } from '../ooxml/pml/parts.js';
import { openedTemplates } from '../ooxml/pml/opened-templates.js';
import type { DeckSlideRecord } from '../generation/deck/build-deck.js';
import { checkPackage, type PackageProblem } from './package.js';
import { checkFit } from './fit.js';
import { checkAccessibility, dedupeFooterContrast, duplicateTitles, type SlideTitle } from './accessibility.js';
import { checkBrand, type TemplateVocabulary } from './brand.js';
import { summarize, type QualityCategory, type QualityFinding, type QualityReport } from './types.js';

/** What a report is made from. */
export interface ReportInput {
  /** The deck, opened. */
  pkg: OpcPackage;
  /** The build's slide records in deck order (fitting outcomes; pages of one table); without them the `fit` check does not run. */
  slides?: readonly DeckSlideRecord[];
  /** Fonts and colours of the templates the deck came from (brand check); without it only the theme counts. */
  vocabulary?: TemplateVocabulary;
  /** Smallest text size not reported, pt (default 10). */
  minTextPt?: number;
  /** Package problems already found (the generation job checks before it reports); checked here when absent. */
  packageProblems?: readonly PackageProblem[];
}

/**
 * Which deck slide (0-based, in `p:sldIdLst` order) each part belongs to: the slide, its
 * relationships part, its notes slide and the charts it alone relates to.
 */
export function slideOwnership(pkg: OpcPackage): Map<string, number> {
  const owner = new Map<string, number>();
  const order = slideOrder(pkg);
  order.forEach((slide, i) => {
    const own = (part: string): void => {
      owner.set(part.toLowerCase(), i);
      owner.set(relsPartName(part).toLowerCase(), i);
    };
    own(slide);
    for (const rel of pkg.rels(slide)) {
      if (rel.external || !rel.targetPartName) continue;
      if (rel.type === RT.notesSlide || rel.type === RT.chart) own(rel.targetPartName);
    }
  });
  return owner;
}

/** Slide part names in deck order (falls back to package order when the id list cannot be read). */
function slideOrder(pkg: OpcPackage): string[] {
  try {
    const main = pkg.relatedPartName('/', RT.officeDocument);
    if (main) {
      const byId = new Map(pkg.rels(main).map((r) => [r.id, r]));
      const pres = pkg.getXml(main).documentElement!;
      const out: string[] = [];
      for (const el of Array.from(pres.getElementsByTagNameNS('http://schemas.openxmlformats.org/presentationml/2006/main', 'sldId'))) {
        const rel = byId.get(el.getAttributeNS('http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'id') ?? '');
        if (rel?.targetPartName && pkg.hasPart(rel.targetPartName)) out.push(rel.targetPartName);
      }
      if (out.length) return out;
    }
  } catch {
    /* fall through */
  }
  return pkg.partsOfType(CT.slide);
}

/** Package problems as report findings (errors), located by slide where a slide owns the part. */
export function packageFindings(pkg: OpcPackage, problems: readonly PackageProblem[]): QualityFinding[] {
  const owner = problems.length ? slideOwnership(pkg) : new Map<string, number>();
  return problems.map((p) => ({
    slide_index: owner.get(p.part.toLowerCase()) ?? -1,
    shape_id: null,
    shape_name: '',
    category: 'package',
    code: p.check,
    severity: 'error',
    message: `${p.part}: ${p.message}`,
    details: { part: p.part },
  }));
}

/** Runs every check that can run on the deck and summarizes. */
export function buildReport(input: ReportInput): QualityReport {
  const checks: QualityCategory[] = ['package'];
  const findings = packageFindings(input.pkg, input.packageProblems ?? checkPackage(input.pkg));
  if (input.slides) {
    checks.push('fit');
    findings.push(...checkFit(input.slides));
  }
  const records = input.slides;
  if (records && records.length > 0 && records.every((r) => r.findings && r.title)) {
    // the build judged each slide while it had its tree (no second parse of the deck)
    checks.push('accessibility', 'brand');
    const perSlide = records.flatMap((r, i) => r.findings!.map((f) => ({ ...f, slide_index: i })));
    const titles = records.map((r) => r.title as SlideTitle);
    findings.push(...dedupeFooterContrast([...perSlide, ...duplicateTitles(titles, records.map((r) => r.slide_index))]));
    return finish(checks, findings);
  }
  let model: PmlModel | undefined;
  try {
    // the thread registry's model of the deck's package object (one per package object,
    // gone with it), not a second one beside the registry
    model = openedTemplates.modelOf(input.pkg);
  } catch {
    model = undefined;
  }
  if (model) {
    const slides = model.slidesInOrder();
    const groupOf = records && records.length === slides.length ? (i: number) => records[i]!.slide_index : undefined;
    checks.push('accessibility');
    findings.push(...checkAccessibility(slides, { minTextPt: input.minTextPt, groupOf }));
    checks.push('brand');
    findings.push(...checkBrand(slides, input.vocabulary));
  }
  return finish(checks, findings);
}

function finish(checks: QualityCategory[], findings: QualityFinding[]): QualityReport {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  findings.sort((a, b) => a.slide_index - b.slide_index || rank[a.severity] - rank[b.severity]);
  return { summary: summarize(findings), checks, findings };
}
