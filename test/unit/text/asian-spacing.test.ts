/**
 * East Asian text in previews set as LibreOffice sets it (issue 24 item 4):
 *
 * - the space it puts where East Asian text meets other text (a quarter em after the text
 *   before the change): text fitting measured it, but previews neither broke their lines
 *   as LibreOffice does nor drew the space, so a Korean bullet with "14%" stayed on one line
 *   that LibreOffice wraps, and every word after a change of script stood a quarter em left
 *   of LibreOffice's;
 * - a space between Korean words, which it sets in the East Asian face's stand-in, as wide
 *   as Liberation Sans's (0.278 em) where previews took Carlito's (0.227 em): a Korean line
 *   came out about 1 pt per space shorter than on LibreOffice's page;
 * - punctuation ending a paragraph of East Asian text, which hangs past the line's end
 *   (`hangingPunct`, on in the Office theme) where previews took the whole last word to a
 *   new line.
 */
import t from 'tap';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { ASIAN_SPACING_EM, EAST_ASIAN_SPACE_EM, EMU_PER_PT, PREVIEW_LAYOUT, layoutText } from '../../../core/src/text/layout.js';

const font = { name: 'Calibri', size_pt: 20, eastAsianLang: 'ko-KR' };
const TEXT = '전년 대비 14% 증가했습니다.';
const body = { paragraphs: [{ runs: [{ text: TEXT, font }] }], lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
const measure = (s: string): number => defaultFontMetrics.measure(s, font);
const GAP = ASIAN_SPACING_EM * font.size_pt;
/** How much wider LibreOffice sets a space after Hangul than Carlito's. */
const WIDER = EAST_ASIAN_SPACE_EM * font.size_pt - measure(' ');

t.test('previews draw the text after each change of script past the space', async (t) => {
  const laid = layoutText(body, { width_emu: 1000 * EMU_PER_PT, height_emu: 100 * EMU_PER_PT }, PREVIEW_LAYOUT);
  t.equal(laid.lines.length, 1, 'one line');
  const frags = laid.lines[0]!.fragments;
  t.equal(frags.map((f) => f.text).join(''), TEXT, 'the fragments hold the text once, in order');
  const at = (start: string): number | undefined => frags.find((f) => f.text.startsWith(start))?.x_pt;
  // the spaces after 전년 and 대비 are wider; Hangul → digits (the space goes after the
  // space that follows 대비), digits → Hangul (after a Latin space), Hangul → full stop
  const expected: Array<[string, number]> = [
    ['대비', measure('전년 ') + WIDER],
    ['14%', measure('전년 대비 ') + 2 * WIDER + GAP],
    ['증가', measure('전년 대비 14% ') + 2 * WIDER + 2 * GAP],
    ['.', measure('전년 대비 14% 증가했습니다') + 2 * WIDER + 3 * GAP],
  ];
  for (const [start, x] of expected) {
    const got = at(start);
    t.ok(got !== undefined && Math.abs(got - x) < 0.01, `"${start}" starts at ${got?.toFixed(2)} pt (${x.toFixed(2)} expected)`);
  }
  t.ok(WIDER > 1, `a space after Hangul is ${WIDER.toFixed(2)} pt wider than Carlito's`);
  t.ok(Math.abs(laid.lines[0]!.width_pt - (measure(TEXT) + 2 * WIDER + 3 * GAP)) < 0.01, 'the line is as wide as its text with the spaces');
});

t.test('previews break a line where the spaces make it too long, as LibreOffice does', async (t) => {
  // wide enough for the text, not for the text and its spaces
  const width = measure(TEXT) + GAP;
  const box = { width_emu: width * EMU_PER_PT, height_emu: 100 * EMU_PER_PT };
  t.equal(layoutText(body, box).lines.length, 1, 'without the spaces the text fits one line');
  const laid = layoutText(body, box, PREVIEW_LAYOUT);
  t.equal(laid.lines.length, 2, 'the preview wraps it');
  t.equal(laid.lines[1]!.fragments.map((f) => f.text).join(''), '증가했습니다.', 'the last word goes to the second line');
});

t.test('punctuation ending a paragraph of East Asian text hangs past the line', async (t) => {
  const text = '전년 대비 증가했습니다.';
  const para = (f: typeof font | { name: string; size_pt: number }, hangingPunct?: boolean) => ({ paragraphs: [{ runs: [{ text, font: f }], ...(hangingPunct === undefined ? {} : { hangingPunct }) }], lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 });
  const wide = { width_emu: 1000 * EMU_PER_PT, height_emu: 100 * EMU_PER_PT };
  const full = layoutText(para(font), wide, PREVIEW_LAYOUT).lines[0]!.width_pt;
  // room for all but the full stop and the space before it
  const box = { width_emu: (full - GAP - measure('.') + 0.5) * EMU_PER_PT, height_emu: 100 * EMU_PER_PT };
  const hung = layoutText(para(font), box, PREVIEW_LAYOUT);
  t.equal(hung.lines.length, 1, 'the full stop hangs: one line');
  t.equal(hung.lines[0]!.fragments.map((f) => f.text).join(''), text, 'the line holds the whole paragraph');
  t.equal(hung.overflowX_pt, 0, 'hanging punctuation is no overflow');
  t.equal(layoutText(para(font, false), box, PREVIEW_LAYOUT).lines.length, 2, 'hangingPunct="0": the last word wraps');
  t.equal(layoutText(para({ name: 'Calibri', size_pt: 20 }), box, PREVIEW_LAYOUT).lines.length, 2, 'a run of no East Asian language: the last word wraps');
  t.equal(layoutText(para(font), box).lines.length, 2, 'text fitting does not count on it');
  const narrower = { width_emu: (full - GAP - measure('.') - 1) * EMU_PER_PT, height_emu: 100 * EMU_PER_PT };
  t.equal(layoutText(para(font), narrower, PREVIEW_LAYOUT).lines.length, 2, 'only the punctuation hangs: when the word before it does not fit, it wraps');
});

t.test('a justified line of Korean words still reaches the end of the line', async (t) => {
  const words = Array.from({ length: 12 }, () => '증가했습니다').join(' ');
  const just = { paragraphs: [{ runs: [{ text: words, font }], align: 'just' as const }], lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
  const laid = layoutText(just, { width_emu: 300 * EMU_PER_PT, height_emu: 300 * EMU_PER_PT }, PREVIEW_LAYOUT);
  t.ok(laid.lines.length > 1, `${laid.lines.length} lines`);
  const frags = laid.lines[0]!.fragments.filter((f) => f.text.trim() !== '');
  const end = frags[frags.length - 1]!.x_pt + frags[frags.length - 1]!.width_pt;
  t.ok(Math.abs(end - 300) < 0.01, `the first line ends at ${end.toFixed(2)} pt of 300`);
});
