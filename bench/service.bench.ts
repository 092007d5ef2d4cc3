/**
 * The service path alone (issue "The service path as fast as the engine"), beside its
 * anchors, in one run:
 *
 * - the 100-slide reference deck through REST (bench/service-path.ts): ready time, first
 *   deck after a start, warm decks, the POST's own latency, status GETs at 50 connections
 *   idle and while 4 decks build; anchor: pptx-automizer making the same deck in a process
 *   of its own (generate.bench.ts's `automizer` side, warm median);
 * - a template → every slide preview through REST (upload, analysis, each PNG fetched) on
 *   the 48-slide corpus template; anchor: LibreOffice (pptx → PDF → pdftoppm at the same size).
 *
 * The service runs from the compiled JavaScript (`dist-bench/`, compiled here). With
 * `BENCH_SERVICE_BEFORE=<path of another build's dist-bench/main/embedded.js>` that build is
 * measured too, the two taking turns, so a change is judged before/after in one run on the
 * same machine load.
 *
 *   npm run bench -- service
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath, sharedDir } from '../test/helpers/corpus.js';
import { libreOfficePngs, type PngTiming } from './libreoffice.js';
import { SLIDES, TABLES, TEXT, workload } from './reference-deck.js';
import { BUSY_DECKS, measurePreviewsPath, measureServicePath, POLL_MS, startService, stopService, type PreviewsPathRun, type ServicePathResult } from './service-path.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Fresh starts measured per build. */
const STARTS = Number(process.env.BENCH_SERVICE_STARTS ?? 3);
/** Decks on the last start. */
const RUNS = Number(process.env.BENCH_SERVICE_RUNS ?? 30);
/** Runs of pptx-automizer (one process). */
const AUTOMIZER_RUNS = Number(process.env.BENCH_AUTOMIZER_RUNS ?? 8);
/** Template → previews runs per build (each a new template on a fresh service), and LibreOffice runs. */
const PREVIEW_RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 3);
const PREVIEW_TEMPLATE = corpusPath('templates/poi-customgeo-48slides.pptx');
const PREVIEW_SLIDES = 48;
const PREVIEW_WIDTH = 1280;

function compile(): void {
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.bench.json')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc -p tsconfig.bench.json failed: ${r.stdout}${r.stderr}`);
}

