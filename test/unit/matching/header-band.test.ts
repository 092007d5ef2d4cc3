/**
 * Matching scores `slide_data.header` where generation puts it (issue 21, item 5): a `hdr`
 * placeholder, else the layout's header band — the doctor's area with role `header`
 * (core/src/doctor/header.ts) — which is then kept for the header, so it is not also room
 * for a column or the subtitle. Made-up layouts on a 4:3 slide; the corpus side is
 * header-band-corpus.test.ts.
 */
import t from 'tap';
import type { AnalyzedShape } from '../../../core/src/analysis/types.js';
import { capacityOf, inferRole } from '../../../core/src/doctor/index.js';
import type { DoctorEntry } from '../../../core/src/doctor/types.js';
import { rankCandidates, scoreCandidate, signature, type MatchCandidate, type MatchItem } from '../../../core/src/matching/index.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { bullets } from './fixtures.js';

/** A 4:3 slide, EMU. */
const SLIDE = { width: 9_144_000, height: 6_858_000 };

/** A visible placeholder `p:sp` with a box in EMU and nothing else resolved (18 pt text, default insets). */
function ph(id: number, type: string, idx: number, x: number, y: number, cx: number, cy: number): AnalyzedShape {
  return {
    shape_id: id, name: `${type} ${id}`, kind: 'sp', placeholder: { type, idx, orient: 'horz', size: 'full', inherited_from: null },
    x, y, cx, cy, rotation: 0, flip_h: false, flip_v: false, hidden: false, text: '', paragraphs: [], font: null, text_frame: null,
    paragraph_format: null, graphic: null, table: null, chart: null, media: null, image_part_name: null, ole_prog_id: null, geometry: null, children: [],
  };
}

const TITLE = ph(2, 'title', 0, 457_200, 274_638, 8_229_600, 1_143_000);
/** One-line body band (0.45 in) between title and content, full width: the header band. */
const BAND = ph(3, 'body', 10, 457_200, 1_450_000, 8_229_600, 411_480);
const CONTENT = ph(4, 'obj', 1, 457_200, 1_950_000, 8_229_600, 4_400_000);
const FTR = ph(5, 'ftr', 11, 3_124_200, 6_356_350, 2_895_600, 365_125);
const HDR = ph(6, 'hdr', 12, 457_200, 50_000, 4_000_000, 300_000);

/** A layout candidate with the doctor's entry computed as `diagnose` does (slide size known). */
function layout(name: string, index: number, shapes: AnalyzedShape[], inherited: string[] = []): MatchCandidate {
  const r = inferRole(shapes, SLIDE, 'cust', name);
  const doctor: DoctorEntry = { slide_id: `layout${index}`, index, name, role: r.role, role_reasons: r.reasons, capacity: capacityOf(shapes, 'Calibri', undefined, SLIDE), unfillable: [] };
  return { template_id: 'tpl', slide_id: `layout${index}`, slide_index: index, layout_name: name, shapes, doctor, inherited_footer_types: inherited };
}

const withBand = layout('Title, Header and Content', 0, [TITLE, BAND, CONTENT], ['ftr']);
const noBand = layout('Title and Content', 1, [TITLE, CONTENT], ['ftr']);
const bandAndHdr = layout('Title, Header and Content (hdr)', 2, [TITLE, BAND, CONTENT, FTR, HDR]);
/** The band over a text body (no obj/tbl): the body takes the columns, as in generation. */
const bandOverBody = layout('Title, Header and Text', 3, [TITLE, BAND, { ...CONTENT, placeholder: { ...CONTENT.placeholder!, type: 'body' } }], ['ftr']);

const HEADER: SlideData = { title: 'Revenue grew', header: 'Quarterly review', content: [bullets(3)] };

function placed(m: MatchItem, what: string): string | undefined {
  return m.reasons.find((r) => r.startsWith(`${what} → `))?.slice(what.length + 3);
}

t.test('the doctor marks the band (the premise of the other tests)', async (t) => {
  t.equal(withBand.doctor!.capacity.areas.find((a) => a.role === 'header')?.shape_id, BAND.shape_id);
  t.equal(noBand.doctor!.capacity.areas.some((a) => a.role === 'header'), false);
});

