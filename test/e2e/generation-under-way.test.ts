/**
 * A deck's build does not wait for the disk (issue 20, service speed): the job starts the
 * build in a CPU thread at once and writes the record that marks it under way
 * (`processing`) meanwhile; that write still lands before the final state, so a client
 * sees pending → processing → completed as before, never a completed deck going back.
 *
 * The state store's write of the generation record is held here until the build has
 * started (or, on code that waits for the write first, until a fallback lets it through).
 */
import t from 'tap';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { startTestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import type { StateStore } from '../../core/src/ports/state-store.js';
import type { CpuPool } from '../../core/src/threads/cpu-pool.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** How long a held write waits for a build that never starts before it goes through anyway (the old order: no deadlock). */
const FALLBACK_MS = 3000;

t.test('the build starts while the record marking the job under way is being written', { skip: process.env.SLIDEWRIGHT_TEST_TOPOLOGY === 'distributed' && 'embedded mode only: the test holds its state store' }, async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const house = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const ids = (house.results.slides as Json[]).map((s) => s.slide_id as string);

  const state = svc.core.deps.state as { update: StateStore['update'] };
  const cpu = svc.core.deps.cpu as { build: CpuPool['build'] };
  const update = state.update.bind(state);
  const build = cpu.build.bind(cpu);
  let buildStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (buildStarted = resolve));
  let heldWrites = 0;
  let writeHeldAtBuild: boolean | undefined;
  state.update = (key, fn) => {
    if (!key.startsWith('gen:')) return update(key, fn);
    heldWrites++;
    let timer: NodeJS.Timeout | undefined;
    const release = Promise.race([started, new Promise<void>((resolve) => (timer = setTimeout(resolve, FALLBACK_MS)))]);
    return release.then(() => {
      clearTimeout(timer);
      heldWrites--;
      return update(key, fn);
    });
  };
  cpu.build = (...args) => {
    writeHeldAtBuild ??= heldWrites > 0;
    buildStarted();
    return build(...args);
  };

  const r = await svc.api('/api/v1/presentations/generate-deck', {
    method: 'POST',
    json: { slides: ids.map((id, i) => ({ template_slide_id: id, slide_data: { title: `Slide ${i + 1}`, content: { blocks: [{ type: 'text', text: { bullets: ['a', 'b'] } }] } } })) },
  });
  t.equal(r.status, 202);
  const id = ((await r.json()) as Json).generation_id as string;
  const done = await waitForGeneration(svc, id);
  t.equal(writeHeldAtBuild, true, 'the build started before the record’s write landed');
  t.equal(done.status, 'completed');
  t.equal(done.total_pages_generated, ids.length);
  t.equal(done.progress, 1);
  t.equal(heldWrites, 0, 'every write went through');
  // the write marking the job under way landed before the final state, not after it
  const again = (await (await svc.api(`/api/v1/presentations/${id}/status`)).json()) as Json;
  t.equal(again.status, 'completed', 'still completed afterwards');
  t.equal(again.progress, 1);
  t.equal(again.message, done.message);
});
