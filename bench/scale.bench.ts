/**
 * Worker fleet scaling (issue 6 item 8): decks per minute with 1 and with 2 worker
 * processes, side by side, in distributed mode on this machine (core, gateway and
 * workers as separate processes over our own NATS JetStream, Redis and s3rver).
 *
 * Workload: the reference deck of bench/README (100 slides alternating pp_test_slides
 * slide 1 — title + 5 bullets — with SlideWithTables slides 1 and 3 — title + a 4x4
 * table), `DECKS` of them submitted at once through the REST gateway. Throughput is
 * decks / (last completion − first submission); completion times come from the records.
 *
 * Two worker shapes are measured:
 * - "1 thread": SLIDEWRIGHT_WORKER_THREADS=1, SLIDEWRIGHT_JOB_CONCURRENCY=2 — one worker
 *   process is one core's worth of capacity (one job builds on the thread while the other
 *   does its I/O), the shape to scale out by adding processes;
 * - "default": 2 threads and 2 jobs at once per worker — one process already uses both
 *   cores of a 2-core machine, so a second process cannot add much here.
 *
 * Besides wall time it prints the throughput per CPU-second of the workers (decks divided
 * by the CPU seconds the worker processes used, threads included: what a worker's CPU buys,
 * whatever share of the cores the machine lends it), and the CPU seconds every process used during the timed run
 * (workers, core, gateway, NATS, Redis, and this process, which runs s3rver and the
 * client), and the machine's load average, so the figures can be judged: on a machine
 * shared with other work, the workers do not get the cores to themselves.
 *
 *   npx tsx bench/scale.bench.ts            (DECKS=40 by default)
 */
import { corpusPath } from '../test/helpers/corpus.js';
import { uploadAndAnalyze } from '../test/helpers/flows.js';
import { distributedSkipReason, startBackends, startCluster, type Cluster, type Proc } from '../test/helpers/distributed.js';
import { RedisStateStore } from '../core/src/adapters/redis-state-store.js';
import type { GenerationRecord } from '../core/src/domain/records.js';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DECKS = Number(process.env['DECKS'] ?? 40);
const SLIDES = 100;

interface Shape {
  name: string;
  env: Record<string, string>;
}
const SHAPES: Shape[] = [
  { name: '1 thread, 2 jobs per worker', env: { SLIDEWRIGHT_WORKER_THREADS: '1', SLIDEWRIGHT_JOB_CONCURRENCY: '2' } },
  { name: 'default (2 threads, 2 jobs per worker)', env: { SLIDEWRIGHT_WORKER_THREADS: '2', SLIDEWRIGHT_JOB_CONCURRENCY: '2' } },
];

const skip = distributedSkipReason();
if (skip) {
  process.stdout.write(`scale bench skipped: ${skip}\n`);
  process.exit(0);
}

