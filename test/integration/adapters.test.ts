/**
 * One contract per port, run against the embedded adapter and the distributed one on real
 * servers started by this test (NATS with JetStream, Redis, s3rver on free ports): the
 * distributed adapters must behave exactly like the embedded ones.
 */
import t, { type Test } from 'tap';
import { LevelStateStore } from '../../core/src/adapters/level-state-store.js';
import { RedisStateStore } from '../../core/src/adapters/redis-state-store.js';
import { LocalBlobStore } from '../../core/src/adapters/local-blob-store.js';
import { S3BlobStore } from '../../core/src/adapters/s3-blob-store.js';
import { InProcessQueue } from '../../core/src/adapters/in-process-queue.js';
import { JetStreamQueue } from '../../core/src/adapters/jetstream-queue.js';
import { PermanentJobError, type ConsumeOptions, type Job, type JobQueue } from '../../core/src/ports/job-queue.js';
import type { StateStore } from '../../core/src/ports/state-store.js';
import type { BlobStore } from '../../core/src/ports/blob-store.js';
import { ServiceError } from '../../core/src/errors.js';
import { distributedSkipReason, startBackends, type Backends } from '../helpers/distributed.js';

const skip = distributedSkipReason();
if (skip) {
  t.plan(0, skip);
} else {
  let backends: Backends;
  t.before(async () => {
    backends = await startBackends();
  });
  t.teardown(() => backends.close());

  let ns = 0;
  const stateStores: Array<[string, (t: Tap) => Promise<StateStore>]> = [
    ['LevelStateStore', async (t) => LevelStateStore.open(t.testdir())],
    ['RedisStateStore', async () => RedisStateStore.open(backends.redisUrl, { namespace: `t${++ns}:` })],
  ];
  for (const [name, open] of stateStores) t.test(`state store contract: ${name}`, (t) => stateContract(t, open));

  const blobStores: Array<[string, (t: Tap) => Promise<BlobStore>]> = [
    ['LocalBlobStore', async (t) => new LocalBlobStore(t.testdir())],
    ['S3BlobStore', async () => S3BlobStore.open({ endpoint: backends.s3Endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: `contract${++ns}` })],
  ];
  for (const [name, open] of blobStores) t.test(`blob store contract: ${name}`, (t) => blobContract(t, open));

  let prefix = 0;
  const queues: Array<[string, (t: Tap, backoff: (n: number) => number) => Promise<{ queue: JobQueue; reopen: () => Promise<JobQueue>; close: () => Promise<void> }>]> = [
    [
      'InProcessQueue',
      async (t, backoff) => {
        const state = await LevelStateStore.open(t.testdir());
        const queue = new InProcessQueue(state, backoff);
        return { queue, reopen: async () => new InProcessQueue(state, backoff), close: () => state.close() };
      },
    ],
    [
      'JetStreamQueue',
      async (_t, backoff) => {
        const p = `CT${++prefix}`;
        const open = (): Promise<JetStreamQueue> => JetStreamQueue.connect({ servers: backends.natsUrl, prefix: p, ackWaitMs: 2_000, backoffMs: backoff });
        return { queue: await open(), reopen: open, close: async () => undefined };
      },
    ],
  ];
  for (const [name, open] of queues) t.test(`job queue contract: ${name}`, (t) => queueContract(t, open));

  t.test('Redis: two stores on separate connections (two processes) never lose an update', async (t) => {
    const a = await RedisStateStore.open(backends.redisUrl, { namespace: 'race:' });
    const b = await RedisStateStore.open(backends.redisUrl, { namespace: 'race:' });
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).update<number>('n', (cur = 0) => ({ value: cur + 1 }))));
    t.equal(await a.get('n'), 60);
    // A pending-limit style set: 40 concurrent adds capped at 10 across both stores.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).transact<boolean>(['pending:acme'], ([cur]) => {
          const list = (cur as string[] | undefined) ?? [];
          if (list.length >= 10) return { ops: [], result: false };
          return { ops: [{ type: 'put', key: 'pending:acme', value: [...list, `g${i}`] }, { type: 'put', key: `gen:acme:g${i}`, value: { i } }], result: true };
        }),
      ),
    );
    t.equal(results.filter(Boolean).length, 10, 'exactly the limit accepted');
    t.equal(((await a.get<string[]>('pending:acme')) ?? []).length, 10);
    t.equal((await b.scan('gen:acme:')).length, 10, 'one record per accepted entry, none for refused ones');
  });

  t.test('Redis down: calls fail at once with 503-kind errors and succeed again when it returns', async (t) => {
    const s = await RedisStateStore.open(backends.redisUrl, { namespace: 'down:' });
    t.teardown(() => s.close());
    await s.put('k', { v: 1 });
    await backends.redis.stop();
    const started = Date.now();
    const err = await s.get('k').catch((e: unknown) => e);
    t.ok(err instanceof ServiceError && err.kind === 'unavailable', `unavailable error (${String(err)})`);
    t.ok(Date.now() - started < 3_000, 'fails fast instead of hanging');
    await backends.redis.start();
    let back: unknown;
    for (let i = 0; i < 100 && back === undefined; i++) {
      back = await s.get('k').catch(() => undefined);
      if (back === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    t.same(back, { v: 1 }, 'data survived the restart (AOF) and the client reconnected');
  });

  t.test('S3 down: calls fail with 503-kind errors and succeed again when it returns', async (t) => {
    const s = await S3BlobStore.open({ endpoint: backends.s3Endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'downtest' });
    t.teardown(() => s.close());
    await s.put('a/b', new Uint8Array([1, 2, 3]));
    await backends.stopS3();
    const err = await s.get('a/b').catch((e: unknown) => e);
    t.ok(err instanceof ServiceError && err.kind === 'unavailable', `unavailable error (${String(err)})`);
    await backends.startS3();
    t.same(await s.get('a/b'), new Uint8Array([1, 2, 3]));
  });

  t.test('JetStream: NATS down → publish rejects at once; jobs stored before survive a NATS restart', async (t) => {
    const q = await JetStreamQueue.connect({ servers: backends.natsUrl, prefix: 'DOWN', ackWaitMs: 2_000 });
    t.teardown(() => q.close());
    await q.publish(job('before'));
    await backends.nats.stop();
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const err = await q.publish(job('during')).catch((e: unknown) => e);
    t.ok(err instanceof Error, `publish rejected (${String(err)})`);
    t.ok(Date.now() - started < 1_000, 'at once');
    await backends.nats.start();
    const seen: string[] = [];
    const ac = new AbortController();
    const done = deferred();
    q.consume('generation', async (j) => {
      seen.push(j.id);
      done.resolve();
    }, { concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => undefined });
    await withTimeout(done.promise, 30_000, 'job stored before the outage delivered');
    ac.abort();
    t.same(seen, ['before']);
    let published = false;
    for (let i = 0; i < 50 && !published; i++) {
      published = await q.publish(job('after')).then(() => true, () => false);
      if (!published) await new Promise((r) => setTimeout(r, 200));
    }
    t.ok(published, 'publishing works again after reconnecting');
  });

  t.test('JetStream: a job whose last allowed attempt died with its worker is marked failed on the next delivery', async (t) => {
    const a = await JetStreamQueue.connect({ servers: backends.natsUrl, prefix: 'LAST', ackWaitMs: 1_000 });
    const b = await JetStreamQueue.connect({ servers: backends.natsUrl, prefix: 'LAST', ackWaitMs: 1_000 });
    t.teardown(() => b.close());
    const hang = deferred();
    t.teardown(() => hang.resolve());
    const started = deferred();
    const acA = new AbortController();
    a.consume('generation', async () => {
      started.resolve();
      await hang.promise;
    }, { concurrency: 1, maxDeliver: 1, signal: acA.signal, onDeadLetter: async () => void t.fail('a never dead-letters') });
    await a.publish(job('last-1'));
    await withTimeout(started.promise, 10_000, 'a took the job');
    await (a as unknown as { nc: { close(): Promise<void> } }).nc.close(); // killed on its only allowed attempt
    acA.abort();
    const dead = deferred();
    let reason = '';
    let ran = 0;
    const acB = new AbortController();
    b.consume('generation', async () => {
      ran++;
    }, { concurrency: 1, maxDeliver: 1, signal: acB.signal, onDeadLetter: async (j, err) => { reason = `${j.id}: ${err.message}`; dead.resolve(); } });
    await withTimeout(dead.promise, 15_000, 'dead letter');
    acB.abort();
    t.equal(ran, 0, 'not run a second time');
    t.match(reason, /^last-1: gave up after 1 deliveries/);
    let depth = -1;
    for (let i = 0; i < 30 && depth !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      depth = await b.depth('generation');
    }
    t.equal(depth, 0, 'message terminated');
  });

  t.test('JetStream: a job whose worker dies is redelivered to another after the ack wait; a long job with heartbeats is not', async (t) => {
    const a = await JetStreamQueue.connect({ servers: backends.natsUrl, prefix: 'CRASH', ackWaitMs: 1_500 });
    const b = await JetStreamQueue.connect({ servers: backends.natsUrl, prefix: 'CRASH', ackWaitMs: 1_500 });
    t.teardown(() => b.close());
    const runs: Array<{ by: string; id: string; attempt: number }> = [];
    const acA = new AbortController();
    const started = deferred();
    const hang = deferred();
    t.teardown(() => hang.resolve());
    const opts = (signal: AbortSignal): ConsumeOptions => ({ concurrency: 1, maxDeliver: 5, signal, onDeadLetter: async () => undefined });
    a.consume('generation', async (j, ctx) => {
      runs.push({ by: 'a', id: j.id, attempt: ctx.attempt });
      started.resolve();
      await hang.promise; // hangs: the process is about to "die"
    }, opts(acA.signal));
    await a.publish(job('crash-1'));
    await withTimeout(started.promise, 10_000, 'a took the job');
    // "SIGKILL": the connection drops without ack or nak.
    await (a as unknown as { nc: { close(): Promise<void> } }).nc.close();
    acA.abort();
    const finished = deferred();
    const acB = new AbortController();
    b.consume('generation', async (j, ctx) => {
      runs.push({ by: 'b', id: j.id, attempt: ctx.attempt });
      if (j.id === 'long-1') await new Promise((r) => setTimeout(r, 5_000)); // > 3 ack waits
      finished.resolve();
    }, opts(acB.signal));
    await withTimeout(finished.promise, 15_000, 'b finished the job');
    t.same(runs, [{ by: 'a', id: 'crash-1', attempt: 1 }, { by: 'b', id: 'crash-1', attempt: 2 }]);
    runs.length = 0;
    const long = deferred();
    const acC = new AbortController();
    acB.abort();
    const c = await JetStreamQueue.connect({ servers: backends.natsUrl, prefix: 'CRASH', ackWaitMs: 1_500 });
    t.teardown(() => c.close());
    c.consume('generation', async (j, ctx) => {
      runs.push({ by: 'c', id: j.id, attempt: ctx.attempt });
      await new Promise((r) => setTimeout(r, 5_000));
      long.resolve();
    }, opts(acC.signal));
    await c.publish(job('long-1'));
    await withTimeout(long.promise, 20_000, 'long job ran');
    await new Promise((r) => setTimeout(r, 2_500));
    acC.abort();
    t.same(runs, [{ by: 'c', id: 'long-1', attempt: 1 }], 'heartbeats kept the long job with its worker: delivered once');
  });
}

type Tap = Test;

function job(id: string): Job {
  return { id, kind: 'generation', org: 'acme', subject: id };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);
}

