/**
 * Durable webhook delivery (issue 18, item 4): with the receiver failing, the processes
 * that hold pending deliveries are killed with SIGKILL and started again; once the receiver
 * answers, every delivery arrives, each delivery id exactly once (before: a restart dropped
 * every pending retry, 0 of 3 arrived). In embedded mode (one process, LevelDB outbox) and
 * in distributed mode (core and two workers over Redis, every one of them killed), plus
 * two delivery loops on one Redis (two processes) sharing the work without duplicates.
 */
import t, { type Test } from 'tap';
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pino from 'pino';
import { repoRoot } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { spawnOwned } from '../helpers/processes.js';
import { ORG_A, waitFor } from '../helpers/service.js';
import { PPTX_MEDIA_TYPE } from '../helpers/flows.js';
import { distributedSkipReason, startBackends, startCluster } from '../helpers/distributed.js';
import { RedisStateStore } from '../../core/src/adapters/redis-state-store.js';
import { WebhookNotifier, signWebhook } from '../../core/src/services/webhooks.js';
import { OUTBOX_PREFIX } from '../../core/src/services/webhook-outbox.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const SECRET = 'outbox-webhook-secret-0123456789';

/** Settings of every process: the receiver's loopback allowed, retries at most 2 s apart. */
const HOOK_ENV = { SLIDEWRIGHT_WEBHOOK_ALLOW: '127.0.0.1', SLIDEWRIGHT_WEBHOOK_MAX_DELAY: '2', SLIDEWRIGHT_WEBHOOK_SECRET: SECRET };

interface Attempt {
  id: string;
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver that answers 503 until `heal()`, recording every attempt. */
async function receiver(): Promise<{ url: string; attempts: Attempt[]; heal(): void; close(): Promise<void> }> {
  const attempts: Attempt[] = [];
  let healthy = false;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const status = healthy ? 204 : 503;
      attempts.push({ id: String(req.headers['x-slidewright-delivery']), status, headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    heal: () => (healthy = true),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

type Api = (path: string, init?: { method?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> }) => Promise<Response>;

/** Upload, an analysis with a webhook, and `n` generations with a webhook; returns the generation ids. */
async function jobsWithWebhooks(t: Test, api: Api, hook: string, n: number): Promise<string[]> {
  const file = await houseTemplatePath(t);
  const bytes = readFileSync(file);
  const created = (await (await api('/api/v1/templates', { method: 'POST', json: { filename: basename(file), file_size: bytes.length } })).json()) as Json;
  const put = await fetch(created.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes });
  if (put.status !== 200) throw new Error(`upload: ${put.status}`);
  const tpl = created.template_id as string;
  const start = await api(`/api/v1/templates/${tpl}/analysis`, { method: 'POST', json: { webhook_url: `${hook}/analysis` } });
  if (start.status !== 202) throw new Error(`analysis: ${start.status} ${await start.text()}`);
  await waitFor(async () => ((((await (await api(`/api/v1/templates/${tpl}/analysis/status`)).json()) as Json).status === 'completed') ? true : undefined), 120_000);
  const results = ((await (await api(`/api/v1/templates/${tpl}/analysis`)).json()) as Json).results as Json;
  const layout = (results.layouts as Json[]).find((l) => l.type === 'title')!.slide_id as string;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layout, slide_data: { title: `Hook ${i}` } }], webhook_url: `${hook}/generation/${i}` } });
    if (r.status !== 202) throw new Error(`generate: ${r.status} ${await r.text()}`);
    ids.push(((await r.json()) as Json).generation_id as string);
  }
  return ids;
}

/** Waits until `count` distinct deliveries have each failed at least once. */
function failingDeliveries(rx: Awaited<ReturnType<typeof receiver>>, count: number): Promise<string[]> {
  return waitFor(async () => {
    const ids = [...new Set(rx.attempts.filter((a) => a.status === 503).map((a) => a.id))];
    return ids.length >= count ? ids : undefined;
  }, 180_000);
}

/** Checks that every failed delivery arrived once (2xx), signed, with its event; returns the per-id counts. */
function checkArrivals(t: Test, rx: Awaited<ReturnType<typeof receiver>>, failed: string[], generationIds: string[]): void {
  const ok = rx.attempts.filter((a) => a.status === 204);
  const counts = new Map<string, number>();
  for (const a of ok) counts.set(a.id, (counts.get(a.id) ?? 0) + 1);
  t.same([...counts.keys()].sort(), [...failed].sort(), `the ${failed.length} deliveries pending at the kill arrived, with the ids they had before`);
  t.ok([...counts.values()].every((c) => c === 1), `each delivery id arrived once (${[...counts.values()].join(', ')})`);
  const bodies = ok.map((a) => JSON.parse(a.body) as Json);
  t.equal(bodies.filter((b) => b.event === 'analysis.completed').length, 1, 'the analysis event');
  t.same(bodies.filter((b) => b.event === 'generation.completed').map((b) => b.data.generation_id as string).sort(), [...generationIds].sort(), 'one event per generation');
  for (const a of ok) {
    const ts = Number(/t=(\d+)/.exec(String(a.headers['x-slidewright-signature']))?.[1]);
    if (a.headers['x-slidewright-signature'] !== signWebhook(SECRET, a.body, ts)) t.fail(`signature of ${a.id}`);
    if ((JSON.parse(a.body) as Json).delivery_id !== a.id) t.fail(`body delivery_id of ${a.id}`);
  }
  t.pass('every arrival is signed and names its delivery id in the body');
}

