/**
 * Template management through REST: list with pagination, filters and aggregations;
 * metadata PATCH; soft delete, restore, permanent delete; download of the exact bytes;
 * the pending-generation limit (429 with Retry-After); refused uploads (`rejected`, with
 * the reason, out of the default list).
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { PPTX_MEDIA_TYPE, uploadAndAnalyze, uploadTemplate, waitForGeneration } from '../helpers/flows.js';
import { houseTemplatePath } from '../fixtures/house-template.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
t.before(async () => {
  svc = await startTestService({ SLIDEWRIGHT_MAX_PENDING_PER_ORG: '1' });
});
t.teardown(() => svc.close());

const json = async (r: Response): Promise<Json> => (await r.json()) as Json;

t.test('list: newest first, paginated, filtered, with aggregations', async (t) => {
  const ids: string[] = [];
  for (const [i, category] of ['sales', 'sales', 'hr'].entries()) {
    const r = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: `deck-${i}.pptx`, metadata: { category, tags: i === 0 ? ['q3', 'brand'] : ['brand'], description: i === 2 ? 'People team onboarding' : 'Sales kit' } } });
    ids.push((await json(r)).template_id as string);
  }
  const all = await json(await svc.api('/api/v1/templates?limit=100'));
  t.same(all.templates.slice(0, 3).map((x: Json) => x.template_id), [...ids].reverse(), 'newest first');
  t.equal(all.pagination.page, 1);
  t.equal(all.pagination.limit, 100);
  t.ok(all.aggregations.by_category.sales >= 2);
  t.ok(all.aggregations.by_tag.brand >= 3);

  const page = await json(await svc.api('/api/v1/templates?limit=2&page=2&category=sales'));
  t.equal(page.pagination.total, 2);
  t.equal(page.pagination.pages, 1);
  t.same(page.templates, [], 'page 2 of one page is empty');
  t.same(page.filters, { category: 'sales' });
  const tagged = await json(await svc.api('/api/v1/templates?tag=q3'));
  t.same(tagged.templates.map((x: Json) => x.template_id), [ids[0]]);
  const q = await json(await svc.api('/api/v1/templates?q=onboarding'));
  t.same(q.templates.map((x: Json) => x.template_id), [ids[2]]);

  for (const bad of ['limit=0', 'limit=101', 'page=0', 'limit=abc']) {
    const r = await svc.api(`/api/v1/templates?${bad}`);
    t.equal(r.status, 422, `${bad} → 422`);
    t.equal((await json(r)).detail[0].loc[0], 'query');
  }
});

t.test('PATCH changes metadata and updated_at; unknown fields are rejected', async (t) => {
  const created = await json(await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'p.pptx', metadata: { category: 'a' } } }));
  const before = await json(await svc.api(`/api/v1/templates/${created.template_id}`));
  await new Promise((r) => setTimeout(r, 5));
  const r = await svc.api(`/api/v1/templates/${created.template_id}`, { method: 'PATCH', json: { metadata: { category: 'b', tags: ['x'], version: '2' } } });
  t.equal(r.status, 200);
  const after = await json(r);
  t.same(after.metadata, { category: 'b', tags: ['x'], description: null, version: '2' });
  t.ok(after.updated_at > before.updated_at, 'updated_at moves');
  const bad = await svc.api(`/api/v1/templates/${created.template_id}`, { method: 'PATCH', json: { metadata: { colour: 'red' } } });
  t.equal(bad.status, 422);
  t.same((await json(bad)).detail[0].loc, ['body', 'metadata', 'colour']);
});

t.test('soft delete hides, restore brings back the state, permanent delete removes files and slide ids', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const file = corpusPath('templates/pandoc-footer-reference.pptx');
  const { templateId, results } = await uploadAndAnalyze(svc, file);
  const layoutId = (results.layouts as Json[])[0]!.slide_id as string;

  const dl = await svc.api(`/api/v1/templates/${templateId}/download`);
  t.equal(dl.status, 200);
  const bytes = Buffer.from(await dl.arrayBuffer());
  t.ok(bytes.equals(readFileSync(file)), 'download returns the exact bytes');
  const tpl = await json(await svc.api(`/api/v1/templates/${templateId}`));
  t.equal(tpl.file_hash, createHash('sha256').update(bytes).digest('hex'), 'file_hash is their sha256');
  const signed = await fetch(tpl.download_url as string);
  t.equal(signed.status, 200, 'the signed download URL needs no key');

  const del = await svc.api(`/api/v1/templates/${templateId}`, { method: 'DELETE' });
  t.equal(del.status, 200);
  t.equal((await json(del)).status, 'deleted');
  const listed = await json(await svc.api('/api/v1/templates?limit=100'));
  t.notOk(listed.templates.some((x: Json) => x.template_id === templateId), 'hidden from lists');
  const withDeleted = await json(await svc.api('/api/v1/templates?limit=100&include_deleted=true'));
  t.ok(withDeleted.templates.some((x: Json) => x.template_id === templateId), 'listed with include_deleted');
  const gen = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layoutId, slide_data: { title: 'x' } }] } });
  t.equal(gen.status, 409, "a deleted template's slide ids cannot be used");
  t.match((await json(gen)).detail, /deleted/);

  const restored = await svc.api(`/api/v1/templates/${templateId}/restore`, { method: 'POST' });
  t.equal(restored.status, 200);
  t.equal((await json(restored)).status, 'ready', 'back to the state before the delete');
  t.equal((await svc.api(`/api/v1/templates/${templateId}/restore`, { method: 'POST' })).status, 409, 'restoring a live template is a conflict');

  const gone = await svc.api(`/api/v1/templates/${templateId}?permanent=true`, { method: 'DELETE' });
  t.equal(gone.status, 204);
  t.equal((await svc.api(`/api/v1/templates/${templateId}`)).status, 404);
  t.equal((await svc.api(`/api/v1/templates/${templateId}/download`)).status, 404);
  const after = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layoutId, slide_data: {} }] } });
  t.equal(after.status, 404, 'slide ids are gone with it');
});

t.test('too many pending generations answer 429 with Retry-After', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const { results } = await uploadAndAnalyze(svc, corpusPath('templates/pandoc-footer-reference.pptx'));
  const layoutId = (results.layouts as Json[]).find((l) => l.type === 'obj')!.slide_id as string;
  // A large deck keeps the first job busy while the second request arrives.
  const slides = Array.from({ length: 300 }, (_, i) => ({ template_slide_id: layoutId, slide_data: { title: `Slide ${i}`, content: { blocks: [{ type: 'text', text: { bullets: ['a', 'b', 'c'] } }] } } }));
  const first = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides } });
  t.equal(first.status, 202);
  const second = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: slides.slice(0, 1) } });
  t.equal(second.status, 429);
  t.ok(Number(second.headers.get('retry-after')) > 0, 'Retry-After is set');
  t.type((await json(second)).detail, 'string');
  const st = await waitForGeneration(svc, (await json(first)).generation_id as string);
  t.equal(st.status, 'completed');
  t.equal(st.total_pages_generated, 300);
  const third = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: slides.slice(0, 1) } });
  t.equal(third.status, 202, 'accepted again once the first finished');
  await waitForGeneration(svc, (await json(third)).generation_id as string);
});

t.test('deck size limits answer 422 naming the limit', async (t) => {
  const slides = Array.from({ length: 501 }, () => ({ template_slide_id: 'sld_x', slide_data: {} }));
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides } });
  t.equal(r.status, 422);
  const d = (await json(r)).detail[0];
  t.equal(d.type, 'too_long');
  t.match(d.msg, /at most 500/);
  const rows = Array.from({ length: 2001 }, () => ({ cells: [{ value: 'x' }] }));
  const r2 = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: 'sld_x', slide_data: { content: { blocks: [{ type: 'table', table: { table: { rows } } }] } } }] } });
  t.equal(r2.status, 422);
  t.same((await json(r2)).detail[0].loc, ['body', 'slides', 0, 'slide_data', 'content', 'blocks', 0, 'table', 'table', 'rows'], 'loc follows the single Column the client sent');
});

t.test('a JSON body over the size limit answers 413', async (t) => {
  const huge = 'x'.repeat(9 * 1024 * 1024);
  const r = await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'a.pptx', metadata: { description: huge } } });
  t.equal(r.status, 413);
  t.type((await json(r)).detail, 'string');
});

t.test('an upload over 10 MiB answers 413 and the template is rejected, saying why', async (t) => {
  const created = await json(await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'big.pptx' } }));
  const r = await svc.api(`/api/v1/templates/${created.template_id}/upload`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(10485761) });
  t.equal(r.status, 413);
  const tpl = await json(await svc.api(`/api/v1/templates/${created.template_id}`));
  t.equal(tpl.status, 'rejected', 'the refusal is recorded');
  t.equal(tpl.error, 'upload is 10485761 bytes; the limit is 10485760 bytes');
  t.equal(tpl.download_url, '', 'no file');
  const up = await uploadTemplate(svc, await houseTemplatePath(t));
  t.equal(up.status, 200, 'a normal upload still works');
});

/** POST /templates; the upload initiation response. */
const create = async (filename: string): Promise<Json> => json(await svc.api('/api/v1/templates', { method: 'POST', json: { filename, metadata: { category: 'refusals' } } }));
/** The template's record (GET /templates/{id}). */
const record = async (id: string): Promise<Json> => json(await svc.api(`/api/v1/templates/${id}`));

