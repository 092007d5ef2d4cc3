/**
 * Where a deck's time goes through the service (issue "The service path as fast as the
 * engine"): the 100-slide reference deck through REST on a fresh start of the embedded
 * service (./service-path.ts: the compiled JavaScript in plain node, default settings,
 * templates uploaded and analyzed by a setup start), `BENCH_STAGES_DECKS` decks one after
 * the other (status polled every 5 ms); the last two thirds are reported:
 *
 * - the stages of a deck, medians, ms: the POST until its 202; the queue (202 → the job
 *   starts); the job's prepare, build (in a CPU thread) and store, from its `generation
 *   finished` log line; until the client's next poll sees the final state; the whole;
 * - each thread of the service process, per deck: time on a CPU and time waiting for one
 *   (runnable but not running), from `/proc/<pid>/task/<tid>/schedstat` (Linux). A build
 *   whose CPU thread waited for a CPU as long as it ran took twice its CPU time.
 *
 * The service logs at `info` here (for the stage times), which adds a log line per request
 * on the gateway thread. With `BENCH_SERVICE_BEFORE=<another build's
 * dist-bench/main/embedded.js>` that build is measured too, the two taking turns
 * `BENCH_STAGES_ROUNDS` times (default 2).
 *
 *   npm run bench -- stages
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath } from '../test/helpers/corpus.js';
import { SLIDES, TABLES, TEXT, workload } from './reference-deck.js';
import { deckRequest, oneDeck, POLL_MS, startService, stopService, uploadAndAnalyze } from './service-path.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Decks made after the start; the first third is left out. */
const DECKS = Number(process.env.BENCH_STAGES_DECKS ?? 40);
const ROUNDS = Number(process.env.BENCH_STAGES_ROUNDS ?? 2);

/** One thread's scheduler times so far, ms (proc(5) `schedstat`), and its nice value. */
interface ThreadTimes {
  onCpuMs: number;
  waitingMs: number;
  nice: number;
}

