/**
 * The slide-level accessibility findings the build makes per slide (issue 23: no title,
 * reading order, and the slide's title) are what the checks find reading the written deck
 * afresh, on decks made from every slide of every corpus template, each slide written twice:
 * the second time the facts of the shapes left to the template (read once per template
 * shape) are reused. So is the whole accessibility and brand part of the report: what the
 * build judged per slide (stand-ins judged once per template shape, filled shapes once per
 * formatting, fitted sizes and box) against the report's own reading of the written deck.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { slideAccessibility } from '../../../core/src/quality/accessibility.js';
import { buildReport } from '../../../core/src/quality/report.js';
import type { QualityFinding } from '../../../core/src/quality/types.js';
import { corpusFilesOfFor, corpusPath } from '../../helpers/corpus.js';

const SLIDE_LEVEL: ReadonlySet<string> = new Set(['missing_title', 'reading_order']);

function key(f: QualityFinding): string {
  return `${f.code} ${f.shape_id ?? '-'} ${f.shape_name} ${f.message} ${JSON.stringify(f.details)}`;
}

for (const file of corpusFilesOfFor(t, 'templates')) {
  t.test(`${file}: the build's slide-level findings are those of the written deck`, async (t) => {
    const bytes = new Uint8Array(readFileSync(corpusPath(file)));
    let parts: string[];
    try {
      parts = (await OpcPackage.open(bytes)).partsOfType(CT.slide);
    } catch {
      t.pass('a template the engine refuses has no slides to write');
      return;
    }
    const spec = (part: string, i: number): DeckSlideSpec => ({
      template_id: file,
      template_slide_id: part,
      source: { kind: 'slide', part_name: part },
      slide_data: { title: `Generated title ${i + 1}`, content: [{ blocks: [{ type: 'text', text: { bullets: ['First point', 'Second point'] } }] }] },
      options: {},
    });
    const slides = [...parts, ...parts].map(spec);
    const r = await buildDeck({ slides, templates: new Map([[file, bytes]]) });
    if (!r.bytes) {
      t.pass(`no deck from this template (${r.errors[0]?.code ?? 'no slides'})`);
      return;
    }
    let model: PmlModel;
    try {
      model = new PmlModel(await OpcPackage.open(r.bytes));
    } catch (e) {
      t.fail(`the written deck cannot be read: ${String(e)}`);
      return;
    }
    const written = model.slidesInOrder();
    let compared = 0;
    for (const rec of r.slides) {
      const slide = written.find((s) => s.partName === rec.part_name);
      if (!slide || !rec.title) continue; // a slide without the build's findings is read from the deck by the report
      const fresh = slideAccessibility(slide.shapes, -1);
      t.same(rec.title, fresh.title, `${rec.part_name}: the same title`);
      t.same(
        (rec.findings ?? []).filter((f) => SLIDE_LEVEL.has(f.code)).map(key),
        fresh.findings.map(key),
        `${rec.part_name}: the same slide-level findings (${fresh.findings.map((f) => f.code).join(', ') || 'none'})`,
      );
      compared++;
    }
    t.ok(compared > 0 || r.slides.length === 0, `${compared} slides compared`);
    // the report from the build's per-slide findings, and from the written deck read afresh
    const vocabulary = { fonts: new Set(r.vocabulary.fonts), colors: new Set(r.vocabulary.colors) };
    const judged = (report: ReturnType<typeof buildReport>): string[] =>
      report.findings
        .filter((f) => f.category === 'accessibility' || f.category === 'brand')
        .map((f) => `${f.slide_index} ${key(f)}`)
        .sort();
    const fromBuild = buildReport({ pkg: await OpcPackage.open(r.bytes), slides: r.slides, vocabulary });
    const afresh = buildReport({ pkg: await OpcPackage.open(r.bytes), slides: r.slides.map((s) => ({ ...s, findings: undefined, title: undefined })), vocabulary });
    t.same(judged(fromBuild), judged(afresh), `the build's accessibility and brand findings are the deck's read afresh (${judged(afresh).length})`);
  });
}
