/**
 * Charts: chart XML caches, formulas and the embedded workbook updated together (read
 * back with ExcelJS), for every updatable chart of python-pptx's chart-type deck and
 * PowerPoint's own charts (whose workbooks hold a table); new chart parts of every type;
 * chart blocks in deck generation; update-charts references and errors. Outputs pass
 * ooxml-lint and the XSD check (--all: chart parts against dml-chart.xsd) and LibreOffice
 * converts them.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, attrNS, child, children, descendants, type Document } from '../../../core/src/ooxml/xml.js';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { packageStore, updateChartPart, createChartPart } from '../../../core/src/generation/charts/chart-part.js';
import { CHART_TYPES, newChartSpec, type ChartData } from '../../../core/src/generation/charts/chart-data.js';
import { readChartWorkbook } from '../../../core/src/generation/charts/workbook.js';
import { chartInventory, resolveChartRef, updateDeckCharts } from '../../../core/src/generation/charts/deck-update.js';
import { parseRangeFormula, rangeFormula, quoteSheet, columnLetters } from '../../../core/src/generation/charts/refs.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { convertToPdf, lintPptx, pdfPageCount, refereeSkipped, renderingSkipReason, xsdCheck } from '../../helpers/referee.js';
import ExcelJS from 'exceljs';

const CHART_TYPES_DECK = 'python-pptx-chart-types.pptx';
const PLACEHOLDERS = 'python-pptx-populated-placeholders.pptx';
const scratch = mkdtempSync(join(tmpdir(), 'slidewright-charts-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const template = (name: string): Uint8Array => readFileSync(corpusPath(`templates/${name}`));

/** tap options of a test that reads these corpus templates (skipped without them). */
function needsTemplates(...names: string[]): { skip: string | false } {
  return needsCorpus(...names.map((n) => `templates/${n}`));
}

/** What a chart part shows: per series its name, categories and values from the caches, and the formulas. */
function cachedSeries(doc: Document): Array<{ name: string; nameRef: string; cats: string[]; catRef: string; vals: Array<number | null>; valRef: string; ptCount: number }> {
  const out = [];
  for (const ser of descendants(doc, NS.c, 'ser')) {
    const tx = child(child(ser, NS.c, 'tx'), NS.c, 'strRef');
    const cat = child(ser, NS.c, 'cat') ?? child(ser, NS.c, 'xVal');
    const val = child(ser, NS.c, 'val') ?? child(ser, NS.c, 'yVal');
    const catRef = child(cat, NS.c, 'strRef') ?? child(cat, NS.c, 'numRef');
    const catCache = child(catRef, NS.c, 'strCache') ?? child(catRef, NS.c, 'numCache');
    const numRef = child(val, NS.c, 'numRef');
    const numCache = child(numRef, NS.c, 'numCache');
    const n = Number(attr(child(numCache, NS.c, 'ptCount'), 'val'));
    const vals: Array<number | null> = Array.from({ length: n }, () => null);
    for (const pt of children(numCache!, NS.c, 'pt')) vals[Number(attr(pt, 'idx'))] = Number(child(pt, NS.c, 'v')!.textContent);
    const cats: string[] = [];
    for (const pt of children(catCache!, NS.c, 'pt')) cats[Number(attr(pt, 'idx'))] = child(pt, NS.c, 'v')!.textContent ?? '';
    out.push({
      name: descendants(tx!, NS.c, 'v')[0]?.textContent ?? '',
      nameRef: child(tx, NS.c, 'f')?.textContent ?? '',
      cats,
      catRef: child(catRef, NS.c, 'f')?.textContent ?? '',
      vals,
      valRef: child(numRef, NS.c, 'f')?.textContent ?? '',
      ptCount: n,
    });
  }
  return out;
}

/** The workbook part of a chart part. */
function workbookOf(pkg: OpcPackage, chartPart: string): string {
  const doc = pkg.getXml(chartPart);
  const rId = attrNS(child(doc.documentElement!, NS.c, 'externalData'), NS.r, 'id')!;
  return pkg.rel(chartPart, rId)!.targetPartName!;
}

