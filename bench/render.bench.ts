/**
 * Preview rendering speed (issue 5 item 5): the 48-slide corpus template
 * poi-customgeo-48slides.pptx → PNGs of all its slides at the API's default width
 * (1280 px), Slidewright's in-process renderer vs LibreOffice (pptx → PDF with soffice,
 * then pdftoppm at the same pixel size), side by side in one run.
 *
 * Both sides start from the file's bytes and end with PNG bytes for every slide. LibreOffice
 * gets a warm user profile (one untimed conversion first) so its first-start cost is not
 * counted against it. Each side runs `RUNS` times; the best run counts (least disturbed by
 * other load). Wall and CPU time are both printed.
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
import { corpusPath } from '../test/helpers/corpus.js';

const file = process.argv[2] ?? corpusPath('templates/poi-customgeo-48slides.pptx');
const widthPx = Number(process.argv[3] ?? 1280);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Timing { wallMs: number; cpuMs: number; pngs: number; bytes: number }

/**
 * Bytes → PNGs with Slidewright. `inFlight` slides render at once on this one thread:
 * while one slide's PNG is compressed on the libuv pool, the next is drawn.
 */
async function slidewright(bytes: Uint8Array, inFlight = 1): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const pkg = await OpcPackage.open(bytes);
  const model = new PmlModel(pkg);
  let pngs = 0;
  let total = 0;
  const queue = model.presentation.slides.map((s) => s.partName);
  const worker = async (): Promise<void> => {
    for (let part = queue.shift(); part; part = queue.shift()) {
      const r = await renderSlide(pkg, part, { widthPx });
      pngs++;
      total += r.png.length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, () => worker()));
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, pngs, bytes: total };
}

function libreoffice(src: string, work: string, profile: string, heightPx: number): Timing {
  const out = mkdtempSync(join(work, 'run-'));
  const t0 = performance.now();
  const t1 = join(out, 'time1');
  const t2 = join(out, 'time2');
  spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', t1, 'timeout', '300', 'soffice', `-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', out, src], { stdio: 'ignore' });
  const pdf = join(out, basename(src).replace(/\.\w+$/, '.pdf'));
  spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', t2, 'pdftoppm', '-png', '-scale-to-x', String(widthPx), '-scale-to-y', String(heightPx), pdf, join(out, 'p')], { stdio: 'ignore' });
  const wallMs = performance.now() - t0;
  const cpu = (f: string): number => {
    const m = /([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(f, 'utf8').trim());
    return m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN;
  };
  const pngs = readdirSync(out).filter((f) => f.endsWith('.png'));
  let bytes = 0;
  for (const f of pngs) bytes += readFileSync(join(out, f)).length;
  const cpuMs = cpu(t1) + cpu(t2);
  rmSync(out, { recursive: true, force: true });
  return { wallMs, cpuMs, pngs: pngs.length, bytes };
}

const bytes = readFileSync(file);
const probe = new PmlModel(await OpcPackage.open(bytes));
const heightPx = Math.round((widthPx * probe.presentation.slideHeightEmu) / probe.presentation.slideWidthEmu);
const slides = probe.presentation.slides.length;
console.log(`template ${basename(file)}: ${slides} slides → PNG ${widthPx}×${heightPx}`);

// Warm-up both sides (module loading, font registration, LibreOffice profile creation).
await slidewright(bytes);
const work = mkdtempSync(join(tmpdir(), 'sw-bench-'));
const profile = join(work, 'profile');
libreoffice(file, work, profile, heightPx);

const ours: Timing[] = [];
const pipelined: Timing[] = [];
const theirs: Timing[] = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(await slidewright(bytes));
  pipelined.push(await slidewright(bytes, 2));
  theirs.push(libreoffice(file, work, profile, heightPx));
}
rmSync(work, { recursive: true, force: true });
const best = (xs: Timing[]): Timing => xs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
const o = best(ours);
const l = best(theirs);
const row = (name: string, t: Timing): string => `${name.padEnd(34)} ${t.wallMs.toFixed(0).padStart(8)} ms wall ${t.cpuMs.toFixed(0).padStart(8)} ms cpu  ${String(t.pngs).padStart(3)} PNGs ${(t.bytes / 1e6).toFixed(1)} MB`;
const p = best(pipelined);
console.log(row('Slidewright renderSlide', o));
console.log(row('Slidewright, 2 slides in flight', p));
console.log(row('LibreOffice (soffice + pdftoppm)', l));
console.log(`per slide: Slidewright ${(o.wallMs / slides).toFixed(1)} ms, LibreOffice ${(l.wallMs / slides).toFixed(1)} ms`);
console.log(`speed-up (one slide at a time): ${(l.wallMs / o.wallMs).toFixed(1)}× wall, ${(l.cpuMs / o.cpuMs).toFixed(1)}× cpu (goal ≥ 10×, aim 20×)`);
console.log(`speed-up (2 in flight): ${(l.wallMs / p.wallMs).toFixed(1)}× wall, ${(l.cpuMs / p.cpuMs).toFixed(1)}× cpu`);
console.log(`all runs, wall ms: ours ${ours.map((t) => t.wallMs.toFixed(0)).join(', ')}; 2 in flight ${pipelined.map((t) => t.wallMs.toFixed(0)).join(', ')}; LibreOffice ${theirs.map((t) => t.wallMs.toFixed(0)).join(', ')}`);
