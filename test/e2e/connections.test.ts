/**
 * Client connections are bounded (gateway/src/connections.ts): connections that send
 * nothing are closed after the headers timeout, half-sent requests get 408, kept-alive
 * connections close after the keep-alive timeout, and past the cap per process room is
 * made by closing silent or idle connections, else the newcomer gets a clean 503 with
 * `Retry-After`. Meanwhile `/healthz`, the REST API and gRPC keep answering.
 *
 * The sockets are real TCP connections on loopback; their number is sized from this
 * process's open-files limit (in embedded mode both ends live in this process).
 */
import t from 'tap';
import * as grpc from '@grpc/grpc-js';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../core/src/config.js';
import { CONNECTION_DEFAULTS, defaultMaxConnections, openFilesSoftLimit } from '../../gateway/src/connections.js';
import { connectionLimitsOf } from '../../gateway/src/app.js';
import { TemplateServiceClient, type ListTemplatesResponse } from '../../proto/gen/ts/slidewright/v1/template_service.js';
import { ORG_A, startTestService, waitFor, type TestService } from '../helpers/service.js';

/** A client connection and what became of it. */
interface Probe {
  socket: Socket;
  connected: boolean;
  closed: boolean;
  /** Date.now() when the connection closed. */
  closedAt: number | undefined;
  received: string;
}

/** Opens one TCP connection to `url`'s port and writes `send` once connected; resolves once connected (or failed). */
function openProbe(url: string, send?: string): Promise<Probe> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const probe: Probe = { socket, connected: false, closed: false, closedAt: undefined, received: '' };
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (probe.received += d));
  socket.on('error', () => undefined); // resets are counted as closes
  socket.on('close', () => {
    probe.closed = true;
    probe.closedAt = Date.now();
  });
  return new Promise((resolve) => {
    socket.once('connect', () => {
      probe.connected = true;
      if (send !== undefined) socket.write(send);
      resolve(probe);
    });
    socket.once('close', () => resolve(probe));
  });
}

/** Opens `n` connections, `batch` at a time. */
async function openProbes(url: string, n: number, batch = 250, send?: string): Promise<Probe[]> {
  const out: Probe[] = [];
  for (let i = 0; i < n; i += batch) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => openProbe(url, send)))));
  }
  return out;
}

const stillOpen = (probes: readonly Probe[]): number => probes.filter((p) => p.connected && !p.closed).length;

/** A value of the gateway's `/metrics` (unlabelled metric). */
async function metric(svc: TestService, name: string): Promise<number> {
  const text = await (await svc.api('/metrics', { as: null })).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`no ${name} in /metrics`);
  return Number(m[1]);
}

/** Sends one complete request on a fresh connection and returns the raw answer (read until the server closes or `ms` pass). */
async function rawRequest(url: string, request: string, ms = 5000): Promise<Probe> {
  const probe = await openProbe(url, request);
  await waitFor(async () => (probe.closed ? true : undefined), ms, 20).catch(() => undefined);
  return probe;
}

