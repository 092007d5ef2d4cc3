/**
 * `slide_data.header` on corpus templates (issue 21, item 5): with no `hdr` placeholder on
 * the slide, layout or master, the header goes to the layout's header-like placeholder —
 * the one the template doctor marks with role `header` — without a warning, and content
 * columns and the subtitle do not take that placeholder; layouts without one still warn.
 * Every corpus template is looked at (the layouts are found by the rule, not listed).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { diagnose, headerPlaceholderOfPart } from '../../../core/src/doctor/index.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { buildFromLayouts, slidePlaceholders, slideRoot, type BuiltLayoutDeck } from '../../helpers/layout-decks.js';
import { lintPptx, refereeSkipped } from '../../helpers/referee.js';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-hdr-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** A layout the doctor gives a header-like placeholder. */
interface HeaderLayout {
  file: string;
  layoutName: string;
  partName: string;
  /** The header-like placeholder on the layout. */
  ph: { type: string; idx: number };
  shapeName: string;
}

/** True when the layout's or its master's shape tree has a `hdr` placeholder. */
function hasHdr(model: PmlModel, layoutPart: string): boolean {
  const layout = model.layout(layoutPart);
  return [...layout.shapes, ...layout.master.shapes].some((s) => s.placeholder?.type === 'hdr');
}

const HEADER = 'Quarterly business review · internal';
const files = corpusFilesOfFor(t, 'templates');
const withHeader: HeaderLayout[] = [];
const withoutHeader: Array<{ file: string; partName: string; name: string }> = [];
/** Layouts where the doctor (analysis facts) and generation (reading model) disagree on the header-like placeholder. */
const disagreements: string[] = [];
let layoutCount = 0;

t.before(async () => {
  for (const file of files) {
    const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
    const results = analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
    const report = diagnose(results, pkg);
    const model = new PmlModel(pkg);
    let misses = 0;
    report.layouts.forEach((entry, i) => {
      const layout = results.layouts[i]!;
      const areas = entry.capacity.areas.filter((a) => a.role === 'header');
      if (areas.length > 1) throw new Error(`${file} ${layout.name}: ${areas.length} header areas`);
      const area = areas[0];
      layoutCount++;
      // generation reads the layout through the reading model; it must name the same placeholder
      const size = { cx: results.presentation.slide_width_emu, cy: results.presentation.slide_height_emu };
      const gen = headerPlaceholderOfPart(model.layout(layout.part_name), size);
      const doc = area?.placeholder ? `${area.placeholder.type}#${area.placeholder.idx}@${area.shape_id}` : 'none';
      const got = gen ? `${gen.type}#${gen.idx}@${gen.shapeId}` : 'none';
      if (doc !== got) disagreements.push(`${file} ${layout.name}: doctor ${doc}, generation ${got}`);
      if (area?.placeholder) {
        withHeader.push({ file, layoutName: layout.name, partName: layout.part_name, ph: area.placeholder, shapeName: area.name });
      } else if (misses < 2 && !hasHdr(model, layout.part_name)) {
        // a couple of layouts per template without either
        misses++;
        withoutHeader.push({ file, partName: layout.part_name, name: layout.name });
      }
    });
  }
});

function build(file: string, slides: Array<{ partName: string; data: SlideData }>): Promise<BuiltLayoutDeck> {
  return buildFromLayouts(file, slides, scratch);
}

t.test('the doctor names a header-like placeholder on some corpus layouts, never on a Comparison layout', needsCorpus(), async (t) => {
  t.ok(withHeader.length > 0, `layouts with a header-like placeholder: ${withHeader.map((h) => `${h.file} "${h.layoutName}" → ${h.shapeName}`).join('; ')}`);
  t.notOk(withHeader.some((h) => /^(Comparison|Vergleich)$/.test(h.layoutName)), 'column headings of Comparison layouts are not slide headers');
});

t.test('the doctor and generation apply the same rule: the same placeholder on every corpus layout', needsCorpus(), async (t) => {
  t.ok(layoutCount > 100, `${layoutCount} layouts compared`);
  t.same(disagreements, []);
});

