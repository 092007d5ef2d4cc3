/**
 * Template bytes travel into a CPU thread only when it may not have the template open
 * (issue 20): a deck built again from the same template sends its content key alone, and
 * a thread that does not have a template open under the key it was given asks for the
 * bytes, so the deck is still built.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CpuPool, type BuildTemplate } from '../../../core/src/threads/cpu-pool.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { readPresentation } from '../../../core/src/ooxml/pml/presentation.js';
import type { DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { lintPptxBytes, refereeSkipped } from '../../helpers/referee.js';

const TEMPLATE = 'bench/pp_test_slides.pptx';
/** The tests' template (read when a test runs: without the corpus they skip). */
const template = needsCorpus(TEMPLATE).skip ? new Uint8Array() : new Uint8Array(readFileSync(corpusPath(TEMPLATE)));
const hash = createHash('sha256').update(template).digest('hex');

function deck(templateId: string, n: number): DeckSlideSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    template_id: templateId,
    template_slide_id: `s${i}`,
    source: { kind: 'slide', part_name: '/ppt/slides/slide1.xml' },
    slide_data: { title: `Quarter ${i + 1}`, content: [{ blocks: [{ type: 'text', text: { bullets: [`Point ${i}.1`, `Point ${i}.2`] } }] }] },
    options: {},
  }));
}

/** The deck's slide titles as written (a check that the build read the template and filled it). */
async function slideTexts(bytes: Uint8Array): Promise<string[]> {
  const pkg = await OpcPackage.open(bytes);
  return readPresentation(pkg).slides.map((s) => new TextDecoder().decode(pkg.getBytes(s.partName)));
}

t.test('a deck built again from the same template sends no template bytes to the thread', needsCorpus(TEMPLATE), async (t) => {
  const pool = new CpuPool(1);
  t.teardown(() => pool.close());
  let loads = 0;
  const tpl = (): BuildTemplate => ({ id: 'tpl_a', key: hash, bytes: template, load: async () => (loads++, template) });

  const first = await pool.build([tpl()], deck('tpl_a', 3));
  if (!first.ok) throw new Error(first.error.message);
  t.same(pool.templateTraffic(), { tasks: 1, templatesWithBytes: 1, templatesByKey: 0, bytes: template.byteLength, misses: 0 }, 'the first deck carries the bytes');
  t.ok(pool.holdsTemplate(hash), 'the one thread has the template open');

  const second = await pool.build([tpl()], deck('tpl_a', 3));
  if (!second.ok) throw new Error(second.error.message);
  t.same(pool.templateTraffic(), { tasks: 2, templatesWithBytes: 1, templatesByKey: 1, bytes: template.byteLength, misses: 0 }, 'the second deck names the template by key only');
  t.equal(loads, 0, 'the bytes were never read again');
  t.equal(second.pages_generated, 3);
  t.same(second.errors, []);
  const texts = await slideTexts(second.bytes!);
  t.equal(texts.length, 3);
  t.match(texts[2]!, /Quarter 3/, 'filled from the template the thread kept');
  t.match(texts[2]!, /Point 2\.2/);

  // the same deck either way: the kept template is the one the bytes gave
  t.same(await slideTexts(first.bytes!), texts, 'same slides as the build from bytes');

  const lint = await lintPptxBytes(t, second.bytes!, 'second.pptx');
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
});

t.test('a key the thread does not have open is answered with a request for the bytes, and the deck is built', needsCorpus(TEMPLATE), async (t) => {
  const pool = new CpuPool(1);
  t.teardown(() => pool.close());
  let loads = 0;
  const load = async (): Promise<Uint8Array> => (loads++, template);

  // by key only, never sent: the thread has nothing open under it
  const r = await pool.build([{ id: 'tpl_b', key: hash, load }], deck('tpl_b', 2));
  if (!r.ok) throw new Error(r.error.message);
  t.equal(r.pages_generated, 2);
  t.same(r.errors, []);
  t.equal(loads, 1, 'the bytes were read once, on the miss');
  t.same(pool.templateTraffic(), { tasks: 2, templatesWithBytes: 1, templatesByKey: 1, bytes: template.byteLength, misses: 1 });

  // a key that is not the bytes' SHA-256 (a stale record) is never trusted: the bytes go every time, and no miss
  const wrong = 'f'.repeat(64);
  for (let i = 0; i < 2; i++) {
    const again = await pool.build([{ id: 'tpl_c', key: wrong, bytes: template, load }], deck('tpl_c', 1));
    if (!again.ok) throw new Error(again.error.message);
    t.equal(again.pages_generated, 1);
  }
  t.notOk(pool.holdsTemplate(wrong));
  t.same(pool.templateTraffic().misses, 1, 'no further miss');
  t.same(pool.templateTraffic().templatesWithBytes, 3);
});