t.test('a refused upload leaves no pending template: rejected with the reason, listed only with status=rejected, and the same template takes a good file later', async (t) => {
  const house = readFileSync(await houseTemplatePath(t));
  const big = await create('big.pptx');
  const pdf = await create('report.pptx');
  const macro = await create('macro.pptx');
  const chunked = await create('chunked.pptx');
  const waiting = await create('waiting.pptx');

  // over the limit through the signed URL (no key): refused by the gateway, recorded by core
  const r1 = await fetch(big.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new Uint8Array(10485761 + 4096) });
  t.equal(r1.status, 413);
  t.match(await record(big.template_id), { status: 'rejected', error: 'upload is 10489857 bytes; the limit is 10485760 bytes' }, 'oversized through the signed URL');
  // over the limit with no Content-Length (chunked): the size is not known
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < 11; i++) c.enqueue(new Uint8Array(1024 * 1024));
      c.close();
    },
  });
  const r2 = await svc.api(`/api/v1/templates/${chunked.template_id}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: stream, duplex: 'half' } as RequestInit);
  t.equal(r2.status, 413);
  t.match(await record(chunked.template_id), { status: 'rejected', error: 'upload is over the limit of 10485760 bytes' }, 'oversized, chunked');
  // not a PowerPoint file
  const r3 = await fetch(pdf.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new TextEncoder().encode('%PDF-1.4 not a deck') });
  t.equal(r3.status, 415);
  const detail = ((await json(r3)) as Json).detail as string;
  t.match(await record(pdf.template_id), { status: 'rejected', error: detail }, 'the record keeps the reason the upload answered');
  t.match(detail, /not a PowerPoint file/);
  // macro-enabled media type
  const r4 = await svc.api(`/api/v1/templates/${macro.template_id}/upload`, { method: 'PUT', headers: { 'content-type': 'application/vnd.ms-powerpoint.presentation.macroEnabled.12' }, body: house });
  t.equal(r4.status, 415);
  t.match(await record(macro.template_id), { status: 'rejected', error: /macro-enabled/ });

  const rejectedIds = [big, chunked, pdf, macro].map((c) => c.template_id as string);
  const listed = await json(await svc.api('/api/v1/templates?limit=100&category=refusals'));
  t.same(listed.templates.map((x: Json) => x.template_id), [waiting.template_id], 'the default list shows the pending template, not the rejected ones');
  t.notOk('rejected' in listed.aggregations.by_status, 'nor counts them');
  const withDeleted = await json(await svc.api('/api/v1/templates?limit=100&category=refusals&include_deleted=true'));
  t.equal(withDeleted.pagination.total, 1, 'include_deleted does not bring them back');
  const rejected = await json(await svc.api('/api/v1/templates?limit=100&category=refusals&status=rejected'));
  t.same(rejected.templates.map((x: Json) => x.template_id).sort(), [...rejectedIds].sort(), 'status=rejected lists them');
  t.ok(rejected.templates.every((x: Json) => x.status === 'rejected' && typeof x.error === 'string' && x.error.length > 10), 'each with its reason');
  t.ok(rejected.aggregations.by_status.rejected >= 4, 'and the aggregations count them when asked for');
  t.equal(waiting.status, 'pending');
  t.equal((await record(waiting.template_id)).error, null, 'a pending template has no error');

  // the same template takes a good file afterwards; the reason goes
  const again = await fetch(pdf.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: house });
  t.equal(again.status, 200);
  t.match(await record(pdf.template_id), { status: 'uploaded', error: null, file_size: house.length });
  // analysis of a rejected template: there is no file
  const analysis = await svc.api(`/api/v1/templates/${big.template_id}/analysis`, { method: 'POST', json: {} });
  t.equal(analysis.status, 409);

  // a template that has a file keeps it, and its status, when a replacement is refused
  const bad = await fetch(pdf.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new TextEncoder().encode('not a deck') });
  t.equal(bad.status, 415);
  t.match(await record(pdf.template_id), { status: 'uploaded', error: null, file_size: house.length });
  const dl = await svc.api(`/api/v1/templates/${pdf.template_id}/download`);
  t.ok(Buffer.from(await dl.arrayBuffer()).equals(house), 'the stored file is still there');

  // another organization cannot mark a template rejected
  const foreign = await svc.api(`/api/v1/templates/${waiting.template_id}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new Uint8Array(10485761), as: ORG_B });
  t.equal(foreign.status, 413);
  t.equal((await record(waiting.template_id)).status, 'pending', "another organization's oversized upload changes nothing");
});

