/**
 * Matching and generation agree on `slide_data.header` on every corpus template (issue 21,
 * item 5): for every layout the doctor gives a header band (area with role `header`), a
 * request with a header and bullets has its header demand met — by the band when the layout
 * and its master have no `hdr` placeholder, else by the `hdr` — and a deck built from that
 * layout puts the header in that very placeholder, with no header warning. Every template
 * of the corpus folders is looked at; the layouts are found by the rule, not listed.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzePresentation } from '../../../core/src/analysis/analyze.js';
import { diagnose } from '../../../core/src/doctor/index.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { candidatesFromAnalysis, scoreCandidate, signature } from '../../../core/src/matching/index.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { buildFromLayouts, slidePlaceholders, slideRoot } from '../../helpers/layout-decks.js';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-band-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const HEADER = 'Quarterly business review · internal';
const DATA: SlideData = { title: 'Revenue grew in every region', header: HEADER, content: [{ blocks: [{ type: 'text', text: { bullets: ['North up 12 %', 'South up 7 %'] } }] }] };
const sig = signature(DATA);
const files = corpusFilesOfFor(t, 'templates');
let bandLayouts = 0;

for (const file of files) {
  t.test(`${file}: a layout's header band meets the header demand, and generation puts the header there`, needsCorpus(), async (t) => {
    const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
    const results = analyzePresentation({ pkg, options: {}, idFor: (k, p) => `${k}:${p}` });
    const report = diagnose(results, pkg);
    const candidates = candidatesFromAnalysis(file, results, 'layouts', report);
    for (const [i, c] of candidates.entries()) {
      const band = c.doctor?.capacity.areas.find((a) => a.role === 'header');
      if (!band?.placeholder) continue;
      bandLayouts++;
      const layout = results.layouts[i]!;
      const label = `${file} "${c.layout_name}"`;
      const hdr = c.shapes.some((s) => !s.hidden && s.kind === 'sp' && s.placeholder?.type === 'hdr') || (c.inherited_footer_types ?? []).includes('hdr');
      const m = scoreCandidate(sig, c);
      const where = m.reasons.find((r) => r.startsWith('header → '));
      t.equal(m.overflow_counts.footer, 0, `${label}: the header has a place`);
      t.equal(m.matched_counts.footer, 1, `${label}: the header counts as matched`);
      if (hdr) t.match(where ?? '', /^header → header( \(from layout\))?$/, `${label}: the hdr placeholder takes the header`);
      else t.equal(where, 'header → header band', `${label}: the band ${band.name} takes the header`);
      t.notOk(m.reasons.some((r) => /^column \d.* → header band/.test(r)), `${label}: no column in the band`);

      const { pkg: deck, warnings } = await buildFromLayouts(file, [{ partName: layout.part_name, data: DATA }], scratch);
      const phs = slidePlaceholders(slideRoot(deck, 1));
      const holder = phs.filter((p) => p.text === HEADER);
      t.equal(holder.length, 1, `${label}: generation places the header once`);
      if (hdr) t.equal(holder[0]?.type, 'hdr', `${label}: in the hdr placeholder`);
      else t.same(holder.map((p) => `${p.type}#${p.idx}`), [`${band.placeholder.type}#${band.placeholder.idx}`], `${label}: in the band matching counted (${band.name})`);
      t.same(warnings.filter((w) => /header/i.test(w.message)), [], `${label}: no header warning`);
    }
  });
}

t.test('the corpus has layouts with a header band', needsCorpus(), async (t) => {
  t.ok(bandLayouts > 0, `${bandLayouts} layouts with a header band`);
});
