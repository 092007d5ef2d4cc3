/**
 * The CLI's pieces without a service: error formatting, request files, tables, usage
 * errors, 1-based slide numbers, layouts by master, and the commands' REST calls against a
 * stand-in API on a loopback port.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { formatApiError } from '../../../cli/src/client.js';
import { describeAnalysis, describeIssue, describeIssues, readDocument, size, slideLabel, table, UsageError } from '../../../cli/src/format.js';
import { previewPath, run } from '../../../cli/src/main.js';

function fakeIo(env: NodeJS.ProcessEnv = {}): { io: Parameters<typeof run>[1]; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (d: Buffer) => (o += d.toString()));
  stderr.on('data', (d: Buffer) => (e += d.toString()));
  return { io: { stdout, stderr, env }, out: () => o, err: () => e };
}

t.test('API errors: 422 lists each loc: msg, 501 says not available yet, others carry status and detail', async (t) => {
  t.equal(
    formatApiError(422, [{ loc: ['body', 'slides', 0, 'template_slide_id'], msg: 'Field required' }, { loc: ['body', 'bogus'], msg: 'Extra inputs are not permitted' }], 'POST /api/v1/presentations/generate-deck'),
    'invalid request (422, POST /api/v1/presentations/generate-deck):\n  body.slides.0.template_slide_id (slide 1): Field required\n  body.bogus: Extra inputs are not permitted',
  );
  t.equal(formatApiError(501, 'template matching is not implemented yet', 'POST /api/v1/templates/match'), 'not available on this server yet (501, POST /api/v1/templates/match): template matching is not implemented yet');
  t.equal(formatApiError(404, 'template not found', 'GET /api/v1/templates/tpl_x'), '404 Not Found (GET /api/v1/templates/tpl_x): template not found');
  t.match(formatApiError(0, 'ECONNREFUSED', 'GET http://x/api/v1/templates'), /^cannot reach the API/);
});

t.test('request files: JSON by extension, YAML otherwise, objects only, readable errors', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-cli-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a.json'), '{"slides": [{"template_slide_id": "lay_1", "slide_data": {}}]}');
  writeFileSync(join(dir, 'a.yaml'), 'slides:\n  - template_slide_id: lay_1\n    slide_data: {title: "1"}\n');
  writeFileSync(join(dir, 'list.yaml'), '- 1\n- 2\n');
  writeFileSync(join(dir, 'bad.json'), '{"slides": ');
  t.same(readDocument(join(dir, 'a.json')), { slides: [{ template_slide_id: 'lay_1', slide_data: {} }] });
  t.same(readDocument(join(dir, 'a.yaml')), { slides: [{ template_slide_id: 'lay_1', slide_data: { title: '1' } }] });
  t.throws(() => readDocument(join(dir, 'list.yaml')), new UsageError(`${join(dir, 'list.yaml')}: the top level must be an object`));
  t.throws(() => readDocument(join(dir, 'bad.json')), /bad\.json is not valid JSON/);
  t.throws(() => readDocument(join(dir, 'missing.yaml')), /cannot read .*missing\.yaml: ENOENT/);
});

t.test('tables and sizes', async (t) => {
  t.equal(table(['id', 'name'], [['tpl_1', 'a'], ['tpl_22', null]]), 'id      name\ntpl_1   a\ntpl_22');
  t.equal(table(['id', 'name'], [['lay_1', 'Abschnitts-\nüberschrift'], ['lay_2', 'Title\u000bSubtitle']]), 'id     name\nlay_1  Abschnitts- überschrift\nlay_2  Title Subtitle', 'line breaks in a cell keep the row on one line');
  t.equal(size(49063), '49.1 kB');
  t.equal(size(12), '12 B');
  t.equal(size(2_500_000), '2.5 MB');
});

t.test('run: exit codes for help, usage mistakes and a missing key', async (t) => {
  const help = fakeIo();
  t.equal(await run(['--help'], help.io), 0);
  t.match(help.out(), /Usage: slidewright/);
  const unknown = fakeIo();
  t.equal(await run(['frobnicate'], unknown.io), 1);
  t.match(unknown.err(), /unknown command 'frobnicate'/);
  const badNumber = fakeIo({ SLIDEWRIGHT_API_KEY: 'k' });
  t.equal(await run(['preview', 'tpl_x', 'zero', '-o', 'x.png'], badNumber.io), 1);
  t.match(badNumber.err(), /a positive integer is expected/);
  const noKey = fakeIo();
  t.equal(await run(['templates', 'list'], noKey.io), 1);
  t.equal(noKey.err(), 'slidewright: no API key: set SLIDEWRIGHT_API_KEY or pass --api-key\n');
  const badUrl = fakeIo({ SLIDEWRIGHT_API_KEY: 'k', SLIDEWRIGHT_URL: 'localhost:8080' });
  t.equal(await run(['status', 'gen_x'], badUrl.io), 1);
  t.match(badUrl.err(), /must start with http/);
});

t.test('slide numbers: 0-based slide_index printed 1-based, -1 as the deck', async (t) => {
  t.equal(slideLabel(2), 'slide 3');
  t.equal(slideLabel(0), 'slide 1');
  t.equal(slideLabel(-1), 'deck');
  t.equal(slideLabel(undefined), 'slide ?');
  t.equal(slideLabel('x'), 'slide x', 'an unexpected value is shown, not hidden');
  t.equal(describeIssue('warning', { slide_index: 2, template_slide_id: 'lay_A', code: 'text_overflow', message: 'the text runs 3 pt past its box' }), 'warning: slide 3 (lay_A): text_overflow the text runs 3 pt past its box');
  t.equal(describeIssue('warning', { slide_index: -1, template_slide_id: '', code: 'slide_size_mismatch', message: 'not rescaled' }), 'warning: deck: slide_size_mismatch not rescaled');
  t.same(describeIssues({ warnings: [{ slide_index: 0, code: 'w', message: 'm' }], errors: [{ slide_index: 4, template_slide_id: 'sld_B', code: 'e', message: 'n' }] }), ['error: slide 5 (sld_B): e n', 'warning: slide 1: w m'], 'errors first');
  t.same(describeIssues({}), []);
  t.equal(
    formatApiError(422, [{ loc: ['body', 'slides', 2, 'slide_data', 'title'], msg: 'Input should be a valid string' }], 'POST /api/v1/presentations/generate-deck'),
    'invalid request (422, POST /api/v1/presentations/generate-deck):\n  body.slides.2.slide_data.title (slide 3): Input should be a valid string',
    'a 422 inside slides[2] names slide 3',
  );
});

t.test('templates show: layouts grouped by master, each with its number and name', async (t) => {
  const layout = (id: string, master: number, name: string): Record<string, unknown> => ({ slide_id: id, master_index: master, type: 'obj', name });
  const results = {
    masters: [
      { master_index: 0, name: 'Blue Design' },
      { master_index: 1, name: 'Orange Design' },
      { master_index: 2, name: 'Blue Design' },
    ],
    layouts: [layout('lay_1', 0, 'Title and Content'), layout('lay_2', 0, 'Blank'), layout('lay_3', 1, 'Title and Content'), layout('lay_4', 2, 'Title and Content')],
    slides: [{ slide_id: 'sld_1', slide_number: 1, layout_slide_id: 'lay_3', layout_name: 'Title and Content', title: 'Hello' }],
  };
  const text = describeAnalysis(results);
  t.equal(
    text,
    [
      'Layouts (4 in 3 masters) — use slide_id as template_slide_id for a new slide from that layout:',
      '',
      'Master 1 of 3: Blue Design (2 layouts)',
      '  slide_id  type  name',
      '  lay_1     obj   Title and Content',
      '  lay_2     obj   Blank',
      '',
      'Master 2 of 3: Orange Design (1 layout)',
      '  slide_id  type  name',
      '  lay_3     obj   Title and Content',
      '',
      'Master 3 of 3: Blue Design (1 layout)',
      '  slide_id  type  name',
      '  lay_4     obj   Title and Content',
      '',
      'Slides (1):',
      'slide_id  number  layout             master  title',
      'sld_1     1       Title and Content  2       Hello',
    ].join('\n'),
  );
  const single = describeAnalysis({ masters: [{ master_index: 0, name: 'Office Theme' }], layouts: [layout('lay_1', 0, 'Title Slide')], slides: [] });
  t.match(single, /^Layouts \(1\) — /, 'one master: no master count');
  t.match(single, /\nMaster 1 of 1: Office Theme \(1 layout\)\n/);
  t.match(single, /\nSlides \(0\):$/);
  const unlisted = describeAnalysis({ layouts: [layout('lay_1', 0, 'A'), layout('lay_2', 1, 'B')] });
  t.match(unlisted, /Master 1 of 2 \(1 layout\)\n {2}slide_id  type  name\n {2}lay_1/, 'results without masters still group the layouts');
  t.match(unlisted, /Master 2 of 2 \(1 layout\)\n[^]*lay_2/);
});

t.test('preview paths: tpl_ and gen_ ids, 1-based slide numbers; other ids are a usage error', async (t) => {
  t.equal(previewPath('tpl_A', 1), '/api/v1/templates/tpl_A/slides/1/preview');
  t.equal(previewPath('gen_B', 3), '/api/v1/presentations/gen_B/slides/3/preview');
  t.throws(() => previewPath('pres_C', 1), new UsageError('preview takes a template id (tpl_...) or a generation id (gen_...), not pres_C'));
});

/** One request a {@link fakeApi} received. */
interface SeenRequest {
  method: string;
  url: string;
  key: string | undefined;
}

