/**
 * The faces previews set Hebrew and Arabic text in, as LibreOffice sets them (issue 24,
 * item 4), measured on its PDF pages of the international-text decks:
 *
 * - a master's `a:cs typeface="+mn-cs"` where the theme's `a:cs` is empty names nothing for
 *   LibreOffice: it takes the next `a:cs` up the chain, `p:defaultTextStyle`'s Arial in the
 *   PowerPoint 2007–2010 Office themes (poi-headers-footers-2007: Hebrew "14%" 47.9 pt wide at
 *   24 pt, Liberation Sans's 48.0, not DejaVu Sans's 53.3; word gaps 12.3 pt at 44 pt);
 * - where that face lacks the script (Arial and Arabic), only the letters fall back to
 *   DejaVu Sans: the spaces between Arabic words are Liberation Sans's (6.35 pt gaps against
 *   7.2 pt where the face is DejaVu Sans);
 * - a paragraph of digits alone ("1200" in a cell of the Hebrew table) takes its script from
 *   the run's language: 45.6 pt at 18 pt, DejaVu Sans's digits, not Carlito's 36.5 pt.
 *
 * Text fitting keeps measuring in DejaVu Sans (wider), so decks do not change.
 */
import t from 'tap';
import { NS, parseXml, type Element } from '../../../core/src/ooxml/xml.js';
import { readTextBody, type TextStyleSources } from '../../../core/src/ooxml/pml/text-style.js';
import { EMPTY_THEME, type Theme } from '../../../core/src/ooxml/pml/theme.js';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { EMU_PER_PT, PREVIEW_LAYOUT, layoutText, type LineFragment, type TextBodyInput } from '../../../core/src/text/layout.js';
import { FIT_LAYOUT } from '../../../core/src/text/fit-metrics.js';

