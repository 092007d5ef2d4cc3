/**
 * The webhook notifier with a resolver of the test's own: the egress check at delivery
 * (DNS rebinding after the request-time check, refused addresses stored before the
 * policy), the pinned connection (the HTTP request connects to the address that was
 * checked, never asking DNS again), the delivery id across retries, backoff and the
 * maximum age, and the outbox's leases. Receivers listen on 127.0.0.2 (allowed) and
 * 127.0.0.1 (refused: a connection there would be the failure); no request leaves the
 * machine, since refused addresses are refused before any connection.
 */
import t from 'tap';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { LevelStateStore } from '../../../core/src/adapters/level-state-store.js';
import { WebhookNotifier, signWebhook } from '../../../core/src/services/webhooks.js';
import { EgressPolicy, type ResolvedAddress } from '../../../core/src/services/egress.js';
import { OUTBOX_PREFIX, type OutboxEntry } from '../../../core/src/services/webhook-outbox.js';
import { ServiceError } from '../../../core/src/errors.js';

const SECRET = 'unit-webhook-secret-0123456789';

function capture(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

interface Hit {
  headers: IncomingMessage['headers'];
  body: string;
  /** Request path: which delivery this was. */
  path: string;
}

async function receiver(host: string, answer: (n: number) => number = () => 204): Promise<{ server: Server; port: number; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ headers: req.headers, body, path: req.url ?? '' });
      res.writeHead(answer(hits.length)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

async function until(fn: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

t.test('egress policy: a host is refused when ANY of its addresses is refused; allow-list by range and by name', async (t) => {
  const table: Record<string, ResolvedAddress[]> = {
    'mixed.test': [{ address: '93.184.216.34', family: 4 }, { address: '10.1.1.1', family: 4 }],
    'v6private.test': [{ address: '2606:2800:220:1::1', family: 6 }, { address: 'fd00::5', family: 6 }],
    'public.test': [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }],
    'hooks.corp.example': [{ address: '10.9.9.9', family: 4 }],
  };
  const policy = new EgressPolicy({ allow: ['192.168.50.0/24', '*.corp.example'], resolveAll: async (h) => table[h] ?? [] });
  t.match(await policy.check('http://mixed.test/'), { ok: false, code: 'forbidden_address', address: '10.1.1.1', range: 'private' });
  t.match(await policy.check('http://v6private.test/'), { ok: false, address: 'fd00::5', range: 'uniqueLocal' });
  t.match(await policy.check('https://public.test/x'), { ok: true });
  t.match(await policy.check('http://hooks.corp.example/'), { ok: true }, 'allowed by name');
  t.match(await policy.check('http://192.168.50.7/'), { ok: true }, 'allowed by range');
  t.match(await policy.check('http://192.168.51.7/'), { ok: false, range: 'private' }, 'next to the range');
  t.match(await policy.check('http://[::ffff:192.168.50.7]/'), { ok: true }, 'an IPv4-mapped address is the IPv4 address');
  t.match(await policy.check('http://nowhere.test/'), { ok: false, code: 'unresolvable' });
  t.match(await policy.check('ftp://public.test/'), { ok: false, code: 'invalid_url' });
});

t.test('DNS rebinding: a name that passed at request time and resolves to a refused address at delivery is not called', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const refusedTarget = await receiver('127.0.0.1');
  t.teardown(() => refusedTarget.server.close());
  let lookups = 0;
  const { log, lines } = capture();
  const hooks = new WebhookNotifier({
    secret: SECRET,
    orgDefaults: new Map(),
    state: store,
    allow: ['127.0.0.2'],
    log,
    resolveAll: async () => (++lookups === 1 ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
  });
  t.teardown(async () => {
    await hooks.close();
    await store.close();
  });
  const url = `http://rebind.test:${refusedTarget.port}/hook`;
  await hooks.checkUrl(url, ['body', 'webhook_url']); // passes: 127.0.0.2 is allowed
  await store.batch(hooks.deliveryOps('acme', url, 'generation.completed', { generation_id: 'gen_1' }));
  hooks.start();
  await until(async () => (await store.scan(OUTBOX_PREFIX)).length === 0);
  t.equal(refusedTarget.hits.length, 0, 'nothing reached the loopback receiver');
  t.equal(lookups, 2, 'resolved once at request time and once at delivery');
  const refusal = lines.find((l) => l['msg'] === 'webhook not delivered: refused for good');
  t.match(String(refusal?.['reason']), /egress refused at delivery: host rebind\.test resolves to 127\.0\.0\.1, which is not a public address \(loopback\)/);
});

t.test('delivery: every refused address is refused before connecting, for names and for stored literals', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const refusedAddresses = ['127.0.0.1', '::1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', 'fe80::1', 'fc00::1', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', '::ffff:127.0.0.1'];
  const { log, lines } = capture();
  const hooks = new WebhookNotifier({
    secret: SECRET,
    orgDefaults: new Map(),
    state: store,
    log,
    resolveAll: async (h) => {
      const i = Number(/^h(\d+)\./.exec(h)?.[1]);
      const address = refusedAddresses[i]!;
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    },
  });
  t.teardown(async () => {
    await hooks.close();
    await store.close();
  });
  // stored without the request-time check (as an entry written before the policy existed would be)
  const urls = [...refusedAddresses.map((_, i) => `http://h${i}.test:9/hook`), ...refusedAddresses.map((a) => `http://${a.includes(':') ? `[${a}]` : a}:9/hook`)];
  for (const url of urls) await store.batch(hooks.deliveryOps('acme', url, 'analysis.completed', { template_id: 'tpl_1' }));
  hooks.start();
  await until(async () => (await store.scan(OUTBOX_PREFIX)).length === 0);
  const refused = lines.filter((l) => l['msg'] === 'webhook not delivered: refused for good');
  t.equal(refused.length, urls.length, `${urls.length} deliveries refused`);
  t.ok(
    refused.every((l) => /^egress refused at delivery: /.test(String(l['reason']))),
    'each by the egress check (before any connection)',
  );
  t.equal(lines.filter((l) => l['msg'] === 'webhook delivered').length, 0);
});

t.test('pinning: the request connects to the checked address (the system resolver is never asked)', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const r = await receiver('127.0.0.2');
  t.teardown(() => r.server.close());
  const { log } = capture();
  const hooks = new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state: store, allow: ['127.0.0.2'], log, resolveAll: async () => [{ address: '127.0.0.2', family: 4 }] });
  t.teardown(async () => {
    await hooks.close();
    await store.close();
  });
  // "pinned.invalid" cannot resolve through the system: only the pinned lookup reaches 127.0.0.2
  await store.batch(hooks.deliveryOps('acme', `http://pinned.invalid:${r.port}/hook?token=abc`, 'generation.completed', { generation_id: 'gen_2' }));
  hooks.start();
  await until(() => r.hits.length === 1);
  const hit = r.hits[0]!;
  t.equal(hit.headers.host, `pinned.invalid:${r.port}`, 'the Host header keeps the name');
  const ts = Number(/t=(\d+)/.exec(String(hit.headers['x-slidewright-signature']))?.[1]);
  t.equal(hit.headers['x-slidewright-signature'], signWebhook(SECRET, hit.body, ts), 'signed as before');
  t.match(JSON.parse(hit.body), { event: 'generation.completed', delivery_id: hit.headers['x-slidewright-delivery'], data: { generation_id: 'gen_2' } });
});