/** Checks that a chart part's caches, formulas and its workbook's cells say the same as `data`. */
async function checkChartAgrees(t: Test, pkg: OpcPackage, chartPart: string, data: ChartData, label: string): Promise<void> {
  const doc = pkg.getXml(chartPart);
  const series = cachedSeries(doc);
  t.equal(series.length, data.series.length, `${label}: one c:ser per data series`);
  const sheet = parseRangeFormula(series[0]!.valRef)!.sheet;
  const wbPart = workbookOf(pkg, chartPart);
  t.equal(pkg.contentType(wbPart), CT.xlsx, `${label}: the embedded workbook is an .xlsx part`);
  const wb = await readChartWorkbook(pkg.getBytes(wbPart), sheet, data.categories.length, data.series.length);
  const wbook = new ExcelJS.Workbook();
  await wbook.xlsx.load(Buffer.from(pkg.getBytes(wbPart)) as unknown as ExcelJS.Buffer);
  const ws = wbook.getWorksheet(sheet)!;
  const cell = (ref: string): unknown => {
    const r = parseRangeFormula(ref)!;
    return ws.getCell(r.row1, r.col1).value;
  };
  data.series.forEach((s, i) => {
    const c = series[i]!;
    t.equal(c.name, s.name, `${label}: series ${i} name cached`);
    t.equal(cell(c.nameRef), s.name, `${label}: series ${i} name cell (${c.nameRef}) holds the cached name`);
    t.equal(c.ptCount, data.categories.length, `${label}: series ${i} ptCount`);
    t.same(c.cats, data.categories, `${label}: series ${i} categories cached`);
    t.same(c.vals, s.values.map((v) => (Number.isFinite(v) ? v : null)), `${label}: series ${i} values cached`);
    const vr = parseRangeFormula(c.valRef)!;
    t.equal(vr.row2 - vr.row1 + 1, data.categories.length, `${label}: series ${i} value range spans the categories`);
    t.same(wb.values[i], s.values.map((v) => (Number.isFinite(v) ? v : null)), `${label}: series ${i} workbook values equal the cache`);
  });
  t.same(wb.names, data.series.map((s) => s.name), `${label}: workbook series names`);
  t.same(wb.categories.map((c) => String(c)), data.categories, `${label}: workbook categories`);
}

/**
 * Lint, XSD (--all) and LibreOffice. `knownXsd` matches schema errors the source file
 * already has (PowerPoint's SlideWithCharts writes `c:showDLblsOverMax` after `c:extLst`).
 */
async function refereeChecks(t: Test, file: string, pages: number, knownXsd?: RegExp): Promise<void> {
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) {
    if (knownXsd) {
      const errors = xsd.output.split('\n').filter((l) => /validity error/.test(l));
      t.same(errors.filter((l) => !knownXsd.test(l)), [], 'XSD check (--all): no schema error but those the source already has');
    } else t.ok(xsd.ok, `XSD check (--all, charts against dml-chart.xsd) passes:\n${xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n')}`);
  }
  if (refereeSkipped(t, { skipped: await renderingSkipReason() })) return;
  const pdf = await convertToPdf(file, join(scratch, `pdf-${pages}-${Math.random().toString(36).slice(2)}`));
  t.equal(await pdfPageCount(pdf), pages, 'LibreOffice converts it, one page per slide');
}

t.test('cell references and formulas', async (t) => {
  t.equal(columnLetters(1), 'A');
  t.equal(columnLetters(27), 'AA');
  t.equal(quoteSheet('Sheet1'), 'Sheet1');
  t.equal(quoteSheet("Bob's data"), "'Bob''s data'");
  t.equal(rangeFormula({ sheet: 'Sheet1', row1: 2, col1: 1, row2: 5, col2: 1 }), 'Sheet1!$A$2:$A$5');
  t.equal(rangeFormula({ sheet: 'a b', row1: 1, col1: 2, row2: 1, col2: 2 }), "'a b'!$B$1");
  t.same(parseRangeFormula("'Bob''s data'!$B$2:$C$9"), { sheet: "Bob's data", row1: 2, col1: 2, row2: 9, col2: 3 });
  t.same(parseRangeFormula('Tabelle1!$A$2:$A$5'), { sheet: 'Tabelle1', row1: 2, col1: 1, row2: 5, col2: 1 });
  t.equal(parseRangeFormula('SUM(A1:A3)'), undefined);
  for (const type of ['column', 'Stacked Column', 'bar-stacked', 'line', 'pie', 'doughnut', 'area', 'scatter', 'radar']) t.ok(newChartSpec(type), `${type} is a chart type`);
  t.equal(newChartSpec('bubble'), undefined);
});

