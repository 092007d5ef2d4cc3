/**
 * What the quality report costs (issue 23, item 6: ≤ 10 % of generation time on the
 * 100-slide bench deck). The reference deck of ./generate.bench.ts (`pp_test_slides.pptx`
 * slide 1 alternating with `SlideWithTables.pptx` slides 1 and 3, every text and cell
 * replaced) is built in one warm in-process loop, the two ways interleaved so load on the
 * machine hits both alike:
 *
 * - plain: `buildDeck` with the quality checks off (`quality: false`): generation alone;
 * - checked: `checkedBuild`, what the generation thread runs: the build with its per-slide
 *   accessibility and brand checks, then the package check of the written deck and the report.
 *
 * Reported: the medians of the warm half of the runs and the report cost as a ratio,
 * (checked − plain) / plain, with `report_ms` (the part after the build) beside it; and the
 * median of the rounds' own ratios (each round builds both ways back to back, so the pair
 * shares the machine's state of the moment: steadier on a busy machine). Then the
 * doctor's template quality section (`results.doctor.quality`) on the largest corpus
 * templates: its own time beside the whole doctor's.
 *
 * The loop runs in a child process with the young generation the service gives its CPU
 * threads, from the compiled JavaScript (`dist-bench/`, compiled here), as ./generate.bench.ts does.
 *
 *   npx tsx bench/quality.bench.ts          # BENCH_QUALITY_RUNS (default 80: the warm half past JIT warm-up) decks each way
 *   npx tsx bench/quality.bench.ts --profile  # the hook's share in a CPU profile of checked builds
 *
 * `--profile` is steadier on a loaded machine than the two ways timed apart: it builds the
 * reference deck with `checkedBuild` only, under V8's sampling profiler, and reports the
 * samples of the warm half inside the checks (the per-slide `slideQuality` and
 * `checkSlideText`, then `checkPackage` and `buildReport`) as a share of the rest, which is
 * generation (the checks' garbage collection is counted with generation).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { DeckSlideSpec } from '../core/src/generation/deck/build-deck.js';
import type { SlideData } from '../core/src/domain/content.js';
import { corpusPath, sharedDir } from '../test/helpers/corpus.js';
import { THREAD_YOUNG_GENERATION_MB } from '../core/src/threads/heap-limits.js';

const SLIDES = 100;
const RUNS = Number(process.env.BENCH_QUALITY_RUNS ?? 80);
/** Largest corpus templates whose doctor quality section is timed. */
const DOCTOR_TEMPLATES = Number(process.env.BENCH_QUALITY_DOCTOR_TEMPLATES ?? 3);
const TEXT = 'pp_test_slides.pptx';
const TABLES = 'SlideWithTables.pptx';