/** A gRPC call on core while the REST side is loaded: ListTemplates for organization A. */
function listTemplatesOverGrpc(address: string): Promise<ListTemplatesResponse> {
  const client = new TemplateServiceClient(address, grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  md.set('x-api-key', ORG_A.key);
  return new Promise<ListTemplatesResponse>((resolve, reject) => {
    client.listTemplates({}, md, { deadline: Date.now() + 30_000 }, (err, res) => (err ? reject(err) : resolve(res)));
  }).finally(() => client.close());
}

t.test('the connection settings: defaults, overrides, out-of-range values refused', async (t) => {
  const base = { SLIDEWRIGHT_DATA_DIR: '/nonexistent/slidewright-connections-test' };
  const defaults = loadConfig(base);
  t.equal(defaults.httpHeadersTimeoutSeconds, 20);
  t.equal(defaults.httpRequestTimeoutSeconds, 300);
  t.equal(defaults.httpKeepAliveTimeoutSeconds, 5);
  t.same(CONNECTION_DEFAULTS, { headersTimeoutSeconds: 20, requestTimeoutSeconds: 300, keepAliveTimeoutSeconds: 5 });
  t.equal(defaults.httpMaxConnections, undefined, 'no cap configured');
  t.equal(connectionLimitsOf(defaults).maxConnections, defaultMaxConnections(), 'the cap follows the open-files limit');
  t.comment(`open-files soft limit ${openFilesSoftLimit()}, default cap ${defaultMaxConnections()} connections`);

  const set = loadConfig({
    ...base,
    SLIDEWRIGHT_HTTP_MAX_CONNECTIONS: '100',
    SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT: '2',
    SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT: '60',
    SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT: '1',
  });
  t.same(
    [set.httpMaxConnections, set.httpHeadersTimeoutSeconds, set.httpRequestTimeoutSeconds, set.httpKeepAliveTimeoutSeconds],
    [100, 2, 60, 1],
  );

  for (const [name, value] of [
    ['SLIDEWRIGHT_HTTP_MAX_CONNECTIONS', '15'],
    ['SLIDEWRIGHT_HTTP_MAX_CONNECTIONS', '1000001'],
    ['SLIDEWRIGHT_HTTP_MAX_CONNECTIONS', 'many'],
    ['SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT', '0'],
    ['SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT', '1.5'],
    ['SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT', '0'],
    ['SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT', '0'],
    ['SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT', '3601'],
  ] as const) {
    t.throws(() => loadConfig({ ...base, [name]: value }), new RegExp(name), `${name}=${value} refused`);
  }
  t.throws(
    () => loadConfig({ ...base, SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT: '30', SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT: '10' }),
    /SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT \(30 s\) must not exceed SLIDEWRIGHT_HTTP_REQUEST_TIMEOUT \(10 s\)/,
  );

  t.equal(defaultMaxConnections(20000), 8192, 'ceiling');
  t.equal(defaultMaxConnections(1024), 768, '75 % of the limit');
  t.equal(defaultMaxConnections(10), 16, 'floor');
  t.equal(defaultMaxConnections(undefined), 8192, 'limit unknown');
  t.equal(defaultMaxConnections(Infinity), 8192, 'unlimited');
  const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n';
  t.equal(openFilesSoftLimit(limits), 1024);
  t.equal(openFilesSoftLimit(limits.replace('1024 ', 'unlimited ')), Infinity);
  t.equal(openFilesSoftLimit('no such line'), undefined);
});

const softLimit = openFilesSoftLimit() ?? 1024;
// both ends of every connection are descriptors of this process in embedded mode; room is
// left for the service's own files
const silentCount = Math.min(3000, Math.floor((Math.min(softLimit, 1e6) - 1000) / 2));
const roomForSilent = silentCount >= 200 ? {} : { skip: `the open-files limit (${softLimit}) leaves room for ${silentCount} connections` };

t.test('thousands of silent connections: /healthz, the API and gRPC still answer, and the silent ones are closed', roomForSilent, async (t) => {
  const n = silentCount;
  const svc = await startTestService({ SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT: '2' });
  const probes: Probe[] = [];
  t.teardown(async () => {
    for (const p of probes) p.socket.destroy();
    await svc.close();
  });

  const started = Date.now();
  probes.push(...(await openProbes(svc.url, n)));
  const openedMs = Date.now() - started;
  t.equal(probes.filter((p) => p.connected).length, n, `${n} connections opened`);
  const openBefore = stillOpen(probes);

  // the three at once, right after the last connection opened (the first ones close 2 s
  // after they opened); each notes how many silent connections were open when it answered
  const openWhenAnswered = (): number => stillOpen(probes);
  const [health, list, overGrpc] = await Promise.all([
    svc.api('/healthz', { as: null }).then((r) => ({ status: r.status, open: openWhenAnswered() })),
    svc.api('/api/v1/templates').then(async (r) => ({ status: r.status, body: (await r.json()) as { templates?: unknown }, open: openWhenAnswered() })),
    listTemplatesOverGrpc(svc.grpcAddress).then((r) => ({ templates: r.templates, open: openWhenAnswered() })),
  ]);
  t.equal(health.status, 200, '/healthz answers');
  t.equal(list.status, 200, 'GET /api/v1/templates answers');
  t.ok(Array.isArray(list.body.templates), 'with a template list');
  t.ok(Array.isArray(overGrpc.templates), 'gRPC ListTemplates answers');
  t.ok(Math.min(health.open, list.open, overGrpc.open) > 0, 'each answered while silent connections were open');
  t.comment(
    `${n} silent connections opened in ${openedMs} ms; ${openBefore} open when the calls began; ` +
      `open when answered: /healthz ${health.open}, GET /api/v1/templates ${list.open}, gRPC ListTemplates ${overGrpc.open}`,
  );

  // each is closed 2 s after it opened (headers timeout); bounded wait, no speed assertion
  await waitFor(async () => (stillOpen(probes) === 0 ? true : undefined), 60_000, 100);
  const lastClose = Math.max(...probes.map((p) => p.closedAt ?? 0));
  const firstClose = Math.min(...probes.map((p) => p.closedAt ?? Infinity));
  t.equal(stillOpen(probes), 0, 'every silent connection was closed by the service');
  const openAfter = await metric(svc, 'slidewright_http_connections_open');
  t.ok(openAfter <= 3, `open connections afterwards: ${openAfter} (the client's own keep-alive ones)`);
  const closedSilent = await metric(svc, 'slidewright_http_connections_closed_silent_total');
  const answered408 = probes.filter((p) => p.received.startsWith('HTTP/1.1 408')).length;
  t.equal(closedSilent + answered408, n, 'each closed silently by its own timer, or answered 408 by Node\'s periodic check');
  t.comment(
    `closed ${firstClose - started}–${lastClose - started} ms after the first was opened (${lastClose - started - openedMs} ms after the last); ` +
      `${closedSilent} closed silently, ${answered408} answered 408; ${openAfter} open afterwards`,
  );
  t.equal((await svc.api('/healthz', { as: null })).status, 200, 'healthy afterwards');
});

t.test('the cap per process: silent connections make room, busy ones do not, the newcomer gets 503 with Retry-After', async (t) => {
  const svc = await startTestService({ SLIDEWRIGHT_HTTP_MAX_CONNECTIONS: '100', SLIDEWRIGHT_HTTP_HEADERS_TIMEOUT: '6' });
  const probes: Probe[] = [];
  t.teardown(async () => {
    for (const p of probes) p.socket.destroy();
    await svc.close();
  });

  // 1. three times the cap in silent connections: the newest stay, older ones make room
  const silent = await openProbes(svc.url, 300, 50);
  probes.push(...silent);
  await waitFor(async () => (stillOpen(silent) <= 100 ? true : undefined), 10_000, 20);
  const keptOpen = stillOpen(silent);
  t.ok(keptOpen <= 100, `at most 100 kept open (${keptOpen})`);
  const health = await svc.api('/healthz', { as: null });
  t.equal(health.status, 200, '/healthz at the cap: a silent connection made room for it');
  const openAtHealth = stillOpen(silent);
  t.ok(openAtHealth >= 90, `the cap was still full of silent connections (${openAtHealth} open)`);
  t.equal(silent.filter((p) => p.received !== '').length, 0, 'the silent ones closed to make room got no answer (they had asked nothing)');
  t.comment(`cap 100: of 300 silent connections ${keptOpen} kept open, ${300 - keptOpen} closed to make room; /healthz answered with ${openAtHealth} silent ones open`);

  // 2. the cap full of busy connections (partial request headers): nothing to close
  for (const p of silent) p.socket.destroy();
  await waitFor(async () => ((await metric(svc, 'slidewright_http_connections_open')) <= 2 ? true : undefined), 10_000, 50);
  const busyStarted = Date.now();
  const busy: Probe[] = [];
  for (let i = 0; i < 100; i++) {
    // one at a time, so the service has read each one's bytes before the next arrives
    busy.push(await openProbe(svc.url, 'GET /healthz HTTP/1.1\r\nHost: slidewright\r\n'));
    await sleep(5);
  }
  probes.push(...busy);
  await sleep(200);
  t.equal(stillOpen(busy), 100, '100 busy connections open');
  const refused = await rawRequest(svc.url, 'GET /healthz HTTP/1.1\r\nHost: slidewright\r\n\r\n');
  probes.push(refused);
  const [head = '', body = ''] = refused.received.split('\r\n\r\n');
  t.match(head, /^HTTP\/1\.1 503 Service Unavailable\r\n/, 'the newcomer gets 503');
  t.match(head, /\r\nRetry-After: 1(\r\n|$)/i, 'with Retry-After: 1');
  t.match(head, /\r\nConnection: close(\r\n|$)/i);
  t.match(head, /\r\nContent-Type: application\/json(\r\n|$)/i);
  t.same(JSON.parse(body), { detail: 'too many open connections; retry shortly' });
  t.ok(refused.closed, 'and its connection is closed');
  t.equal(stillOpen(busy), 100, 'the busy connections were left alone');

  // 3. the busy ones run out of their headers timeout: 408, closed
  await waitFor(async () => (stillOpen(busy) === 0 ? true : undefined), 30_000, 100);
  const timedOut = busy.filter((p) => /^HTTP\/1\.1 408 /.test(p.received));
  t.equal(timedOut.length, 100, 'every busy connection answered 408 when its headers timeout passed');
  t.match(timedOut[0]?.received ?? '', /\r\n\r\n\{"detail":"the request did not arrive in time"\}$/, 'in the API\'s error shape');
  const lastBusyClose = Math.max(...busy.map((p) => p.closedAt ?? 0));
  t.equal((await svc.api('/healthz', { as: null })).status, 200, 'healthy again');
  const refusedTotal = await metric(svc, 'slidewright_http_connections_refused_total');
  t.ok(refusedTotal >= 1, `refusals counted (${refusedTotal})`);
  t.comment(`100 busy connections answered 408 ${lastBusyClose - busyStarted} ms after the first was opened (headers timeout 6 s); ${refusedTotal} refused with 503`);
});

t.test('a kept-alive connection is closed after the keep-alive timeout', async (t) => {
  const svc = await startTestService({ SLIDEWRIGHT_HTTP_KEEP_ALIVE_TIMEOUT: '1' });
  const probes: Probe[] = [];
  t.teardown(async () => {
    for (const p of probes) p.socket.destroy();
    await svc.close();
  });
  const probe = await openProbe(svc.url, 'GET /healthz HTTP/1.1\r\nHost: slidewright\r\n\r\n');
  probes.push(probe);
  await waitFor(async () => (probe.received.endsWith('}') ? true : undefined), 10_000, 10);
  const answeredAt = Date.now();
  t.match(probe.received, /^HTTP\/1\.1 200 OK\r\n/);
  t.match(probe.received, /\r\nKeep-Alive: timeout=1(\r\n|$)/i, 'the answer announces the keep-alive timeout');
  t.notOk(probe.closed, 'kept alive after the answer');
  await waitFor(async () => (probe.closed ? true : undefined), 15_000, 20);
  t.ok(probe.closed, 'closed by the service');
  t.equal(probe.received.match(/HTTP\/1\.1 /g)?.length, 1, 'one answer, nothing more');
  t.comment(`kept-alive connection closed ${(probe.closedAt ?? 0) - answeredAt} ms after its answer (keep-alive timeout 1 s)`);
});
