/**
 * Obvious matches on corpus templates: the layout a person would pick comes first, and the
 * ranking is deterministic.
 */
import t from 'tap';
import { diagnose } from '../../../core/src/doctor/index.js';
import { candidatesFromAnalysis, rankCandidates, signature, type MatchCandidate, type MatchItem } from '../../../core/src/matching/index.js';
import { corpusFilesOfFor, needsCorpus } from '../../helpers/corpus.js';
import { analyzed, bullets, chart, image, needsTemplates, table } from './fixtures.js';

async function layouts(file: string, id = 'tpl_a', order?: number): Promise<MatchCandidate[]> {
  return candidatesFromAnalysis(id, await analyzed(file), 'layouts', undefined, order);
}

const STANDARD = ['poi-layouts-showcase.pptx', 'pandoc-footer-reference.pptx', 'onlyoffice-sample-en.pptx'];

for (const file of STANDARD) {
  t.test(`${file}: a title-only slide matches the Title Only layout exactly, first`, needsTemplates(file), async (t) => {
    const [best] = rankCandidates(signature({ title: 'Just a title' }), await layouts(file), 5);
    t.equal(best!.layout_name, 'Title Only');
    t.equal(best!.is_exact_match, true);
    t.equal(best!.score, 1);
  });

  t.test(`${file}: two columns match Two Content first; two columns with headers match Comparison first`, needsTemplates(file), async (t) => {
    const cands = await layouts(file);
    const [two] = rankCandidates(signature({ title: 'T', content: [bullets(3), bullets(4)] }), cands, 3);
    t.equal(two!.layout_name, 'Two Content');
    t.equal(two!.is_exact_match, true);
    t.equal(two!.matched_counts.body, 2);
    const [cmp] = rankCandidates(signature({ title: 'T', content: [bullets(3, 'Before'), bullets(4, 'After')] }), cands, 3);
    t.equal(cmp!.layout_name, 'Comparison');
    t.equal(cmp!.is_exact_match, true);
    t.equal(cmp!.matched_counts.body, 4, 'two text areas and two headings');
  });

  t.test(`${file}: a 30-row table goes to a table-capable layout`, needsTemplates(file), async (t) => {
    const r = await analyzed(file);
    const [best] = rankCandidates(signature({ title: 'Numbers', content: [table(30)] }), candidatesFromAnalysis('tpl_a', r, 'layouts'), 3);
    t.equal(best!.matched_counts.table, 1);
    t.equal(best!.overflow_counts.table, 0);
    const layout = r.layouts.find((l) => l.slide_id === best!.slide_id)!;
    t.ok(layout.shapes.some((s) => s.placeholder?.type === 'tbl' || s.placeholder?.type === 'obj'), `${layout.name} has a tbl or obj placeholder`);
    t.ok(best!.reasons.some((x) => /30 rows/.test(x)), 'a reason states the rows against the room');
  });
}

for (const file of ['poi-layouts-showcase.pptx', 'pandoc-footer-reference.pptx']) {
  t.test(`${file}: title + subtitle matches the Title Slide first`, needsTemplates(file), async (t) => {
    const [best, second] = rankCandidates(signature({ title: 'Annual report', subtitle: '2026' }), await layouts(file), 3);
    t.equal(best!.layout_name, 'Title Slide');
    t.equal(best!.is_exact_match, true);
    t.ok(best!.score > second!.score, 'strictly ahead of the next');
  });
}

t.test('onlyoffice-sample-en: title + subtitle goes to a title-like layout (its Title Slide has no subtitle)', needsTemplates('onlyoffice-sample-en.pptx'), async (t) => {
  const r = await analyzed('onlyoffice-sample-en.pptx');
  const d = diagnose(r);
  const [best] = rankCandidates(signature({ title: 'Annual report', subtitle: '2026' }), candidatesFromAnalysis('tpl_a', r, 'layouts', d), 3);
  const entry = d.layouts.find((e) => e.slide_id === best!.slide_id)!;
  t.ok(['title', 'section'].includes(entry.role), `${best!.layout_name} is ${entry.role}`);
  t.equal(best!.matched_counts.subtitle, 1);
});

t.test('python-pptx-populated-placeholders: a table prefers the table placeholder, a chart the chart placeholder, an image the picture placeholder', needsTemplates('python-pptx-populated-placeholders.pptx'), async (t) => {
  const cands = await layouts('python-pptx-populated-placeholders.pptx');
  const layoutOf = (m: MatchItem | undefined): string => m!.layout_name;
  t.equal(layoutOf(rankCandidates(signature({ content: [table(5)] }), cands, 1)[0]), '3_Custom Layout');
  t.equal(layoutOf(rankCandidates(signature({ content: [chart()] }), cands, 1)[0]), '2_Custom Layout');
  t.equal(layoutOf(rankCandidates(signature({ content: [image()] }), cands, 1)[0]), '7_Custom Layout');
  t.equal(layoutOf(rankCandidates(signature({ content: [bullets(3)] }), cands, 1)[0]), 'Custom Layout', 'text prefers obj over body');
});

t.test('poi-layouts-showcase: 14 bullets go to the horizontal body with the most room', needsTemplates('poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyzed('poi-layouts-showcase.pptx');
  const d = diagnose(r);
  const [best] = rankCandidates(signature({ title: 'Findings', content: [bullets(14)] }), candidatesFromAnalysis('tpl_a', r, 'layouts', d), 3);
  t.equal(best!.layout_name, 'Title and Content');
  t.ok(best!.reasons.some((x) => /14 lines/.test(x)), 'a reason states the lines needed');
});