/** The reference deck's slides (the workload of ./generate.bench.ts). */
function specs(): DeckSlideSpec[] {
  const out: DeckSlideSpec[] = [];
  for (let i = 0; i < SLIDES; i++) {
    const title = `Slide ${i + 1}: quarterly results for region ${(i % 7) + 1}`;
    const text = i % 2 === 0;
    const tableSlide = i % 4 === 1 ? 1 : 3;
    const data: SlideData = text
      ? { title, content: [{ blocks: [{ type: 'text', text: { bullets: Array.from({ length: 5 }, (_, b) => `Point ${b + 1} of slide ${i + 1}: revenue, margin and pipeline`) } }] }] }
      : {
          title,
          content: [
            {
              blocks: [
                {
                  type: 'table',
                  table: { table: { rows: Array.from({ length: 4 }, (_, r) => ({ is_header: r === 0, cells: Array.from({ length: 4 }, (_, c) => ({ value: r === 0 ? `Col ${c + 1}` : `${i + 1}.${r}.${c}` })) })) } },
                },
              ],
            },
          ],
        };
    const part = text ? '/ppt/slides/slide1.xml' : `/ppt/slides/slide${tableSlide}.xml`;
    const tpl = text ? TEXT : TABLES;
    out.push({ template_id: tpl, template_slide_id: `${tpl}#${part}`, source: { kind: 'slide', part_name: part }, slide_data: data, options: { auto_paginate_tables: false } });
  }
  return out;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** The warm half of a run's times. */
function warm(xs: readonly number[]): number[] {
  return xs.slice(Math.floor(xs.length / 2));
}

async function child(): Promise<void> {
  const { buildDeck } = await import('../core/src/generation/deck/build-deck.js');
  const { checkedBuild } = await import('../core/src/quality/checked-build.js');
  const templates = new Map<string, Uint8Array>([TEXT, TABLES].map((f) => [f, readFileSync(corpusPath(`bench/${f}`))] as const));
  const slides = specs();
  // wall time, and CPU time of the process (steadier on a loaded machine; the build's
  // compression threads included alike on both ways)
  const plain: number[] = [];
  const checked: number[] = [];
  const slideChecks: number[] = [];
  const cpu = { plain: [] as number[], checked: [] as number[], slide: [] as number[] };
  const reportMs: number[] = [];
  let findings = 0;
  for (let i = 0; i < RUNS; i++) {
    // the order alternates so neither way always runs right after the other's garbage
    const order = i % 2 === 0 ? (['plain', 'checked', 'slide'] as const) : (['checked', 'slide', 'plain'] as const);
    for (const way of order) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const cpuMs = (): number => {
        const c = process.cpuUsage(c0);
        return (c.user + c.system) / 1000;
      };
      if (way === 'plain') {
        const r = await buildDeck({ slides, templates, quality: false });
        if (!r.bytes) throw new Error(JSON.stringify(r.errors));
        plain.push(performance.now() - t0);
        cpu.plain.push(cpuMs());
      } else if (way === 'slide') {
        // the build with its per-slide checks, without the package check and report
        await buildDeck({ slides, templates });
        slideChecks.push(performance.now() - t0);
        cpu.slide.push(cpuMs());
      } else {
        const r = await checkedBuild({ slides, templates });
        if (!r.ok || !r.report) throw new Error('checked build failed');
        checked.push(performance.now() - t0);
        cpu.checked.push(cpuMs());
        reportMs.push(r.report_ms);
        findings = r.report.findings.length;
      }
    }
  }
  process.stdout.write(`RESULT ${JSON.stringify({ plain, checked, slideChecks, cpu, reportMs, findings })}\n`);
}

async function doctorChild(): Promise<void> {
  const { OpcPackage } = await import('../core/src/ooxml/opc/package.js');
  const { PmlModel } = await import('../core/src/ooxml/pml/parts.js');
  const { checkAccessibility } = await import('../core/src/quality/accessibility.js');
  const { checkBrand } = await import('../core/src/quality/brand.js');
  const { analyzePresentation } = await import('../core/src/analysis/analyze.js');
  const { diagnose } = await import('../core/src/doctor/diagnose.js');
  const dir = join(sharedDir, 'corpus', 'templates');
  // the largest by slide count (the section reads every slide), found by opening each once
  const all = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.pptx'))) {
    const bytes = readFileSync(join(dir, f));
    try {
      const pkg = await OpcPackage.open(bytes);
      all.push({ f, bytes, slides: pkg.partsOfType('application/vnd.openxmlformats-officedocument.presentationml.slide+xml').length });
    } catch {
      /* a corpus file the engine refuses has no doctor section */
    }
  }
  all.sort((a, b) => b.slides - a.slides || b.bytes.length - a.bytes.length);
  const rows = [];
  for (const { f, bytes, slides } of all.slice(0, DOCTOR_TEMPLATES)) {
    const whole: number[] = [];
    const section: number[] = [];
    let findings = 0;
    for (let i = 0; i < 6; i++) {
      // what the analysis task runs: open, analyse, diagnose (the doctor's section included)
      const t0 = performance.now();
      const pkg = await OpcPackage.open(bytes);
      const results = analyzePresentation({ pkg, options: {}, idFor: (kind, part) => `${kind}:${part}` });
      const doctor = diagnose(results, pkg);
      whole.push(performance.now() - t0);
      findings = doctor.quality?.findings.length ?? 0;
      // the section alone, as diagnose runs it (doctor/diagnose.ts templateQuality): a reading
      // model of the package the analysis read (its XML parsed already), its slides checked
      const model = new PmlModel(pkg);
      const t1 = performance.now();
      const parts = model.slidesInOrder();
      checkAccessibility(parts);
      checkBrand(parts, undefined);
      section.push(performance.now() - t1);
    }
    rows.push({ f, size: bytes.length, slides, qualityMs: median(warm(section)), openMs: median(warm(whole)), findings });
  }
  process.stdout.write(`RESULT ${JSON.stringify(rows)}\n`);
}

