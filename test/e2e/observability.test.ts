/**
 * Operations: Prometheus metrics, readiness vs liveness, structured logs carrying request
 * and job ids, and a graceful SIGTERM that hands in-flight jobs back for the next start.
 */
import t, { type Test } from 'tap';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { spawnOwned } from '../helpers/processes.js';
import { ORG_A, startTestService, waitFor, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

t.test('/metrics exposes request latency, job outcomes, queue depth and pending generations', async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const layout = (results.layouts as Json[]).find((l) => l.type === 'title')!;
  const job = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layout.slide_id, slide_data: { title: 'm' } }] } })).json()) as Json;
  await waitForGeneration(svc, job.generation_id as string);
  const text = await (await svc.api('/metrics', { as: null })).text();
  t.match(text, /slidewright_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/presentations\/generate-deck",status="202"\} 1/);
  t.match(text, /slidewright_jobs_total\{kind="generation",outcome="ok"\} 1/);
  t.match(text, /slidewright_jobs_total\{kind="analysis",outcome="ok"\} 1/);
  t.match(text, /slidewright_job_duration_seconds_count\{kind="generation",outcome="ok"\} 1/);
  t.match(text, /slidewright_queue_depth\{kind="generation"\} 0/);
  t.match(text, /slidewright_pending_generations\{org="acme"\} 0/);
  t.match(text, /slidewright_grpc_request_duration_seconds_count\{rpc="GenerateDeck",code="0"\} 1/);
  t.equal((await svc.api('/livez', { as: null })).status, 200);
  t.equal((await svc.api('/readyz', { as: null })).status, 200);
});

function startProcess(t: Test, dataDir: string, lines: string[]): ChildProcess {
  const child = spawnOwned(t, process.execPath, ['--import', 'tsx', join(repoRoot, 'main/embedded.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', GRPC_PORT: '0', SLIDEWRIGHT_DATA_DIR: dataDir, SLIDEWRIGHT_API_KEYS: `${ORG_A.key}:${ORG_A.org}`, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    lines.push(...parts);
  });
  return child;
}

async function urlOf(lines: string[]): Promise<string> {
  return waitFor(async () => lines.map((l) => /listening on (http\S+)/.exec(l)?.[1]).find(Boolean), 60_000);
}

t.test('SIGTERM drains and exits; an interrupted job completes after the restart; logs carry request and job ids', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slidewright-sigterm-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const lines: string[] = [];
  const first = startProcess(t, dataDir, lines);
  const base = await urlOf(lines);
  const svc = { api: (p: string, init: RequestInit & { json?: unknown; as?: null } = {}) => fetch(`${base}${p}`, { ...init, headers: { 'x-api-key': ORG_A.key, 'content-type': 'application/json', 'x-request-id': 'req-observability-1' }, body: init.json !== undefined ? JSON.stringify(init.json) : init.body }) };
  const { results } = await uploadAndAnalyze(svc as unknown as TestService, await houseTemplatePath(t));
  const layout = (results.layouts as Json[]).find((l) => l.type === 'obj')!;
  const slides = Array.from({ length: 400 }, (_, i) => ({ template_slide_id: layout.slide_id, slide_data: { title: `Slide ${i}` } }));
  const job = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides } })).json()) as Json;
  const exited = new Promise<number | null>((resolve) => first.once('exit', (code) => resolve(code)));
  first.kill('SIGTERM');
  t.equal(await exited, 0, 'exits cleanly on SIGTERM');

  const logged = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Json);
  t.ok(logged.some((l) => l.reqId === 'req-observability-1' || l.request_id === 'req-observability-1'), 'the request id given by the client is logged');
  t.ok(logged.some((l) => l.job_id && l.request_id === 'req-observability-1'), 'job logs carry the request id of the call that submitted them');

  const lines2: string[] = [];
  const second = startProcess(t, dataDir, lines2);
  const base2 = await urlOf(lines2);
  const st = await waitFor(async () => {
    const r = (await (await fetch(`${base2}/api/v1/presentations/${job.generation_id}/status`, { headers: { 'x-api-key': ORG_A.key } })).json()) as Json;
    return ['completed', 'partial', 'failed'].includes(r.status as string) ? r : undefined;
  }, 120_000);
  t.equal(st.status, 'completed', 'the job handed back at shutdown completes after the restart');
  t.equal(st.total_pages_generated, 400);
  const exit2 = new Promise<number | null>((resolve) => second.once('exit', (code) => resolve(code)));
  second.kill('SIGTERM');
  t.equal(await exit2, 0);
});