t.test('across every corpus template, 14 bullets go to the exact layout with the most body room', needsCorpus(), async (t) => {
  const all: MatchCandidate[] = [];
  const roomOf = new Map<string, number>();
  let order = 0;
  for (const file of corpusFilesOfFor(t, 'templates')) {
    const r = await analyzed(file);
    const d = diagnose(r);
    for (const e of d.layouts) {
      const main = e.capacity.areas.find((a) => a.shape_id === e.capacity.main_body_shape_id);
      roomOf.set(e.slide_id, main && !main.vertical ? e.capacity.body_lines_at_template_size : 0);
    }
    all.push(...candidatesFromAnalysis(file, r, 'layouts', d, order++));
  }
  const sig = signature({ title: 'Findings', content: [bullets(14)] });
  const items = rankCandidates(sig, all, 20);
  const best = items[0]!;
  t.equal(best.is_exact_match, true);
  // The winner has the most body room of the exact candidates (14 lines when some layout
  // holds them; the measure is deliberately conservative, see core/src/text).
  const exactRoom = items.filter((m) => m.is_exact_match).map((m) => Math.min(14, roomOf.get(m.slide_id) ?? 0));
  t.equal(Math.min(14, roomOf.get(best.slide_id)!), Math.max(...exactRoom), `${best.template_id} / ${best.layout_name} holds ${roomOf.get(best.slide_id)} lines, the most of any exact candidate`);
  // Exact candidates that hold 14 lines all rank ahead of exact ones that must shrink the text.
  const exact = items.filter((m) => m.is_exact_match);
  const firstShrinking = exact.findIndex((m) => roomOf.get(m.slide_id)! < 14);
  if (firstShrinking >= 0) t.ok(exact.slice(firstShrinking).every((m) => roomOf.get(m.slide_id)! < 14 || m.reasons.some((x) => /vertical/.test(x))), 'roomy layouts first');
  // With only room-limited layouts, more room ranks higher.
  const small = await layouts('poi-layouts-showcase.pptx');
  const cwc = rankCandidates(sig, small, 0).find((m) => m.layout_name === 'Content with Caption')!;
  t.ok(cwc.reasons.some((x) => /shrinks/.test(x)), 'text that must shrink says so');
});

t.test('ranking is deterministic: the same input gives the same list, whatever the candidate order', needsTemplates('poi-aascu-summit-9masters.pptx', 'pandoc-footer-reference.pptx'), async (t) => {
  const a = await layouts('poi-aascu-summit-9masters.pptx', 'tpl_a', 0);
  const b = await layouts('pandoc-footer-reference.pptx', 'tpl_b', 1);
  const sig = signature({ title: 'T', content: [bullets(6), table(8)] });
  const first = rankCandidates(sig, [...a, ...b], 20);
  t.same(rankCandidates(sig, [...a, ...b], 20), first, 'same call, same result');
  const shuffled = [...a, ...b].map((c, i) => ({ c, k: (i * 7919) % 101 })).sort((x, y) => x.k - y.k).map((x) => x.c);
  t.same(rankCandidates(sig, shuffled, 20), first, 'shuffled candidates, same result');
  t.same(JSON.parse(JSON.stringify(first)), first, 'plain JSON');
  t.equal(rankCandidates(sig, [...a, ...b], 3).length, 3, 'top_k limits the list');
});

t.test('the input signature counts the nine keys and carries the detail', async (t) => {
  const sig = signature({ title: 'T', subtitle: 'S', footer: 'F', header: 'H', footnote: 'N', content: [bullets(3, 'A'), table(4, 2), chart(), image()] });
  t.same(sig.counts, { title: 1, subtitle: 1, body: 2, footer: 2, table: 1, chart: 1, textbox: 1, object: 1, custom_field: 0 });
  t.equal(sig.columns, 4);
  t.equal(sig.bullets, 3);
  t.equal(sig.table_rows, 4);
  t.equal(sig.table_cols, 2);
  t.equal(sig.column_details[1]!.table_header_rows, 1);
  t.equal(sig.expected_role, 'other');
  t.same(signature({}).counts, { title: 0, subtitle: 0, body: 0, footer: 0, table: 0, chart: 0, textbox: 0, object: 0, custom_field: 0 });
  t.equal(signature({ title: '  ' }).counts.title, 0, 'a blank title asks for nothing');
  t.equal(signature({ title: 'T', content: [bullets(2), bullets(2)] }).expected_role, 'two-content');
});

t.test('matchTemplates gives the whole result: signature, ranked matches, totals, best match', needsTemplates('poi-layouts-showcase.pptx', 'pandoc-footer-reference.pptx'), async (t) => {
  const { matchTemplates } = await import('../../../core/src/matching/index.js');
  const templates = [
    { template_id: 'tpl_1', results: await analyzed('poi-layouts-showcase.pptx') },
    { template_id: 'tpl_2', results: await analyzed('pandoc-footer-reference.pptx') },
  ];
  const res = matchTemplates({ title: 'Only a title' }, templates, 'layouts', 5);
  t.equal(res.total_templates_searched, 2);
  t.equal(res.total_slides_searched, 11 + 17);
  t.equal(res.matches.length, 5);
  t.same(res.best_match, res.matches[0]);
  t.equal(res.matches[0]!.template_id, 'tpl_1', 'equal exact Title Only layouts: the first template wins');
  t.equal(res.matches[1]!.template_id, 'tpl_2');
  t.equal(res.matches[1]!.layout_name, 'Title Only');
  t.same(res.input_signature.counts.title, 1);
  const none = matchTemplates({ title: 'x' }, [], 'slides', 5);
  t.same(none.matches, []);
  t.notOk('best_match' in none);
});
