import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { checkPresentationPackage } from '../../../core/src/ooxml/pml/presentation.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { miniDeck, sp } from '../ooxml/pml/mini-deck.js';

const idFor = (kind: 'slide' | 'layout', partName: string): string => `${kind}:${partName}`;

t.test('a package with no slide master fails as bad_structure', needsCorpus('broken/json2pptx-baseline-no-master.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('broken/json2pptx-baseline-no-master.pptx')));
  try {
    analyzePresentation({ pkg, options: {}, idFor });
    t.fail('should throw');
  } catch (err) {
    t.ok(err instanceof PackageError);
    t.equal((err as PackageError).code, 'bad_structure');
    t.match((err as PackageError).message, /slide master/);
  }
});

const BROKEN: Record<string, string> = {
  'aspose-password-protected.pptx': 'encrypted',
  'json2pptx-baseline-no-master.pptx': 'bad_structure',
  'poi-clusterfuzz-5471515212382208.pptx': 'zip_truncated',
  'poi-divino-revelado-truncated.pptx': 'zip_truncated',
};

for (const [file, code] of Object.entries(BROKEN)) {
  t.test(`broken ${file} ends in PackageError ${code} (open, check, analyze)`, needsCorpus(`broken/${file}`), async (t) => {
    let caught: unknown;
    try {
      const pkg = await OpcPackage.open(readFileSync(corpusPath(`broken/${file}`)));
      checkPresentationPackage(pkg);
      analyzePresentation({ pkg, options: {}, idFor });
    } catch (err) {
      caught = err;
    }
    t.ok(caught instanceof PackageError, 'a PackageError');
    t.equal((caught as PackageError).code, code);
  });
}

t.test('analyzes a template into presentation, masters, layouts and slides', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/poi-layouts-showcase.pptx')));
  const r = analyzePresentation({ pkg, options: {}, idFor });
  t.equal(r.presentation.slide_count, 10);
  t.equal(r.presentation.layout_count, 11);
  t.equal(r.presentation.master_count, 1);
  t.equal(r.slides.length, 10);
  t.equal(r.layouts.length, 11);
  t.equal(r.masters[0]!.layout_ids.length, 11);
  t.equal(r.slides[0]!.slide_id, 'slide:/ppt/slides/slide1.xml');
  t.equal(r.slides[0]!.layout_slide_id, `layout:${r.slides[0]!.layout_part_name}`);
  t.equal(r.masters[0]!.shapes, undefined, 'master shapes only on request');
});

const MASTER = sp(2, 'Title', { ph: 'type="title"', xfrm: [1, 2, 3, 4], body: '<a:p/>' }) + sp(3, 'Logo text', { xfrm: [5, 6, 7, 8], body: '<a:p><a:r><a:t>ACME</a:t></a:r></a:p>' });
const TABLE =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></p:xfrm>' +
  '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="5"/><a:gridCol w="5"/></a:tblGrid>' +
  '<a:tr h="1"><a:tc gridSpan="2"><a:txBody><a:bodyPr/><a:p/></a:txBody></a:tc><a:tc hMerge="1"><a:txBody><a:bodyPr/><a:p/></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>';

async function mini(options: Record<string, boolean>) {
  const pkg = await miniDeck({
    masterTree: MASTER,
    layouts: [{ tree: sp(2, 'Layout title', { ph: 'type="title"' }), attrs: 'type="title"', name: 'Title Slide' }],
    slides: [{ tree: sp(2, 'Title 1', { ph: 'type="title"', body: '<a:p><a:r><a:t>Hello</a:t></a:r></a:p>' }) + sp(3, 'Box', { xfrm: [1, 1, 1, 1], body: '<a:p/>' }) + TABLE }, { tree: '', attrs: 'show="0"' }],
  });
  return analyzePresentation({ pkg, options, idFor });
}

