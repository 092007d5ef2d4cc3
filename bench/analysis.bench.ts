/**
 * Analysis speed beside its floor (`npm run bench`, or `npx tsx bench/analysis.bench.ts`).
 *
 * For each template: the floor is merely unzipping the package and parsing every XML part
 * (`OpcPackage.open` + `getXml` on each part whose content type is XML); analysis is
 * `OpcPackage.open` + `analyzePresentation` (default options), and the same plus the
 * template doctor's `diagnose`. Each figure is the median of RUNS timed runs (interleaved) after
 * WARMUP untimed ones; the ratio to the floor is printed (goal ≤ 3×).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyzePresentation } from '../core/src/analysis/analyze.js';
import { diagnose } from '../core/src/doctor/index.js';
import { OpcPackage } from '../core/src/ooxml/opc/package.js';
import { corpusPath } from '../test/helpers/corpus.js';

const FILES = ['unstructured-science-exploration.pptx', 'poi-customgeo-48slides.pptx'];
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const GOAL = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median wall and CPU ms of one function over the timed runs. */
interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Medians of interleaved timed runs of each function (interleaving spreads machine noise
 * and GC evenly). CPU time (user + system of this process) is reported beside wall time:
 * on a loaded machine it is the steadier figure.
 */
async function timeAll(fns: Array<() => Promise<unknown>>): Promise<Timing[]> {
  for (let i = 0; i < WARMUP; i++) for (const fn of fns) await fn();
  const wall: number[][] = fns.map(() => []);
  const cpu: number[][] = fns.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (let j = 0; j < fns.length; j++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await fns[j]!();
      const dt = performance.now() - t0;
      const dc = process.cpuUsage(c0);
      wall[j]!.push(dt);
      cpu[j]!.push((dc.user + dc.system) / 1000);
    }
  }
  return fns.map((_, j) => ({ wall: median(wall[j]!), cpu: median(cpu[j]!) }));
}

function isXml(pkg: OpcPackage, part: string): boolean {
  const ct = pkg.contentType(part) ?? '';
  return ct.endsWith('+xml') || ct.endsWith('/xml');
}

async function floor(bytes: Uint8Array): Promise<number> {
  const pkg = await OpcPackage.open(bytes);
  let n = 0;
  for (const p of pkg.partNames()) {
    if (!isXml(pkg, p)) continue;
    pkg.getXml(p);
    n++;
  }
  return n;
}

async function analysis(bytes: Uint8Array, withDoctor: boolean): Promise<void> {
  const pkg = await OpcPackage.open(bytes);
  const r = analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
  if (withDoctor) diagnose(r);
}

const rows: string[][] = [['template', 'xml parts', 'floor ms', 'analysis ms', '×floor', '+doctor ms', '×floor', 'doctor alone ms']];
let over = false;
for (const file of FILES) {
  const bytes = new Uint8Array(readFileSync(corpusPath(`templates/${file}`)));
  const parts = await floor(bytes);
  const pkg = await OpcPackage.open(bytes);
  const results = analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
  const [f, a, ad, d] = (await timeAll([() => floor(bytes), () => analysis(bytes, false), () => analysis(bytes, true), async () => diagnose(results)])) as [Timing, Timing, Timing, Timing];
  if (ad.cpu / f.cpu > GOAL) over = true;
  const cell = (x: Timing): string => `${x.wall.toFixed(1)} (cpu ${x.cpu.toFixed(1)})`;
  const ratio = (x: Timing): string => `${(x.wall / f.wall).toFixed(2)} (cpu ${(x.cpu / f.cpu).toFixed(2)})`;
  rows.push([file, String(parts), cell(f), cell(a), ratio(a), cell(ad), ratio(ad), cell(d)]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
console.log(`wall ms (cpu ms): median of ${RUNS} interleaved runs after ${WARMUP} warm-up runs; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
console.log(`goal: analysis + doctor within ${GOAL}× the floor (cpu)${over ? ' — NOT MET' : ' — met'}`);
