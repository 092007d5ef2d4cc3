/**
 * PDF export speed and size (issue 22): the 48-slide corpus template
 * poi-customgeo-48slides.pptx → one PDF of all its visible slides, Slidewright vs
 * LibreOffice (`soffice --headless --convert-to pdf`), side by side in one run.
 *
 * Slidewright is measured on the service's path: the worker-thread pool's export
 * (`CpuPool.pdf`, what an export job runs) with the service's two threads (which share the
 * pages out and join the parts), and with one thread for comparison; a new cache key each
 * run so the threads open and parse the package afresh; warm threads (one untimed export).
 * LibreOffice three ways: cold (`soffice --convert-to pdf` with a new user profile: what a
 * first conversion costs), warm profile (a new soffice process per file, the profile made
 * by one untimed conversion) and warm listener (one soffice kept running with
 * `--accept`; each `soffice --convert-to` hands the file to it and exits, so no start-up is
 * paid: the fastest LibreOffice can be driven from the command line). Each runs `RUNS`
 * times (default 5; cold 2) back to back; the best run counts. Wall and CPU time (this
 * process's threads; soffice's user + system, the listener's read from /proc) and the
 * PDF's size are printed, with the goals: ≥ 20× faster than each, no larger.
 *
 *   npx tsx bench/pdf.bench.ts [template.pptx]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
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

function libreoffice(src: string, work: string, profile: string, listener?: { cpuMs(): number }): Timing {
  const out = mkdtempSync(join(work, 'run-'));
  const times = join(out, 'time');
  const before = listener?.cpuMs() ?? 0;
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
  const clientMs = m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN;
  // an office process that restarted during the run loses its count: reported as unknown
  const served = listener ? listener.cpuMs() - before : 0;
  return { wallMs, cpuMs: served < 0 ? NaN : clientMs + served, bytes };
}

/** CPU time (user + system) a process has used, ms (Linux /proc; clock ticks of 10 ms); 0 once it is gone. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Starts a LibreOffice listener on `profile` (made beforehand: on a new profile soffice
 * restarts itself once). `cpuMs` sums the CPU time of the launcher's office process(es).
 */
async function startListener(profile: string, pipeName: string): Promise<{ cpuMs(): number; stop(): void }> {
  const child = spawn('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--invisible', '--norestore', `--accept=pipe,name=${pipeName};urp;`], { stdio: 'ignore' });
  const launcher = child.pid!;
  const offices = (): number[] => spawnSync('pgrep', ['-P', String(launcher)]).stdout.toString().trim().split('\n').filter(Boolean).map(Number);
  for (let i = 0; i < 600 && offices().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  if (offices().length === 0) {
    child.kill();
    throw new Error('the LibreOffice listener did not start');
  }
  return {
    cpuMs: () => offices().reduce((sum, pid) => sum + processCpuMs(pid), 0),
    stop: () => {
      for (const pid of offices()) {
        try {
          process.kill(pid);
        } catch {
          /* gone */
        }
      }
      child.kill();
    },
  };
}

const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

const bytes = readFileSync(file);
const pages = visibleSlideParts(await OpcPackage.open(bytes)).length;
console.log(`template ${basename(file)}: ${pages} visible slides → one PDF (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);

/** Worker threads of the service's pool (its default, `SLIDEWRIGHT_WORKER_THREADS`). */
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const pool = new CpuPool(THREADS);
const single = new CpuPool(1);
await throughPool(pool, bytes);
await throughPool(single, bytes);
await inProcess(bytes);
const ours: Timing[] = [];
const oneThread: Timing[] = [];
const local: Timing[] = [];
// alternated, so a change of load on the machine weighs on both alike
for (let i = 0; i < RUNS; i++) {
  ours.push(await throughPool(pool, bytes));
  oneThread.push(await throughPool(single, bytes));
}
for (let i = 0; i < RUNS; i++) local.push(await inProcess(bytes));
await pool.close();
await single.close();

const best = (xs: Timing[]): Timing => xs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
const row = (name: string, t: Timing): string => `${name.padEnd(40)} ${t.wallMs.toFixed(0).padStart(7)} ms wall ${t.cpuMs.toFixed(0).padStart(7)} ms cpu  ${(t.bytes / 1024).toFixed(0).padStart(6)} KiB`;
const o = best(ours);
console.log(row(`Slidewright, ${THREADS} worker threads (service)`, o));
console.log(row('Slidewright, one worker thread', best(oneThread)));
console.log(row('Slidewright, in process', best(local)));
if (!have('soffice')) {
  console.log('LibreOffice (soffice) not installed: no comparison');
} else {
  const work = mkdtempSync(join(tmpdir(), 'sw-bench-pdf-'));
  const cold: Timing[] = [];
  for (let i = 0; i < Math.min(2, RUNS); i++) cold.push(libreoffice(file, work, join(work, `cold-profile-${i}`)));
  const profile = join(work, 'profile');
  libreoffice(file, work, profile);
  const warm: Timing[] = [];
  for (let i = 0; i < RUNS; i++) warm.push(libreoffice(file, work, profile));
  const listenerProfile = join(work, 'listener-profile');
  libreoffice(file, work, listenerProfile); // makes the profile
  const listener = await startListener(listenerProfile, `swbenchpdf${process.pid}`);
  const served: Timing[] = [];
  try {
    libreoffice(file, work, listenerProfile, listener); // loads the import and export filters once
    for (let i = 0; i < RUNS; i++) served.push(libreoffice(file, work, listenerProfile, listener));
  } finally {
    listener.stop();
  }
  rmSync(work, { recursive: true, force: true });
  const sides: Array<[string, Timing[]]> = [
    ['LibreOffice cold (new profile)', cold],
    ['LibreOffice warm profile', warm],
    ['LibreOffice warm listener', served],
  ];
  for (const [name, runs] of sides) console.log(row(name, best(runs)));
  console.log(`per slide: Slidewright ${(o.wallMs / pages).toFixed(1)} ms wall; LibreOffice warm listener ${(best(served).wallMs / pages).toFixed(1)} ms wall`);
  for (const [name, runs] of sides) {
    const l = best(runs);
    const speedup = l.wallMs / o.wallMs;
    console.log(`speed-up vs ${name}: ${speedup.toFixed(1)}× wall, ${(l.cpuMs / o.cpuMs).toFixed(1)}× cpu (goal ≥ 20×: ${speedup >= 20 ? 'met' : 'NOT met'})`);
  }
  const l = best(served);
  console.log(`size: ${(o.bytes / 1024).toFixed(0)} KiB vs ${(l.bytes / 1024).toFixed(0)} KiB (goal ≤ LibreOffice's: ${o.bytes <= l.bytes ? 'met' : 'NOT met'})`);
  console.log(`all runs, wall ms: Slidewright ${ours.map((t) => t.wallMs.toFixed(0)).join(', ')}; ${sides.map(([n, r]) => `${n} ${r.map((t) => t.wallMs.toFixed(0)).join(', ')}`).join('; ')}`);
  console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores (figures under load are slower on both sides)`);
}
