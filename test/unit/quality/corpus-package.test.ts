/**
 * PowerPoint safety on the corpus (issue 23, item 2): every corpus template makes a deck
 * of all its slides and layouts that passes the package check with no error (checked the
 * way the generation job checks: build, check, report); the same deck with one slide's
 * layout relationship pointed at a missing part fails it, on that slide.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import type { DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../../core/src/ooxml/opc/constants.js';
import { checkPackage } from '../../../core/src/quality/package.js';
import { packageFindings } from '../../../core/src/quality/report.js';
import { checkedBuild } from '../../../core/src/quality/checked-build.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';

t.test('every corpus deck passes the package check; a broken relationship fails it', needsCorpus(), async (t) => {
  for (const name of corpusFilesOfFor(t, 'templates')) {
    const bytes = readFileSync(corpusPath(name));
    let tpl: OpcPackage;
    try {
      tpl = await OpcPackage.open(bytes);
    } catch {
      continue; // templates the service refuses make no decks
    }
    const slides: DeckSlideSpec[] = [
      ...tpl.partsOfType(CT.slide).map((part): DeckSlideSpec => ({ template_id: name, template_slide_id: part, source: { kind: 'slide', part_name: part }, slide_data: { title: 'Generated title' }, options: { footer_text: 'Footer', show_slide_numbers: true } })),
      ...tpl.partsOfType(CT.slideLayout).map((part): DeckSlideSpec => ({
        template_id: name,
        template_slide_id: part,
        source: { kind: 'layout', part_name: part },
        slide_data: { title: 'Layout title', subtitle: 'Subtitle', notes: 'Speaker notes', content: [{ blocks: [{ type: 'text', text: { bullets: ['one', 'two'] } }] }] },
        options: { footer_text: 'Footer', show_slide_numbers: true },
      })),
    ];
    const r = await checkedBuild({ slides, templates: new Map([[name, bytes]]) });
    if (!r.ok) {
      t.fail(`${name}: ${r.error.message}`);
      continue;
    }
    if (!r.bytes) continue;
    t.same(r.errors.filter((e) => e.code === 'package_invalid'), [], `${name}: no slide fails the package check`);
    t.equal(r.report?.summary.errors, 0, `${name}: the report has no package error`);

    const deck = await OpcPackage.open(r.bytes);
    const slide = deck.partsOfType(CT.slide).sort()[0]!;
    deck.setRels(slide, deck.rels(slide).map((rel) => (rel.type === RT.slideLayout ? { ...rel, targetPartName: '/ppt/slideLayouts/gone.xml' } : rel)));
    const problems = checkPackage(deck);
    const findings = packageFindings(deck, problems);
    t.ok(findings.some((f) => f.code === 'rels' && f.severity === 'error' && f.slide_index >= 0 && /gone\.xml/.test(f.message)), `${name}: the broken layout relationship of ${slide} is an error on its slide`);
  }
});
