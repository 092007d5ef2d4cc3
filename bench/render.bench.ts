/**
 * Preview rendering speed (issue 5 item 5): the 48-slide corpus template
 * poi-customgeo-48slides.pptx → PNGs of all its slides at the API's default width
 * (1280 px), Slidewright vs LibreOffice (pptx → PDF with soffice, then pdftoppm at the same
 * pixel size), side by side in one run.
 *
 * Slidewright is measured on the service's own path: the worker-thread pool
 * (`SLIDEWRIGHT_WORKER_THREADS`, 2 by default) and `renderAcrossPool` with the preview
 * service's slides per task, the call it makes to pre-render a template beside its analysis. Every run uses a new cache key,
 * so the threads open and parse the package afresh, as on a template's first pre-render.
 * For reference, one thread rendering the slides one after another in this process is
 * measured too.
 *
 * Both sides start from the file's bytes and end with PNG bytes for every slide. LibreOffice
 * gets a warm user profile (one untimed conversion first) so its first-start cost is not
 * counted against it; Slidewright gets warm threads (one untimed render). Each side runs
 * `RUNS` times (default 5) back to back; the best run counts (least disturbed by other load). Wall time and CPU time
 * (all threads of the process; for LibreOffice soffice's and pdftoppm's user + system) are
 * both printed, with both ratios.
 *
 *   npx tsx bench/render.bench.ts [template.pptx] [widthPx]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { OpcPackage } from '../core/src/ooxml/opc/package.js';
import { PmlModel } from '../core/src/ooxml/pml/parts.js';
import { renderSlide } from '../core/src/render/render-slide.js';
import { CpuPool } from '../core/src/threads/cpu-pool.js';
import { renderAcrossPool } from '../core/src/threads/render-split.js';
import { PRERENDER_SLIDES_PER_TASK } from '../core/src/services/preview-service.js';
import { corpusPath } from '../test/helpers/corpus.js';
import { libreOfficePngs } from './libreoffice.js';

const file = process.argv[2] ?? corpusPath('templates/poi-customgeo-48slides.pptx');
const widthPx = Number(process.argv[3] ?? 1280);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const THREADS = Number(process.env.SLIDEWRIGHT_WORKER_THREADS ?? 2);

interface Timing { wallMs: number; cpuMs: number; pngs: number; bytes: number }

/** Bytes → PNGs on one thread of this process, slide after slide. */
async function oneThread(bytes: Uint8Array): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const pkg = await OpcPackage.open(bytes);
  const model = new PmlModel(pkg);
  let pngs = 0;
  let total = 0;
  for (const s of model.presentation.slides) {
    const r = await renderSlide(pkg, s.partName, { widthPx });
    pngs++;
    total += r.png.length;
  }
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, pngs, bytes: total };
}

let runNo = 0;
/** Bytes → PNGs through the worker-thread pool, as the preview service pre-renders (a new cache key each run). */
async function throughPool(pool: CpuPool, bytes: Uint8Array, slideCount: number): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const targets = Array.from({ length: slideCount }, (_, i) => ({ slide_number: i + 1 }));
  const r = await renderAcrossPool(pool, bytes, `bench-${runNo++}`, targets, widthPx, { threads: THREADS, slidesPerTask: PRERENDER_SLIDES_PER_TASK });
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(cpu0);
  if (!r.ok) throw new Error(`rendering failed: ${r.error.message}`);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, pngs: r.images.length, bytes: r.images.reduce((s, i) => s + i.png.length, 0) };
}

function libreoffice(src: string, work: string, profile: string, heightPx: number): Timing {
  return libreOfficePngs(src, work, profile, widthPx, heightPx);
}

const bytes = readFileSync(file);
const probe = new PmlModel(await OpcPackage.open(bytes));
const heightPx = Math.round((widthPx * probe.presentation.slideHeightEmu) / probe.presentation.slideWidthEmu);
const slides = probe.presentation.slides.length;
console.log(`template ${basename(file)}: ${slides} slides → PNG ${widthPx}×${heightPx}; ${THREADS} worker threads`);

// Warm-up both sides (module loading, font registration, threads started, LibreOffice profile creation).
const pool = new CpuPool(THREADS);
await throughPool(pool, bytes, slides);
await oneThread(bytes);
const work = mkdtempSync(join(tmpdir(), 'sw-bench-'));
const profile = join(work, 'profile');
libreoffice(file, work, profile, heightPx);

const pooled: Timing[] = [];
const single: Timing[] = [];
const theirs: Timing[] = [];
// Each side's runs back to back (its steady state), then the next side.
for (let i = 0; i < RUNS; i++) pooled.push(await throughPool(pool, bytes, slides));
for (let i = 0; i < RUNS; i++) single.push(await oneThread(bytes));
for (let i = 0; i < RUNS; i++) theirs.push(libreoffice(file, work, profile, heightPx));
await pool.close();
rmSync(work, { recursive: true, force: true });
const best = (xs: Timing[]): Timing => xs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
const o = best(pooled);
const s1 = best(single);
const l = best(theirs);
const row = (name: string, t: Timing): string => `${name.padEnd(40)} ${t.wallMs.toFixed(0).padStart(8)} ms wall ${t.cpuMs.toFixed(0).padStart(8)} ms cpu  ${String(t.pngs).padStart(3)} PNGs ${(t.bytes / 1e6).toFixed(1)} MB`;
console.log(row(`Slidewright, pool of ${THREADS} (service path)`, o));
console.log(row('Slidewright, one thread in process', s1));
console.log(row('LibreOffice (soffice + pdftoppm)', l));
console.log(`per slide: Slidewright ${(o.wallMs / slides).toFixed(1)} ms wall, ${(o.cpuMs / slides).toFixed(1)} ms cpu; LibreOffice ${(l.wallMs / slides).toFixed(1)} ms wall, ${(l.cpuMs / slides).toFixed(1)} ms cpu`);
console.log(`speed-up (service path): ${(l.wallMs / o.wallMs).toFixed(1)}× wall, ${(l.cpuMs / o.cpuMs).toFixed(1)}× cpu (goal ≥ 10×, aim 20×)`);
console.log(`speed-up (one thread): ${(l.wallMs / s1.wallMs).toFixed(1)}× wall, ${(l.cpuMs / s1.cpuMs).toFixed(1)}× cpu`);
console.log(`all runs, wall ms: pool ${pooled.map((t) => t.wallMs.toFixed(0)).join(', ')}; one thread ${single.map((t) => t.wallMs.toFixed(0)).join(', ')}; LibreOffice ${theirs.map((t) => t.wallMs.toFixed(0)).join(', ')}`);
