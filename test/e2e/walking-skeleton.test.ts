/**
 * The main job end to end through the REST contract in embedded mode: real templates
 * uploaded by signed URL, analyzed, a deck mixing three of them generated, downloaded by
 * its signed URL, checked by the referee tools and opened by LibreOffice.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, uploadTemplate, waitForGeneration, PPTX_MEDIA_TYPE } from '../helpers/flows.js';
import { convertToPdf, lintPptx, newFindings, pdfPageCount, pdfPages, refereeSkipped, renderingSkipReason } from '../helpers/referee.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATES = ['pandoc-footer-reference.pptx', 'python-pptx-populated-placeholders.pptx', 'onlyoffice-sample-en.pptx'] as const;

const realTemplates = needsCorpus(...TEMPLATES.map((f) => `templates/${f}`));

let svc: TestService;
const analyzed = new Map<string, { templateId: string; results: Json }>();
/** The project's own template: the tests of the service's rules that any template serves. */
let house: { templateId: string; results: Json };

t.before(async () => {
  svc = await startTestService();
  house = await uploadAndAnalyze(svc, await houseTemplatePath(t));
  if (!realTemplates.skip) for (const f of TEMPLATES) analyzed.set(f, await uploadAndAnalyze(svc, corpusPath(`templates/${f}`)));
});
t.teardown(() => svc.close());

function layoutByType(results: Json, ...types: string[]): Json {
  for (const type of types) {
    const l = (results.layouts as Json[]).find((x) => x.type === type);
    if (l) return l;
  }
  throw new Error(`no layout of type ${types.join('/')}`);
}

function layoutNamed(results: Json, name: string): Json {
  const l = (results.layouts as Json[]).find((x) => x.name === name);
  if (!l) throw new Error(`no layout named ${name}`);
  return l;
}

t.test('an uploaded template reports its analysis summary and every slide and layout id', realTemplates, async (t) => {
  const { templateId, results } = analyzed.get('python-pptx-populated-placeholders.pptx')!;
  const res = await svc.api(`/api/v1/templates/${templateId}`);
  t.equal(res.status, 200);
  const tpl = (await res.json()) as Json;
  t.equal(tpl.status, 'ready');
  t.equal(tpl.file_hash_algorithm, 'sha256');
  t.match(tpl.file_hash, /^[0-9a-f]{64}$/);
  t.equal(tpl.analysis.status, 'completed');
  t.equal(tpl.analysis.slide_count, results.slides.length);
  t.same(tpl.analysis.slide_ids, (results.slides as Json[]).map((s) => s.slide_id));
  t.equal(tpl.analysis.layout_count, results.layouts.length);
  for (const field of ['template_id', 'org_name', 'filename', 'file_size', 'status', 'metadata', 'created_at', 'updated_at', 'download_url', 'download_url_expires_in', 'file_hash', 'file_hash_algorithm', 'content_type']) {
    t.ok(field in tpl, `template has ${field}`);
  }
  t.same(tpl.metadata.tags, ['corpus']);
});

t.test('placeholder geometry on a slide is resolved through its layout and master', realTemplates, async (t) => {
  const { templateId } = analyzed.get('python-pptx-populated-placeholders.pptx')!;
  const res = await svc.api(`/api/v1/templates/${templateId}/slides/1`);
  t.equal(res.status, 200);
  const slide = (await res.json()) as Json;
  t.equal(slide.slide_number, 1);
  t.equal(slide.slide_index, 0);
  t.ok(slide.dimension.width_emu > 0 && slide.dimension.height_emu > 0);
  const placeholders = (slide.shapes as Json[]).filter((s) => s.placeholder);
  t.ok(placeholders.length > 0, 'slide has placeholders');
  for (const p of placeholders) t.ok(p.cx > 0 && p.cy > 0, `${p.name} has a size`);
  const missing = await svc.api(`/api/v1/templates/${templateId}/slides/999`);
  t.equal(missing.status, 404);
});

t.test('signed upload URL: altered or expired signatures are refused with 403', async (t) => {
  const init = (await (await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'x.pptx' } })).json()) as Json;
  const url = new URL(init.upload_url as string);
  const altered = new URL(url);
  altered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60));
  const r1 = await fetch(altered, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new Uint8Array([1, 2, 3]) });
  t.equal(r1.status, 403);
  const otherTemplate = new URL(url.toString().replace(init.template_id as string, 'tpl_01HZZZZZZZZZZZZZZZZZZZZZZZ'));
  t.equal((await fetch(otherTemplate, { method: 'PUT', body: new Uint8Array([1]) })).status, 403, 'signature is bound to the path');
  const expired = svc.core.deps.signer.sign('PUT', `/api/v1/templates/${init.template_id}/upload`, 'acme', -10);
  t.equal((await fetch(expired, { method: 'PUT', body: new Uint8Array([1]) })).status, 403);
  t.equal(init.max_file_size, 10485760);
  t.same(init.allowed_extensions, ['.pptx', '.potx']);
  t.equal(init.upload_method, 'signed_url');
  t.equal(init.status, 'pending');
});

