/**
 * Issue 17, items 5 and 6, over REST: a template of picture bombs
 * (test/fixtures/oversized-pictures-template.ts) is accepted and analyzed, its doctor report
 * lists every place that shows one (`results.doctor.oversized_pictures`), its previews are
 * drawn, and a deck generated from it carries `image_too_large` warnings and no picture past
 * the limits (lint and XSD clean). A hidden template slide asked for by id comes out shown,
 * with `hidden_template_slide`.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { RT } from '../../core/src/ooxml/opc/constants.js';
import { exceedsPixelLimits, readPictureHeader } from '../../core/src/ooxml/image-header.js';
import { oversizedPicturesTemplate } from '../fixtures/oversized-pictures-template.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { startTestService } from '../helpers/service.js';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { lintPptx, refereeSkipped, xsdCheck } from '../helpers/referee.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-e2e-pictures-'));
const svc = await startTestService();
t.teardown(async () => {
  await svc.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function generate(json: unknown): Promise<Json> {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json });
  if (r.status !== 202) throw new Error(`generate-deck: ${r.status} ${await r.text()}`);
  return waitForGeneration(svc, ((await r.json()) as Json).generation_id as string);
}

t.test('picture bombs in a template: a doctor finding each, previews drawn, decks warned and within the limits', async (t) => {
  const file = join(scratch, 'bombs.pptx');
  writeFileSync(file, await oversizedPicturesTemplate());
  const { templateId, results } = await uploadAndAnalyze(svc, file);
  const findings = results.doctor.oversized_pictures as Json[];
  t.equal(findings.length, 6, 'six places show a picture past the limits');
  const slides = results.slides as Json[];
  t.match(
    findings.find((f) => f.usage === 'picture' && f.part_kind === 'slide'),
    { image_part_name: '/ppt/media/bomb-slide.gif', format: 'gif', width_px: 65_535, height_px: 65_535, limit_pixels: 50_000_000, limit_side_px: 32_767, generation: 'replaced', slide_id: slides[0]!.slide_id, shape_id: 3, shape_name: 'Bomb GIF' },
    "the slide's GIF bomb, named by the slide's id",
  );
  t.match(findings.find((f) => f.part_kind === 'layout'), { slide_id: (results.layouts as Json[])[0]!.slide_id, usage: 'picture' }, "the layout's, by the layout's id");

  const preview = await svc.api(`/api/v1/templates/${templateId}/slides/1/preview?width=320`);
  t.equal(preview.status, 200, 'the slide with bombs is previewed');
  t.equal(preview.headers.get('content-type'), 'image/png');

  const st = await generate({ slides: slides.map((s) => ({ template_slide_id: s.slide_id, slide_data: {} })) });
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  const warned = (st.warnings as Json[]).filter((w) => w.code === 'image_too_large');
  t.same(
    warned.map((w) => w.slide_index),
    [0, 0, 0, 0, 1],
    'one warning per picture, on the slide that brought it',
  );
  t.ok(warned.every((w) => w.template_slide_id === slides[w.slide_index as number]!.slide_id && /replaced by a plain grey/.test(w.message as string)), `structured warnings: ${warned[0]?.message}`);
  t.match(warned[0]!.message, new RegExp(`of template ${templateId}`));
  const dl = await fetch(st.download_url as string);
  t.equal(dl.status, 200);
  const bytes = new Uint8Array(await dl.arrayBuffer());
  const pkg = await OpcPackage.open(bytes);
  for (const name of pkg.partNames()) {
    if (name.endsWith('.rels')) continue;
    for (const r of pkg.rels(name)) {
      if (r.type !== RT.image) continue;
      const h = readPictureHeader(pkg.getBytes(r.targetPartName!));
      t.ok(h.width > 0 && !exceedsPixelLimits(h.width, h.height), `${name} → ${r.targetPartName}: ${h.width} × ${h.height}`);
    }
  }
  const out = join(scratch, 'deck.pptx');
  writeFileSync(out, bytes);
  const lint = await lintPptx(out);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
  const xsd = await xsdCheck(out);
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output);
  const deckPreview = await svc.api(`/api/v1/presentations/${st.generation_id}/slides/1/preview?width=320`);
  t.equal(deckPreview.status, 200, "the deck's first slide is previewed");
});

const HIDDEN = 'incoming/templates/poi-60810-sections-hidden.pptx';

t.test('a hidden template slide asked for by id comes out shown, with hidden_template_slide', needsCorpus(HIDDEN), async (t) => {
  const { results } = await uploadAndAnalyze(svc, corpusPath(HIDDEN));
  const slides = results.slides as Json[];
  const hidden = slides.filter((s) => s.hidden);
  t.equal(hidden.length, 3, 'slides 4, 21 and 22 are hidden');
  t.equal(results.presentation.hidden_slide_count, 3);
  const visible = slides.find((s) => !s.hidden)!;
  const st = await generate({ slides: [{ template_slide_id: visible.slide_id, slide_data: {} }, { template_slide_id: hidden[0]!.slide_id, slide_data: { title: 'Was hidden' } }] });
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  t.match(
    (st.warnings as Json[]).filter((w) => w.code === 'hidden_template_slide'),
    [{ slide_index: 1, template_slide_id: hidden[0]!.slide_id, message: /is hidden in template .*the generated slide is shown/ }],
  );
  const pkg = await OpcPackage.open(new Uint8Array(await (await fetch(st.download_url as string)).arrayBuffer()));
  const shown = pkg.partsOfType('application/vnd.openxmlformats-officedocument.presentationml.slide+xml').map((p) => pkg.getXml(p).documentElement!.getAttribute('show') || null);
  t.same(shown, [null, null], 'both slides are shown');
});

