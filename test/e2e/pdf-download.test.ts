/**
 * PDF downloads through REST (issue 22): a generated deck and a template as PDF with
 * `format=pdf` — application/pdf, a .pdf name in Content-Disposition, one page per slide
 * with the slide's text, 409 before the deck is ready (as for the .pptx), the signed
 * download URL with `&format=pdf`, PDF/A-2b on request, rendered once and then served
 * from the blob store, 422 for an unknown format.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { keys, type GenerationRecord } from '../../core/src/domain/records.js';
import { havePoppler, pageTexts, pdfInfo } from '../helpers/pdf-tools.js';
import { strictTests } from '../helpers/corpus.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

const isPdf = (b: Uint8Array): boolean => new TextDecoder().decode(b.subarray(0, 5)) === '%PDF-';
const skipPoppler = !havePoppler() && !strictTests ? 'poppler-utils not installed' : false;

t.test('a generated deck downloads as PDF: 409 before it is ready, then a PDF of its slides, also through the signed URL', async (t) => {
  const { templateId, results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  void templateId;
  const title = (results.layouts as Json[]).find((l) => l.type === 'title')!;
  const obj = (results.layouts as Json[]).find((l) => l.type === 'obj')!;
  const slides = [
    { template_slide_id: title.slide_id, slide_data: { title: 'Quarterly results', subtitle: 'Prepared for the board' } },
    { template_slide_id: obj.slide_id, slide_data: { title: 'Highlights', content: [{ blocks: [{ type: 'text', text: { bullets: ['Revenue grew fourteen percent', 'Churn fell again'] } }] }] } },
  ];
  const job = (await (await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides } })).json()) as Json;
  const id = job.generation_id as string;
  const status = await waitForGeneration(svc, id);
  t.equal(status.status, 'completed');

  // Before the deck is ready: the record as it is while the job runs.
  const key = keys.generation('acme', id);
  const done = (await svc.core.deps.state.get<GenerationRecord>(key))!;
  await svc.core.deps.state.put(key, { ...done, status: 'processing' });
  const early = await svc.api(`/api/v1/presentations/${id}/download?format=pdf`);
  t.equal(early.status, 409, 'PDF download before completion is 409, as the .pptx');
  t.equal((await svc.api(`/api/v1/presentations/${id}/download`)).status, 409, 'so is the .pptx');
  await svc.core.deps.state.put(key, done);

  const res = await svc.api(`/api/v1/presentations/${id}/download?format=pdf`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/pdf');
  t.equal(res.headers.get('content-disposition'), `attachment; filename="${id}.pdf"`);
  const pdf = new Uint8Array(await res.arrayBuffer());
  t.ok(isPdf(pdf), 'a PDF file');
  const deckBytes = new Uint8Array(await (await svc.api(`/api/v1/presentations/${id}/download`)).arrayBuffer());
  const cached = await svc.core.deps.blobs.get(`orgs/acme/generations/${id}/pdf/${createHash('sha256').update(deckBytes).digest('hex').slice(0, 16)}.pdf`);
  t.same(cached, pdf, 'rendered once and kept in the blob store, keyed by the deck');

  if (!skipPoppler) {
    t.equal(pdfInfo(pdf).Pages, '2', 'one page per slide');
    const texts = pageTexts(pdf);
    t.match(texts[0], /Quarterly results/);
    t.match(texts[1], /Revenue grew fourteen percent/);
  }

  // The .pptx download is unchanged.
  const pptx = await svc.api(`/api/v1/presentations/${id}/download?format=pptx`);
  t.equal(pptx.status, 200);
  t.match(pptx.headers.get('content-disposition'), /\.pptx"$/);

  // The signed URL of the status record, with format=pdf added, without the key.
  const signed = `${status.download_url as string}&format=pdf`;
  const viaSigned = await svc.api(signed, { as: null });
  t.equal(viaSigned.status, 200, 'the signed download URL serves the PDF');
  t.equal(viaSigned.headers.get('content-type'), 'application/pdf');
  t.same(new Uint8Array(await viaSigned.arrayBuffer()), pdf, 'the cached PDF');

  const pdfa = await svc.api(`/api/v1/presentations/${id}/download?format=pdf&pdfa=true`);
  t.equal(pdfa.status, 200);
  const pdfaText = Buffer.from(await pdfa.arrayBuffer()).toString('latin1');
  t.match(pdfaText, /<pdfaid:part>2<\/pdfaid:part>/, 'PDF/A-2b declared in the XMP metadata');
  t.match(pdfaText, /\/OutputIntents/, 'with an output intent');

  t.equal((await svc.api(`/api/v1/presentations/${id}/download?format=docx`)).status, 422, 'an unknown format is refused');
  t.equal((await svc.api(`/api/v1/presentations/${id}/download?format=pdf`, { as: ORG_B })).status, 404, "another organization's deck is not found");
});

t.test('a template downloads as PDF: 409 before a file is uploaded, then its slides', async (t) => {
  const init = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'Brand deck.pptx', file_size: 1000 } });
  const created = (await init.json()) as Json;
  t.equal((await svc.api(`/api/v1/templates/${created.template_id}/download?format=pdf`)).status, 409, 'nothing uploaded yet: 409');

  const { templateId, results } = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  const tpl = (await (await svc.api(`/api/v1/templates/${templateId}`)).json()) as Json;
  const res = await svc.api(`/api/v1/templates/${templateId}/download?format=pdf`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/pdf');
  t.match(res.headers.get('content-disposition'), /^attachment; filename="[^"]+\.pdf"$/);
  const pdf = new Uint8Array(await res.arrayBuffer());
  t.ok(isPdf(pdf));
  if (!skipPoppler) t.equal(Number(pdfInfo(pdf).Pages), (results.slides as Json[]).length, 'one page per slide');
  const viaSigned = await svc.api(`${tpl.download_url as string}&format=pdf`, { as: null });
  t.equal(viaSigned.status, 200, "the template's signed download URL serves the PDF");
  t.equal(viaSigned.headers.get('content-type'), 'application/pdf');
});
