/**
 * The quality report on a deck with planted faults (issue 23, item 6): a deck built from the
 * house template with text at 2.5:1 contrast in a font the template does not use, two
 * slides with one title, a picture without alternative text, charts with and without
 * alt_text; then a relationship broken by editing the package. Each fault is found on its
 * slide and shape; a broken slide fails alone and the deck is delivered without it; a
 * broken presentation part fails the build.
 */
import t from 'tap';
import { buildDeck, type BuildDeckInput, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, descendants } from '../../../core/src/ooxml/xml.js';
import { encodeOpaquePng } from '../../../core/src/render/png.js';
import { checkPackage, illegalPartName } from '../../../core/src/quality/package.js';
import { buildReport } from '../../../core/src/quality/report.js';
import { checkedBuild } from '../../../core/src/quality/checked-build.js';
import { contrastRatio } from '../../../core/src/quality/accessibility.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { houseTemplate } from '../../fixtures/house-template.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { diagnose } from '../../../core/src/doctor/diagnose.js';

const house = new Uint8Array(await houseTemplate());
const templates = new Map([['house', house]]);
const TITLE_AND_CONTENT = 2;
const PICTURE_WITH_CAPTION = 6;

function spec(layout: number, data: SlideData): DeckSlideSpec {
  return { template_id: 'house', template_slide_id: `house#${layout}`, source: { kind: 'layout', part_name: `/ppt/slideLayouts/slideLayout${layout}.xml` }, slide_data: data, options: {} };
}

function png(w: number, h: number): string {
  const rgba = new Uint8Array(w * h * 4).fill(200);
  return Buffer.from(encodeOpaquePng(rgba, w, h)).toString('base64');
}

const bullets = (...b: string[]) => ({ type: 'text' as const, text: { bullets: b } });
const chart = (alt_text?: string) => ({ type: 'chart' as const, chart: { chart_type: 'column', title: 'Revenue by quarter', categories: ['Q1', 'Q2', 'Q3', 'Q4'], series: [{ name: '2025', values: [1, 2, 3, 4] }, { name: '2026', values: [2, 3, 4, 5] }], alt_text } });

const SLIDES: DeckSlideSpec[] = [
  // #A3A3A3 on white is 2.5:1; Comic Sans MS is neither in the theme nor in the template
  spec(TITLE_AND_CONTENT, { title: 'Revenue', content: [{ blocks: [bullets('Grew 14 %', 'Margin up')] }], slide_format: { body: { color: 'A3A3A3', font_name: 'Comic Sans MS', font_size: 16 } } }),
  spec(PICTURE_WITH_CAPTION, { title: 'Revenue', content: [{ blocks: [{ type: 'image', image: { data_base64: png(40, 30) } }] }] }),
  spec(TITLE_AND_CONTENT, { title: 'Outlook', content: [{ blocks: [chart()] }] }),
  spec(TITLE_AND_CONTENT, { title: 'Plan', content: [{ blocks: [chart('Revenue rises every quarter')] }] }),
];

const built = await buildDeck({ slides: SLIDES, templates });
t.equal(built.errors.length, 0, JSON.stringify(built.errors));
const deck = await OpcPackage.open(built.bytes!);
const vocabulary = { fonts: new Set(built.vocabulary.fonts), colors: new Set(built.vocabulary.colors) };

t.test('the contrast ratio is WCAG’s', async (t) => {
  t.equal(Math.round(contrastRatio({ r: 0, g: 0, b: 0, a: 1 }, { r: 255, g: 255, b: 255, a: 1 }) * 100) / 100, 21);
  t.equal(Math.round(contrastRatio({ r: 0xa3, g: 0xa3, b: 0xa3, a: 1 }, { r: 255, g: 255, b: 255, a: 1 }) * 10) / 10, 2.5);
});

