/**
 * Scoring and ranking of candidates (analyzed slides or layouts) for an input signature.
 * The rules and weights are written down in docs/matching.md.
 *
 * 1. The candidate's shapes become slots (title, subtitle, body, obj, tbl, chart, pic, other
 *    placeholders; table and chart frames; the "footnote" text box; `{{field}}` text boxes;
 *    footer-area placeholders, its own and those its layout or master offers).
 * 2. The input becomes demands (title, subtitle, one per column with text or a table, one
 *    per chart or image block, one per column header, footer, header, footnote).
 *    The slide header goes where generation puts it: a `hdr` placeholder, else the layout's
 *    header band (the doctor's area with role `header`, rule in ../doctor/header.ts), which
 *    is then kept for the header alone.
 * 3. Demands are assigned to slots at minimum cost (Hungarian algorithm), the cost of a pair
 *    being how badly the slot suits the demand: its type affinity times, for text and
 *    tables, how well the content fits the slot's measured capacity.
 * 4. Counts follow from the assignment: an assigned demand is `matched` under its key, an
 *    unassigned one `overflow`; a slot left empty is `unused` under its own key (an `obj`
 *    slot under `object`), except footer-area slots, which are optional capacity and never
 *    unused. So for every key matched + overflow = input and matched + unused = offer.
 * 5. The score mixes coverage, precision, capacity fit, placement quality, role fit and
 *    exactness with fixed weights; ranking is by score, then template order, then slide order.
 */
import type { AnalyzedShape } from '../analysis/types.js';
import { areaKindOf, capacityOf, CUSTOM_FIELD_MARKER, FOOTER_AREA_TYPES, inferRole } from '../doctor/diagnose.js';
import type { DoctorContentArea, DoctorEntry, SlideRole } from '../doctor/types.js';
import { MIN_FONT_SIZE_PT } from '../doctor/capacity.js';
import { measure } from '../text/font-metrics.js';
import { BoundedMemo } from '../bounded-memo.js';
import { minCostAssignment } from './assign.js';
import { REFERENCE_FONT } from './signature.js';
import { COUNT_KEYS, zeroCounts, type ColumnSignature, type CountKey, type InputSignature, type MatchCandidate, type MatchCounts, type MatchItem } from './types.js';

/** Weights of the score's parts (they sum to 1; see docs/matching.md). */
export const SCORE_WEIGHTS = {
  coverage: 0.4,
  precision: 0.2,
  capacity: 0.15,
  placement: 0.1,
  role: 0.1,
  exact: 0.05,
} as const;

/**
 * What a slot is. `band` is the header band (a `body`/`obj` placeholder the doctor marks with
 * role `header`) while it is kept for `slide_data.header`: the input has a header and the
 * candidate has no `hdr` placeholder, as generation decides; otherwise the band is an
 * ordinary `body`/`obj` slot, open to content as in generation.
 */
type SlotKind = 'title' | 'subTitle' | 'body' | 'obj' | 'tbl' | 'chart' | 'pic' | 'other' | 'tableFrame' | 'chartFrame' | 'footnote' | 'field' | 'ftr' | 'hdr' | 'dt' | 'sldNum' | 'band';

interface Slot {
  kind: SlotKind;
  /** Key it counts under when left empty. */
  key: CountKey;
  /** Importance for precision. */
  weight: number;
  name: string;
  /** Measured area (content slots). */
  area: DoctorContentArea | undefined;
  /** Offered by the layout or master, not the candidate's own shapes. */
  inherited: boolean;
}

/** What a demand is: `columnHeader` is a column's `header`, `slideHeader` is `slide_data.header`. */
type DemandKind = 'title' | 'subtitle' | 'column' | 'chart' | 'image' | 'columnHeader' | 'footer' | 'slideHeader' | 'footnote';

interface Demand {
  kind: DemandKind;
  key: CountKey;
  weight: number;
  column?: ColumnSignature;
  /** 1-based column number, for reasons. */
  columnNo?: number;
}

