/**
 * PDF export speed and size (issue 22): the 48-slide corpus template
 * poi-customgeo-48slides.pptx → one PDF of all its visible slides, Slidewright vs
 * LibreOffice (`soffice --headless --convert-to pdf`), side by side in one run.
 *
 * Slidewright is measured on the service's path: a task on the worker-thread pool
 * (`CpuPool.pdf`, what a PDF download runs the first time), a new cache key each run so the
 * thread opens and parses the package afresh. LibreOffice gets a warm user profile (one
 * untimed conversion first); Slidewright warm threads (one untimed export). Each side runs
 * `RUNS` times (default 5) back to back; the best run counts. Wall and CPU time (the
 * process's threads; soffice's user + system) and the PDF's size are printed, with the
 * goals: ≥ 20× faster, no larger than LibreOffice's PDF.
 *
 *   npx tsx bench/pdf.bench.ts [template.pptx]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { OpcPackage } from '../core/src/ooxml/opc/package.js';
import { renderPdf, visibleSlideParts } from '../core/src/render/pdf.js';
import { CpuPool } from '../core/src/threads/cpu-pool.js';
import { corpusPath } from '../test/helpers/corpus.js';

const file = process.argv[2] ?? corpusPath('templates/poi-customgeo-48slides.pptx');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Timing {
  wallMs: number;
  cpuMs: number;
  bytes: number;
}

let runNo = 0;
/** Bytes → PDF on the worker-thread pool, as the PDF service renders a download. */
async function throughPool(pool: CpuPool, bytes: Uint8Array): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await pool.pdf(bytes, `bench-pdf-${runNo++}`, false);
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(cpu0);
  if (!r.ok) throw new Error(`PDF export failed: ${r.error.message}`);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, bytes: r.pdf.length };
}

/** Bytes → PDF in this thread (the renderer alone). */
async function inProcess(bytes: Uint8Array): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await renderPdf(await OpcPackage.open(bytes));
  const c = process.cpuUsage(cpu0);
  return { wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, bytes: r.pdf.length };
}

function libreoffice(src: string, work: string, profile: string): Timing {
  const out = mkdtempSync(join(work, 'run-'));
  const times = join(out, 'time');
  const t0 = performance.now();
  spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', times, 'timeout', '300', 'soffice', `-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', out, src], { stdio: 'ignore' });
  const wallMs = performance.now() - t0;
  const m = /([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(times, 'utf8').trim());
  let bytes = 0;
  try {
    bytes = readFileSync(join(out, basename(src).replace(/\.\w+$/, '.pdf'))).length;
  } catch {
    // no PDF: reported as 0 bytes
  }
  rmSync(out, { recursive: true, force: true });
  return { wallMs, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN, bytes };
}

const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

const bytes = readFileSync(file);
const pages = visibleSlideParts(await OpcPackage.open(bytes)).length;
console.log(`template ${basename(file)}: ${pages} visible slides → one PDF`);

const pool = new CpuPool(1);
await throughPool(pool, bytes);
await inProcess(bytes);
const ours: Timing[] = [];
const local: Timing[] = [];
for (let i = 0; i < RUNS; i++) ours.push(await throughPool(pool, bytes));
for (let i = 0; i < RUNS; i++) local.push(await inProcess(bytes));
await pool.close();

const best = (xs: Timing[]): Timing => xs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
const row = (name: string, t: Timing): string => `${name.padEnd(36)} ${t.wallMs.toFixed(0).padStart(7)} ms wall ${t.cpuMs.toFixed(0).padStart(7)} ms cpu  ${(t.bytes / 1024).toFixed(0).padStart(6)} KiB`;
const o = best(ours);
console.log(row('Slidewright, worker thread (service)', o));
console.log(row('Slidewright, in process', best(local)));
if (!have('soffice')) {
  console.log('LibreOffice (soffice) not installed: no comparison');
} else {
  const work = mkdtempSync(join(tmpdir(), 'sw-bench-pdf-'));
  const profile = join(work, 'profile');
  libreoffice(file, work, profile);
  const theirs: Timing[] = [];
  for (let i = 0; i < RUNS; i++) theirs.push(libreoffice(file, work, profile));
  rmSync(work, { recursive: true, force: true });
  const l = best(theirs);
  console.log(row('LibreOffice (soffice --convert-to pdf)', l));
  console.log(`per slide: Slidewright ${(o.wallMs / pages).toFixed(1)} ms wall; LibreOffice ${(l.wallMs / pages).toFixed(1)} ms wall`);
  const speedup = l.wallMs / o.wallMs;
  console.log(`speed-up: ${speedup.toFixed(1)}× wall, ${(l.cpuMs / o.cpuMs).toFixed(1)}× cpu (goal ≥ 20×: ${speedup >= 20 ? 'met' : 'NOT met'})`);
  console.log(`size: ${(o.bytes / 1024).toFixed(0)} KiB vs ${(l.bytes / 1024).toFixed(0)} KiB (goal ≤ LibreOffice's: ${o.bytes <= l.bytes ? 'met' : 'NOT met'})`);
  console.log(`all runs, wall ms: Slidewright ${ours.map((t) => t.wallMs.toFixed(0)).join(', ')}; LibreOffice ${theirs.map((t) => t.wallMs.toFixed(0)).join(', ')}`);
}
