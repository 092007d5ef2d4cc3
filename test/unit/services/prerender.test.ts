/**
 * Pre-rendered previews (issue 20, item 3: template → every preview): after an analysis the
 * preview service draws the template's slides a few per task, in slide order, and stores
 * each as its task ends; a request for a slide still being drawn waits for that drawing
 * instead of rendering the slide a second time. Here with a real state and blob store and a
 * CPU pool whose rendering waits on the test.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LevelStateStore } from '../../../core/src/adapters/level-state-store.js';
import { LocalBlobStore } from '../../../core/src/adapters/local-blob-store.js';
import { loadConfig } from '../../../core/src/config.js';
import { blobKeys, keys, type TemplateRecord } from '../../../core/src/domain/records.js';
import type { ServiceDeps } from '../../../core/src/services/deps.js';
import { PRERENDER_SLIDES_PER_TASK, PreviewService } from '../../../core/src/services/preview-service.js';
import type { TemplateService } from '../../../core/src/services/template-service.js';
import type { RenderResult, RenderTarget } from '../../../core/src/threads/cpu-task.js';

const SLIDES = 10;
const org = 'acme';

t.test('a request during the pre-render waits for its slide; slides are stored as their tasks end; nothing is drawn twice', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'prerender-'));
  const state = await LevelStateStore.open(join(dir, 'state'));
  const blobs = new LocalBlobStore(join(dir, 'blobs'));
  t.teardown(async () => {
    await state.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const template = { template_id: 'tpl_1', org_name: org, file_hash: 'ab'.repeat(32), blob_key: 'orgs/acme/tpl_1.pptx', completed_analysis_id: 'ana_1' } as TemplateRecord;
  await state.put(keys.template(org, template.template_id), template);
  await blobs.put(template.blob_key!, new Uint8Array([1, 2, 3]));
  const slides = Array.from({ length: SLIDES }, (_, i) => ({ slide_number: i + 1, part_name: `/ppt/slides/slide${i + 1}.xml` }));
  await blobs.put(blobKeys.analysisResults(org, template.template_id, 'ana_1'), new TextEncoder().encode(JSON.stringify({ slides, layouts: [] })));
  // each render call waits until the test releases it
  const calls: string[][] = [];
  const releases: Array<() => void> = [];
  const cpu = {
    render: async (_b: Uint8Array, _k: string, targets: RenderTarget[], widthPx: number): Promise<RenderResult> => {
      const parts = targets.map((s) => ('part_name' in s ? s.part_name : ''));
      calls.push(parts);
      await new Promise<void>((r) => releases.push(r));
      return { ok: true, images: parts.map((p) => ({ part_name: p, png: new TextEncoder().encode(p), width_px: widthPx, height_px: 720, width_emu: 12192000, height_emu: 6858000, font_substitutions: {} })) };
    },
  };
  const config = loadConfig({ SLIDEWRIGHT_DATA_DIR: dir });
  const deps = { config, state, blobs, cpu, log: pino({ level: 'silent' }) } as unknown as ServiceDeps;
  const templates = { requireRecord: async () => template } as unknown as TemplateService;
  const previews = new PreviewService(deps, templates);

  const prerender = previews.prerender(org, template.template_id);
  while (calls.length < Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK)) await new Promise((r) => setTimeout(r, 2));
  t.same(calls.flat(), slides.map((s) => s.part_name), 'every slide asked once, in slide order');
  t.ok(calls.every((c) => c.length <= PRERENDER_SLIDES_PER_TASK), `at most ${PRERENDER_SLIDES_PER_TASK} slides per task`);
  // a client asks for slide 2 and the last slide while they are being drawn
  const second = previews.templateSlide({ org }, template.template_id, 2);
  const last = previews.templateSlide({ org }, template.template_id, SLIDES);
  await new Promise((r) => setTimeout(r, 20));
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'the requests started no rendering of their own');
  // the first task ends: slide 2 is answered (the last slide's task is still drawing)
  releases[0]!();
  const got = await second;
  t.equal(new TextDecoder().decode(got.png), '/ppt/slides/slide2.xml', 'slide 2 is the pre-render\'s image');
  let lastDone = false;
  void last.then(() => (lastDone = true));
  await new Promise((r) => setTimeout(r, 20));
  t.notOk(lastDone, 'the last slide waits for its own task');
  // the first task's slides are stored while the other tasks still draw
  const slide1Key = `${blobKeys.templateFolder(org, template.template_id)}previews/${template.file_hash.slice(0, 16)}/1-1280.png`;
  let stored: Uint8Array | undefined;
  for (let i = 0; i < 100 && !stored; i++) {
    stored = await blobs.get(slide1Key);
    if (!stored) await new Promise((r) => setTimeout(r, 5));
  }
  t.equal(stored && new TextDecoder().decode(stored), '/ppt/slides/slide1.xml', 'slide 1 stored before the last task ended');
  for (const release of releases.slice(1)) release();
  t.equal(new TextDecoder().decode((await last).png), `/ppt/slides/slide${SLIDES}.xml`);
  await prerender;
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'nothing was drawn twice');
  // after the pre-render every slide is served from the store
  const again = await previews.templateSlide({ org }, template.template_id, 7);
  t.equal(new TextDecoder().decode(again.png), '/ppt/slides/slide7.xml');
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'a later request reads the stored preview');
});
