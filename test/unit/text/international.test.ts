/**
 * International text (issue 24, items 2 and 3): scripts and languages, UAX #14 line
 * breaking with the CJK rules, UAX #9 ordering of laid-out lines, and what generation
 * writes for right-to-left and East Asian text on every corpus template.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { isRightToLeftLanguage, languageOfText, splitByScript } from '../../../core/src/text/script.js';
import { visualOrder } from '../../../core/src/text/bidi.js';
import { EMU_PER_PT, layoutText, type ParagraphInput } from '../../../core/src/text/layout.js';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { corpusFilesOfFor, corpusPath } from '../../helpers/corpus.js';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { shapedWidthEm } from '../../../core/src/text/shaping.js';

// a deck per corpus template (about a minute and a half on a loaded machine)
t.setTimeout(900_000);

const calibri = (size_pt: number) => ({ name: 'Calibri', size_pt });
const box = (wPt: number) => ({ width_emu: wPt * EMU_PER_PT, height_emu: 1000 * EMU_PER_PT });
const noInsets = { lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };

t.test('scripts and languages', async (t) => {
  t.same(splitByScript('Revenue نمت الإيرادات 14% 日本'), [
    { text: 'Revenue ', slot: 'latin' },
    { text: 'نمت الإيرادات 14% ', slot: 'cs' },
    { text: '日本', slot: 'ea' },
  ], 'runs per slot, neutrals with the run before them');
  for (const tag of ['ar', 'ar-SA', 'he', 'he-IL', 'fa-IR', 'ur', 'yi', 'az-Arab']) t.ok(isRightToLeftLanguage(tag), `${tag} is right to left`);
  for (const tag of ['en-US', 'ja-JP', 'zh-CN', 'az-Latn', 'ko']) t.notOk(isRightToLeftLanguage(tag), `${tag} is left to right`);
  t.equal(languageOfText('売上高は増加しました'), 'ja-JP', 'kana: Japanese');
  t.equal(languageOfText('收入同比增长'), 'zh-CN', 'Han alone: Chinese');
  t.equal(languageOfText('매출이 증가했습니다'), 'ko-KR');
  t.equal(languageOfText('שלום'), 'he-IL');
  t.equal(languageOfText('Hello'), undefined);
  t.same(visualOrder([0, 1, 1, 0]), [0, 2, 1, 3], 'L2 reverses the right-to-left run');
  t.same(visualOrder([1, 2, 2, 1]), [3, 1, 2, 0], 'numbers inside right-to-left text keep their order');
});

t.test('Japanese breaks between characters but never before closing punctuation or after opening brackets', async (t) => {
  const text = '北部地域での新規法人契約により、売上高は前年比十四パーセント増加しました。「引用」も改行の規則に従います。';
  for (const width of [60, 75, 90, 110, 130]) {
    const l = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text, font: calibri(10) }] }] }, box(width));
    t.ok(l.lines.length > 1, `${width} pt: wraps without spaces (${l.lines.length} lines)`);
    t.equal(l.lines.map((x) => x.fragments.map((f) => f.text).join('')).join(''), text, `${width} pt: every character laid out once`);
    for (const line of l.lines) {
      const s = line.fragments.map((f) => f.text).join('');
      t.notOk(/^[、。」）]/.test(s), `${width} pt: no line starts with closing punctuation: ${s}`);
      t.notOk(/「$/.test(s), `${width} pt: no line ends with an opening bracket: ${s}`);
      t.ok(line.width_pt <= line.avail_pt + 1e-6, `${width} pt: the line fits (${line.width_pt.toFixed(1)} ≤ ${line.avail_pt.toFixed(1)})`);
    }
  }
});

t.test('a right-to-left paragraph reads from the right, its bullet and margin mirrored', async (t) => {
  const p: ParagraphInput = {
    runs: [{ text: 'שלום עולם abc 123 סוף', font: calibri(10) }],
    rtl: true,
    align: 'r',
    marL_emu: 20 * EMU_PER_PT,
    indent_emu: -10 * EMU_PER_PT,
    bullet: { text: '•', font: calibri(10) },
  };
  const l = layoutText({ ...noInsets, paragraphs: [p] }, box(300));
  t.equal(l.lines.length, 1);
  const frags = l.lines[0]!.fragments;
  const bullet = frags.find((f) => f.bullet)!;
  const text = frags.filter((f) => !f.bullet);
  const right = Math.max(...text.map((f) => f.x_pt + f.width_pt));
  t.ok(Math.abs(right - 280) < 0.5, `text ends at the right margin (${right.toFixed(2)} = 300 − marL 20)`);
  t.ok(bullet.x_pt >= right, 'the bullet stands right of the text');
  const at = (s: string): number => text.find((f) => f.text.includes(s))!.x_pt;
  t.ok(at('שלום') > at('abc') && at('סוף') < at('abc'), 'visual order right to left: שלום, then the Latin and number run, then סוף');
  t.ok(at('שלום') > at('סוף'), 'the first word is right of the last');
  t.ok(at('abc') <= at('123'), 'left-to-right text inside keeps its order');
  t.ok(text.filter((f) => /[א-ת]/.test(f.text)).every((f) => f.rtl), 'Hebrew pieces are drawn right to left');
});

t.test('Hebrew and Arabic are measured in the face LibreOffice sets them in (DejaVu Sans), their spaces and digits too', async (t) => {
  const dejavu = (text: string, size_pt: number): number => defaultFontMetrics.measure(text, { name: 'DejaVu Sans', size_pt });
  const hebrew = 'ההכנסות גדלו ב-14% לעומת השנה הקודמת';
  for (const name of ['Calibri', 'Arial', 'Times New Roman']) {
    const l = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text: hebrew, font: { name, size_pt: 25 } }], rtl: true }] }, box(2000));
    const want = dejavu(hebrew, 25);
    t.ok(Math.abs(l.lines[0]!.width_pt - want) < 0.01, `${name}: the line is as wide as in DejaVu Sans (${l.lines[0]!.width_pt.toFixed(2)} = ${want.toFixed(2)} pt)`);
    t.ok(l.lines[0]!.fragments.every((f) => f.font.name === 'DejaVu Sans' && f.substitutedFor === name), `${name}: drawn in DejaVu Sans, reported as a substitution`);
  }
  // a complex-script font of the run's own (a:cs) sets the script where it has it: Arial has Hebrew, not Arabic
  const own = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text: hebrew, font: { name: 'Calibri', size_pt: 25, complexScript: 'Arial' } }], rtl: true }] }, box(2000));
  const arial = defaultFontMetrics.measure(hebrew, { name: 'Arial', size_pt: 25 });
  t.ok(Math.abs(own.lines[0]!.width_pt - arial) < 0.01 && own.lines[0]!.fragments.every((f) => f.font.name === 'Arial' && !f.substitutedFor), `a:cs Arial: Hebrew set in Arial (${own.lines[0]!.width_pt.toFixed(2)} = ${arial.toFixed(2)} pt)`);
  const arabicInArial = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text: 'نمت الإيرادات', font: { name: 'Calibri', size_pt: 25, complexScript: 'Arial' } }], rtl: true }] }, box(2000));
  t.ok(arabicInArial.lines[0]!.fragments.every((f) => f.font.name === 'DejaVu Sans' && f.substitutedFor === 'Arial'), 'a:cs Arial: Arabic, which Arial lacks, in DejaVu Sans');
  // between the width in Carlito's spaces and digits and the width in DejaVu Sans': LibreOffice wraps
  const carlitoSpaces = defaultFontMetrics.measure(hebrew, { name: 'Calibri', size_pt: 25 });
  const wrapped = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text: hebrew, font: calibri(25) }], rtl: true }] }, box((carlitoSpaces + dejavu(hebrew, 25)) / 2));
  t.equal(wrapped.lines.length, 2, 'a line that fits only with the Latin face\'s spaces wraps');
  const mixed = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text: 'Revenue grew שלום 14% עולם', font: calibri(20) }] }] }, box(2000));
  const fonts = mixed.lines[0]!.fragments.map((f) => `${f.text.trim()}:${f.font.name}`);
  t.ok(fonts.includes('Revenue grew:Calibri'), `Latin words keep the run's face (${fonts.join(', ')})`);
  t.ok(fonts.some((f) => f.startsWith('שלום') && f.endsWith(':DejaVu Sans')) && fonts.some((f) => f.includes('14%') && f.endsWith(':DejaVu Sans')), 'Hebrew, and the digits after it, in DejaVu Sans');
  const arabic = 'نمت الإيرادات';
  const shaped = shapedWidthEm(arabic, false, false);
  t.ok(shaped !== undefined, 'Arabic can be shaped here (the shaping face is installed)');
  if (shaped !== undefined) t.ok(Math.abs(defaultFontMetrics.measure(arabic, { name: 'Verdana', size_pt: 20 }) - shaped * 20) < 0.01, 'Arabic in a font drawn with DejaVu Sans is measured shaped, as in a font without Arabic');
  // the fallback is for right-to-left scripts only: Thai's spaces and digits stay in the run's face
  const thai = layoutText({ ...noInsets, paragraphs: [{ runs: [{ text: 'รายได้ 1234 เพิ่มขึ้น', font: calibri(20) }] }] }, box(2000));
  t.ok(thai.lines[0]!.fragments.every((f) => f.font.name !== 'DejaVu Sans' && f.substitutedFor === undefined), `Thai is not sent to DejaVu Sans (${thai.lines[0]!.fragments.map((f) => f.font.name).join(', ')})`);
});

t.test('generation writes direction, language and runs per script on every corpus template', async (t) => {
  t.setTimeout(900_000);
  for (const name of corpusFilesOfFor(t, 'templates')) {
    const bytes = readFileSync(corpusPath(name));
    let model: PmlModel;
    try {
      model = new PmlModel(await OpcPackage.open(bytes));
    } catch {
      continue;
    }
    const layout = model.layoutsInOrder().find((l) => l.placeholders.some((p) => p.placeholder!.type === 'title') && l.placeholders.some((p) => ['obj', 'body'].includes(p.placeholder!.type)));
    if (!layout) continue;
    const spec = (bullets: string[], language?: string): DeckSlideSpec => ({
      template_id: name,
      template_slide_id: `${name}#${layout.partName}`,
      source: { kind: 'layout', part_name: layout.partName },
      slide_data: { title: bullets[0]!, content: [{ blocks: [{ type: 'text', text: { bullets, ...(language ? { language } : {}) } }, { type: 'table', table: { table: { rows: [{ cells: [{ value: bullets[0]! }] }] } } }] }] },
      options: {},
    });
    const result = await buildDeck({
      slides: [spec(['نمت الإيرادات بنسبة 14٪']), spec(['売上高は増加しました。']), spec(['Revenue نمت الإيرادات']), spec(['Plain Latin text'], 'he-IL')],
      templates: new Map([[name, bytes]]),
    });
    t.same(result.errors, [], `${name}: built`);
    const pkg = await OpcPackage.open(result.bytes!);
    const xml = new PmlModel(pkg).presentation.slides.map((s) => new TextDecoder().decode(pkg.getBytes(s.partName)));
    const paragraphsWith = (x: string, s: string): string[] => [...x.matchAll(/<a:p>.*?<\/a:p>/gs)].map((m) => m[0]).filter((p) => p.includes(s));
    const ar = paragraphsWith(xml[0]!, 'نمت');
    t.ok(ar.length >= 2 && ar.every((p) => /<a:pPr[^>]*rtl="1"/.test(p) && /lang="ar-SA"/.test(p)), `${name}: Arabic paragraphs (placeholder and cell) are right to left, runs ar-SA`);
    t.ok(ar.every((p) => !/<a:pPr[^>]*algn="l"/.test(p)), `${name}: no Arabic paragraph keeps a left alignment`);
    const ja = paragraphsWith(xml[1]!, '売上高');
    t.ok(ja.length >= 2 && ja.every((p) => /lang="ja-JP"/.test(p) && !/rtl="1"/.test(p)), `${name}: Japanese runs ja-JP, left to right`);
    const mixed = paragraphsWith(xml[2]!, 'Revenue').filter((p) => p.includes('<a:r><a:rPr') && (p.match(/<a:r>/g) ?? []).length === 2);
    t.ok(mixed.length >= 1, `${name}: mixed Latin + Arabic text is split into a run per script`);
    t.ok(mixed.every((p) => /<a:r><a:rPr(?![^>]*ar-SA)[^>]*>(?:(?!<\/a:r>).)*<a:t>Revenue <\/a:t>/s.test(p) && /<a:r><a:rPr[^>]*lang="ar-SA"[^>]*>(?:(?!<\/a:r>).)*<a:t>نمت الإيرادات<\/a:t>/s.test(p)), `${name}: the Arabic run is ar-SA, the Latin one keeps its language`);
    const he = paragraphsWith(xml[3]!, 'Plain Latin text');
    t.ok(he.some((p) => /rtl="1"/.test(p) && /lang="he-IL"/.test(p)), `${name}: a text block's language makes Latin text right to left`);
  }
});