t.test('retries: the same delivery id and body on every attempt, doubling delays, a 4xx ends it, the maximum age gives up', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const flaky = await receiver('127.0.0.2', (n) => (n <= 3 ? 503 : 200));
  const gone = await receiver('127.0.0.2', () => 410);
  const down = await receiver('127.0.0.2', () => 500);
  t.teardown(() => [flaky, gone, down].forEach((r) => r.server.close()));
  const { log, lines } = capture();
  const hooks = new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state: store, allow: ['127.0.0.2'], log, minDelayMs: 100, maxDelayMs: 400, maxAgeMs: 1_500 });
  t.teardown(async () => {
    await hooks.close();
    await store.close();
  });
  const times: number[] = [];
  flaky.server.on('request', () => times.push(Date.now()));
  await store.batch([
    ...hooks.deliveryOps('acme', `http://127.0.0.2:${flaky.port}/`, 'generation.completed', { n: 1 }),
    ...hooks.deliveryOps('acme', `http://127.0.0.2:${gone.port}/`, 'generation.completed', { n: 2 }),
    ...hooks.deliveryOps('acme', `http://127.0.0.2:${down.port}/`, 'generation.completed', { n: 3 }),
  ]);
  hooks.start();
  await until(async () => (await store.scan(OUTBOX_PREFIX)).length === 0, 20_000);
  t.equal(flaky.hits.length, 4, 'three failures, then delivered');
  t.equal(new Set(flaky.hits.map((h) => h.headers['x-slidewright-delivery'])).size, 1, 'one delivery id on every attempt');
  t.equal(new Set(flaky.hits.map((h) => h.body)).size, 1, 'the same body on every attempt');
  t.same(flaky.hits.map((h) => h.headers['x-slidewright-attempt']), ['1', '2', '3', '4']);
  const gaps = times.slice(1).map((x, i) => x - times[i]!);
  t.ok(gaps[0]! >= 90 && gaps[1]! >= 190 && gaps[2]! >= 390, `doubling delays from 100 ms, capped at 400 (${gaps.join(', ')} ms)`);
  t.equal(gone.hits.length, 1, '410 is final');
  t.ok(down.hits.length >= 3, `a receiver that keeps failing is tried until the maximum age (${down.hits.length} attempts)`);
  t.ok(lines.some((l) => String(l['msg']).startsWith('webhook not delivered: given up after')), 'then given up, logged');
});