t.test('every updatable chart of the chart-types deck: series and categories added and removed, caches and workbook agree', needsTemplates(CHART_TYPES_DECK), async (t) => {
  const pkg = await OpcPackage.open(template(CHART_TYPES_DECK));
  const grow: ChartData = {
    title: 'Grown & <escaped>',
    categories: ['North', 'South', 'East', 'West', 'Centre'],
    series: [
      { name: 'Q1', values: [1, 2, 3, 4, 5] },
      { name: 'Q2', values: [2.5, Number.NaN, 1, 0, -1] },
      { name: 'Q3', values: [9, 8, 7, 6, 5] },
      { name: 'Q4', values: [1e6, 2e6, 3e6, 4e6, 5e6] },
      { name: 'Q5', values: [0.1, 0.2, 0.3, 0.4, 0.5] },
    ],
  };
  const shrink: ChartData = { categories: ['Only', 'Two'], series: [{ name: 'Single', values: [3, 4] }] };
  const scatter: ChartData = { categories: ['1', '2.5', '4'], series: [{ name: 'y1', values: [1, 4, 9] }, { name: 'y2', values: [2, 3, 5] }, { name: 'y3', values: [0, 1, 0] }, { name: 'y4', values: [5, 5, 5] }, { name: 'y5', values: [7, 1, 3] }, { name: 'y6', values: [1, 1, 1] }] };
  const updated: Array<[string, ChartData]> = [];
  for (let i = 1; i <= 31; i++) {
    const part = `/ppt/charts/chart${i}.xml`;
    const plot = descendants(pkg.getXml(part), NS.c, 'plotArea')[0]!;
    const kind = children(plot, NS.c).find((e) => /Chart$/.test(e.localName ?? ''))!.localName!;
    if (kind === 'bubbleChart') {
      await t.rejects(updateChartPart(packageStore(pkg), part, grow), { code: 'chart_unsupported' }, `${part} (bubble) is refused`);
      continue;
    }
    const data = kind === 'scatterChart' ? scatter : i % 2 ? grow : shrink;
    await updateChartPart(packageStore(pkg), part, data);
    updated.push([part, data]);
  }
  t.equal(updated.length, 29, 'every chart but the two bubble charts was updated');
  for (const [part, data] of updated) await checkChartAgrees(t, pkg, part, data, part);
  const scatterDoc = pkg.getXml('/ppt/charts/chart21.xml');
  t.ok(child(child(descendants(scatterDoc, NS.c, 'ser')[0], NS.c, 'xVal'), NS.c, 'numRef'), 'scatter x values that are numbers are a c:numRef');
  const titled = pkg.getXml('/ppt/charts/chart1.xml');
  t.equal(descendants(child(titled.documentElement!, NS.c, 'chart')!, NS.a, 't')[0]?.textContent, 'Grown & <escaped>', 'the title is set');
  const idx = descendants(pkg.getXml('/ppt/charts/chart7.xml'), NS.c, 'ser').map((s) => attr(child(s, NS.c, 'idx'), 'val'));
  t.equal(new Set(idx).size, idx.length, 'series indexes stay unique');
  const file = join(scratch, 'chart-types.pptx');
  writeFileSync(file, await pkg.toBytes());
  await refereeChecks(t, file, 8);
});

t.test("PowerPoint's charts: the table over the workbook data is rebuilt over the new range", needsCorpus('bench/SlideWithCharts.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('bench/SlideWithCharts.pptx')));
  const data: ChartData = { categories: ['A', 'B', 'C', 'D', 'E', 'F'], series: [{ name: 'Alpha', values: [1, 2, 3, 4, 5, 6] }, { name: 'Beta', values: [6, 5, 4, 3, 2, 1] }] };
  await updateChartPart(packageStore(pkg), '/ppt/charts/chart1.xml', data);
  await checkChartAgrees(t, pkg, '/ppt/charts/chart1.xml', data, 'chart1');
  const series = cachedSeries(pkg.getXml('/ppt/charts/chart1.xml'));
  t.equal(series[0]!.valRef, 'Tabelle1!$B$2:$B$7', 'formulas keep the workbook sheet');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(pkg.getBytes(workbookOf(pkg, '/ppt/charts/chart1.xml'))) as unknown as ExcelJS.Buffer);
  const tables = wb.getWorksheet('Tabelle1')!.getTables() as unknown as Array<{ table: { tableRef?: string; ref?: string; columns: Array<{ name: string }> } }>;
  t.equal(tables.length, 1, 'one table');
  t.equal(tables[0]!.table.tableRef ?? tables[0]!.table.ref, 'A1:C7', 'the table covers the new data');
  t.same(tables[0]!.table.columns.map((c) => c.name).slice(1), ['Alpha', 'Beta'], 'table columns are the series names');
  t.equal(wb.getWorksheet('Tabelle1')!.getCell('D2').value, null, 'the old third series is cleared');
  const file = join(scratch, 'ppt-charts.pptx');
  writeFileSync(file, await pkg.toBytes());
  await refereeChecks(t, file, 2, /showDLblsOverMax/);
});

