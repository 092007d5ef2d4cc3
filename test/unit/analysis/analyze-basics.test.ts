import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { corpusPath } from '../../helpers/corpus.js';

const idFor = (kind: 'slide' | 'layout', partName: string): string => `${kind}:${partName}`;

t.test('a package with no slide master fails as bad_structure', async (t) => {
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

t.test('analyzes a template into presentation, masters, layouts and slides', async (t) => {
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
