/**
 * The DESIGN.md match rules, checked on every candidate (slide and layout) of several
 * corpus templates for many inputs: matched + overflow = input and matched + unused = offer
 * for every key, footer-area placeholders only as optional capacity (and the header band
 * while it takes the slide header: it counts under `footer` then), exactness exactly when
 * nothing overflows or is unused, scores in [0, 1], ranking order and tie-breaking.
 */
import t from 'tap';
import type { AnalyzedShape } from '../../../core/src/analysis/types.js';
import { candidatesFromAnalysis, COUNT_KEYS, rankCandidates, signature, type MatchCandidate, type MatchItem } from '../../../core/src/matching/index.js';
import { analyzed, INPUTS, needsTemplates } from './fixtures.js';

const TEMPLATES = [
  'poi-layouts-showcase.pptx',
  'pandoc-footer-reference.pptx',
  'onlyoffice-sample-en.pptx',
  'automizer-libreoffice-16x10.pptx',
  'python-pptx-populated-placeholders.pptx',
  'poi-aascu-summit-9masters.pptx',
  'poi-customgeo-48slides.pptx',
  'aspose-fonts-subst-101layouts.pptx',
];

const FOOTER = new Set(['dt', 'ftr', 'sldNum', 'hdr']);
const TEXT_PH = new Set(['title', 'ctrTitle', 'subTitle', 'body', 'obj', 'tbl', 'chart', 'pic', 'dgm', 'media', 'clipArt', 'sldImg']);

/**
 * What a candidate offers besides footer-area placeholders, counted straight from its shapes.
 * With a slide header in the input and no `hdr` placeholder of its own or inherited, the
 * doctor's header band takes the header, which counts under `footer`: it is not offered here.
 */
function offerOf(c: MatchCandidate, header: boolean): { total: number; title: number } {
  const hasHdr = c.shapes.some((s) => !s.hidden && s.kind === 'sp' && s.placeholder?.type === 'hdr') || (c.inherited_footer_types ?? []).includes('hdr');
  const bandTakesHeader = header && !hasHdr && (c.doctor?.capacity.areas.some((a) => a.role === 'header') ?? false);
  let total = bandTakesHeader ? -1 : 0;
  let title = 0;
  for (const s of c.shapes) {
    if (s.hidden) continue;
    const t = s.placeholder?.type;
    if (t !== undefined && FOOTER.has(t)) continue;
    if (s.kind === 'sp' && t !== undefined && TEXT_PH.has(t)) {
      total++;
      if (t === 'title' || t === 'ctrTitle') title++;
    } else if (s.kind === 'pic' && (t === 'pic' || t === 'obj')) total++;
    else if (s.kind === 'graphicFrame' && (s.graphic === 'table' || s.graphic === 'chart')) total++;
  }
  const walk = (list: AnalyzedShape[]): void => {
    for (const s of list) {
      if (s.hidden) continue;
      if (!s.placeholder && s.kind === 'sp' && (s.text.toLowerCase().includes('footnote') || /\{\{[^{}]+\}\}/.test(s.text))) total++;
      walk(s.children);
    }
  };
  walk(c.shapes);
  return { total, title };
}

function problemsOf(items: MatchItem[], cands: MatchCandidate[], input: Record<string, number>, header: boolean): string[] {
  const out: string[] = [];
  const byId = new Map(cands.map((c) => [c.slide_id, c]));
  for (const m of items) {
    const c = byId.get(m.slide_id)!;
    const where = `${c.layout_name}#${m.slide_index}`;
    for (const obj of [m.matched_counts, m.overflow_counts, m.unused_counts]) {
      if (Object.keys(obj).sort().join() !== [...COUNT_KEYS].sort().join()) out.push(`${where}: count keys ${Object.keys(obj)}`);
    }
    let offered = 0;
    let allZero = true;
    for (const k of COUNT_KEYS) {
      const mt = m.matched_counts[k], ov = m.overflow_counts[k], un = m.unused_counts[k];
      if (![mt, ov, un].every((x) => Number.isInteger(x) && x >= 0)) out.push(`${where}: ${k} not a count`);
      if (mt + ov !== input[k]) out.push(`${where}: ${k} matched ${mt} + overflow ${ov} != input ${input[k]}`);
      if (k !== 'footer') offered += mt + un;
      if (ov !== 0 || un !== 0) allZero = false;
    }
    const offer = offerOf(c, header);
    if (offered !== offer.total) out.push(`${where}: matched + unused over the non-footer keys = ${offered}, shapes offer ${offer.total}`);
    if (m.matched_counts.title + m.unused_counts.title !== offer.title) out.push(`${where}: title matched + unused != ${offer.title} title placeholders`);
    if (m.unused_counts.footer !== 0) out.push(`${where}: footer placeholders counted unused`);
    if (m.matched_counts.footer > input.footer!) out.push(`${where}: footer matched beyond the input`);
    if (m.is_exact_match !== allZero) out.push(`${where}: is_exact_match ${m.is_exact_match} but counts say ${allZero}`);
    if (!(m.score >= 0 && m.score <= 1)) out.push(`${where}: score ${m.score}`);
    if (!Array.isArray(m.reasons) || m.reasons.length === 0 || !m.reasons.every((r) => typeof r === 'string' && r.length > 0 && r.length <= 200)) out.push(`${where}: reasons`);
  }
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!, b = items[i]!;
    if (a.score < b.score) out.push(`ranking: ${a.score} before ${b.score}`);
    if (a.score === b.score && a.template_id === b.template_id && a.slide_index > b.slide_index) out.push(`tie at ${a.score}: slide ${a.slide_index} before ${b.slide_index}`);
  }
  return out;
}

