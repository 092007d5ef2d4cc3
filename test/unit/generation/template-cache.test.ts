import t from 'tap';
import { TemplateCache } from '../../../core/src/generation/deck/template-cache.js';

t.test('keeps the most recently used templates within the entry bound', async (t) => {
  const c = new TemplateCache<string>(2, 1000, 1000);
  c.set('a', 'A', 10);
  c.set('b', 'B', 10);
  t.equal(c.get('a'), 'A', 'a used again: now the most recent');
  c.set('c', 'C', 10);
  t.equal(c.get('b'), undefined, 'b, the least recently used, went');
  t.equal(c.get('a'), 'A');
  t.equal(c.get('c'), 'C');
  t.equal(c.size, 2);
});

t.test('keeps the total size within the byte bound and refuses an oversized template', async (t) => {
  const c = new TemplateCache<string>(10, 100, 60);
  c.set('a', 'A', 50);
  c.set('b', 'B', 40);
  c.set('c', 'C', 30);
  t.equal(c.get('a'), undefined, 'a went: 50 + 40 + 30 > 100');
  t.equal(c.get('b'), 'B');
  t.equal(c.get('c'), 'C');
  c.set('big', 'X', 61);
  t.equal(c.get('big'), undefined, 'a template over the per-entry bound is not kept');
  t.equal(c.size, 2, 'and evicts nothing');
  c.set('b', 'B2', 40);
  t.equal(c.get('b'), 'B2', 'setting a key again replaces it');
  t.equal(c.size, 2);
});

t.test('keys are content hashes: equal bytes in different arrays share a key', async (t) => {
  const a = Uint8Array.from([1, 2, 3]);
  t.equal(TemplateCache.keyOf(a), TemplateCache.keyOf(Uint8Array.from([1, 2, 3])));
  t.not(TemplateCache.keyOf(a), TemplateCache.keyOf(Uint8Array.from([1, 2, 4])));
});
