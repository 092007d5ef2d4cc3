/**
 * The template doctor on corpus templates analyzed in-process: roles of known layouts
 * (including files whose layout type attribute is wrong), plausible measured capacities,
 * fonts and their metrics, and the constructs generation cannot fill.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import type { AnalysisResults } from '../../../core/src/analysis/types.js';
import { diagnose, type SlideRole, type TemplateDoctorReport } from '../../../core/src/doctor/index.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';

async function analyze(file: string): Promise<AnalysisResults> {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(file.includes('/') ? file : `templates/${file}`)));
  return analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
}

function roles(r: AnalysisResults, d: TemplateDoctorReport): Record<string, SlideRole> {
  const out: Record<string, SlideRole> = {};
  d.layouts.forEach((e, i) => (out[r.layouts[i]!.name] = e.role));
  return out;
}

const OFFICE_ROLES: Record<string, SlideRole> = {
  'Title Slide': 'title',
  'Title and Content': 'content',
  'Section Header': 'section',
  'Two Content': 'two-content',
  Comparison: 'comparison',
  'Title Only': 'title-only',
  Blank: 'blank',
  'Content with Caption': 'content',
  'Picture with Caption': 'picture',
  'Title and Vertical Text': 'content',
  'Vertical Title and Text': 'content',
};

t.test('poi-layouts-showcase: the eleven default Office layouts get their roles, and slides the roles of their layouts', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyze('poi-layouts-showcase.pptx');
  const d = diagnose(r);
  t.same(roles(r, d), OFFICE_ROLES);
  t.same(d.slides.map((e) => e.role), ['title', 'content', 'section', 'two-content', 'comparison', 'title-only', 'title-only', 'content', 'picture', 'content']);
  t.equal(d.slides[6]!.name, 'Blank', 'slide 7 is on the Blank layout but carries a title: title-only');
});

t.test('onlyoffice-sample-en: roles come from the placeholders though every layout says type="blank"', needsCorpus('templates/onlyoffice-sample-en.pptx'), async (t) => {
  const r = await analyze('onlyoffice-sample-en.pptx');
  t.ok(r.layouts.slice(1).every((l) => l.type === 'blank'), 'the file writes blank on the layouts');
  const d = diagnose(r);
  // Its Title Slide has a centred title and no subtitle.
  t.same(roles(r, d), OFFICE_ROLES);
});

t.test('pandoc-footer-reference: extra layouts, and a Section Header built like a title slide', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const r = await analyze('pandoc-footer-reference.pptx');
  const d = diagnose(r);
  const got = roles(r, d);
  t.has(got, {
    'Title Slide': 'title',
    'Title and Content': 'content',
    'Section Header': 'section',
    'Two Content': 'two-content',
    Comparison: 'comparison',
    'Title Only': 'title-only',
    Blank: 'blank',
    'Picture with Caption': 'picture',
    'Panoramic Picture with Caption': 'picture',
    '3 Column': 'other',
  });
  const sec = d.layouts.find((e) => e.name === 'Section Header')!;
  t.ok(sec.role_reasons.some((x) => /secHead/.test(x)), 'the reason names the type attribute');
});

t.test('automizer-libreoffice-16x10: LibreOffice layouts with body content placeholders', needsCorpus('templates/automizer-libreoffice-16x10.pptx'), async (t) => {
  const r = await analyze('automizer-libreoffice-16x10.pptx');
  const d = diagnose(r);
  t.has(roles(r, d), {
    'Blank Slide': 'blank',
    'Title Slide': 'title',
    'Title, Content': 'content',
    'Title, 2 Content': 'two-content',
    'Title Only': 'title-only',
    'Title, 4 Content': 'other',
  });
});

t.test('python-pptx-populated-placeholders: table, chart and picture placeholders give their roles', needsCorpus('templates/python-pptx-populated-placeholders.pptx'), async (t) => {
  const r = await analyze('python-pptx-populated-placeholders.pptx');
  const d = diagnose(r);
  t.has(roles(r, d), { '2_Custom Layout': 'chart', '3_Custom Layout': 'table', '7_Custom Layout': 'picture', 'Custom Layout': 'content' });
  // Slide 3 holds a table in its tbl placeholder (a graphic frame).
  t.equal(d.slides[2]!.role, 'table');
  t.equal(d.slides[2]!.capacity.placeholders.table, 1);
});

t.test('capacities are measured and plausible on every corpus template', needsCorpus(), async (t) => {
  const problems: string[] = [];
  let areas = 0;
  for (const file of corpusFilesOfFor(t, 'templates')) {
    const r = await analyze(file);
    const d = diagnose(r);
    if (d.layouts.length !== r.layouts.length || d.slides.length !== r.slides.length) problems.push(`${file}: entry count`);
    for (const e of [...d.layouts, ...d.slides]) {
      const c = e.capacity;
      for (const a of c.areas) {
        areas++;
        const where = `${file} ${e.name} ${a.name}`;
        if (a.lines_at_min_size < a.lines_at_template_size) problems.push(`${where}: fewer lines at 8 pt (${a.lines_at_min_size}) than at ${a.font_size_pt} pt (${a.lines_at_template_size})`);
        if (a.font_size_pt > 9 && a.lines_at_template_size >= 3 && a.lines_at_min_size <= a.lines_at_template_size) problems.push(`${where}: no more lines at 8 pt than at ${a.font_size_pt} pt`);
        if (a.table_rows_at_min_size < a.table_rows_at_template_size) problems.push(`${where}: fewer table rows at 8 pt`);
        if (a.table_rows_at_template_size >= 3 && a.table_rows_at_min_size <= a.table_rows_at_template_size) problems.push(`${where}: no more table rows at 8 pt`);
        // A line can't be lower than its font size, 8 pt or the template's own when smaller (text on a tiny slide is never grown to 8 pt): the box height bounds the count.
        const minSizePt = Math.min(8, a.font_size_pt);
        const maxLines = Math.floor(Math.max(a.cx, a.cy) / 12700 / minSizePt) + 1;
        if (a.lines_at_min_size > maxLines) problems.push(`${where}: ${a.lines_at_min_size} lines in a ${a.cy / 12700} pt box`);
        if (![a.lines_at_template_size, a.lines_at_min_size, a.table_rows_at_template_size, a.table_rows_at_min_size].every((x) => Number.isInteger(x) && x >= 0)) problems.push(`${where}: not counts`);
      }
      if (c.main_body_shape_id !== null && !c.areas.some((a) => a.shape_id === c.main_body_shape_id)) problems.push(`${file} ${e.name}: main body not an area`);
    }
    t.same(JSON.parse(JSON.stringify(d)), d, `${file}: plain JSON`);
  }
  t.same(problems, []);
  t.ok(areas > 500, `${areas} areas measured`);
});

t.test('poi-layouts-showcase: Title and Content holds about 7 lines at 32 pt and many more at 8 pt; its table area about 12 rows', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyze('poi-layouts-showcase.pptx');
  const c = diagnose(r).layouts[1]!.capacity;
  t.equal(c.body_font_size_pt, 32);
  // 356 pt box: a 32 pt Calibri line is ~39 pt plus 6.4 pt space before.
  t.ok(c.body_lines_at_template_size >= 6 && c.body_lines_at_template_size <= 9, `${c.body_lines_at_template_size} lines at 32 pt`);
  t.ok(c.body_lines_at_min_size >= 25 && c.body_lines_at_min_size <= 40, `${c.body_lines_at_min_size} lines at 8 pt`);
  // 18 pt rows with default cell margins are ~29 pt (PowerPoint's 0.4 in).
  t.ok(c.table_rows_at_template_size >= 11 && c.table_rows_at_template_size <= 13, `${c.table_rows_at_template_size} rows at 18 pt`);
  t.same(c.placeholders, { title: 1, subtitle: 0, body: 0, footer: 3, table: 0, chart: 0, picture: 0, textbox: 0, object: 1, custom: 0 });
  t.ok(c.body_lines_at_template_size > diagnose(r).layouts[3]!.capacity.body_lines_at_template_size - 2, 'a half-width box of the same height holds about as many short lines');
});

t.test('unfillable constructs are named per slide', needsCorpus('templates/automizer-smartart-diagrams.pptx', 'templates/python-pptx-ole-objects.pptx', 'templates/poi-embedded-video.pptx', 'templates/automizer-waterfall-chartex.pptx', 'templates/poi-layouts-showcase.pptx'), async (t) => {
  const smart = diagnose(await analyze('automizer-smartart-diagrams.pptx'));
  t.same(smart.slides.map((e) => e.unfillable.map((u) => u.kind)), [['smartart'], ['smartart'], ['smartart']]);
  t.equal(smart.slides[0]!.unfillable[0]!.name, 'MatrixDiagram');
  t.equal(smart.unfillable_count, 3);

  const ole = diagnose(await analyze('python-pptx-ole-objects.pptx'));
  t.equal(ole.slides[0]!.unfillable.length, 1);
  t.has(ole.slides[0]!.unfillable[0], { kind: 'ole', name: 'Object 1' });
  t.match(ole.slides[0]!.unfillable[0]!.detail, /Excel\.Sheet\.12/);

  const video = diagnose(await analyze('poi-embedded-video.pptx'));
  t.same(video.slides[0]!.unfillable.map((u) => u.kind), ['video']);

  const chartex = diagnose(await analyze('automizer-waterfall-chartex.pptx'));
  t.same(chartex.slides[0]!.unfillable.map((u) => u.kind), ['chartex']);

  const plain = diagnose(await analyze('poi-layouts-showcase.pptx'));
  t.equal(plain.unfillable_count, 0, 'an ordinary deck has none');
});

t.test('fonts: theme fonts first, with the metrics Slidewright has for them', needsCorpus('templates/poi-layouts-showcase.pptx', 'templates/pandoc-footer-reference.pptx', 'templates/automizer-libreoffice-16x10.pptx'), async (t) => {
  const calibri = diagnose(await analyze('poi-layouts-showcase.pptx')).fonts;
  t.has(calibri[0], { name: 'Calibri', metrics: 'exact', metrics_family: 'Carlito', has_metrics: true });
  t.ok(calibri[0]!.sources.includes('theme_major') && calibri[0]!.sources.includes('theme_minor'));

  const corbel = diagnose(await analyze('pandoc-footer-reference.pptx')).fonts;
  t.has(corbel.find((f) => f.name === 'Corbel'), { metrics: 'nearest', has_metrics: true });

  const lo = diagnose(await analyze('automizer-libreoffice-16x10.pptx'));
  const noto = lo.fonts.find((f) => f.name === 'Noto Sans Regular');
  t.ok(noto, 'an explicit typeface on the shapes is listed');
  t.has(noto, { metrics: 'fallback', has_metrics: false, sources: ['shapes'] });
  t.ok(lo.fonts_without_metrics.includes('Noto Sans Regular'));
});

t.test('diagnose is pure: it leaves the results unchanged and gives the same report twice', needsCorpus('templates/pandoc-footer-reference.pptx'), async (t) => {
  const r = await analyze('pandoc-footer-reference.pptx');
  const before = JSON.stringify(r);
  const a = diagnose(r);
  t.equal(JSON.stringify(r), before);
  t.same(diagnose(r), a);
});

t.test('header-like placeholders: the subheading band of poi-customgeo gets role header; Comparison column headings do not', needsCorpus('templates/poi-customgeo-48slides.pptx', 'templates/poi-layouts-showcase.pptx'), async (t) => {
  const r = await analyze('poi-customgeo-48slides.pptx');
  const d = diagnose(r);
  const withRole = d.layouts.flatMap((e) => e.capacity.areas.filter((a) => a.role !== undefined).map((a) => ({ layout: e.name, a })));
  t.same(withRole.map((x) => `${x.layout}: ${x.a.name}`), ['1_Title and Content: Text Placeholder 10']);
  const a = withRole[0]!.a;
  t.equal(a.role, 'header');
  t.equal(a.placeholder?.type, 'body');
  t.match(a.role_reason, /^1-line body band between title and content, \d+% of the slide width$/);
  const entry = d.layouts.find((e) => e.name === '1_Title and Content')!;
  t.equal(entry.role, 'content', 'the layout keeps its role');
  t.not(entry.capacity.main_body_shape_id, a.shape_id, 'the band is not the main body');
  t.notOk(d.layouts.some((e) => e.capacity.areas.some((x) => x.role_reason !== undefined && x.role === undefined)), 'a reason only comes with a role');

  const showcase = await analyze('poi-layouts-showcase.pptx');
  const ds = diagnose(showcase);
  t.same(
    [...ds.layouts, ...ds.slides].flatMap((e) => e.capacity.areas.filter((x) => 'role' in x)),
    [],
    'the Office layouts (Comparison included) have no header-like placeholder, and their areas carry no role key',
  );
});
