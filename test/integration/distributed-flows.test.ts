/**
 * The REST end-to-end flows of test/e2e in distributed mode: core, gateway and two
 * workers as separate processes (`node --import tsx`), over our own NATS JetStream, Redis
 * and s3rver. The same helpers drive the same flows; then the pending limit is checked
 * across two gateways and two cores.
 */
import t from 'tap';
import * as grpc from '@grpc/grpc-js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateServiceClient, type GetTemplateResponse } from '../../proto/gen/ts/slidewright/v1/template_service.js';
import { corpusFilesOf, corpusPath, needsCorpus } from '../helpers/corpus.js';
import { houseTemplatePath } from '../fixtures/house-template.js';
import { ORG_A, ORG_B, type TestService } from '../helpers/service.js';
import { analyze, uploadAndAnalyze, uploadTemplate, waitForGeneration, PPTX_MEDIA_TYPE } from '../helpers/flows.js';
import { convertToPdf, lintPptx, newFindings, pdfPageCount, pdfPages, refereeSkipped, renderingSkipReason } from '../helpers/referee.js';
import { distributedSkipReason, freePort, logEntries, startBackends, startCluster, type Backends, type Cluster } from '../helpers/distributed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATES = ['pandoc-footer-reference.pptx', 'python-pptx-populated-placeholders.pptx', 'onlyoffice-sample-en.pptx'] as const;

