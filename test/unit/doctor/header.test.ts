/**
 * The header-like placeholder rule (core/src/doctor/header.ts) on made-up layouts: which
 * short text bands are slide headers, and which are column headings, captions, labels or
 * title stand-ins. The corpus side is in doctor.test.ts and
 * test/unit/generation/header-placeholder.test.ts.
 */
import t from 'tap';
import { headerLikePlaceholder, type HeaderRuleShape } from '../../../core/src/doctor/header.js';

/** A 4:3 slide, EMU. */
const SLIDE = { cx: 9_144_000, cy: 6_858_000 };

/** A visible text placeholder at (x, y) with size (cx, cy), EMU; 18 pt text, default insets. */
function ph(type: string, idx: number, x: number, y: number, cx: number, cy: number, more: Partial<HeaderRuleShape> = {}): HeaderRuleShape {
  return { type, idx, kind: 'sp', x, y, cx, cy, fontSizePt: 18, insetTopEmu: 45_720, insetBottomEmu: 45_720, vertical: false, hidden: false, ...more };
}

const TITLE = ph('title', 0, 457_200, 274_638, 8_229_600, 1_143_000);
/** One-line band (0.45 in) between title and content, full width. */
const BAND = ph('body', 10, 457_200, 1_450_000, 8_229_600, 411_480);
const CONTENT = ph('obj', 1, 457_200, 1_950_000, 8_229_600, 4_400_000);
/** The content area further down, below taller bands. */
const LOW = { ...CONTENT, y: 2_700_000, cy: 3_800_000 };

t.test('a one-line band across the slide between title and content is the header', async (t) => {
  const found = headerLikePlaceholder([TITLE, BAND, CONTENT], SLIDE);
  t.equal(found?.shape, BAND);
  t.equal(found?.reason, '1-line body band between title and content, 90% of the slide width');
});

t.test('a band above the title is the header too; the topmost of two is taken', async (t) => {
  const kicker = ph('body', 11, 457_200, 50_000, 8_229_600, 300_000, { fontSizePt: 12 });
  const title = { ...TITLE, y: 400_000 };
  const found = headerLikePlaceholder([title, BAND, CONTENT, kicker], SLIDE);
  t.equal(found?.shape, kicker);
  t.match(found?.reason ?? '', /above the title/);
});

t.test('an obj band with content below is header-like; the content obj is not', async (t) => {
  const objBand = { ...BAND, type: 'obj', idx: 12 };
  t.equal(headerLikePlaceholder([TITLE, objBand, CONTENT], SLIDE)?.shape, objBand);
});

t.test('made-up Comparison: title and two content areas, each with its own heading, has no header', async (t) => {
  const headLeft = ph('body', 1, 457_200, 1_535_113, 4_040_188, 639_762, { fontSizePt: 24 });
  const left = ph('obj', 2, 457_200, 2_174_875, 4_040_188, 3_951_288);
  const headRight = ph('body', 3, 4_645_025, 1_535_113, 4_041_775, 639_762, { fontSizePt: 24 });
  const right = ph('obj', 4, 4_645_025, 2_174_875, 4_041_775, 3_951_288);
  t.equal(headerLikePlaceholder([TITLE, headLeft, left, headRight, right], SLIDE), undefined);
  // the same headings made wide enough to span both columns: a header again (the rule is not by name)
  const wide = { ...headLeft, cx: 8_229_600 };
  t.equal(headerLikePlaceholder([TITLE, wide, left, right], SLIDE)?.shape, wide);
});

t.test('bands that are not headers', async (t) => {
  t.equal(headerLikePlaceholder([BAND, CONTENT], SLIDE), undefined, 'no title: the band stands in for the title');
  t.equal(headerLikePlaceholder([TITLE, BAND], SLIDE), undefined, 'no content area below it');
  const twoLines = { ...BAND, cy: 640_000 };
  t.equal(headerLikePlaceholder([TITLE, twoLines, LOW], SLIDE)?.shape, twoLines, 'two lines at its size: a header');
  t.equal(headerLikePlaceholder([TITLE, { ...BAND, cy: 1_000_000 }, LOW], SLIDE), undefined, 'holds three or more lines at its size (a text area)');
  t.equal(headerLikePlaceholder([TITLE, { ...BAND, cy: 1_100_000, fontSizePt: 60 }, LOW], SLIDE), undefined, 'one line at 60 pt, but over 15 % of the slide tall');
  t.equal(headerLikePlaceholder([TITLE, { ...BAND, cx: 4_000_000 }, CONTENT], SLIDE), undefined, 'narrower than half the slide');
  t.equal(headerLikePlaceholder([TITLE, { ...BAND, vertical: true }, CONTENT], SLIDE), undefined, 'vertical text');
  t.equal(headerLikePlaceholder([TITLE, { ...BAND, hidden: true }, CONTENT], SLIDE), undefined, 'hidden');
  t.equal(headerLikePlaceholder([TITLE, { ...BAND, kind: 'pic' }, CONTENT], SLIDE), undefined, 'not a text shape');
  for (const type of ['title', 'ctrTitle', 'subTitle', 'dt', 'ftr', 'sldNum', 'hdr', 'tbl']) {
    t.equal(headerLikePlaceholder([TITLE, { ...BAND, type }, CONTENT], SLIDE), undefined, `type ${type}`);
  }
  // a caption low on the slide, between a tall quote title and the text below it
  const quoteTitle = ph('title', 0, 457_200, 300_000, 8_229_600, 3_000_000);
  const caption = ph('body', 13, 457_200, 3_360_000, 8_229_600, 540_000, { fontSizePt: 14 });
  const text = ph('body', 2, 457_200, 4_500_000, 8_229_600, 1_500_000);
  t.equal(headerLikePlaceholder([quoteTitle, caption, text], SLIDE), undefined, 'ends below the top 40 % of the slide');
  // a label on a picture: the picture starts above the band's bottom
  const pic = ph('pic', 5, 457_200, 1_400_000, 4_000_000, 4_400_000, { kind: 'pic' });
  t.equal(headerLikePlaceholder([TITLE, BAND, pic, CONTENT], SLIDE), undefined, 'lies across a content area');
  // beside the title, not above or below it
  const beside = { ...BAND, y: 400_000 };
  t.equal(headerLikePlaceholder([TITLE, beside, CONTENT], SLIDE), undefined, 'beside the title');
});