/** pptx-automizer's runs of the reference deck in a process of its own, ms. */
function automizerRuns(): number[] {
  const r = spawnSync(process.execPath, [join(root, 'dist-bench', 'bench', 'generate.bench.js'), '--side', 'automizer'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, SLIDEWRIGHT_SHARED_DIR: sharedDir, BENCH_RUNS: String(AUTOMIZER_RUNS) } });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`pptx-automizer failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return (JSON.parse(line.slice(7)) as { runsMs: number[] }).runsMs;
}

/** Template → every preview on a fresh service of `script` (its own data directory), `PREVIEW_RUNS` times. */
async function previewsPath(script: string): Promise<PreviewsPathRun[]> {
  const out: PreviewsPathRun[] = [];
  for (let i = 0; i < PREVIEW_RUNS; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'slidewright-previewbench-'));
    const svc = await startService(script, dataDir, {});
    try {
      out.push(await measurePreviewsPath(svc.url, PREVIEW_TEMPLATE, PREVIEW_SLIDES));
    } finally {
      await stopService(svc);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return out;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const warmMedian = (xs: number[]): number => median(xs.slice(Math.floor(xs.length / 2)));

interface BuildResult {
  label: string;
  deck: ServicePathResult;
  previews: PreviewsPathRun[];
}

compile();
const builds: Array<{ label: string; script: string }> = [{ label: 'this build', script: join(root, 'dist-bench', 'main', 'embedded.js') }];
if (process.env.BENCH_SERVICE_BEFORE) builds.unshift({ label: 'before', script: process.env.BENCH_SERVICE_BEFORE });

const automizer = automizerRuns();
const results = new Map<string, BuildResult>(builds.map((b) => [b.label, { label: b.label, deck: undefined as unknown as ServicePathResult, previews: [] }]));
// the builds take turns: decks of each, then previews of each
for (const b of builds) {
  results.get(b.label)!.deck = await measureServicePath({ embeddedScript: b.script, textTemplate: corpusPath(`bench/${TEXT}`), tablesTemplate: corpusPath(`bench/${TABLES}`), workload: workload(), starts: STARTS, runs: RUNS });
}
for (const b of [...builds].reverse()) results.get(b.label)!.previews = await previewsPath(b.script);

// LibreOffice: a warm profile (one untimed conversion), then the timed runs
const work = mkdtempSync(join(tmpdir(), 'slidewright-lo-'));
const profile = join(work, 'profile');
// -1: pdftoppm keeps the page's aspect ratio
const heightPx = -1;
let lo: PngTiming[] = [];
try {
  libreOfficePngs(PREVIEW_TEMPLATE, work, profile, PREVIEW_WIDTH, heightPx);
  lo = Array.from({ length: PREVIEW_RUNS }, () => libreOfficePngs(PREVIEW_TEMPLATE, work, profile, PREVIEW_WIDTH, heightPx));
} finally {
  rmSync(work, { recursive: true, force: true });
}

const am = warmMedian(automizer);
const loMs = median(lo.map((l) => l.wallMs));
const ms = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
console.log(`service path: ${SLIDES}-slide reference deck (${TEXT} slide 1 + ${TABLES} slides 1/3) through REST, polled every ${POLL_MS} ms; embedded service from the compiled JavaScript, default settings, ${STARTS} fresh starts, ${RUNS} decks on the last`);
console.log(`  anchor pptx-automizer: warm median ${am.toFixed(0)} ms  runs [${ms(automizer)}]`);
console.log(`  anchor LibreOffice, ${PREVIEW_TEMPLATE.split('/').pop()} → ${lo[0]?.pngs ?? 0} PNGs: median ${loMs.toFixed(0)} ms wall  runs [${ms(lo.map((l) => l.wallMs))}]`);
const rows: Array<[string, (r: BuildResult) => string]> = [
  ['ready (spawn → /healthz 200), ms', (r) => `[${ms(r.deck.starts.map((s) => s.readyMs))}]`],
  ['first deck after a start, ms (median)', (r) => `${median(r.deck.starts.map((s) => s.decksMs[0]!)).toFixed(0)} [${ms(r.deck.starts.map((s) => s.decksMs[0]!))}]`],
  ['first POST, ms', (r) => `[${ms(r.deck.starts.map((s) => s.postsMs[0]!))}]`],
  ['warm deck median, ms', (r) => warmMedian(r.deck.starts.at(-1)!.decksMs).toFixed(0)],
  ['warm POST median, ms (goal ≤ 10)', (r) => warmMedian(r.deck.starts.at(-1)!.postsMs).toFixed(1)],
  ['first deck ÷ warm median (goal ≤ 2)', (r) => (median(r.deck.starts.map((s) => s.decksMs[0]!)) / warmMedian(r.deck.starts.at(-1)!.decksMs)).toFixed(2)],
  ['× pptx-automizer, first / warm deck (goal ≥ 30)', (r) => `${(am / median(r.deck.starts.map((s) => s.decksMs[0]!))).toFixed(1)} / ${(am / warmMedian(r.deck.starts.at(-1)!.decksMs)).toFixed(1)}`],
  ['status GET idle: req/s, p50, p99 ms (goal ≥ 5000, p99 ≤ 20)', (r) => `${r.deck.statusIdle.rps.toFixed(0)}, ${r.deck.statusIdle.p50Ms.toFixed(1)}, ${r.deck.statusIdle.p99Ms.toFixed(1)}${r.deck.statusIdle.errors ? ` (${r.deck.statusIdle.errors} errors)` : ''}`],
  ['status GET idle: CPU per request, µs: service process (all threads) / load generator', (r) => `${r.deck.statusIdle.serviceCpuUs.toFixed(0)} / ${r.deck.statusIdle.clientCpuUs.toFixed(0)}`],
  [`status GET while ${BUSY_DECKS} decks build: req/s, p50, p99 ms, decks (goal ≥ 5000, p99 ≤ 50)`, (r) => `${r.deck.statusBusy.rps.toFixed(0)}, ${r.deck.statusBusy.p50Ms.toFixed(1)}, ${r.deck.statusBusy.p99Ms.toFixed(1)}, ${r.deck.statusBusy.decks}${r.deck.statusBusy.errors ? ` (${r.deck.statusBusy.errors} errors)` : ''}`],
  ['template → every preview, ms (median; analysis done at)', (r) => `${median(r.previews.map((p) => p.totalMs)).toFixed(0)} [${ms(r.previews.map((p) => p.totalMs))}] (${median(r.previews.map((p) => p.analysisMs)).toFixed(0)})`],
  ['× LibreOffice, template → every preview (goal ≥ 20)', (r) => (loMs / median(r.previews.map((p) => p.totalMs))).toFixed(1)],
  ['last deck: KiB, slides; PNGs', (r) => `${(r.deck.bytes / 1024).toFixed(0)}, ${r.deck.slides}; ${r.previews[0]?.pngs ?? 0}`],
];
const cols = [...results.values()];
console.log(`  ${'figure'.padEnd(88)} ${cols.map((c) => c.label.padEnd(28)).join(' ')}`);
for (const [label, f] of rows) console.log(`  ${label.padEnd(88)} ${cols.map((c) => f(c).padEnd(28)).join(' ')}`);