t.test('a sound deck: no package errors; each planted fault on its slide and shape', async (t) => {
  t.same(checkPackage(deck), [], 'the generated deck passes the package check');
  const report = buildReport({ pkg: deck, slides: built.slides, vocabulary });
  t.same(report.checks, ['package', 'fit', 'accessibility', 'brand']);
  t.equal(report.summary.errors, 0);
  const f = report.findings;
  const at = (code: string) => f.filter((x) => x.code === code);

  const contrast = at('low_contrast').filter((x) => x.severity === 'warning');
  t.equal(contrast.length, 1, 'one low-contrast text shape');
  t.match(contrast[0], { slide_index: 0, category: 'accessibility', details: { text_color: 'A3A3A3', background_color: 'FFFFFF', required: 4.5 } });
  t.equal(contrast[0]!.details.ratio, 2.52);
  const body = SLIDE_SHAPE(0, contrast[0]!.shape_id!);
  t.match(body, /Content|Text/, `the body placeholder (${body})`);

  const font = at('off_theme_font');
  t.equal(font.length, 1);
  t.match(font[0], { slide_index: 0, shape_id: contrast[0]!.shape_id, category: 'brand', details: { fonts: 'Comic Sans MS' } });

  const dup = at('duplicate_title');
  t.equal(dup.length, 1);
  t.match(dup[0], { slide_index: 1, shape_name: /Title/, details: { same_as_slide_index: 0, title: 'Revenue' } });

  const alt = at('missing_alt_text');
  t.equal(alt.length, 1, 'only the picture lacks alternative text: charts get theirs');
  t.match(alt[0], { slide_index: 1, shape_name: /Picture/, severity: 'warning', details: { kind: 'picture' } });
  t.notOk(f.some((x) => x.slide_index === 2 && x.code === 'off_theme_font'), 'no brand finding where the template font is kept');
});

t.test('chart blocks: alt_text is the description; without it one is generated', async (t) => {
  const descrs = (n: number) =>
    descendants(deck.getXml(`/ppt/slides/slide${n}.xml`), NS.p, 'graphicFrame').map((g) => attr(descendants(g, NS.p, 'cNvPr')[0], 'descr'));
  t.same(descrs(3), ['Column chart: Revenue by quarter, 2 series, 4 categories']);
  t.same(descrs(4), ['Revenue rises every quarter']);
});

/** The name of shape `id` on deck slide `index`. */
function SLIDE_SHAPE(index: number, id: number): string {
  const doc = deck.getXml(`/ppt/slides/slide${index + 1}.xml`);
  return attr(descendants(doc, NS.p, 'cNvPr').find((c) => attr(c, 'id') === String(id)), 'name') ?? '';
}

/** The deck with the chart relationship of its third slide pointing at a part that does not exist. */
async function withBrokenChartRel(bytes: Uint8Array): Promise<Uint8Array> {
  const pkg = await OpcPackage.open(bytes);
  const slide = '/ppt/slides/slide3.xml';
  pkg.setRels(slide, pkg.rels(slide).map((r) => (r.type === RT.chart ? { ...r, targetPartName: '/ppt/charts/missing.xml' } : r)));
  return pkg.toBytes();
}

t.test('a broken relationship is an error on its slide', async (t) => {
  const broken = await OpcPackage.open(await withBrokenChartRel(built.bytes!));
  const problems = checkPackage(broken);
  t.ok(problems.some((p) => p.check === 'rels' && p.part === '/ppt/slides/_rels/slide3.xml.rels' && /missing\.xml/.test(p.message)), JSON.stringify(problems));
  const report = buildReport({ pkg: broken, slides: built.slides, vocabulary });
  t.ok(report.summary.errors >= 1);
  t.match(report.findings.find((f) => f.severity === 'error'), { slide_index: 2, category: 'package', code: 'rels', details: { part: '/ppt/slides/_rels/slide3.xml.rels' } });
});

t.test('checked build: the slide owning a broken part fails with the reason, the rest is delivered clean', async (t) => {
  let calls = 0;
  const build = async (input: BuildDeckInput) => {
    const r = await buildDeck(input);
    // only the first build is broken: the rebuild without the slide is what the engine writes
    if (calls++ === 0 && r.bytes) return { ...r, bytes: await withBrokenChartRel(r.bytes) };
    return r;
  };
  const r = await checkedBuild({ slides: SLIDES, templates }, { build });
  if (!r.ok) throw new Error(r.error.message);
  t.equal(calls, 2, 'built again without the broken slide');
  t.match(r.errors, [{ slide_index: 2, template_slide_id: 'house#2', code: 'package_invalid', message: /missing\.xml/ }]);
  t.equal(r.pages_generated, 3);
  t.equal(r.report?.summary.errors, 0);
  const pkg = await OpcPackage.open(r.bytes!);
  t.equal(pkg.partsOfType(CT.slide).length, 3);
  t.same(checkPackage(pkg), []);
  // findings of the delivered deck name the delivered slides: the picture is still slide 1
  t.match(r.report?.findings.find((f) => f.code === 'missing_alt_text'), { slide_index: 1 });
});

