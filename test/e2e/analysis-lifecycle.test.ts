/**
 * The analysis lifecycle through REST: status fields, re-analysis with new ids while
 * earlier analyses stay selectable, stable slide ids, cancellation, and the options and
 * labels a client sends.
 */
import t from 'tap';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { startTestService, waitFor, type TestService } from '../helpers/service.js';
import { analyze, uploadTemplate } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
t.before(async () => {
  // One analysis at a time, so a queued one can be cancelled while it is still pending.
  svc = await startTestService({ SLIDEWRIGHT_JOB_CONCURRENCY: '1' });
});
t.teardown(() => svc.close());

const json = async (r: Response): Promise<Json> => (await r.json()) as Json;

t.test('re-analysis makes a new analysis id, keeps the earlier one selectable and the slide ids stable', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const up = await uploadTemplate(svc, corpusPath('templates/poi-layouts-showcase.pptx'));
  const first = await analyze(svc, up.templateId, undefined, { parse_master_template_layout: true });
  t.equal(first.status, 'completed');
  for (const f of ['status', 'progress', 'current_step', 'message', 'steps', 'started_at', 'estimated_completion_at', 'elapsed_time', 'error']) t.ok(f in first, `status has ${f}`);
  t.equal(first.progress, 1);
  t.ok(first.steps.length >= 3 && first.steps.every((s: Json) => s.status === 'completed'), 'every step completed');
  t.type(first.elapsed_time, 'number');

  const a1 = await json(await svc.api(`/api/v1/templates/${up.templateId}/analysis`));
  const start = await svc.api(`/api/v1/templates/${up.templateId}/analysis`, { method: 'POST', json: { name: 'second pass', description: 'after branding update', priority: 'high', options: { include_custom_shapes: false } } });
  t.equal(start.status, 202);
  const started = await json(start);
  t.not(started.analysis_id, a1.analysis_id, 'a new analysis id');
  t.same(started.metadata, { name: 'second pass', description: 'after branding update', priority: 'high' });
  await waitFor(async () => ((await json(await svc.api(`/api/v1/templates/${up.templateId}/analysis/status`))).status === 'completed' ? true : undefined));
  const a2 = await json(await svc.api(`/api/v1/templates/${up.templateId}/analysis`));
  t.equal(a2.analysis_id, started.analysis_id, 'latest by default');
  t.equal(a2.options.include_custom_shapes, false, 'options are stored and returned');
  const again = await json(await svc.api(`/api/v1/templates/${up.templateId}/analysis?analysis_id=${a1.analysis_id}`));
  t.equal(again.analysis_id, a1.analysis_id, 'the earlier analysis stays selectable');
  t.ok(again.results.masters[0].shapes, 'parse_master_template_layout put master shapes in the first results');
  t.same(
    a2.results.layouts.map((l: Json) => l.slide_id),
    a1.results.layouts.map((l: Json) => l.slide_id),
    'layout ids are stable across re-analysis',
  );
  t.same(a2.results.slides.map((s: Json) => s.slide_id), a1.results.slides.map((s: Json) => s.slide_id), 'slide ids are stable');
  const noCustom = (a2.results.slides as Json[]).flatMap((s) => s.shapes as Json[]).filter((s) => !s.placeholder);
  t.same(noCustom, [], 'include_custom_shapes=false leaves only placeholders');
});

t.test('a pending analysis can be cancelled; the template keeps its last completed analysis', needsCorpus('templates/unstructured-science-exploration.pptx', 'templates/pandoc-footer-reference.pptx'), async (t) => {
  const big = await uploadTemplate(svc, corpusPath('templates/unstructured-science-exploration.pptx'));
  const small = await uploadTemplate(svc, corpusPath('templates/pandoc-footer-reference.pptx'));
  t.equal((await analyze(svc, small.templateId)).status, 'completed');
  const completedId = (await json(await svc.api(`/api/v1/templates/${small.templateId}`))).analysis.analysis_id as string;

  // Keep the single analysis slot busy, then queue one more for the small template.
  for (let i = 0; i < 3; i++) await svc.api(`/api/v1/templates/${big.templateId}/analysis`, { method: 'POST', json: {} });
  const queued = await json(await svc.api(`/api/v1/templates/${small.templateId}/analysis`, { method: 'POST', json: {} }));
  const cancel = await svc.api(`/api/v1/templates/${small.templateId}/analysis/${queued.analysis_id}`, { method: 'DELETE' });
  t.equal(cancel.status, 200);
  t.equal((await json(cancel)).status, 'cancelled');
  const st = await json(await svc.api(`/api/v1/templates/${small.templateId}/analysis/status?analysis_id=${queued.analysis_id}`));
  t.equal(st.status, 'cancelled');
  const tpl = await json(await svc.api(`/api/v1/templates/${small.templateId}`));
  t.equal(tpl.status, 'ready', 'still ready with its earlier analysis');
  const slide = await svc.api(`/api/v1/templates/${small.templateId}/slides/1`);
  t.ok([200, 404].includes(slide.status), 'slides still come from the completed analysis');
  t.equal((await svc.api(`/api/v1/templates/${small.templateId}/analysis/${queued.analysis_id}`, { method: 'DELETE' })).status, 409, 'cancelling twice is a conflict');
  t.equal((await svc.api(`/api/v1/templates/${small.templateId}/analysis/${completedId}`, { method: 'DELETE' })).status, 409, 'a completed analysis cannot be cancelled');
  await waitFor(async () => ((await json(await svc.api(`/api/v1/templates/${big.templateId}/analysis/status`))).status === 'completed' ? true : undefined), 120_000);
});
