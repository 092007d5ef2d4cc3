/**
 * Issue 4: measured fitting, table pagination, slide_format, date placeholders and
 * structured warnings, through `buildDeck` on real corpus templates.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import type { GenerationOptions, SlideData, Table } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { NS, attr, child, children, descendants, intAttr, path } from '../../../core/src/ooxml/xml.js';
import { readTextBody, shapeTextSources } from '../../../core/src/ooxml/pml/text-style.js';
import { layoutText } from '../../../core/src/text/layout.js';
import { fitMetrics } from '../../../core/src/text/fit-metrics.js';
import { evenSplit, isTableOnly, pageSlideData, paginateRows } from '../../../core/src/generation/fit/paginate.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

const PANDOC = 'pandoc-footer-reference.pptx';
const POI = 'poi-layouts-showcase.pptx';
/** tap options of a test that reads these corpus templates (skipped without them). */
function needsTemplates(...names: string[]): { skip: string | false } {
  return needsCorpus(...names.map((n) => `templates/${n}`));
}

const bytesOf = new Map<string, Uint8Array>();
function templates(...names: string[]): Map<string, Uint8Array> {
  for (const n of names) if (!bytesOf.has(n)) bytesOf.set(n, readFileSync(corpusPath(`templates/${n}`)));
  return new Map(names.map((n) => [n, bytesOf.get(n)!]));
}
function layoutSlide(template: string, n: number, data: SlideData, options: GenerationOptions = {}): DeckSlideSpec {
  const part = `/ppt/slideLayouts/slideLayout${n}.xml`;
  return { template_id: template, template_slide_id: `${template}#layout${n}`, source: { kind: 'layout', part_name: part }, slide_data: data, options };
}

const LONG = Array.from({ length: 9 }, (_, i) => `${i + 1}. Revenue grew strongly across every region this quarter, driven by new enterprise contracts and renewals among mid-market customers`);

function table(rows: number, header = true): Table {
  const out: Table = { rows: [] };
  if (header) out.rows.push({ is_header: true, cells: [{ value: 'Region' }, { value: 'Q1' }, { value: 'Q2' }] });
  for (let i = 1; i <= rows; i++) out.rows.push({ cells: [{ value: `Region ${i}` }, { value: String(100 + i) }, { value: String(200 + i) }] });
  return out;
}

async function open(bytes: Uint8Array | undefined): Promise<{ pkg: OpcPackage; model: PmlModel; slides: string[] }> {
  const pkg = await OpcPackage.open(bytes!);
  const model = new PmlModel(pkg);
  return { pkg, model, slides: model.presentation.slides.map((s) => s.partName) };
}

/** Sizes (pt) written on the runs of the slide's shape whose text starts with `prefix`. */
function runSizes(pkg: OpcPackage, part: string, prefix: string): number[] {
  for (const sp of descendants(pkg.getXml(part), NS.p, 'sp')) {
    const text = descendants(sp, NS.a, 't').map((x) => x.textContent).join('');
    if (!text.startsWith(prefix)) continue;
    return descendants(sp, NS.a, 'r').map((r) => intAttr(child(r, NS.a, 'rPr'), 'sz', 0) / 100);
  }
  return [];
}

/** Overflow (pt) of a slide shape's text as written, measured as the fitter measures. */
function overflowOf(model: PmlModel, part: string, prefix: string): number {
  const slide = model.slide(part);
  for (const s of slide.shapes) {
    if (!s.txBody || !(s.txBody.textContent ?? '').startsWith(prefix)) continue;
    const body = readTextBody(s.txBody, shapeTextSources(s, { theme: slide.theme, colorMap: slide.colorMap }));
    const f = s.frame!;
    return layoutText(body, { width_emu: f.cx, height_emu: f.cy }, { metrics: fitMetrics }).overflow_pt;
  }
  return NaN;
}

t.test('long text shrinks to the largest size that fits, written on every run; short text keeps the template size', needsTemplates(PANDOC), async (t) => {
  const r = await buildDeck({
    slides: [layoutSlide(PANDOC, 2, { title: 'Long', content: [{ blocks: [{ type: 'text', text: { bullets: LONG } }] }] }), layoutSlide(PANDOC, 2, { title: 'Short', content: [{ blocks: [{ type: 'text', text: { bullets: ['One', 'Two'] } }] }] })],
    templates: templates(PANDOC),
  });
  t.same(r.errors, []);
  t.same(r.warnings.filter((w) => w.code === 'text_overflow'), [], 'nothing overflows');
  const { pkg, model, slides } = await open(r.bytes);
  const long = runSizes(pkg, slides[0]!, '1. Revenue');
  const short = runSizes(pkg, slides[1]!, 'One');
  t.ok(long.length === 9 && long.every((s) => s === long[0]), 'one explicit size on every run');
  t.ok(long[0]! >= 8 && long[0]! < short[0]!, `shrunk (${long[0]} pt) but not below 8 pt`);
  t.equal(long[0]! % 0.5, 0, 'half-point steps');
  t.ok(overflowOf(model, slides[0]!, '1. Revenue') <= 0, 'the written text fits its box');
  t.equal(short[0], 28, 'short text at the template size (the layout body: 28 pt)');
  const bigger = overflowOf(model, slides[0]!, '1. Revenue');
  t.ok(bigger <= 0);
});

