/**
 * The webhook egress policy through the REST API (issue 18, item 4): a webhook_url whose
 * host is or resolves to a loopback, private, link-local (cloud metadata), unspecified or
 * multicast address is refused with 422 when the request names it; a receiver that
 * redirects is not followed; an organization default that names a refused address stops
 * the service at start. Only 127.0.0.2 is allowed here (SLIDEWRIGHT_WEBHOOK_ALLOW), for
 * the receiver of the redirect case. No request of this test leaves the machine: refused
 * addresses are refused before any connection, and the receivers listen on loopback.
 *
 * The check at delivery (DNS rebinding, pinned addresses) is tested on the notifier
 * itself, with a resolver of the test's own: test/unit/services/webhooks.test.ts.
 */
import t from 'tap';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { startTestService, waitFor, type TestService } from '../helpers/service.js';
import { uploadTemplate } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** URL → the range the refusal names (ipaddr.js's name). */
const MATRIX: Array<[string, string]> = [
  ['http://127.0.0.1:9/hook', 'loopback'],
  ['http://127.8.9.10/hook', 'loopback'],
  ['http://[::1]:9/hook', 'loopback'],
  ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
  ['http://2130706433/hook', 'loopback'], // 127.0.0.1 written as one number
  ['http://0x7f.0.0.1/hook', 'loopback'],
  ['http://localhost:9/hook', 'loopback'], // a host name resolving to loopback
  ['http://10.0.0.1/hook', 'private'],
  ['http://10.255.255.254:8080/hook', 'private'],
  ['http://172.16.0.1/hook', 'private'],
  ['http://172.31.255.1/hook', 'private'],
  ['http://192.168.1.20/hook', 'private'],
  ['http://[::ffff:10.0.0.1]/hook', 'private'],
  ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
  ['http://169.254.1.1/hook', 'linkLocal'],
  ['http://[fe80::1]/hook', 'linkLocal'],
  ['http://[fc00::1]/hook', 'uniqueLocal'],
  ['http://[fd12:3456:789a::1]/hook', 'uniqueLocal'],
  ['http://0.0.0.0:9/hook', 'unspecified'],
  ['http://[::]/hook', 'unspecified'],
  ['http://224.0.0.1/hook', 'multicast'],
  ['http://239.255.255.250:1900/hook', 'multicast'],
  ['http://[ff02::1]/hook', 'multicast'],
  ['https://100.64.0.1/hook', 'carrierGradeNat'],
];

let svc: TestService;
t.before(async () => {
  svc = await startTestService({ SLIDEWRIGHT_WEBHOOK_ALLOW: '127.0.0.2/32' });
});
t.teardown(() => svc.close());

const deck = (webhook: string): Json => ({ slides: [{ template_slide_id: 'lay_NOSUCHLAYOUT', slide_data: { title: 'x' } }], webhook_url: webhook });

t.test('request time: every refused address answers 422 on generate-deck, naming the range', async (t) => {
  for (const [url, range] of MATRIX) {
    const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: deck(url) });
    const body = (await r.json()) as Json;
    t.equal(r.status, 422, `${url}: 422`);
    const d = (body.detail as Json[] | undefined)?.[0];
    t.same(d?.loc, ['body', 'webhook_url'], `${url}: loc`);
    t.equal(d?.type, 'url_forbidden_address', `${url}: type`);
    t.equal(d?.ctx?.range, range, `${url}: ${range}`);
    t.equal(d?.input, url);
  }
});

t.test('request time: an allowed or unrelated URL passes the policy (the unknown slide id then answers 404)', async (t) => {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: deck('http://127.0.0.2:9/hook') });
  t.equal(r.status, 404, '127.0.0.2 is on the allow-list');
  const none = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: deck('').slides } });
  t.equal(none.status, 404, 'no webhook_url at all');
});

