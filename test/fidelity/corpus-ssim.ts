/**
 * Previews against LibreOffice over the whole corpus (issue 21, item 7: mean SSIM ≥ 0.93,
 * no slide below 0.7): every template of every `templates` folder of the corpus, every
 * visible slide, our preview (renderSlide, 800 px wide) against LibreOffice's PDF page
 * rasterized by pdftoppm at the same size, both box-downscaled to 400 px and compared in
 * grey by SSIM (test/fidelity/ssim.ts, as render-ssim.test.ts does on its selection).
 *
 * Prints one line per template (slides, mean, lowest slide), the corpus mean and minimum,
 * and the lowest slides; with `--json FILE` writes every slide's score (for a before/after
 * comparison: `--compare FILE` prints the templates whose mean moved by more than 0.005);
 * with `--keep DIR` writes both images of every slide scoring below `--below` (default 0.8)
 * to DIR (`<template>-p<page>-ours.png` and `-lo.png`), to look at what differs.
 * A template LibreOffice cannot convert is listed and left out.
 *
 *   npx tsx test/fidelity/corpus-ssim.ts [--only name,name] [--json out.json] [--compare before.json] [--keep dir [--below 0.8]]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../core/src/render/index.js';
import { visibleSlideParts } from '../../core/src/render/pdf.js';
import { corpusFilesOf, corpusPath } from '../helpers/corpus.js';
import { rasterizePages } from '../helpers/pdf-tools.js';
import { convertDecksToPdf } from '../helpers/referee.js';
import { grayFromPng, ssim } from './ssim.js';

/** Width both renderers draw at, px; SSIM is computed after box-downscaling to {@link COMPARE_WIDTH}. */
const RENDER_WIDTH = 800;
const COMPARE_WIDTH = 400;

/** One slide's score. */
interface SlideScore {
  template: string;
  /** 1-based position among the visible slides (the PDF page). */
  page: number;
  part: string;
  ssim: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, json: { type: 'string' }, compare: { type: 'string' }, keep: { type: 'string' }, below: { type: 'string' } } });
  const keepBelow = Number(values.below ?? 0.8);
  if (values.keep) mkdirSync(values.keep, { recursive: true });
  const only = values.only?.split(',').filter(Boolean);
  const files = corpusFilesOf('templates').filter((f) => !only || only.some((o) => f.includes(o)));
  if (!files.length) throw new Error('no corpus templates found: set SLIDEWRIGHT_SHARED_DIR or SLIDEWRIGHT_CORPUS_DIR');
  const work = mkdtempSync(join(tmpdir(), 'sw-corpus-ssim-'));
  const scores: SlideScore[] = [];
  const unconverted: string[] = [];
  try {
    await convertDecksToPdf(files.map((f) => corpusPath(f)), work);
    for (const file of files) {
      const pdf = join(work, basename(file).replace(/\.\w+$/, '.pdf'));
      if (!existsSync(pdf)) {
        unconverted.push(file);
        continue;
      }
      const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
      const parts = visibleSlideParts(pkg);
      let pages: Uint8Array[] | undefined;
      for (const [k, part] of parts.entries()) {
        const ours = await renderSlide(pkg, part, { widthPx: RENDER_WIDTH });
        pages ??= rasterizePages(readFileSync(pdf), ours.width_px, ours.height_px);
        const theirs = pages[k];
        if (!theirs) break; // LibreOffice wrote fewer pages than there are visible slides
        const score = ssim(await grayFromPng(ours.png, COMPARE_WIDTH), await grayFromPng(theirs, COMPARE_WIDTH));
        scores.push({ template: file, page: k + 1, part, ssim: score });
        if (values.keep && score < keepBelow) {
          const stem = join(values.keep, `${basename(file).replace(/\.\w+$/, '')}-p${k + 1}`);
          writeFileSync(`${stem}-ours.png`, ours.png);
          writeFileSync(`${stem}-lo.png`, theirs);
        }
      }
      process.stderr.write('.');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stderr.write('\n');
  const byTemplate = new Map<string, number[]>();
  for (const s of scores) byTemplate.set(s.template, [...(byTemplate.get(s.template) ?? []), s.ssim]);
  const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
  const lines = ['template | slides | mean | lowest', '---|---|---|---'];
  for (const [k, v] of byTemplate) lines.push(`${k} | ${v.length} | ${mean(v).toFixed(3)} | ${Math.min(...v).toFixed(3)}`);
  const all = scores.map((s) => s.ssim);
  const templateMeans = [...byTemplate.values()].map(mean);
  lines.push(
    '',
    `corpus: ${scores.length} slides of ${byTemplate.size} templates; mean over slides ${mean(all).toFixed(3)}, mean of template means ${mean(templateMeans).toFixed(3)}, ` +
      `lowest ${Math.min(...all).toFixed(3)}; slides below 0.7: ${all.filter((s) => s < 0.7).length}`,
  );
  if (unconverted.length) lines.push(`not converted by LibreOffice: ${unconverted.join(', ')}`);
  lines.push('', 'lowest slides:', ...[...scores].sort((a, b) => a.ssim - b.ssim).slice(0, 15).map((s) => `${s.ssim.toFixed(3)} ${s.template} page ${s.page} (${s.part})`));
  if (values.compare) {
    const before = JSON.parse(readFileSync(values.compare, 'utf8')) as SlideScore[];
    const was = new Map<string, number[]>();
    for (const s of before) was.set(s.template, [...(was.get(s.template) ?? []), s.ssim]);
    lines.push('', `against ${values.compare} (mean over slides ${mean(before.map((s) => s.ssim)).toFixed(3)}):`);
    for (const [k, v] of byTemplate) {
      const b = was.get(k);
      if (b && Math.abs(mean(v) - mean(b)) > 0.005) lines.push(`${k}: ${mean(b).toFixed(3)} → ${mean(v).toFixed(3)}`);
    }
  }
  console.log(lines.join('\n'));
  if (values.json) writeFileSync(values.json, JSON.stringify(scores));
}

await main();