/**
 * A stand-in for the REST API on a loopback port: answers each `METHOD /path?query` from
 * `routes` (status and JSON or bytes; anything else 404) and records the requests.
 */
async function fakeApi(
  t: Test,
  routes: Record<string, { status: number; json?: unknown; bytes?: Uint8Array; headers?: Record<string, string> }>,
): Promise<{ url: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
    const route = routes[`${req.method} ${req.url}`];
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: `no route ${req.method} ${req.url}` }));
      return;
    }
    if (route.bytes) res.writeHead(route.status, { 'content-type': 'image/png', ...route.headers }).end(route.bytes);
    else if (route.json === undefined) res.writeHead(route.status).end();
    else res.writeHead(route.status, { 'content-type': 'application/json' }).end(JSON.stringify(route.json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

t.test('templates delete (soft and --permanent) and restore call the REST endpoints', async (t) => {
  const api = await fakeApi(t, {
    'DELETE /api/v1/templates/tpl_A': { status: 200, json: { template_id: 'tpl_A', status: 'deleted' } },
    'DELETE /api/v1/templates/tpl_A?permanent=true': { status: 204 },
    'POST /api/v1/templates/tpl_A/restore': { status: 200, json: { template_id: 'tpl_A', status: 'ready' } },
    'POST /api/v1/templates/tpl_live/restore': { status: 409, json: { detail: 'template tpl_live is not deleted' } },
  });
  const env = { SLIDEWRIGHT_URL: api.url, SLIDEWRIGHT_API_KEY: 'key-1' };

  const soft = fakeIo(env);
  t.equal(await run(['templates', 'delete', 'tpl_A'], soft.io), 0, soft.err());
  t.equal(soft.out(), 'deleted tpl_A (status deleted); undo with: slidewright templates restore tpl_A\n');
  const restore = fakeIo(env);
  t.equal(await run(['templates', 'restore', 'tpl_A'], restore.io), 0, restore.err());
  t.equal(restore.out(), 'restored tpl_A (status ready)\n');
  const permanent = fakeIo(env);
  t.equal(await run(['templates', 'delete', 'tpl_A', '--permanent'], permanent.io), 0, permanent.err());
  t.equal(permanent.out(), 'deleted tpl_A permanently\n');
  const permanentJson = fakeIo(env);
  t.equal(await run(['--json', 'templates', 'delete', 'tpl_A', '--permanent'], permanentJson.io), 0);
  t.same(JSON.parse(permanentJson.out()), { template_id: 'tpl_A', permanent: true });
  const conflict = fakeIo(env);
  t.equal(await run(['templates', 'restore', 'tpl_live'], conflict.io), 1);
  t.equal(conflict.err(), 'slidewright: 409 Conflict (POST /api/v1/templates/tpl_live/restore): template tpl_live is not deleted\n');

  t.same(
    api.seen.map((r) => `${r.method} ${r.url}`),
    ['DELETE /api/v1/templates/tpl_A', 'POST /api/v1/templates/tpl_A/restore', 'DELETE /api/v1/templates/tpl_A?permanent=true', 'DELETE /api/v1/templates/tpl_A?permanent=true', 'POST /api/v1/templates/tpl_live/restore'],
  );
  t.ok(api.seen.every((r) => r.key === 'key-1'), 'every call carries the API key');
});

t.test('preview gen_… N asks for slide N of the generated deck; status prints slide_index 1-based', async (t) => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const api = await fakeApi(t, {
    'GET /api/v1/presentations/gen_A/slides/2/preview?width=640': { status: 200, bytes: png, headers: { 'x-slide-width-px': '640', 'x-slide-height-px': '360' } },
    'GET /api/v1/presentations/gen_A/status': {
      status: 200,
      json: {
        generation_id: 'gen_A',
        status: 'completed',
        progress: 1,
        total_slides_requested: 3,
        total_pages_generated: 3,
        errors: [],
        warnings: [
          { slide_index: 2, template_slide_id: 'lay_X', code: 'content_not_placed', message: 'footnote not placed' },
          { slide_index: -1, template_slide_id: '', code: 'slide_size_mismatch', message: 'not rescaled' },
        ],
      },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-cli-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { SLIDEWRIGHT_URL: api.url, SLIDEWRIGHT_API_KEY: 'key-1' };

  const preview = fakeIo(env);
  const file = join(dir, 'slide.png');
  t.equal(await run(['preview', 'gen_A', '2', '--width', '640', '-o', file], preview.io), 0, preview.err());
  t.same([...readFileSync(file)], [...png], 'writes the bytes it got');
  t.equal(preview.out(), `wrote ${file} (11 B, 640×360 px)\n`);

  const status = fakeIo(env);
  t.equal(await run(['status', 'gen_A'], status.io), 0, status.err());
  t.match(status.out(), /^warning: slide 3 \(lay_X\): content_not_placed footnote not placed$/m, 'slide_index 2 is slide 3');
  t.match(status.out(), /^warning: deck: slide_size_mismatch not rescaled$/m, 'slide_index -1 is the deck');

  const wrongId = fakeIo(env);
  t.equal(await run(['preview', 'pres_A', '1', '-o', file], wrongId.io), 1);
  t.match(wrongId.err(), /preview takes a template id \(tpl_\.\.\.\) or a generation id \(gen_\.\.\.\), not pres_A/);
  t.same(
    api.seen.map((r) => `${r.method} ${r.url}`),
    ['GET /api/v1/presentations/gen_A/slides/2/preview?width=640', 'GET /api/v1/presentations/gen_A/status'],
    'a wrong id makes no request',
  );
});

t.test('export writes a deck or template as PDF (PDF/A on request); generate --pdf writes the PDF beside the .pptx', async (t) => {
  const pdf = new TextEncoder().encode('%PDF-1.4 fake');
  const pptx = new Uint8Array([0x50, 0x4b, 3, 4]);
  const api = await fakeApi(t, {
    'GET /api/v1/presentations/gen_A/download?format=pdf': { status: 200, bytes: pdf },
    'GET /api/v1/presentations/gen_A/download?format=pdf&pdfa=true': { status: 200, bytes: pdf },
    'GET /api/v1/presentations/gen_A/download?format=pptx': { status: 200, bytes: pptx },
    'GET /api/v1/templates/tpl_T/download?format=pdf': { status: 200, bytes: pdf },
    'GET /api/v1/presentations/gen_B/download?format=pdf': { status: 409, json: { detail: 'generation gen_B is processing' } },
    'POST /api/v1/presentations/generate-deck': { status: 202, json: { generation_id: 'gen_A', status: 'queued' } },
    'GET /api/v1/presentations/gen_A/status': { status: 200, json: { generation_id: 'gen_A', status: 'completed', progress: 1, total_pages_generated: 1, errors: [], warnings: [] } },
    'GET /api/v1/presentations/gen_A/download': { status: 200, bytes: pptx },
  });
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-cli-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { SLIDEWRIGHT_URL: api.url, SLIDEWRIGHT_API_KEY: 'key-1' };

  const deck = fakeIo(env);
  t.equal(await run(['export', 'gen_A', '-o', join(dir, 'x.pdf')], deck.io), 0, deck.err());
  t.same([...readFileSync(join(dir, 'x.pdf'))], [...pdf]);
  t.equal(deck.out(), `wrote ${join(dir, 'x.pdf')} (13 B)\n`);
  const archival = fakeIo(env);
  t.equal(await run(['export', 'gen_A', '--pdfa', '-o', join(dir, 'a.pdf')], archival.io), 0, archival.err());
  const asPptx = fakeIo(env);
  t.equal(await run(['export', 'gen_A', '-o', join(dir, 'x.pptx')], asPptx.io), 0, asPptx.err());
  t.same([...readFileSync(join(dir, 'x.pptx'))], [...pptx], 'a .pptx name asks for the .pptx');
  const template = fakeIo(env);
  t.equal(await run(['export', 'tpl_T', '-o', join(dir, 't.pdf')], template.io), 0, template.err());
  const early = fakeIo(env);
  t.equal(await run(['export', 'gen_B', '-o', join(dir, 'b.pdf')], early.io), 1);
  t.match(early.err(), /409 Conflict .*generation gen_B is processing/);

  writeFileSync(join(dir, 'deck.yaml'), 'slides:\n  - template_slide_id: lay_1\n    slide_data: {title: "1"}\n');
  const gen = fakeIo(env);
  t.equal(await run(['generate', join(dir, 'deck.yaml'), '-o', join(dir, 'out.pptx'), '--pdf', '--interval', '0.01'], gen.io), 0, gen.err());
  t.same([...readFileSync(join(dir, 'out.pptx'))], [...pptx]);
  t.same([...readFileSync(join(dir, 'out.pdf'))], [...pdf], 'the PDF beside the .pptx');
  t.match(gen.out(), new RegExp(`wrote ${join(dir, 'out.pdf').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(13 B\\)`));

  t.same(
    api.seen.map((r) => `${r.method} ${r.url}`).filter((u) => u.includes('download')),
    [
      'GET /api/v1/presentations/gen_A/download?format=pdf',
      'GET /api/v1/presentations/gen_A/download?format=pdf&pdfa=true',
      'GET /api/v1/presentations/gen_A/download?format=pptx',
      'GET /api/v1/templates/tpl_T/download?format=pdf',
      'GET /api/v1/presentations/gen_B/download?format=pdf',
      'GET /api/v1/presentations/gen_A/download',
      'GET /api/v1/presentations/gen_A/download?format=pdf',
    ],
  );
});

t.test('export retries a PDF download while the server answers 409 with Retry-After (the PDF being rendered), not a 409 without it', async (t) => {
  const pdf = new TextEncoder().encode('%PDF-1.4 fake');
  let asked = 0;
  const server = createServer((req, res) => {
    asked++;
    if (asked <= 2) res.writeHead(409, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ detail: 'the PDF of gen_R is being rendered; retry in 2 s' }));
    else res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-cli-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const io = fakeIo({ SLIDEWRIGHT_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, SLIDEWRIGHT_API_KEY: 'key-1' });
  t.equal(await run(['export', 'gen_R', '-o', join(dir, 'r.pdf')], io.io), 0, io.err());
  t.equal(asked, 3, 'two 409s with Retry-After, then the PDF');
  t.same([...readFileSync(join(dir, 'r.pdf'))], [...pdf]);
});