t.test('a deck mixing three templates generates, downloads by signed URL, lints clean and renders in LibreOffice', realTemplates, async (t) => {
  const a = analyzed.get('pandoc-footer-reference.pptx')!;
  const b = analyzed.get('python-pptx-populated-placeholders.pptx')!;
  const c = analyzed.get('onlyoffice-sample-en.pptx')!;
  const slides = [
    { template_slide_id: layoutByType(a.results, 'title').slide_id, slide_data: { title: 'Review Alpha', subtitle: 'Prepared by Slidewright' } },
    {
      template_slide_id: layoutByType(a.results, 'obj').slide_id,
      slide_data: { title: 'Highlights Bravo', content: { blocks: [{ type: 'text', text: { bullets: ['Revenue grew 12 percent', 'Churn fell below 2 percent', 'Three new regions'] } }] } },
    },
    {
      template_slide_id: (b.results.slides as Json[]).find((s) => s.title === 'Title Text')!.slide_id,
      slide_data: { title: 'Template Slide Charlie' },
      options: { footer_text: 'Per-slide footer Delta', show_slide_numbers: true },
    },
    {
      template_slide_id: layoutNamed(c.results, 'Title and Content').slide_id,
      slide_data: {
        title: 'Regional Table Echo',
        content: {
          blocks: [
            {
              type: 'table',
              table: {
                table: {
                  rows: [
                    { cells: [{ value: 'Region' }, { value: 'Revenue' }], is_header: true },
                    { cells: [{ value: 'North Foxtrot' }, { value: '120' }] },
                    { cells: [{ value: 'South Golf' }, { value: '95' }] },
                  ],
                },
              },
            },
          ],
        },
      },
    },
    { template_slide_id: layoutNamed(b.results, 'Blank').slide_id, slide_data: { title: 'Closing Hotel' } },
  ];
  const res = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides, options: { footer_text: 'Deck footer India', show_slide_numbers: true } } });
  t.equal(res.status, 202);
  const job = (await res.json()) as Json;
  t.match(job.generation_id, /^gen_/);
  t.equal(job.status, 'pending');
  t.equal(job.status_url, `${svc.url}/api/v1/presentations/${job.generation_id}/status`);
  t.ok(!Number.isNaN(Date.parse(job.created_at as string)));

  const early = await svc.api(`/api/v1/presentations/${job.generation_id}/download`);
  t.ok([409, 200].includes(early.status), 'download before completion is 409 (or already done)');

  const st = await waitForGeneration(svc, job.generation_id as string);
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  t.equal(st.total_slides_requested, 5);
  t.equal(st.total_pages_generated, 5);
  t.equal(st.progress, 1);
  t.type(st.download_url_expires_in, 'number');

  const dl = await fetch(st.download_url as string);
  t.equal(dl.status, 200);
  t.equal(dl.headers.get('content-type'), PPTX_MEDIA_TYPE);
  const bytes = new Uint8Array(await dl.arrayBuffer());
  const dir = process.env.SW_KEEP_DIR ?? mkdtempSync(join(tmpdir(), 'sw-deck-'));
  if (!process.env.SW_KEEP_DIR) t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'deck.pptx');
  writeFileSync(out, bytes);

  const before = (await Promise.all(TEMPLATES.map((f) => lintPptx(corpusPath(`templates/${f}`))))).flatMap((r) => r.errors);
  const lint = await lintPptx(out);
  if (!refereeSkipped(t, lint)) t.same(newFindings(lint.errors, before), [], 'no lint error the sources did not already have');

  const skip = await renderingSkipReason();
  if (skip) return void t.test(`LibreOffice check: ${skip}`, { skip }, () => {});
  const pdf = await convertToPdf(out, dir);
  t.equal(await pdfPageCount(pdf), 5, 'one PDF page per slide');
  const pages = await pdfPages(pdf);
  const expect = [['Review Alpha', 'Prepared by Slidewright'], ['Highlights Bravo', 'Revenue grew 12 percent'], ['Template Slide Charlie'], ['Regional Table Echo', 'North Foxtrot', 'South Golf'], ['Closing Hotel']];
  expect.forEach((texts, i) => {
    const flat = (pages[i] ?? '').replace(/\s+/g, ' ');
    for (const text of texts) t.ok(flat.includes(text), `page ${i + 1} shows "${text}"`);
  });
});

