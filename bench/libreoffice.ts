/**
 * The LibreOffice anchor of the preview benches: a presentation → PDF with soffice (headless,
 * a user profile of the caller's), then every page → PNG with pdftoppm at a given pixel size.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

/** One conversion: wall and CPU time (soffice's and pdftoppm's user + system), PNGs made. */
export interface PngTiming {
  wallMs: number;
  cpuMs: number;
  pngs: number;
  bytes: number;
}

/**
 * Converts `src` to PNGs of `widthPx` × `heightPx` under a new folder of `work` (removed after).
 * @param profile - folder of the soffice user profile (reuse it across runs: a warm profile)
 */
export function libreOfficePngs(src: string, work: string, profile: string, widthPx: number, heightPx: number): PngTiming {
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