t.test('slide_data.header goes into the header-like placeholder, with no warning and a lint-clean deck', needsCorpus(), async (t) => {
  for (const h of withHeader) {
    const data: SlideData = { title: 'Revenue grew in every region', header: HEADER, subtitle: 'Second half', content: [{ blocks: [{ type: 'text', text: { bullets: ['North up 12 %', 'South up 7 %'] } }] }] };
    const { pkg, warnings, path } = await build(h.file, [{ partName: h.partName, data }]);
    const label = `${h.file} "${h.layoutName}"`;
    const phs = slidePlaceholders(slideRoot(pkg, 1));
    const target = phs.find((p) => p.type === h.ph.type && p.idx === h.ph.idx);
    t.ok(target, `${label}: the slide has the ${h.ph.type} placeholder idx ${h.ph.idx}`);
    t.equal(target?.text, HEADER, `${label}: the header is in ${h.shapeName}`);
    t.equal(phs.filter((p) => p.text.includes(HEADER)).length, 1, `${label}: the header is placed once`);
    t.notOk(target?.text.includes('North'), `${label}: content did not go into the header band`);
    t.notOk(target?.text.includes('Second half'), `${label}: the subtitle did not go into the header band`);
    // the band is kept for the header: bullets and subtitle are placed elsewhere or said to be unplaced, never lost
    t.ok(phs.some((p) => p.text.includes('North up 12 %')) || warnings.some((w) => /^column 1/.test(w.message)), `${label}: the bullets are placed or warned about`);
    t.ok(phs.some((p) => p.text === 'Second half') || warnings.some((w) => /subtitle not placed/.test(w.message)), `${label}: the subtitle is placed or warned about`);
    t.same(warnings.filter((w) => /header/i.test(w.message)), [], `${label}: no header warning`);
    t.same(warnings.filter((w) => w.code === 'content_not_placed' && !/subtitle/.test(w.message)), [], `${label}: nothing else unplaced (a subtitle may find no free placeholder)`);
    const lint = await lintPptx(path);
    if (!refereeSkipped(t, lint)) t.same(lint.errors, [], `${label}: ooxml-lint clean`);
  }
});

t.test('without slide_data.header the header-like placeholder is left as before: content may use it', needsCorpus(), async (t) => {
  for (const h of withHeader) {
    const { pkg, warnings } = await build(h.file, [{ partName: h.partName, data: { title: 'No header', content: [{ blocks: [{ type: 'text', text: { bullets: ['Only bullets'] } }] }] } }]);
    const phs = slidePlaceholders(slideRoot(pkg, 1));
    t.notOk(phs.some((p) => p.text === HEADER), `${h.file} "${h.layoutName}": no header text`);
    t.ok(phs.some((p) => p.text.includes('Only bullets')), `${h.file} "${h.layoutName}": the bullets are placed`);
    t.same(warnings.filter((w) => w.code === 'content_not_placed'), []);
  }
});

t.test('layouts without a header-like or hdr placeholder still warn that the header was not placed', needsCorpus(), async (t) => {
  t.ok(withoutHeader.length > 0);
  const byFile = new Map<string, Array<{ partName: string; name: string }>>();
  for (const w of withoutHeader) byFile.set(w.file, [...(byFile.get(w.file) ?? []), w]);
  for (const [file, layouts] of byFile) {
    const { pkg, warnings, path } = await build(file, layouts.map((l) => ({ partName: l.partName, data: { title: 'A title', header: HEADER } })));
    layouts.forEach((l, i) => {
      const mine = warnings.filter((w) => w.slide_index === i && /^header not placed/.test(w.message));
      t.equal(mine.length, 1, `${file} "${l.name}": one header warning`);
      t.match(mine[0]?.message ?? '', /header-like text placeholder/, 'the warning names the header-like rule');
      t.notOk(slidePlaceholders(slideRoot(pkg, i + 1)).some((p) => p.text.includes(HEADER)), `${file} "${l.name}": the header text is nowhere`);
    });
    const lint = await lintPptx(path);
    if (!refereeSkipped(t, lint)) t.same(lint.errors, [], `${file}: ooxml-lint clean`);
  }
});
