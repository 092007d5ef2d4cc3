/**
 * The service path of the reference deck (issue "The service path as fast as the engine",
 * item 2), for bench/generate.bench.ts: the same 100-slide deck posted to the REST API of
 * an embedded service (`POST /api/v1/presentations/generate-deck`) and polled until its
 * status is `completed`, as a client sees it.
 *
 * The service runs in a process of its own, from the compiled JavaScript in `dist-bench/`
 * in plain `node` as production runs `dist/`, with its default settings (two CPU threads,
 * the service's young generation). A first start uploads and analyzes the two templates, makes one deck
 * and stops; then the service is started again on the same data directory `starts` times,
 * as after a deploy or a crash: nothing has run in its threads yet. Measured at each
 * start: the time from the spawn to `GET /healthz` answering 200, the first deck after it
 * and the first POST's own latency (the answer 202); on the last start the decks go on to
 * `runs` in all, whose second half gives the warm figures.
 *
 * A deck's time runs from sending the POST to the status poll that sees `completed`
 * (polled every {@link POLL_MS} ms, so figures carry up to that much of polling).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, withServiceProcessEnv } from '../core/src/threads/heap-limits.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const KEY = 'sw_bench_key_0123456789';
const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
/** Interval of the status polls, ms: the resolution of a deck's time. */
export const POLL_MS = 5;
/** Connections of the status load (each sends its next request when the last is answered). */
export const STATUS_CONNECTIONS = 50;
/** Length of each status load, ms. */
export const STATUS_LOAD_MS = Number(process.env.BENCH_STATUS_LOAD_MS ?? 5000);
/** Decks kept building during the busy status load. */
export const BUSY_DECKS = 4;

/** One slide of the reference workload, as bench/generate.bench.ts's `workload()` makes it. */
export interface WorkloadSlide {
  kind: 'text' | 'table';
  tableSlide: 1 | 3;
  title: string;
  bullets: string[];
  cells: string[][];
}

/** What one start of the service measured. */
export interface ServiceStart {
  /** From the spawn to the first `GET /healthz` answering 200, ms. */
  readyMs: number;
  /** Each deck of this start, in order: POST sent → status `completed` seen, ms. */
  decksMs: number[];
  /** Each deck's POST: sent → 202 received, ms. */
  postsMs: number[];
}

/** Status GETs under load ({@link measureStatusLoad}). */
export interface StatusLoad {
  connections: number;
  durationMs: number;
  requests: number;
  /** Answers other than 200 (and failed requests). */
  errors: number;
  /** Answered requests a second. */
  rps: number;
  /** Latency percentiles, ms. */
  p50Ms: number;
  p99Ms: number;
  /** CPU the service process (all its threads) spent per answered request, µs (NaN when not measured). */
  serviceCpuUs: number;
  /** CPU the load generator spent per answered request, µs. */
  clientCpuUs: number;
  /** Decks built while it ran (0 when idle). */
  decks: number;
}

export interface ServicePathResult {
  /** Every measured start, the last one with `runs` decks. */
  starts: ServiceStart[];
  /** `GET …/status` of a completed deck at {@link STATUS_CONNECTIONS} connections, with nothing else running. */
  statusIdle: StatusLoad;
  /** The same while {@link BUSY_DECKS} decks are building all the time. */
  statusBusy: StatusLoad;
  /** Size of the last deck downloaded, bytes, and its slide count (a check that the work was done). */
  bytes: number;
  slides: number;
}

/** Options of {@link measureServicePath}. */
export interface ServicePathOptions {
  /** The compiled `embedded.js` to run. */
  embeddedScript: string;
  /** The two templates: the text slides' and the tables' file. */
  textTemplate: string;
  tablesTemplate: string;
  workload: WorkloadSlide[];
  /** Starts measured after the setup start (each gives one "first deck after start"). */
  starts: number;
  /** Decks on the last start, the first included. */
  runs: number;
  /** Extra environment of the service (e.g. `SLIDEWRIGHT_WARMUP`). */
  env?: Record<string, string>;
}

/** A service started by {@link startService}. */
export interface Service {
  url: string;
  proc: ChildProcess;
  /** From the spawn to `/healthz` answering 200, ms. */
  readyMs: number;
}

