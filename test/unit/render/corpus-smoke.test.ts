/**
 * Every slide and every layout of every corpus template renders (small, 160 px wide):
 * a PNG of the right size comes back and nothing throws.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../../core/src/ooxml/pml/parts.js';
import { renderSlide } from '../../../core/src/render/render-slide.js';
import { readImageHeader } from '../../../core/src/render/images.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';

t.test('every corpus template renders', needsCorpus(), async (t) => {
  for (const file of corpusFilesOfFor(t, 'templates')) {
    await t.test(`every slide and layout of ${file} renders`, async (t) => {
      const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
      const model = new PmlModel(pkg);
      const parts = [
        ...model.presentation.slides.map((s) => s.partName),
        ...model.presentation.masters.flatMap((m) => model.master(m.partName).layoutPartNames),
      ];
      let ok = 0;
      for (const part of parts) {
        const r = await renderSlide(pkg, part, { widthPx: 160 });
        const h = readImageHeader(r.png);
        if (h.format === 'png' && h.width === 160 && h.height === r.height_px) ok++;
        else t.fail(`${part}: bad PNG`);
      }
      t.equal(ok, parts.length, `${ok} parts rendered`);
    });
  }
});
