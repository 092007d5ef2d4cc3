import t from 'tap';
import { BoundedMemo } from '../../core/src/bounded-memo.js';

t.test('remembers answers, empty strings included, and never holds more than its limit', async (t) => {
  const memo = new BoundedMemo<string>(3);
  t.equal(memo.set('a:p', 'a'), 'a', 'set returns the value');
  t.equal(memo.set('p', ''), '');
  t.equal(memo.get('a:p'), 'a');
  t.equal(memo.get('p'), '', 'an empty answer is an answer');
  t.equal(memo.get('b'), undefined);
  memo.set('c', 'c');
  // a fourth key starts afresh: only it is remembered
  memo.set('d', 'd');
  t.same(['a:p', 'p', 'c', 'd'].map((k) => memo.get(k)), [undefined, undefined, undefined, 'd']);
});
