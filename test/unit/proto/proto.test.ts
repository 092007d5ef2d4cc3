import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROUTES, type RouteSpec } from '../../../proto/gen/routes.js';
import { MESSAGE_SCHEMAS, ROUTE_SCHEMAS } from '../../../proto/gen/schemas.js';
import { repoRoot, sharedDir, strictTests } from '../../helpers/corpus.js';

const bin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);
const routes: readonly RouteSpec[] = ROUTES;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

t.test('buf lint passes on proto/', async (t) => {
  const out = execFileSync(bin('buf'), ['lint'], { cwd: repoRoot, encoding: 'utf8' });
  t.equal(out.trim(), '', 'no lint findings');
});

t.test('gen:proto is reproducible: regenerating yields the committed files byte for byte', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-gen-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync(bin('tsx'), [join(repoRoot, 'scripts', 'gen-proto.ts'), '--out', dir], { cwd: repoRoot, stdio: 'pipe' });
  const fresh = join(dir, 'proto', 'gen');
  const committed = join(repoRoot, 'proto', 'gen');
  const freshFiles = filesUnder(fresh);
  // proto/gen/python and proto/gen/go come from `npm run gen:stubs` (checked in test/e2e/python-client.test.ts).
  const committedFiles = filesUnder(committed).filter((f) => !/^(python|go)[\\/]/.test(f));
  t.same(freshFiles, committedFiles, 'same file list');
  t.ok(freshFiles.includes('routes.ts') && freshFiles.includes('schemas.ts'));
  t.ok(freshFiles.includes(join('ts', 'slidewright', 'v1', 'presentation_service.ts')));
  for (const f of freshFiles) {
    t.ok(readFileSync(join(fresh, f)).equals(readFileSync(join(committed, f))), `${f} unchanged`);
  }
});

/** Parses the endpoint table of the contract: rows `| METHOD | \`/api/v1/...\` | ... |`. */
function contractEndpoints(md: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const line of md.split('\n')) {
    const m = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|/.exec(line);
    if (m?.[1] && m[2]) out.push({ method: m[1], path: m[2] });
  }
  return out;
}

const interfaceMd = join(sharedDir, 'spec', 'interface.md');

t.test('every endpoint of interface.md has exactly one route with that method and path', { skip: existsSync(interfaceMd) || strictTests ? false : `the shared contract ${interfaceMd} is not here (an outside referee)` }, async (t) => {
  const endpoints = contractEndpoints(readFileSync(interfaceMd, 'utf8'));
  t.ok(endpoints.length >= 20, `the table parsed (${endpoints.length} endpoints)`);
  for (const e of endpoints) {
    const hits = routes.filter((r) => r.method === e.method && r.pathTemplate === e.path);
    t.equal(hits.length, 1, `${e.method} ${e.path}`);
  }
});

t.test('the route table covers the decided extras and is consistent', async (t) => {
  const has = (method: string, path: string): boolean => routes.some((r) => r.method === method && r.pathTemplate === path);
  t.ok(has('GET', '/api/v1/presentations/{generation_id}/slides/{slide_number}/preview'), 'generated-slide preview');
  const keys = new Set(routes.map((r) => `${r.method} ${r.url}`));
  t.equal(keys.size, routes.length, 'no duplicate method + url');
  for (const r of routes) {
    t.ok(r.url.startsWith('/api/v1/'), `${r.id} under /api/v1`);
    t.notOk(/[{}]/.test(r.url), `${r.id} url is fastify-style`);
    for (const p of r.pathParams) t.ok(r.url.includes(`:${p}`), `${r.id} has :${p}`);
    t.ok(ROUTE_SCHEMAS[r.id], `${r.id} has schemas`);
    t.ok(MESSAGE_SCHEMAS[r.requestType], `${r.id} request schema`);
    if (!r.rawResponse) t.ok(ROUTE_SCHEMAS[r.id]?.response, `${r.id} response schema`);
  }
});

t.test('raw bodies and responses use google.api.HttpBody', async (t) => {
  const byId = (id: string): RouteSpec => {
    const r = routes.find((x) => x.id === id);
    if (!r) throw new Error(`no route ${id}`);
    return r;
  };
  const upload = byId('slidewright.v1.TemplateService/UploadTemplateContent');
  t.equal(upload.method, 'PUT');
  t.equal(upload.url, '/api/v1/templates/:template_id/upload');
  t.ok(upload.rawRequestBody);
  t.equal(upload.body, 'file');
  for (const id of [
    'slidewright.v1.TemplateService/DownloadTemplate',
    'slidewright.v1.PresentationService/DownloadPresentation',
    'slidewright.v1.TemplateService/GetTemplateSlidePreview',
    'slidewright.v1.PresentationService/GetPresentationSlidePreview',
  ]) {
    t.ok(byId(id).rawResponse, `${id} raw response`);
    t.equal(byId(id).responseBodyType, 'google.api.HttpBody');
  }
  const preview = byId('slidewright.v1.TemplateService/GetTemplateSlidePreview');
  t.same(preview.queryParams, ['width']);
  t.same(
    preview.responseHeaders.map((h) => h.header),
    ['X-Slide-Width-Px', 'X-Slide-Height-Px', 'X-Slide-Width-Emu', 'X-Slide-Height-Emu', 'ETag', 'X-Font-Substitutions'],
  );
  t.notOk(byId('slidewright.v1.PresentationService/GenerateDeck').rawRequestBody);
});