const backends = await startBackends();
const cluster = await startCluster(backends, { workers: 1, env: { LOG_LEVEL: 'warn' } });
const state = await RedisStateStore.open(backends.redisUrl);
try {
  const a = await uploadAndAnalyze(cluster.service, corpusPath('bench/pp_test_slides.pptx'));
  const b = await uploadAndAnalyze(cluster.service, corpusPath('bench/SlideWithTables.pptx'));
  await cluster.workers.pop()!.stop();
  const bullets = (a.results.slides as Json[])[0]!.slide_id as string;
  const tables = [(b.results.slides as Json[])[0]!.slide_id as string, (b.results.slides as Json[])[2]!.slide_id as string];
  const deck = {
    slides: Array.from({ length: SLIDES }, (_, i) =>
      i % 2 === 0
        ? { template_slide_id: bullets, slide_data: { title: `Slide ${i}`, content: { blocks: [{ type: 'text', text: { bullets: ['one', 'two', 'three', 'four', 'five'] } }] } } }
        : {
            template_slide_id: tables[(i >> 1) % 2]!,
            slide_data: { title: `Table ${i}`, content: { blocks: [{ type: 'table', table: { table: { rows: [0, 1, 2, 3].map((r) => ({ cells: [0, 1, 2, 3].map((k) => ({ value: `${r}.${k}` })), is_header: r === 0 })) } } }] } },
          },
    ),
  };

  const results: Array<{ shape: string; workers: number; perMinute: number; seconds: number; cpu: string; perWorkerCpuSecond: number }> = [];
  for (const shape of SHAPES) {
    for (const n of [1, 2]) {
      const workers: Proc[] = [];
      for (let i = 0; i < n; i++) workers.push(await cluster.addWorker(shape.env));
      await run(cluster, deck, Math.max(2, n * 2)); // warm-up: threads started, code compiled
      const others: Array<[string, number]> = [
        ['core', cluster.cores[0]!.pid],
        ['gateway', cluster.gateways[0]!.pid],
        ['nats', backends.nats.proc!.pid],
        ['redis', backends.redis.proc!.pid],
        ['bench+s3rver', process.pid],
      ];
      const cpu0 = await Promise.all(workers.map((w) => cpuSeconds(w.pid)));
      const other0 = await Promise.all(others.map(([, pid]) => cpuSeconds(pid)));
      const r = await run(cluster, deck, DECKS);
      const cpu1 = await Promise.all(workers.map((w) => cpuSeconds(w.pid)));
      const other1 = await Promise.all(others.map(([, pid]) => cpuSeconds(pid)));
      const used = cpu1.map((c, i) => (c - cpu0[i]!).toFixed(1)).join(' + ');
      // decks per CPU second of the workers: how much work a worker's CPU buys, whatever the machine lends it
      const workerCpu = cpu1.reduce((sum, c, i) => sum + (c - cpu0[i]!), 0);
      const perWorkerCpuSecond = DECKS / Math.max(0.01, workerCpu);
      const otherUsed = others.map(([name], i) => `${name} ${(other1[i]! - other0[i]!).toFixed(1)}`).join(', ');
      results.push({ shape: shape.name, workers: n, perMinute: (DECKS / r) * 60, seconds: r, cpu: `${used} s`, perWorkerCpuSecond });
      process.stdout.write(
        `${shape.name}, ${n} worker(s): ${DECKS} decks in ${r.toFixed(1)} s → ${((DECKS / r) * 60).toFixed(1)} decks/min, ${perWorkerCpuSecond.toFixed(2)} decks per worker CPU-second; CPU s: workers ${used}; ${otherUsed}; load average ${loadavg()[0]!.toFixed(1)}\n`,
      );
      for (const w of workers) {
        await w.stop();
        cluster.workers.splice(cluster.workers.indexOf(w), 1);
      }
    }
  }

  process.stdout.write(`\nDecks per minute (${SLIDES}-slide reference deck, ${DECKS} decks, ${cpus().length} cores)\n`);
  process.stdout.write(`${'worker shape'.padEnd(42)} ${'1 worker'.padStart(10)} ${'2 workers'.padStart(10)} ${'speed-up'.padStart(9)}   decks per worker CPU-second (1 / 2 workers)\n`);
  for (const shape of SHAPES) {
    const one = results.find((r) => r.shape === shape.name && r.workers === 1)!;
    const two = results.find((r) => r.shape === shape.name && r.workers === 2)!;
    process.stdout.write(
      `${shape.name.padEnd(42)} ${one.perMinute.toFixed(1).padStart(10)} ${two.perMinute.toFixed(1).padStart(10)} ${`${(two.perMinute / one.perMinute).toFixed(2)}×`.padStart(9)}   ${one.perWorkerCpuSecond.toFixed(2)} / ${two.perWorkerCpuSecond.toFixed(2)}\n`,
    );
  }
} finally {
  await state.close();
  await cluster.close();
  await backends.close();
}

/**
 * Submits `count` decks at once and waits for all of them.
 * @returns seconds from the first submission to the last completion
 */
async function run(c: Cluster, deck: Json, count: number): Promise<number> {
  const t0 = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, () => c.api('/api/v1/presentations/generate-deck', { method: 'POST', json: deck })));
  const ids: string[] = [];
  for (const r of answers) {
    const body = (await r.json()) as Json;
    if (r.status !== 202) throw new Error(`generate-deck answered ${r.status}: ${JSON.stringify(body)}`);
    ids.push(body.generation_id as string);
  }
  for (;;) {
    const pending = (await state.get<string[]>('pending:acme')) ?? [];
    if (!ids.some((id) => pending.includes(id))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  let last = t0;
  for (const id of ids) {
    const rec = (await state.get<GenerationRecord>(`gen:acme:${id}`))!;
    if (rec.status !== 'completed') throw new Error(`${id} ended ${rec.status}: ${rec.message}`);
    last = Math.max(last, Date.parse(rec.completed_at!));
  }
  return (last - t0) / 1000;
}

/** CPU seconds (user + system) process `pid` has used, from /proc, including its threads. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
