/**
 * Generated ids (`gen_…`, `tpl_…`, webhook deliveries' `dlv_…`) are ULIDs: 26 Crockford
 * base-32 characters, the first 10 the creation time in ms (so ids sort by creation), the
 * rest 80 random bits, made by the `ulid` package from a pooled CSPRNG buffer.
 */
import t from 'tap';
import { decodeTime, encodeTime } from 'ulid';
import { newId, newUlid } from '../../core/src/domain/ids.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

t.test('the time part is the ULID time codec of the creation time', async (t) => {
  for (const ms of [1, 31, 32, 1_795_856_327_802, 2 ** 48 - 1]) {
    const id = newUlid(ms);
    t.match(id, ULID);
    t.equal(id.slice(0, 10), encodeTime(ms, 10), `time ${ms}`);
    t.equal(decodeTime(id), ms);
  }
  const before = Date.now();
  const id = newId('gen');
  t.match(id, /^gen_[0-9A-HJKMNP-TV-Z]{26}$/);
  t.ok(decodeTime(id.slice(4)) >= before && decodeTime(id.slice(4)) <= Date.now(), 'newId carries the current time');
});

t.test('the random part differs between ids and uses the whole alphabet', async (t) => {
  const seen = new Set<string>();
  const chars = new Map<string, number>();
  // more ids than one pool of random bytes holds, so the pool is refilled on the way
  for (let i = 0; i < 5000; i++) {
    const r = newUlid(1000).slice(10);
    seen.add(r);
    for (const c of r) chars.set(c, (chars.get(c) ?? 0) + 1);
  }
  t.equal(seen.size, 5000, 'no two alike');
  t.equal(chars.size, 32, 'every character appears');
  const counts = [...chars.values()];
  // 80,000 characters: ~2,500 each; a skew (e.g. bits dropped or reused) shows as far more or less
  t.ok(Math.min(...counts) > 2000 && Math.max(...counts) < 3000, `even spread (${Math.min(...counts)}–${Math.max(...counts)})`);
});

t.test('ids sort by creation time', async (t) => {
  const ids = [5, 1_000, 32 ** 5, 1_795_856_327_802].map((ms) => newUlid(ms));
  t.same([...ids].sort(), ids);
});
