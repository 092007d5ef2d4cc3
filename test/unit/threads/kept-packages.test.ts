/**
 * A CPU thread keeps the packages it opened for rendering within a count and a byte
 * budget (its opened templates, ooxml/pml/opened-templates.ts). Found with the hostile
 * catalog (test/hostile): a thread kept its last four packages whatever their size, so
 * large but valid templates stayed resident after their previews were drawn.
 */
import t from 'tap';
import run, { keptPackages } from '../../../core/src/threads/cpu-task.js';
import { hostileSample } from '../../hostile/samples.js';
import { OPENED_TEMPLATES_ENTRIES } from '../../../core/src/ooxml/pml/opened-templates.js';

async function render(bytes: Uint8Array, cacheKey: string): Promise<void> {
  const r = await run({ op: 'render', bytes, cacheKey, slides: [{ slide_number: 1 }], widthPx: 64 });
  if (!('images' in r)) throw new Error(`render failed: ${JSON.stringify(r)}`);
}

t.test('a package over the byte budget is rendered but not kept; the last small ones are, as many as the bound', async (t) => {
  const small = hostileSample('ok-minimal.pptx').build();
  await render(small, 'small-0');
  await render(hostileSample('rels-flood.pptx').build(), 'large'); // 235 MiB of parts once inflated
  await new Promise((r) => setImmediate(r));
  t.same(keptPackages(), ['small-0'], 'the large package is not kept, the small one stays');
  const n = OPENED_TEMPLATES_ENTRIES;
  for (let i = 1; i <= n + 1; i++) await render(small, `small-${i}`);
  await new Promise((r) => setImmediate(r));
  t.same(keptPackages(), Array.from({ length: n }, (_, i) => `small-${i + 2}`), `${n} kept, least recently used dropped first`);
});
