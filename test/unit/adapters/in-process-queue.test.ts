import t from 'tap';
import { LevelStateStore } from '../../../core/src/adapters/level-state-store.js';
import { InProcessQueue } from '../../../core/src/adapters/in-process-queue.js';
import { PermanentJobError, type Job } from '../../../core/src/ports/job-queue.js';

const job = (id: string): Job => ({ id, kind: 'generation', org: 'acme', subject: id });

async function open(t: { testdir(): string }, dir = t.testdir()) {
  const state = await LevelStateStore.open(dir);
  return { state, dir };
}

/** Polls the queue's records until none is left (the ack follows the handler's promise); at most 10 s. */
async function drained(state: LevelStateStore): Promise<unknown[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    const left = await state.scan('queue:');
    if (!left.length || Date.now() > end) return left;
    await new Promise((r) => setTimeout(r, 10));
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

t.test('a published job is delivered asynchronously, once, and acked on success', async (t) => {
  const { state } = await open(t);
  const queue = new InProcessQueue(state, () => 10);
  const seen: string[] = [];
  const done = deferred();
  const ac = new AbortController();
  queue.consume('generation', async (j) => { seen.push(j.id); done.resolve(); }, { concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => { t.fail('no dead letter'); } });
  await queue.publish(job('a'));
  t.same(seen, [], 'not run inline in the publisher');
  await done.promise;
  t.same(await drained(state), [], 'acked job is gone');
  t.same(seen, ['a'], 'delivered once');
  ac.abort();
  await queue.close();
  await state.close();
});

t.test('a failing job is redelivered with backoff, then dead-lettered after maxDeliver', async (t) => {
  const { state } = await open(t);
  const queue = new InProcessQueue(state, () => 10);
  const attempts: number[] = [];
  const dead = deferred();
  let deadError: Error | undefined;
  const ac = new AbortController();
  queue.consume('generation', async (_j, ctx) => { attempts.push(ctx.attempt); throw new Error('transient'); }, {
    concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async (_j, err) => { deadError = err; dead.resolve(); },
  });
  await queue.publish(job('b'));
  await dead.promise;
  t.same(attempts, [1, 2, 3]);
  t.equal(deadError?.message, 'transient');
  t.same(await drained(state), [], 'terminated job is gone');
  ac.abort();
  await queue.close();
  await state.close();
});

t.test('a permanent error fails the job at once without retry', async (t) => {
  const { state } = await open(t);
  const queue = new InProcessQueue(state, () => 10);
  let attempts = 0;
  const dead = deferred();
  const ac = new AbortController();
  queue.consume('generation', async () => { attempts++; throw new PermanentJobError('bad template'); }, {
    concurrency: 1, maxDeliver: 5, signal: ac.signal, onDeadLetter: async () => dead.resolve(),
  });
  await queue.publish(job('c'));
  await dead.promise;
  t.equal(attempts, 1);
  ac.abort();
  await queue.close();
  await state.close();
});

t.test('jobs queued when the process stops are delivered after a restart', async (t) => {
  const dir = t.testdir();
  {
    const { state } = await open(t, dir);
    const queue = new InProcessQueue(state);
    await queue.publish(job('d1'));
    await queue.publish(job('d2'));
    await queue.close();
    await state.close();
  }
  const { state } = await open(t, dir);
  const queue = new InProcessQueue(state);
  const seen: string[] = [];
  const done = deferred();
  const ac = new AbortController();
  queue.consume('generation', async (j) => { seen.push(j.id); if (seen.length === 2) done.resolve(); }, { concurrency: 2, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => undefined });
  await done.promise;
  t.same(seen.sort(), ['d1', 'd2']);
  ac.abort();
  await queue.close();
  await state.close();
});

t.test('concurrency bounds how many jobs run at once', async (t) => {
  const { state } = await open(t);
  const queue = new InProcessQueue(state);
  let running = 0;
  let peak = 0;
  let finished = 0;
  const done = deferred();
  const ac = new AbortController();
  queue.consume('generation', async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    if (++finished === 6) done.resolve();
  }, { concurrency: 2, maxDeliver: 1, signal: ac.signal, onDeadLetter: async () => undefined });
  for (let i = 0; i < 6; i++) await queue.publish(job(`e${i}`));
  await done.promise;
  t.equal(peak, 2);
  ac.abort();
  await queue.close();
  await state.close();
});

t.test('a staged job is enqueued by the caller\'s own atomic write, together with its record, and delivered after it', async (t) => {
  const { state } = await open(t);
  const queue = new InProcessQueue(state, () => 10);
  const seen: string[] = [];
  const done = deferred();
  const ac = new AbortController();
  queue.consume('generation', async (j) => { seen.push(j.id); done.resolve(); }, { concurrency: 1, maxDeliver: 3, signal: ac.signal, onDeadLetter: async () => { t.fail('no dead letter'); } });
  // a staged job whose write never happens (the caller refused) is never queued
  queue.stage(job('refused'));
  const staged = queue.stage(job('s'));
  t.same(await state.scan('queue:'), [], 'staging writes nothing');
  await state.update<string[]>('pending:acme', (cur = []) => ({ value: [...cur, 's'], also: [{ type: 'put', key: 'acme:gen:s', value: { status: 'pending' } }, ...staged.ops] }));
  t.equal((await state.scan('queue:')).length, 1, 'the job is stored by the same write as the record');
  staged.written();
  await done.promise;
  t.same(await drained(state), [], 'acked job is gone');
  t.same(seen, ['s'], 'only the written job is delivered, once');
  ac.abort();
  await queue.close();
  await state.close();
});