async function stateContract(t: Tap, open: (t: Tap) => Promise<StateStore>): Promise<void> {
  const s = await open(t);
  t.teardown(() => s.close());
  t.equal(await s.get('missing'), undefined, 'missing key is undefined');
  await s.put('tpl:acme:1', { status: 'ready', n: 1.5, list: ['a'] });
  t.same(await s.get('tpl:acme:1'), { status: 'ready', n: 1.5, list: ['a'] }, 'put then get');
  await s.put('tpl:acme2:1', 2);
  await s.put('tpl:acme:0', 0);
  t.same((await s.scan('tpl:acme:')).map(([k]) => k), ['tpl:acme:0', 'tpl:acme:1'], 'scan: key order, no neighbouring prefix');
  await s.batch([
    { type: 'put', key: 'x:2', value: 2 },
    { type: 'put', key: 'x:1', value: 1 },
    { type: 'del', key: 'tpl:acme:0' },
  ]);
  t.same(await s.scan('x:'), [['x:1', 1], ['x:2', 2]], 'batch applied');
  t.equal(await s.get('tpl:acme:0'), undefined, 'batch delete applied');
  await s.del('x:1');
  await s.del('never-there');
  t.same(await s.scan('x:'), [['x:2', 2]], 'del removes from scans too');
  await Promise.all(Array.from({ length: 50 }, () => s.update<number>('n', (cur = 0) => ({ value: cur + 1 }))));
  t.equal(await s.get('n'), 50, 'concurrent updates never lose an increment');
  const r = await s.update<number>('n', (cur) => ({ value: undefined, also: [{ type: 'put', key: 'moved', value: cur }] }));
  t.equal(r, undefined);
  t.equal(await s.get('n'), undefined, 'update returning undefined deletes');
  t.equal(await s.get('moved'), 50, 'extra operations applied in the same step');
  await s.put('a', 1);
  const tr = await s.transact<number>(['a', 'b'], ([a, b]) => ({ ops: [{ type: 'put', key: 'b', value: (a as number) + 1 }, { type: 'del', key: 'a' }], result: b === undefined ? 0 : 1 }));
  t.equal(tr, 0, 'transact hands back its result');
  t.equal(await s.get('a'), undefined);
  t.equal(await s.get('b'), 2);
  const none = await s.transact<string>(['b'], () => ({ ops: [], result: 'read only' }));
  t.equal(none, 'read only');
  t.same((await s.scan('')).map(([k]) => k).includes('b'), true, 'empty prefix scans everything');
}