t.test('the slide header is met by the header band when there is no hdr placeholder', async (t) => {
  const sig = signature(HEADER);
  t.equal(sig.header, true);
  const m = scoreCandidate(sig, withBand);
  t.equal(placed(m, 'header'), 'header band');
  t.equal(m.matched_counts.footer, 1, 'the header counts as matched under footer');
  t.equal(m.overflow_counts.footer, 0);
  t.match(placed(m, 'column 1 (3 bullets)') ?? '', /^content:/, 'the bullets go to the content area');
  t.equal(m.is_exact_match, true, 'nothing lost, nothing left empty');
  t.same(m.unused_counts, { title: 0, subtitle: 0, body: 0, footer: 0, table: 0, chart: 0, textbox: 0, object: 0, custom_field: 0 });

  const n = scoreCandidate(sig, noBand);
  t.equal(n.overflow_counts.footer, 1, 'without band or hdr the header has no place');
  t.match(n.reasons.join('\n'), /no place for: header/);
  t.notOk(n.reasons.some((r) => r.startsWith('header → ')), 'the ftr placeholder is not a place for the header');

  const ranked = rankCandidates(sig, [noBand, withBand], 0);
  t.equal(ranked[0]?.layout_name, withBand.layout_name, 'the layout that takes the header ranks first');
  t.ok(ranked[0]!.score > ranked[1]!.score);
});

t.test('a hdr placeholder takes the header first; the band is then an ordinary body placeholder', async (t) => {
  const m = scoreCandidate(signature(HEADER), bandAndHdr);
  t.equal(placed(m, 'header'), 'header');
  t.equal(m.matched_counts.footer, 1);
  t.equal(m.unused_counts.body, 1, 'the band is left empty, as a body placeholder');
  // the same with hdr only offered by the master
  const inherited = layout('inherited hdr', 4, [TITLE, BAND, CONTENT], ['ftr', 'hdr']);
  t.equal(placed(scoreCandidate(signature(HEADER), inherited), 'header'), 'header (from layout)');
});

t.test('the band kept for the header is not room for columns or the subtitle', async (t) => {
  const two = scoreCandidate(signature({ ...HEADER, content: [bullets(3), bullets(2)] }), withBand);
  t.equal(placed(two, 'header'), 'header band');
  t.equal(two.matched_counts.body, 1, 'one column in the content area');
  t.equal(two.overflow_counts.body, 1, 'the other has no place: the band is taken');
  t.notOk(two.reasons.some((r) => /^column \d .*→ (body|header band)/.test(r)), 'no column in the band');

  const body = scoreCandidate(signature(HEADER), bandOverBody);
  t.equal(placed(body, 'header'), 'header band');
  t.match(placed(body, 'column 1 (3 bullets)') ?? '', /^body \(substitute\)/, 'the column goes to the text body, not the band');
  t.equal(body.is_exact_match, true);

  const sub = scoreCandidate(signature({ ...HEADER, subtitle: 'Second half' }), withBand);
  t.equal(placed(sub, 'header'), 'header band');
  t.equal(sub.overflow_counts.subtitle, 1, 'the subtitle does not take the band');
});

t.test('without a header the band is open to content, as in generation', async (t) => {
  const m = scoreCandidate(signature({ title: 'T', subtitle: 'Second half', content: [bullets(3)] }), withBand);
  t.match(placed(m, 'subtitle') ?? '', /^body/, 'the subtitle may use the band');
  t.equal(m.matched_counts.subtitle, 1);
  const empty = scoreCandidate(signature({ title: 'T', content: [bullets(3)] }), withBand);
  t.equal(empty.unused_counts.body, 1, 'left empty it counts as an unused body placeholder');
  t.equal(empty.unused_counts.footer, 0);
});

t.test('a footer alone still goes to the footer placeholder; footer and header both find a place', async (t) => {
  const f = scoreCandidate(signature({ title: 'T', footer: 'ACME', content: [bullets(3)] }), withBand);
  t.equal(placed(f, 'footer'), 'footer (from layout)');
  t.equal(f.unused_counts.body, 1, 'no header: the band is an empty body placeholder');
  const both = scoreCandidate(signature({ ...HEADER, footer: 'ACME' }), withBand);
  t.equal(placed(both, 'footer'), 'footer (from layout)');
  t.equal(placed(both, 'header'), 'header band');
  t.equal(both.matched_counts.footer, 2);
  t.equal(both.is_exact_match, true);
});

t.test('a candidate without a doctor entry gets the band from the same rule', async (t) => {
  const bare: MatchCandidate = { ...withBand, doctor: undefined };
  t.equal(placed(scoreCandidate(signature(HEADER), bare), 'header'), 'header band');
});