t.test('request time: a host that does not resolve answers 422 url_unresolvable', async (t) => {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: deck('http://no-such-host.invalid/hook') });
  t.equal(r.status, 422);
  t.equal(((await r.json()) as Json).detail[0].type, 'url_unresolvable');
});

t.test('request time: the other operations that take a webhook_url refuse the same way', async (t) => {
  const single = await svc.api('/api/v1/presentations/generate', { method: 'POST', json: { template_slide_id: 'lay_NOSUCHLAYOUT', slide_data: {}, webhook_url: 'http://169.254.169.254/' } });
  t.equal(single.status, 422, 'generate');
  const charts = await svc.api('/api/v1/presentations/gen_NOSUCHGENERATION/update-charts', { method: 'PUT', json: { charts: [{ slide_index: 0, title: 'x' }], webhook_url: 'http://[::1]/' } });
  t.equal(charts.status, 422, 'update-charts');
  const up = await uploadTemplate(svc, await houseTemplatePath(t));
  const analysis = await svc.api(`/api/v1/templates/${up.templateId}/analysis`, { method: 'POST', json: { webhook_url: 'http://192.168.0.1/' } });
  const refusal = (await analysis.json()) as Json;
  // the answer is in the message: a non-422 seen once under a loaded full run (distributed) must say what it was
  t.equal(analysis.status, 422, `analysis: ${JSON.stringify(refusal).slice(0, 300)}`);
  t.equal(refusal.detail?.[0]?.type, 'url_forbidden_address');
  const status = (await (await svc.api(`/api/v1/templates/${up.templateId}`)).json()) as Json;
  t.equal(status.status, 'uploaded', 'a refused analysis request changes nothing');
});

function listen(host: string, handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

t.test('delivery: a redirect (to loopback) is not followed, and not retried', async (t) => {
  let targetHits = 0;
  const target = await listen('127.0.0.1', (_req, res) => {
    targetHits++;
    res.writeHead(204).end();
  });
  const hits: string[] = [];
  const redirector = await listen('127.0.0.2', (req, res) => {
    req.resume();
    hits.push(String(req.headers['x-slidewright-delivery']));
    res.writeHead(302, { location: `http://127.0.0.1:${target.port}/stolen` }).end();
  });
  t.teardown(() => {
    target.server.close();
    redirector.server.close();
  });
  const up = await uploadTemplate(svc, await houseTemplatePath(t));
  const start = await svc.api(`/api/v1/templates/${up.templateId}/analysis`, { method: 'POST', json: { webhook_url: `http://127.0.0.2:${redirector.port}/hook` } });
  t.equal(start.status, 202, 'the allowed receiver is accepted');
  await waitFor(async () => (hits.length > 0 ? true : undefined), 60_000);
  // a retry would come after 1 s; wait past two of them
  await new Promise((r) => setTimeout(r, 3_500));
  t.equal(hits.length, 1, 'one attempt: a redirect is a final answer');
  t.equal(targetHits, 0, 'the redirect target was never called');
});

t.test('start: an organization default webhook on a refused address stops the service with a clear error', async (t) => {
  // an embedded service on a data directory of the test's own (in both topologies: the check is the same code in every process)
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-egress-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await t.rejects(startTestService({ SLIDEWRIGHT_ORG_WEBHOOKS: 'acme=http://169.254.169.254/latest' }, dir), /SLIDEWRIGHT_ORG_WEBHOOKS: the default webhook of acme is refused: 169\.254\.169\.254 is not a public address/);
  await t.rejects(startTestService({ SLIDEWRIGHT_WEBHOOK_ALLOW: 'not a range!' }, dir), /SLIDEWRIGHT_WEBHOOK_ALLOW/);
  const allowed = await startTestService({ SLIDEWRIGHT_ORG_WEBHOOKS: 'acme=http://127.0.0.2:9/hook', SLIDEWRIGHT_WEBHOOK_ALLOW: '127.0.0.2' }, dir);
  await allowed.close();
  t.pass('an allowed default starts');
});