async function blobContract(t: Tap, open: (t: Tap) => Promise<BlobStore>): Promise<void> {
  const s = await open(t);
  t.teardown(() => s.close());
  const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
  await s.put('orgs/acme/templates/tpl_1/source.pptx', bytes);
  t.same(await s.get('orgs/acme/templates/tpl_1/source.pptx'), bytes, 'bytes round-trip');
  t.equal(await s.get('orgs/acme/nothing'), undefined, 'missing key is undefined');
  await s.put('orgs/acme/templates/tpl_1/source.pptx', new Uint8Array([9]));
  t.same(await s.get('orgs/acme/templates/tpl_1/source.pptx'), new Uint8Array([9]), 'put replaces');
  await s.put('orgs/acme/templates/tpl_1/analyses/a.json', new Uint8Array([1]));
  await s.put('orgs/acme/templates/tpl_10/source.pptx', new Uint8Array([2]));
  await s.deletePrefix('orgs/acme/templates/tpl_1/');
  t.equal(await s.get('orgs/acme/templates/tpl_1/analyses/a.json'), undefined, 'deletePrefix removes the folder');
  t.same(await s.get('orgs/acme/templates/tpl_10/source.pptx'), new Uint8Array([2]), 'a neighbouring folder stays');
  await s.delete('orgs/acme/templates/tpl_10/source.pptx');
  await s.delete('orgs/acme/templates/tpl_10/source.pptx');
  t.equal(await s.get('orgs/acme/templates/tpl_10/source.pptx'), undefined, 'delete (twice) is fine');
}