t.test('a template whose file is gone fails its slides as not provided', needsCorpus(TEMPLATE), async (t) => {
  const pool = new CpuPool(1);
  t.teardown(() => pool.close());
  const r = await pool.build([{ id: 'tpl_d', key: hash, load: async () => undefined }], deck('tpl_d', 2));
  if (!r.ok) throw new Error(r.error.message);
  t.equal(r.pages_generated, 0);
  t.same(
    r.errors.map((e) => e.code),
    ['template_not_found', 'template_not_found'],
  );
});

t.test('after a warm-up that opened a template in every thread, decks from it send no bytes', needsCorpus(TEMPLATE), async (t) => {
  const pool = new CpuPool(2, undefined, true);
  t.teardown(() => pool.close());
  t.notOk(pool.holdsTemplate(hash));
  const w = await pool.warmUp(1, [['recent', template]]);
  t.same(
    w.threads.map((x) => x.templatesOpened),
    [1, 1],
  );
  t.ok(pool.holdsTemplate(hash), 'both threads have it open');
  // two decks at once: one on each thread
  const built = await Promise.all([0, 1].map((i) => pool.build([{ id: `tpl_${i}`, key: hash, load: async () => template }], deck(`tpl_${i}`, 2))));
  for (const b of built) {
    if (!b.ok) throw new Error(b.error.message);
    t.equal(b.pages_generated, 2);
  }
  t.same(pool.templateTraffic(), { tasks: 2, templatesWithBytes: 0, templatesByKey: 2, bytes: 0, misses: 0 });
});

t.test('names a template by key only once every running thread said it keeps it open, not after two sends to one thread', needsCorpus(TEMPLATE), async (t) => {
  const pool = new CpuPool(2, undefined, true);
  t.teardown(() => pool.close());
  const tpl = (): BuildTemplate => ({ id: 'tpl_e', key: hash, bytes: template, load: async () => template });
  // one at a time: Piscina gives each task to the first idle thread, the same one each time
  const sequential: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await pool.build([tpl()], deck('tpl_e', 1));
    if (!r.ok) throw new Error(r.error.message);
    sequential.push(r.thread_id);
  }
  t.equal(new Set(sequential).size, 1, `three builds one after another ran on one thread (${sequential.join(', ')})`);
  t.notOk(pool.holdsTemplate(hash), 'three sends to one thread do not make the other one hold the template');
  t.equal(pool.templateTraffic().templatesByKey, 0, 'so its bytes went every time');

  // two at once: one on each thread, with the bytes
  const pair = await Promise.all([0, 1].map(() => pool.build([tpl()], deck('tpl_e', 1))));
  const pairThreads = pair.map((b) => {
    if (!b.ok) throw new Error(b.error.message);
    return b.thread_id;
  });
  t.equal(new Set([...sequential, ...pairThreads]).size, 2, 'the pair ran on both threads');
  t.ok(pool.holdsTemplate(hash), 'now both threads said they keep it open');
  t.equal(pool.templateTraffic().templatesWithBytes, 5, 'every build so far carried the bytes');

  // two at once again, by key: neither thread misses
  const byKey = await Promise.all([0, 1].map(() => pool.build([tpl()], deck('tpl_e', 1))));
  for (const b of byKey) if (!b.ok) throw new Error(b.error.message);
  const traffic = pool.templateTraffic();
  t.equal(traffic.templatesByKey, 2, 'the two concurrent decks named it by key');
  t.equal(traffic.misses, 0, 'no thread was asked for a template it did not have');
});
