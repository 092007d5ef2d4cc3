/**
 * Script context in text layout (issue 24): the space LibreOffice puts where East Asian
 * text meets other text, which fitting measures, and the script a space, digit or
 * punctuation mark takes from the strong text around it across run boundaries.
 */
import t from 'tap';
import { EMU_PER_PT, layoutText, type ParagraphInput, type TextRunInput } from '../../../core/src/text/layout.js';
import { FIT_LAYOUT, fitMetrics } from '../../../core/src/text/fit-metrics.js';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';

const noInsets = { lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
const box = (wPt: number) => ({ width_emu: wPt * EMU_PER_PT, height_emu: 1000 * EMU_PER_PT });

t.test('fitting measures the space LibreOffice sets between Japanese and a digit, and wraps where LibreOffice does', async (t) => {
  // the third bullet of the Japanese slide on onlyoffice-sample-en (Georgia, 23.5 pt): LibreOffice
  // set "顧客の解約率は過去" 5.7 pt before "3" and "年" 5.7 pt after it, and broke before "た。" in a
  // line 588.6 pt wide, the width the placeholder leaves beside its bullet indent
  const font = { name: 'Georgia', size_pt: 23.5, eastAsianLang: 'ja-JP' };
  const text = '顧客の解約率は過去3年間で最低の水準になりました。';
  const body = { ...noInsets, paragraphs: [{ runs: [{ text, font }] }] };
  const plain = layoutText(body, box(2000), { metrics: fitMetrics, measureOnly: true });
  const fitted = layoutText(body, box(2000), FIT_LAYOUT);
  const gap = fitted.lines[0]!.width_pt - plain.lines[0]!.width_pt;
  t.ok(Math.abs(gap - 2 * 0.25 * 23.5) < 0.01, `two changes of script, a quarter em each (${gap.toFixed(2)} pt)`);
  t.equal(layoutText(body, box(588.6), FIT_LAYOUT).lines.length, 2, 'fitting wraps the bullet in two lines, as LibreOffice does');
  // previews draw what PowerPoint draws: no such space
  t.equal(layoutText(body, box(588.6), { metrics: fitMetrics }).lines.length, 1, 'the preview keeps it on one line');
  // a space takes the script before it: "日本 ABC" changes once, after the space
  const spaced = { ...noInsets, paragraphs: [{ runs: [{ text: '日本 ABC', font }] }] };
  const d = layoutText(spaced, box(2000), FIT_LAYOUT).lines[0]!.width_pt - layoutText(spaced, box(2000), { metrics: fitMetrics }).lines[0]!.width_pt;
  t.ok(Math.abs(d - 0.25 * 23.5) < 0.01, `one change across a space (${d.toFixed(2)} pt)`);
  // across runs: a Japanese run followed by a Latin one
  const two = { ...noInsets, paragraphs: [{ runs: [{ text: '売上高', font }, { text: 'ABC', font }] }] };
  const d2 = layoutText(two, box(2000), FIT_LAYOUT).lines[0]!.width_pt - layoutText(two, box(2000), { metrics: fitMetrics }).lines[0]!.width_pt;
  t.ok(Math.abs(d2 - 0.25 * 23.5) < 0.01, `a change between runs counts too (${d2.toFixed(2)} pt)`);
  // Latin text alone is unchanged
  const latin = { ...noInsets, paragraphs: [{ runs: [{ text: 'Revenue grew 14%', font }] }] };
  t.equal(layoutText(latin, box(2000), FIT_LAYOUT).lines[0]!.width_pt, layoutText(latin, box(2000), { metrics: fitMetrics }).lines[0]!.width_pt, 'Latin text: nothing added');
});
