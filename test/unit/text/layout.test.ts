/**
 * Font metrics and text layout, with expectations computed by hand from the Liberation
 * Sans (= Arial) metrics: unitsPerEm 2048, advance widths H 1479, e/o/a/b 1139, l 455,
 * space 569; OS/2 winAscent 1854, winDescent 434 (ascent + descent = 2288/2048 em =
 * 1.117 em, so single line pitch is PowerPoint's 1.2 em, the extra leading above the ascent).
 */
import t from 'tap';
import { measure, resolveFace, defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { EMU_PER_PT, PREVIEW_LAYOUT, fitText, layoutText, type ParagraphInput, type TextBodyInput } from '../../../core/src/text/layout.js';

const arial = (size_pt: number) => ({ name: 'Arial', size_pt });
const close = (t2: { ok(v: boolean, m: string): unknown }, a: number, b: number, msg: string): void => {
  t2.ok(Math.abs(a - b) < 1e-6, `${msg}: ${a} ≈ ${b}`);
};

const pt = (n: number): number => n * EMU_PER_PT;
const para = (text: string, size = 10, extra: Partial<ParagraphInput> = {}): ParagraphInput => ({ runs: [{ text, font: arial(size) }], ...extra });
const noInsets = { lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
const LINE10 = 12; // max((2288 / 2048) * 10, 1.2 * 10)
const DESC10 = (434 / 2048) * 10;

t.test('measure sums advance widths of the metric-compatible face', async (t) => {
  close(t, measure('Hello', arial(10)), (4667 / 2048) * 10, 'Arial Hello');
  close(t, measure('Hello', { name: 'Helvetica', size_pt: 10 }), (4667 / 2048) * 10, 'Helvetica = Arial');
  close(t, measure('漢字', arial(10)), 20, 'CJK full width');
  t.ok(measure('Hello', { ...arial(10), bold: true }) > measure('Hello', arial(10)), 'bold is wider');
});

t.test('font names resolve through the documented fallback chain', async (t) => {
  t.equal(resolveFace('Calibri').family, 'Carlito');
  t.equal(resolveFace('Cambria').family, 'Caladea');
  t.equal(resolveFace('Times New Roman').family, 'Liberation Serif');
  t.equal(resolveFace('Courier New').family, 'Liberation Mono');
  t.equal(resolveFace('Segoe UI').family, 'Liberation Sans');
  t.equal(resolveFace('Verdana').family, 'DejaVu Sans');
  t.equal(resolveFace('Acme Corporate Serif').family, 'DejaVu Serif');
  t.equal(resolveFace('Acme Corporate Sans').family, 'DejaVu Sans');
  t.equal(resolveFace('Calibri').exact, true);
  t.equal(resolveFace('Segoe UI').exact, false);
});

t.test('words wrap at spaces by measured width', async (t) => {
  // "aaa" = 3×1139 = 3417 units = 16.684 pt; "aaa bbb" = 7403 units = 36.147 pt.
  const body: TextBodyInput = { paragraphs: [para('aaa bbb')], ...noInsets };
  const wide = layoutText(body, { width_emu: pt(40), height_emu: pt(100) });
  t.equal(wide.lines.length, 1);
  close(t, wide.lines[0]!.width_pt, (7403 / 2048) * 10, 'one line width');
  const narrow = layoutText(body, { width_emu: pt(20), height_emu: pt(100) });
  t.equal(narrow.lines.length, 2);
  t.equal(narrow.lines[1]!.fragments[0]!.text, 'bbb');
  close(t, narrow.textHeight_pt, 2 * LINE10, 'two single lines');
  close(t, narrow.lines[0]!.baseline_pt, LINE10 - DESC10, 'first baseline one descent above the line bottom');
});

t.test('a word wider than the line is broken between characters', async (t) => {
  // 'a' = 5.5615 pt; 12 pt holds two.
  const l = layoutText({ paragraphs: [para('aaaaa')], ...noInsets }, { width_emu: pt(12), height_emu: pt(100) });
  t.same(l.lines.map((x) => x.fragments.map((f) => f.text).join('')), ['aa', 'aa', 'a']);
  t.ok(l.brokeWords);
});

t.test('CJK text breaks between any two characters', async (t) => {
  const l = layoutText({ paragraphs: [para('漢字漢字漢')], ...noInsets }, { width_emu: pt(25), height_emu: pt(100) });
  t.same(l.lines.map((x) => x.fragments.map((f) => f.text).join('')), ['漢字', '漢字', '漢']);
});

t.test('insets, alignment and anchor place lines', async (t) => {
  const body: TextBodyInput = { paragraphs: [para('Hello', 10, { align: 'ctr' })], lIns_emu: pt(5), rIns_emu: pt(5), tIns_emu: pt(2), bIns_emu: pt(2), anchor: 'b' };
  const l = layoutText(body, { width_emu: pt(110), height_emu: pt(50) });
  const w = (4667 / 2048) * 10;
  close(t, l.lines[0]!.fragments[0]!.x_pt, 5 + (100 - w) / 2, 'centred within the insets');
  close(t, l.lines[0]!.top_pt, 50 - 2 - LINE10, 'bottom anchored above the bottom inset');
  close(t, l.totalHeight_pt, LINE10 + 4, 'total height includes insets');
  const r = layoutText({ ...body, paragraphs: [para('Hello', 10, { align: 'r' })] }, { width_emu: pt(110), height_emu: pt(50) });
  close(t, r.lines[0]!.fragments[0]!.x_pt, 105 - w, 'right aligned');
});

t.test('line spacing, space before/after and font scale', async (t) => {
  const body: TextBodyInput = {
    paragraphs: [para('a', 10, { lineSpacing: { pct: 150 }, spaceAfter: { pts: 6 } }), para('b', 10, { spaceBefore: { pts: 4 }, lineSpacing: { pts: 20 } })],
    ...noInsets,
  };
  const l = layoutText(body, { width_emu: pt(100), height_emu: pt(100) });
  close(t, l.lines[0]!.height_pt, 1.5 * LINE10, '150 % of single');
  close(t, l.lines[1]!.top_pt, 1.5 * LINE10 + 6 + 4, 'after + before');
  close(t, l.lines[1]!.height_pt, 20, 'exact points');
  const scaled = layoutText({ paragraphs: [para('a', 20)], ...noInsets, fontScale: 0.5 }, { width_emu: pt(100), height_emu: pt(100) });
  t.equal(scaled.lines[0]!.fragments[0]!.font.size_pt, 10);
  close(t, scaled.textHeight_pt, LINE10, 'scaled line height');
  const reduced = layoutText({ paragraphs: [para('a', 10)], ...noInsets, lnSpcReduction: 0.2 }, { width_emu: pt(100), height_emu: pt(100) });
  close(t, reduced.textHeight_pt, 0.8 * LINE10, 'lnSpcReduction');
});

t.test('bullets hang at marL + indent and text starts at marL', async (t) => {
  const body: TextBodyInput = {
    paragraphs: [para('aaa aaa', 10, { marL_emu: pt(20), indent_emu: pt(-15), bullet: { text: '•', font: arial(10) } })],
    ...noInsets,
  };
  const l = layoutText(body, { width_emu: pt(40), height_emu: pt(100) });
  const [bullet, text] = l.lines[0]!.fragments;
  t.equal(bullet!.bullet, true);
  close(t, bullet!.x_pt, 5, 'bullet at marL + indent');
  close(t, text!.x_pt, 20, 'text at marL');
  t.equal(l.lines.length, 2);
  close(t, l.lines[1]!.fragments[0]!.x_pt, 20, 'continuation lines at marL');
});

t.test('fitText finds the largest size that fits, or the overflow at the minimum', async (t) => {
  const body: TextBodyInput = { paragraphs: [para('aaa bbb ccc ddd', 20)], ...noInsets };
  // At 20 pt one line is 22.34 pt high; a 30 pt box holds one line: "aaa bbb ccc ddd" is 15 chars.
  const box = { width_emu: pt(100), height_emu: pt(30) };
  const fit = fitText(body, box, { minSizePt: 8 });
  t.ok(fit.fits);
  t.equal(fit.layout.lines.length, 1);
  t.ok(fit.sizePt < 20 && fit.sizePt > 8);
  // Check maximality: 0.2 pt larger does not fit.
  const bigger = layoutText(body, box, { extraScale: (fit.sizePt + 0.2) / 20 });
  t.ok(bigger.overflow_pt > 0, 'slightly larger overflows');
  const fits = fitText(body, { width_emu: pt(1000), height_emu: pt(100) });
  t.equal(fits.scale, 1);
  const never = fitText({ paragraphs: Array.from({ length: 20 }, () => para('a', 20)), ...noInsets }, box, { minSizePt: 10 });
  t.notOk(never.fits);
  close(t, never.sizePt, 10, 'stops at the minimum');
  close(t, never.overflow_pt, 20 * LINE10 - 30, 'overflow at the minimum');
  t.ok(defaultFontMetrics.vertical(arial(10)).lineHeight_pt > 0);
});

/** A copy of a body with every run, bullet and end-of-paragraph size written at `k` (hundredths, ≥ 1 pt). */
function writtenAt(body: TextBodyInput, k: number): TextBodyInput {
  const sz = (v: number): number => Math.max(1, Math.round(v * k * 100) / 100);
  return {
    ...body,
    paragraphs: body.paragraphs.map((p) => ({
      ...p,
      runs: p.runs.map((r) => ({ ...r, font: { ...r.font, size_pt: sz(r.font.size_pt) } })),
      bullet: p.bullet ? { ...p.bullet, font: { ...p.bullet.font, size_pt: sz(p.bullet.font.size_pt) } } : undefined,
      endFont: p.endFont ? { ...p.endFont, size_pt: sz(p.endFont.size_pt) } : undefined,
    })),
  };
}

/** Bodies exercising what sizes touch: bullets, small capitals, letter spacing, spacing in points and percent, breaks, CJK, long words. */
function sizedBodies(): TextBodyInput[] {
  const f = (size_pt: number, name = 'Calibri') => ({ name, size_pt });
  const words = 'Revenue grew strongly across every region this quarter driven by enterprise contracts'.split(' ');
  const text = (n: number, from = 0): string => Array.from({ length: n }, (_, i) => words[(i + from) % words.length]).join(' ');
  return [
    { paragraphs: [para(text(30), 28)] },
    {
      paragraphs: [1, 2, 3, 4, 5].map((i) => ({
        runs: [{ text: text(6 + i, i), font: f(25.2) }],
        bullet: { text: '•', font: f(25.2 * 0.9, 'Arial') },
        marL_emu: 342900,
        indent_emu: -342900,
        lineSpacing: i % 2 ? { pct: 90 } : { pts: 30 },
        spaceBefore: i % 2 ? { pts: 10 } : { pct: 20 },
        endFont: f(25.2),
      })),
    },
    {
      paragraphs: [
        { runs: [{ text: text(8), font: f(32, 'Georgia'), cap: 'small', spacing_pt: 1.5 }, { text: '', font: f(32), lineBreak: true }, { text: `漢字かな交じり文 ${text(5)}`, font: f(20, 'Segoe UI') }], endFont: f(18) },
        { runs: [], endFont: f(44) },
        { runs: [{ text: 'Supercalifragilisticexpialidociousandthensomemoretomakeitlong', font: f(40) }] },
      ],
      fontScale: 1,
      lnSpcReduction: 0,
    },
  ];
}

t.test('sizeScale lays text out as a copy with its sizes written at that scale, spacing in points unscaled', async (t) => {
  let compared = 0;
  for (const body of sizedBodies()) {
    for (const width of [120, 300, 700]) {
      const box = { width_emu: pt(width), height_emu: pt(200) };
      for (const k of [1, 0.9, 0.75, 0.5, 17 / 28, 0.01]) {
        for (const measureOnly of [false, true]) {
          const want = layoutText(writtenAt(body, k), box, { measureOnly });
          const got = layoutText(body, box, { sizeScale: k, measureOnly });
          t.same(got, want, `width ${width}, scale ${k}${measureOnly ? ', measured' : ''}`);
          compared++;
        }
      }
    }
  }
  t.equal(compared, 108);
});

t.test('measuring gives the heights and widths drawing gives; laying out again (kept splits) gives the same', async (t) => {
  for (const body of sizedBodies()) {
    const box = { width_emu: pt(250), height_emu: pt(100) };
    const drawn = layoutText(body, box);
    const measured = layoutText(body, box, { measureOnly: true });
    t.same(measured.lines.map((l) => ({ ...l, fragments: [] })), drawn.lines.map((l) => ({ ...l, fragments: [] })), 'lines without fragments');
    t.same({ ...measured, lines: [] }, { ...drawn, lines: [] }, 'heights and overflows');
    t.ok(measured.lines.every((l) => l.fragments.length === 0), 'no fragments when measuring');
    t.same(layoutText(body, box, { sizeScale: 0.8 }), layoutText(writtenAt(body, 0.8), box), 'another size in between');
    t.same(layoutText(body, box), drawn, 'again');
  }
});

t.test('a body changed in place between layouts is laid out as changed', async (t) => {
  const body: TextBodyInput = { paragraphs: [para('short', 20), para('another line here', 20)], ...noInsets };
  const box = { width_emu: pt(200), height_emu: pt(100) };
  const before = layoutText(body, box);
  t.equal(before.lines.length, 2);
  const fresh = (): TextBodyInput => ({ ...body, paragraphs: body.paragraphs.map((p) => ({ ...p, runs: p.runs.map((r) => ({ ...r, font: { ...r.font } })) })) });
  body.paragraphs[0]!.runs[0]!.text = 'now a much longer first paragraph that has to wrap onto more lines';
  t.same(layoutText(body, box), layoutText(fresh(), box), 'new text');
  body.paragraphs[0]!.runs[0]!.cap = 'small';
  t.same(layoutText(body, box), layoutText(fresh(), box), 'small capitals');
  body.paragraphs[1]!.runs[0]!.font.name = 'Courier New';
  t.same(layoutText(body, box, { sizeScale: 0.5 }), layoutText(writtenAt(fresh(), 0.5), box), 'font renamed in place');
  body.paragraphs[1]!.runs.unshift({ text: '', font: arial(20), lineBreak: true });
  t.same(layoutText(body, box), layoutText(fresh(), box), 'a run added');
  body.paragraphs.reverse();
  t.same(layoutText(body, box), layoutText(fresh(), box), 'paragraphs reordered');
});

t.test('emoji in the faces that have them are measured as drawn (DejaVu Sans emoticons), missing ones at 0.6 em', async (t) => {
  // DejaVu Sans: U+1F602 advance 2393/2048 em; a face without it (Liberation Sans) falls back to DejaVu Sans, as the renderer's font stack does.
  close(t, measure('\u{1F602}', { name: 'DejaVu Sans', size_pt: 10 }), (2393 / 2048) * 10, 'DejaVu Sans 😂');
  close(t, measure('\u{1F602}', arial(10)), (2393 / 2048) * 10, 'Arial 😂 through the fallback face');
  close(t, measure('\u{1F446}', arial(10)), 6, 'a glyph no face has: 0.6 em');
});

t.test('a first line hanging left of the inset (marL 0, negative indent) starts at the inset, as PowerPoint draws it', async (t) => {
  const words = 'word '.repeat(40).trim();
  const body: TextBodyInput = { ...noInsets, paragraphs: [para(words, 10, { marL_emu: 0, indent_emu: -69850 })] };
  const l = layoutText(body, { width_emu: pt(200), height_emu: pt(400) });
  t.ok(l.lines.length >= 2, `${l.lines.length} lines`);
  t.equal(l.lines[0]!.fragments[0]!.x_pt, 0, 'first line at the inset');
  t.equal(l.lines[1]!.fragments[0]!.x_pt, 0, 'next lines at marL');
  // a hanging bullet stops at the inset too; the text still starts at marL or after the bullet
  const bulleted: TextBodyInput = { ...noInsets, paragraphs: [para(words, 10, { marL_emu: 0, indent_emu: -pt(20), bullet: { text: '•', font: arial(10) } })] };
  const b = layoutText(bulleted, { width_emu: pt(200), height_emu: pt(400) });
  t.equal(b.lines[0]!.fragments[0]!.x_pt, 0, 'bullet at the inset');
  t.ok(b.lines[0]!.fragments[1]!.x_pt >= measure('•', arial(10)) - 1e-9, 'text after the bullet');
});

t.test('a justified line spreads its words: each word after a widened space is placed on its own', async (t) => {
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma';
  const body: TextBodyInput = { ...noInsets, paragraphs: [para(words, 10, { align: 'just' })] };
  const l = layoutText(body, { width_emu: pt(150), height_emu: pt(400) });
  t.ok(l.lines.length >= 2, `${l.lines.length} lines`);
  const first = l.lines[0]!;
  const drawn = first.fragments.filter((f) => f.text.trim());
  t.ok(drawn.length >= 3, `${drawn.length} fragments on the first line`);
  // the last word ends at the right edge: the line is as wide as the box
  const last = drawn[drawn.length - 1]!;
  const end = last.x_pt + measure(last.text.trimEnd(), arial(10));
  t.ok(Math.abs(end - 150) < 0.01, `first line ends at ${end.toFixed(2)} pt of 150`);
  // each fragment's glyphs start where the layout put them: no fragment holds a widened space inside
  for (const f of drawn) t.notOk(/\S \S/.test(f.text.trim()), `"${f.text}" holds no inner space`);
  // the last line is not justified: one fragment at the natural spacing
  const lastLine = l.lines[l.lines.length - 1]!;
  t.equal(lastLine.fragments.filter((f) => f.text.trim()).length, 1, 'last line set as one piece');
});

t.test('in lines set by their faces (table cells), a bullet in another face leaves the line as tall as its text', async (t) => {
  const calibri = { name: 'Calibri', size_pt: 14 };
  const text = (bullet: boolean): TextBodyInput => ({
    ...noInsets,
    paragraphs: [{ runs: [{ text: 'Citing textual evidence', font: calibri }], marL_emu: 285750, indent_emu: -285750, ...(bullet ? { bullet: { text: '•', font: { name: 'Arial', size_pt: 14 } } } : {}) }],
  });
  const face = { ...PREVIEW_LAYOUT, lineMetrics: 'face' as const };
  const plain = layoutText(text(false), { width_emu: pt(400), height_emu: pt(400) }, face);
  const bulleted = layoutText(text(true), { width_emu: pt(400), height_emu: pt(400) }, face);
  close(t, bulleted.lines[0]!.height_pt, plain.lines[0]!.height_pt, 'bulleted line as tall as the plain one');
  t.ok(bulleted.lines[0]!.fragments.some((f) => f.bullet), 'the bullet is drawn');
});