/** The checks' entry points, as the profile names them. */
const CHECKS = ['slideQuality', 'checkSlideText', 'checkPackage', 'buildReport'] as const;

/** Checked builds only, under the profiler: reports when the warm half starts (µs, the profile's clock). */
async function profileChild(): Promise<void> {
  const { checkedBuild } = await import('../core/src/quality/checked-build.js');
  const templates = new Map<string, Uint8Array>([TEXT, TABLES].map((f) => [f, readFileSync(corpusPath(`bench/${f}`))] as const));
  const slides = specs();
  let warmFromUs = 0;
  for (let i = 0; i < RUNS; i++) {
    if (i === Math.floor(RUNS / 2)) warmFromUs = Number(process.hrtime.bigint() / 1000n);
    const r = await checkedBuild({ slides, templates });
    if (!r.ok || !r.report) throw new Error('checked build failed');
  }
  process.stdout.write(`RESULT ${JSON.stringify({ warmFromUs })}\n`);
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string }; children?: number[] }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Sampled time (ms) of the warm half inside each check, and all busy time. */
function checkShares(profile: CpuProfile, warmFromUs: number): { busy: number; checks: Record<string, number> } {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const n of profile.nodes) {
    name.set(n.id, n.callFrame.functionName);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const within = new Map<number, string | undefined>();
  const checkOf = (id: number): string | undefined => {
    if (within.has(id)) return within.get(id);
    let found: string | undefined;
    for (let x: number | undefined = id; x !== undefined && !found; x = parent.get(x)) if ((CHECKS as readonly string[]).includes(name.get(x)!)) found = name.get(x);
    within.set(id, found);
    return found;
  };
  const checks: Record<string, number> = Object.fromEntries(CHECKS.map((c) => [c, 0]));
  let busy = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const d = profile.timeDeltas[i] ?? 0;
    t += d;
    if (t < warmFromUs || name.get(id) === '(idle)') return;
    busy += d / 1000;
    const c = checkOf(id);
    if (c) checks[c]! += d / 1000;
  });
  return { busy, checks };
}

let compiledScript: string | undefined;

/**
 * This bench and the engine compiled to `dist-bench/` (once per run): the children run tsc's
 * output in plain node, as the service runs `dist/` — an on-the-fly TypeScript loader adds
 * work of its own (a naming call for every function it creates) that production never pays.
 */
function compiled(): string {
  if (!compiledScript) {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const r = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.bench.json')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tsc -p tsconfig.bench.json failed: ${r.stdout}${r.stderr}`);
    compiledScript = join(root, 'dist-bench', 'bench', 'quality.bench.js');
  }
  return compiledScript;
}

function spawnChild(mode: string, nodeArgs: string[] = []): unknown {
  const r = spawnSync(process.execPath, [`--max-semi-space-size=${THREAD_YOUNG_GENERATION_MB / 3}`, ...nodeArgs, compiled(), mode], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, SLIDEWRIGHT_SHARED_DIR: sharedDir },
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${mode} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(7));
}