/**
 * Starts the embedded service on `dataDir`; resolves once `/healthz` answers 200.
 * @param onLine - called with each line the service writes to its standard output (its log)
 * @param nodeFlags - flags for node before the script (e.g. `--cpu-prof`), after the service's own ({@link SERVICE_NODE_FLAGS}, as its start scripts pass them)
 */
export async function startService(script: string, dataDir: string, env: Record<string, string>, onLine?: (line: string) => void, nodeFlags: string[] = []): Promise<Service> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeFlags, script], {
    env: { ...withServiceProcessEnv(process.env), PORT: '0', GRPC_PORT: '0', SLIDEWRIGHT_DATA_DIR: dataDir, SLIDEWRIGHT_API_KEYS: `${KEY}:bench`, SLIDEWRIGHT_DEV_MODE: '0', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // the banner names the URL once the port is bound (PORT=0: a free port)
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (onLine) {
        const lines = (pending + d.toString()).split('\n');
        pending = lines.pop() ?? '';
        for (const l of lines) onLine(l);
      }
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening: ${err.slice(-2000)}`)));
  });
  for (;;) {
    const r = await fetch(`${url}/healthz`).catch(() => undefined);
    if (r?.status === 200) break;
    await sleep(10);
  }
  return { url, proc, readyMs: performance.now() - t0 };
}

/** Stops a service and waits for its exit. */
export async function stopService(s: Service): Promise<void> {
  const exited = new Promise<void>((resolve) => s.proc.once('exit', () => resolve()));
  s.proc.kill('SIGTERM');
  await exited;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function api(base: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('x-api-key', KEY);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return fetch(path.startsWith('http') ? path : `${base}${path}`, { ...init, headers, body });
}

/** Uploads and analyzes a template; returns the slide ids of its analysis, in slide order. */
export async function uploadAndAnalyze(base: string, file: string): Promise<string[]> {
  const bytes = readFileSync(file);
  const init = await api(base, '/api/v1/templates', { method: 'POST', json: { filename: file.split('/').pop(), file_size: bytes.length, metadata: { category: 'bench', tags: [] } } });
  if (init.status !== 201) throw new Error(`create template: ${init.status} ${await init.text()}`);
  const created = (await init.json()) as Json;
  const put = await fetch(created.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes });
  if (put.status !== 200) throw new Error(`upload ${file}: ${put.status} ${await put.text()}`);
  const id = created.template_id as string;
  const start = await api(base, `/api/v1/templates/${id}/analysis`, { method: 'POST', json: { options: {} } });
  if (start.status !== 202) throw new Error(`start analysis: ${start.status} ${await start.text()}`);
  for (;;) {
    const st = (await (await api(base, `/api/v1/templates/${id}/analysis/status`)).json()) as Json;
    if (st.status === 'completed') break;
    if (st.status === 'failed' || st.status === 'cancelled') throw new Error(`analysis of ${file}: ${JSON.stringify(st)}`);
    await sleep(50);
  }
  const a = (await (await api(base, `/api/v1/templates/${id}/analysis`)).json()) as Json;
  return (a.results.slides as Json[]).map((s) => s.slide_id as string);
}

/**
 * The reference deck as a generate-deck request (the in-process bench's edits and options).
 * @param text - slide ids of the text template's analysis, in slide order
 * @param tables - slide ids of the tables template's analysis, in slide order
 */
export function deckRequest(workload: WorkloadSlide[], text: string[], tables: string[]): Json {
  return {
    slides: workload.map((w) =>
      w.kind === 'text'
        ? { template_slide_id: text[0]!, slide_data: { title: w.title, content: { blocks: [{ type: 'text', text: { bullets: w.bullets } }] } } }
        : {
            template_slide_id: tables[w.tableSlide - 1]!,
            slide_data: { title: w.title, content: { blocks: [{ type: 'table', table: { table: { rows: w.cells.map((r, ri) => ({ is_header: ri === 0, cells: r.map((value) => ({ value })) })) } } }] } },
          },
    ),
    options: { auto_paginate_tables: false },
  };
}

/** Posts one deck and waits for it; returns its times (ms) and the final status record. */
export async function oneDeck(base: string, deck: Json, pollMs = POLL_MS): Promise<{ deckMs: number; postMs: number; status: Json; generationId: string }> {
  const t0 = performance.now();
  const r = await api(base, '/api/v1/presentations/generate-deck', { method: 'POST', json: deck });
  const postMs = performance.now() - t0;
  const body = (await r.json()) as Json;
  if (r.status !== 202) throw new Error(`generate-deck answered ${r.status}: ${JSON.stringify(body)}`);
  for (;;) {
    const st = (await (await api(base, `/api/v1/presentations/${body.generation_id as string}/status`)).json()) as Json;
    if (st.status === 'completed') return { deckMs: performance.now() - t0, postMs, status: st, generationId: body.generation_id as string };
    if (st.status === 'failed' || st.status === 'partial') throw new Error(`deck ${body.generation_id as string} ended ${st.status}: ${JSON.stringify(st).slice(0, 2000)}`);
    await sleep(pollMs);
  }
}

/**
 * Sends `GET path` on `connections` kept-alive connections for `durationMs` with autocannon
 * (each connection sends its next request as soon as its last one is answered), and reports
 * throughput, latency and — with `servicePid` — the CPU the service process spent per
 * answered request, read from /proc (Linux; NaN elsewhere). The client runs in this
 * process: on a small machine it takes CPU from the service, so figures are a floor.
 */
export async function measureStatusLoad(url: string, path: string, connections = STATUS_CONNECTIONS, durationMs = STATUS_LOAD_MS, servicePid?: number): Promise<Omit<StatusLoad, 'decks'>> {
  const cpuBefore = processCpuMs(servicePid);
  const clientBefore = process.cpuUsage();
  const r = await autocannon({ url: new URL(path, url).href, connections, duration: durationMs / 1000, headers: { 'x-api-key': KEY } });
  const client = process.cpuUsage(clientBefore);
  const answered = r['2xx'];
  const perRequestUs = (ms: number): number => (answered > 0 ? (ms * 1000) / answered : NaN);
  return {
    connections,
    durationMs: r.duration * 1000,
    requests: answered + r.non2xx + r.errors,
    errors: r.non2xx + r.errors,
    rps: answered / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    serviceCpuUs: perRequestUs(processCpuMs(servicePid) - cpuBefore),
    clientCpuUs: perRequestUs((client.user + client.system) / 1000),
  };
}

/** CPU time a process has used so far (user + system, every thread), ms; NaN without /proc or a pid. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * The status load twice on a running service: idle, then while {@link BUSY_DECKS} decks
 * are building (a new one posted as each completes).
 * @param statusPath - `/api/v1/presentations/{id}/status` of a completed deck
 * @param servicePid - the service's process, whose CPU per request is reported
 */
export async function measureStatusThroughput(url: string, statusPath: string, deck: Json, servicePid?: number): Promise<{ idle: StatusLoad; busy: StatusLoad }> {
  const idle = { ...(await measureStatusLoad(url, statusPath, STATUS_CONNECTIONS, STATUS_LOAD_MS, servicePid)), decks: 0 };
  let stop = false;
  let decks = 0;
  const builders = Array.from({ length: BUSY_DECKS }, async () => {
    while (!stop) {
      await oneDeck(url, deck, 50);
      decks++;
    }
  });
  await sleep(300); // the decks are under way
  const busyLoad = await measureStatusLoad(url, statusPath, STATUS_CONNECTIONS, STATUS_LOAD_MS, servicePid);
  stop = true;
  await Promise.all(builders);
  return { idle, busy: { ...busyLoad, decks } };
}

/**
 * Measures the reference deck through the REST API of embedded services started afresh
 * (see the module comment). Each start's service is stopped before the next one.
 */
export async function measureServicePath(opts: ServicePathOptions): Promise<ServicePathResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slidewright-servicebench-'));
  const env = opts.env ?? {};
  try {
    // setup start: templates uploaded and analyzed (their previews pre-render meanwhile)
    const setup = await startService(opts.embeddedScript, dataDir, env);
    let deck: Json;
    try {
      const text = await uploadAndAnalyze(setup.url, opts.textTemplate);
      const tables = await uploadAndAnalyze(setup.url, opts.tablesTemplate);
      // slides 1 and 3 of the tables template: analysis lists slides in order
      deck = deckRequest(opts.workload, text, tables);
      // one deck, so each measured start is the restart of a service in use (its warm-up
      // opens the templates recent decks used)
      await oneDeck(setup.url, deck);
    } finally {
      await stopService(setup);
    }
    const starts: ServiceStart[] = [];
    let last: Json = {};
    let lastId = '';
    for (let s = 0; s < opts.starts; s++) {
      const svc = await startService(opts.embeddedScript, dataDir, env);
      try {
        const start: ServiceStart = { readyMs: svc.readyMs, decksMs: [], postsMs: [] };
        const n = s === opts.starts - 1 ? opts.runs : 1;
        for (let i = 0; i < n; i++) {
          const r = await oneDeck(svc.url, deck);
          start.decksMs.push(r.deckMs);
          start.postsMs.push(r.postMs);
          last = r.status;
          lastId = r.generationId;
        }
        starts.push(start);
        if (s === opts.starts - 1) {
          const file = await fetch(last.download_url as string);
          const bytes = new Uint8Array(await file.arrayBuffer()).length;
          const status = await measureStatusThroughput(svc.url, `/api/v1/presentations/${lastId}/status`, deck, svc.proc.pid);
          return { starts, bytes, slides: last.total_pages_generated as number, statusIdle: status.idle, statusBusy: status.busy };
        }
      } finally {
        await stopService(svc);
      }
    }
    throw new Error('no start measured (starts must be at least 1)');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Template → every slide preview through the REST API ({@link measurePreviewsPath}). */
export interface PreviewsPathRun {
  /** Upload request sent → the last PNG received, ms. */
  totalMs: number;
  /** Upload request sent → analysis `completed` seen, ms. */
  analysisMs: number;
  pngs: number;
  bytes: number;
}

/**
 * A client's path from a template file to every slide's preview: create the template,
 * upload its bytes, start the analysis, poll its status every `pollMs` until `completed`,
 * then fetch each slide's PNG at the default width, `concurrency` requests at a time (as a
 * browser shows a slide strip).
 */
export async function measurePreviewsPath(base: string, file: string, slides: number, concurrency = 6, pollMs = POLL_MS): Promise<PreviewsPathRun> {
  const bytes = readFileSync(file);
  const t0 = performance.now();
  const init = await api(base, '/api/v1/templates', { method: 'POST', json: { filename: file.split('/').pop(), file_size: bytes.length, metadata: { category: 'bench', tags: [] } } });
  if (init.status !== 201) throw new Error(`create template: ${init.status} ${await init.text()}`);
  const created = (await init.json()) as Json;
  const put = await fetch(created.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: bytes });
  if (put.status !== 200) throw new Error(`upload ${file}: ${put.status} ${await put.text()}`);
  const id = created.template_id as string;
  const start = await api(base, `/api/v1/templates/${id}/analysis`, { method: 'POST', json: { options: {} } });
  if (start.status !== 202) throw new Error(`start analysis: ${start.status} ${await start.text()}`);
  for (;;) {
    const st = (await (await api(base, `/api/v1/templates/${id}/analysis/status`)).json()) as Json;
    if (st.status === 'completed') break;
    if (st.status === 'failed' || st.status === 'cancelled') throw new Error(`analysis of ${file}: ${JSON.stringify(st)}`);
    await sleep(pollMs);
  }
  const analysisMs = performance.now() - t0;
  let next = 1;
  let pngs = 0;
  let total = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let n = next++; n <= slides; n = next++) {
        const r = await api(base, `/api/v1/templates/${id}/slides/${n}/preview`);
        if (r.status !== 200) throw new Error(`preview ${n}: ${r.status} ${await r.text()}`);
        // read before adding: `total += await …` would add to the total as it was before the await
        const size = (await r.arrayBuffer()).byteLength;
        total += size;
        pngs++;
      }
    }),
  );
  return { totalMs: performance.now() - t0, analysisMs, pngs, bytes: total };
}
