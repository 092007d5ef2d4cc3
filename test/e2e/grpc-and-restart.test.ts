/**
 * Core called directly over gRPC (as internal services do), and a restart of the
 * embedded service on the same data directory losing nothing.
 */
import t from 'tap';
import * as grpc from '@grpc/grpc-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateServiceClient, type GetTemplateResponse } from '../../proto/gen/ts/slidewright/v1/template_service.js';
import { PresentationServiceClient, type GenerateDeckResponse } from '../../proto/gen/ts/slidewright/v1/presentation_service.js';
import { Status } from '../../proto/gen/ts/google/rpc/status.js';
import { BadRequest } from '../../proto/gen/ts/google/rpc/error_details.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_A, startTestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function unary<Res>(fn: (req: any, md: grpc.Metadata, cb: (err: grpc.ServiceError | null, res: any) => void) => unknown, req: unknown, md: grpc.Metadata): Promise<Res> {
  return new Promise((resolve, reject) => fn(req, md, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res))));
}

t.test('internal callers use core over gRPC with the same records and the same validation rules', async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const { templateId, results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const md = new grpc.Metadata();
  md.set('x-api-key', ORG_A.key);

  const templates = new TemplateServiceClient(svc.grpcAddress, grpc.credentials.createInsecure());
  const presentations = new PresentationServiceClient(svc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => { templates.close(); presentations.close(); });

  const got: GetTemplateResponse = await unary(templates.getTemplate.bind(templates), { template_id: templateId }, md);
  t.equal(got.template?.template_id, templateId);
  t.equal(got.template?.status, 'ready');
  t.equal(got.template?.analysis?.slide_count, results.slides.length);

  const noKey = await unary(templates.getTemplate.bind(templates), { template_id: templateId }, new grpc.Metadata()).catch((e: grpc.ServiceError) => e);
  t.equal((noKey as grpc.ServiceError).code, grpc.status.UNAUTHENTICATED);

  const bad = (await unary(presentations.generateDeck.bind(presentations), { slides: [], options: undefined }, md).catch((e: grpc.ServiceError) => e)) as grpc.ServiceError;
  t.equal(bad.code, grpc.status.INVALID_ARGUMENT);
  const details = bad.metadata.get('grpc-status-details-bin')[0] as Buffer;
  const status = Status.decode(details);
  const badRequest = status.details.find((d) => d.type_url.endsWith('google.rpc.BadRequest'));
  t.ok(badRequest, 'carries google.rpc.BadRequest');
  const violations = BadRequest.decode(badRequest!.value).field_violations;
  t.equal(violations[0]?.field, 'slides');

  // the secret core shares with its own gateway cannot be guessed into skipping validation,
  // and a REST client cannot send it: the gateway forwards no such header
  for (const guess of ['', 'x', '0'.repeat(64), 'f'.repeat(64)]) {
    const guessed = md.clone();
    guessed.set('x-slidewright-gateway-secret', guess);
    const refused = (await unary(presentations.generateDeck.bind(presentations), { slides: [], options: undefined }, guessed).catch((e: grpc.ServiceError) => e)) as grpc.ServiceError;
    t.equal(refused.code, grpc.status.INVALID_ARGUMENT, `a call carrying the secret ${JSON.stringify(guess.slice(0, 8))}… is validated`);
  }
  const viaRest = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', headers: { 'x-slidewright-gateway-secret': 'f'.repeat(64) }, json: { slides: [] } });
  t.equal(viaRest.status, 422, 'REST validates whatever headers the client sends');

  const layout = (results.layouts as Json[]).find((l) => l.type === 'title')!;
  const fontTooSmall = (await unary(
    presentations.generateDeck.bind(presentations),
    { slides: [{ template_slide_id: layout.slide_id, slide_data: { content: [] }, options: { table_min_font_size: 4 } }] },
    md,
  ).catch((e: grpc.ServiceError) => e)) as grpc.ServiceError;
  t.equal(fontTooSmall.code, grpc.status.INVALID_ARGUMENT);
  const v2 = BadRequest.decode(Status.decode(fontTooSmall.metadata.get('grpc-status-details-bin')[0] as Buffer).details.find((d) => d.type_url.endsWith('BadRequest'))!.value);
  t.equal(v2.field_violations[0]?.field, 'slides[0].options.table_min_font_size');

  const job: GenerateDeckResponse = await unary(presentations.generateDeck.bind(presentations), { slides: [{ template_slide_id: layout.slide_id, slide_data: { title: 'Over gRPC', content: [] } }] }, md);
  t.match(job.job?.generation_id, /^gen_/);
  const st = await waitForGeneration(svc, job.job!.generation_id);
  t.equal(st.status, 'completed');
});

t.test('a restart on the same data directory loses no template, analysis or generation', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = await startTestService({}, dir);
  let firstClosed = false;
  const closeFirst = async (): Promise<void> => {
    if (!firstClosed) await first.close();
    firstClosed = true;
  };
  t.teardown(closeFirst);
  const { templateId, results } = await uploadAndAnalyze(first, await houseTemplatePath(t));
  const layout = (results.layouts as Json[]).find((l) => l.type === 'obj')!;
  const res = await first.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layout.slide_id, slide_data: { title: 'Before restart' } }] } });
  const job = (await res.json()) as Json;
  await waitForGeneration(first, job.generation_id as string);
  await closeFirst();

  const second = await startTestService({}, dir);
  t.teardown(() => second.close());
  const tpl = (await (await second.api(`/api/v1/templates/${templateId}`)).json()) as Json;
  t.equal(tpl.status, 'ready');
  t.equal(tpl.analysis.layout_count, results.layouts.length);
  const st = (await (await second.api(`/api/v1/presentations/${job.generation_id}/status`)).json()) as Json;
  t.equal(st.status, 'completed');
  const dl = await second.api(`/api/v1/presentations/${job.generation_id}/download`);
  t.equal(dl.status, 200);
  t.ok((await dl.arrayBuffer()).byteLength > 1000);
  const again = await second.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layout.slide_id, slide_data: { title: 'After restart' } }] } });
  t.equal(again.status, 202, 'slide ids from before the restart still generate');
  t.equal((await waitForGeneration(second, ((await again.json()) as Json).generation_id as string)).status, 'completed');
});
