/**
 * Pre-rendered previews (issue 20, item 3: template → every preview): as an analysis starts
 * the preview service lists the template's slides and draws them a few per task, in slide
 * order, and stores each as its task ends; a request for a slide still being drawn — or
 * made while the slides are still being listed — waits for that drawing instead of
 * rendering the slide a second time. Here with a real state and blob store and a CPU pool
 * whose listing and rendering wait on the test.
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
import { PRERENDER_SLIDES_PER_TASK, PreviewService, partPreviewName } from '../../../core/src/services/preview-service.js';
import type { TemplateService } from '../../../core/src/services/template-service.js';
import type { RenderResult, RenderTarget, SlidePartsResult } from '../../../core/src/threads/cpu-task.js';

const SLIDES = 10;
const org = 'acme';

t.test('a request during the pre-render (its listing included) waits for its slide; slides are stored as their tasks end; nothing is drawn twice', async (t) => {
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
  // deck order is not part-name order: slide 1 is slide3.xml (the analysis numbers along the listed parts)
  const parts = Array.from({ length: SLIDES }, (_, i) => `/ppt/slides/slide${((i + 2) % SLIDES) + 1}.xml`);
  const slides = parts.map((part_name, i) => ({ slide_number: i + 1, part_name }));
  await blobs.put(blobKeys.analysisResults(org, template.template_id, 'ana_1'), new TextEncoder().encode(JSON.stringify({ slides, layouts: [] })));
  // each render call waits until the test releases it
  const calls: string[][] = [];
  const releases: Array<() => void> = [];
  let releaseList!: () => void;
  let listings = 0;
  const cpu = {
    slideParts: async (): Promise<SlidePartsResult> => {
      listings++;
      await new Promise<void>((r) => (releaseList = r));
      return { ok: true, part_names: parts };
    },
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

  const prerender = previews.prerender(template, new Uint8Array([1, 2, 3]));
  // the analysis completed while the slides are still being listed: a request now waits for the listing
  const early = previews.templateSlide({ org }, template.template_id, 1);
  await new Promise((r) => setTimeout(r, 20));
  t.equal(calls.length, 0, 'nothing drawn before the slides are listed');
  void previews.prerender(template, new Uint8Array([1, 2, 3]));
  t.equal(listings, 1, 'a second pre-render of the same file while the first lists its slides lists nothing');
  releaseList();
  while (calls.length < Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK)) await new Promise((r) => setTimeout(r, 2));
  t.same(calls.flat(), parts, 'every slide asked once, in slide order');
  t.ok(calls.every((c) => c.length <= PRERENDER_SLIDES_PER_TASK), `at most ${PRERENDER_SLIDES_PER_TASK} slides per task`);
  // a client asks for slide 2 and the last slide while they are being drawn
  const second = previews.templateSlide({ org }, template.template_id, 2);
  const last = previews.templateSlide({ org }, template.template_id, SLIDES);
  await new Promise((r) => setTimeout(r, 20));
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'the requests started no rendering of their own');
  // the first task ends: slide 2 is answered (the last slide's task is still drawing)
  releases[0]!();
  const got = await second;
  t.equal(new TextDecoder().decode(got.png), parts[1], 'slide 2 is the pre-render\'s image of its part');
  t.equal(new TextDecoder().decode((await early).png), parts[0], 'the request made during the listing got the pre-render\'s image');
  let lastDone = false;
  void last.then(() => (lastDone = true));
  await new Promise((r) => setTimeout(r, 20));
  t.notOk(lastDone, 'the last slide waits for its own task');
  // the first task's slides are stored while the other tasks still draw
  const slide1Key = `${blobKeys.templateFolder(org, template.template_id)}previews/${template.file_hash.slice(0, 16)}/${partPreviewName(parts[0]!)}-1280.png`;
  let stored: Uint8Array | undefined;
  for (let i = 0; i < 100 && !stored; i++) {
    stored = await blobs.get(slide1Key);
    if (!stored) await new Promise((r) => setTimeout(r, 5));
  }
  t.equal(stored && new TextDecoder().decode(stored), parts[0], 'slide 1 stored before the last task ended');
  // shutdown waits for the pre-render (the analysis job does not)
  let settled = false;
  const settling = previews.settled().then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 20));
  t.notOk(settled, 'settled() waits while slides are still being drawn');
  for (const release of releases.slice(1)) release();
  await settling;
  t.ok(settled, 'settled() resolves once the pre-render has ended');
  t.equal(new TextDecoder().decode((await last).png), parts[SLIDES - 1]);
  await prerender;
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'nothing was drawn twice');
  // after the pre-render every slide is served from the store
  const again = await previews.templateSlide({ org }, template.template_id, 7);
  t.equal(new TextDecoder().decode(again.png), parts[6]);
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'a later request reads the stored preview');
  // a second analysis of the same file lists its slides again and draws none of them
  const second2 = previews.prerender(template, new Uint8Array([1, 2, 3]));
  while (listings < 2) await new Promise((r) => setTimeout(r, 2));
  releaseList();
  await second2;
  t.equal(calls.length, Math.ceil(SLIDES / PRERENDER_SLIDES_PER_TASK), 'slides stored by an earlier pre-render of the file are not drawn again');
});
