/**
 * Line height of faces that ask for their typo metrics (OS/2 fsSelection USE_TYPO_METRICS,
 * issue 21 item 7): Caladea, the stand-in for Cambria, sets a line by its typo ascender and
 * descender (0.9 + 0.25 em), as LibreOffice does, not by its win metrics (1.05 + 0.25 em);
 * faces without the flag (Carlito, Liberation) keep their win metrics.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { EMU_PER_PT, layoutText } from '../../../core/src/text/layout.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const TEMPLATE = 'templates/poi-aascu-summit-9masters.pptx';

t.test('Caladea (Cambria) is measured by its typo metrics, Carlito by its win metrics', async (t) => {
  const cambria = defaultFontMetrics.vertical({ name: 'Cambria', size_pt: 20 });
  t.ok(Math.abs(cambria.ascent_pt - 18) < 1e-9 && Math.abs(cambria.descent_pt - 5) < 1e-9, `Cambria 20 pt: ascent ${cambria.ascent_pt}, descent ${cambria.descent_pt}`);
  const calibri = defaultFontMetrics.vertical({ name: 'Calibri', size_pt: 20 });
  t.ok(Math.abs(calibri.lineHeight_pt - (2500 / 2048) * 20) < 1e-9, `Calibri 20 pt line ${calibri.lineHeight_pt}`);
  // Three single-spaced lines of 20 pt Cambria: 1.15 em each, raised to PowerPoint's 1.2 em.
  const body = { paragraphs: ['a', 'b', 'c'].map((text) => ({ runs: [{ text, font: { name: 'Cambria', size_pt: 20 } }] })), lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
  const laid = layoutText(body, { width_emu: 400 * EMU_PER_PT, height_emu: 400 * EMU_PER_PT });
  t.ok(Math.abs(laid.textHeight_pt - 72) < 1e-6, `three lines are 72 pt tall (${laid.textHeight_pt})`);
});

t.test('table text in Cambria is drawn at Caladea typo line pitch', needsCorpus(TEMPLATE), async (t) => {
  // Slide 14: the "How" column (x 392-575 px at 800 px wide) holds 12 pt Cambria lines:
  // "Required professional / development sessions." then an empty line and two more.
  const pkg = await OpcPackage.open(readFileSync(corpusPath(TEMPLATE)));
  const r = await renderSlide(pkg, '/ppt/slides/slide14.xml', { widthPx: 800 });
  const img = await loadImage(Buffer.from(r.png));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const { data } = ctx.getImageData(392, 190, 183, 110);
  // Tops of the runs of rows holding dark (text) pixels.
  const tops: number[] = [];
  let inText = false;
  for (let y = 0; y < 110; y++) {
    let dark = false;
    for (let x = 0; x < 183 && !dark; x++) {
      const i = (y * 183 + x) * 4;
      dark = data[i]! + data[i + 1]! + data[i + 2]! < 300;
    }
    if (dark && !inText) tops.push(y);
    inText = dark;
  }
  t.ok(tops.length >= 3, `text lines found at ${tops.join(', ')}`);
  // 12 pt at 800/720 px a point: 1.2 em = 16 px (LibreOffice 15.3 px); win metrics gave 17.3 px.
  const pitch = tops[1]! - tops[0]!;
  t.ok(pitch >= 14 && pitch <= 16.5, `line pitch ${pitch} px`);
});
