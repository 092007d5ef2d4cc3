/**
 * Font fallback by class (issue 17, item 4): a font without metrics of its own is measured
 * and drawn with a stand-in of its class — serif with a serif, monospace with a monospace,
 * script and display faces with the shape closest to them — known by its name, else by
 * the template's `a:latin/@panose` and `@pitchFamily`; the substitution is still reported.
 * Measuring (text/font-metrics.ts, and fitting's ConservativeMetrics) and drawing
 * (render/fonts.ts) follow the one rule, resolveFace.
 */
import t from 'tap';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { NS, child } from '../../../core/src/ooxml/xml.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { drawFamily, ensureFonts, FALLBACK_WITHIN_CLASS } from '../../../core/src/render/fonts.js';
import { readTextBody, shapeTextSources } from '../../../core/src/ooxml/pml/text-style.js';
import { ConservativeMetrics } from '../../../core/src/text/fit-metrics.js';
import { CLASS_STAND_IN, FAMILY_SHAPE, ShippedFontMetrics, measure, resolveFace } from '../../../core/src/text/font-metrics.js';
import { classifyFont, fontNameKey, shapeFromPanose, shapeFromPitchFamily, type FontShape } from '../../../core/src/text/font-class.js';
import { houseTemplate, type HouseTypeface } from '../../fixtures/house-template.js';
import { WORLD_FONTS, worldFontsTemplate } from '../../fixtures/world-fonts-template.js';

const SERIF_FACES = new Set(['Caladea', 'Liberation Serif', 'DejaVu Serif']);

t.test('well-known serif families are measured and drawn with a serif', async (t) => {
  for (const name of ['Constantia', 'Georgia', 'Garamond', 'Book Antiqua', 'Palatino', 'Palatino Linotype', 'Century Schoolbook', 'Bookman Old Style', 'Rockwell', 'Roboto Slab', 'Lora', 'Baskerville Old Face', 'Sylfaen']) {
    const face = resolveFace(name);
    t.ok(SERIF_FACES.has(face.family), `${name}: measured with ${face.family}`);
    t.equal(face.shape, 'serif', `${name}: class serif (${face.source})`);
    t.ok(SERIF_FACES.has(drawFamily(name).family), `${name}: drawn with ${drawFamily(name).family}`);
  }
  t.equal(resolveFace('Constantia').family, 'Caladea', 'Constantia (a ClearType serif like Cambria) → Caladea');
  t.equal(resolveFace('Georgia').family, 'DejaVu Serif', 'Georgia (wide) → DejaVu Serif');
  t.equal(resolveFace('Garamond').family, 'Liberation Serif', 'Garamond → Liberation Serif');
});

/**
 * Advance widths of Palatino's lowercase letters and space, 1/1000 em (Adobe's metrics for
 * the Palatino Roman of the PostScript core fonts, which Palatino Linotype and Book Antiqua
 * follow closely).
 */
const PALATINO_WIDTHS: Readonly<Record<string, number>> = {
  ' ': 250, a: 500, b: 553, c: 444, d: 611, e: 479, f: 333, g: 556, h: 582, i: 291, j: 234, k: 556, l: 291, m: 883,
  n: 582, o: 546, p: 601, q: 560, r: 395, s: 424, t: 326, u: 603, v: 565, w: 834, x: 516, y: 556, z: 500,
};

t.test('Palatino-family text is measured no narrower than Palatino sets it, and drawn as LibreOffice draws it here', async (t) => {
  // Measured as Times (Liberation Serif), a line of Palatino came out about 10 % short, so
  // text fitted to a box overflowed it in PowerPoint and previews wrapped lines late.
  const text = 'few if any group differences among one year olds it appears groups start from the same place as infants';
  let palatino = 0;
  for (const ch of text) palatino += PALATINO_WIDTHS[ch]! / 1000;
  for (const name of ['Palatino Linotype', 'Palatino', 'Book Antiqua']) {
    const w = measure(text, { name, size_pt: 1 });
    t.ok(w >= palatino, `${name}: ${w.toFixed(2)} em, Palatino ${palatino.toFixed(2)} em`);
    t.ok(w <= palatino * 1.2, `${name}: not more than 20 % wider (${w.toFixed(2)} em)`);
    t.equal(drawFamily(name).family, 'DejaVu Serif', `${name}: drawn with DejaVu Serif, fontconfig's face for it without URW fonts`);
  }
});

