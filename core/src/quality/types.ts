/**
 * The quality report of a generated deck (issue 23): what it holds and how severe each
 * finding is.
 *
 * Severity rule (documented for the API, README "Quality report"):
 * - `error`: the package is broken in a way PowerPoint refuses or repairs (category
 *   `package`). A deck is never delivered with one: the slide or the job fails instead.
 * - `warning`: something a reader is likely to miss or misread: text contrast below the
 *   WCAG 2.2 AA minimum, a picture, chart or graphic frame without alternative text,
 *   text still overflowing its box.
 * - `info`: everything else worth a look (reading order, duplicate titles, small text,
 *   fonts and colours outside the theme, stretched pictures) and the sizes of every filled
 *   placeholder that fits, shrunk or not (the `fit` check lists each one).
 */

/** How serious a finding is. */
export type Severity = 'error' | 'warning' | 'info';

/** Which check produced a finding. */
export type QualityCategory = 'package' | 'fit' | 'accessibility' | 'brand';

/** Every check in the order a report runs them. */
export const QUALITY_CHECKS: readonly QualityCategory[] = ['package', 'fit', 'accessibility', 'brand'];

/** A value of a finding's details (flat, JSON-safe). */
export type DetailValue = string | number | boolean | null;

/** One finding. */
export interface QualityFinding {
  /** 0-based index of the slide in the deck (its position in the file); -1 for the deck as a whole. */
  slide_index: number;
  /** `p:cNvPr/@id` of the shape concerned; null when the finding is about a slide or part. */
  shape_id: number | null;
  /** `p:cNvPr/@name` of the shape; '' when no shape. */
  shape_name: string;
  category: QualityCategory;
  /** Machine-readable code, e.g. `missing_alt_text`, `low_contrast`, `dangling_relationship`. */
  code: string;
  severity: Severity;
  message: string;
  /** Measured values (pt, ratios, colours as RRGGBB, part names). */
  details: Record<string, DetailValue>;
}

/** Counts of findings by severity. */
export interface QualitySummary {
  errors: number;
  warnings: number;
  info: number;
}

/** The report as stored with a deck and served by `GET /presentations/{id}/report`. */
export interface QualityReport {
  summary: QualitySummary;
  /** The checks that ran (see {@link QUALITY_CHECKS}). */
  checks: QualityCategory[];
  findings: QualityFinding[];
}

/** Counts findings by severity. */
export function summarize(findings: readonly QualityFinding[]): QualitySummary {
  const s: QualitySummary = { errors: 0, warnings: 0, info: 0 };
  for (const f of findings) {
    if (f.severity === 'error') s.errors++;
    else if (f.severity === 'warning') s.warnings++;
    else s.info++;
  }
  return s;
}