const SLOT_KEY: Readonly<Record<SlotKind, CountKey>> = {
  title: 'title',
  subTitle: 'subtitle',
  body: 'body',
  obj: 'object',
  tbl: 'table',
  chart: 'chart',
  pic: 'object',
  other: 'object',
  tableFrame: 'table',
  chartFrame: 'chart',
  footnote: 'textbox',
  field: 'custom_field',
  ftr: 'footer',
  hdr: 'footer',
  dt: 'footer',
  sldNum: 'footer',
  // It receives the header, which the input counts under footer: read through what it receives.
  band: 'footer',
};

const SLOT_WEIGHT: Readonly<Record<SlotKind, number>> = {
  title: 3, subTitle: 2, body: 2, obj: 2, tbl: 2, chart: 2, pic: 2, other: 1, tableFrame: 2, chartFrame: 2, footnote: 1, field: 1, ftr: 0, hdr: 0, dt: 0, sldNum: 0, band: 0,
};

/** Slots that only take footer-area text (the header band while kept for the header among them): optional capacity, never unused. */
function isFooterSlot(k: SlotKind): boolean {
  return k === 'ftr' || k === 'hdr' || k === 'dt' || k === 'sldNum' || k === 'band';
}

function* deep(shapes: readonly AnalyzedShape[]): Generator<AnalyzedShape> {
  for (const s of shapes) {
    if (s.hidden) continue;
    yield s;
    yield* deep(s.children);
  }
}

/** The candidate's doctor entry, computed from its shapes when not given (on a 4:3 slide: a candidate does not carry the slide size). */
function doctorOf(c: MatchCandidate): DoctorEntry {
  if (c.doctor) return c.doctor;
  const box = { width: 9144000, height: 6858000 };
  const r = inferRole(c.shapes, box, '', c.layout_name);
  return { slide_id: c.slide_id, index: c.slide_index, name: c.layout_name, role: r.role, role_reasons: r.reasons, capacity: capacityOf(c.shapes, '', undefined, box), unfillable: [] };
}

/**
 * The candidate's slots. With `header` (the input has a `slide_data.header`) and no `hdr`
 * placeholder of its own or from its layout/master, its header band — the doctor's area
 * with role `header` — becomes a `band` slot that only the header takes, as generation keeps
 * that placeholder from columns and the subtitle then (core/src/generation/slide/fill-slide.ts).
 */
function slotsOf(c: MatchCandidate, d: DoctorEntry, header: boolean): Slot[] {
  const slots: Slot[] = [];
  const areas = d.capacity.areas.slice();
  const takeArea = (s: AnalyzedShape): DoctorContentArea | undefined => {
    const i = areas.findIndex((a) => a.shape_id === s.shape_id);
    return i >= 0 ? areas.splice(i, 1)[0] : undefined;
  };
  const add = (kind: SlotKind, s: AnalyzedShape, area?: DoctorContentArea): void => {
    slots.push({ kind, key: SLOT_KEY[kind], weight: SLOT_WEIGHT[kind], name: s.name, area, inherited: false });
  };
  for (const s of c.shapes) {
    if (s.hidden) continue;
    const t = s.placeholder?.type;
    if (t !== undefined && s.kind === 'sp' && (t === 'title' || t === 'ctrTitle')) add('title', s);
    else if (t !== undefined && s.kind === 'sp' && t === 'subTitle') add('subTitle', s);
    else if (t !== undefined && FOOTER_AREA_TYPES.has(t)) {
      if (s.kind === 'sp') add(t as SlotKind, s);
    } else {
      const k = areaKindOf(s);
      if (!k) continue;
      const area = takeArea(s);
      if (k === 'text') add('body', s, area);
      else if (k === 'content') add('obj', s, area);
      else if (k === 'table') add(s.kind === 'graphicFrame' ? 'tableFrame' : 'tbl', s, area);
      else if (k === 'chart') add(s.kind === 'graphicFrame' ? 'chartFrame' : 'chart', s, area);
      else if (k === 'picture') add('pic', s, area);
      else add('other', s, area);
    }
  }
  for (const s of deep(c.shapes)) {
    if (s.placeholder || s.kind !== 'sp') continue;
    if (s.text.toLowerCase().includes('footnote')) add('footnote', s);
    else if (CUSTOM_FIELD_MARKER.test(s.text)) add('field', s);
  }
  for (const t of c.inherited_footer_types ?? []) {
    if (!FOOTER_AREA_TYPES.has(t) || slots.some((x) => x.kind === t)) continue;
    slots.push({ kind: t as SlotKind, key: 'footer', weight: 0, name: t, area: undefined, inherited: true });
  }
  if (header && !slots.some((s) => s.kind === 'hdr')) {
    const band = slots.find((s) => s.area?.role === 'header' && (s.kind === 'body' || s.kind === 'obj'));
    if (band) Object.assign(band, { kind: 'band', key: SLOT_KEY.band, weight: SLOT_WEIGHT.band } satisfies Partial<Slot>);
  }
  return slots;
}