t.test('monospaced families are measured and drawn with a monospace', async (t) => {
  for (const name of ['Consolas', 'Courier New', 'Courier', 'Lucida Console', 'Source Code Pro', 'Menlo', 'Courier 10 Pitch', 'Acme Mono', 'Letter Gothic', 'ＭＳ ゴシック', 'ＭＳ 明朝']) {
    const face = resolveFace(name);
    t.equal(face.family, 'Liberation Mono', `${name}: measured with Liberation Mono (${face.source})`);
    t.equal(drawFamily(name).family, 'Liberation Mono', `${name}: drawn with Liberation Mono`);
  }
  t.equal(measure('iiii', { name: 'Consolas', size_pt: 10 }), measure('mmmm', { name: 'Consolas', size_pt: 10 }), 'every character of a monospace has one width');
});

t.test('script, display and symbol faces by name take their closest shape', async (t) => {
  t.match(classifyFont('Brush Script MT'), { kind: 'script', shape: 'serif', source: 'name' });
  t.match(classifyFont('Comic Sans MS'), { kind: 'script', shape: 'sans', source: 'name' });
  t.match(classifyFont('Impact'), { kind: 'display', shape: 'sans', source: 'name' });
  t.match(classifyFont('Algerian'), { kind: 'display', shape: 'serif', source: 'name' });
  t.match(classifyFont('Wingdings'), { kind: 'symbol', shape: 'sans', source: 'name' });
  t.equal(resolveFace('Brush Script MT').family, 'DejaVu Serif');
  t.equal(resolveFace('Impact').family, 'DejaVu Sans');
});

t.test('names are compared NFKC-folded: full-width Latin and half-width katakana', async (t) => {
  t.equal(fontNameKey('ＭＳ Ｐゴシック'), 'ms pゴシック');
  t.equal(fontNameKey('HGP創英角ｺﾞｼｯｸUB'), 'hgp創英角ゴシックub');
  t.match(classifyFont('ＭＳ Ｐゴシック'), { shape: 'sans', source: 'name' });
  t.match(classifyFont('ＭＳ 明朝'), { shape: 'mono', source: 'name' }, 'MS Mincho: fixed-pitch Latin');
  t.match(classifyFont('ＭＳ Ｐ明朝'), { shape: 'serif', source: 'name' }, 'MS PMincho: a proportional serif');
  t.match(classifyFont('HGP創英角ｺﾞｼｯｸUB'), { shape: 'sans', source: 'name' });
  t.match(classifyFont('宋体'), { shape: 'serif', source: 'name' });
  t.match(classifyFont('微软雅黑'), { shape: 'sans', source: 'name' });
  t.match(classifyFont('楷体'), { kind: 'script', source: 'name' });
  t.match(classifyFont('Acme 明朝 Pro'), { shape: 'serif', source: 'name words' });
});

