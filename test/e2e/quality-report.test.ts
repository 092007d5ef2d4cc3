/**
 * The quality report over REST (issue 23, item 1): `GET /presentations/{id}/report` gives
 * `summary`, `checks` and `findings` located by deck slide and shape; the status record
 * carries the summary; the route is in the OpenAPI document.
 */
import t from 'tap';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { ORG_B, startTestService } from '../helpers/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const svc = await startTestService();
t.teardown(() => svc.close());

const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
const content = (results.layouts as Json[]).find((l) => l.type === 'obj')!.slide_id as string;

t.test('a deck with planted faults: the report finds each on its slide and shape; the status carries the summary', async (t) => {
  const r = await svc.api('/api/v1/presentations/generate-deck', {
    method: 'POST',
    json: {
      slides: [
        // pale grey title (about 1.6:1 on white) in a font the template does not use
        { template_slide_id: content, slide_data: { title: 'Quarterly results', content: { blocks: [{ type: 'text', text: { bullets: ['Revenue grew'] } }] }, slide_format: { title: { color: 'D0D0D0', font_name: 'Comic Sans MS' } } } },
        { template_slide_id: content, slide_data: { title: 'Quarterly results', content: { blocks: [{ type: 'text', text: { bullets: ['Margin improved'] } }] } } },
      ],
    },
  });
  t.equal(r.status, 202);
  const job = (await r.json()) as Json;
  const st = await waitForGeneration(svc, job.generation_id as string);
  t.equal(st.status, 'completed', JSON.stringify(st.errors));

  const res = await svc.api(`/api/v1/presentations/${job.generation_id}/report`);
  t.equal(res.status, 200);
  const report = (await res.json()) as Json;
  t.same(report.checks, ['package', 'fit', 'accessibility', 'brand']);
  t.same(st.report_summary, report.summary, 'the status record carries the report summary');
  t.equal(report.summary.errors, 0, 'a delivered deck has no package errors');
  const findings = report.findings as Json[];
  const count = (sev: string) => findings.filter((f) => f.severity === sev).length;
  t.same(report.summary, { errors: count('error'), warnings: count('warning'), info: count('info') }, 'the summary counts the findings');

  const contrast = findings.find((f) => f.code === 'low_contrast') ?? {};
  t.match(contrast, { slide_index: 0, shape_name: /Title/, category: 'accessibility', severity: 'warning', details: { text_color: 'D0D0D0', background_color: 'FFFFFF' } });
  t.ok(contrast.details.ratio < 2, `contrast ratio ${contrast.details.ratio}`);
  t.type(contrast.shape_id, 'number');
  t.match(findings.find((f) => f.code === 'off_theme_font'), { slide_index: 0, shape_name: /Title/, category: 'brand', details: { fonts: 'Comic Sans MS' } });
  t.match(findings.find((f) => f.code === 'duplicate_title'), { slide_index: 1, shape_name: /Title/, details: { same_as_slide_index: 0 } });
  t.notOk(findings.some((f) => f.slide_index === 1 && (f.code === 'low_contrast' || f.code === 'off_theme_font')), 'the second slide keeps the template font and colour');
});

t.test('unknown and foreign ids are 404; the route is documented', async (t) => {
  t.equal((await svc.api('/api/v1/presentations/gen_01J0000000000000000000000/report')).status, 404);
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: content, slide_data: { title: 'One' } }] } });
  const job = (await r.json()) as Json;
  await waitForGeneration(svc, job.generation_id as string);
  t.equal((await svc.api(`/api/v1/presentations/${job.generation_id}/report`, { as: ORG_B })).status, 404, 'another organization does not see it');
  const doc = (await (await svc.api('/openapi.json', { as: null })).json()) as Json;
  t.ok(doc.paths['/api/v1/presentations/{generation_id}/report']?.get, 'OpenAPI documents GET .../report');
});
