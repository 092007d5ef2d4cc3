/**
 * The CPU threads run at a lower scheduling priority than the threads serving requests
 * (issue 20: status GETs while decks build): the pool's threads get the `nice(2)` increment
 * it was given, and no other thread of the process does. Read from /proc (Linux), as an
 * operator would check it with `ps -L -o tid,ni`.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { CpuPool } from '../../../core/src/threads/cpu-pool.js';
import { houseTemplate } from '../../fixtures/house-template.js';
import { loadConfig } from '../../../core/src/config.js';
import { CPU_THREAD_NICE } from '../../../core/src/threads/heap-limits.js';

/** The nice value of every thread of this process, by thread id (field 19 of proc(5)'s stat). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), Number(fields[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

t.test('the pool lowers the priority of its threads only', { skip: !existsSync('/proc/self/task') && 'no /proc here' }, async (t) => {
  const before = threadNices();
  const niceBefore = [...before.values()];
  t.ok(
    niceBefore.every((n) => n === niceBefore[0]),
    'before the pool every thread has the process priority',
  );
  const base = niceBefore[0]!;
  const pool = new CpuPool(2, undefined, true, 7);
  t.teardown(() => pool.close());
  const bytes = await houseTemplate();
  // two tasks at once, so both threads have started and taken a task
  const results = await Promise.all([pool.inspect(bytes), pool.inspect(bytes)]);
  t.ok(
    results.every((r) => r.ok),
    'both threads did their work',
  );
  const after = threadNices();
  // the two threads, and the threads they started since (which inherit their priority)
  const lowered = [...after].filter(([, n]) => n === Math.min(19, base + 7));
  t.ok(lowered.length >= 2, `the two CPU threads run 7 steps lower (${lowered.length} threads in all)`);
  t.ok(
    lowered.every(([tid]) => !before.has(tid)),
    'every lowered thread was started by the pool',
  );
  t.ok(
    [...before.keys()].every((tid) => !after.has(tid) || after.get(tid) === base),
    'every thread there before the pool (this event loop, V8 and libuv helpers) kept its priority',
  );
  t.equal(after.get(process.pid), base, 'the main thread kept its priority');
});

t.test('the service lowers its CPU threads by default; 0 turns it off', async (t) => {
  t.equal(loadConfig({}).threadNice, CPU_THREAD_NICE);
  t.ok(CPU_THREAD_NICE > 0);
  t.equal(loadConfig({ SLIDEWRIGHT_THREAD_NICE: '0' }).threadNice, 0);
  t.throws(() => loadConfig({ SLIDEWRIGHT_THREAD_NICE: '20' }), 'beyond nice(2)’s range is refused');
});
