/**
 * Webhooks: a generation or analysis that ends POSTs its status record to the request's
 * webhook_url (or the organization's default), signed with HMAC, retried until accepted,
 * with a delivery id that stays the same across retries. The receivers listen on
 * 127.0.0.1, which the egress policy refuses unless an operator allows it: this service
 * allows exactly 127.0.0.1 (SLIDEWRIGHT_WEBHOOK_ALLOW).
 */
import t from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { startTestService, waitFor, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, uploadTemplate } from '../helpers/flows.js';
import { signWebhook } from '../../core/src/services/webhooks.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const SECRET = 'webhook-secret-for-tests-0123456789';

interface Received { path: string; headers: IncomingMessage['headers']; body: string }

async function receiver(failFirst = 0) {
  const received: Received[] = [];
  const failedDeliveryIds: string[] = [];
  let failures = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (failures < failFirst) {
        failures++;
        failedDeliveryIds.push(String(req.headers['x-slidewright-delivery']));
        res.writeHead(503).end();
        return;
      }
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, failedDeliveryIds, attemptsFailed: () => failures, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Checks a delivery's signature the way a receiver would; returns the parsed body and what was checked. */
function verify(r: Received): { body: Json; signatureOk: boolean; fresh: boolean } {
  const header = String(r.headers['x-slidewright-signature']);
  const ts = Number(/t=(\d+)/.exec(header)?.[1]);
  return { body: JSON.parse(r.body) as Json, signatureOk: header === signWebhook(SECRET, r.body, ts), fresh: Math.abs(Date.now() / 1000 - ts) < 60 };
}

let svc: TestService;
let hooks: Awaited<ReturnType<typeof receiver>>;
let orgDefault: Awaited<ReturnType<typeof receiver>>;
t.before(async () => {
  hooks = await receiver(1);
  orgDefault = await receiver();
  svc = await startTestService({ SLIDEWRIGHT_WEBHOOK_SECRET: SECRET, SLIDEWRIGHT_ORG_WEBHOOKS: `globex=${orgDefault.url}/default`, SLIDEWRIGHT_WEBHOOK_ALLOW: '127.0.0.1' });
});
t.teardown(async () => {
  await svc.close();
  await hooks.close();
  await orgDefault.close();
});

t.test('analysis and generation webhooks are delivered, signed, and retried after a failure', async (t) => {
  const up = await uploadTemplate(svc, await houseTemplatePath(t));
  const start = await svc.api(`/api/v1/templates/${up.templateId}/analysis`, { method: 'POST', json: { webhook_url: `${hooks.url}/analysis` } });
  t.equal(start.status, 202);
  const analysisHook = await waitFor(async () => hooks.received.find((r) => r.path === '/analysis'), 60_000);
  t.equal(hooks.attemptsFailed(), 1, 'the first delivery failed (503) and was retried');
  t.equal(analysisHook.headers['x-slidewright-event'], 'analysis.completed');
  const deliveryId = String(analysisHook.headers['x-slidewright-delivery']);
  t.match(deliveryId, /^dlv_[0-9A-Z]{26}$/, 'a delivery id header');
  t.same(hooks.failedDeliveryIds, [deliveryId], 'the retry carries the delivery id of the failed attempt');
  t.equal(analysisHook.headers['x-slidewright-attempt'], '2', 'the attempt number');
  const va = verify(analysisHook);
  t.ok(va.signatureOk && va.fresh, 'signature verifies with the shared secret; timestamp is current');
  const a = va.body;
  t.equal(a.event, 'analysis.completed');
  t.equal(a.delivery_id, deliveryId, 'the signed body names the delivery id too');
  t.equal(a.data.status, 'completed');
  t.equal(a.data.template_id, up.templateId);

  const results = ((await (await svc.api(`/api/v1/templates/${up.templateId}/analysis`)).json()) as Json).results as Json;
  const layout = (results.layouts as Json[]).find((l) => l.type === 'title')!;
  const gen = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layout.slide_id, slide_data: { title: 'Hooked' } }], webhook_url: `${hooks.url}/generation` } });
  t.equal(gen.status, 202);
  const job = (await gen.json()) as Json;
  const genHook = await waitFor(async () => hooks.received.find((r) => r.path === '/generation'), 60_000);
  const vg = verify(genHook);
  t.ok(vg.signatureOk, 'signature verifies');
  const g = vg.body;
  t.equal(g.event, 'generation.completed');
  t.equal(g.data.generation_id, job.generation_id);
  t.equal(g.data.status, 'completed');
  t.match(g.data.download_url, /signature=/, 'the record carries the signed download URL');
});

t.test("an organization's default webhook receives its jobs when the request names none", async (t) => {
  const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t), { key: 'key-globex-0123456789' });
  const layout = (results.layouts as Json[]).find((l) => l.type === 'title')!;
  const gen = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', as: { key: 'key-globex-0123456789' }, json: { slides: [{ template_slide_id: layout.slide_id, slide_data: { title: 'Default hook' } }] } });
  const job = (await gen.json()) as Json;
  const hook = await waitFor(async () => orgDefault.received.find((r) => r.path === '/default' && r.body.includes(job.generation_id as string)), 60_000);
  const v = verify(hook);
  t.ok(v.signatureOk, 'signature verifies');
  t.equal(v.body.data.status, 'completed');
});

t.test('a webhook_url that is not http(s) is refused with 422', async (t) => {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: 'lay_x', slide_data: {} }], webhook_url: 'file:///etc/passwd' } });
  t.equal(r.status, 422);
  const d = ((await r.json()) as Json).detail[0];
  t.same(d.loc, ['body', 'webhook_url']);
  t.equal(d.type, 'url_scheme');
});