t.test('query parameters, status codes and path parameters follow DESIGN.md', async (t) => {
  const r = (id: string): RouteSpec | undefined => routes.find((x) => x.id === id);
  t.same(r('slidewright.v1.TemplateService/ListTemplates')?.queryParams, ['page', 'limit', 'category', 'tag', 'status', 'q', 'include_deleted']);
  t.same(r('slidewright.v1.TemplateService/DeleteTemplate')?.queryParams, ['permanent']);
  t.equal(r('slidewright.v1.TemplateService/DeleteTemplate')?.emptyStatus, 204);
  t.same(r('slidewright.v1.AnalysisService/GetAnalysis')?.queryParams, ['analysis_id']);
  t.same(r('slidewright.v1.AnalysisService/GetAnalysisStatus')?.queryParams, ['analysis_id']);
  t.same(r('slidewright.v1.PresentationService/UpdateCharts')?.pathParams, ['id']);
  t.equal(r('slidewright.v1.TemplateService/CreateTemplate')?.successStatus, 201);
  for (const id of ['GenerateDeck', 'GenerateSlide', 'UpdateCharts'])
    t.equal(r(`slidewright.v1.PresentationService/${id}`)?.successStatus, 202, `${id} 202`);
  t.equal(r('slidewright.v1.AnalysisService/StartAnalysis')?.successStatus, 202);
  t.equal(r('slidewright.v1.MatchService/MatchTemplates')?.successStatus, 200);
  t.equal(r('slidewright.v1.TemplateService/GetTemplate')?.responseBody, 'template');
  t.equal(r('slidewright.v1.PresentationService/GenerateDeck')?.responseBodyType, 'slidewright.v1.GenerationJob');
});

t.test('JSON names are the contract snake_case names', async (t) => {
  const props = (name: string): string[] => Object.keys((MESSAGE_SCHEMAS[name]?.['properties'] ?? {}) as object);
  t.same(props('slidewright.v1.GenerationJob'), ['generation_id', 'status', 'message', 'status_url', 'created_at']);
  t.same(props('slidewright.v1.GenerationOptions'), [
    'auto_paginate_tables',
    'allow_textbox_reposition',
    'table_min_font_size',
    'textbox_min_font_size',
    'show_slide_numbers',
    'footer_text',
    'footer_font_size',
    'footer_font_name',
    'language',
  ]);
  t.same(props('slidewright.v1.SlideDataInput'), ['title', 'subtitle', 'header', 'footer', 'footnote', 'content', 'slide_format', 'notes']);
  t.same(props('slidewright.v1.CreateTemplateResponse'), [
    'template_id',
    'upload_url',
    'expires_in',
    'status',
    'upload_method',
    'max_file_size',
    'allowed_extensions',
  ]);
  for (const f of [
    'generation_id',
    'status',
    'message',
    'progress',
    'total_slides_requested',
    'total_pages_generated',
    'download_url',
    'download_url_expires_in',
    'created_at',
    'updated_at',
    'completed_at',
    'errors',
    'warnings',
  ])
    t.ok(props('slidewright.v1.GetGenerationStatusResponse').includes(f), `status record has ${f}`);
  // proto JSON names in the descriptor, as other languages' JSON codecs see them
  const src = readFileSync(join(repoRoot, 'proto', 'slidewright', 'v1', 'presentation_service.proto'), 'utf8');
  t.match(src, /template_slide_id = 1 \[\s*json_name = "template_slide_id"/);
});

t.test('ts-proto output: snake_case JSON methods and grpc-js service definitions for every route', async (t) => {
  const mods = {
    'slidewright.v1.TemplateService': await import('../../../proto/gen/ts/slidewright/v1/template_service.js'),
    'slidewright.v1.AnalysisService': await import('../../../proto/gen/ts/slidewright/v1/analysis_service.js'),
    'slidewright.v1.MatchService': await import('../../../proto/gen/ts/slidewright/v1/match_service.js'),
    'slidewright.v1.PresentationService': await import('../../../proto/gen/ts/slidewright/v1/presentation_service.js'),
  } as const;
  for (const r of routes) {
    const mod = mods[r.service as keyof typeof mods] as unknown as Record<string, Record<string, { path?: string }>>;
    const def = mod[`${r.service.split('.').pop() ?? ''}Service`];
    t.equal(def?.[r.grpcMethod]?.path, r.grpcPath, `${r.id} in the grpc-js definition`);
  }
  const { GenerationOptions } = await import('../../../proto/gen/ts/slidewright/v1/content.js');
  const o = GenerationOptions.fromJSON({ table_min_font_size: 9, footer_text: 'x' });
  t.equal(o.table_min_font_size, 9);
  t.same(GenerationOptions.toJSON(o), { table_min_font_size: 9, footer_text: 'x' });
});

t.test('every JSON request body rejects unknown fields at every level', async (t) => {
  const walk = (s: unknown, where: string): void => {
    if (s === null || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (typeof o['x-proto-type'] === 'string' && o['properties'] !== undefined)
      t.equal(o['additionalProperties'], false, `${where} (${String(o['x-proto-type'])})`);
    for (const [k, v] of Object.entries(o)) {
      if (k !== 'enum' && k !== 'required' && k !== 'type') walk(v, where);
    }
  };
  for (const r of routes) {
    const body = ROUTE_SCHEMAS[r.id]?.body;
    if (body) walk(body, r.id);
  }
});