t.test('PANOSE: family kind, serif style, proportion; script contrast; decorative serif variant', async (t) => {
  const cases: Array<[string, string, string | undefined]> = [
    ['02020603050405020304', 'Times New Roman: Latin Text, serif style 2 (cove)', 'serif'],
    ['020B0604020202020204', 'Arial: serif style 11 (normal sans)', 'sans'],
    ['020F0502020204030204', 'Calibri: serif style 15 (rounded)', 'sans'],
    ['020E0502030303020204', 'Optima-like: serif style 14 (flared)', 'sans'],
    ['020B0609020204030204', 'Consolas: proportion 9 (monospaced)', 'mono'],
    ['02070309020205020404', 'Courier New: proportion 9 wins over serif style 7', 'mono'],
    ['030F0702030302020204', 'Comic Sans MS: hand written, contrast 3 (very low)', 'sans'],
    ['03020502030600000000', 'a calligraphic script: digit 6 (contrast) 6, medium', 'serif'],
    ['03000503000000000000', 'a monospaced script: digit 4 (spacing) 3', 'mono'],
    ['04020905020600000000', 'a decorative face, digit 6 (serif variant) 6, square', 'serif'],
    ['040B0A0B020000000000', 'a decorative face, serif variant 0 (any): a sans', 'sans'],
    ['04020905021000000000', 'a decorative face, serif variant 16 (script): a serif', 'serif'],
    ['05000000000000000000', 'Wingdings: Latin Symbol', 'sans'],
    ['00000400000000000000', 'family kind 0 (any): nothing', undefined],
    ['01000000000000000000', 'family kind 1 (no fit): nothing', undefined],
    ['02010600030101010101', 'SimSun: Latin Text but serif style 1 (no fit): nothing', undefined],
    ['02110004020202020204', 'Aptos Display: serif style 17 is out of range: nothing', undefined],
    ['020B06', 'too short: nothing', undefined],
    ['zz0B0604020202020204', 'not hex: nothing', undefined],
  ];
  for (const [panose, what, shape] of cases) t.equal(shapeFromPanose(panose)?.shape, shape, `${panose} ${what} → ${shape ?? 'nothing'}`);
  t.match(shapeFromPanose('03020502030600000000'), { kind: 'script' });
  t.match(shapeFromPanose('04020905020600000000'), { kind: 'display' });
  t.match(shapeFromPanose('04020905021000000000'), { kind: 'script' });
});

t.test('pitchFamily: the LOGFONT byte, pitch in the low bits, family in the high nibble', async (t) => {
  const cases: Array<[string | number, string, string | undefined]> = [
    ['34', '0x22 FF_SWISS, variable pitch (Arial, Calibri)', 'sans'],
    ['18', '0x12 FF_ROMAN, variable pitch (Times New Roman, Cambria)', 'serif'],
    ['49', '0x31 FF_MODERN, fixed pitch (Courier New, Consolas, MS Mincho)', 'mono'],
    ['50', '0x32 FF_MODERN, variable pitch (MS PGothic, Meiryo UI)', 'sans'],
    ['1', '0x01 fixed pitch, no family', 'mono'],
    ['17', '0x11 FF_ROMAN, fixed pitch', 'mono'],
    ['66', '0x42 FF_SCRIPT, variable pitch', 'serif'],
    ['82', '0x52 FF_DECORATIVE, variable pitch', 'sans'],
    ['2', '0x02 variable pitch, no family', undefined],
    ['0', '0x00 default pitch, no family', undefined],
    ['12', '12 decimal is 0x0C: no family, no pitch (0x12 is written "18")', undefined],
    [-94, 'a signed byte (-94 = 0xA2): no known family', undefined],
    ['abc', 'not a number', undefined],
    ['', 'empty', undefined],
  ];
  for (const [value, what, shape] of cases) t.equal(shapeFromPitchFamily(value)?.shape, shape, `${JSON.stringify(value)} ${what} → ${shape ?? 'nothing'}`);
  t.match(shapeFromPitchFamily('66'), { kind: 'script' });
  t.match(shapeFromPitchFamily('82'), { kind: 'display' });
});

t.test('the order: name table, PANOSE, pitchFamily, words in the name, sans', async (t) => {
  t.match(classifyFont('Georgia', { panose: '020B0604020202020204', pitchFamily: '34' }), { shape: 'serif', source: 'name' }, 'a known name wins over its attributes');
  t.match(classifyFont('Acme Text', { panose: '02020603050405020304', pitchFamily: '34' }), { shape: 'serif', source: 'panose' }, 'PANOSE before pitchFamily');
  t.match(classifyFont('Acme Text', { panose: '00000000000000000000', pitchFamily: '18' }), { shape: 'serif', source: 'pitchFamily' }, 'pitchFamily when PANOSE says nothing');
  t.match(classifyFont('Acme Sans', { pitchFamily: '18' }), { shape: 'serif', source: 'pitchFamily' }, "the font's own attributes before words in its name");
  t.match(classifyFont('Acme Serif Display', { pitchFamily: '2' }), { shape: 'serif', source: 'name words' }, 'words when the attributes say nothing');
  t.match(classifyFont('Acme Corporate'), { shape: 'sans', source: 'default' }, 'sans otherwise');
});