t.test('a first upload must be as long as the file_size declared at initiation', async (t) => {
  const house = readFileSync(await houseTemplatePath(t));
  const init = await json(await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'declared.pptx', file_size: house.length + 1, metadata: { category: 'declared' } } }));
  const short = await fetch(init.upload_url as string, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: house });
  t.equal(short.status, 422);
  const msg = `the upload is ${house.length} bytes, but file_size ${house.length + 1} was declared when the upload was initiated`;
  t.same(await json(short), { detail: [{ loc: ['body', 'file_size'], msg, type: 'file_size_mismatch', input: house.length, ctx: { declared: house.length + 1, received: house.length } }] });
  t.match(await record(init.template_id), { status: 'rejected', error: msg, file_size: house.length + 1 }, 'refused like any other upload, saying why');

  const exact = await json(await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'exact.pptx', file_size: house.length } }));
  const ok = await svc.api(`/api/v1/templates/${exact.template_id}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: house });
  t.equal(ok.status, 200, 'the declared length is accepted');
  t.match(await record(exact.template_id), { status: 'uploaded', file_size: house.length });
  // a replacement of the stored file is not held to the first declaration
  const replaced = await svc.api(`/api/v1/templates/${exact.template_id}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new TextEncoder().encode('not a deck') });
  t.equal(replaced.status, 415, 'a replacement is judged on its content (here: not a PowerPoint file), not on the old size');
});
