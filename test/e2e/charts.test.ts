/**
 * Charts and pictures through the REST contract (embedded service): a deck with chart and
 * image blocks is generated; `PUT /presentations/{id}/update-charts` makes a new `gen_`
 * job whose download holds the new values in the chart caches and the embedded workbook;
 * references that do not fit the deck are refused with 422 before a job exists; unknown
 * or foreign ids are 404.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { corpusPath, needsCorpus } from '../helpers/corpus.js';
import { ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { lintPptx, refereeSkipped, xsdCheck } from '../helpers/referee.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { RT } from '../../core/src/ooxml/opc/constants.js';
import { NS, attrNS, child, descendants } from '../../core/src/ooxml/xml.js';
import { encodeOpaquePng } from '../../core/src/render/png.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
const scratch = mkdtempSync(join(tmpdir(), 'slidewright-e2e-charts-'));
let chartTypes: { templateId: string; results: Json };
let placeholders: { templateId: string; results: Json };

const templates = needsCorpus('templates/python-pptx-chart-types.pptx', 'templates/python-pptx-populated-placeholders.pptx');

t.before(async () => {
  svc = await startTestService();
  if (templates.skip) return;
  chartTypes = await uploadAndAnalyze(svc, corpusPath('templates/python-pptx-chart-types.pptx'));
  placeholders = await uploadAndAnalyze(svc, corpusPath('templates/python-pptx-populated-placeholders.pptx'));
});
t.teardown(async () => {
  await svc.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function download(status: Json): Promise<Uint8Array> {
  const res = await fetch(status.download_url as string);
  if (res.status !== 200) throw new Error(`download: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Per chart of a slide (document order): series names, categories and values from the caches, and the workbook's cells. */
async function slideCharts(bytes: Uint8Array, slideIndex: number) {
  const pkg = await OpcPackage.open(bytes);
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  const slide = pkg.rel(pres, attrNS(descendants(pkg.getXml(pres), NS.p, 'sldId')[slideIndex]!, NS.r, 'id')!)!.targetPartName!;
  const out = [];
  for (const c of descendants(pkg.getXml(slide), NS.c, 'chart')) {
    const part = pkg.rel(slide, attrNS(c, NS.r, 'id')!)!.targetPartName!;
    const doc = pkg.getXml(part);
    const sers = descendants(doc, NS.c, 'ser');
    const names = sers.map((s) => descendants(child(s, NS.c, 'tx')!, NS.c, 'v')[0]?.textContent);
    const cats = descendants(child(sers[0]!, NS.c, 'cat') ?? child(sers[0]!, NS.c, 'xVal')!, NS.c, 'v').map((v) => v.textContent);
    const values = sers.map((s) => descendants(child(s, NS.c, 'val') ?? child(s, NS.c, 'yVal')!, NS.c, 'v').map((v) => Number(v.textContent)));
    const title = descendants(child(doc.documentElement!, NS.c, 'chart')!, NS.a, 't')[0]?.textContent;
    const rId = attrNS(child(doc.documentElement!, NS.c, 'externalData'), NS.r, 'id')!;
    const wbBytes = pkg.getBytes(pkg.rel(part, rId)!.targetPartName!);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(wbBytes) as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0]!;
    const cells = {
      names: names.map((_, i) => ws.getCell(1, i + 2).value),
      cats: cats.map((_, i) => ws.getCell(i + 2, 1).value),
      values: values.map((v, s) => v.map((_, i) => ws.getCell(i + 2, s + 2).value)),
    };
    out.push({ part, names, cats, values, title, cells });
  }
  return out;
}

const png = (w: number, h: number): string => {
  const rgba = new Uint8Array(w * h * 4).fill(200);
  return Buffer.from(encodeOpaquePng(rgba, w, h)).toString('base64');
};

