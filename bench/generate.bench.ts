/**
 * Deck generation speed (issue 4, item 10): the reference workload of
 * `shared/corpus/bench/README.md` — a 100-slide deck alternating `pp_test_slides.pptx`
 * slide 1 (title + 5 bullets) with `SlideWithTables.pptx` slides 1 and 3 (title + a 4×4
 * table), every text and cell replaced — made by Slidewright's `buildDeck` and by
 * pptx-automizer (the same edits: title text, a bullet list into the content
 * placeholder, a 4×4 table into the slide's first table), side by side in one run; and
 * beside them the floor of merely loading the three files and writing one zip (jszip
 * load + DEFLATE write, no XML touched).
 *
 * Time: each side runs in its own child process (`--side`), pptx-automizer and the floor
 * `RUNS` times (default 20), Slidewright `SLIDEWRIGHT_RUNS` times (default 60: the JIT
 * keeps speeding it up for 20–30 decks, a long-lived service thread's steady state is
 * what users get, and its decks are short), the best time counting; beside it the median
 * of the second half of each side's runs (its warm runs). Memory: each side
 * again in a fresh process that generates the deck once, reporting its peak RSS (high-water
 * mark, `process.resourceUsage().maxRSS`) and how far that is above the RSS of the runtime
 * with the side's modules loaded, and only that side's (Node itself is ~40 MiB of either). Goals: Slidewright ≥
 * 20× faster than pptx-automizer with ≤ half its peak memory, and ≤ 3× the zip floor.
 *
 * Slidewright's processes get the young generation the service gives its CPU threads
 * (`SLIDEWRIGHT_THREAD_YOUNG_GENERATION_MB`, 12 MiB: `--max-semi-space-size=4`), where decks
 * are built; left to itself V8 grows it to 48 MiB, ~25 MiB of resident memory a deck build
 * does not need, paid for with ~4× as many scavenges (~8 % of a warm deck's time). Also
 * reported: Slidewright's warm time and one-deck memory with Node's default heap,
 * pptx-automizer's one-deck memory with the same flag, and the memory of a deck built in a
 * worker thread exactly as the service builds it (the thread's own isolate included).
 *
 * The children run compiled JavaScript in plain `node`, as production does (`npm start`
 * runs tsc's output): the bench compiles itself and the engine with `tsconfig.bench.json`
 * into `dist-bench/` first, so no side pays for an on-the-fly TypeScript loader.
 *
 * Slidewright runs twice: as a service thread does after its first deck from these
 * templates (opened templates kept between builds, by content hash), and cold (every run
 * opens the templates afresh, as pptx-automizer and the floor do). Both are reported; the
 * goals are checked on both.
 *
 * Then the service path (./service-path.ts): the same deck through the REST API of an
 * embedded service started afresh from the compiled JavaScript, `BENCH_SERVICE_STARTS`
 * times (default 3): the first deck after each start, the median of the warm runs (the
 * second half of `SLIDEWRIGHT_RUNS` decks on the last start), the POST's own latency and
 * the time to readiness, beside the in-process engine and pptx-automizer of the same run.
 * Goal: the first deck after a start within 2× of a warm one.
 *
 *   npx tsx bench/generate.bench.ts            # all three sides, figures printed
 *   npx tsx bench/generate.bench.ts --side slidewright|automizer|floor
 */
import { spawnSync } from 'node:child_process';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ISlide } from 'pptx-automizer';
import type { DeckSlideSpec } from '../core/src/generation/deck/build-deck.js';
import type { SlideData } from '../core/src/domain/content.js';
import { corpusPath, sharedDir } from '../test/helpers/corpus.js';
import { THREAD_OLD_GENERATION_MB, THREAD_YOUNG_GENERATION_MB } from '../core/src/threads/heap-limits.js';
import { SLIDES, TABLES, TEXT, workload } from './reference-deck.js';
import { BUSY_DECKS, measureServicePath, POLL_MS, type ServicePathResult } from './service-path.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** Runs of the Slidewright sides (the parent's setting; a child runs `BENCH_RUNS` times). */
const SLIDEWRIGHT_RUNS = Number(process.env.BENCH_SLIDEWRIGHT_RUNS ?? 60);
/** Fresh starts of the embedded service measured (each gives one "first deck after start"). */
const SERVICE_STARTS = Number(process.env.BENCH_SERVICE_STARTS ?? 3);
/**
 * Node flag giving a process the young generation the service's CPU threads are created
 * with (`resourceLimits.maxYoungGenerationSizeMb`, three semi-spaces): the engine is timed
 * and measured as the service runs it.
 */