t.test('checked build: text that reads like a relationship attribute is text, not a broken reference', async (t) => {
  // XML text may hold `"` and `=` as they are: ` r:id="rId999"` in a run is words, not an attribute
  const words = 'Set the r:id="rId999" attribute and r:embed="x" too';
  const r = await checkedBuild({ slides: [spec(TITLE_AND_CONTENT, { title: words, content: [{ blocks: [bullets(words, 'a > b, r:link="c"')] }] })], templates });
  if (!r.ok) throw new Error(r.error.message);
  t.same(r.errors, [], 'the slide is delivered');
  t.equal(r.report?.summary.errors, 0);
  const pkg = await OpcPackage.open(r.bytes!);
  t.same(checkPackage(pkg), [], 'and the general package check agrees');
  // a real attribute naming no relationship is still found, in the same slide's bytes
  const doc = pkg.getXml('/ppt/slides/slide1.xml');
  descendants(doc, NS.p, 'cNvPr')[1]!.setAttributeNS('http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'r:id', 'rId999');
  pkg.markDirty('/ppt/slides/slide1.xml');
  t.match(checkPackage(await OpcPackage.open(await pkg.toBytes())), [{ part: '/ppt/slides/slide1.xml', check: 'rid', message: /r:id="rId999" names no relationship/ }]);
});

t.test('checked build: a broken part no slide owns fails the build', async (t) => {
  const build = async (input: BuildDeckInput) => {
    const r = await buildDeck(input);
    const pkg = await OpcPackage.open(r.bytes!);
    const pres = pkg.getXml('/ppt/presentation.xml');
    descendants(pres, NS.p, 'sldId')[0]!.setAttribute('id', '7');
    pkg.markDirty('/ppt/presentation.xml');
    return { ...r, bytes: await pkg.toBytes() };
  };
  const r = await checkedBuild({ slides: SLIDES.slice(0, 1), templates }, { build });
  t.equal(r.ok, false);
  if (!r.ok) t.match(r.error, { code: 'package_invalid', message: /presentation\.xml: p:sldId id="7" is outside 256/ });
});

t.test('package rules: content types, shape ids (alternate content may repeat), orphan overrides', async (t) => {
  const pkg = await OpcPackage.open(built.bytes!);
  const slide = '/ppt/slides/slide1.xml';
  const doc = pkg.getXml(slide);
  const ids = descendants(doc, NS.p, 'cNvPr');
  ids[ids.length - 1]!.setAttribute('id', attr(ids[1], 'id')!);
  pkg.markDirty(slide);
  pkg.setBytes('/ppt/media/extra.bin', new Uint8Array([1, 2, 3]));
  const problems = checkPackage(await OpcPackage.open(await pkg.toBytes()));
  t.ok(problems.some((p) => p.check === 'shape-id' && p.part === slide), 'a repeated shape id');
  t.ok(problems.some((p) => p.check === 'content-types' && p.part === '/ppt/media/extra.bin'), 'a part without content type');

  const ac = await OpcPackage.open(built.bytes!);
  const tree = descendants(ac.getXml(slide), NS.p, 'spTree')[0]!;
  const xml = `<mc:AlternateContent xmlns:mc="${NS.mc}" xmlns:p="${NS.p}"><mc:Choice Requires="p14"><p:sp><p:nvSpPr><p:cNvPr id="90" name="A"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/></p:sp></mc:Choice><mc:Fallback><p:sp><p:nvSpPr><p:cNvPr id="90" name="A"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/></p:sp></mc:Fallback></mc:AlternateContent>`;
  const frag = new (await import('@xmldom/xmldom')).DOMParser().parseFromString(xml, 'text/xml').documentElement!;
  tree.appendChild(ac.getXml(slide).importNode(frag as never, true));
  ac.markDirty(slide);
  t.same(checkPackage(await OpcPackage.open(await ac.toBytes())), [], 'the branches of one mc:AlternateContent may share an id');
});

t.test('package rules: layouts, masters and themes — relationship attributes and root elements, read again when their bytes change', async (t) => {
  // the check keeps what it read of a part by its bytes object: a deck whose layout bytes
  // are new (edited here) is read afresh, a clean one after it still passes
  const layout = `/ppt/slideLayouts/slideLayout${TITLE_AND_CONTENT}.xml`;
  const clean = await OpcPackage.open(built.bytes!);
  t.same(checkPackage(clean), [], 'the deck as built passes');
  const pkg = await OpcPackage.open(built.bytes!);
  const cNvPr = descendants(pkg.getXml(layout), NS.p, 'cNvPr')[1]!;
  cNvPr.setAttributeNS(NS.r, 'r:id', 'rId404');
  pkg.markDirty(layout);
  const theme = pkg.partsOfType(CT.theme)[0]!;
  pkg.setBytes(theme, new TextEncoder().encode(`<?xml version="1.0"?><a:notTheme xmlns:a="${NS.a}"/>`), CT.theme);
  const problems = checkPackage(await OpcPackage.open(await pkg.toBytes()));
  t.ok(problems.some((p) => p.part === layout && p.check === 'rid' && /r:id="rId404" names no relationship in \/ppt\/slideLayouts\/_rels\/slideLayout2\.xml\.rels/.test(p.message)), 'a layout attribute naming no relationship');
  t.equal(problems.length, 2, 'and nothing else');
  t.ok(problems.some((p) => p.part === theme && p.check === 'part' && /root element is notTheme, not theme/.test(p.message)), 'a theme whose root is not a:theme');
  t.same(checkPackage(await OpcPackage.open(built.bytes!)), [], 'and the clean deck, read again, still passes');
});

t.test('package rules: part names (OPC §9.1.1.1), the common names and every way to break one', async (t) => {
  for (const legal of ['/ppt/slides/slide1.xml', '/_rels/.rels', '/ppt/slides/_rels/slide12.xml.rels', '/docProps/core.xml', '/ppt/media/image-3_b.png', '/a/b..xml', '/ppt/média/x.png', '/a/x%41.xml'])
    t.equal(illegalPartName(legal), undefined, `${legal} is legal`);
  const illegal: Array<[string, RegExp]> = [
    ['ppt/slides/slide1.xml', /does not start with \//],
    ['/ppt/slides/', /ends with \//],
    ['/ppt//slide1.xml', /empty segment/],
    ['/ppt/./slide1.xml', /"\." segment/],
    ['/ppt/../slide1.xml', /"\.\." segment/],
    ['/ppt/slides/slide1.', /ends with a dot/],
    ['/ppt/slides./slide1.xml', /ends with a dot/],
    ['/ppt/a%2Fb.xml', /percent-encoded/],
    ['/ppt/a%5cb.xml', /percent-encoded/],
    ['/ppt/a\\b.xml', /backslash or control/],
    ['/ppt/a\u0001b.xml', /backslash or control/],
  ];
  for (const [name, why] of illegal) t.match(illegalPartName(name) ?? 'legal', why, `${JSON.stringify(name)} is not legal`);
});

t.test('package rules: a table row short of a cell', async (t) => {
  const r = await buildDeck({ slides: [spec(7, { title: 'Table', content: [{ blocks: [{ type: 'table', table: { table: { rows: [{ cells: [{ value: 'a' }, { value: 'b' }] }, { cells: [{ value: 'c' }, { value: 'd' }] }] } } }] }] })], templates });
  const pkg = await OpcPackage.open(r.bytes!);
  t.same(checkPackage(pkg), []);
  const doc = pkg.getXml('/ppt/slides/slide1.xml');
  const tc = descendants(doc, NS.a, 'tc')[1]!;
  tc.parentNode!.removeChild(tc);
  pkg.markDirty('/ppt/slides/slide1.xml');
  t.match(checkPackage(await OpcPackage.open(await pkg.toBytes())), [{ part: '/ppt/slides/slide1.xml', check: 'table', message: 'table row 1 has 1 cells; the grid has 2 columns' }]);
});

t.test('templates: the doctor runs the accessibility and brand checks over the template slides', async (t) => {
  // the faulty deck, analysed as a template would be
  const pkg = await OpcPackage.open(built.bytes!);
  const results = analyzePresentation({ pkg, options: {}, idFor: (kind, part) => `${kind}:${part}` });
  const q = diagnose(results, pkg).quality;
  t.ok(q, 'results.doctor.quality');
  t.same(q!.checks, ['accessibility', 'brand']);
  t.match(q!.findings.find((f) => f.code === 'low_contrast' && f.severity === 'warning'), { slide_index: 0, details: { text_color: 'A3A3A3' } });
  t.match(q!.findings.find((f) => f.code === 'missing_alt_text'), { slide_index: 1 });
  t.match(q!.findings.find((f) => f.code === 'duplicate_title'), { slide_index: 1 });
  t.match(q!.findings.find((f) => f.code === 'off_theme_font'), { slide_index: 0, details: { fonts: 'Comic Sans MS' } });
  t.equal(q!.summary.warnings, q!.findings.filter((f) => f.severity === 'warning').length);
});
