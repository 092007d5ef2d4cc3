/**
 * Spreading a template's previews over the worker-thread pool: contiguous runs, images back
 * in the order asked, the first failure reported.
 */
import t from 'tap';
import { renderAcrossPool, splitRuns } from '../../../core/src/threads/render-split.js';
import type { RenderResult, RenderTarget } from '../../../core/src/threads/cpu-task.js';

t.test('splitRuns cuts contiguous runs of nearly equal length', async (t) => {
  const xs = Array.from({ length: 48 }, (_, i) => i);
  t.same(splitRuns(xs, 2, 4).map((r) => r.length), [24, 24]);
  t.same(splitRuns(xs, 5, 4).map((r) => r.length), [10, 9, 10, 9, 10]);
  t.same(splitRuns(xs, 2, 4).flat(), xs, 'every item once, in order');
  t.same(splitRuns([1, 2, 3], 2, 4), [[1, 2, 3]], 'too few for two runs');
  t.same(splitRuns([], 2, 4), []);
});

t.test('renderAcrossPool keeps the order asked and reports a failure', async (t) => {
  const calls: RenderTarget[][] = [];
  const fake = {
    render: async (_b: Uint8Array, _k: string, slides: RenderTarget[], widthPx: number): Promise<RenderResult> => {
      calls.push(slides);
      // Later runs finish first.
      await new Promise((r) => setTimeout(r, 20 - calls.length * 5));
      return {
        ok: true,
        images: slides.map((s) => ({ part_name: `/ppt/slides/slide${'slide_number' in s ? s.slide_number : 0}.xml`, png: new Uint8Array(), width_px: widthPx, height_px: 1, width_emu: 1, height_emu: 1, font_substitutions: {} })),
      };
    },
  };
  const targets = Array.from({ length: 12 }, (_, i) => ({ slide_number: i + 1 }));
  const r = await renderAcrossPool(fake, new Uint8Array(), 'k', targets, 100, { threads: 3 });
  t.equal(calls.length, 3, 'one task per thread');
  t.ok(r.ok);
  if (r.ok) t.same(r.images.map((i) => i.part_name), targets.map((s) => `/ppt/slides/slide${s.slide_number}.xml`));
  const failing = { render: async (): Promise<RenderResult> => ({ ok: false, error: { code: 'missing_part', message: 'no' } }) };
  const f = await renderAcrossPool(failing, new Uint8Array(), 'k', targets, 100, { threads: 2 });
  t.same(f, { ok: false, error: { code: 'missing_part', message: 'no' } });
});

t.test('renderAcrossPool with slidesPerTask: short runs queued in slide order, each handed over as it ends', async (t) => {
  const calls: number[][] = [];
  const handed: Array<{ first: number; parts: string[] }> = [];
  const fake = {
    render: async (_b: Uint8Array, _k: string, slides: RenderTarget[], widthPx: number): Promise<RenderResult> => {
      const numbers = slides.map((s) => ('slide_number' in s ? s.slide_number : 0));
      calls.push(numbers);
      // the first run is the slowest: the others are handed over before it
      await new Promise((r) => setTimeout(r, numbers[0] === 1 ? 30 : 5));
      return { ok: true, images: numbers.map((n) => ({ part_name: `/ppt/slides/slide${n}.xml`, png: new Uint8Array(), width_px: widthPx, height_px: 1, width_emu: 1, height_emu: 1, font_substitutions: {} })) };
    },
  };
  const targets = Array.from({ length: 10 }, (_, i) => ({ slide_number: i + 1 }));
  const r = await renderAcrossPool(fake, new Uint8Array(), 'k', targets, 100, {
    threads: 2,
    slidesPerTask: 4,
    onRun: (first, images) => {
      handed.push({ first, parts: images.map((i) => i.part_name) });
    },
  });
  t.same(calls, [[1, 2, 3], [4, 5, 6, 7], [8, 9, 10]], 'runs of about four (ten slides: three runs of nearly equal length), asked in slide order');
  t.same(handed.map((h) => h.first).sort((a, b) => a - b), [0, 3, 7], 'each run handed over with the index of its first slide');
  t.not(handed[0]!.first, 0, 'a run that ends first is handed over first');
  for (const h of handed) t.same(h.parts, h.parts.map((_, i) => `/ppt/slides/slide${h.first + i + 1}.xml`), `run at ${h.first}: its images in order`);
  t.ok(r.ok);
  if (r.ok) t.same(r.images.map((i) => i.part_name), targets.map((s) => `/ppt/slides/slide${s.slide_number}.xml`), 'the whole list in the order asked');
});
