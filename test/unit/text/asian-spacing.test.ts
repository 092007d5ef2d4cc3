/**
 * The space LibreOffice puts where East Asian text meets other text (a quarter em after the
 * text before the change, issue 24 item 4) in previews: text fitting measured it, but
 * previews neither broke their lines as LibreOffice does nor drew the space, so a Korean
 * bullet with "14%" stayed on one line that LibreOffice wraps, and every word after a
 * change of script stood a quarter em left of LibreOffice's.
 */
import t from 'tap';
import { defaultFontMetrics } from '../../../core/src/text/font-metrics.js';
import { ASIAN_SPACING_EM, EMU_PER_PT, PREVIEW_LAYOUT, layoutText } from '../../../core/src/text/layout.js';

const font = { name: 'Calibri', size_pt: 20 };
const TEXT = '전년 대비 14% 증가했습니다.';
const body = { paragraphs: [{ runs: [{ text: TEXT, font }] }], lIns_emu: 0, rIns_emu: 0, tIns_emu: 0, bIns_emu: 0 };
const measure = (s: string): number => defaultFontMetrics.measure(s, font);
const GAP = ASIAN_SPACING_EM * font.size_pt;

t.test('previews draw the text after each change of script past the space', async (t) => {
  const laid = layoutText(body, { width_emu: 1000 * EMU_PER_PT, height_emu: 100 * EMU_PER_PT }, PREVIEW_LAYOUT);
  t.equal(laid.lines.length, 1, 'one line');
  const frags = laid.lines[0]!.fragments;
  t.equal(frags.map((f) => f.text).join(''), TEXT, 'the fragments hold the text once, in order');
  const at = (start: string): number | undefined => frags.find((f) => f.text.startsWith(start))?.x_pt;
  // Hangul → digits (the space goes after the space that follows 대비), digits → Hangul, Hangul → full stop
  const expected: Array<[string, number]> = [
    ['14%', measure('전년 대비 ') + GAP],
    ['증가', measure('전년 대비 14% ') + 2 * GAP],
    ['.', measure('전년 대비 14% 증가했습니다') + 3 * GAP],
  ];
  for (const [start, x] of expected) {
    const got = at(start);
    t.ok(got !== undefined && Math.abs(got - x) < 0.01, `"${start}" starts at ${got?.toFixed(2)} pt (${x.toFixed(2)} expected)`);
  }
  t.ok(Math.abs(laid.lines[0]!.width_pt - (measure(TEXT) + 3 * GAP)) < 0.01, 'the line is three spaces wider than its text');
});

t.test('previews break a line where the spaces make it too long, as LibreOffice does', async (t) => {
  // wide enough for the text, not for the text and its three spaces
  const width = measure(TEXT) + GAP;
  const box = { width_emu: width * EMU_PER_PT, height_emu: 100 * EMU_PER_PT };
  t.equal(layoutText(body, box).lines.length, 1, 'without the spaces the text fits one line');
  const laid = layoutText(body, box, PREVIEW_LAYOUT);
  t.equal(laid.lines.length, 2, 'the preview wraps it');
  t.equal(laid.lines[1]!.fragments.map((f) => f.text).join(''), '증가했습니다.', 'the last word goes to the second line');
});
