/**
 * Fidelity of the in-process renderer against LibreOffice (issue 5 item 4): slides of the
 * corpus templates rendered by LibreOffice (pptx → PDF → PNG via pdftoppm at the same
 * pixel size) and by renderSlide, compared by grayscale SSIM. One soffice conversion per
 * template (own user profile, under `timeout`), cached for the run. Prints a per-slide
 * table. Skips when soffice or pdftoppm is missing. The same slides of our PDF export
 * (issue 22) are rasterized by pdftoppm too and compared with LibreOffice's pages.
 */
import t from 'tap';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import { renderSlide } from '../../core/src/render/render-slide.js';
import { renderPdf, visibleSlideParts } from '../../core/src/render/pdf.js';
import { rasterizePage } from '../helpers/pdf-tools.js';
import { corpusPath, needsCorpus, strictTests } from '../helpers/corpus.js';
import { grayFromPng, ssim } from './ssim.js';

/** Templates and the slides (1-based) compared. */
const SELECTION: Array<[string, number[]]> = [
  ['poi-customgeo-48slides.pptx', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['poi-layouts-showcase.pptx', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['onlyoffice-sample-en.pptx', [1, 2, 3, 4]],
  ['automizer-gslides-merged-tables.pptx', [1, 2, 3, 4]],
  ['poi-themes-7masters.pptx', [1, 2, 3, 4, 5, 6]],
  ['python-pptx-groupshape.pptx', [1]],
  ['automizer-additional-master.pptx', [1, 2, 3]],
  ['json2pptx-modern-template.pptx', [1, 2, 3, 4]],
  ['pandoc-footer-reference.pptx', [1]],
  ['poi-headers-footers-2007.pptx', [1]],
  ['python-pptx-chart-types.pptx', [1, 2]],
  ['poi-ecodesign-lecture-de.pptx', [1, 2, 3, 4]],
  ['poi-aascu-summit-9masters.pptx', [1, 2, 3, 4]],
  ['poi-uaeu-geometry-lecture.pptx', [1, 2, 3, 4]],
  ['poi-comments-11slides.pptx', [1, 2, 3, 4]],
];

/** Pixel width both renderers produce; SSIM is computed after box-downscaling to {@link CMP_WIDTH}. */
const RENDER_WIDTH = 800;
const CMP_WIDTH = 400;

/**
 * Thresholds asserted: the goal, mean ≥ 0.85 and no slide below 0.6. Both are met
 * (mean about 0.92, lowest slide about 0.66: an autofit body whose wrapped lines LibreOffice
 * spaces 1.2 × the size where our font metrics give 1.22 ×; the chart slides are about 0.72,
 * LibreOffice placing plot areas and labels a little differently). The mean is asserted a
 * little below what is reached, so a regression fails.
 */
const MEAN_AT_LEAST = 0.9;
const MIN_AT_LEAST = 0.6;
/** Issue 22: pages of our PDF export against LibreOffice's PDF, both rasterized by pdftoppm. */
const PDF_MEAN_AT_LEAST = 0.85;

const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** LibreOffice conversions run this many at a time (each with its own user profile). */
const CONVERSIONS_IN_PARALLEL = 3;

/** pptx → PDF with soffice under `timeout`; resolves with the PDF path (which may not exist on failure). */
function convert(src: string, work: string): Promise<string> {
  const profile = join(work, `profile-${basename(src)}`);
  return new Promise((resolve) => {
    const p = spawn('timeout', ['240', 'soffice', `-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', work, src], { stdio: 'ignore' });
    p.on('close', () => resolve(join(work, basename(src).replace(/\.\w+$/, '.pdf'))));
    p.on('error', () => resolve(join(work, basename(src).replace(/\.\w+$/, '.pdf'))));
  });
}

// LibreOffice is slow: the whole file may take longer than tap's default per-file timeout.
t.setTimeout(1_800_000);

/** Skipped without the selected templates (first) or without LibreOffice and poppler. */
const skip = needsCorpus(...SELECTION.map(([file]) => `templates/${file}`)).skip || (!strictTests && (!have('soffice') || !have('pdftoppm')) ? 'soffice/pdftoppm not installed' : false);

t.test('renderSlide is close to LibreOffice by SSIM', { skip, timeout: 1_800_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'sw-ssim-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  const rows: Array<{ template: string; slide: number; ssim: number; pdfSsim?: number }> = [];
  // One LibreOffice conversion per template, a few at a time, cached for the run.
  let active = 0;
  const waiters: Array<() => void> = [];
  const limited = async (src: string): Promise<string> => {
    while (active >= CONVERSIONS_IN_PARALLEL) await new Promise<void>((resolve) => waiters.push(resolve));
    active++;
    try {
      return await convert(src, work);
    } finally {
      active--;
      waiters.shift()?.();
    }
  };
  const pdfs = new Map(SELECTION.map(([file]) => [file, limited(corpusPath(`templates/${file}`))] as const));
  for (const [file, slides] of SELECTION) {
    const src = corpusPath(`templates/${file}`);
    const pdf = await pdfs.get(file)!;
    if (!existsSync(pdf)) {
      t.fail(`LibreOffice did not convert ${file}`);
      continue;
    }
    const pkg = await OpcPackage.open(readFileSync(src));
    const model = new PmlModel(pkg);
    // Our PDF export (issue 22), its pages rasterized by the same pdftoppm as LibreOffice's.
    const visible = visibleSlideParts(pkg);
    const ourPdf = (await renderPdf(pkg)).pdf;
    for (const n of slides) {
      const part = model.presentation.slides[n - 1]?.partName;
      if (!part) continue;
      const ours = await renderSlide(pkg, part, { widthPx: RENDER_WIDTH });
      const prefix = join(work, `${basename(file)}-${n}`);
      execFileSync('pdftoppm', ['-png', '-f', String(n), '-l', String(n), '-singlefile', '-scale-to-x', String(ours.width_px), '-scale-to-y', String(ours.height_px), pdf, prefix]);
      const theirs = readFileSync(`${prefix}.png`);
      const theirsGray = await grayFromPng(theirs, CMP_WIDTH);
      const s = ssim(await grayFromPng(ours.png, CMP_WIDTH), theirsGray);
      const page = visible.indexOf(part) + 1;
      const ourPage = page > 0 ? rasterizePage(ourPdf, page, ours.width_px, ours.height_px) : undefined;
      rows.push({ template: file, slide: n, ssim: s, ...(ourPage ? { pdfSsim: ssim(await grayFromPng(ourPage, CMP_WIDTH), theirsGray) } : {}) });
    }
  }
  const table = ['template                                   slide   SSIM', ...rows.map((r) => `${r.template.padEnd(42)} ${String(r.slide).padStart(5)}  ${r.ssim.toFixed(3)}`)];
  const byTemplate = new Map<string, number[]>();
  for (const r of rows) byTemplate.set(r.template, [...(byTemplate.get(r.template) ?? []), r.ssim]);
  const mean = rows.reduce((s, r) => s + r.ssim, 0) / Math.max(1, rows.length);
  const min = Math.min(...rows.map((r) => r.ssim));
  table.push('', 'per template (mean, min):');
  for (const [k, v] of byTemplate) table.push(`${k.padEnd(42)} ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(3)}  ${Math.min(...v).toFixed(3)}`);
  table.push('', `slides ${rows.length}, templates ${byTemplate.size}, mean ${mean.toFixed(3)}, min ${min.toFixed(3)}`);
  const pdfRows = rows.filter((r): r is typeof r & { pdfSsim: number } => r.pdfSsim !== undefined);
  const pdfMean = pdfRows.reduce((s, r) => s + r.pdfSsim, 0) / Math.max(1, pdfRows.length);
  table.push(`our PDF vs LibreOffice's PDF (both through pdftoppm): pages ${pdfRows.length}, mean ${pdfMean.toFixed(3)}, min ${Math.min(...pdfRows.map((r) => r.pdfSsim)).toFixed(3)}`);
  t.comment(table.join('\n'));
  if (process.env.SLIDEWRIGHT_SSIM_REPORT) console.error(table.join('\n'));
  t.ok(rows.length >= 30, `at least 30 slides compared (${rows.length})`);
  t.ok(byTemplate.size >= 8, `at least 8 templates (${byTemplate.size})`);
  t.ok(mean >= MEAN_AT_LEAST, `mean SSIM ${mean.toFixed(3)} ≥ ${MEAN_AT_LEAST}`);
  t.ok(min >= MIN_AT_LEAST, `min SSIM ${min.toFixed(3)} ≥ ${MIN_AT_LEAST}`);
  t.equal(pdfRows.length, rows.length, 'every compared slide is a page of our PDF');
  t.ok(pdfMean >= PDF_MEAN_AT_LEAST, `our PDF vs LibreOffice's: mean SSIM ${pdfMean.toFixed(3)} ≥ ${PDF_MEAN_AT_LEAST} (issue 22)`);
});
