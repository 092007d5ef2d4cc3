/**
 * The quality checks ask whether a shape shows text (the reading order's content shapes, the
 * text checks) without joining its whole text (`hasVisibleText`): on every text body of every
 * slide, layout and master of every corpus template it answers what the joined text
 * (`bodyText(…).trim() !== ''`) answers, and the corpus holds bodies of both kinds.
 */
import t from 'tap';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { bodyText, hasVisibleText } from '../../../core/src/ooxml/pml/text.js';
import { corpusFilesFor, needsCorpus } from '../../helpers/corpus.js';
import { openCorpusOrPass } from '../../helpers/corpus-slides.js';

let shown = 0;
let blank = 0;
for (const file of corpusFilesFor(t, 'templates')) {
  t.test(file, async (t) => {
    const pkg = await openCorpusOrPass(t, `templates/${file}`, 'the engine refuses the file');
    if (!pkg) return;
    const model = new PmlModel(pkg);
    let slides;
    try {
      slides = model.slidesInOrder();
    } catch {
      t.pass('the slides cannot be read');
      return;
    }
    const parts = new Set([...slides, ...slides.map((s) => s.layoutPart), ...slides.map((s) => s.master)]);
    const wrong: string[] = [];
    for (const part of parts) {
      for (const top of part.shapes) {
        for (const s of top.walk()) {
          if (!s.txBody) continue;
          const joined = bodyText(s.txBody).trim() !== '';
          if (joined) shown++;
          else blank++;
          if (hasVisibleText(s.txBody) !== joined) wrong.push(`${part.partName} "${s.name}"`);
        }
      }
    }
    t.same(wrong, [], 'shapes whose answer differs from their joined text');
  });
}

t.teardown(() => {
  // both answers occur, or the comparison above proved nothing (without the corpus the tests above skip)
  if (needsCorpus().skip) return;
  if (shown === 0 || blank === 0) throw new Error(`the corpus gave ${shown} text bodies with text and ${blank} without`);
});
