/**
 * Invariants of the analysis results over every corpus template, with every option on:
 * the results are plain JSON, ids link up, and every text shape has a usable font.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import type { AnalyzedShape } from '../../../core/src/analysis/types.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';

const PLACEHOLDER_TYPES = new Set(['title', 'body', 'ctrTitle', 'subTitle', 'dt', 'sldNum', 'ftr', 'hdr', 'obj', 'chart', 'tbl', 'clipArt', 'dgm', 'media', 'sldImg', 'pic']);
/** Run, default-run or end-of-paragraph properties whose text fill is a:noFill (after an optional a:ln). */
const UNFILLED_RUN = /<(?:\w+:)?(?:rPr|defRPr|endParaRPr)(?:\s[^>]*)?(?<!\/)>(?:<(?:\w+:)?ln\b[^>]*\/>|<(?:\w+:)?ln\b[\s\S]*?<\/(?:\w+:)?ln>)?<(?:\w+:)?noFill\/>/;
const KINDS = new Set(['sp', 'pic', 'graphicFrame', 'grpSp', 'cxnSp', 'contentPart']);

function* all(shapes: AnalyzedShape[]): Generator<AnalyzedShape> {
  for (const s of shapes) {
    yield s;
    yield* all(s.children);
  }
}

t.test('every corpus template keeps the invariants', needsCorpus(), async (t) => {
  for (const file of corpusFilesOfFor(t, 'templates')) {
    await t.test(`${file}: results are plain JSON, ids link up, text shapes have fonts`, async (t) => {
      const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
      const r = analyzePresentation({ pkg, options: { parse_master_template_layout: true }, idFor: (k, p) => `${k}:${p}` });
      t.same(JSON.parse(JSON.stringify(r)), r, 'survives a JSON round trip unchanged');

      const layoutIds = new Set(r.layouts.map((l) => l.slide_id));
      t.equal(layoutIds.size, r.layouts.length, 'layout ids are unique');
      t.equal(new Set(r.slides.map((s) => s.slide_id)).size, r.slides.length, 'slide ids are unique');
      t.ok(r.slides.every((s) => layoutIds.has(s.layout_slide_id)), 'every slide names a listed layout');
      t.same(r.masters.flatMap((m) => m.layout_ids).sort(), [...layoutIds].sort(), "masters' layout_ids partition the layouts");
      t.same(r.slides.map((s) => s.slide_number), r.slides.map((_, i) => i + 1), 'slide numbers are 1..n');

      // whether any slide, layout or master gives text no fill (then a shape inheriting it has no colour)
      const textPartTypes = [CT.slide, CT.slideLayout, CT.slideMaster];
      const unfilledText = textPartTypes.some((type) =>
        pkg.partsOfType(type).some((part) => UNFILLED_RUN.test(Buffer.from(pkg.getBytes(part)).toString('utf8'))),
      );
      const problems: string[] = [];
      const check = (where: string, shapes: AnalyzedShape[]): void => {
        for (const s of all(shapes)) {
          if (!KINDS.has(s.kind)) problems.push(`${where} ${s.name}: kind ${s.kind}`);
          if (s.placeholder && !PLACEHOLDER_TYPES.has(s.placeholder.type)) problems.push(`${where} ${s.name}: placeholder type ${s.placeholder.type}`);
          if (!s.placeholder && (s.x === null || s.cx === null)) problems.push(`${where} ${s.name}: no geometry`);
          if (s.rotation < 0 || s.rotation >= 360) problems.push(`${where} ${s.name}: rotation ${s.rotation}`);
          if (s.font && (s.font.size_pt < 1 || s.font.size_pt > 400)) problems.push(`${where} ${s.name}: size ${s.font.size_pt}`);
          // a null colour is right only for text drawn without a fill (a:noFill in its run properties, ECMA-376 Part 1 §20.1.8.44)
          if (s.font && s.text.trim() !== '' && (!s.font.name || (!s.font.color && !unfilledText))) problems.push(`${where} ${s.name}: font ${JSON.stringify(s.font)}`);
          if (s.kind === 'sp' && s.text !== '' && !s.font) problems.push(`${where} ${s.name}: text without font`);
          if (s.kind !== 'grpSp' && s.children.length) problems.push(`${where} ${s.name}: children on a ${s.kind}`);
          if (s.table && s.table.cells.length !== s.table.rows) problems.push(`${where} ${s.name}: cells/rows`);
        }
      };
      for (const s of r.slides) check(`slide ${s.slide_number}`, s.shapes);
      for (const l of r.layouts) check(`layout ${l.layout_index}`, l.shapes);
      for (const m of r.masters) check(`master ${m.master_index}`, m.shapes ?? []);
      t.same(problems, [], 'no shape breaks an invariant');
    });
  }
});
