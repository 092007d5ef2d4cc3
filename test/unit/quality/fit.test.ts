/**
 * The `fit` check of the quality report (issue 23, item 3): every filled placeholder is
 * listed with the template's size, the size written and the overflow, on the house
 * template and on every template of the corpus bench folder that has a "Title and Content"
 * (or "Title and Text") layout. One deck per template: text that fits, text that must
 * shrink (several lengths, since where shrinking starts depends on the box) and text that
 * overflows even at the minimum size. Sizes are checked against the slide XML as written
 * (the build writes the chosen size on every run, `a:rPr/@sz`).
 */
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { checkedBuild } from '../../../core/src/quality/checked-build.js';
import type { DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, child, children, descendants, type Element } from '../../../core/src/ooxml/xml.js';
import type { QualityFinding } from '../../../core/src/quality/types.js';
import { houseTemplate } from '../../fixtures/house-template.js';
import { corpusFiles, corpusFilesFor, corpusPath } from '../../helpers/corpus.js';

const MIN_PT = 8;
/** Bullet counts that shrink a body somewhere between "one line" and "far too much". */
const SHRINK_COUNTS = [6, 9, 12, 16, 22];
const OVERFLOW_COUNT = 400;

const bulletsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `Point ${i + 1}: revenue, margin and pipeline for the region`);

/** The first layout of the template made for a title and a body (ST_SlideLayoutType `obj` or `tx`, §19.7.15). */
async function titleAndBodyLayout(bytes: Uint8Array): Promise<string | undefined> {
  const pkg = await OpcPackage.open(bytes);
  return pkg
    .partsOfType(CT.slideLayout)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .find((part) => {
      const type = attr(pkg.getXml(part).documentElement!, 'type');
      return type === 'obj' || type === 'tx';
    });
}

/** The `p:sp` of a slide with `p:cNvPr/@id` = id. */
function shapeById(slide: Element, id: number): Element | undefined {
  return descendants(slide, NS.p, 'sp').find((sp) => attr(child(child(sp, NS.p, 'nvSpPr'), NS.p, 'cNvPr'), 'id') === String(id));
}

/** The largest run size written on a shape's runs with text, pt (the "size used"). */
function writtenSizePt(sp: Element): number | undefined {
  let max: number | undefined;
  for (const r of descendants(sp, NS.a, 'r')) {
    if ((child(r, NS.a, 't')?.textContent ?? '') === '') continue;
    const sz = attr(child(r, NS.a, 'rPr'), 'sz');
    if (sz === undefined) return undefined;
    max = Math.max(max ?? 0, Number(sz) / 100);
  }
  return max;
}

/** The placeholder type of a shape (`body`-like when it has none). */
function phType(sp: Element): string | undefined {
  const ph = child(child(child(sp, NS.p, 'nvSpPr'), NS.p, 'nvPr'), NS.p, 'ph');
  return ph ? (attr(ph, 'type') ?? 'obj') : undefined;
}