t.test('new chart parts of every chart type validate and hold their data', needsTemplates(PLACEHOLDERS), async (t) => {
  const pkg = await OpcPackage.open(template(PLACEHOLDERS));
  const data: ChartData = { title: 'New', categories: ['x', 'y', 'z'], series: [{ name: 's1', values: [1, 2, 3] }, { name: 's2', values: [3, 2, 1] }] };
  for (const type of CHART_TYPES) {
    const part = await createChartPart(packageStore(pkg), newChartSpec(type)!, data);
    t.equal(pkg.contentType(part), CT.chart, `${type}: a chart part`);
    await checkChartAgrees(t, pkg, part, data, type);
  }
  // one slide holds every new chart, so the XSD check and LibreOffice see them
  const slide = '/ppt/slides/slide4.xml';
  const doc = pkg.getXml(slide);
  const frame = descendants(doc, NS.p, 'graphicFrame')[0]!;
  const charts = pkg.partsOfType(CT.chart).filter((p) => p !== '/ppt/charts/chart1.xml');
  for (const [i, part] of charts.entries()) {
    const copy = frame.cloneNode(true) as typeof frame;
    descendants(copy, NS.p, 'cNvPr')[0]!.setAttribute('id', String(100 + i));
    const rId = pkg.addRel(slide, RT.chart, part);
    descendants(copy, NS.c, 'chart')[0]!.setAttributeNS(NS.r, 'r:id', rId);
    const ph = descendants(copy, NS.p, 'ph')[0];
    ph?.parentNode?.removeChild(ph);
    frame.parentNode!.appendChild(copy);
  }
  pkg.markDirty(slide);
  const file = join(scratch, 'new-charts.pptx');
  writeFileSync(file, await pkg.toBytes());
  await refereeChecks(t, file, 9);
});

const spec = (tpl: string, kind: 'slide' | 'layout', n: number, data: DeckSlideSpec['slide_data']): DeckSlideSpec => ({
  template_id: tpl,
  template_slide_id: `${tpl}#${kind}${n}`,
  source: { kind, part_name: kind === 'slide' ? `/ppt/slides/slide${n}.xml` : `/ppt/slideLayouts/slideLayout${n}.xml` },
  slide_data: data,
  options: {},
});
const chartBlock = (chart_type: string, data: ChartData) => ({ type: 'chart' as const, chart: { chart_type, ...data } });