t.test('textbox_min_font_size bounds the shrinking; overflow at the minimum is a structured warning', needsTemplates(PANDOC), async (t) => {
  const many = [...LONG, ...LONG, ...LONG];
  const r = await buildDeck({ slides: [layoutSlide(PANDOC, 2, { title: 'Too much', content: [{ blocks: [{ type: 'text', text: { bullets: many } }] }] }, { textbox_min_font_size: 14 })], templates: templates(PANDOC) });
  const { pkg, slides } = await open(r.bytes);
  const sizes = runSizes(pkg, slides[0]!, '1. Revenue');
  t.ok(sizes.every((s) => s === 14), 'at the minimum, 14 pt');
  const w = r.warnings.find((x) => x.code === 'text_overflow');
  t.ok(w, 'a text_overflow warning');
  t.equal(w?.slide_index, 0);
  t.equal(w?.template_slide_id, `${PANDOC}#layout2`);
  t.match(w?.message ?? '', /runs [\d.]+ pt past its box at 14 pt/);
});

t.test('a table-only slide too long for its area is split: header repeated, rows whole and in order, titles marked, pages counted', needsTemplates(POI), async (t) => {
  const data = table(45);
  const r = await buildDeck({ slides: [layoutSlide(POI, 2, { title: 'Regions', content: [{ blocks: [{ type: 'table', table: { table: data } }] }] }, { footer_text: 'F', show_slide_numbers: true })], templates: templates(POI) });
  t.same(r.errors, []);
  t.ok(r.pages_generated > 1, `${r.pages_generated} pages`);
  const { pkg, slides } = await open(r.bytes);
  t.equal(slides.length, r.pages_generated);
  const seen: string[] = [];
  slides.forEach((part, i) => {
    const doc = pkg.getXml(part);
    const titles = descendants(doc, NS.p, 'sp').map((sp) => descendants(sp, NS.a, 't').map((x) => x.textContent).join('')).filter((x) => x.startsWith('Regions'));
    t.equal(titles[0], i === 0 ? 'Regions' : 'Regions (cont.)', `title of page ${i + 1}`);
    const tbl = descendants(doc, NS.a, 'tbl')[0]!;
    const rows = children(tbl, NS.a, 'tr').map((tr) => children(tr, NS.a, 'tc').map((tc) => descendants(tc, NS.a, 't').map((x) => x.textContent).join('')));
    t.same(rows[0], ['Region', 'Q1', 'Q2'], `page ${i + 1} starts with the header row`);
    t.equal(attr(child(tbl, NS.a, 'tblPr'), 'firstRow'), '1');
    for (const row of rows.slice(1)) {
      t.equal(row.length, 3, 'rows are whole');
      seen.push(row[0]!);
    }
    const sz = descendants(tbl, NS.a, 'rPr').map((rPr) => intAttr(rPr, 'sz', 0));
    t.ok(sz.every((s) => s >= 800), 'cell text ≥ 8 pt');
    // the table stays above the slide bottom
    const off = path(descendants(doc, NS.p, 'graphicFrame')[0]!, [NS.p, 'xfrm'], [NS.a, 'off']);
    const ext = path(descendants(doc, NS.p, 'graphicFrame')[0]!, [NS.p, 'xfrm'], [NS.a, 'ext']);
    t.ok(intAttr(off, 'y', 0) + intAttr(ext, 'cy', 0) <= 6_858_000, 'the table ends on the slide');
  });
  t.same(seen, data.rows.slice(1).map((r) => r.cells[0]!.value), 'every body row exactly once, in order');
  t.same(r.warnings.filter((w) => w.code === 'table_overflow'), []);
});