async function checkTemplate(t: Test, name: string, bytes: Uint8Array): Promise<void> {
  const layout = await titleAndBodyLayout(bytes);
  if (!layout) {
    t.comment(`${name}: no Title and Content layout`);
    return;
  }
  const slide = (title: string, bullets: string[]): DeckSlideSpec => ({
    template_id: name,
    template_slide_id: layout,
    source: { kind: 'layout', part_name: layout },
    slide_data: { title, content: [{ blocks: [{ type: 'text', text: { bullets } }] }] },
    options: { textbox_min_font_size: MIN_PT },
  });
  const slides = [slide('Fits', bulletsOf(1)), ...SHRINK_COUNTS.map((n) => slide(`Shrinks ${n}`, bulletsOf(n))), slide('Overflows', bulletsOf(OVERFLOW_COUNT))];
  const r = await checkedBuild({ slides, templates: new Map([[name, bytes]]) });
  if (!r.ok || !r.report || !r.bytes) {
    t.fail(`${name}: no deck (${JSON.stringify(r.ok ? r.errors : r.error)})`);
    return;
  }
  t.same(r.errors, [], `${name}: every slide built`);
  t.ok(r.report.checks.includes('fit'), `${name}: the fit check ran`);
  const deck = await OpcPackage.open(r.bytes);
  const slideParts = deck.partsOfType(CT.slide).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  t.equal(slideParts.length, slides.length, `${name}: one deck slide per request slide`);
  const fits = r.report.findings.filter((f) => f.category === 'fit');
  const bySlide = (i: number): QualityFinding[] => fits.filter((f) => f.slide_index === i);
  const bodies: QualityFinding[] = [];

  slideParts.forEach((part, i) => {
    const root = deck.getXml(part).documentElement!;
    // every filled placeholder is listed: the title and the body of each slide
    const filled = descendants(root, NS.p, 'sp').filter((sp) => {
      const type = phType(sp);
      const text = descendants(sp, NS.a, 't').map((x) => x.textContent).join('');
      return (type === 'title' || type === 'ctrTitle' || type === 'body' || type === 'obj') && text.trim() !== '';
    });
    const listed = new Set(bySlide(i).map((f) => f.shape_id));
    for (const sp of filled) {
      const id = Number(attr(child(child(sp, NS.p, 'nvSpPr'), NS.p, 'cNvPr'), 'id'));
      t.ok(listed.has(id), `${name} slide ${i}: the filled ${phType(sp)} placeholder ${id} is listed`);
    }
    for (const f of bySlide(i)) {
      const sp = shapeById(root, f.shape_id!);
      if (!sp) {
        t.fail(`${name} slide ${i}: shape ${f.shape_id} of a fit finding is on the slide`);
        continue;
      }
      const { template_size_pt: tpl, size_pt: size, overflow_pt: over } = f.details as { template_size_pt: number; size_pt: number; overflow_pt: number };
      t.equal(size, writtenSizePt(sp), `${name} slide ${i} "${f.shape_name}": size_pt is the size written in the slide XML`);
      t.ok(size <= tpl, `${name} slide ${i} "${f.shape_name}": never above the template's size`);
      t.ok(over >= 0, `${name} slide ${i} "${f.shape_name}": overflow in pt, 0 when it fits`);
      const want = over > 0 ? 'text_overflow' : size < tpl ? 'text_shrunk' : 'text_fits';
      t.equal(f.code, want, `${name} slide ${i} "${f.shape_name}": the code says what the sizes say`);
      t.equal(f.severity, f.code === 'text_overflow' ? 'warning' : 'info', `${name} slide ${i} "${f.shape_name}": only overflow is a warning`);
      if (f.details.role === 'body') bodies.push(f);
    }
  });

  t.same(bySlide(0).filter((f) => f.severity !== 'info'), [], `${name}: a slide that fits has no fit warning`);
  t.ok(bySlide(0).length >= 2 && bySlide(0).every((f) => f.code === 'text_fits'), `${name}: the title and body that fit are listed as text_fits`);
  const base = bodies.find((f) => f.slide_index === 0);
  t.ok(base, `${name}: the body of the fitting slide is listed`);
  if (!base) return;
  for (const b of bodies) t.equal(b.details.template_size_pt, base.details.size_pt, `${name} slide ${b.slide_index}: the template size is the size the same placeholder keeps when its text fits`);
  const shrunk = bodies.filter((b) => b.code === 'text_shrunk');
  t.ok(shrunk.length > 0, `${name}: some body shrank to fit (${bodies.map((b) => `${b.details.size_pt}/${b.details.overflow_pt}`).join(', ')})`);
  const over = bodies.find((b) => b.slide_index === slides.length - 1);
  t.match(over, { code: 'text_overflow', severity: 'warning', details: { size_pt: Math.min(MIN_PT, base.details.size_pt as number) } }, `${name}: ${OVERFLOW_COUNT} bullets overflow at the minimum size`);
  t.ok((over?.details.overflow_pt as number) > 0, `${name}: the overflow is measured`);
  t.ok(
    r.warnings.some((w) => w.code === 'text_overflow' && w.slide_index === slides.length - 1),
    `${name}: the build warned about the same overflow`,
  );
}

t.test('house template: fitting, shrunk and overflowing placeholders, each with its sizes', async (t) => {
  await checkTemplate(t, 'house', new Uint8Array(await houseTemplate()));
});

let tested = 0;
for (const file of corpusFilesFor(t, 'bench')) {
  t.test(`bench/${file}: fitting, shrunk and overflowing placeholders, each with its sizes`, async (t) => {
    const bytes = new Uint8Array(readFileSync(corpusPath(`bench/${file}`)));
    if (await titleAndBodyLayout(bytes)) tested++;
    await checkTemplate(t, file, bytes);
  });
}
t.test('at least one corpus template was checked', async (t) => {
  if (corpusFiles('bench').length) t.ok(tested > 0, `${tested} bench templates with a Title and Content layout`);
});