t.test('embedded: kill -9 with deliveries failing; after the restart each arrives once', async (t) => {
  const rx = await receiver();
  t.teardown(() => rx.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'slidewright-outbox-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const start = (): { child: ChildProcess; url: Promise<string> } => {
    const lines: string[] = [];
    const child = spawnOwned(t, process.execPath, ['--import', 'tsx', join(repoRoot, 'main/embedded.ts')], {
      cwd: repoRoot,
      env: { ...process.env, PORT: '0', GRPC_PORT: '0', SLIDEWRIGHT_DATA_DIR: dataDir, SLIDEWRIGHT_API_KEYS: `${ORG_A.key}:${ORG_A.org}`, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...HOOK_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n')));
    child.stderr!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n')));
    return { child, url: waitFor(async () => lines.map((l) => /listening on (http\S+)/.exec(l)?.[1]).find(Boolean), 90_000) };
  };
  const first = start();
  const base = await first.url;
  const api: Api = (path, init = {}) =>
    fetch(`${base}${path}`, { method: init.method, headers: { 'x-api-key': ORG_A.key, 'content-type': 'application/json', ...init.headers }, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  const generations = await jobsWithWebhooks(t, api, rx.url, 3);
  const failed = await failingDeliveries(rx, 4);
  const exited = new Promise((r) => first.child.once('exit', r));
  first.child.kill('SIGKILL');
  await exited;
  const attemptsBeforeKill = rx.attempts.length;
  rx.heal();
  const second = start();
  await second.url;
  await waitFor(async () => (new Set(rx.attempts.filter((a) => a.status === 204).map((a) => a.id)).size >= 4 ? true : undefined), 60_000);
  await new Promise((r) => setTimeout(r, 3_000)); // time for a duplicate to show
  t.comment(`${attemptsBeforeKill} failed attempts before the kill; ${rx.attempts.length - attemptsBeforeKill} after the restart`);
  checkArrivals(t, rx, failed, generations);
});

const skip = distributedSkipReason();
t.test('distributed: core and both workers killed with deliveries failing; after the restart each arrives once', { skip }, async (t) => {
  const rx = await receiver();
  t.teardown(() => rx.close());
  const backends = await startBackends();
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  t.teardown(async () => {
    await cluster?.close();
    await backends.close();
  });
  cluster = await startCluster(backends, { workers: 2, env: { ...HOOK_ENV, LOG_LEVEL: 'warn' } });
  const api: Api = (path, init = {}) => cluster!.api(path, { method: init.method, json: init.json, body: init.body, headers: init.headers });
  const generations = await jobsWithWebhooks(t, api, rx.url, 3);
  const failed = await failingDeliveries(rx, 4);
  await Promise.all([...cluster.workers.map((w) => w.stop('SIGKILL')), cluster.cores[0]!.stop('SIGKILL')]);
  const attemptsBeforeKill = rx.attempts.length;
  const state = await RedisStateStore.open(backends.redisUrl);
  t.teardown(() => state.close());
  t.equal((await state.scan(OUTBOX_PREFIX)).length, 4, 'the four deliveries wait in Redis while every process is down');
  rx.heal();
  await cluster.restartCore(0);
  cluster.workers.length = 0;
  await Promise.all([cluster.addWorker(), cluster.addWorker()]);
  // a process killed mid-attempt leaves a lease of 30 s at most before another takes over
  await waitFor(async () => (new Set(rx.attempts.filter((a) => a.status === 204).map((a) => a.id)).size >= 4 ? true : undefined), 90_000);
  await new Promise((r) => setTimeout(r, 3_000));
  t.comment(`${attemptsBeforeKill} failed attempts before the kill; ${rx.attempts.length - attemptsBeforeKill} after the restart`);
  checkArrivals(t, rx, failed, generations);
  t.equal((await state.scan(OUTBOX_PREFIX)).length, 0, 'the outbox is empty');
});

t.test('Redis: two delivery loops on separate connections (two processes) deliver 40 deliveries, each once', { skip }, async (t) => {
  const backends = await startBackends();
  const hits: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    hits.push(String(req.headers['x-slidewright-delivery']));
    // a slow-ish receiver, so the two loops overlap
    setTimeout(() => res.writeHead(204).end(), 20);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const port = (server.address() as AddressInfo).port;
  const stores = [await RedisStateStore.open(backends.redisUrl), await RedisStateStore.open(backends.redisUrl)];
  const loops = stores.map((state) => new WebhookNotifier({ secret: SECRET, orgDefaults: new Map(), state, allow: ['127.0.0.1'], log: pino({ level: 'silent' }) }));
  t.teardown(async () => {
    for (const l of loops) await l.close();
    for (const s of stores) await s.close();
    await backends.close();
  });
  for (let i = 0; i < 40; i++) await stores[0]!.batch(loops[0]!.deliveryOps('acme', `http://127.0.0.1:${port}/${i}`, 'generation.completed', { i }));
  loops.forEach((l) => l.start());
  await waitFor(async () => ((await stores[0]!.scan(OUTBOX_PREFIX)).length === 0 ? true : undefined), 60_000);
  await new Promise((r) => setTimeout(r, 500));
  t.equal(hits.length, 40, '40 requests');
  t.equal(new Set(hits).size, 40, 'each delivery id once');
});