t.test('no pagination when it is turned off or the slide combines a table with text: the table shrinks to the minimum and a warning says so', needsTemplates(POI), async (t) => {
  const r = await buildDeck({
    slides: [
      layoutSlide(POI, 2, { title: 'Off', content: [{ blocks: [{ type: 'table', table: { table: table(45) } }] }] }, { auto_paginate_tables: false }),
      layoutSlide(POI, 2, { title: 'Mixed', content: [{ blocks: [{ type: 'text', text: { bullets: ['Intro'] } }, { type: 'table', table: { table: table(45) } }] }] }),
    ],
    templates: templates(POI),
  });
  t.equal(r.pages_generated, 2);
  const overflow = r.warnings.filter((w) => w.code === 'table_overflow');
  t.same(overflow.map((w) => w.slide_index), [0, 1], 'one table_overflow warning per slide');
  t.match(overflow[1]?.message ?? '', /not paginated/);
});

t.test('a table that fits keeps its size; a table that almost fits shrinks to ≥ table_min_font_size', needsTemplates(POI), async (t) => {
  const r = await buildDeck({
    slides: [
      layoutSlide(POI, 2, { title: 'Small', content: [{ blocks: [{ type: 'table', table: { table: table(3) } }] }] }),
      layoutSlide(POI, 2, { title: 'Medium', content: [{ blocks: [{ type: 'table', table: { table: table(14) } }] }] }, { table_min_font_size: 10 }),
    ],
    templates: templates(POI),
  });
  t.equal(r.pages_generated, 2);
  const { pkg, slides } = await open(r.bytes);
  const sizes = (part: string): number[] => descendants(descendants(pkg.getXml(part), NS.a, 'tbl')[0]!, NS.a, 'rPr').map((x) => intAttr(x, 'sz', 0) / 100);
  t.ok(sizes(slides[0]!).every((s) => s === 18), 'small table at 18 pt');
  const medium = sizes(slides[1]!);
  t.ok(medium.every((s) => s >= 10 && s < 18), `medium table shrunk to ${medium[0]} pt, not below 10`);
});

t.test('slide_format: font, size as given, bold, italic, colour and alignment on each element', needsTemplates(PANDOC), async (t) => {
  const r = await buildDeck({
    slides: [
      layoutSlide(PANDOC, 2, {
        title: 'Formatted',
        content: [{ blocks: [{ type: 'text', text: { bullets: LONG } }] }],
        slide_format: { title: { font_name: 'Arial', bold: true, italic: true, color: '#FF0000', alignment: 'center' }, body: { font_size: 20, color: '00AA00', alignment: 'justify' } },
      }),
    ],
    templates: templates(PANDOC),
  });
  const { pkg, slides } = await open(r.bytes);
  const doc = pkg.getXml(slides[0]!);
  const title = descendants(doc, NS.p, 'sp').find((sp) => descendants(sp, NS.a, 't')[0]?.textContent === 'Formatted')!;
  const rPr = descendants(title, NS.a, 'rPr')[0]!;
  t.equal(attr(child(rPr, NS.a, 'latin'), 'typeface'), 'Arial');
  t.equal(attr(rPr, 'b'), '1');
  t.equal(attr(rPr, 'i'), '1');
  t.equal(attr(path(rPr, [NS.a, 'solidFill'], [NS.a, 'srgbClr']), 'val'), 'FF0000');
  t.equal(attr(descendants(title, NS.a, 'pPr')[0], 'algn'), 'ctr');
  t.ok(runSizes(pkg, slides[0]!, '1. Revenue').every((s) => s === 20), 'the body size is used as given, not shrunk');
  t.ok(r.warnings.some((w) => w.code === 'text_overflow' && /at 20 pt/.test(w.message)), 'overflow at the given size is reported');
});

t.test('the footer brings a date field; footer_font_size and name apply to footer, number and date', needsTemplates(POI), async (t) => {
  const r = await buildDeck({ slides: [layoutSlide(POI, 2, { title: 'Dated' }, { footer_text: 'Foot', show_slide_numbers: true, footer_font_size: 11, footer_font_name: 'Arial' })], templates: templates(POI) });
  const { pkg, slides } = await open(r.bytes);
  const doc = pkg.getXml(slides[0]!);
  const date = descendants(doc, NS.a, 'fld').find((f) => attr(f, 'type') === 'datetime1');
  t.ok(date, 'a datetime1 field');
  for (const type of ['dt', 'ftr', 'sldNum']) {
    const sp = descendants(doc, NS.p, 'sp').find((s) => attr(descendants(s, NS.p, 'ph')[0], 'type') === type)!;
    const rPr = descendants(sp, NS.a, 'rPr')[0];
    t.equal(attr(rPr, 'sz'), '1100', `${type} at 11 pt`);
    t.equal(attr(child(rPr, NS.a, 'latin'), 'typeface'), 'Arial', `${type} in Arial`);
  }
});