t.test('generate with chart and image blocks, then update-charts makes a new gen_ job with the new values', templates, async (t) => {
  const pieSlide = (chartTypes.results.slides as Json[])[3]!; // two pie charts
  const chartLayout = (placeholders.results.layouts as Json[]).find((l) => (l.shapes as Json[]).some((s) => s.placeholder?.type === 'chart'))!;
  const picLayout = (placeholders.results.layouts as Json[]).find((l) => (l.shapes as Json[]).some((s) => s.placeholder?.type === 'pic'))!;
  const gen = await svc.api('/api/v1/presentations/generate-deck', {
    method: 'POST',
    json: {
      slides: [
        { template_slide_id: pieSlide.slide_id, slide_data: { content: { blocks: [{ type: 'chart', chart: { chart_type: 'pie', categories: ['Red', 'Blue'], series: [{ name: 'Share', values: [60, 40] }] } }] } } },
        { template_slide_id: chartLayout.slide_id, slide_data: { content: { blocks: [{ type: 'chart', chart: { chart_type: 'column', title: 'Revenue', categories: ['Q1', 'Q2'], series: [{ name: 'EU', values: [1, 2] }] } }] } } },
        { template_slide_id: picLayout.slide_id, slide_data: { content: { blocks: [{ type: 'image', image: { data_base64: png(40, 20), content_type: 'image/png', alt_text: 'grey' } }] } } },
      ],
    },
  });
  t.equal(gen.status, 202);
  const genId = ((await gen.json()) as Json).generation_id as string;
  const st = await waitForGeneration(svc, genId);
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  const first = await download(st);
  const before = await slideCharts(first, 0);
  t.same(before[0]!.names, ['Share']);
  t.same(before[0]!.cells.values, [[60, 40]], 'the generated chart workbook holds the block data');
  t.equal(descendants((await OpcPackage.open(first)).getXml('/ppt/slides/slide3.xml'), NS.p, 'pic').length, 1, 'the picture is placed');

  // update: the second pie by name, the new column chart by index (more series and categories)
  const pieName = (await OpcPackage.open(first)).getXml('/ppt/slides/slide1.xml');
  const names = descendants(pieName, NS.p, 'graphicFrame').map((f) => descendants(f, NS.p, 'cNvPr')[0]!.getAttribute('name'));
  const upd = await svc.api(`/api/v1/presentations/${genId}/update-charts`, {
    method: 'PUT',
    json: {
      charts: [
        { slide_index: 0, chart_name: names[1], title: 'Updated pie', categories: ['A', 'B', 'C'], series: [{ name: 'Mix', values: [1, 2, 3] }] },
        { slide_index: 1, chart_index: 0, categories: ['Q1', 'Q2', 'Q3', 'Q4'], series: [{ name: 'EU', values: [1, 2, 3, 4] }, { name: 'US', values: [4, 3, 2, 1] }] },
      ],
    },
  });
  t.equal(upd.status, 202, 'update-charts answers 202');
  const job = (await upd.json()) as Json;
  t.match(job.generation_id, /^gen_/);
  t.not(job.generation_id, genId, 'a new generation id');
  t.equal(job.status, 'pending');
  const done = await waitForGeneration(svc, job.generation_id as string);
  t.equal(done.status, 'completed', JSON.stringify(done.errors));
  t.equal(done.total_pages_generated, 3);
  const updated = await download(done);
  const pies = await slideCharts(updated, 0);
  t.same(pies[0]!.names, before[0]!.names, 'the first pie is untouched');
  t.same(pies[1]!.names, ['Mix']);
  t.same(pies[1]!.cats, ['A', 'B', 'C']);
  t.same(pies[1]!.values, [[1, 2, 3]]);
  t.equal(pies[1]!.title, 'Updated pie');
  t.same(pies[1]!.cells, { names: ['Mix'], cats: ['A', 'B', 'C'], values: [[1, 2, 3]] }, 'the workbook holds what the caches show');
  const cols = await slideCharts(updated, 1);
  t.same(cols[0]!.names, ['EU', 'US']);
  t.same(cols[0]!.values, [[1, 2, 3, 4], [4, 3, 2, 1]]);
  t.same(cols[0]!.cells.values, [[1, 2, 3, 4], [4, 3, 2, 1]]);
  t.equal(cols[0]!.title, 'Revenue', 'the title stays when none is given');
  // the source generation still downloads its own file
  t.same((await slideCharts(await download(await waitForGeneration(svc, genId)), 1))[0]!.names, ['EU'], 'the source deck is unchanged');

  const file = join(scratch, 'updated.pptx');
  writeFileSync(file, updated);
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));

  // references that do not fit the deck: 422 with the field, no job
  const bad = async (chart: Json) => svc.api(`/api/v1/presentations/${genId}/update-charts`, { method: 'PUT', json: { charts: [chart] } });
  const data = { categories: ['a'], series: [{ name: 's', values: [1] }] };
  for (const [chart, loc] of [
    [{ slide_index: 7, chart_index: 0, ...data }, ['body', 'charts', 0, 'slide_index']],
    [{ slide_index: 0, chart_index: 5, ...data }, ['body', 'charts', 0, 'chart_index']],
    [{ slide_index: 0, chart_name: 'No such chart', ...data }, ['body', 'charts', 0, 'chart_name']],
    [{ slide_index: 0, ...data }, ['body', 'charts', 0, 'chart_index']],
    [{ slide_index: 2, chart_index: 0, ...data }, ['body', 'charts', 0, 'chart_index']],
    [{ slide_index: 0, chart_index: 0, categories: ['a', 'b'], series: [{ name: 's', values: [1] }] }, ['body', 'charts', 0, 'series', 0, 'values']],
  ] as Array<[Json, unknown[]]>) {
    const res = await bad(chart);
    t.equal(res.status, 422, `422 for ${JSON.stringify(chart)}`);
    const body = (await res.json()) as Json;
    t.same(body.detail[0].loc, loc, `loc ${JSON.stringify(loc)}`);
  }
  t.equal((await bad({ chart_index: 0, ...data })).status, 422, 'slide_index is required');
  t.equal((await svc.api('/api/v1/presentations/gen_01HZZZZZZZZZZZZZZZZZZZZZZZ/update-charts', { method: 'PUT', json: { charts: [{ slide_index: 0, chart_index: 0, ...data }] } })).status, 404, 'unknown id: 404');
  t.equal((await svc.api('/api/v1/presentations/pres_01HZZZZZZZZZZZZZZZZZZZZZZZ/update-charts', { method: 'PUT', json: { charts: [{ slide_index: 0, chart_index: 0, ...data }] } })).status, 404, 'pres_ ids: 404');
  const foreign = await svc.api(`/api/v1/presentations/${genId}/update-charts`, { method: 'PUT', json: { charts: [{ slide_index: 0, chart_index: 0, ...data }] }, as: ORG_B });
  t.equal(foreign.status, 404, "another organization's id: 404");
});