function demandsOf(sig: InputSignature): Demand[] {
  const out: Demand[] = [];
  if (sig.counts.title) out.push({ kind: 'title', key: 'title', weight: 3 });
  if (sig.counts.subtitle) out.push({ kind: 'subtitle', key: 'subtitle', weight: 2 });
  sig.column_details.forEach((col, i) => {
    if (col.kind === 'table' || col.kind === 'text') out.push({ kind: 'column', key: col.kind === 'table' ? 'table' : 'body', weight: 3, column: col, columnNo: i + 1 });
    for (let k = 0; k < col.charts; k++) out.push({ kind: 'chart', key: 'chart', weight: 2.5, columnNo: i + 1 });
    for (let k = 0; k < col.images; k++) out.push({ kind: 'image', key: 'object', weight: 2.5, columnNo: i + 1 });
  });
  sig.column_details.forEach((col, i) => {
    if (col.header) out.push({ kind: 'columnHeader', key: 'body', weight: 1.5, columnNo: i + 1 });
  });
  // footer counts the footer text and the header text (sig.header says whether one is the header)
  const footerTexts = sig.counts.footer - (sig.header ? 1 : 0);
  for (let k = 0; k < footerTexts; k++) out.push({ kind: 'footer', key: 'footer', weight: 0.5 });
  if (sig.header) out.push({ kind: 'slideHeader', key: 'footer', weight: 0.5 });
  if (sig.counts.textbox) out.push({ kind: 'footnote', key: 'textbox', weight: 1 });
  return out;
}

/** Width ratios by font name (bounded: names come from uploaded templates and requests). */
const fontRatios = new BoundedMemo<number>();
const PANGRAM = 'The quick brown fox jumps over the lazy dog 0123456789';

/** Width of text in `font` relative to the reference face. */
function fontRatio(font: string): number {
  let r = fontRatios.get(font);
  if (r === undefined) {
    r = measure(PANGRAM, { name: font, size_pt: 10 }) / measure(PANGRAM, { name: REFERENCE_FONT, size_pt: 10 });
    fontRatios.set(font, r);
  }
  return r;
}

/** Lines a text column needs in an area at `sizePt` (each bullet wraps by its measured width; 5 % slack for word breaks). */
export function linesNeeded(col: ColumnSignature, area: DoctorContentArea, sizePt: number): number {
  if (area.text_width_pt <= 0) return Number.POSITIVE_INFINITY;
  const k = sizePt * fontRatio(area.font_name) * 1.05;
  let n = 0;
  for (const w of col.bullet_widths_em) n += Math.max(1, Math.ceil((w * k) / area.text_width_pt - 1e-9));
  return n;
}

interface Fit {
  /** How well the content fits the area, 0–1. */
  value: number;
  note: string;
}