t.test('measuring and drawing follow one rule, hints included', async (t) => {
  const available = ensureFonts();
  const shipped = new ShippedFontMetrics();
  const conservative = new ConservativeMetrics();
  const names = ['Calibri', 'Constantia', 'Georgia', 'Consolas', 'Acme Corporate', 'Acme Serif', 'Академия', 'نسخ عربي', 'ＭＳ Ｐゴシック', 'Brush Script MT'];
  for (const name of names) {
    for (const hint of [undefined, 'serif', 'sans', 'mono'] as Array<FontShape | undefined>) {
      const measured = shipped.resolve(name, hint);
      t.equal(conservative.resolve(name, hint).family, measured.family, `${name} (${hint ?? 'no hint'}): fitting resolves as measuring`);
      const drawn = drawFamily(name, hint);
      if (available.has(measured.family)) t.equal(drawn.family, measured.family, `${name} (${hint ?? 'no hint'}): drawn with what it is measured with (${measured.family})`);
      else t.equal(FAMILY_SHAPE[drawn.family] ?? measured.shape, measured.shape, `${name}: ${measured.family} is not installed; drawn within its class (${drawn.family})`);
    }
  }
  t.equal(resolveFace('Acme Corporate', 'serif').family, CLASS_STAND_IN.serif, 'an unknown name with a serif hint → the serif stand-in');
  t.equal(resolveFace('Acme Corporate', 'mono').family, CLASS_STAND_IN.mono);
  t.equal(resolveFace('Acme Corporate').family, CLASS_STAND_IN.sans);
  t.equal(resolveFace('Calibri', 'serif').family, 'Carlito', 'a hint never overrides a twin');
  t.equal(resolveFace('Georgia', 'sans').family, 'DejaVu Serif', 'nor a known family');
  const text = 'Quarterly results, and what they mean';
  t.equal(measure(text, { name: 'Acme Corporate', size_pt: 18, shapeHint: 'serif' }), measure(text, { name: 'DejaVu Serif', size_pt: 18 }), 'measured with the serif stand-in');
  t.not(measure(text, { name: 'Acme Corporate', size_pt: 18, shapeHint: 'serif' }), measure(text, { name: 'Acme Corporate', size_pt: 18 }), 'which measures differently from the sans default');
  t.equal(measure(text, { name: 'Constantia', size_pt: 18 }), measure(text, { name: 'Caladea', size_pt: 18 }), 'Constantia measures as Caladea');
  const fitWidth = conservative.measure(text, { name: 'Acme Corporate', size_pt: 18, shapeHint: 'serif' });
  t.ok(fitWidth >= measure(text, { name: 'DejaVu Serif', size_pt: 18 }) - 1e-9 && fitWidth >= measure(text, { name: 'DejaVu Sans', size_pt: 18 }) - 1e-9, 'fitting measures an inexact serif at least as wide as its stand-in and as DejaVu Sans');
  for (const [shape, chain] of Object.entries(FALLBACK_WITHIN_CLASS)) {
    for (const f of chain.slice(0, -1)) if (FAMILY_SHAPE[f]) t.equal(FAMILY_SHAPE[f], shape, `${f} falls back within ${shape}`);
  }
});

/** A slide of the house template whose runs name `fonts`, one paragraph each. */
async function templateNaming(fonts: readonly HouseTypeface[]): Promise<OpcPackage> {
  return OpcPackage.open(await houseTemplate({ extraSlides: [{ title: 'Fonts', paragraphs: fonts.map((f) => ({ text: `Text in ${f.typeface}`, latin: f })) }] }));
}

