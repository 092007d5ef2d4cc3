/**
 * Embedded mode's gateway reaches core over the in-process channel by default and over
 * core's gRPC server on loopback with `SLIDEWRIGHT_GATEWAY_CHANNEL=grpc` (issue 20: the
 * channel made a status GET ~3× cheaper). A client must not be able to tell them apart:
 * the same requests — errors core answers (401, 404, 413 recorded by core, 422 of an
 * upload core validates), a template uploaded and analyzed, a deck generated, downloaded
 * and previewed — get the same status codes, headers that matter and bodies (ids and
 * times aside) from a service on each channel; and core's gRPC port still serves the
 * in-process service's data to a gRPC client.
 */
import t from 'tap';
import * as grpc from '@grpc/grpc-js';
import { startTestService, ORG_A, type TestService } from '../helpers/service.js';
import { analyze, PPTX_MEDIA_TYPE, waitForGeneration } from '../helpers/flows.js';
import { houseTemplate } from '../fixtures/house-template.js';
import { SERVICE_DEFINITIONS } from '../../core/src/grpc/messages.js';
import { MD } from '../../core/src/protocol/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One request's answer as the comparison sees it. */
interface Answer {
  step: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/** Ids, times, signatures and URLs differ between two services by design: replaced by their kind. */
function normalized(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      .replace(/https?:\/\/127\.0\.0\.1:\d+\S*/g, '<url>')
      .replace(/\b(tpl|gen|ana|lay|sld)_[\w-]+/g, '<$1>')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      .replace(/\b[0-9a-f]{16,}\b/g, '<hex>');
  }
  if (Array.isArray(value)) return value.map(normalized);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v)]));
  return value;
}

/** Runs the same client session on `svc`; returns every answer in order. */
async function session(svc: TestService, template: Buffer): Promise<Answer[]> {
  const answers: Answer[] = [];
  const record = async (step: string, r: Response): Promise<Json> => {
    const contentType = r.headers.get('content-type') ?? undefined;
    const isJson = contentType?.includes('json') === true;
    const raw = isJson ? await r.json() : Buffer.from(await r.arrayBuffer());
    const body = isJson ? normalized(raw) : contentType?.startsWith('image/') ? `${(raw as Buffer).length} bytes` : `${(raw as Buffer).subarray(0, 4).toString('hex')}…`;
    answers.push({ step, status: r.status, contentType, body });
    return isJson ? (raw as Json) : {};
  };
  await record('status without a key', await svc.api('/api/v1/presentations/gen_nothing/status', { as: null }));
  await record('status of an unknown deck', await svc.api('/api/v1/presentations/gen_nothing/status'));
  await record('template with a bad body (the gateway validates)', await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 42 } }));
  // an upload that is not a presentation: core looks into the bytes
  const junk = await record('create a template', await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'junk.pptx', file_size: 9 } }));
  await record('upload bytes that are no zip', await svc.api(`/api/v1/templates/${junk['template_id'] as string}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: 'not a zip' }));
  await record('the refused template', await svc.api(`/api/v1/templates/${junk['template_id'] as string}`));
  // an upload over the limit: refused by the gateway, recorded by core
  const big = await record('create a template for a large upload', await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'big.pptx', file_size: 100 } }));
  await record('upload over the limit', await svc.api(`/api/v1/templates/${big['template_id'] as string}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: Buffer.alloc(300_000, 7) }));
  await record('the template refused for its size', await svc.api(`/api/v1/templates/${big['template_id'] as string}`));
  // a real template, analyzed; a deck from its layouts, downloaded and previewed
  const created = await record('create the house template', await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'house.pptx', file_size: template.length, metadata: { category: 'test', tags: ['ünïcødé'] } } }));
  const templateId = created['template_id'] as string;
  await record('upload it (signed URL)', await fetch(created['upload_url'] as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: template }));
  const analysis = await analyze(svc, templateId);
  answers.push({ step: 'analysis ends', status: 200, contentType: 'application/json', body: normalized(analysis['status']) });
  const results = (await record('the analysis', await svc.api(`/api/v1/templates/${templateId}/analysis`)))['results'] as Json;
  const layouts = (results['layouts'] as Json[]).map((l) => l['slide_id'] as string);
  const deck = await record(
    'generate a deck',
    await svc.api('/api/v1/presentations/generate-deck', {
      method: 'POST',
      json: { slides: layouts.slice(0, 3).map((id, i) => ({ template_slide_id: id, slide_data: { title: `Slide ${i + 1}: ✓ Überschrift`, content: { blocks: [{ type: 'text', text: { bullets: ['One', 'Two'] } }] } } })) },
    }),
  );
  const generationId = deck['generation_id'] as string;
  const done = await waitForGeneration(svc, generationId);
  answers.push({ step: 'the deck ends', status: 200, contentType: 'application/json', body: normalized({ ...done, updated_at: '', completed_at: '', created_at: '' }) });
  await record('download the deck', await svc.api(`/api/v1/presentations/${generationId}/download`));
  await record('preview slide 1', await svc.api(`/api/v1/presentations/${generationId}/slides/1/preview`));
  await record('a slide that does not exist', await svc.api(`/api/v1/presentations/${generationId}/slides/99/preview`));
  await record('the report', await svc.api(`/api/v1/presentations/${generationId}/report`));
  return answers;
}

t.test('the in-process channel and gRPC on loopback give a client the same answers', async (t) => {
  const template = await houseTemplate();
  const env = { SLIDEWRIGHT_MAX_UPLOAD_BYTES: '200000' };
  const inProcess = await startTestService({ ...env, SLIDEWRIGHT_GATEWAY_CHANNEL: 'in-process' });
  t.teardown(() => inProcess.close());
  const overGrpc = await startTestService({ ...env, SLIDEWRIGHT_GATEWAY_CHANNEL: 'grpc' });
  t.teardown(() => overGrpc.close());
  const a = await session(inProcess, template);
  const b = await session(overGrpc, template);
  t.equal(a.length, b.length);
  for (const [i, x] of a.entries()) t.same(x, b[i], `${x.step}: ${x.status} on both`);
  // the session reached what it set out to: the errors it asked for, a deck, a preview
  const statusOf = (step: string): number | undefined => a.find((x) => x.step === step)?.status;
  t.equal(statusOf('status without a key'), 401);
  t.equal(statusOf('status of an unknown deck'), 404);
  t.equal(statusOf('template with a bad body (the gateway validates)'), 422);
  t.equal(statusOf('upload over the limit'), 413);
  t.equal(statusOf('download the deck'), 200);
  t.equal(a.find((x) => x.step === 'download the deck')?.body, '504b0304…', 'the deck is a zip package');
  t.equal(statusOf('preview slide 1'), 200);
  t.equal(a.find((x) => x.step === 'the deck ends')?.body && (a.find((x) => x.step === 'the deck ends')!.body as Json)['status'], 'completed');

  // core's gRPC server still serves the data of the service whose gateway uses the channel
  const client = new grpc.Client(inProcess.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => client.close());
  const method = SERVICE_DEFINITIONS['slidewright.v1.TemplateService'].listTemplates;
  const md = new grpc.Metadata();
  md.set(MD.apiKey, ORG_A.key);
  const listed = await new Promise<{ templates: Array<{ filename: string }> }>((resolve, reject) =>
    client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, { page: 1, limit: 50 }, md, (err, v) => (err ? reject(err) : resolve(v as { templates: Array<{ filename: string }> }))),
  );
  t.ok(
    listed.templates.some((x) => x.filename === 'house.pptx'),
    'a gRPC client lists the template uploaded through the REST gateway',
  );
});