t.test('pagination helpers: table-only detection, pages of rows, page slide data', async (t) => {
  t.ok(isTableOnly({ title: 'x', content: [{ blocks: [{ type: 'table', table: { table: table(2) } }] }] }));
  t.notOk(isTableOnly({ content: [{ blocks: [{ type: 'text', text: { bullets: ['a'] } }, { type: 'table', table: { table: table(2) } }] }] }));
  t.notOk(isTableOnly({ content: [{ blocks: [{ type: 'table', table: { table: table(2) } }, { type: 'table', table: { table: table(2) } }] }] }));
  t.same(paginateRows([10, 20, 20, 20, 50], new Set([0]), 55), [[1, 2], [3], [4]], 'header height counted on every page; a too-tall row gets its own page');
  const page = pageSlideData({ title: 'T', content: [{ blocks: [{ type: 'table', table: { table: table(4) } }] }] }, [0, 3, 4], 1);
  t.equal(page.title, 'T (cont.)');
  t.same(page.content![0]!.blocks[0]!.table!.table.rows.map((r) => r.cells[0]!.value), ['Region', 'Region 3', 'Region 4']);
});

void CT;

t.test('allow_textbox_reposition: the text box below a template table moves down as far as the table grows', needsTemplates('poi-customgeo-48slides.pptx'), async (t) => {
  const name = 'poi-customgeo-48slides.pptx';
  const rows: Table = { rows: [{ is_header: true, cells: [{ value: 'A' }, { value: 'B' }] }, ...Array.from({ length: 22 }, (_, i) => ({ cells: [{ value: `Row ${i + 1}` }, { value: String(i) }] }))] };
  const frames = async (reposition: boolean): Promise<{ table: { y: number; cy: number }; box: { y: number; cy: number } }> => {
    const r = await buildDeck({
      slides: [{ template_id: name, template_slide_id: 's28', source: { kind: 'slide', part_name: '/ppt/slides/slide28.xml' }, slide_data: { content: [{ blocks: [{ type: 'table', table: { table: rows } }] }] }, options: { allow_textbox_reposition: reposition, auto_paginate_tables: false } }],
      templates: templates(name),
    });
    t.same(r.warnings.filter((w) => w.code === 'table_overflow'), []);
    const { model, slides } = await open(r.bytes);
    const s = model.slide(slides[0]!);
    return { table: s.shapes.find((x) => x.kind === 'graphicFrame')!.frame!, box: s.shapes.find((x) => x.name === 'TextBox 3')!.frame! };
  };
  const fixed = await frames(false);
  const moved = await frames(true);
  t.ok(fixed.table.y + fixed.table.cy <= fixed.box.y, 'without: the table stops above the text box');
  t.ok(moved.table.cy > fixed.table.cy, 'with: the table keeps more room');
  t.ok(moved.box.y > fixed.box.y, 'with: the text box moved down');
  t.ok(moved.table.y + moved.table.cy <= moved.box.y, 'and the table still stops above it');
  t.ok(moved.box.y + moved.box.cy <= 6_858_000, 'the box stays on the slide');
});

t.test('a paginated slide warns once per cause, naming the pages, not once per page (issue 21, item 3)', needsTemplates(POI), async (t) => {
  // the layout has no subtitle placeholder: every page of the split table cannot place it
  const r = await buildDeck({ slides: [layoutSlide(POI, 2, { title: 'Regions', subtitle: 'By quarter', content: [{ blocks: [{ type: 'table', table: { table: table(45) } }] }] })], templates: templates(POI) });
  t.ok(r.pages_generated > 1, `${r.pages_generated} pages`);
  const keys = r.warnings.map((w) => `${w.slide_index}|${w.code}|${w.message.replace(/ \(on pages [^)]*\)$/, '')}`);
  t.equal(new Set(keys).size, keys.length, `no warning repeated: ${JSON.stringify(r.warnings.map((w) => w.code))}`);
  const subtitle = r.warnings.filter((w) => /subtitle/i.test(w.message));
  t.equal(subtitle.length, 1, 'the subtitle that could not be placed is one warning');
  t.match(subtitle[0]?.message ?? '', new RegExp(`\\(on pages 1–${r.pages_generated} of ${r.pages_generated}\\)$`), 'and it names the pages');
});

