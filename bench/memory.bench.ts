/**
 * The service's memory over many decks (issue "The service path as fast as the engine",
 * item 4: embedded service RSS after 100 decks ≤ 400 MiB and flat over 1,000). The embedded
 * service runs from the compiled JavaScript (`dist-bench/`, compiled here) with default
 * settings; the 100-slide reference deck (./reference-deck.ts) is made through REST one
 * after the other, and the resident set of the service process (its CPU and gateway threads
 * included: `/proc/<pid>/status` VmRSS) is read after each block of decks.
 *
 * Reported: RSS once ready, after 100 decks, and after every block up to `BENCH_MEMORY_DECKS`
 * (default 1,000), with the slope of the second half (MiB per 100 decks): a service that
 * keeps memory per deck climbs there, one that reaches its working set stays flat.
 *
 *   npm run bench -- memory
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath } from '../test/helpers/corpus.js';
import { SLIDES, TABLES, TEXT, workload } from './reference-deck.js';
import { deckRequest, oneDeck, startService, stopService, uploadAndAnalyze } from './service-path.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Decks made in all. */
const DECKS = Number(process.env.BENCH_MEMORY_DECKS ?? 1000);
/** Decks between two readings. */
const BLOCK = 100;
/** The goals of the issue, MiB. */
const GOAL_AFTER_100_MIB = 400;

/** Resident set of a process, MiB (Linux `/proc/<pid>/status`). */
function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) / 1024;
}

const compiled = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.bench.json')], { encoding: 'utf8' });
if (compiled.status !== 0) throw new Error(`tsc -p tsconfig.bench.json failed: ${compiled.stdout}${compiled.stderr}`);

const dataDir = mkdtempSync(join(tmpdir(), 'slidewright-memorybench-'));
const svc = await startService(join(root, 'dist-bench', 'main', 'embedded.js'), dataDir, {});
const readings: Array<{ decks: number; mib: number }> = [];
try {
  const pid = svc.proc.pid!;
  const text = await uploadAndAnalyze(svc.url, corpusPath(`bench/${TEXT}`));
  const tables = await uploadAndAnalyze(svc.url, corpusPath(`bench/${TABLES}`));
  const deck = deckRequest(workload(), text, tables);
  readings.push({ decks: 0, mib: rssMiB(pid) });
  for (let made = 0; made < DECKS; ) {
    for (let i = 0; i < BLOCK && made < DECKS; i++, made++) await oneDeck(svc.url, deck, 20);
    readings.push({ decks: made, mib: rssMiB(pid) });
  }
} finally {
  await stopService(svc);
  rmSync(dataDir, { recursive: true, force: true });
}

const after100 = readings.find((r) => r.decks === 100);
const second = readings.filter((r) => r.decks >= DECKS / 2);
// least-squares slope over the second half, MiB per 100 decks
const n = second.length;
const mx = second.reduce((s, r) => s + r.decks, 0) / n;
const my = second.reduce((s, r) => s + r.mib, 0) / n;
const slope = (second.reduce((s, r) => s + (r.decks - mx) * (r.mib - my), 0) / Math.max(1e-9, second.reduce((s, r) => s + (r.decks - mx) ** 2, 0))) * 100;
console.log(`service memory: ${SLIDES}-slide reference deck through REST, ${DECKS} decks one after the other; embedded service from the compiled JavaScript, default settings; RSS of the whole process (threads included)`);
console.log(`  RSS, MiB: ${readings.map((r) => `${r.decks}: ${r.mib.toFixed(0)}`).join('  ')}`);
if (after100) console.log(`  after 100 decks: ${after100.mib.toFixed(0)} MiB (goal ≤ ${GOAL_AFTER_100_MIB}) ${after100.mib <= GOAL_AFTER_100_MIB ? 'MET' : 'NOT MET'}`);
if (n >= 2) console.log(`  second half (${second[0]!.decks}–${second.at(-1)!.decks} decks): ${slope >= 0 ? '+' : ''}${slope.toFixed(1)} MiB per 100 decks, range ${Math.min(...second.map((r) => r.mib)).toFixed(0)}–${Math.max(...second.map((r) => r.mib)).toFixed(0)} MiB`);