const SERVICE_HEAP_FLAG = `--max-semi-space-size=${THREAD_YOUNG_GENERATION_MB / 3}`;
const ROOT = 'RootTemplate.pptx';

interface SideResult {
  side: string;
  bestMs: number;
  runsMs: number[];
  maxRssMiB: number;
  /** RSS once the side's modules are loaded, before any work (the runtime's own share), MiB. */
  baseRssMiB: number;
  bytes: number;
  slides: number;
}

async function runSlidewright(files: Map<string, Uint8Array>, reuseOpenedTemplates: boolean): Promise<{ bytes: number; slides: number }> {
  const specs: DeckSlideSpec[] = workload().map((w) => {
    const data: SlideData =
      w.kind === 'text'
        ? { title: w.title, content: [{ blocks: [{ type: 'text', text: { bullets: w.bullets } }] }] }
        : { title: w.title, content: [{ blocks: [{ type: 'table', table: { table: { rows: w.cells.map((r, ri) => ({ is_header: ri === 0, cells: r.map((value) => ({ value })) })) } } }] }] };
    const part = w.kind === 'text' ? '/ppt/slides/slide1.xml' : `/ppt/slides/slide${w.tableSlide}.xml`;
    const tpl = w.kind === 'text' ? TEXT : TABLES;
    return { template_id: tpl, template_slide_id: `${tpl}#${part}`, source: { kind: 'slide', part_name: part }, slide_data: data, options: { auto_paginate_tables: false } };
  });
  const { buildDeck } = await import('../core/src/generation/deck/build-deck.js');
  const r = await buildDeck({ slides: specs, templates: files, reuseOpenedTemplates });
  if (r.errors.length) throw new Error(JSON.stringify(r.errors));
  return { bytes: r.bytes!.length, slides: r.pages_generated };
}

async function runAutomizer(dir: string, out: string): Promise<{ bytes: number; slides: number }> {
  // a CommonJS package: the named export works the same under tsx's ESM interop
  const { Automizer, modify } = await import('pptx-automizer');
  const automizer = new Automizer({ templateDir: dir, outputDir: out, removeExistingSlides: true, autoImportSlideMasters: true, cleanup: false, compression: 6, verbosity: 0 });
  const pres = automizer.loadRoot(ROOT).load(TEXT, 'text').load(TABLES, 'tables');
  for (const w of workload()) {
    if (w.kind === 'text') {
      pres.addSlide('text', 1, (slide: ISlide) => {
        slide.modifyElement('Title 1', [modify.setText(w.title)]);
        slide.modifyElement('Content Placeholder 2', [modify.setBulletList(w.bullets)]);
      });
    } else {
      const table = w.tableSlide === 1 ? 'TableDefault' : 'TableWithEmptyCells';
      const title = w.tableSlide === 1 ? 'Titel 4' : 'Titel 2';
      pres.addSlide('tables', w.tableSlide, (slide: ISlide) => {
        slide.modifyElement(title, [modify.setText(w.title)]);
        slide.modifyElement(table, [modify.setTable({ body: w.cells.map((values) => ({ values })) })]);
      });
    }
  }
  const summary = await pres.write('automizer.pptx');
  const bytes = readFileSync(join(out, 'automizer.pptx')).length;
  return { bytes, slides: summary.slides };
}

/** The floor: load the three files with jszip and write one zip with every entry DEFLATEd. */
async function runFloor(files: Map<string, Uint8Array>): Promise<{ bytes: number; slides: number }> {
  const { default: JSZip } = await import('jszip');
  const out = new JSZip();
  for (const [name, bytes] of files) {
    const zip = await JSZip.loadAsync(bytes);
    for (const entry of Object.values(zip.files)) {
      if (entry.dir) continue;
      out.file(`${name}/${entry.name}`, await entry.async('uint8array'));
    }
  }
  const buf = await out.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 } });
  return { bytes: buf.length, slides: 0 };
}

