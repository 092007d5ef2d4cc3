/**
 * The whole match result for a request: signature, candidates of every template, ranking.
 */
import type { AnalysisResults } from '../analysis/types.js';
import type { SlideData } from '../domain/content.js';
import type { TemplateDoctorReport } from '../doctor/types.js';
import { candidatesFromAnalysis } from './candidates.js';
import { rankCandidates } from './rank.js';
import { signature } from './signature.js';
import type { InputSignature, MatchItem } from './types.js';

/** One analyzed template to search. */
export interface MatchTemplateInput {
  template_id: string;
  results: AnalysisResults;
  /** `results.doctor` when the analysis carries it; computed otherwise. */
  doctor?: TemplateDoctorReport;
}

/** The match result (the proto `MatchTemplatesResponse` JSON). */
export interface MatchResult {
  input_signature: InputSignature;
  matches: MatchItem[];
  total_templates_searched: number;
  /** Slides or layouts searched. */
  total_slides_searched: number;
  /** `matches[0]`; absent when nothing was searched. */
  best_match?: MatchItem;
}

/**
 * Matches slide data against the slides or layouts of the given templates (in the order
 * given, which is the tie-breaking template order) and returns the ranked top `topK`.
 *
 * @param slideData - validated slide data
 * @param templates - the organization's analyzed templates, in search order
 * @param against - `slides` (default in the contract) or `layouts`
 * @param topK - 1–20
 */
export function matchTemplates(slideData: SlideData, templates: readonly MatchTemplateInput[], against: 'slides' | 'layouts', topK: number): MatchResult {
  const sig = signature(slideData);
  const candidates = templates.flatMap((t, i) => candidatesFromAnalysis(t.template_id, t.results, against, t.doctor, i));
  const matches = rankCandidates(sig, candidates, topK);
  return {
    input_signature: sig,
    matches,
    total_templates_searched: templates.length,
    total_slides_searched: candidates.length,
    ...(matches[0] ? { best_match: matches[0] } : {}),
  };
}
