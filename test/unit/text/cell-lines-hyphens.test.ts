/**
 * Text set as LibreOffice sets it on the pages previews are compared with (issue 21 item 7,
 * poi-aascu-summit slides 13–16, tables of Cambria text):
 *
 * - a line may end after a hyphen inside a word ("support at-" / "risk students"), as
 *   UAX #14 allows and PowerPoint and LibreOffice break; the whole word went to the next line;
 * - table cells set their lines at the faces' own heights (LibreOffice lays cell text out
 *   without font-independent line spacing): 12 pt Cambria (Caladea, typo metrics 1.15 em)
 *   13.8 pt apart and 12 pt Calibri (Carlito, `hhea` 1 em) 12 pt apart on its PDF page, where
 *   previews kept PowerPoint's 14.4 pt, so rows grew about 3 pt per six lines too tall.
 */
import t from 'tap';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { EMU_PER_PT, PREVIEW_LAYOUT, layoutText, type TextBodyInput } from '../../../core/src/text/layout.js';

const cambria = { name: 'Cambria', size_pt: 12 };
const bodyOf = (runs: string[], font = cambria): TextBodyInput => ({
  paragraphs: [{ runs: runs.map((text) => ({ text, font })) }],
  lIns_emu: 0,
  rIns_emu: 0,
  tIns_emu: 0,
  bIns_emu: 0,
});
const linesOf = (body: TextBodyInput, width_pt: number, options = PREVIEW_LAYOUT): string[] =>
  layoutText(body, { width_emu: width_pt * EMU_PER_PT, height_emu: 1000 * EMU_PER_PT }, options).lines.map((l) => l.fragments.map((f) => f.text).join('').trimEnd());

t.test('a line ends after a hyphen inside a word when the rest does not fit', async (t) => {
  // As wide as "Explicit language to support at-" and a little, not enough for "at-risk".
  const width = defaultFontMetrics.measure('Explicit language to support at-', cambria) + 2;
  t.ok(defaultFontMetrics.measure('Explicit language to support at-risk', cambria) > width, 'the whole word does not fit');
  t.same(linesOf(bodyOf(['Explicit language to support at-risk students']), width)[0], 'Explicit language to support at-', 'one run');
  // The hyphenated word over runs, as the template writes it: "support " | "at-risk" | " " | "students ".
  t.same(linesOf(bodyOf(['Explicit language to support ', 'at-risk', ' ', 'students']), width)[0], 'Explicit language to support at-', 'over runs');
  t.same(linesOf(bodyOf(['Explicit language to support at-', 'risk students']), width)[0], 'Explicit language to support at-', 'a run ending in the hyphen');
});

t.test('no break after a hyphen before a digit or opening a word', async (t) => {
  const width = defaultFontMetrics.measure('Temperatures of -', cambria) + 2;
  t.same(linesOf(bodyOf(['Temperatures of -15 degrees']), width)[0], 'Temperatures of', 'a minus sign stays with its number');
  const width2 = defaultFontMetrics.measure('Model X-', cambria) + 2;
  t.same(linesOf(bodyOf(['Model X-15 ships']), width2)[0], 'Model', '"X-15" is not broken before its digits');
  // UAX #14 LB20.1: a hyphen opening a word does not end a line ("-ing" stays whole).
  const width3 = defaultFontMetrics.measure('the suffix -', cambria) + 2;
  t.same(linesOf(bodyOf(['the suffix -ing ends it']), width3)[0], 'the suffix', 'a hyphen opening a word stays with it');
});

t.test('table cell lines at the faces\' heights, text boxes at 1.2 × the size', async (t) => {
  const cell = { ...PREVIEW_LAYOUT, lineMetrics: 'face' as const };
  const pitch = (font: { name: string; size_pt: number }, options: typeof cell | typeof PREVIEW_LAYOUT): number => {
    const body: TextBodyInput = { ...bodyOf(['a'], font), paragraphs: [{ runs: [{ text: 'first', font }] }, { runs: [{ text: 'second', font }] }] };
    const lines = layoutText(body, { width_emu: 500 * EMU_PER_PT, height_emu: 500 * EMU_PER_PT }, options).lines;
    return lines[1]!.baseline_pt - lines[0]!.baseline_pt;
  };
  t.ok(Math.abs(pitch(cambria, cell) - 13.8) < 0.01, `Cambria 12 pt in a cell: ${pitch(cambria, cell).toFixed(2)} pt (LibreOffice 13.8)`);
  t.ok(Math.abs(pitch({ name: 'Calibri', size_pt: 12 }, cell) - 12) < 0.01, `Calibri 12 pt in a cell: ${pitch({ name: 'Calibri', size_pt: 12 }, cell).toFixed(2)} pt (LibreOffice 12.0)`);
  t.ok(Math.abs(pitch({ name: 'Arial', size_pt: 12 }, cell) - 13.41) < 0.02, `Arial 12 pt in a cell: ${pitch({ name: 'Arial', size_pt: 12 }, cell).toFixed(2)} pt (LibreOffice 13.41)`);
  t.ok(Math.abs(pitch(cambria, PREVIEW_LAYOUT) - 14.4) < 0.01, 'outside tables the line pitch stays 1.2 × the size');
  // Hebrew cells keep 1.2 × on LibreOffice's page (poi-stress021 slide 38: 16 pt lines 19.2 pt apart).
  const hebrew = (text: string): TextBodyInput => ({ ...bodyOf(['a']), paragraphs: [{ runs: [{ text, font: { name: 'Arial', size_pt: 16 } }], rtl: true }, { runs: [{ text, font: { name: 'Arial', size_pt: 16 } }], rtl: true }] });
  const lines = layoutText(hebrew('סוג הירק'), { width_emu: 500 * EMU_PER_PT, height_emu: 500 * EMU_PER_PT }, cell).lines;
  t.ok(Math.abs(lines[1]!.baseline_pt - lines[0]!.baseline_pt - 19.2) < 0.01, `Hebrew 16 pt in a cell: ${(lines[1]!.baseline_pt - lines[0]!.baseline_pt).toFixed(2)} pt (LibreOffice 19.2)`);
  // An empty paragraph takes its end-of-paragraph font's height too (row 1 of slide 14: 13.8 + 11.06 pt).
  const empty: TextBodyInput = { ...bodyOf(['x']), paragraphs: [{ runs: [{ text: 'Faculty', font: { ...cambria, bold: true } }] }, { runs: [], endFont: { name: 'Calibri', size_pt: 11 } }] };
  const h = layoutText(empty, { width_emu: 500 * EMU_PER_PT, height_emu: 0 }, cell).textHeight_pt;
  t.ok(Math.abs(h - 24.8) < 0.1, `a line of bold Cambria and an empty 11 pt Calibri one: ${h.toFixed(2)} pt (LibreOffice's row 24.86 pt)`);
});