t.test('chart blocks in a generated deck: template charts refilled, chart and content placeholders get new charts', needsTemplates(CHART_TYPES_DECK, PLACEHOLDERS), async (t) => {
  const sales: ChartData = { title: 'Sales', categories: ['2024', '2025', '2026'], series: [{ name: 'EMEA', values: [10, 12, 15] }, { name: 'APAC', values: [8, 11, 16] }, { name: 'AMER', values: [20, 19, 21] }] };
  const r = await buildDeck({
    templates: new Map([
      [CHART_TYPES_DECK, template(CHART_TYPES_DECK)],
      [PLACEHOLDERS, template(PLACEHOLDERS)],
    ]),
    slides: [
      spec(PLACEHOLDERS, 'layout', 4, { content: [{ blocks: [chartBlock('column', sales)] }] }),
      spec(PLACEHOLDERS, 'slide', 4, { content: [{ blocks: [chartBlock('line', sales)] }] }),
      spec(CHART_TYPES_DECK, 'slide', 4, { content: [{ blocks: [chartBlock('pie', sales), chartBlock('pie', { categories: ['a', 'b'], series: [{ name: 'one', values: [1, 2] }] })] }] }),
      spec(PLACEHOLDERS, 'layout', 2, { content: [{ blocks: [chartBlock('doughnut', sales)] }] }),
      spec(PLACEHOLDERS, 'layout', 4, { content: [{ blocks: [chartBlock('sunburst', sales)] }] }),
      spec(PLACEHOLDERS, 'layout', 4, { content: [{ blocks: [chartBlock('column', { categories: ['a', 'b'], series: [{ name: 's', values: [1] }] })] }] }),
    ],
  });
  t.same(
    r.errors.map((e) => [e.slide_index, e.code]),
    [
      [4, 'chart_unsupported'],
      [5, 'chart_invalid'],
    ],
    'an unknown chart type and a series with too few values fail their slides',
  );
  t.equal(r.pages_generated, 4);
  t.ok(r.warnings.some((w) => w.slide_index === 1 && w.code === 'chart_type_kept'), "a template chart keeps its type (warning when chart_type differs)");
  t.notOk(r.warnings.some((w) => w.slide_index === 2 && w.code === 'chart_type_kept'), 'no warning when the type matches');
  const pkg = await OpcPackage.open(r.bytes!);
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  const slides = descendants(pkg.getXml(pres), NS.p, 'sldId').map((s) => pkg.rel(pres, attrNS(s, NS.r, 'id')!)!.targetPartName!);
  const chartsOf = (slide: string): string[] =>
    descendants(pkg.getXml(slide), NS.c, 'chart').map((c) => pkg.rel(slide, attrNS(c, NS.r, 'id')!)!.targetPartName!);
  // slide 1: the layout's chart placeholder became a chart frame linked to the placeholder
  const s1 = pkg.getXml(slides[0]!);
  const frame = descendants(s1, NS.p, 'graphicFrame')[0]!;
  t.equal(attr(descendants(frame, NS.p, 'ph')[0], 'type'), 'chart', 'the new chart frame keeps the chart placeholder link');
  t.equal(descendants(s1, NS.p, 'sp').filter((sp) => attr(descendants(sp, NS.p, 'ph')[0], 'type') === 'chart').length, 0, 'the empty placeholder is gone');
  await checkChartAgrees(t, pkg, chartsOf(slides[0]!)[0]!, sales, 'new column chart');
  t.ok(descendants(pkg.getXml(chartsOf(slides[0]!)[0]!), NS.c, 'barChart').length, 'a bar chart part');
  // slide 2: the template slide's chart (a line chart keeps... its own type: bar) got the data
  await checkChartAgrees(t, pkg, chartsOf(slides[1]!)[0]!, sales, 'template chart placeholder');
  // slide 3: the template's two pie charts, left to right
  const pies = chartsOf(slides[2]!);
  t.equal(pies.length, 2);
  t.equal(new Set([...pies, ...chartsOf(slides[1]!), ...chartsOf(slides[0]!)]).size, 4, 'every slide has its own chart parts');
  // slide 4: a content placeholder holds a doughnut
  t.ok(descendants(pkg.getXml(chartsOf(slides[3]!)[0]!), NS.c, 'doughnutChart').length, 'a doughnut in the content placeholder');
  const file = join(scratch, 'chart-blocks.pptx');
  writeFileSync(file, r.bytes!);
  await refereeChecks(t, file, 4);
});