/** Capacity fit of a column in an area. */
function capacityFit(col: ColumnSignature, area: DoctorContentArea | undefined): Fit {
  if (col.kind === 'text') {
    if (!area || area.lines_at_min_size <= 0) return { value: 0.1, note: 'no measurable text room' };
    const needT = linesNeeded(col, area, area.font_size_pt);
    const need8 = linesNeeded(col, area, Math.min(MIN_FONT_SIZE_PT, area.font_size_pt));
    const capT = area.lines_at_template_size;
    const cap8 = area.lines_at_min_size;
    if (needT <= capT) return { value: 1, note: `${needT} lines fit at ${area.font_size_pt} pt (room for ${capT})` };
    if (need8 <= cap8) return { value: 0.55 + 0.4 * (capT / needT), note: `${needT} lines; holds ${capT} at ${area.font_size_pt} pt, ${cap8} at ${MIN_FONT_SIZE_PT} pt (shrinks)` };
    return { value: 0.5 * Math.min(1, cap8 / Math.max(1, need8)), note: `${need8} lines at ${MIN_FONT_SIZE_PT} pt; holds ${cap8} (overflows)` };
  }
  if (col.kind === 'table') {
    const rows = col.table_rows;
    const capT = area?.table_rows_at_template_size ?? 0;
    const cap8 = area?.table_rows_at_min_size ?? 0;
    if (cap8 <= 0) return { value: 0.1, note: 'no measurable table room' };
    if (rows <= capT) return { value: 1, note: `${rows} rows fit at ${area!.table_font_size_pt} pt (room for ${capT})` };
    if (rows <= cap8) return { value: 0.6 + 0.35 * (capT / rows), note: `${rows} rows; holds ${capT} at ${area!.table_font_size_pt} pt, ${cap8} at ${MIN_FONT_SIZE_PT} pt (shrinks)` };
    return { value: 0.3 + 0.25 * (cap8 / rows), note: `${rows} rows; holds ${cap8} at ${MIN_FONT_SIZE_PT} pt (paginates)` };
  }
  return { value: 1, note: '' };
}

/** Type affinity of a demand for a slot kind (0 = cannot go there). */
function typeAffinity(d: Demand, s: Slot, sig: InputSignature, hasContentSlots: boolean): number {
  const vertical = s.area?.vertical ?? false;
  switch (d.kind) {
    case 'title':
      return s.kind === 'title' ? 1 : 0;
    case 'subtitle':
      if (s.kind === 'subTitle') return 1;
      if (s.kind === 'body') return vertical ? 0.2 : 0.7;
      if (s.kind === 'obj' && sig.column_details.every((c) => c.kind === 'empty')) return 0.5;
      return 0;
    case 'columnHeader':
      return s.kind === 'body' && !vertical ? 1 : 0;
    case 'footer':
      return s.kind === 'ftr' ? 1 : 0;
    case 'slideHeader':
      // as generation: a hdr placeholder, else the header band (a candidate has a band slot only without hdr)
      return s.kind === 'hdr' || s.kind === 'band' ? 1 : 0;
    case 'footnote':
      return s.kind === 'footnote' ? 1 : 0;
    case 'chart':
      // As generation places charts: the slide's own charts, chart placeholders, then obj.
      return s.kind === 'chartFrame' || s.kind === 'chart' ? 1 : s.kind === 'obj' ? 0.8 : 0;
    case 'image':
      return s.kind === 'pic' ? 1 : s.kind === 'obj' ? 0.8 : 0;
    case 'column': {
      const col = d.column!;
      let a = 0;
      // As generation fills columns: obj/tbl placeholders, and body placeholders only when there are none.
      const body = hasContentSlots ? 0 : 1;
      if (col.kind === 'text') a = s.kind === 'obj' ? 1 : s.kind === 'body' ? 0.95 * body : s.kind === 'tbl' ? 0.5 : 0;
      else if (col.kind === 'table') a = s.kind === 'tbl' || s.kind === 'tableFrame' ? 1 : s.kind === 'obj' ? 0.9 : s.kind === 'body' ? 0.6 * body : 0;
      // Vertical text is a poor home for bullets; a table ignores it.
      return vertical && col.kind === 'text' && a > 0 ? a * 0.25 : a;
    }
  }
}

/** Partial credit for a candidate role that is near the wanted one. */
const ROLE_NEAR: ReadonlyArray<[SlideRole, SlideRole, number]> = [
  ['title', 'section', 0.6],
  ['section', 'title', 0.6],
  ['two-content', 'comparison', 0.6],
  ['comparison', 'two-content', 0.6],
  ['table', 'content', 0.6],
  ['chart', 'content', 0.6],
  ['picture', 'content', 0.5],
  ['content', 'two-content', 0.3],
  ['content', 'comparison', 0.2],
  ['two-content', 'content', 0.3],
  ['table', 'two-content', 0.3],
  ['chart', 'two-content', 0.3],
  ['title-only', 'section', 0.3],
  ['title-only', 'title', 0.3],
  ['blank', 'title-only', 0.3],
  ['content', 'other', 0.2],
  ['two-content', 'other', 0.3],
  ['other', 'two-content', 0.3],
  ['other', 'comparison', 0.3],
];

