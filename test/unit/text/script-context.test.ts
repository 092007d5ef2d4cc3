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

t.test('a space, digit or punctuation mark takes the script of the strong text before it in the paragraph, across runs', async (t) => {
  const calibri = { name: 'Calibri', size_pt: 20 };
  const bold = { ...calibri, bold: true };
  const dejavu = (text: string, font: { bold?: boolean }): number => defaultFontMetrics.measure(text, { name: 'DejaVu Sans', size_pt: 20, ...font });
  const layout = (runs: TextRunInput[], p: Partial<ParagraphInput> = {}) => layoutText({ ...noInsets, paragraphs: [{ runs, ...p }] }, box(2000)).lines[0]!;
  const frag = (line: ReturnType<typeof layout>, text: string) => line.fragments.find((f) => f.text === text);
  // an Arabic run, then a run of digits and spaces alone (another format), then Arabic: the middle run is set in the Arabic face
  const a = layout([{ text: 'نمت الإيرادات', font: calibri }, { text: ' 14% ', font: bold }, { text: 'على أساس سنوي', font: calibri }], { rtl: true });
  const middle = a.fragments.filter((f) => f.font.bold);
  t.ok(middle.length > 0 && middle.every((f) => f.font.name === 'DejaVu Sans'), `the digits run after Arabic is drawn in the Arabic face (${middle.map((f) => `${JSON.stringify(f.text)}:${f.font.name}`).join(', ')})`);
  const arabicWidth = (text: string): number => defaultFontMetrics.measure(text, { name: 'DejaVu Sans', size_pt: 20 });
  const wantA = arabicWidth('نمت الإيرادات') + dejavu(' 14% ', { bold: true }) + arabicWidth('على أساس سنوي');
  t.ok(Math.abs(a.width_pt - wantA) < 0.01, `and measured in it (${a.width_pt.toFixed(2)} = ${wantA.toFixed(2)} pt)`);
  // a run starting with a space after an Arabic run: the space goes with the Arabic, the Latin word keeps its face
  const b = layout([{ text: 'هامش الربح', font: calibri }, { text: ' improved by 2.1 points', font: bold }]);
  t.equal(frag(b, ' ')?.font.name, 'DejaVu Sans', `the leading space of the Latin run is set with the Arabic before it (${b.fragments.map((f) => `${JSON.stringify(f.text)}:${f.font.name}`).join(', ')})`);
  t.ok(b.fragments.some((f) => f.text.startsWith('improved') && f.font.name === 'Calibri'), 'the Latin words keep their face');
  const whole = layout([{ text: 'هامش الربح', font: calibri }, { text: ' improved by 2.1 points', font: bold }]).width_pt;
  const want = defaultFontMetrics.measure('هامش الربح', { name: 'DejaVu Sans', size_pt: 20 }) + dejavu(' ', { bold: true }) + defaultFontMetrics.measure('improved by 2.1 points', bold);
  t.ok(Math.abs(whole - want) < 0.01, `the line is measured so (${whole.toFixed(2)} = ${want.toFixed(2)} pt)`);
  // a paragraph starting with weak text takes the first strong script after it, in the next run
  const c = layout([{ text: '2024 ', font: bold }, { text: 'ההכנסות גדלו', font: calibri }], { rtl: true });
  const lead = c.fragments.filter((f) => f.font.bold);
  t.ok(lead.length > 0 && lead.every((f) => f.font.name === 'DejaVu Sans'), `leading digits of a Hebrew paragraph take the Hebrew face (${lead.map((f) => `${JSON.stringify(f.text)}:${f.font.name}`).join(', ')})`);
  // Latin text alone is untouched
  const d = layout([{ text: 'Revenue ', font: calibri }, { text: '14%', font: bold }]);
  t.ok(d.fragments.every((f) => f.font.name === 'Calibri'), 'Latin paragraphs keep their faces');
});

t.test('Korean wraps between words, never between the syllables of a word', async (t) => {
  // the first bullet of the Korean slide: LibreOffice moved "증가했습니다." whole to the next line where its first syllables would have fitted
  const text = '북부 지역의 신규 기업 계약으로 매출이 전년 대비 14% 증가했습니다.';
  const words = new Set(text.split(' '));
  for (const width of [150, 180, 250, 330, 400]) {
    const l = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text, font: { name: 'Calibri', size_pt: 20, eastAsianLang: 'ko-KR' } }] }] }, box(width), { metrics: fitMetrics });
    const lines = l.lines.map((x) => x.fragments.map((f) => f.text).join('').trim());
    t.ok(lines.every((s) => s.split(' ').every((w) => words.has(w))), `${width} pt: every line holds whole words (${lines.join(' | ')})`);
  }
});

t.test('previews set Japanese lines at single spacing as LibreOffice does (1.2 × the size); fitting keeps the taller CJK face height', async (t) => {
  // the Japanese slide on aspose-embedded-fonts (Calibri, 21.5 pt, single spacing): LibreOffice's lines are 25.8 pt apart,
  // its font-independent line spacing for PPTX text; Noto Sans CJK's own height would be 31.1 pt
  const text = '北部地域での新規法人契約により、売上高は前年比十四パーセント増加しました。';
  const body = { ...noInsets, paragraphs: [{ runs: [{ text, font: { name: 'Calibri', size_pt: 21.5, eastAsianLang: 'ja-JP' } }] }] };
  const pitch = (l: ReturnType<typeof layoutText>): number => l.lines[1]!.top_pt - l.lines[0]!.top_pt;
  const preview = layoutText(body, box(300));
  t.ok(preview.lines.length > 1 && pitch(preview) < 1.25 * 21.5, `preview line pitch ${pitch(preview).toFixed(2)} pt (LibreOffice 25.8)`);
  const fitted = layoutText(body, box(300), FIT_LAYOUT);
  t.ok(pitch(fitted) >= 1.44 * 21.5, `fitting measures ${pitch(fitted).toFixed(2)} pt, the CJK face's height`);
});

t.test('Hangul syllables advance 0.92 em, as in Noto Sans CJK, the face LibreOffice draws Korean with', async (t) => {
  // LibreOffice set "북부" 47.88 pt wide at 26 pt and the title's "분기별" 121.5 pt at 44 pt (onlyoffice-blank-ar)
  t.ok(Math.abs(defaultFontMetrics.measure('북부', { name: 'Arial', size_pt: 26 }) - 47.84) < 0.05, 'two syllables at 26 pt: 47.84 pt');
  t.ok(Math.abs(defaultFontMetrics.measure('분기별', { name: 'Calibri', size_pt: 44 }) - 121.44) < 0.05, 'three at 44 pt: 121.44 pt');
  t.equal(defaultFontMetrics.measure('北部', { name: 'Arial', size_pt: 26 }), 52, 'ideographs stay 1 em');
});
