/**
 * ISO/IEC 29500 Strict templates through the REST API (issue 17, item 1): they used to be
 * refused at upload (415, "the package has no officeDocument relationship"); now they
 * upload, analyze, preview and generate, and the deck is Transitional, lint clean, valid
 * against the XSDs and opened by LibreOffice. The house template made Strict runs without
 * the corpus; the corpus's own Strict file (PowerPoint's) runs with it.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { houseTemplate } from '../fixtures/house-template.js';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { PPTX_MEDIA_TYPE, uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { ToolMissingError, convertToPdf, lintPptx, pdfPageCount, refereeSkipped, renderingSkipReason, xsdCheck } from '../helpers/referee.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { analysisOf, strictLeftovers, toStrict } from '../helpers/strict.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
const scratch = mkdtempSync(join(tmpdir(), 'sw-strict-e2e-'));
t.before(async () => {
  svc = await startTestService();
});
t.teardown(async () => {
  await svc.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Upload, analysis, a preview and a deck of every layout (title and bullets) plus every slide; returns the deck's path. */
async function throughTheApi(t: Test, file: string): Promise<{ deck: string; results: Json; pages: number }> {
  const { templateId, results } = await uploadAndAnalyze(svc, file);
  t.ok(results.layouts.length > 0, `analyzed: ${results.layouts.length} layouts, ${results.slides.length} slides`);
  const preview = await svc.api(`/api/v1/templates/${templateId}/slides/1/preview?width=640`);
  t.equal(preview.status, 200, 'slide 1 previews');
  t.equal(preview.headers.get('content-type'), 'image/png');
  await preview.arrayBuffer();

  const slides = [
    ...(results.slides as Json[]).map((s) => ({ template_slide_id: s.slide_id as string, slide_data: { title: 'From a Strict slide' } })),
    ...(results.layouts as Json[]).map((l) => ({ template_slide_id: l.slide_id as string, slide_data: { title: `Layout ${l.name as string}`, content: { blocks: [{ type: 'text', text: { bullets: ['Strict in', 'Transitional out'] } }] } } })),
  ];
  const res = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides, options: { footer_text: 'Strict', show_slide_numbers: true } } });
  t.equal(res.status, 202);
  const job = (await res.json()) as Json;
  const st = await waitForGeneration(svc, job.generation_id as string);
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  t.equal(st.total_pages_generated, slides.length);
  const dl = await fetch(st.download_url as string);
  t.equal(dl.status, 200);
  t.equal(dl.headers.get('content-type'), PPTX_MEDIA_TYPE);
  const bytes = new Uint8Array(await dl.arrayBuffer());
  t.same(await strictLeftovers(bytes), [], 'the deck is Transitional: no Strict namespace, relationship type or conformance left');
  const deck = join(scratch, `${templateId}.pptx`);
  writeFileSync(deck, bytes);
  const genPreview = await svc.api(`/api/v1/presentations/${job.generation_id as string}/slides/1/preview?width=320`);
  t.equal(genPreview.status, 200, "the deck's first slide previews");
  await genPreview.arrayBuffer();
  return { deck, results, pages: slides.length };
}

async function referees(t: Test, deck: string, pages: number): Promise<void> {
  const lint = await lintPptx(deck);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'lint clean');
  const xsd = await xsdCheck(deck, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
  const skip = await renderingSkipReason();
  if (skip) {
    void t.test(`LibreOffice: ${skip}`, { skip }, () => {});
    return;
  }
  try {
    t.equal(await pdfPageCount(await convertToPdf(deck, join(scratch, 'pdf'))), pages, `LibreOffice opens it: ${pages} pages`);
  } catch (err) {
    if (err instanceof ToolMissingError) void t.test(err.message, { skip: err.message }, () => {});
    else throw err;
  }
}

t.test('the house template made Strict: upload, analysis, previews, a Transitional deck', async (t) => {
  const original = await houseTemplate();
  const { bytes } = await toStrict(original);
  const file = join(scratch, 'house-strict.pptx');
  writeFileSync(file, bytes);
  const { deck, results, pages } = await throughTheApi(t, file);
  const expected = await analysisOf(original);
  t.same(
    (results.layouts as Json[]).map((l) => [l.name, l.type, (l.shapes as Json[]).map((s) => [s.name, s.x, s.y, s.cx, s.cy, s.font?.name, s.font?.size_pt, s.font?.color])]),
    expected.layouts.map((l) => [l.name, l.type, l.shapes.map((s) => [s.name, s.x, s.y, s.cx, s.cy, s.font?.name, s.font?.size_pt, s.font?.color])]),
    'the service reads the layouts as the original: names, types, geometry, fonts, colours',
  );
  t.same(results.presentation.theme_colors, expected.presentation.theme_colors);
  await referees(t, deck, pages);
});

t.test("the corpus's Strict file (PowerPoint's): upload, analysis, previews, a Transitional deck", needsCorpus('incoming/templates/clippit-strict-16x9.pptx'), async (t) => {
  const { deck, results, pages } = await throughTheApi(t, corpusPath('incoming/templates/clippit-strict-16x9.pptx'));
  t.equal(results.layouts.length, 11);
  t.equal(results.slides.length, 1);
  t.equal(results.presentation.slide_width_emu, 12192000);
  await referees(t, deck, pages);
});