/** How well a candidate's role suits the wanted role, 0–1. */
export function roleFit(wanted: SlideRole, actual: SlideRole): number {
  if (wanted === actual) return 1;
  for (const [w, a, v] of ROLE_NEAR) if (w === wanted && a === actual) return v;
  return 0;
}

const SLOT_LABEL: Readonly<Record<SlotKind, string>> = {
  title: 'title', subTitle: 'subtitle', body: 'body', obj: 'content', tbl: 'table', chart: 'chart', pic: 'picture', other: 'object',
  tableFrame: 'table frame', chartFrame: 'chart frame', footnote: 'footnote box', field: 'field box', ftr: 'footer', hdr: 'header', dt: 'date', sldNum: 'slide number', band: 'header band',
};

function describeDemand(d: Demand): string {
  if (d.kind === 'column') {
    const c = d.column!;
    const what = c.kind === 'text' ? `${c.bullets} bullet${c.bullets === 1 ? '' : 's'}` : `table ${c.table_rows}×${c.table_cols}`;
    return `column ${d.columnNo} (${what})`;
  }
  if (d.kind === 'chart' || d.kind === 'image') return `column ${d.columnNo} ${d.kind}`;
  if (d.kind === 'columnHeader') return `column ${d.columnNo} header`;
  if (d.kind === 'slideHeader') return 'header';
  return d.kind;
}

function round4(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 10000) / 10000;
}

/**
 * Scores one candidate for a signature: counts, exactness, score and reasons.
 *
 * @param sig - from {@link signature}
 * @param candidate - an analyzed slide or layout
 */