async function child(side: string): Promise<void> {
  if (side === 'slidewright-thread') return childInThread(side);
  // each side's modules only (static imports would put every side's code in every process)
  if (side === 'automizer') await import('pptx-automizer');
  else if (side === 'floor') await import('jszip');
  else await import('../core/src/generation/deck/build-deck.js');
  const baseRssMiB = process.memoryUsage().rss / 1024 / 1024;
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-genbench-'));
  try {
    const files = new Map<string, Uint8Array>();
    for (const f of [TEXT, TABLES, ROOT]) {
      const b = readFileSync(corpusPath(`bench/${f}`));
      files.set(f, b);
      writeFileSync(join(dir, f), b);
    }
    const runsMs: number[] = [];
    let last = { bytes: 0, slides: 0 };
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      if (side === 'slidewright' || side === 'slidewright-cold') last = await runSlidewright(files, side === 'slidewright');
      else if (side === 'automizer') last = await runAutomizer(dir, dir);
      else last = await runFloor(files);
      runsMs.push(performance.now() - t0);
    }
    const res: SideResult = { side, bestMs: Math.min(...runsMs), runsMs, maxRssMiB: process.resourceUsage().maxRSS / 1024, baseRssMiB, bytes: last.bytes, slides: last.slides };
    if (isMainThread) process.stdout.write(`RESULT ${JSON.stringify(res)}\n`);
    else parentPort!.postMessage(res);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The service's own path: the deck built in a worker thread created with the resource
 * limits of `CpuPool`'s threads. The process's peak RSS then also holds the thread's own
 * isolate, which the service pays once per thread, not per deck.
 */
async function childInThread(side: string): Promise<void> {
  const baseRssMiB = process.memoryUsage().rss / 1024 / 1024;
  const worker = new Worker(new URL(import.meta.url), {
    argv: ['--side', 'slidewright-cold'],
    resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_GENERATION_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
  });
  const res = await new Promise<SideResult>((resolve, reject) => {
    worker.once('message', (m: SideResult) => resolve(m));
    worker.once('error', reject);
  });
  await worker.terminate();
  process.stdout.write(`RESULT ${JSON.stringify({ ...res, side, baseRssMiB, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
}

/** Compiles the bench and the engine to `dist-bench/` (plain JavaScript for the children). */
function compile(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.bench.json')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc -p tsconfig.bench.json failed: ${r.stdout}${r.stderr}`);
  return join(root, 'dist-bench', 'bench', 'generate.bench.js');
}

/** The compiled embedded-mode entry point (compiled by {@link compile} with the engine). */
function embeddedScript(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'dist-bench', 'main', 'embedded.js');
}

function spawnSide(script: string, side: string, runs = RUNS, nodeFlags: string[] = []): SideResult {
  const r = spawnSync(process.execPath, [...nodeFlags, script, '--side', side], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, SLIDEWRIGHT_SHARED_DIR: sharedDir, BENCH_RUNS: String(runs) } });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${side} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as SideResult;
}

