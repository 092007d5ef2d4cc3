/**
 * One reading model per package object (issue 19, "one reading model"): generation's opened
 * template and the quality report read the thread registry's model of the package
 * (ooxml/pml/opened-templates.ts) instead of building one beside it, so a template kept
 * between builds holds one model, not two, for every corpus template.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { corpusFilesOfFor, corpusPath } from '../../helpers/corpus.js';
import { DeckTemplates, modelOf } from '../../../core/src/generation/deck/templates.js';
import { TEMPLATE_PICTURE_LIMITS } from '../../../core/src/generation/deck/picture-limits.js';
import { SlideFailure } from '../../../core/src/generation/deck/slide-failure.js';
import { openedTemplates } from '../../../core/src/ooxml/pml/opened-templates.js';
import type { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { buildReport } from '../../../core/src/quality/report.js';

/** The registry's model of `pkg`, or undefined when the package has none (the engine refuses it). */
function registryModel(pkg: Parameters<typeof openedTemplates.modelOf>[0]): PmlModel | undefined {
  try {
    return openedTemplates.modelOf(pkg);
  } catch {
    return undefined;
  }
}

for (const file of corpusFilesOfFor(t, 'templates')) {
  t.test(file, async (t) => {
    const bytes = new Uint8Array(readFileSync(corpusPath(file)));
    const first = new DeckTemplates(new Map([['a', bytes]]), true, TEMPLATE_PICTURE_LIMITS);
    let src;
    try {
      src = await first.get('a');
    } catch (err) {
      t.ok(err instanceof SlideFailure, 'generation refuses the template as a slide failure');
      return;
    }
    const model = registryModel(src.pkg);
    // identity, not deep equality: a second model would read the same
    t.ok(modelOf(src) === model, "generation reads the registry's model of the template's package object (none when it has none)");

    // a later build of the same bytes on this thread reuses the kept template, and its model with it
    const again = await new DeckTemplates(new Map([['b', bytes]]), true, TEMPLATE_PICTURE_LIMITS).get('b');
    if (again.pkg === src.pkg) t.ok(modelOf(again) === model, 'the kept template reads the same one model');
    else t.pass('the template is larger than what is kept: opened again (its own package, its own model)');

    // the report on that package reads that model too: count its reads of the slides
    const report = (): ReturnType<typeof buildReport> => buildReport({ pkg: src.pkg });
    if (!model) {
      t.notOk(report().checks.includes('accessibility'), 'no model: the report runs without the checks that read one');
      return;
    }
    const slidesInOrder = model.slidesInOrder.bind(model);
    let reads = 0;
    model.slidesInOrder = () => {
      reads++;
      return slidesInOrder();
    };
    try {
      t.ok(report().checks.includes('accessibility'), 'the report checks the slides');
      t.equal(reads, 1, "the report read the registry's model, not one of its own");
    } finally {
      // the model is the registry's: leave it as it was for later tests on this package
      delete (model as Partial<PmlModel>).slidesInOrder;
    }
  });
}