t.test('a split table is balanced: page row counts differ by at most one, one size on every page, as large as an even split allows (issue 21, item 2)', needsTemplates(POI), async (t) => {
  for (const rows of [30, 45, 61]) {
    const data = table(rows);
    const r = await buildDeck({ slides: [layoutSlide(POI, 2, { title: 'Regions', content: [{ blocks: [{ type: 'table', table: { table: data } }] }] })], templates: templates(POI) });
    t.same(r.errors, []);
    const { pkg, slides } = await open(r.bytes);
    const counts: number[] = [];
    const sizes = new Set<number>();
    for (const part of slides) {
      const doc = pkg.getXml(part);
      const tbl = descendants(doc, NS.a, 'tbl')[0]!;
      counts.push(children(tbl, NS.a, 'tr').length - 1);
      for (const rPr of descendants(tbl, NS.a, 'rPr')) sizes.add(intAttr(rPr, 'sz', 0));
      const off = path(descendants(doc, NS.p, 'graphicFrame')[0]!, [NS.p, 'xfrm'], [NS.a, 'off']);
      const ext = path(descendants(doc, NS.p, 'graphicFrame')[0]!, [NS.p, 'xfrm'], [NS.a, 'ext']);
      t.ok(intAttr(off, 'y', 0) + intAttr(ext, 'cy', 0) <= 6_858_000, `${rows} rows: the table of ${part} ends on the slide`);
    }
    t.ok(counts.length > 1, `${rows} rows: split over ${counts.length} pages (${counts.join(' + ')})`);
    t.equal(counts.reduce((a, b) => a + b, 0), rows, `${rows} rows: every row once`);
    t.ok(Math.max(...counts) - Math.min(...counts) <= 1, `${rows} rows: page row counts differ by at most one`);
    t.equal(sizes.size, 1, `${rows} rows: one size on every page`);
    t.ok([...sizes][0]! >= 800, `${rows} rows: at ${[...sizes][0]! / 100} pt, not below the minimum`);
    // filled greedily, 30 rows were 19 + 11 at the 8 pt minimum: two pages of 15 leave room to grow
    if (rows === 30) t.ok([...sizes][0]! >= 1000, `30 rows: two pages of 15 at ${[...sizes][0]! / 100} pt, not crowded at the minimum`);
    t.same(r.warnings.filter((w) => w.code === 'table_overflow'), [], `${rows} rows: no page overflows`);
  }
});

t.test('even split of rows', async (t) => {
  t.same(evenSplit([1, 2, 3, 4, 5, 6, 7], 3), [[1, 2, 3], [4, 5], [6, 7]]);
  t.same(evenSplit([1, 2], 3), [[1], [2]], 'no empty pages');
});

t.test('an unwrapped right-aligned title too long for its box shrinks, its character spacing with it', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  // the title slide's ctrTitle: wrap="none", algn="r", 96 pt, spc="-300" (ECMA-376 §21.1.2.1.1, §21.1.2.3.9)
  const bytes = readFileSync(corpusPath('templates/pandoc-footer-reference.pptx'));
  const title = 'Quarterly business review: results, risks and the plan for the next two quarters';
  const built = await buildDeck({
    slides: [{ template_id: 'p', template_slide_id: 'l1', source: { kind: 'layout', part_name: '/ppt/slideLayouts/slideLayout1.xml' }, slide_data: { title }, options: {} }],
    templates: new Map([['p', bytes]]),
  });
  t.same(built.errors, [], 'built');
  const fit = built.slides[0]!.fits.find((f) => f.role === 'title')!;
  t.ok(fit.size_pt < 30, `the title is written at ${fit.size_pt} pt (template 96 pt): its one line fits the 720 pt box`);
  const pkg = await OpcPackage.open(built.bytes!);
  const rPr = descendants(pkg.getXml(built.slides[0]!.part_name).documentElement!, NS.a, 'rPr').find((r) => attr(r, 'sz') !== undefined)!;
  const k = Number(attr(rPr, 'sz')) / 9600;
  t.equal(Number(attr(rPr, 'spc')), Math.round(-300 * k), `spacing scaled with the size: ${attr(rPr, 'spc')} (was -300 at 96 pt)`);
  // what fitting measured is what the file holds: the line, laid out from the written slide, fits
  const model = new PmlModel(pkg);
  const slide = model.slide(built.slides[0]!.part_name);
  const sp = slide.shapes.find((s) => s.placeholder?.type === 'ctrTitle')!;
  const body = readTextBody(sp.txBody, shapeTextSources(sp, { theme: slide.theme, colorMap: slide.colorMap }));
  const l = layoutText(body, { width_emu: sp.frame!.cx, height_emu: sp.frame!.cy }, { metrics: fitMetrics });
  t.ok(l.lines.length === 1 && l.lines[0]!.width_pt <= l.lines[0]!.avail_pt, `one line of ${l.lines[0]!.width_pt.toFixed(1)} pt within ${l.lines[0]!.avail_pt.toFixed(1)} pt`);
});
