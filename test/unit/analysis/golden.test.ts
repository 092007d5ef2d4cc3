/**
 * Hand-written expectations for a handful of corpus files: every number below was read by
 * hand from the file's XML (the comment says where), not produced by the engine.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import type { AnalysisResults, AnalyzedShape } from '../../../core/src/analysis/types.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

async function analyze(file: string, options = {}): Promise<AnalysisResults> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(`templates/${file}`)));
  return analyzePresentation({ pkg, options, idFor: (k, p) => `${k}:${p}` });
}

function byName(shapes: AnalyzedShape[], name: string): AnalyzedShape {
  const s = shapes.find((x) => x.name === name);
  if (!s) throw new Error(`no shape ${name}`);
  return s;
}

t.test('poi-layouts-showcase: the Title and Content slide title resolves to the master title box', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyze('poi-layouts-showcase.pptx');
  const slide = r.slides[1]!;
  t.equal(slide.layout_name, 'Title and Content');
  t.equal(slide.title, 'Title');
  const title = byName(slide.shapes, 'Title 1');
  // slide2.xml: <p:ph type="title"/> with empty spPr; slideLayout2.xml: same, empty spPr;
  // slideMaster1.xml title: <a:off x="457200" y="274638"/><a:ext cx="8229600" cy="1143000"/>.
  t.same(title.placeholder, { type: 'title', idx: 0, orient: 'horz', size: 'full', inherited_from: 'layout' });
  t.same([title.x, title.y, title.cx, title.cy], [457200, 274638, 8229600, 1143000]);
  // titleStyle lvl1pPr defRPr sz="4400", latin +mj-lt → theme majorFont Calibri; tx1 → dk1 → windowText lastClr 000000.
  t.same(title.font, { name: 'Calibri', east_asian_name: null, complex_script_name: null, size_pt: 44, bold: false, italic: false, color: '000000' });
  // Content placeholder <p:ph idx="1"/> (no type → obj), five paragraphs at levels 0..4.
  const body = byName(slide.shapes, 'Content Placeholder 2');
  t.equal(body.placeholder!.type, 'obj');
  t.same(body.paragraphs.slice(0, 5).map((p) => p.level), [0, 1, 2, 3, 4]);
  t.same([body.x, body.y, body.cx, body.cy], [457200, 1600200, 8229600, 4525963]);
  // bodyStyle lvl1pPr marL="342900" indent="-342900", spcBef spcPct 20000 of sz 3200, buChar "•".
  t.has(body.paragraph_format, { alignment: 'l', margin_left: 342900, indent: -342900, space_before_pt: 6.4, bullet: true });
  // Master title bodyPr anchor="ctr" with normAutofit; insets written as the defaults.
  t.has(title.text_frame, { anchor: 'ctr', autofit: 'normal', inset_left: 91440, inset_top: 45720 });
});

t.test('poi-layouts-showcase: a title on the Blank layout inherits the master title box', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyze('poi-layouts-showcase.pptx');
  const title = byName(r.slides[6]!.shapes, 'Title 1');
  t.equal(r.slides[6]!.layout_name, 'Blank');
  t.equal(title.placeholder!.inherited_from, 'master');
  t.same([title.x, title.y, title.cx, title.cy], [457200, 274638, 8229600, 1143000]);
});

t.test('pandoc-footer-reference: theme fonts, the centred title from layout 1, and footer placeholders', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const r = await analyze('pandoc-footer-reference.pptx');
  // theme1.xml: name="Depth", majorFont/minorFont latin Corbel, accent1 41AEBD; sldSz 12192000 x 6858000.
  t.same(r.presentation.theme_fonts, { major: 'Corbel', minor: 'Corbel', major_east_asian: '', minor_east_asian: '' });
  t.equal(r.presentation.theme_name, 'Depth');
  t.equal(r.presentation.theme_colors.accent1, '41AEBD');
  t.same([r.presentation.slide_width_emu, r.presentation.slide_height_emu], [12192000, 6858000]);
  t.equal(r.presentation.layout_count, 17);
  const slide = r.slides[0]!;
  const title = byName(slide.shapes, 'Title 1');
  // slideLayout1.xml ctrTitle: <a:off x="2209800" y="4464028"/><a:ext cx="9144000" cy="1641490"/>, lstStyle sz="9600".
  t.same([title.x, title.y, title.cx, title.cy], [2209800, 4464028, 9144000, 1641490]);
  t.equal(title.font!.size_pt, 96);
  t.equal(title.font!.name, 'Corbel');
  const footer = byName(slide.shapes, 'Footer Placeholder 4');
  t.same(footer.placeholder, { type: 'ftr', idx: 11, orient: 'horz', size: 'quarter', inherited_from: 'layout' });
  t.equal(footer.text, 'this is the footer');
});

t.test('automizer-gslides-merged-tables: table rows, columns and merges', needsCorpus('templates/automizer-gslides-merged-tables.pptx'), async (t) => {
  const r = await analyze('automizer-gslides-merged-tables.pptx');
  // slide1.xml: 6 <a:tr>, 3 <a:gridCol>, five cells with gridSpan (3, 2, 2, 2, 3), <a:tblPr> without firstRow.
  const t1 = r.slides[0]!.shapes.find((s) => s.graphic === 'table')!;
  t.has(t1.table, { rows: 6, cols: 3, header_rows: 0, merged_cells: 5 });
  // First row: one cell spanning three columns ("C: 0, 0 -> Merged 3 cells"), two covered cells.
  t.same(t1.table!.cells[0], ['C: 0, 0 -> Merged 3 cells', '', '']);
  // slide2.xml: 6 rows, 4 columns, five cells with rowSpan.
  t.has(r.slides[1]!.shapes.find((s) => s.graphic === 'table')!.table, { rows: 6, cols: 4, header_rows: 0, merged_cells: 5 });
});

t.test('poi-japanese-table: a plain table without a header row', needsCorpus('templates/poi-japanese-table.pptx'), async (t) => {
  const r = await analyze('poi-japanese-table.pptx');
  // slide1.xml: <a:tblPr/>, three <a:gridCol>, two <a:tr>.
  const table = r.slides[0]!.shapes.find((s) => s.graphic === 'table');
  t.equal(table!.kind, 'graphicFrame');
  t.has(table!.table, { rows: 2, cols: 3, header_rows: 0, merged_cells: 0 });
  t.same(table!.table!.cells[1], ['Row 2 Col 1', 'Row 2 Col 2', 'Row 2 Col 3']);
});

t.test('python-pptx-populated-placeholders: a table filling a table placeholder has a header row', needsCorpus('templates/python-pptx-populated-placeholders.pptx'), async (t) => {
  const r = await analyze('python-pptx-populated-placeholders.pptx');
  // slide3.xml: graphicFrame in a placeholder, <a:tblPr firstRow="1" bandRow="1">, 3 rows, 2 columns.
  const slide = r.slides.find((s) => s.part_name === '/ppt/slides/slide3.xml')!;
  const table = slide.shapes.find((s) => s.graphic === 'table')!;
  t.ok(table.placeholder, 'the frame is a placeholder');
  t.has(table.table, { rows: 3, cols: 2, header_rows: 1, merged_cells: 0 });
});

t.test('python-pptx-chart-types: chart types, series and categories', needsCorpus('templates/python-pptx-chart-types.pptx'), async (t) => {
  const r = await analyze('python-pptx-chart-types.pptx');
  // slide2 Chart 1 → rId2 → chart7.xml: <c:barChart><c:barDir val="bar"/>, three <c:ser>, categories ptCount 4.
  const bar = byName(r.slides[1]!.shapes, 'Chart 1');
  t.same(bar.chart && { type: bar.chart.chart_type, series: bar.chart.series_count, categories: bar.chart.category_count }, { type: 'bar', series: 3, categories: 4 });
  t.equal(bar.chart!.part_name, '/ppt/charts/chart7.xml');
  // chart10.xml: barDir col → column.
  t.equal(byName(r.slides[1]!.shapes, 'Chart 4').chart!.chart_type, 'column');
  // slide4 Chart 1 → chart19.xml: <c:pieChart>, one series of 4 points.
  const pie = byName(r.slides[3]!.shapes, 'Chart 1');
  t.same([pie.chart!.chart_type, pie.chart!.series_count, pie.chart!.category_count], ['pie', 1, 4]);
  // slide1 → chart1.xml: <c:areaChart>, two series of 5 categories.
  const area = byName(r.slides[0]!.shapes, 'Chart 1');
  t.same([area.chart!.chart_type, area.chart!.series_count, area.chart!.category_count], ['area', 2, 5]);
});

t.test('automizer-waterfall-chartex: an Office 2016 waterfall chart is read, not its fallback picture', needsCorpus('templates/automizer-waterfall-chartex.pptx'), async (t) => {
  const r = await analyze('automizer-waterfall-chartex.pptx');
  const s = r.slides[0]!.shapes[0]!;
  // slide1.xml mc:Choice Requires="cx1" graphicFrame "Waterfall 1"; chartEx1.xml series layoutId="waterfall", strDim cat ptCount 8.
  t.equal(s.kind, 'graphicFrame');
  t.equal(s.graphic, 'chartex');
  t.same([s.chart!.chart_type, s.chart!.series_count, s.chart!.category_count], ['waterfall', 1, 8]);
  t.same([s.x, s.y, s.cx, s.cy], [2032000, 719666, 8128000, 5418667]);
});

t.test('python-pptx-groupshape: a group and its members in document order', needsCorpus('templates/python-pptx-groupshape.pptx'), async (t) => {
  const r = await analyze('python-pptx-groupshape.pptx');
  const [group, rect] = r.slides[0]!.shapes;
  t.equal(group!.kind, 'grpSp');
  t.same(group!.children.map((c) => c.name), ['Rounded Rectangle 1', 'Oval 2', 'Isosceles Triangle 3']);
  // chOff = off and chExt = ext, so members keep their own coordinates.
  t.same([group!.children[1]!.x, group!.children[1]!.y], [5940152, 2708920]);
  t.equal(group!.children[1]!.geometry, 'ellipse');
  // p:style fontRef idx="minor" with schemeClr lt1: white text on the accent fill.
  t.equal(rect!.font!.color, 'FFFFFF');
  t.equal(rect!.name, 'Rectangle 5');
});

t.test('unstructured-science-exploration: 11 masters and 132 layouts', needsCorpus('templates/unstructured-science-exploration.pptx'), async (t) => {
  const r = await analyze('unstructured-science-exploration.pptx');
  t.equal(r.presentation.master_count, 11);
  t.equal(r.layouts.length, 132);
  t.equal(r.masters.reduce((n, m) => n + m.layout_ids.length, 0), 132);
  t.ok(r.layouts.every((l) => l.master_part_name === r.masters[l.master_index]!.part_name), 'every layout points at its master');
});

t.test('poi-bug59273-template.potx is analyzed as a template', needsCorpus('templates/poi-bug59273-template.potx'), async (t) => {
  const r = await analyze('poi-bug59273-template.potx');
  t.equal(r.presentation.is_template, true);
  t.equal(r.presentation.layout_count, 11);
});

t.test('poi-embedded-video: a video poster frame is a picture with media video', needsCorpus('templates/poi-embedded-video.pptx'), async (t) => {
  const r = await analyze('poi-embedded-video.pptx');
  // slide1.xml p:pic nvPr <a:videoFile r:link="rId2"/> and p14:media; blip r:embed rId4 → ../media/image1.png.
  const pic = r.slides[0]!.shapes[0]!;
  t.same([pic.kind, pic.media, pic.image_part_name], ['pic', 'video', '/ppt/media/image1.png']);
  t.same([pic.x, pic.y, pic.cx, pic.cy], [3810000, 2143125, 4572000, 2571750]);
});

t.test('python-pptx-ole-objects: an embedded workbook is an OLE graphic frame with its progId', needsCorpus('templates/python-pptx-ole-objects.pptx'), async (t) => {
  const r = await analyze('python-pptx-ole-objects.pptx');
  // slide1.xml graphicData uri .../presentationml/2006/ole, p:oleObj progId="Excel.Sheet.12" (in the mc:Fallback branch).
  const ole = r.slides[0]!.shapes[0]!;
  t.same([ole.kind, ole.graphic, ole.ole_prog_id], ['graphicFrame', 'ole', 'Excel.Sheet.12']);
});

t.test('automizer-smartart-diagrams: SmartArt frames are diagram graphic frames', needsCorpus('templates/automizer-smartart-diagrams.pptx'), async (t) => {
  const r = await analyze('automizer-smartart-diagrams.pptx');
  t.ok(r.slides.every((s) => s.shapes.some((x) => x.graphic === 'diagram')), 'every slide has a diagram');
});

t.test('poi-bug64693-4masters: a slide knows its p14 section', needsCorpus('templates/poi-bug64693-4masters.pptx'), async (t) => {
  const r = await analyze('poi-bug64693-4masters.pptx');
  // presentation.xml: <p:sldId id="306">; p14:section name="章节页" lists p14:sldId id="306".
  t.equal(r.slides[0]!.section, '章节页');
  t.equal(r.presentation.master_count, 4);
  t.same([r.presentation.slide_width_emu, r.presentation.slide_height_emu], [12196763, 6858000]);
});
