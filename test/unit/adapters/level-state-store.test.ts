import t from 'tap';
import { LevelStateStore } from '../../../core/src/adapters/level-state-store.js';

t.test('values survive closing and reopening the store', async (t) => {
  const dir = t.testdir();
  const a = await LevelStateStore.open(dir);
  await a.put('tpl:acme:1', { status: 'ready' });
  await a.batch([{ type: 'put', key: 'x:1', value: 1 }, { type: 'put', key: 'x:2', value: 2 }]);
  await a.close();
  const b = await LevelStateStore.open(dir);
  t.same(await b.get('tpl:acme:1'), { status: 'ready' });
  t.same(await b.scan('x:'), [['x:1', 1], ['x:2', 2]]);
  t.equal(await b.get('missing'), undefined);
  await b.close();
});

t.test('concurrent read-modify-write updates never lose an increment', async (t) => {
  const s = await LevelStateStore.open(t.testdir());
  await Promise.all(Array.from({ length: 50 }, () => s.update<number>('n', (cur = 0) => ({ value: cur + 1 }))));
  t.equal(await s.get('n'), 50);
  await s.close();
});

t.test('a transaction reads several keys and writes its operations together', async (t) => {
  const s = await LevelStateStore.open(t.testdir());
  await s.put('a', 1);
  const r = await s.transact<number>(['a', 'b'], ([a, b]) => ({ ops: [{ type: 'put', key: 'b', value: (a as number) + 1 }, { type: 'del', key: 'a' }], result: b === undefined ? 0 : 1 }));
  t.equal(r, 0);
  t.equal(await s.get('a'), undefined);
  t.equal(await s.get('b'), 2);
  await s.close();
});

t.test('prefix scans do not leak into neighbouring prefixes', async (t) => {
  const s = await LevelStateStore.open(t.testdir());
  await s.put('tpl:acme:1', 1);
  await s.put('tpl:acme2:1', 2);
  t.same((await s.scan('tpl:acme:')).map(([k]) => k), ['tpl:acme:1']);
  await s.close();
});

t.test('reads through the cache see every write, and never share objects (issue 20)', async (t) => {
  const dir = t.testdir();
  const s = await LevelStateStore.open(dir);
  await s.put('gen:acme:1', { status: 'pending', errors: [] as string[] });
  const first = await s.get<{ status: string; errors: string[] }>('gen:acme:1');
  first!.errors.push('changed by a caller');
  t.same(await s.get('gen:acme:1'), { status: 'pending', errors: [] }, 'a caller changing what it read changes nothing stored');
  await s.update<{ status: string }>('gen:acme:1', (cur) => ({ value: { ...cur!, status: 'completed' } }));
  t.same(await s.get('gen:acme:1'), { status: 'completed', errors: [] }, 'an update is seen at once');
  await s.batch([{ type: 'del', key: 'gen:acme:1' }, { type: 'put', key: 'gen:acme:2', value: 2 }]);
  t.equal(await s.get('gen:acme:1'), undefined, 'a delete is seen at once');
  t.equal(await s.get('gen:acme:2'), 2);
  await s.del('gen:acme:2');
  t.equal(await s.get('gen:acme:2'), undefined);

  // reads racing writes: whatever order they finish in, the last write wins afterwards
  for (let i = 0; i < 20; i++) {
    await Promise.all([s.get('race'), s.put('race', i), s.get('race'), s.update<number>('race', (cur) => ({ value: (cur ?? 0) + 1000 })), s.get('race')]);
    t.equal(await s.get('race'), i + 1000, `round ${i}`);
  }
  await s.close();
  const again = await LevelStateStore.open(dir);
  t.equal(await again.get('race'), 1019, 'what was read is what was stored');
  await again.close();
});