for (const file of TEMPLATES) {
  t.test(`${file}: every candidate keeps the count rules for every input`, needsTemplates(file), async (t) => {
    const r = await analyzed(file);
    for (const against of ['layouts', 'slides'] as const) {
      const cands = candidatesFromAnalysis('tpl_a', r, against);
      for (const [name, data] of Object.entries(INPUTS)) {
        const sig = signature(data);
        const items = rankCandidates(sig, cands, 0);
        t.equal(items.length, cands.length, `${against}/${name}: every candidate ranked`);
        t.same(problemsOf(items, cands, sig.counts, sig.header), [], `${against}/${name}: rules hold on ${items.length} candidates`);
      }
    }
  });
}

t.test('a Title Only layout is an exact match for a title-only slide though it has footer placeholders', needsTemplates('poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyzed('poi-layouts-showcase.pptx');
  const cands = candidatesFromAnalysis('tpl_a', r, 'layouts');
  const items = rankCandidates(signature({ title: 'Only a title' }), cands, 0);
  const titleOnly = items.find((m) => m.layout_name === 'Title Only')!;
  t.ok(r.layouts.find((l) => l.name === 'Title Only')!.shapes.some((s) => s.placeholder?.type === 'ftr'), 'the layout has footer placeholders');
  t.equal(titleOnly.is_exact_match, true);
  t.equal(titleOnly.unused_counts.footer, 0);
  t.equal(titleOnly.matched_counts.footer, 0);
});

t.test('footer text is matched by a footer placeholder, counted once, never beyond the input', needsTemplates('poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyzed('poi-layouts-showcase.pptx');
  const cands = candidatesFromAnalysis('tpl_a', r, 'layouts');
  const [best] = rankCandidates(signature({ title: 'T', footer: 'ACME' }), cands, 1);
  t.equal(best!.layout_name, 'Title Only');
  t.equal(best!.matched_counts.footer, 1);
  t.equal(best!.is_exact_match, true);
});

t.test('ties rank the earlier template first, then the lower slide index', needsTemplates('poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyzed('poi-layouts-showcase.pptx');
  const a = candidatesFromAnalysis('tpl_a', r, 'layouts', undefined, 0);
  const b = candidatesFromAnalysis('tpl_b', r, 'layouts', undefined, 1);
  // b listed first: template_order, not list order, decides.
  const items = rankCandidates(signature({ title: 'T', content: [bullets3()] }), [...b, ...a], 0);
  const scoreOf = new Map(items.map((m) => [`${m.template_id}/${m.slide_index}`, m.score]));
  t.ok(a.every((c) => scoreOf.get(`tpl_a/${c.slide_index}`) === scoreOf.get(`tpl_b/${c.slide_index}`)), 'the same layout of both templates scores the same');
  const order = (m: MatchItem): number => (m.template_id === 'tpl_a' ? 0 : 1);
  const bad: string[] = [];
  for (let i = 1; i < items.length; i++) {
    const x = items[i - 1]!, y = items[i]!;
    if (x.score !== y.score) continue;
    if (order(x) > order(y) || (order(x) === order(y) && x.slide_index >= y.slide_index)) bad.push(`${x.template_id}/${x.slide_index} before ${y.template_id}/${y.slide_index} at ${x.score}`);
  }
  t.same(bad, [], 'equal scores: template order (tpl_a first although listed second), then slide order');
  t.ok(items.some((m, i) => i > 0 && items[i - 1]!.score === m.score), 'there are ties to break');
});

function bullets3() {
  return { blocks: [{ type: 'text' as const, text: { bullets: ['a', 'b', 'c'] } }] };
}