t.test('update-charts on a deck: references by index and name, errors, title only, untouched charts stay', needsTemplates(CHART_TYPES_DECK, 'automizer-waterfall-chartex.pptx'), async (t) => {
  const deck = template(CHART_TYPES_DECK);
  const inv = chartInventory(await OpcPackage.open(deck));
  t.equal(inv.slides.length, 8);
  t.same(inv.slides.map((s) => s.charts.length), [6, 6, 6, 2, 5, 2, 3, 1], 'charts per slide, in document order');
  t.match(resolveChartRef(inv, { slide_index: 8, chart_index: 0 }), { field: 'slide_index' });
  t.match(resolveChartRef(inv, { slide_index: 3, chart_index: 2 }), { field: 'chart_index', message: /has 2 charts/ });
  t.match(resolveChartRef(inv, { slide_index: 3, chart_name: 'Nope' }), { field: 'chart_name' });
  t.match(resolveChartRef(inv, { slide_index: 3 }), { field: 'chart_index', message: /chart_index or chart_name/ });
  t.match(resolveChartRef(inv, { slide_index: 5, chart_index: 0 }), { field: 'chart_index', message: /bubbleChart/ });
  const name = inv.slides[3]!.charts[1]!.name;
  t.match(resolveChartRef(inv, { slide_index: 3, chart_name: name.toUpperCase() }), { chart: { chart_index: 1 } }, 'names match case-insensitively');

  const data = { categories: ['a', 'b', 'c'], series: [{ name: 'n', values: [1, 2, 3] }] };
  const before = await OpcPackage.open(deck);
  const r = await updateDeckCharts(deck, [
    { slide_index: 3, chart_name: name, title: 'By name', ...data },
    { slide_index: 0, chart_index: 1, title: 'Title only', categories: [], series: [] },
    { slide_index: 9, chart_index: 0, ...data },
  ]);
  t.equal(r.applied, 2);
  t.same(r.errors.map((e) => [e.update_index, e.code]), [[2, 'chart_invalid']]);
  const pkg = await OpcPackage.open(r.bytes!);
  const updated = inv.slides[3]!.charts[1]!.part_name!;
  await checkChartAgrees(t, pkg, updated, data, 'by name');
  const titleOnly = inv.slides[0]!.charts[1]!.part_name!;
  t.equal(descendants(child(pkg.getXml(titleOnly).documentElement!, NS.c, 'chart')!, NS.a, 't')[0]?.textContent, 'Title only');
  t.same(cachedSeries(pkg.getXml(titleOnly)), cachedSeries(before.getXml(titleOnly)), 'a title-only update leaves the data');
  t.same(pkg.getBytes(workbookOf(pkg, titleOnly)), before.getBytes(workbookOf(before, titleOnly)), 'and the workbook');
  const other = inv.slides[3]!.charts[0]!.part_name!;
  t.same(cachedSeries(pkg.getXml(other)), cachedSeries(before.getXml(other)), 'the other chart of the slide is unchanged');

  const ex = chartInventory(await OpcPackage.open(template('automizer-waterfall-chartex.pptx')));
  const chartex = ex.slides.flatMap((s) => s.charts.map((c) => ({ s: s.slide_index, c }))).find((x) => x.c.kind === 'chartex');
  t.ok(chartex, 'the waterfall deck lists its extended chart');
  t.match(resolveChartRef(ex, { slide_index: chartex!.s, chart_index: chartex!.c.chart_index }), { field: 'chart_index', message: /extended charts/ });
});

t.test('a chart part shared by two slides is copied before it changes', needsTemplates(CHART_TYPES_DECK), async (t) => {
  const pkg = await OpcPackage.open(template(CHART_TYPES_DECK));
  // slide 8 shows chart31; make slide 7 show it too (a second relationship to the same part)
  const rId = pkg.addRel('/ppt/slides/slide7.xml', RT.chart, '/ppt/charts/chart31.xml');
  const doc = pkg.getXml('/ppt/slides/slide7.xml');
  descendants(doc, NS.c, 'chart')[0]!.setAttributeNS(NS.r, 'r:id', rId);
  pkg.markDirty('/ppt/slides/slide7.xml');
  const deck = await pkg.toBytes();
  const data = { categories: ['a', 'b'], series: [{ name: 'n', values: [1, 2] }] };
  const r = await updateDeckCharts(deck, [{ slide_index: 7, chart_index: 0, ...data }]);
  t.same(r.errors, []);
  const out = await OpcPackage.open(r.bytes!);
  const target = (slide: string): string => {
    const c = descendants(out.getXml(slide), NS.c, 'chart')[0]!;
    return out.rel(slide, attrNS(c, NS.r, 'id')!)!.targetPartName!;
  };
  t.not(target('/ppt/slides/slide8.xml'), '/ppt/charts/chart31.xml', 'slide 8 got its own copy');
  t.equal(target('/ppt/slides/slide7.xml'), '/ppt/charts/chart31.xml', 'slide 7 keeps the original');
  await checkChartAgrees(t, out, target('/ppt/slides/slide8.xml'), data, 'copy');
  t.not(cachedSeries(out.getXml('/ppt/charts/chart31.xml'))[0]!.name, 'n', 'the original chart is unchanged');
  t.not(workbookOf(out, target('/ppt/slides/slide8.xml')), workbookOf(out, '/ppt/charts/chart31.xml'), 'with its own workbook');
});
