/**
 * The CPU threads take tasks in the order they were sent. Found measuring the preview path
 * (issue 20): Piscina, by default, moves a task it cannot place (every thread busy) to the
 * back of its queue each time a thread frees, so a template's pre-render finished its first
 * slides among its last and a client showing the slide strip from slide 1 waited for
 * nearly all of them.
 * Work no client waits for yet (the pre-render) waits behind the rest, in a lane of its own.
 */
import t from 'tap';
import { CpuPool } from '../../../core/src/threads/cpu-pool.js';
import { hostileSample } from '../../hostile/samples.js';

t.test('tasks queued behind a busy thread start in the order they were sent', async (t) => {
  const pool = new CpuPool(1);
  t.teardown(() => pool.close());
  const bytes = hostileSample('ok-minimal.pptx').build();
  const finished: number[] = [];
  // one thread: tasks end in the order they start
  await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      pool.slideParts(bytes, `order-${i}`).then((r) => {
        if (!r.ok) throw new Error(r.error.message);
        finished.push(i);
      }),
    ),
  );
  t.same(finished, [0, 1, 2, 3, 4, 5, 6, 7]);
});

t.test('a package\'s slide parts come in deck order, as analysis numbers them', async (t) => {
  const pool = new CpuPool(1);
  t.teardown(() => pool.close());
  const r = await pool.slideParts(hostileSample('ok-minimal.pptx').build(), 'parts');
  t.ok(r.ok);
  if (r.ok) t.same(r.part_names, ['/ppt/slides/slide1.xml']);
});

t.test('work a client waits for goes before background work queued earlier; each lane keeps its order', async (t) => {
  const pool = new CpuPool(1);
  t.teardown(() => pool.close());
  const bytes = hostileSample('ok-minimal.pptx').build();
  const finished: string[] = [];
  const task = (name: string, lane: 'foreground' | 'background'): Promise<void> =>
    pool.slideParts(bytes, `lanes-${name}`, lane).then((r) => {
      if (!r.ok) throw new Error(r.error.message);
      finished.push(name);
    });
  // the first task occupies the thread; a pre-render's tasks queue; then a deck's task arrives
  const all = [task('first', 'foreground'), task('bg1', 'background'), task('bg2', 'background'), task('bg3', 'background'), task('fg1', 'foreground'), task('fg2', 'foreground')];
  await Promise.all(all);
  t.same(finished, ['first', 'fg1', 'fg2', 'bg1', 'bg2', 'bg3']);
});