const skip = distributedSkipReason();
if (skip) {
  t.plan(0, skip);
} else {
  let backends: Backends;
  let cluster: Cluster;
  let svc: TestService;
  const analyzed = new Map<string, { templateId: string; results: Json }>();
  const realTemplates = needsCorpus(...TEMPLATES.map((f) => `templates/${f}`));
  /** The project's own template, for the service's rules that any template serves. */
  let house: { templateId: string; results: Json };
  let housePath: string;

  t.before(async () => {
    backends = await startBackends();
    cluster = await startCluster(backends, { cores: 1, gateways: 1, workers: 2 });
    svc = cluster.service;
    housePath = await houseTemplatePath(t);
    house = await uploadAndAnalyze(svc, housePath);
    if (!realTemplates.skip) for (const f of TEMPLATES) analyzed.set(f, await uploadAndAnalyze(svc, corpusPath(`templates/${f}`)));
  });
  t.teardown(async () => {
    await cluster?.close();
    await backends?.close();
  });

  const layoutByType = (results: Json, ...types: string[]): Json => {
    for (const type of types) {
      const l = (results.layouts as Json[]).find((x) => x.type === type);
      if (l) return l;
    }
    throw new Error(`no layout of type ${types.join('/')}`);
  };
  const layoutNamed = (results: Json, name: string): Json => {
    const l = (results.layouts as Json[]).find((x) => x.name === name);
    if (!l) throw new Error(`no layout named ${name}`);
    return l;
  };

  t.test('an uploaded template reports its analysis summary and every slide and layout id', realTemplates, async (t) => {
    const { templateId, results } = analyzed.get('python-pptx-populated-placeholders.pptx')!;
    const res = await svc.api(`/api/v1/templates/${templateId}`);
    t.equal(res.status, 200);
    const tpl = (await res.json()) as Json;
    t.equal(tpl.status, 'ready');
    t.match(tpl.file_hash, /^[0-9a-f]{64}$/);
    t.equal(tpl.analysis.status, 'completed');
    t.same(tpl.analysis.slide_ids, (results.slides as Json[]).map((s) => s.slide_id));
    t.equal(tpl.analysis.layout_count, results.layouts.length);
    t.same(tpl.metadata.tags, ['corpus']);
    const dl = await fetch(tpl.download_url as string);
    t.equal(dl.status, 200, 'template download by signed URL (bytes come from S3 through core)');
    t.equal((await dl.arrayBuffer()).byteLength, tpl.file_size);
    const list = (await (await svc.api('/api/v1/templates?limit=2&category=test')).json()) as Json;
    // the three real templates and the house template
    t.equal(list.pagination.total, 4, 'list and filters read the Redis records');
    t.equal(list.templates.length, 2);
    t.equal(list.aggregations.by_status.ready, 4);
  });

  t.test('placeholder geometry on a slide is resolved through its layout and master', realTemplates, async (t) => {
    const { templateId } = analyzed.get('python-pptx-populated-placeholders.pptx')!;
    const res = await svc.api(`/api/v1/templates/${templateId}/slides/1`);
    t.equal(res.status, 200);
    const slide = (await res.json()) as Json;
    t.equal(slide.slide_number, 1);
    t.ok(slide.dimension.width_emu > 0 && slide.dimension.height_emu > 0);
    const placeholders = (slide.shapes as Json[]).filter((s) => s.placeholder);
    t.ok(placeholders.length > 0, 'slide has placeholders');
    for (const p of placeholders) t.ok(p.cx > 0 && p.cy > 0, `${p.name} has a size`);
    t.equal((await svc.api(`/api/v1/templates/${templateId}/slides/999`)).status, 404);
  });

  t.test('signed upload URL: altered or expired signatures are refused with 403', async (t) => {
    const init = (await (await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'x.pptx' } })).json()) as Json;
    const url = new URL(init.upload_url as string);
    t.equal(url.origin, cluster.url, 'signed URLs point at the gateway, never at S3');
    const altered = new URL(url);
    altered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60));
    t.equal((await fetch(altered, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new Uint8Array([1, 2, 3]) })).status, 403);
    const otherTemplate = new URL(url.toString().replace(init.template_id as string, 'tpl_01HZZZZZZZZZZZZZZZZZZZZZZZ'));
    t.equal((await fetch(otherTemplate, { method: 'PUT', body: new Uint8Array([1]) })).status, 403, 'signature is bound to the path');
    const expired = cluster.signer.sign('PUT', `/api/v1/templates/${init.template_id}/upload`, 'acme', -10);
    t.equal((await fetch(expired, { method: 'PUT', body: new Uint8Array([1]) })).status, 403);
  });

  t.test('a deck mixing three templates generates on a worker, downloads by signed URL, lints clean and renders', realTemplates, async (t) => {
    const a = analyzed.get('pandoc-footer-reference.pptx')!;
    const b = analyzed.get('python-pptx-populated-placeholders.pptx')!;
    const c = analyzed.get('onlyoffice-sample-en.pptx')!;
    const slides = [
      { template_slide_id: layoutByType(a.results, 'title').slide_id, slide_data: { title: 'Review Alpha', subtitle: 'Prepared by Slidewright' } },
      { template_slide_id: layoutByType(a.results, 'obj').slide_id, slide_data: { title: 'Highlights Bravo', content: { blocks: [{ type: 'text', text: { bullets: ['Revenue grew 12 percent', 'Churn fell below 2 percent'] } }] } } },
      { template_slide_id: (b.results.slides as Json[]).find((s) => s.title === 'Title Text')!.slide_id, slide_data: { title: 'Template Slide Charlie' }, options: { footer_text: 'Per-slide footer Delta', show_slide_numbers: true } },
      {
        template_slide_id: layoutNamed(c.results, 'Title and Content').slide_id,
        slide_data: {
          title: 'Regional Table Echo',
          content: { blocks: [{ type: 'table', table: { table: { rows: [{ cells: [{ value: 'Region' }, { value: 'Revenue' }], is_header: true }, { cells: [{ value: 'North Foxtrot' }, { value: '120' }] }, { cells: [{ value: 'South Golf' }, { value: '95' }] }] } } }] },
        },
      },
      { template_slide_id: layoutNamed(b.results, 'Blank').slide_id, slide_data: { title: 'Closing Hotel' } },
    ];
    const res = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides, options: { footer_text: 'Deck footer India', show_slide_numbers: true } } });
    t.equal(res.status, 202);
    const job = (await res.json()) as Json;
    t.equal(job.status_url, `${cluster.url}/api/v1/presentations/${job.generation_id}/status`);
    const st = await waitForGeneration(svc, job.generation_id as string);
    t.equal(st.status, 'completed', JSON.stringify(st.errors));
    t.equal(st.total_pages_generated, 5);
    const ranOn = cluster.workers.filter((w) => logEntries(w, 'job started').some((e) => e['component'] === 'jetstream' && e['job_id'] === job.generation_id));
    t.equal(ranOn.length, 1, 'exactly one worker process ran the job');

    const dl = await fetch(st.download_url as string);
    t.equal(dl.status, 200);
    t.equal(dl.headers.get('content-type'), PPTX_MEDIA_TYPE);
    const dir = mkdtempSync(join(tmpdir(), 'sw-dist-deck-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'deck.pptx');
    writeFileSync(out, new Uint8Array(await dl.arrayBuffer()));
    const before = (await Promise.all(TEMPLATES.map((f) => lintPptx(corpusPath(`templates/${f}`))))).flatMap((r) => r.errors);
    const lint = await lintPptx(out);
    if (!refereeSkipped(t, lint)) t.same(newFindings(lint.errors, before), [], 'no lint error the sources did not already have');
    const skipRender = await renderingSkipReason();
    if (skipRender) return void t.test(`LibreOffice check: ${skipRender}`, { skip: skipRender }, () => {});
    const pdf = await convertToPdf(out, dir);
    t.equal(await pdfPageCount(pdf), 5, 'one PDF page per slide');
    const pages = await pdfPages(pdf);
    t.ok((pages[3] ?? '').includes('North Foxtrot'), 'the table renders');
  });

  t.test('single-slide generation answers 202 and completes', async (t) => {
    const a = house;
    const res = await svc.api('/api/v1/presentations/generate', { method: 'POST', json: { template_slide_id: layoutByType(a.results, 'title').slide_id, slide_data: { title: 'One slide' } } });
    t.equal(res.status, 202);
    const st = await waitForGeneration(svc, ((await res.json()) as Json).generation_id as string);
    t.equal(st.status, 'completed');
    t.equal(st.total_pages_generated, 1);
  });

  t.test('validation failures answer 422 with the exact contract shape; unknown ids 404', async (t) => {
    const id = layoutByType(house.results, 'title').slide_id as string;
    const post = async (json: unknown) => {
      const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json });
      return { status: r.status, body: (await r.json()) as Json };
    };
    let r = await post({ slides: [] });
    t.equal(r.status, 422);
    t.same(r.body.detail[0].loc, ['body', 'slides']);
    r = await post({ slides: [{ template_slide_id: id, slide_data: {}, options: { table_min_font_size: 5 } }] });
    t.same(r.body.detail[0], { loc: ['body', 'slides', 0, 'options', 'table_min_font_size'], msg: 'Input should be greater than or equal to 6', type: 'greater_than_equal', input: 5, ctx: { ge: 6 } });
    r = await post({ slides: [{ slide_data: {} }] });
    t.equal(r.body.detail[0].type, 'missing');
    r = await post({ slides: [{ template_slide_id: 'sld_DOESNOTEXIST', slide_data: {} }] });
    t.equal(r.status, 404);
    t.type(r.body.detail, 'string');
  });

  t.test('authentication and organization scoping', async (t) => {
    const { templateId, results } = house;
    t.equal((await svc.api(`/api/v1/templates/${templateId}`, { as: null })).status, 401, 'no key');
    t.equal((await svc.api(`/api/v1/templates/${templateId}`, { as: { key: 'wrong' } })).status, 401, 'unknown key');
    const other = await svc.api(`/api/v1/templates/${templateId}`, { as: ORG_B });
    t.equal(other.status, 404, "another organization's template is not found");
    t.same(Object.keys((await other.json()) as Json), ['detail']);
    t.equal((await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'a.pptx', org_name: 'globex' } })).status, 403);
    const foreign = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: layoutByType(results, 'title').slide_id, slide_data: {} }] }, as: ORG_B });
    t.equal(foreign.status, 404, "another organization's slide id is not found");
  });

  t.test('uploads that are not presentations get a clear 4xx and leave the template rejected', async (t) => {
    const init = (await (await svc.api('/api/v1/templates', { method: 'POST', json: { filename: 'x.pptx' } })).json()) as Json;
    const r = await svc.api(`/api/v1/templates/${init.template_id}/upload`, { method: 'PUT', headers: { 'content-type': PPTX_MEDIA_TYPE }, body: new TextEncoder().encode('%PDF-1.4 not a deck') });
    t.equal(r.status, 415);
    const tpl = (await (await svc.api(`/api/v1/templates/${init.template_id}`)).json()) as Json;
    t.equal(tpl.status, 'rejected');
    t.equal(tpl.download_url, '');
  });

  t.test('the refused macro-enabled corpus file is refused with 415 at upload', needsCorpus('refused/poi-macro-attachments.pptm'), async (t) => {
    const up = await uploadTemplate(svc, corpusPath('refused/poi-macro-attachments.pptm'));
    t.equal(up.status, 415, 'macro-enabled file refused');
  });

  t.test('corpus templates analyze to completed and broken files fail with a reason, on the worker fleet', needsCorpus(), async (t) => {
    // eight templates spread over every folder of the kind, new arrivals included
    const all = corpusFilesOf('templates');
    const files = [...new Set(Array.from({ length: Math.min(8, all.length) }, (_, i) => all[Math.floor((i * all.length) / Math.min(8, all.length))]!))];
    const ups = await Promise.all(files.map((f) => uploadTemplate(svc, corpusPath(f))));
    const done = await Promise.all(ups.map((u) => analyze(svc, u.templateId)));
    done.forEach((st, i) => t.equal(st.status, 'completed', `${files[i]} analyzes`));
    for (const f of corpusFilesOf('broken')) {
      const up = await uploadTemplate(svc, corpusPath(f));
      if (up.status !== 200) {
        t.ok(up.status >= 400 && up.status < 500, `${f} refused at upload with ${up.status}`);
        continue;
      }
      const st = await analyze(svc, up.templateId);
      t.equal(st.status, 'failed', `${f} fails analysis`);
      t.ok(st.error && String(st.error.message).length > 10, `${f}: the failure has a reason`);
    }
    const ran = cluster.workers.map((w) => logEntries(w, 'job started').filter((e) => e['component'] === 'jetstream').length);
    t.ok(ran.every((n) => n > 0), `both workers took jobs (${ran.join(', ')})`);
    t.equal((await svc.api('/healthz', { as: null })).status, 200);
  });

  t.test('soft delete, restore and permanent delete through Redis and S3', async (t) => {
    const { templateId } = await uploadAndAnalyze(svc, housePath);
    const del = await svc.api(`/api/v1/templates/${templateId}`, { method: 'DELETE' });
    t.equal(((await del.json()) as Json).status, 'deleted');
    t.equal(((await (await svc.api(`/api/v1/templates/${templateId}/restore`, { method: 'POST', json: {} })).json()) as Json).status, 'ready');
    t.equal((await svc.api(`/api/v1/templates/${templateId}?permanent=true`, { method: 'DELETE' })).status, 204);
    t.equal((await svc.api(`/api/v1/templates/${templateId}`)).status, 404);
  });

  t.test('internal callers reach core over gRPC directly', async (t) => {
    const { templateId, results } = house;
    const client = new TemplateServiceClient(cluster.grpcAddresses[0]!, grpc.credentials.createInsecure());
    t.teardown(() => client.close());
    const md = new grpc.Metadata();
    md.set('x-api-key', ORG_A.key);
    const got = await new Promise<GetTemplateResponse>((resolve, reject) => client.getTemplate({ template_id: templateId }, md, (err, res) => (err ? reject(err) : resolve(res))));
    t.equal(got.template?.status, 'ready');
    t.equal(got.template?.analysis?.layout_count, results.layouts.length);
  });

  t.test('a worker serves its own /metrics (job outcomes, JetStream queue depth) on SLIDEWRIGHT_METRICS_PORT', async (t) => {
    const port = await freePort();
    const w = await cluster.addWorker({ SLIDEWRIGHT_METRICS_PORT: String(port), SLIDEWRIGHT_HTTP_HOST: '127.0.0.1' });
    t.match(w.lines.join('\n'), new RegExp(`metrics on port ${port}`));
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    t.match(text, /slidewright_queue_depth\{kind="generation"\} \d+/, 'queue depth read from the JetStream stream');
    t.match(text, /slidewright_pending_generations/);
    t.equal((await fetch(`http://127.0.0.1:${port}/livez`)).status, 200);
  });

  t.test('the pending limit holds across two gateways and two cores', async (t) => {
    const b2 = await startBackends();
    const c2 = await startCluster(b2, { cores: 2, gateways: 2, workers: 1, env: { SLIDEWRIGHT_MAX_PENDING_PER_ORG: '3' } });
    t.teardown(async () => {
      await c2.close();
      await b2.close();
    });
    const { results } = await uploadAndAnalyze(c2.service, housePath);
    await c2.workers[0]!.stop(); // nothing runs: generations stay pending
    const body = { slides: [{ template_slide_id: layoutByType(results, 'title').slide_id, slide_data: { title: 'Limit' } }] };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => c2.api('/api/v1/presentations/generate-deck', { method: 'POST', json: body, gateway: i % 2 })));
    const statuses = answers.map((r) => r.status);
    t.equal(statuses.filter((s) => s === 202).length, 3, `exactly 3 accepted across both gateways (${statuses.join(',')})`);
    t.equal(statuses.filter((s) => s === 429).length, 7);
    const refused = answers.find((r) => r.status === 429)!;
    t.ok(refused.headers.get('retry-after'), 'Retry-After on 429');
    t.match(((await refused.json()) as Json).detail, /pending/);
    t.equal((await c2.api('/api/v1/presentations/generate-deck', { method: 'POST', json: body, as: ORG_B, gateway: 1 })).status, 404, 'the limit is per organization (org B has no such slide, but is not refused with 429)');
    const accepted = await Promise.all(answers.filter((r) => r.status === 202).map(async (r) => ((await r.json()) as Json).generation_id as string));
    await c2.addWorker();
    for (const id of accepted) t.equal((await waitForGeneration(c2.service, id)).status, 'completed');
    t.equal((await c2.api('/api/v1/presentations/generate-deck', { method: 'POST', json: body, gateway: 1 })).status, 202, 'accepted again once the pending ones completed');
  });
}
