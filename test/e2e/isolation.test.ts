/**
 * Organization isolation: every endpoint, called with another organization's key on this
 * organization's resources, answers 404 — never revealing that the resource exists.
 */
import t from 'tap';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

t.test("another organization's key gets 404 on every resource of this one", async (t) => {
  const { templateId, results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const analysisId = ((await (await svc.api(`/api/v1/templates/${templateId}`)).json()) as Json).analysis.analysis_id as string;
  const layoutId = (results.layouts as Json[])[1]!.slide_id as string;
  const gen = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layoutId, slide_data: { title: 'x' } }] } })).json()) as Json;
  await waitForGeneration(svc, gen.generation_id as string);
  const genId = gen.generation_id as string;

  const calls: Array<[string, string, unknown?]> = [
    ['GET', `/api/v1/templates/${templateId}`],
    ['PATCH', `/api/v1/templates/${templateId}`, { metadata: { category: 'stolen' } }],
    ['DELETE', `/api/v1/templates/${templateId}`],
    ['DELETE', `/api/v1/templates/${templateId}?permanent=true`],
    ['POST', `/api/v1/templates/${templateId}/restore`],
    ['GET', `/api/v1/templates/${templateId}/download`],
    ['POST', `/api/v1/templates/${templateId}/analysis`, {}],
    ['GET', `/api/v1/templates/${templateId}/analysis`],
    ['GET', `/api/v1/templates/${templateId}/analysis?analysis_id=${analysisId}`],
    ['GET', `/api/v1/templates/${templateId}/analysis/status`],
    ['DELETE', `/api/v1/templates/${templateId}/analysis/${analysisId}`],
    ['GET', `/api/v1/templates/${templateId}/slides/1`],
    ['GET', `/api/v1/templates/${templateId}/slides/1/preview`],
    ['GET', `/api/v1/presentations/${genId}/slides/1/preview`],
    ['GET', `/api/v1/presentations/${genId}/status`],
    ['GET', `/api/v1/presentations/${genId}/download`],
    ['POST', '/api/v1/presentations/generate-deck', { slides: [{ template_slide_id: layoutId, slide_data: {} }] }],
    ['POST', '/api/v1/presentations/generate', { template_slide_id: layoutId, slide_data: {} }],
  ];
  for (const [method, path, body] of calls) {
    const r = await svc.api(path, { method, as: ORG_B, ...(body !== undefined ? { json: body } : {}) });
    t.equal(r.status, 404, `${method} ${path}`);
    const detail = ((await r.json()) as Json).detail as string;
    t.notMatch(detail, /acme/, 'the answer does not name the owner');
  }
  const direct = await svc.api(`/api/v1/templates/${templateId}/upload`, { method: 'PUT', as: ORG_B, headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([80, 75, 3, 4]) });
  t.equal(direct.status, 404, 'PUT upload');
  const list = (await (await svc.api('/api/v1/templates', { as: ORG_B })).json()) as Json;
  t.equal(list.pagination.total, 0, "the other organization's list is empty");
  const still = (await (await svc.api(`/api/v1/templates/${templateId}`)).json()) as Json;
  t.equal(still.status, 'ready', 'nothing changed for the owner');
  t.equal(still.metadata.category, 'test');
});