const mode = process.argv[2];
if (mode === '--deck') await child();
else if (mode === '--doctor') await doctorChild();
else if (mode === '--profile-deck') await profileChild();
else if (mode === '--profile') {
  const dir = mkdtempSync(join(tmpdir(), 'quality-profile-'));
  try {
    const { warmFromUs } = spawnChild('--profile-deck', ['--cpu-prof', `--cpu-prof-dir=${dir}`]) as { warmFromUs: number };
    // the main thread's profile is the largest (compression threads write their own)
    const file = readdirSync(dir)
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    const { busy, checks } = checkShares(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, warmFromUs);
    const total = Object.values(checks).reduce((a, b) => a + b, 0);
    console.log(`quality checks in a CPU profile of ${RUNS} checked builds of the ${SLIDES}-slide reference deck (warm half, main thread):`);
    for (const c of CHECKS) console.log(`  ${c.padEnd(16)} ${checks[c]!.toFixed(0).padStart(6)} ms`);
    console.log(`  checks ${total.toFixed(0)} ms of ${busy.toFixed(0)} ms busy: ${((total / (busy - total)) * 100).toFixed(1)} % of generation (goal ≤ 10 %)`);
    console.log(`  load average during the run: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const r = spawnChild('--deck') as { plain: number[]; checked: number[]; slideChecks: number[]; cpu: { plain: number[]; checked: number[]; slide: number[] }; reportMs: number[]; findings: number };
  const m = (xs: number[]): number => median(warm(xs));
  const ms = (x: number): string => `${x.toFixed(1)} ms`;
  const pct = (x: number, base: number): string => `${x >= base ? '+' : ''}${(((x - base) / base) * 100).toFixed(1)} %`;
  console.log(`quality report cost: ${SLIDES}-slide reference deck, ${RUNS} decks each way interleaved in one warm loop (medians of the warm half), young generation of the service's threads`);
  console.log(`                                   wall          CPU`);
  console.log(`  generation alone (quality off):  ${ms(m(r.plain)).padEnd(12)}  ${ms(m(r.cpu.plain))}`);
  console.log(`  build with per-slide checks:     ${ms(m(r.slideChecks)).padEnd(12)}  ${ms(m(r.cpu.slide))}  (${pct(m(r.slideChecks), m(r.plain))} wall, ${pct(m(r.cpu.slide), m(r.cpu.plain))} CPU)`);
  console.log(`  checked build + report:          ${ms(m(r.checked)).padEnd(12)}  ${ms(m(r.cpu.checked))}  of which after the build (package check, report) ${ms(m(r.reportMs))} wall; ${r.findings} findings`);
  const costWall = (m(r.checked) - m(r.plain)) / m(r.plain);
  const costCpu = (m(r.cpu.checked) - m(r.cpu.plain)) / m(r.cpu.plain);
  const met = (x: number): string => (x <= 0.1 ? 'MET' : 'NOT MET');
  console.log(`  report cost: ${(costWall * 100).toFixed(1)} % of generation time by wall time, ${(costCpu * 100).toFixed(1)} % by CPU time (goal ≤ 10 %) ${met(costWall)} / ${met(costCpu)}`);
  // the same from each round's own pair (the two ways ran back to back, so a slow spell of
  // the machine hits both): the median of the warm rounds' ratios
  const paired = (checked: number[], plain: number[]): number => median(warm(checked.map((c, i) => (c - plain[i]!) / plain[i]!)));
  const pairedWall = paired(r.checked, r.plain);
  const pairedCpu = paired(r.cpu.checked, r.cpu.plain);
  console.log(`  per round (median of each round's checked ÷ plain): ${(pairedWall * 100).toFixed(1)} % wall, ${(pairedCpu * 100).toFixed(1)} % CPU ${met(pairedWall)} / ${met(pairedCpu)}`);
  console.log(`  load average during the run: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs`);
  const rows = spawnChild('--doctor') as Array<{ f: string; size: number; slides: number; qualityMs: number; openMs: number; findings: number }>;
  console.log(`doctor quality section (results.doctor.quality) on the ${rows.length} corpus templates with the most slides (medians of warm runs):`);
  for (const x of rows) {
    console.log(`  ${x.f.padEnd(44)} ${(x.size / 1024).toFixed(0).padStart(6)} KiB, ${x.slides} slides: quality section ${ms(x.qualityMs)} = ${((x.qualityMs / x.openMs) * 100).toFixed(0)} % of the analysis task (open, analyse, diagnose: ${ms(x.openMs)}); ${x.findings} findings`);
  }
}