async function queueContract(
  t: Tap,
  open: (t: Tap, backoff: (n: number) => number) => Promise<{ queue: JobQueue; reopen: () => Promise<JobQueue>; close: () => Promise<void> }>,
): Promise<void> {
  t.test('a published job is delivered asynchronously, once, and acked on success', async (t) => {
    const { queue, close } = await open(t, () => 50);
    const seen: string[] = [];
    const done = deferred();
    const ac = new AbortController();
    queue.consume('generation', async (j) => {
      seen.push(j.id);
      done.resolve();
    }, { concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => void t.fail('no dead letter') });
    await queue.publish(job('a'));
    t.same(seen, [], 'not run inline in the publisher');
    await withTimeout(done.promise, 10_000, 'delivery');
    await new Promise((r) => setTimeout(r, 300));
    t.same(seen, ['a'], 'delivered once');
    ac.abort();
    await queue.close();
    await close();
  });

  t.test('a failing job is redelivered with backoff, then dead-lettered after maxDeliver', async (t) => {
    const { queue, close } = await open(t, () => 100);
    const attempts: Array<[number, number]> = [];
    const dead = deferred();
    let deadError: Error | undefined;
    const ac = new AbortController();
    queue.consume('generation', async (_j, ctx) => {
      attempts.push([ctx.attempt, Date.now()]);
      throw new Error('transient');
    }, { concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async (_j, err) => { deadError = err; dead.resolve(); } });
    await queue.publish(job('b'));
    await withTimeout(dead.promise, 15_000, 'dead letter');
    t.same(attempts.map(([n]) => n), [1, 2, 3]);
    t.ok(attempts[1]![1] - attempts[0]![1] >= 90, 'waited for the backoff');
    t.equal(deadError?.message, 'transient');
    await new Promise((r) => setTimeout(r, 500));
    t.equal(attempts.length, 3, 'terminated: no further delivery');
    ac.abort();
    await queue.close();
    await close();
  });

  t.test('a permanent error fails the job at once without retry', async (t) => {
    const { queue, close } = await open(t, () => 50);
    let attempts = 0;
    const dead = deferred();
    const ac = new AbortController();
    queue.consume('analysis', async () => {
      attempts++;
      throw new PermanentJobError('bad template');
    }, { concurrency: 1, maxDeliver: 5, signal: ac.signal, onDeadLetter: async () => dead.resolve() });
    await queue.publish({ ...job('c'), kind: 'analysis' });
    await withTimeout(dead.promise, 10_000, 'dead letter');
    await new Promise((r) => setTimeout(r, 300));
    t.equal(attempts, 1);
    ac.abort();
    await queue.close();
    await close();
  });

  t.test('jobs published with no consumer running are delivered when one starts', async (t) => {
    const { queue, reopen, close } = await open(t, () => 50);
    await queue.publish(job('d1'));
    await queue.publish(job('d2'));
    await queue.close();
    const again = await reopen();
    const seen: string[] = [];
    const done = deferred();
    const ac = new AbortController();
    again.consume('generation', async (j) => {
      seen.push(j.id);
      if (seen.length === 2) done.resolve();
    }, { concurrency: 2, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => undefined });
    await withTimeout(done.promise, 10_000, 'both delivered');
    t.same(seen.sort(), ['d1', 'd2']);
    ac.abort();
    await again.close();
    await close();
  });

  t.test("fair across organizations: one organization's backlog does not hold back another's job", async (t) => {
    const { queue, close } = await open(t, () => 50);
    // org names with a dot cannot be NATS subject tokens as they are: encoded
    const other = 'globex.eu';
    for (let i = 0; i < 12; i++) await queue.publish({ ...job(`fa${i}`), org: 'acme' });
    await queue.publish({ ...job('fb0'), org: other });
    for (let i = 0; i < 4; i++) await queue.publish({ ...job(`fc${i}`), org: 'initech' });
    const order: string[] = [];
    const done = deferred();
    const ac = new AbortController();
    queue.consume('generation', async (j) => {
      order.push(j.org);
      await new Promise((r) => setTimeout(r, 20));
      if (order.length === 17) done.resolve();
    }, { concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => undefined });
    await withTimeout(done.promise, 30_000, 'all 17');
    const firstOther = order.indexOf(other);
    t.ok(firstOther >= 0 && firstOther <= 2, `the other organization's job ran ${firstOther + 1}th of 17, not after acme's 12 (${order.join(' ')})`);
    t.same(order.slice(0, 3).sort(), ['acme', 'globex.eu', 'initech'], 'the first three turns go to three organizations');
    t.same(order.slice(-8), Array(8).fill('acme'), 'acme keeps the slot once the others have nothing left');
    ac.abort();
    await queue.close();
    await close();
  });

  t.test('concurrency bounds how many jobs run at once', async (t) => {
    const { queue, close } = await open(t, () => 50);
    let running = 0;
    let peak = 0;
    let finished = 0;
    const done = deferred();
    const ac = new AbortController();
    queue.consume('generation', async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 100));
      running--;
      if (++finished === 6) done.resolve();
    }, { concurrency: 2, maxDeliver: 1, signal: ac.signal, onDeadLetter: async () => undefined });
    for (let i = 0; i < 6; i++) await queue.publish(job(`e${i}`));
    await withTimeout(done.promise, 10_000, 'all six');
    t.equal(peak, 2);
    ac.abort();
    await queue.close();
    await close();
  });
}
