/**
 * Hidden template slides (issue 17, item 6): a slide the template hides (`p:sld show="0"`,
 * ECMA-376 Part 1, §19.3.1.38) that a request names by id is generated visible, because
 * the request asked for it, and the generation says so with a warning
 * (`hidden_template_slide`, once per requested slide, also when its table continues on
 * further pages); visible slides give no such warning. Corpus files with hidden slides:
 * poi-60810-sections-hidden.pptx (slides 4, 21, 22) and aspose-java-handout-30slides.pptx
 * (slides 9, 10).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attrNS, child, descendants, textContent } from '../../../core/src/ooxml/xml.js';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { lintPptx, refereeSkipped } from '../../helpers/referee.js';

const POI = 'incoming/templates/poi-60810-sections-hidden.pptx';
const ASPOSE = 'incoming/templates/aspose-java-handout-30slides.pptx';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-hidden-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const spec = (template: string, n: number, slide_data: SlideData = {}, options: DeckSlideSpec['options'] = {}): DeckSlideSpec => ({
  template_id: template,
  template_slide_id: `${template}#${n}`,
  source: { kind: 'slide', part_name: `/ppt/slides/slide${n}.xml` },
  slide_data,
  options,
});

/** The `show` attribute of each slide of a deck, in presentation order. */
async function shown(bytes: Uint8Array): Promise<Array<string | null>> {
  const pkg = await OpcPackage.open(bytes);
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  return descendants(pkg.getXml(pres), NS.p, 'sldId').map((s) => {
    const part = pkg.rel(pres, attrNS(s, NS.r, 'id')!)!.targetPartName!;
    return pkg.getXml(part).documentElement!.getAttribute('show') || null;
  });
}

t.test('a hidden template slide asked for by id is generated visible, with a hidden_template_slide warning', needsCorpus(POI, ASPOSE), async (t) => {
  const templates = new Map([
    [POI, readFileSync(corpusPath(POI))],
    [ASPOSE, readFileSync(corpusPath(ASPOSE))],
  ]);
  for (const [tpl, n] of [
    [POI, 4],
    [POI, 21],
    [ASPOSE, 9],
  ] as const) {
    const src = await OpcPackage.open(templates.get(tpl)!);
    t.equal(src.getXml(`/ppt/slides/slide${n}.xml`).documentElement!.getAttribute('show'), '0', `${tpl} slide ${n} is hidden in its template`);
  }
  const slides = [spec(POI, 1), spec(POI, 4), spec(POI, 21, { title: 'Asked for' }), spec(ASPOSE, 9), spec(ASPOSE, 8)];
  const r = await buildDeck({ templates, slides });
  t.same(r.errors, []);
  t.equal(r.pages_generated, 5);
  const hidden = r.warnings.filter((w) => w.code === 'hidden_template_slide');
  t.same(
    hidden.map((w) => [w.slide_index, w.template_slide_id]),
    [
      [1, `${POI}#4`],
      [2, `${POI}#21`],
      [3, `${ASPOSE}#9`],
    ],
    'one warning per hidden slide asked for, none for the visible ones',
  );
  t.match(hidden[0]!.message, /\/ppt\/slides\/slide4\.xml is hidden in template .*show="0".*the generated slide is shown/);
  t.same(await shown(r.bytes!), [null, null, null, null, null], 'every generated slide is shown (no show attribute)');
  const pkg = await OpcPackage.open(r.bytes!);
  const app = pkg.getXml('/docProps/app.xml').documentElement!;
  t.equal(textContent(child(app, NS.extendedProperties, 'HiddenSlides')!), '0', 'docProps/app.xml counts no hidden slide');
  const file = join(scratch, 'hidden.pptx');
  writeFileSync(file, r.bytes!);
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
});

t.test('a hidden slide whose table continues on further pages is warned once', needsCorpus(POI), async (t) => {
  // slide 2 of the POI file holds a content placeholder; hidden here as its slides 4, 21 and 22 are
  const pkg = await OpcPackage.open(readFileSync(corpusPath(POI)));
  pkg.getXml('/ppt/slides/slide2.xml').documentElement!.setAttribute('show', '0');
  pkg.markDirty('/ppt/slides/slide2.xml');
  const template = await pkg.toBytes();
  const rows = [{ is_header: true, cells: [{ value: 'Region' }, { value: 'Q1' }] }, ...Array.from({ length: 60 }, (_, i) => ({ cells: [{ value: `Region ${i + 1}` }, { value: String(i) }] }))];
  const r = await buildDeck({ templates: new Map([[POI, template]]), slides: [spec(POI, 2, { title: 'Regions', content: [{ blocks: [{ type: 'table', table: { table: { rows } } }] }] })] });
  t.same(r.errors, []);
  t.ok(r.pages_generated > 1, `the table continues on ${r.pages_generated} pages`);
  t.same(
    r.warnings.filter((w) => w.code === 'hidden_template_slide').map((w) => w.slide_index),
    [0],
    'one warning for the requested slide, not one per page',
  );
  t.same(await shown(r.bytes!), new Array<null>(r.pages_generated).fill(null), 'every page is shown');
});
