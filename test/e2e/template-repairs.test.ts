/**
 * Templates PowerPoint repairs, through REST (issue 17, item 2): the damaged template
 * (test/fixtures/damaged-template.ts: dangling picture, image, hyperlink and chart ids,
 * relationships to missing parts, parts without a content type, repeated shape ids) is
 * uploaded and analyzed; the analysis completes and lists every repair in
 * `results.repairs` and in the doctor's report; every slide's preview is a 200 PNG; a deck
 * generated from all its slides completes and its file passes the structural lint and the
 * XSD check.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService } from '../helpers/service.js';
import { analyze, uploadTemplate, waitForGeneration } from '../helpers/flows.js';
import { lintPptx, refereeSkipped, xsdCheck } from '../helpers/referee.js';
import { DAMAGED_TEMPLATE_REPAIRS, damagedTemplateBytes } from '../fixtures/damaged-template.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
const key = (r: { part: string; element: string; action: string }): string => `${r.action} ${r.element} ${r.part}`;

t.test('a template with faults PowerPoint repairs: analysis lists the repairs, previews draw, the deck lints clean', async (t) => {
  const svc = await startTestService();
  t.teardown(() => svc.close());
  const dir = mkdtempSync(join(tmpdir(), 'sw-repairs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const template = join(dir, 'damaged.pptx');
  writeFileSync(template, await damagedTemplateBytes());

  const up = await uploadTemplate(svc, template);
  t.equal(up.status, 200, 'the upload is accepted');
  const status = await analyze(svc, up.templateId);
  t.equal(status.status, 'completed', `the analysis completes${status.error ? ` (${JSON.stringify(status.error)})` : ''}`);
  const analysis = (await (await svc.api(`/api/v1/templates/${up.templateId}/analysis`)).json()) as Json;
  const results = analysis.results as Json;
  const repairs = results.repairs as Json[];
  t.same(repairs.map((r) => key(r as never)).sort(), DAMAGED_TEMPLATE_REPAIRS.map(key).sort(), 'results.repairs lists every repair');
  for (const r of repairs) t.ok(typeof r.detail === 'string' && (r.detail as string).length > 30, `${key(r as never)}: ${r.detail as string}`);
  const doctor = (results.doctor as Json).repairs as Json[];
  t.equal(doctor.length, repairs.length, 'the doctor lists them too');
  const slides = results.slides as Json[];
  t.equal(slides.length, 8);
  t.match(
    doctor.find((d) => d.action === 'shape_removed' && d.part_name === '/ppt/slides/slide4.xml'),
    { part_kind: 'slide', slide_id: slides[3]!.slide_id, index: 3, element: 'p:graphicFrame' },
    'with the slide each repair touched',
  );
  t.notOk((slides[3]!.shapes as Json[]).some((s) => s.kind === 'graphicFrame'), 'slide 4 has no chart frame left');
  t.same(
    (slides[4]!.shapes as Json[]).map((s) => s.shape_id),
    [2, 3, 10],
    'slide 5: top-level shapes keep their ids',
  );
  t.same(((slides[4]!.shapes as Json[])[2]!.children as Json[]).map((s) => s.shape_id), [12, 11], 'the repeat in the group is renumbered');

  for (let n = 1; n <= slides.length; n++) {
    const res = await svc.api(`/api/v1/templates/${up.templateId}/slides/${n}/preview`);
    const body = new Uint8Array(await res.arrayBuffer());
    t.equal(res.status, 200, `slide ${n}: preview 200`);
    t.equal(res.headers.get('content-type'), 'image/png', `slide ${n}: a PNG`);
    t.same([...body.subarray(0, 4)], PNG_SIGNATURE, `slide ${n}: PNG bytes`);
  }

  const job = await svc.api('/api/v1/presentations/generate-deck', {
    method: 'POST',
    json: { slides: slides.map((s) => ({ template_slide_id: s.slide_id, slide_data: {} })).concat([{ template_slide_id: (results.layouts as Json[])[0]!.slide_id, slide_data: { title: 'From the layout' } }]) },
  });
  t.equal(job.status, 202, 'generation is queued');
  const gen = await waitForGeneration(svc, ((await job.json()) as Json).generation_id as string);
  t.equal(gen.status, 'completed', `the deck is generated${gen.errors?.length ? ` (${JSON.stringify(gen.errors)})` : ''}`);
  const dl = await fetch(gen.download_url as string);
  t.equal(dl.status, 200);
  const deck = join(dir, 'deck.pptx');
  writeFileSync(deck, new Uint8Array(await dl.arrayBuffer()));
  const lint = await lintPptx(deck);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint finds nothing in the deck');
  const xsd = await xsdCheck(deck);
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, `the XSD check passes:\n${xsd.output.split('\n').filter((l) => !/validates$|: OK$/.test(l)).join('\n')}`);
});
