/**
 * A thread's opened templates (issue 19, item 3): one registry holds the packages, reading
 * models and derived facts that readers once cached each beside themselves, within one
 * bound.
 */
import t from 'tap';
import { FactKind, OpenedTemplates } from '../../../../core/src/ooxml/pml/opened-templates.js';
import { miniDeck } from './mini-deck.js';

t.test('the facts of a package object are made once and shared: one reading model, one fact of each kind', async (t) => {
  const registry = new OpenedTemplates();
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  let made = 0;
  const kind = new FactKind('counted', () => ++made);
  t.equal(registry.modelOf(pkg), registry.factsOf(pkg).model, 'one reading model per package object');
  t.equal(registry.factsOf(pkg).of(kind), 1);
  t.equal(registry.factsOf(pkg).of(kind), 1, 'made once');
  const other = await miniDeck({ slides: [{ tree: '' }] });
  t.not(registry.modelOf(other), registry.modelOf(pkg), 'another package object has its own');
});

t.test('kept templates are bounded by count and bytes, least recently used first; an oversized one is not kept', async (t) => {
  const registry = new OpenedTemplates(3, 100, 60);
  const slot = registry.slot<string>('test');
  slot.set('a', 'A', 10);
  slot.set('b', 'B', 10);
  slot.set('c', 'C', 10);
  t.equal(slot.get('a'), 'A', 'a used again');
  slot.set('d', 'D', 10);
  t.equal(slot.get('b'), undefined, 'b, least recently used, dropped for the count');
  t.same([slot.get('a'), slot.get('c'), slot.get('d')], ['A', 'C', 'D']);
  slot.set('big', 'BIG', 61);
  t.equal(slot.get('big'), undefined, 'over the per-template bound: not kept');
  slot.set('e', 'E', 50);
  slot.set('f', 'F', 50);
  t.equal(slot.get('e'), 'E');
  t.equal(slot.get('f'), 'F');
  t.same([slot.get('a'), slot.get('c'), slot.get('d')], [undefined, undefined, undefined], 'older ones dropped for the bytes');
});

t.test('what several consumers keep of one template counts once against the bounds, together', async (t) => {
  const registry = new OpenedTemplates(8, 100, 60);
  const first = registry.slot<string>('first');
  const second = registry.slot<string>('second');
  first.set('k', 'one', 40);
  second.set('k', 'two', 15);
  t.same([first.get('k'), second.get('k')], ['one', 'two'], 'one entry holds both');
  second.set('k', 'three', 25);
  t.equal(second.get('k'), undefined, 'the entry would pass the per-template bound: that value is not kept');
  t.equal(first.get('k'), 'one', 'the other consumer keeps its value');
});

t.test('a package opened for reading is shared by later requests for the same key, and a failure is not kept', async (t) => {
  const registry = new OpenedTemplates();
  const deck = await miniDeck({ slides: [{ tree: '' }] });
  const bytes = await deck.toBytes();
  const one = await registry.readPackage('key', bytes);
  t.equal(await registry.readPackage('key', bytes), one, 'the same package object');
  t.same(registry.readPackageKeys(), ['key']);
  await t.rejects(registry.readPackage('bad', new Uint8Array([1, 2, 3])));
  await new Promise((r) => setImmediate(r));
  t.same(registry.readPackageKeys(), ['key'], 'the failed open is not kept');
});

t.test('content keys name the bytes: equal bytes in different arrays share a key, other bytes do not', async (t) => {
  t.equal(OpenedTemplates.keyOf(Uint8Array.from([1, 2, 3])), OpenedTemplates.keyOf(Uint8Array.from([1, 2, 3])));
  t.not(OpenedTemplates.keyOf(Uint8Array.from([1, 2, 3])), OpenedTemplates.keyOf(Uint8Array.from([1, 2, 4])));
  t.match(OpenedTemplates.keyOf(new Uint8Array()), /^[0-9a-f]{64}$/, 'a SHA-256, hex');
});
