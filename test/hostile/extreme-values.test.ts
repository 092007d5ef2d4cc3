/**
 * Numbers from the file are not sizes to trust. For a few corpus templates of different
 * kinds (charts, tiled textures, SmartArt, tables), every occurrence of one numeric
 * attribute in the slides, layouts, masters, charts and diagrams is set to the largest or
 * smallest 32-bit value — a frame 2³¹−1 EMU tall, a chart stating 2³¹−1 points, a tile
 * offset of −2³¹ — and the template is analysed and its first slides drawn as previews.
 * Each must succeed or refuse with the engine's reason (no failure coded `internal`), in
 * the time a test has: found this way, a chart's point index sized an array of 2³¹ entries
 * (out of memory) and a tiled fill on a huge box drew every tile (minutes per slide).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import run from '../../core/src/threads/cpu-task.js';
import { writeZip } from '../../core/src/ooxml/opc/zip-codec.js';
import { packageFiles, unexpectedFailure } from './package-files.js';
import { corpusPath, hasCorpusFile, needsCorpus } from '../helpers/corpus.js';

/** Templates holding what the attributes below size: charts, a tiled texture, SmartArt, tables. */
const TEMPLATES = ['templates/python-pptx-chart-types.pptx', 'incoming/templates/poi-aascu-6masters-combo-chart.pptx', 'templates/automizer-smartart-diagrams.pptx', 'templates/poi-japanese-table.pptx'];
/** Attributes that size, place, count or repeat something (`val` is most of a chart's numbers). */
const ATTRIBUTES = ['cx', 'cy', 'x', 'y', 'w', 'h', 'sz', 'val', 'idx', 'rot', 'tx', 'ty', 'sx', 'sy', 'blurRad', 'dist', 'marL', 'indent', 'numCol', 'spcCol', 'gridSpan', 'rowSpan', 'lIns', 'tIns', 'wR', 'hR', 'stAng', 'swAng', 'fontScale', 'lnSpcReduction'];
const EXTREMES = ['2147483647', '-2147483648'];
/** Parts whose attributes are changed. */
const PART = /^ppt\/(slides|slideLayouts|slideMasters|charts|diagrams)\/[^/]+\.xml$/;
/** Slides drawn per case, and at what width (px). */
const SLIDES = 3;
const WIDTH_PX = 240;

for (const rel of TEMPLATES) {
  t.test(`${rel}: one attribute at a 32-bit extreme everywhere`, needsCorpus(rel), async (t) => {
    if (!hasCorpusFile(rel)) return;
    // a few hundred analyses and previews; a hang is what this test is for, so the limit is generous
    t.setTimeout(600_000);
    const parts = packageFiles(new Uint8Array(readFileSync(corpusPath(rel)))).map((p) => ({ ...p, text: PART.test(p.name) ? new TextDecoder().decode(p.bytes) : undefined }));
    let cases = 0;
    for (const name of ATTRIBUTES) {
      const pattern = new RegExp(`(\\s${name}=")[^"]*(")`, 'g');
      for (const value of EXTREMES) {
        let changed = 0;
        const bytes = writeZip(
          parts.map((p) => {
            if (p.text === undefined) return p;
            const text = p.text.replace(pattern, (_m, open: string, close: string) => {
              changed++;
              return `${open}${value}${close}`;
            });
            return { name: p.name, bytes: new TextEncoder().encode(text) };
          }),
        );
        if (changed === 0) continue;
        cases++;
        const label = `@${name}="${value}" (${changed} places)`;
        const analysed = await run({ op: 'analyze', bytes, templateId: 'extreme', options: {} });
        t.notOk(unexpectedFailure(analysed), `analysis succeeds or refuses with a reason: ${label}`);
        if (!analysed.ok || !('results' in analysed)) continue;
        const slides = analysed.results.slides.slice(0, SLIDES).map((s) => ({ part_name: s.part_name }));
        if (slides.length === 0) continue;
        const drawn = await run({ op: 'render', bytes, cacheKey: `extreme-${rel}-${name}-${value}`, slides, widthPx: WIDTH_PX });
        t.notOk(unexpectedFailure(drawn), `previews drawn or refused with a reason: ${label}`);
      }
    }
    t.ok(cases > 10, `${cases} attributes changed`);
  });
}