export function scoreCandidate(sig: InputSignature, candidate: MatchCandidate): MatchItem {
  const d = doctorOf(candidate);
  const slots = slotsOf(candidate, d, sig.header);
  const demands = demandsOf(sig);
  const n = demands.length;
  const m = slots.length;
  const FORBIDDEN = 1e6;
  const hasContentSlots = slots.some((s) => s.kind === 'obj' || s.kind === 'tbl');
  const aff: number[][] = [];
  const fits: Array<Array<Fit | undefined>> = [];
  const cost: number[][] = demands.map((dm, i) => {
    const row: number[] = [];
    aff[i] = [];
    fits[i] = [];
    for (let j = 0; j < m; j++) {
      const s = slots[j]!;
      const a = typeAffinity(dm, s, sig, hasContentSlots);
      const fit = dm.kind === 'column' && a > 0 ? capacityFit(dm.column!, s.area) : undefined;
      aff[i]![j] = a;
      fits[i]![j] = fit;
      row.push(a > 0 ? dm.weight * (1 - a * (fit?.value ?? 1)) : FORBIDDEN);
    }
    for (let j = 0; j < n; j++) row.push(dm.weight * 1.5);
    return row;
  });
  const assignment = n ? minCostAssignment(cost) : [];

  const matched = zeroCounts();
  const overflow = zeroCounts();
  const unused = zeroCounts();
  const input = sig.counts;
  const usedSlots = new Set<number>();
  const reasons: string[] = [];
  const overflowNotes: string[] = [];
  let coverW = 0;
  let inputW = 0;
  let placeSum = 0;
  let placeW = 0;
  let capSum = 0;
  let capN = 0;
  demands.forEach((dm, i) => {
    inputW += dm.weight;
    const j = assignment[i]!;
    if (j < m && aff[i]![j]! > 0) {
      const s = slots[j]!;
      usedSlots.add(j);
      matched[dm.key]++;
      coverW += dm.weight;
      placeSum += dm.weight * aff[i]![j]!;
      placeW += dm.weight;
      const fit = fits[i]![j];
      if (fit && (dm.column!.kind === 'text' || dm.column!.kind === 'table')) {
        capSum += fit.value;
        capN++;
      }
      const where = `${SLOT_LABEL[s.kind]}${s.inherited ? ' (from layout)' : ''}`;
      const extra = aff[i]![j]! < 1 ? (s.area?.vertical && (dm.kind !== 'column' || dm.column!.kind === 'text') ? ' (vertical text)' : ' (substitute)') : '';
      reasons.push(`${describeDemand(dm)} → ${where}${extra}${fit?.note ? `: ${fit.note}` : ''}`);
    } else {
      overflow[dm.key]++;
      overflowNotes.push(describeDemand(dm));
    }
  });
  // Input counts beyond the demands (none today) still balance.
  for (const k of COUNT_KEYS) {
    const extra = input[k] - matched[k] - overflow[k];
    if (extra > 0) overflow[k] += extra;
  }
  let offerW = 0;
  let unusedW = 0;
  const unusedNotes = new Map<string, number>();
  slots.forEach((s, j) => {
    if (isFooterSlot(s.kind)) return;
    offerW += s.weight;
    if (usedSlots.has(j)) return;
    unused[s.key]++;
    unusedW += s.weight;
    unusedNotes.set(SLOT_LABEL[s.kind], (unusedNotes.get(SLOT_LABEL[s.kind]) ?? 0) + 1);
  });

  const exact = COUNT_KEYS.every((k) => overflow[k] === 0 && unused[k] === 0);
  const coverage = inputW > 0 ? coverW / inputW : 1;
  const precision = offerW > 0 ? 1 - unusedW / offerW : 1;
  const capacity = capN > 0 ? capSum / capN : sig.column_details.some((c) => c.kind === 'text' || c.kind === 'table') ? 0 : 1;
  const placement = placeW > 0 ? placeSum / placeW : inputW > 0 ? 0 : 1;
  const role = roleFit(sig.expected_role, d.role);
  const W = SCORE_WEIGHTS;
  const score = round4(W.coverage * coverage + W.precision * precision + W.capacity * capacity + W.placement * placement + W.role * role + W.exact * (exact ? 1 : 0));

  const head: string[] = [];
  head.push(exact ? 'exact: every element has a place and no placeholder is left empty' : `not exact: ${sum(overflow)} without a place, ${sum(unused)} placeholder${sum(unused) === 1 ? '' : 's'} left empty`);
  if (overflowNotes.length) head.push(`no place for: ${overflowNotes.join(', ')}`);
  if (unusedNotes.size) head.push(`left empty: ${[...unusedNotes].map(([k, v]) => `${v} ${k}`).join(', ')}`);
  head.push(`role ${d.role}${d.role === sig.expected_role ? '' : ` (wanted ${sig.expected_role})`}`);
  return {
    template_id: candidate.template_id,
    slide_id: candidate.slide_id,
    slide_index: candidate.slide_index,
    score,
    is_exact_match: exact,
    layout_name: candidate.layout_name,
    matched_counts: matched,
    overflow_counts: overflow,
    unused_counts: unused,
    reasons: [...head, ...reasons],
  };
}

function sum(c: MatchCounts): number {
  let n = 0;
  for (const k of COUNT_KEYS) n += c[k];
  return n;
}

/**
 * Ranks candidates for a signature: scores every one ({@link scoreCandidate}), sorts by
 * score descending, then template order (`template_order`, else order of first appearance
 * of the template id), then `slide_index`, then input order; returns the first `topK`
 * (all when `topK` is not a positive number). Deterministic for the same inputs.
 */
export function rankCandidates(sig: InputSignature, candidates: readonly MatchCandidate[], topK: number): MatchItem[] {
  const firstSeen = new Map<string, number>();
  candidates.forEach((c) => {
    if (!firstSeen.has(c.template_id)) firstSeen.set(c.template_id, firstSeen.size);
  });
  const scored = candidates.map((c, i) => ({ item: scoreCandidate(sig, c), order: c.template_order ?? firstSeen.get(c.template_id)!, index: c.slide_index, i }));
  scored.sort((a, b) => b.item.score - a.item.score || a.order - b.order || a.index - b.index || a.i - b.i);
  const k = Number.isFinite(topK) && topK > 0 ? Math.floor(topK) : scored.length;
  return scored.slice(0, k).map((s) => s.item);
}