const sideArg = process.argv.indexOf('--side');
if (sideArg >= 0) await child(process.argv[sideArg + 1]!);
else {
  const script = compile();
  const sides = ['slidewright', 'slidewright-cold', 'automizer', 'floor'];
  // Slidewright with the heap its service threads have; the others as they come
  const flagsOf = (side: string): string[] => (side.startsWith('slidewright') ? [SERVICE_HEAP_FLAG] : []);
  const runsOf = (side: string): number => (side.startsWith('slidewright') ? SLIDEWRIGHT_RUNS : RUNS);
  const timed = sides.map((side) => spawnSide(script, side, runsOf(side), flagsOf(side)));
  // memory of generating the deck once, in a fresh process per side
  const once = sides.map((side) => spawnSide(script, side, 1, flagsOf(side)));
  // the same, every side with Node's default heap, then pptx-automizer with Slidewright's
  const onceDefault = spawnSide(script, 'slidewright-cold', 1);
  const amServiceHeap = spawnSide(script, 'automizer', 1, [SERVICE_HEAP_FLAG]);
  const inThread = spawnSide(script, 'slidewright-thread', 1);
  // and its time with Node's default heap: the small young generation is paid for in scavenges
  const timedDefault = spawnSide(script, 'slidewright', SLIDEWRIGHT_RUNS);
  // the service path last, alone on the machine: the same deck through REST, fresh starts
  const service = await measureServicePath({
    embeddedScript: embeddedScript(),
    textTemplate: corpusPath(`bench/${TEXT}`),
    tablesTemplate: corpusPath(`bench/${TABLES}`),
    workload: workload(),
    starts: SERVICE_STARTS,
    runs: SLIDEWRIGHT_RUNS,
  });
  const [sw, cold, am, fl] = timed as [SideResult, SideResult, SideResult, SideResult];
  const amOnce = once[2]!;
  const row = (r: SideResult, m: SideResult): string =>
    `${r.side.padEnd(16)} best ${r.bestMs.toFixed(0).padStart(7)} ms  runs [${r.runsMs.map((x) => x.toFixed(0)).join(', ')}]  one deck: peak RSS ${m.maxRssMiB.toFixed(0).padStart(4)} MiB (${(m.maxRssMiB - m.baseRssMiB).toFixed(0)} MiB above the loaded runtime), after ${r.runsMs.length}: ${r.maxRssMiB.toFixed(0)} MiB  output ${(r.bytes / 1024).toFixed(0)} KiB${r.slides ? `, ${r.slides} slides` : ''}`;
  console.log(`generate: ${SLIDES}-slide reference deck (${TEXT} slide 1 + ${TABLES} slides 1/3), best of ${RUNS} (Slidewright: of ${SLIDEWRIGHT_RUNS}), each side in its own process (compiled JavaScript, plain node; Slidewright with ${SERVICE_HEAP_FLAG}, the young generation of its service threads)`);
  timed.forEach((r, i) => console.log(`  ${row(r, once[i]!)}`));
  const pct = (a: SideResult, b: SideResult): string => `${((a.maxRssMiB / b.maxRssMiB) * 100).toFixed(0)} %`;
  console.log(`  one deck, peak RSS with Node's default heap: Slidewright ${onceDefault.maxRssMiB.toFixed(0)} MiB (${pct(onceDefault, amOnce)} of pptx-automizer's); pptx-automizer with ${SERVICE_HEAP_FLAG}: ${amServiceHeap.maxRssMiB.toFixed(0)} MiB (Slidewright ${pct(once[1]!, amServiceHeap)} of it)`);
  console.log(`  one deck built in a worker thread as the service builds it (the thread's isolate included): peak RSS ${inThread.maxRssMiB.toFixed(0)} MiB, ${pct(inThread, amOnce)} of pptx-automizer's`);
  // the median of the runs after the first half (warm-up) as well: best-of rewards one lucky run
  const warmMedian = (r: SideResult): number => {
    const rest = r.runsMs.slice(Math.floor(r.runsMs.length / 2)).sort((a, b) => a - b);
    return rest[Math.floor(rest.length / 2)] ?? r.bestMs;
  };
  console.log(`  slidewright (templates kept) with Node's default heap: best ${timedDefault.bestMs.toFixed(0)} ms (${(am.bestMs / timedDefault.bestMs).toFixed(1)}× pptx-automizer; ${(warmMedian(am) / warmMedian(timedDefault)).toFixed(1)}× by the medians of warm runs), warm median ${warmMedian(timedDefault).toFixed(0)} ms vs ${warmMedian(sw).toFixed(0)} ms with ${SERVICE_HEAP_FLAG}`);
  printService(service, warmMedian(sw), warmMedian(am));
  [sw, cold].forEach((s, i) => {
    const m = once[i]!;
    const speedup = am.bestMs / s.bestMs;
    const mem = m.maxRssMiB / amOnce.maxRssMiB;
    const floor = s.bestMs / fl.bestMs;
    const memWork = (m.maxRssMiB - m.baseRssMiB) / Math.max(1, amOnce.maxRssMiB - amOnce.baseRssMiB);
    console.log(`  ${s.side}:`);
    console.log(`    speed: ${speedup.toFixed(1)}× faster than pptx-automizer (goal ≥ 20×) ${speedup >= 20 ? 'MET' : 'NOT MET'}; by the median of warm runs ${(warmMedian(am) / warmMedian(s)).toFixed(1)}×`);
    console.log(`    memory: peak RSS ${(mem * 100).toFixed(0)} % of pptx-automizer's (goal ≤ 50 %) ${mem <= 0.5 ? 'MET' : 'NOT MET'}; above the loaded runtime ${(memWork * 100).toFixed(0)} % of pptx-automizer's`);
    console.log(`    floor: ${floor.toFixed(2)}× the jszip load + DEFLATE write floor (goal ≤ 3×) ${floor <= 3 ? 'MET' : 'NOT MET'}; by the median of warm runs ${(warmMedian(s) / warmMedian(fl)).toFixed(2)}×`);
  });
}

