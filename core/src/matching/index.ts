/**
 * Template matching: {@link signature} of the input, {@link candidatesFromAnalysis} from
 * analysis results, {@link rankCandidates} to rank them; {@link matchTemplates} does all
 * three for a request. Rules in docs/matching.md.
 */
export { signature, REFERENCE_FONT } from './signature.js';
export { rankCandidates, scoreCandidate, roleFit, linesNeeded, SCORE_WEIGHTS } from './rank.js';
export { candidatesFromAnalysis } from './candidates.js';
export { minCostAssignment } from './assign.js';
export { matchTemplates } from './respond.js';
export type { MatchResult, MatchTemplateInput } from './respond.js';
export { COUNT_KEYS, zeroCounts } from './types.js';
export type { CountKey, MatchCounts, ColumnSignature, InputSignature, MatchCandidate, MatchItem } from './types.js';