t.test('default options list slides, custom shapes, positions, content and tables; not master shapes', async (t) => {
  const r = await mini({});
  t.equal(r.slides.length, 2);
  t.equal(r.masters[0]!.shapes, undefined);
  const [title, box, table] = r.slides[0]!.shapes;
  t.equal(r.slides[0]!.title, 'Hello');
  t.same([title!.x, title!.y, title!.cx, title!.cy], [1, 2, 3, 4]);
  t.equal(title!.text, 'Hello');
  t.equal(box!.name, 'Box');
  t.same(table!.table, { rows: 1, cols: 2, cells: [['', '']], header_rows: 1, merged_cells: 1 });
  t.equal(r.layouts[0]!.type, 'title');
  t.equal(r.layouts[0]!.name, 'Title Slide');
});

t.test('hidden slides are flagged and counted', async (t) => {
  const r = await mini({});
  t.same(r.slides.map((s) => s.hidden), [false, true]);
  t.equal(r.presentation.hidden_slide_count, 1);
});

t.test('parse_slides=false leaves slides empty but still counts them', async (t) => {
  const r = await mini({ parse_slides: false });
  t.same(r.slides, []);
  t.equal(r.presentation.slide_count, 2);
  t.equal(r.layouts.length, 1);
});

t.test('parse_master_template_layout=true lists master shapes', async (t) => {
  const r = await mini({ parse_master_template_layout: true });
  t.same(r.masters[0]!.shapes!.map((s) => s.name), ['Title', 'Logo text']);
  t.same(r.masters[0]!.layout_ids, [r.layouts[0]!.slide_id]);
});

t.test('include_custom_shapes=false keeps only placeholders', async (t) => {
  const r = await mini({ include_custom_shapes: false });
  t.same(r.slides[0]!.shapes.map((s) => s.name), ['Title 1']);
});

t.test('include_placeholder_positions=false leaves placeholder geometry null', async (t) => {
  const r = await mini({ include_placeholder_positions: false });
  const [title, box] = r.slides[0]!.shapes;
  t.same([title!.x, title!.cy], [null, null]);
  t.same([box!.x, box!.cy], [1, 1], 'other shapes keep theirs');
});

t.test('include_placeholder_content=false drops placeholder text but keeps the slide title', async (t) => {
  const r = await mini({ include_placeholder_content: false });
  t.equal(r.slides[0]!.shapes[0]!.text, '');
  t.same(r.slides[0]!.shapes[0]!.paragraphs, []);
  t.equal(r.slides[0]!.title, 'Hello');
});

t.test('include_table_details=false leaves table null', async (t) => {
  const r = await mini({ include_table_details: false });
  const table = r.slides[0]!.shapes[2]!;
  t.equal(table.graphic, 'table');
  t.equal(table.table, null);
});

t.test('a slide without a layout makes the analysis fail as bad_structure', async (t) => {
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  pkg.setRels('/ppt/slides/slide1.xml', []);
  try {
    analyzePresentation({ pkg, options: {}, idFor });
    t.fail('should throw');
  } catch (err) {
    t.equal((err as PackageError).code, 'bad_structure');
    t.match((err as PackageError).message, /slide1\.xml has no slide layout/);
  }
});

t.test('ids come from idFor: layouts and slides, linked by layout_slide_id', async (t) => {
  const seen: string[] = [];
  const pkg = await miniDeck({ slides: [{ tree: '' }] });
  const r = analyzePresentation({ pkg, options: {}, idFor: (k, p) => { seen.push(`${k} ${p}`); return `${k}-${seen.length}`; } });
  t.same(seen, ['layout /ppt/slideLayouts/slideLayout1.xml', 'slide /ppt/slides/slide1.xml']);
  t.equal(r.slides[0]!.layout_slide_id, r.layouts[0]!.slide_id);
  t.equal(r.slides[0]!.layout_part_name, '/ppt/slideLayouts/slideLayout1.xml');
  t.equal(r.layouts[0]!.master_part_name, '/ppt/slideMasters/slideMaster1.xml');
});

t.test('analysis refuses a macro-enabled presentation too', needsCorpus('refused/poi-macro-attachments.pptm'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('refused/poi-macro-attachments.pptm')));
  try {
    analyzePresentation({ pkg, options: {}, idFor });
    t.fail('should throw');
  } catch (err) {
    t.equal((err as PackageError).code, 'macro_enabled');
  }
});
