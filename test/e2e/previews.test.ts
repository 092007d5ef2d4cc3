/**
 * Slide previews through REST: template slides (pre-rendered beside the analysis, then served
 * from the cache) and generated decks' slides; PNG with dimension headers, ETag, width.
 */
import t from 'tap';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_B, startTestService, waitFor, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { partPreviewName } from '../../core/src/services/preview-service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let svc: TestService;
t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

t.test('a template slide preview is a PNG with its dimensions in headers, cached with an ETag', async (t) => {
  const { templateId, results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const tpl = (await (await svc.api(`/api/v1/templates/${templateId}`)).json()) as Json;
  // Pre-rendering runs beside the analysis in the same job; previews are cached by slide part.
  const slide2 = (results.slides as Json[]).find((s) => s.slide_number === 2)!;
  const cached = await waitFor(async () => svc.core.deps.blobs.get(`orgs/acme/templates/${templateId}/previews/${(tpl.file_hash as string).slice(0, 16)}/${partPreviewName(slide2.part_name as string)}-1280.json`), 120_000);
  t.ok(cached.length > 10, 'previews were pre-rendered with the analysis');
  const res = await svc.api(`/api/v1/templates/${templateId}/slides/2/preview`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  const png = new Uint8Array(await res.arrayBuffer());
  t.same([...png.subarray(0, 8)], PNG_SIGNATURE);
  const size = pngSize(png);
  t.equal(size.width, 1280, 'default width 1280 px');
  t.equal(res.headers.get('x-slide-width-px'), '1280');
  t.equal(res.headers.get('x-slide-height-px'), String(size.height));
  t.equal(Number(res.headers.get('x-slide-width-emu')), results.presentation.slide_width_emu);
  t.equal(Number(res.headers.get('x-slide-height-emu')), results.presentation.slide_height_emu);
  t.ok(Math.abs(size.height / size.width - results.presentation.slide_height_emu / results.presentation.slide_width_emu) < 0.01, 'aspect ratio of the slide');
  const etag = res.headers.get('etag');
  t.ok(etag, 'ETag is set');
  const again = await svc.api(`/api/v1/templates/${templateId}/slides/2/preview`, { headers: { 'if-none-match': etag! } });
  t.equal(again.status, 304, 'If-None-Match answers 304');

  const small = await svc.api(`/api/v1/templates/${templateId}/slides/1/preview?width=640`);
  t.equal(small.status, 200);
  t.equal(pngSize(new Uint8Array(await small.arrayBuffer())).width, 640);
  t.not(small.headers.get('etag'), etag);

  t.equal((await svc.api(`/api/v1/templates/${templateId}/slides/1/preview?width=4000`)).status, 422, 'width over 3840 is refused');
  t.equal((await svc.api(`/api/v1/templates/${templateId}/slides/999/preview`)).status, 404);
  t.equal((await svc.api(`/api/v1/templates/${templateId}/slides/1/preview`, { as: ORG_B })).status, 404, "another organization's template is not found");
});

t.test('a generated deck can be previewed slide by slide before it is sent on', async (t) => {
  const { results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const title = (results.layouts as Json[]).find((l) => l.type === 'title')!;
  const obj = (results.layouts as Json[]).find((l) => l.type === 'obj')!;
  const job = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: title.slide_id, slide_data: { title: 'Preview me' } }, { template_slide_id: obj.slide_id, slide_data: { title: 'Second' } }] } })).json()) as Json;
  await waitForGeneration(svc, job.generation_id as string);
  const res = await svc.api(`/api/v1/presentations/${job.generation_id}/slides/2/preview?width=800`);
  t.equal(res.status, 200);
  const png = new Uint8Array(await res.arrayBuffer());
  t.same([...png.subarray(0, 8)], PNG_SIGNATURE);
  t.equal(pngSize(png).width, 800);
  t.equal((await svc.api(`/api/v1/presentations/${job.generation_id}/slides/3/preview`)).status, 404);
  t.equal((await svc.api(`/api/v1/presentations/${job.generation_id}/slides/1/preview`, { as: ORG_B })).status, 404);
});
