/**
 * Every template of the shared corpus, every slide and every layout of it in one deck:
 * the deck passes the structural lint (nothing the template did not already have) and
 * the XSD check of its presentation, slides, layouts and masters.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import type { Table } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { corpusFilesOfFor, corpusPath, needsCorpus, scratchName } from '../../helpers/corpus.js';
import { lintPptx, newFindings, refereeSkipped, xsdCheck } from '../../helpers/referee.js';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-corpus-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const table: Table = {
  rows: [
    { is_header: true, cells: [{ value: 'Item' }, { value: 'Value' }] },
    { cells: [{ value: 'alpha' }, { value: '1' }] },
  ],
};

t.test('every corpus template makes a deck of all its slides and layouts', needsCorpus(), async (t) => {
  for (const name of corpusFilesOfFor(t, 'templates')) {
    await t.test(`${name}: a deck of all its slides and layouts passes lint and XSD`, async (t) => {
      const bytes = readFileSync(corpusPath(name));
      const pkg = await OpcPackage.open(bytes);
      const slides: DeckSlideSpec[] = [];
      for (const part of pkg.partsOfType(CT.slide)) {
        slides.push({ template_id: name, template_slide_id: part, source: { kind: 'slide', part_name: part }, slide_data: { title: 'Generated title' }, options: { footer_text: 'Footer', show_slide_numbers: true } });
      }
      for (const part of pkg.partsOfType(CT.slideLayout)) {
        slides.push({
          template_id: name,
          template_slide_id: part,
          source: { kind: 'layout', part_name: part },
          slide_data: {
            title: 'Layout title',
            subtitle: 'Subtitle',
            content: [
              { header: 'Left', blocks: [{ type: 'text', text: { bullets: ['one', 'two'] } }] },
              { header: 'Right', blocks: [{ type: 'table', table: { table } }] },
            ],
          },
          options: { footer_text: 'Footer', show_slide_numbers: true, footer_font_size: 9 },
        });
      }
      const result = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
      t.same(result.errors, [], 'every slide and layout generates');
      t.equal(result.pages_generated, slides.length);
      const file = join(scratch, scratchName(name));
      writeFileSync(file, result.bytes!);
      const lint = await lintPptx(file);
      if (!refereeSkipped(t, lint)) {
        const before = (await lintPptx(corpusPath(name))).errors;
        t.same(newFindings(lint.errors, before), [], 'no lint finding the template did not have');
      }
      const xsd = await xsdCheck(file);
      if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
    });
  }
});
