/**
 * CPU thread warm-up (issue 20): the synthetic template is a presentation the engine
 * accepts, its deck builds without errors, and a pool's warm-up reaches every thread.
 */
import t from 'tap';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { checkPresentationPackage, readPresentation } from '../../../core/src/ooxml/pml/presentation.js';
import { buildDeck } from '../../../core/src/generation/deck/build-deck.js';
import { RENDER_WARM_UP_ROUNDS, RENDER_WARM_UP_SLIDES, warmUpSlides, warmUpTemplate, warmUpThread, WARM_UP_SLIDES } from '../../../core/src/threads/warm-up.js';
import { CpuPool } from '../../../core/src/threads/cpu-pool.js';

t.test('the warm-up template is a two-slide presentation and its deck builds cleanly', async (t) => {
  const bytes = await warmUpTemplate();
  t.same(await warmUpTemplate(), bytes, 'deterministic');
  const pkg = await OpcPackage.open(bytes);
  checkPresentationPackage(pkg);
  t.equal(readPresentation(pkg).slides.length, 2);

  const built = await buildDeck({ slides: warmUpSlides('w', 4), templates: new Map([['w', bytes]]), reuseOpenedTemplates: false });
  t.same(built.errors, [], 'no slide failed');
  t.equal(built.pages_generated, 4);
  const deck = await OpcPackage.open(built.bytes!);
  const slides = readPresentation(deck).slides;
  t.equal(slides.length, 4);
  const text = new TextDecoder().decode(deck.getBytes(slides[1]!.partName));
  t.match(text, /Warm-up table 2/, 'the title was filled');
  t.match(text, /1\.3\.3/, 'the table was filled (4×4: the template had 3×3)');

  const r = await warmUpThread(2);
  t.equal(r.roundsMs.length, 2);
  t.equal(r.pages, WARM_UP_SLIDES);
  t.equal(r.previewsDrawn, RENDER_WARM_UP_SLIDES * RENDER_WARM_UP_ROUNDS, 'the deck\'s first slides were drawn as previews');
  t.equal(r.analyzedSlides, WARM_UP_SLIDES, 'and the deck was analysed as a template');
});

t.test('a pool warms each of its threads once', async (t) => {
  const pool = new CpuPool(2, undefined, true);
  t.teardown(() => pool.close());
  const r = await pool.warmUp(1);
  t.equal(r.threads.length, 2);
  t.equal(new Set(r.threads.map((x) => x.threadId)).size, 2, 'two different threads');
  for (const x of r.threads) t.equal(x.roundsMs.length, 1);
  for (const x of r.threads) t.ok(x.renderMs > 0 && x.analysisMs > 0, `thread ${x.threadId} drew previews (${Math.round(x.renderMs)} ms) and analysed (${Math.round(x.analysisMs)} ms)`);
});
