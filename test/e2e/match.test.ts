/**
 * Matching through REST on real templates: the response shape and the counting rules of
 * DESIGN.md on every match, capacity-aware rankings, the doctor's report in the analysis.
 */
import t from 'tap';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const KEYS = ['title', 'subtitle', 'body', 'footer', 'table', 'chart', 'textbox', 'object', 'custom_field'];

let svc: TestService;
let pandoc: { templateId: string; results: Json };
const templates = needsCorpus('templates/pandoc-footer-reference.pptx', 'templates/onlyoffice-sample-en.pptx');
t.before(async () => {
  svc = await startTestService();
  if (templates.skip) return;
  pandoc = await uploadAndAnalyze(svc, corpusPath('templates/pandoc-footer-reference.pptx'));
  await uploadAndAnalyze(svc, corpusPath('templates/onlyoffice-sample-en.pptx'));
});
t.teardown(() => svc.close());

async function match(body: Json, as?: { key: string }): Promise<{ status: number; body: Json }> {
  const r = await svc.api('/api/v1/templates/match', { method: 'POST', json: body, as });
  return { status: r.status, body: (await r.json()) as Json };
}

t.test('every match obeys the counting rules and the response carries every field', templates, async (t) => {
  const inputs: Json[] = [
    { title: 'Only a title' },
    { title: 'T', subtitle: 'S' },
    { title: 'T', content: { blocks: [{ type: 'text', text: { bullets: Array.from({ length: 14 }, (_, i) => `Point ${i}`) } }] } },
    { title: 'T', content: [{ blocks: [{ type: 'text', text: { bullets: ['a'] } }] }, { blocks: [{ type: 'text', text: { bullets: ['b'] } }] }] },
    { title: 'T', footer: 'F', content: { blocks: [{ type: 'table', table: { table: { rows: [{ cells: [{ value: 'h' }], is_header: true }, { cells: [{ value: 'v' }] }] } } }] } },
  ];
  for (const slide_data of inputs) {
    for (const match_against of ['slides', 'layouts']) {
      const r = await match({ slide_data, match_against, top_k: 20 });
      t.equal(r.status, 200);
      const body = r.body;
      for (const f of ['input_signature', 'matches', 'total_templates_searched', 'total_slides_searched', 'best_match']) t.ok(f in body, `response has ${f}`);
      t.equal(body.total_templates_searched, 2);
      const input = body.input_signature.counts as Json;
      let last = Infinity;
      for (const m of body.matches as Json[]) {
        t.ok(m.score >= 0 && m.score <= 1 && m.score <= last, 'scores in [0, 1], ranked');
        last = m.score;
        let exact = true;
        for (const k of KEYS) {
          t.equal(m.matched_counts[k] + m.overflow_counts[k], input[k], `matched + overflow = input (${k})`);
          if (m.overflow_counts[k] || m.unused_counts[k]) exact = false;
        }
        t.equal(m.is_exact_match, exact, 'exact exactly when nothing overflows or goes unused');
        t.ok(Array.isArray(m.reasons) && m.reasons.length > 0, 'reasons given');
      }
      t.same(body.best_match, body.matches[0] ?? null);
    }
  }
});

t.test('a title-only input matches a Title Only layout exactly; title+subtitle prefers a title layout', templates, async (t) => {
  const titleOnly = await match({ slide_data: { title: 'Agenda' }, match_against: 'layouts' });
  t.equal(titleOnly.body.best_match.layout_name, 'Title Only');
  t.equal(titleOnly.body.best_match.is_exact_match, true);
  const titleSub = await match({ slide_data: { title: 'Q3', subtitle: 'Review' }, match_against: 'layouts' });
  t.match(titleSub.body.best_match.layout_name, /Title Slide|Section Header/);
  const two = await match({ slide_data: { title: 'T', content: [{ blocks: [{ type: 'text', text: { bullets: ['a', 'b'] } }] }, { blocks: [{ type: 'text', text: { bullets: ['c'] } }] }] }, match_against: 'layouts' });
  t.match(two.body.best_match.layout_name, /Two Content|Comparison/);
  const deterministic = await match({ slide_data: { title: 'Q3', subtitle: 'Review' }, match_against: 'layouts' });
  t.same(deterministic.body.matches, titleSub.body.matches, 'deterministic');
});

t.test('validation and scoping', async (t) => {
  t.equal((await match({ slide_data: {}, top_k: 0 })).status, 422);
  t.equal((await match({ slide_data: {}, top_k: 21 })).status, 422);
  const bad = await match({ slide_data: {}, match_against: 'decks' });
  t.equal(bad.status, 422);
  t.same(bad.body.detail[0].loc, ['body', 'match_against']);
  const other = await match({ slide_data: { title: 'x' } }, ORG_B);
  t.equal(other.status, 200);
  t.equal(other.body.total_templates_searched, 0, "another organization's templates are never searched");
  t.same(other.body.matches, []);
});

t.test("the analysis results carry the template doctor's report", templates, async (t) => {
  const doctor = pandoc.results.doctor as Json;
  t.ok(doctor, 'results.doctor');
  t.ok(Array.isArray(doctor.layouts) && doctor.layouts.length === pandoc.results.layouts.length, 'one entry per layout');
});