t.test('single-slide generation answers 202 and completes', async (t) => {
  const a = house;
  const res = await svc.api('/api/v1/presentations/generate', { method: 'POST', json: { template_slide_id: layoutByType(a.results, 'title').slide_id, slide_data: { title: 'One slide' } } });
  t.equal(res.status, 202);
  const job = (await res.json()) as Json;
  const st = await waitForGeneration(svc, job.generation_id as string);
  t.equal(st.status, 'completed');
  t.equal(st.total_pages_generated, 1);
});

t.test('validation failures answer 422 with the exact contract shape', async (t) => {
  const a = house;
  const id = layoutByType(a.results, 'title').slide_id as string;
  const post = async (json: unknown) => {
    const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json });
    return { status: r.status, body: (await r.json()) as Json };
  };
  let r = await post({ slides: [] });
  t.equal(r.status, 422);
  t.same(r.body.detail[0].loc, ['body', 'slides']);
  t.equal(r.body.detail[0].type, 'too_short');

  r = await post({ slides: [{ template_slide_id: id, slide_data: {}, options: { table_min_font_size: 5 } }] });
  t.equal(r.status, 422);
  t.same(r.body.detail[0], { loc: ['body', 'slides', 0, 'options', 'table_min_font_size'], msg: 'Input should be greater than or equal to 6', type: 'greater_than_equal', input: 5, ctx: { ge: 6 } });

  r = await post({ slides: [{ template_slide_id: id, slide_data: {}, bogus: 1 }] });
  t.equal(r.status, 422);
  t.same(r.body.detail[0].loc, ['body', 'slides', 0, 'bogus']);
  t.equal(r.body.detail[0].type, 'extra_forbidden');

  r = await post({ slides: [{ slide_data: {} }] });
  t.equal(r.status, 422);
  t.same(r.body.detail[0].loc, ['body', 'slides', 0, 'template_slide_id']);
  t.equal(r.body.detail[0].type, 'missing');

  r = await post({ slides: [{ template_slide_id: id, slide_data: {} }], options: { footer_font_size: 80 } });
  t.equal(r.body.detail[0].type, 'less_than_equal');

  const notJson = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"slides": [' });
  t.equal(notJson.status, 422);

  const unknownSlide = await post({ slides: [{ template_slide_id: 'sld_DOESNOTEXIST', slide_data: {} }] });
  t.equal(unknownSlide.status, 404);
  t.type(unknownSlide.body.detail, 'string');
});

t.test('authentication and organization scoping', async (t) => {
  const { templateId } = house;
  t.equal((await svc.api(`/api/v1/templates/${templateId}`, { as: null })).status, 401, 'no key');
  t.equal((await svc.api(`/api/v1/templates/${templateId}`, { as: { key: 'wrong' } })).status, 401, 'unknown key');
  const other = await svc.api(`/api/v1/templates/${templateId}`, { as: ORG_B });
  t.equal(other.status, 404, "another organization's template is not found");
  t.same(Object.keys((await other.json()) as Json), ['detail']);
  const mismatch = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'a.pptx', org_name: 'globex' } });
  t.equal(mismatch.status, 403, 'org_name must match the key');
  const slideId = layoutByType(house.results, 'title').slide_id;
  const foreign = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: slideId, slide_data: {} }] }, as: ORG_B });
  t.equal(foreign.status, 404, "another organization's slide id is not found");
});

t.test('uploads that are not presentations get a clear 4xx and leave the template rejected, saying why', async (t) => {
  const init = (await (await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'x.pptx' } })).json()) as Json;
  const r = await svc.api(`/api/v1/templates/${init.template_id}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new TextEncoder().encode('%PDF-1.4 not a deck') });
  t.equal(r.status, 415);
  t.match(((await r.json()) as Json).detail, /not a PowerPoint file/);
  const tpl = (await (await svc.api(`/api/v1/templates/${init.template_id}`)).json()) as Json;
  t.equal(tpl.status, 'rejected');
  t.match(tpl.error, /not a PowerPoint file/, 'the record keeps the reason');
  t.equal(tpl.download_url, '', 'no file is recorded');
  const macro = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'x.pptm' } });
  t.equal(macro.status, 415);
  const big = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'x.pptx', file_size: 10485761 } });
  t.equal(big.status, 413);
});

t.test('the refused macro-enabled corpus file is refused with 415 at upload', needsCorpus('refused/poi-macro-attachments.pptm'), async (t) => {
  const up = await uploadTemplate(svc, corpusPath('refused/poi-macro-attachments.pptm'));
  t.equal(up.status, 415);
  t.match(up.body.detail, /macro/i);
});