function threadTimes(pid: number): Map<number, ThreadTimes> {
  const out = new Map<number, ThreadTimes>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      out.set(Number(tid), { onCpuMs: Number(run) / 1e6, waitingMs: Number(wait) / 1e6, nice });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** The stages of one deck, ms. */
interface Stages {
  post: number;
  queue: number;
  prepare: number;
  build: number;
  store: number;
  seen: number;
  total: number;
}

interface RoundResult {
  stages: Stages[];
  /** Per thread (labelled), per deck: on a CPU and waiting for one, ms. */
  threads: Array<{ label: string; onCpuMs: number; waitingMs: number }>;
  load: number;
}

interface GenerationFinished {
  generation_id: string;
  time: number;
  prepare_ms: number;
  build_ms: number;
  store_ms: number;
}

async function round(script: string, dataDir: string, deck: Record<string, unknown>): Promise<RoundResult> {
  const finished = new Map<string, GenerationFinished>();
  const svc = await startService(script, dataDir, { LOG_LEVEL: 'info' }, (line) => {
    if (!line.includes('"generation finished"')) return;
    const l = JSON.parse(line) as GenerationFinished;
    finished.set(l.generation_id, l);
  });
  const pid = svc.proc.pid!;
  const skip = Math.floor(DECKS / 3);
  const sent: Array<{ id: string; sentAt: number; postMs: number; seenAt: number }> = [];
  let before = new Map<number, ThreadTimes>();
  try {
    for (let i = 0; i < DECKS; i++) {
      if (i === skip) before = threadTimes(pid);
      const sentAt = Date.now();
      const r = await oneDeck(svc.url, deck, POLL_MS);
      sent.push({ id: r.generationId, sentAt, postMs: r.postMs, seenAt: Date.now() });
    }
    const after = threadTimes(pid);
    const n = DECKS - skip;
    const threads = [...after]
      .map(([tid, a]) => {
        const b = before.get(tid) ?? { onCpuMs: 0, waitingMs: 0 };
        const label = tid === pid ? 'main (core, jobs)' : a.nice > 0 ? `CPU thread ${tid} (nice ${a.nice})` : `thread ${tid}`;
        return { label, onCpuMs: (a.onCpuMs - b.onCpuMs) / n, waitingMs: (a.waitingMs - b.waitingMs) / n };
      })
      .filter((x) => x.onCpuMs >= 0.5)
      .sort((x, y) => y.onCpuMs - x.onCpuMs);
    const stages = sent.slice(skip).flatMap((s) => {
      const f = finished.get(s.id);
      if (!f) return [];
      const start = f.time - f.store_ms - f.build_ms - f.prepare_ms;
      return [{ post: s.postMs, queue: start - (s.sentAt + s.postMs), prepare: f.prepare_ms, build: f.build_ms, store: f.store_ms, seen: s.seenAt - f.time, total: s.seenAt - s.sentAt }];
    });
    return { stages, threads, load: loadavg()[0]! };
  } finally {
    await stopService(svc);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

const compiled = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.bench.json')], { encoding: 'utf8' });
if (compiled.status !== 0) throw new Error(`tsc -p tsconfig.bench.json failed: ${compiled.stdout}${compiled.stderr}`);
const builds: Array<{ label: string; script: string }> = [{ label: 'this build', script: join(root, 'dist-bench', 'main', 'embedded.js') }];
if (process.env.BENCH_SERVICE_BEFORE) builds.unshift({ label: 'before', script: process.env.BENCH_SERVICE_BEFORE });

console.log(`service stages: ${SLIDES}-slide reference deck through REST, polled every ${POLL_MS} ms, ${DECKS} decks after a fresh start, the last ${DECKS - Math.floor(DECKS / 3)} reported; ${ROUNDS} round(s) per build, taking turns`);
for (const b of builds) {
  const dataDir = mkdtempSync(join(tmpdir(), 'slidewright-stagesbench-'));
  // the setup start: templates uploaded and analyzed, one deck made
  const setup = await startService(b.script, dataDir, {});
  let deck: Record<string, unknown>;
  try {
    const text = await uploadAndAnalyze(setup.url, corpusPath(`bench/${TEXT}`));
    const tables = await uploadAndAnalyze(setup.url, corpusPath(`bench/${TABLES}`));
    deck = deckRequest(workload(), text, tables);
    await oneDeck(setup.url, deck);
  } finally {
    await stopService(setup);
  }
  (b as { dataDir?: string; deck?: Record<string, unknown> }).dataDir = dataDir;
  (b as { dataDir?: string; deck?: Record<string, unknown> }).deck = deck;
}
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const b of builds) {
      const { dataDir, deck } = b as unknown as { dataDir: string; deck: Record<string, unknown> };
      const res = await round(b.script, dataDir, deck);
      const keys: Array<keyof Stages> = ['post', 'queue', 'prepare', 'build', 'store', 'seen', 'total'];
      console.log(`  ${b.label}, round ${r + 1} (load ${res.load.toFixed(1)}): stage medians, ms: ${keys.map((k) => `${k} ${median(res.stages.map((s) => s[k])).toFixed(1)}`).join(', ')}`);
      for (const t of res.threads) console.log(`    ${t.label.padEnd(28)} per deck: on a CPU ${t.onCpuMs.toFixed(1).padStart(6)} ms, waiting for a CPU ${t.waitingMs.toFixed(1).padStart(6)} ms`);
      const sum = res.threads.reduce((s, t) => s + t.onCpuMs, 0);
      console.log(`    ${'all threads'.padEnd(28)} per deck: on a CPU ${sum.toFixed(1).padStart(6)} ms`);
    }
  }
} finally {
  for (const b of builds) rmSync((b as unknown as { dataDir: string }).dataDir, { recursive: true, force: true });
}