t.test("a run's a:latin panose and pitchFamily reach the layout input; theme references take the theme's", async (t) => {
  const fonts: HouseTypeface[] = [
    { typeface: 'Acme Roman', pitchFamily: 18 },
    { typeface: 'Acme Text', panose: '020B0609020204030204' },
    { typeface: 'Acme Plain' },
    { typeface: 'Georgia', pitchFamily: 34 },
  ];
  const pkg = await OpcPackage.open(
    await houseTemplate({
      majorFont: { latin: { typeface: 'Acme Headline', panose: '02020603050405020304' } },
      minorFont: { latin: { typeface: 'Acme Body', pitchFamily: 49 } },
      extraSlides: [{ title: 'Fonts', paragraphs: fonts.map((f) => ({ text: `Text in ${f.typeface}`, latin: f })) }],
    }),
  );
  const model = new PmlModel(pkg);
  const slide = model.slide(pkg.partsOfType(CT.slide)[2]!);
  const [title, body] = slide.shapes;
  const colorCtx = { theme: slide.theme, colorMap: slide.colorMap };
  const read = (s: typeof title) => readTextBody(child(s!.element, NS.p, 'txBody'), shapeTextSources(s!, colorCtx));
  const titleFont = read(title).paragraphs[0]!.runs[0]!.font;
  t.match(titleFont, { name: 'Acme Headline', shapeHint: 'serif' }, 'the title (+mj-lt) takes the theme major font and its PANOSE');
  const runs = read(body).paragraphs.map((p) => p.runs[0]!.font);
  t.match(runs[0], { name: 'Acme Roman', shapeHint: 'serif' }, 'pitchFamily 18 → serif');
  t.match(runs[1], { name: 'Acme Text', shapeHint: 'mono' }, 'PANOSE proportion 9 → mono');
  t.equal(runs[2]!.name, 'Acme Plain');
  t.notOk('shapeHint' in runs[2]!, 'no attributes, no hint');
  t.match(runs[3], { name: 'Georgia', shapeHint: 'sans' }, 'the hint is carried; the name table still decides for Georgia');
  const rendered = await renderSlide(pkg, pkg.partsOfType(CT.slide)[2]!, { widthPx: 480 });
  t.match(rendered.font_substitutions, { 'Acme Headline': 'DejaVu Serif', 'Acme Roman': 'DejaVu Serif', 'Acme Text': 'Liberation Mono', 'Acme Plain': 'DejaVu Sans', Georgia: 'DejaVu Serif' }, 'drawn by class and reported');
});

t.test('substitutions are still reported, by class', async (t) => {
  const pkg = await templateNaming([{ typeface: 'Constantia' }, { typeface: 'Georgia' }, { typeface: 'Garamond' }, { typeface: 'Consolas' }, { typeface: 'Book Antiqua' }, { typeface: 'Calibri' }]);
  const r = await renderSlide(pkg, pkg.partsOfType(CT.slide)[2]!, { widthPx: 480 });
  t.match(r.font_substitutions, { Constantia: 'Caladea', Georgia: 'DejaVu Serif', Garamond: 'Liberation Serif', Consolas: 'Liberation Mono', 'Book Antiqua': 'DejaVu Serif', Calibri: 'Carlito' });
});

t.test('the world-fonts template: every name reported, each within its class', async (t) => {
  const pkg = await OpcPackage.open(await worldFontsTemplate());
  const subs: Record<string, string> = {};
  for (const part of pkg.partsOfType(CT.slide)) Object.assign(subs, (await renderSlide(pkg, part, { widthPx: 320 })).font_substitutions);
  t.equal(subs[WORLD_FONTS.akademiya.typeface], 'DejaVu Serif', 'Академия: pitchFamily 18 (roman) → a serif');
  t.equal(subs[WORLD_FONTS.literaturnaya.typeface], 'DejaVu Serif', 'Литературная: PANOSE serif style 2 (cove) → a serif');
  t.equal(subs[WORLD_FONTS.simSun.typeface], 'DejaVu Serif', '宋体: a song (serif) face by name');
  t.equal(subs[WORLD_FONTS.msMincho.typeface], 'Liberation Mono', 'ＭＳ 明朝: fixed-pitch Latin by name (and pitchFamily 49)');
  t.equal(subs[WORLD_FONTS.msPGothic.typeface], 'DejaVu Sans', 'ＭＳ Ｐゴシック: a proportional gothic (sans)');
  t.equal(subs[WORLD_FONTS.msYaHei.typeface], 'DejaVu Sans', '微软雅黑: sans');
  t.equal(subs[WORLD_FONTS.hgpSoeiKaku.typeface], 'DejaVu Sans', 'HGP創英角ｺﾞｼｯｸUB: sans');
  t.equal(subs[WORLD_FONTS.naskh.typeface], 'DejaVu Sans', 'نسخ عربي: attributes say nothing (pitchFamily 2) → sans');
});