const A = `xmlns:a="${NS.a}"`;
const noInsets = { lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
const box = { width_emu: 2000 * EMU_PER_PT, height_emu: 1000 * EMU_PER_PT };

/** The Office theme's fonts: Calibri, empty East Asian and complex-script slots, Times New Roman for Hebrew and Arabic (which LibreOffice does not read). */
const officeTheme: Theme = {
  ...EMPTY_THEME,
  major: { latin: 'Calibri', eastAsian: '', complexScript: '', scripts: { Hebr: 'Times New Roman', Arab: 'Times New Roman' } },
  minor: { latin: 'Calibri', eastAsian: '', complexScript: '', scripts: { Hebr: 'Times New Roman', Arab: 'Times New Roman' } },
};

function el(xml: string): Element {
  return parseXml(xml, 'test').documentElement!;
}

/** A master body style (`+mn-cs`) over a presentation default text style naming `csDefault`. */
function sources(csDefault: string, theme: Theme = officeTheme): TextStyleSources {
  const master = el(`<p:bodyStyle xmlns:p="${NS.p}" ${A}><a:lvl1pPr><a:defRPr sz="2400"><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:bodyStyle>`);
  const defaults = el(`<p:defaultTextStyle xmlns:p="${NS.p}" ${A}><a:lvl1pPr><a:defRPr><a:latin typeface="Arial"/><a:cs typeface="${csDefault}"/></a:defRPr></a:lvl1pPr></p:defaultTextStyle>`);
  return { near: [], far: [master, defaults], bodyPrs: [], theme, colorCtx: { theme, colorMap: {} as never }, defaultFace: 'Calibri' };
}

function body(src: TextStyleSources, paragraphs: Array<{ text: string; lang: string }>): TextBodyInput {
  const xml = `<p:txBody xmlns:p="${NS.p}" ${A}><a:bodyPr/>${paragraphs.map((p) => `<a:p><a:pPr rtl="1"/><a:r><a:rPr lang="${p.lang}"/><a:t>${p.text}</a:t></a:r></a:p>`).join('')}</p:txBody>`;
  return { ...readTextBody(el(xml), src), ...noInsets };
}

const faces = (frags: readonly LineFragment[]): string => frags.map((f) => `${JSON.stringify(f.text)}:${f.font.name}`).join(' ');

t.test('complex-script text takes the a:cs named up the chain when the nearest names an empty theme slot', async (t) => {
  const hebrew = body(sources('Arial'), [{ text: 'ההכנסות גדלו ב-14% לעומת', lang: 'he-IL' }]);
  const run = hebrew.paragraphs[0]!.runs[0]!;
  t.equal(run.font.complexScript, undefined, 'the run names no complex-script face of its own (+mn-cs is empty)');
  t.equal(run.font.inheritedComplexScript, 'Arial', "it inherits p:defaultTextStyle's Arial");
  const line = layoutText(hebrew, box, PREVIEW_LAYOUT).lines[0]!;
  t.ok(line.fragments.every((f) => f.font.name === 'Arial'), `the preview sets the Hebrew, its spaces and "14%" in Arial (${faces(line.fragments)})`);
  const digits = line.fragments.find((f) => f.text === '14%');
  t.ok(digits && Math.abs(digits.width_pt - 48.0) < 0.1, `"14%" is 48.0 pt wide at 24 pt, as on LibreOffice's page (${digits?.width_pt.toFixed(2)})`);
  // fitting measures the wider fallback face, so that the fitted size holds wherever the deck is drawn
  const fitted = layoutText(hebrew, box, { ...FIT_LAYOUT, measureOnly: false, metrics: defaultFontMetrics });
  t.ok(fitted.lines[0]!.fragments.every((f) => f.font.name === 'DejaVu Sans'), `fitting keeps DejaVu Sans (${faces(fitted.lines[0]!.fragments)})`);
  t.ok(fitted.lines[0]!.width_pt > line.width_pt + 5, `and so measures the line wider (${fitted.lines[0]!.width_pt.toFixed(1)} > ${line.width_pt.toFixed(1)} pt)`);
  // nothing named up the chain either: the fallback face, as before
  const bare = layoutText(body(sources('+mn-cs'), [{ text: 'ההכנסות גדלו', lang: 'he-IL' }]), box, PREVIEW_LAYOUT).lines[0]!;
  t.ok(bare.fragments.every((f) => f.font.name === 'DejaVu Sans'), `with +mn-cs all the way up: DejaVu Sans (${faces(bare.fragments)})`);
  // a theme that fills its a:cs slot is read as before: the slot's face, nothing inherited
  const filled = { ...officeTheme, minor: { ...officeTheme.minor, complexScript: 'Tahoma' } };
  const own = body(sources('Arial', filled), [{ text: 'ההכנסות', lang: 'he-IL' }]).paragraphs[0]!.runs[0]!.font;
  t.same([own.complexScript, own.inheritedComplexScript], ['Tahoma', undefined], 'a filled theme slot is the run\'s own face');
});

t.test('where the complex-script face lacks the script, only the letters fall back: spaces and digits stay in the face', async (t) => {
  const arabic = body(sources('Arial'), [{ text: 'نمت الإيرادات بنسبة 14 على', lang: 'ar-SA' }]);
  const line = layoutText(arabic, box, PREVIEW_LAYOUT).lines[0]!;
  t.ok(line.fragments.every((f) => f.font.name === (/[\u0600-\u06ff]/.test(f.text) ? 'DejaVu Sans' : 'Arial')), `Arabic letters are set in DejaVu Sans, spaces and digits in Arial (${faces(line.fragments)})`);
  const gap = defaultFontMetrics.measure(' ', { name: 'Arial', size_pt: 24 });
  const words = ['نمت', 'الإيرادات', 'بنسبة', '14', 'على'].reduce((s, w) => s + defaultFontMetrics.measure(w, { name: /\d/.test(w) ? 'Arial' : 'DejaVu Sans', size_pt: 24 }), 0);
  const want = words + 4 * gap;
  t.ok(Math.abs(line.width_pt - want) < 0.01, `the four spaces are Liberation Sans's (${gap.toFixed(2)} pt each): line ${line.width_pt.toFixed(2)} = ${want.toFixed(2)} pt`);
  // a piece mixing digits with the script's letters or signs ("14٪": the Arabic percent sign) is set in parts
  const mixed = layoutText(body(sources('Arial'), [{ text: 'بنسبة 14٪ على', lang: 'ar-SA' }]), box, PREVIEW_LAYOUT).lines[0]!;
  t.equal(mixed.fragments.find((f) => f.text === '14')?.font.name, 'Arial', `in "14٪" the digits are set in Arial (${faces(mixed.fragments)})`);
  t.equal(mixed.fragments.find((f) => f.text === '٪')?.font.name, 'DejaVu Sans', 'and the Arabic percent sign in DejaVu Sans');
  const partsW = defaultFontMetrics.measure('14', { name: 'Arial', size_pt: 24 }) + defaultFontMetrics.measure('٪', { name: 'DejaVu Sans', size_pt: 24 });
  const mixedW = mixed.fragments.filter((f) => f.text === '14' || f.text === '٪').reduce((a, f) => a + f.width_pt, 0);
  t.ok(Math.abs(mixedW - partsW) < 0.01, `measured part by part (${mixedW.toFixed(2)} = ${partsW.toFixed(2)} pt)`);
  // a face the machine lacks (no metric twin) is replaced as a whole: LibreOffice draws "1- " in a run whose a:cs is
  // Traditional Arabic in DejaVu Sans, as the Arabic after it (poi-stress022-arabic, slide 43)
  const missing = { name: 'Calibri', size_pt: 36, bold: true, complexScript: 'Traditional Arabic' };
  const listed = layoutText({ ...noInsets, paragraphs: [{ rtl: true, runs: [{ text: '1- ', font: missing }, { text: 'نسخة من 04 شهادة', font: missing }] }] }, box, PREVIEW_LAYOUT).lines[0]!;
  t.ok(listed.fragments.every((f) => f.font.name === 'DejaVu Sans'), `digits in a run whose complex-script face is missing are set in DejaVu Sans (${faces(listed.fragments)})`);
  const dejavuSpace = defaultFontMetrics.measure(' ', { name: 'DejaVu Sans', size_pt: 24 });
  const old = layoutText(arabic, box, { ...PREVIEW_LAYOUT, complexFaceGlyphFallback: false }).lines[0]!;
  t.ok(old.width_pt - line.width_pt > 4 * (dejavuSpace - gap), `setting the whole stretch in DejaVu Sans would be wider (${old.width_pt.toFixed(1)} pt)`);
});

t.test('a paragraph of digits alone takes its script from the language of its run', async (t) => {
  const cells = body(sources('+mn-cs'), [
    { text: '1200', lang: 'he-IL' },
    { text: '12%', lang: 'ar-SA' },
    { text: '1200', lang: 'en-US' },
  ]);
  const laid = layoutText(cells, box, PREVIEW_LAYOUT);
  const fontOf = (pi: number): string => laid.lines.find((l) => l.paragraph === pi)!.fragments.map((f) => f.font.name).join(',');
  t.equal(fontOf(0), 'DejaVu Sans', 'a Hebrew cell "1200" is set in the complex-script face');
  t.equal(fontOf(1), 'DejaVu Sans', 'an Arabic cell "12%" too');
  t.equal(fontOf(2), 'Calibri', 'an English one keeps the Latin face');
  const w = laid.lines[0]!.width_pt;
  t.ok(Math.abs(w - defaultFontMetrics.measure('1200', { name: 'DejaVu Sans', size_pt: 24 })) < 0.01, `measured in it (${w.toFixed(2)} pt)`);
  const fitted = layoutText(cells, box, { metrics: defaultFontMetrics });
  t.equal(fitted.lines[0]!.fragments[0]!.font.name, 'Calibri', 'without the preview options the digits stay Latin');
});
