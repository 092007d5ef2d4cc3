/**
 * Pair kerning in measured text (the fonts' GPOS `kern` pairs, shipped by
 * scripts/gen-font-metrics.ts): kerned widths equal what Skia sets with the same font files
 * (Skia kerns through HarfBuzz, as PowerPoint kerns text from its `kern` threshold up), the
 * `kern` threshold of run properties decides per run (ECMA-376 Part 1, §21.1.2.3.9), and a
 * line PowerPoint keeps whole is no longer wrapped for want of the kerning.
 */
import t from 'tap';
import { createCanvas } from '@napi-rs/canvas';
import { measure, type FontSpec } from '../../../core/src/text/font-metrics.js';
import { EMU_PER_PT, PREVIEW_LAYOUT, layoutText } from '../../../core/src/text/layout.js';
import { fitMetrics } from '../../../core/src/text/fit-metrics.js';
import { ensureFonts } from '../../../core/src/render/fonts.js';
import { EMPTY_THEME } from '../../../core/src/ooxml/pml/theme.js';
import { kerningApplies, readTextBody } from '../../../core/src/ooxml/pml/text-style.js';
import { NS, parseXml } from '../../../core/src/ooxml/xml.js';

const SAMPLES = ['AVATAR WAVE To', 'Yesterday, Tom’s “Lava” P.T.A. — 1970s LTV/WAY', 'Weathering the Economic Storm.” Georgetown University Center on Education and the Workforce.'];

t.test('kerned widths are the widths Skia sets with the same fonts', async (t) => {
  ensureFonts();
  const ctx = createCanvas(10, 10).getContext('2d');
  // the template names and the open face each is measured and drawn in
  const faces: Array<[string, string]> = [['Calibri', 'Carlito'], ['Cambria', 'Caladea'], ['Arial', 'Liberation Sans'], ['Times New Roman', 'Liberation Serif'], ['DejaVu Sans', 'DejaVu Sans'], ['DejaVu Serif', 'DejaVu Serif']];
  for (const [name, family] of faces) {
    for (const [bold, italic] of [[false, false], [true, false], [false, true]] as const) {
      ctx.font = `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}100px "${family}"`;
      ctx.fontKerning = 'normal';
      // no ligatures: Skia's "ti"/"fi" ligatures are not kerning
      ctx.textRendering = 'optimizeSpeed';
      for (const text of SAMPLES) {
        const font: FontSpec = { name, size_pt: 100, bold, italic, kerning: true };
        const ours = measure(text, font);
        const skia = ctx.measureText(text).width;
        t.ok(Math.abs(ours - skia) < 0.05, `${name}${bold ? ' bold' : ''}${italic ? ' italic' : ''} "${text.slice(0, 14)}…": ${ours.toFixed(2)} vs Skia ${skia.toFixed(2)}`);
      }
    }
  }
  // the pairs move text: "AVATAR" is narrower kerned, and unkerned it is the sum of advances
  const calibri = { name: 'Calibri', size_pt: 100 };
  t.ok(measure('AVATAR', { ...calibri, kerning: true }) < measure('AVATAR', { ...calibri, kerning: false }) - 5, 'Calibri AVATAR kerned is narrower');
  t.equal(measure('AVATAR', { ...calibri, kerning: false }), measure('AVATAR', calibri), 'undefined kerning measures unkerned');
  // accented letters kern as their base letters
  const av = measure('AV', { ...calibri, kerning: true }) - measure('AV', { ...calibri, kerning: false });
  const accented = measure('ÀV', { ...calibri, kerning: true }) - measure('ÀV', { ...calibri, kerning: false });
  t.ok(av < 0 && accented === av, `À before V kerns as A does (${accented} = ${av})`);
});

t.test('the kern threshold of run properties decides per run', (t) => {
  t.equal(kerningApplies(undefined, 1000), true, 'no threshold anywhere: kerned at every size');
  t.equal(kerningApplies(1200, 1400), true, 'kern 12 pt, text 14 pt: kerned');
  t.equal(kerningApplies(1200, 1200), true, 'at the threshold: kerned');
  t.equal(kerningApplies(1200, 1000), false, 'text under the threshold: not kerned');
  t.equal(kerningApplies(0, 4400), false, 'kern="0": off');
  const body = parseXml(
    `<p:txBody xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="${NS.a}"><a:bodyPr/>` +
      '<a:lstStyle><a:lvl1pPr><a:defRPr kern="1200"/></a:lvl1pPr></a:lstStyle>' +
      '<a:p><a:r><a:rPr lang="en-US" sz="1400"/><a:t>big</a:t></a:r><a:r><a:rPr lang="en-US" sz="1000"/><a:t>small</a:t></a:r><a:r><a:rPr lang="en-US" sz="2000" kern="0"/><a:t>off</a:t></a:r></a:p></p:txBody>',
    'text body',
  ).documentElement!;
  const read = readTextBody(body, { near: [body.getElementsByTagNameNS(NS.a, 'lstStyle')[0]!], far: [], bodyPrs: [], theme: EMPTY_THEME, colorCtx: { theme: EMPTY_THEME, colorMap: {} as never }, defaultFace: 'Calibri' });
  t.same(read.paragraphs[0]!.runs.map((r) => [r.text, r.font.kerning]), [['big', true], ['small', false], ['off', false]], 'inherited kern="1200": 14 pt kerned, 10 pt not, an own kern="0" off');
  t.end();
});

t.test('a line PowerPoint keeps whole (kerned) is not wrapped', (t) => {
  // poi-aascu-6masters-combo-chart slide 8: a 576 pt text box, 14 pt Calibri; kerned the
  // second sentence is ~558 pt, unkerned ~563 pt, against 561.6 pt inside the insets
  const text = 'Source:  Anthony Carnevale, Tamara Jaysundera and Ban Cheah, 2012. “The College Advantage: Weathering the Economic Storm.” Georgetown University Center on Education and the Workforce.';
  const lines = (kerning: boolean) =>
    layoutText({ paragraphs: [{ runs: [{ text, font: { name: 'Calibri', size_pt: 14, kerning } }] }] }, { width_emu: 576 * EMU_PER_PT, height_emu: 100 * EMU_PER_PT }, PREVIEW_LAYOUT).lines.length;
  t.equal(lines(true), 2, 'kerned: two lines, as the box PowerPoint sized to two lines');
  t.equal(lines(false), 3, 'unkerned it would take three');
  t.end();
});

t.test('fitting measures without kerning (the metric twins kern by their own pairs)', (t) => {
  const calibri = { name: 'Calibri', size_pt: 24 };
  t.equal(fitMetrics.measure('AVATAR To', { ...calibri, kerning: true }), measure('AVATAR To', { ...calibri, kerning: false }), 'kerned request, unkerned width');
  t.ok(measure('AVATAR To', { ...calibri, kerning: true }) < fitMetrics.measure('AVATAR To', { ...calibri, kerning: true }), 'previews measure narrower');
  t.end();
});