/** The median of `xs` (the upper one of an even count). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/**
 * Prints the service path's figures beside the engine's.
 * @param engineWarmMs - the in-process engine's warm median (templates kept), ms
 * @param automizerWarmMs - pptx-automizer's warm median, ms
 */
function printService(r: ServicePathResult, engineWarmMs: number, automizerWarmMs: number): void {
  const last = r.starts[r.starts.length - 1]!;
  const firsts = r.starts.map((s) => s.decksMs[0]!);
  const firstPosts = r.starts.map((s) => s.postsMs[0]!);
  const half = Math.floor(last.decksMs.length / 2);
  const warm = median(last.decksMs.slice(half));
  const warmPost = median(last.postsMs.slice(half));
  const first = median(firsts);
  const ms = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`  service path: REST POST generate-deck → status completed (polled every ${POLL_MS} ms), embedded service from the compiled JavaScript, default settings, ${r.starts.length} fresh starts`);
  console.log(`    ready (spawn → /healthz 200): [${ms(r.starts.map((s) => s.readyMs))}] ms`);
  console.log(`    first deck after start: [${ms(firsts)}] ms, median ${first.toFixed(0)} ms; its POST [${ms(firstPosts)}] ms`);
  console.log(`    warm: median ${warm.toFixed(0)} ms (second half of ${last.decksMs.length} decks on the last start), POST median ${warmPost.toFixed(1)} ms  runs [${ms(last.decksMs)}]  output ${(r.bytes / 1024).toFixed(0)} KiB, ${r.slides} slides`);
  const ratio = first / warm;
  console.log(`    first deck after start: ${ratio.toFixed(2)}× the warm median (goal ≤ 2×) ${ratio <= 2 ? 'MET' : 'NOT MET'}; ${(first / engineWarmMs).toFixed(1)}× the in-process engine's warm median`);
  console.log(`    warm median: ${(warm / engineWarmMs).toFixed(2)}× the in-process engine's (${engineWarmMs.toFixed(0)} ms), ${(automizerWarmMs / warm).toFixed(1)}× faster than pptx-automizer's (${automizerWarmMs.toFixed(0)} ms)`);
  console.log(`    first deck after start: ${(automizerWarmMs / first).toFixed(1)}× faster than pptx-automizer's warm median (goal ≥ 30×) ${automizerWarmMs / first >= 30 ? 'MET' : 'NOT MET'}`);
  console.log(`    POST generate-deck (${SLIDES} slides): warm median ${warmPost.toFixed(1)} ms (goal ≤ 10 ms) ${warmPost <= 10 ? 'MET' : 'NOT MET'}`);
  for (const [label, s, goalP99] of [['idle', r.statusIdle, 20], [`while ${BUSY_DECKS} decks build (${r.statusBusy.decks} built)`, r.statusBusy, 50]] as const) {
    const met = s.rps >= 5000 && s.p99Ms <= goalP99;
    console.log(
      `    status GET, ${s.connections} connections, ${(s.durationMs / 1000).toFixed(1)} s, ${label}: ${s.rps.toFixed(0)} req/s, p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms${s.errors ? `, ${s.errors} errors` : ''} (goal ≥ 5000 req/s, p99 ≤ ${goalP99} ms) ${met ? 'MET' : 'NOT MET'}`,
    );
  }
}
