/**
 * A damaged template never crashes the analysis: removing or garbling any one XML part of a
 * real template ends in results or in a PackageError with a reason, never a TypeError.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';

for (const [file, every] of [['poi-layouts-showcase.pptx', 1], ['python-pptx-chart-types.pptx', 4]] as const) {
  t.test(`${file}: every part removed or garbled ends in results or a PackageError`, needsCorpus(`templates/${file}`), async (t) => {
    const bytes = readFileSync(corpusPath(`templates/${file}`));
    // Every part of the first file; every 4th of the second (it has 31 charts with their parts).
    const parts = (await OpcPackage.open(bytes)).partNames().filter((n) => /\.(xml|rels)$/.test(n)).filter((_, i) => i % every === 0);
    const outcomes: Record<string, number> = {};
    const crashes: string[] = [];
    for (const victim of parts) {
      for (const mode of ['remove', 'garble'] as const) {
        const pkg = await OpcPackage.open(bytes);
        if (mode === 'remove') pkg.removePart(victim);
        else pkg.setBytes(victim, new TextEncoder().encode('<p:sld xmlns:p="urn:broken"><unclosed>'));
        try {
          analyzePresentation({ pkg, options: { parse_master_template_layout: true }, idFor: (k, p) => `${k}:${p}` });
          outcomes.ok = (outcomes.ok ?? 0) + 1;
        } catch (err) {
          if (err instanceof PackageError) outcomes[err.code] = (outcomes[err.code] ?? 0) + 1;
          else crashes.push(`${mode} ${victim}: ${String(err)}`);
        }
      }
    }
    t.same(crashes, [], 'no crash');
    t.ok((outcomes.bad_structure ?? 0) > 0, 'structural damage is reported as bad_structure');
    t.ok((outcomes.xml_malformed ?? 0) > 0, 'garbled parts are reported as xml_malformed');
  });
}

t.test('removing the presentation part is bad_structure naming it', needsCorpus('templates/poi-layouts-showcase.pptx'), async (t) => {
  const pkg = await OpcPackage.open(readFileSync(corpusPath('templates/poi-layouts-showcase.pptx')));
  pkg.removePart('/ppt/presentation.xml');
  try {
    analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
    t.fail('should throw');
  } catch (err) {
    t.equal((err as PackageError).code, 'bad_structure');
    t.match((err as PackageError).message, /presentation\.xml/);
  }
});