t.test('leases: two delivery loops on one store (two processes) deliver each delivery once', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const r = await receiver('127.0.0.2');
  t.teardown(() => r.server.close());
  const mk = () => new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state: store, allow: ['127.0.0.2'], log: capture().log });
  const a = mk();
  const b = mk();
  t.teardown(async () => {
    await a.close();
    await b.close();
    await store.close();
  });
  for (let i = 0; i < 30; i++) await store.batch(a.deliveryOps('acme', `http://127.0.0.2:${r.port}/${i}`, 'generation.completed', { i }));
  a.start();
  b.start();
  await until(async () => (await store.scan(OUTBOX_PREFIX)).length === 0);
  await new Promise((res) => setTimeout(res, 200));
  const ids = r.hits.map((h) => String(h.headers['x-slidewright-delivery']));
  t.equal(ids.length, 30, '30 requests');
  t.equal(new Set(ids).size, 30, 'each delivery id once');
});

t.test('a lease left by a killed process is taken over after it expires; in an exclusive (embedded) store at once', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const r = await receiver('127.0.0.2');
  t.teardown(() => r.server.close());
  const { log } = capture();
  const stale = (id: string, until: number): OutboxEntry => ({
    delivery_id: id,
    org: 'acme',
    url: `http://127.0.0.2:${r.port}/${id}`,
    event: 'generation.completed',
    body: '{}',
    created_at: Date.now(),
    attempts: 1,
    next_at: 0,
    lease_owner: 'dead-host:1:00000000',
    lease_until: until,
  });
  await store.put(`${OUTBOX_PREFIX}dlv_SHARED`, stale('dlv_SHARED', Date.now() + 1_500));
  const shared = new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state: store, allow: ['127.0.0.2'], log });
  t.teardown(() => shared.close());
  const began = Date.now();
  shared.start();
  await until(() => r.hits.length === 1);
  t.ok(Date.now() - began >= 1_200, 'not before the lease expired');
  // the receiver counts the request before its answer reaches the notifier: wait until the
  // delivery is recorded as made, or closing would hand it back for a second attempt
  await until(async () => (await shared.outbox.pending()).length === 0);
  await shared.close();
  await store.put(`${OUTBOX_PREFIX}dlv_EXCLUSIVE`, stale('dlv_EXCLUSIVE', Date.now() + 60_000));
  const exclusive = new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state: store, allow: ['127.0.0.2'], log, exclusive: true });
  t.teardown(async () => {
    await exclusive.close();
    await store.close();
  });
  const began2 = Date.now();
  exclusive.start();
  await until(() => r.hits.some((h) => h.path === '/dlv_EXCLUSIVE'));
  t.ok(Date.now() - began2 < 5_000, 'an earlier run’s lease is void in an exclusive store');
  t.same(r.hits.map((h) => h.path), ['/dlv_SHARED', '/dlv_EXCLUSIVE'], 'each delivery made once');
});

t.test('checkUrl reports refusals in the 422 vocabulary', async (t) => {
  const store = await LevelStateStore.open(t.testdir());
  const hooks = new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state: store, log: capture().log });
  t.teardown(() => store.close());
  const err = await hooks.checkUrl('http://169.254.169.254/latest/meta-data', ['body', 'webhook_url']).catch((e: unknown) => e);
  t.ok(err instanceof ServiceError && err.kind === 'invalid_argument');
  t.match((err as ServiceError).extra.violations?.[0], { loc: ['body', 'webhook_url'], type: 'url_forbidden_address', input: 'http://169.254.169.254/latest/meta-data', ctx: { address: '169.254.169.254', range: 'linkLocal' } });
  await t.resolves(hooks.checkUrl(undefined, ['body', 'webhook_url']));
  await t.resolves(hooks.checkUrl('', ['body', 'webhook_url']));
});

t.test('a resolver that does not answer in time makes the host unresolvable', async (t) => {
  const policy = new EgressPolicy({ resolveAll: () => new Promise(() => undefined), resolveTimeoutMs: 50 });
  t.match(await policy.check('http://slow.test/'), { ok: false, code: 'unresolvable', reason: /no answer within 50 ms/ });
});
