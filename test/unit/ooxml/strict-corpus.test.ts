/**
 * Strict packages of the corpus (issue 17, item 1):
 * - every corpus template made Strict (test/helpers/strict.ts: namespaces, relationship
 *   types, percentages as "n%", some coordinates as universal measures, booleans as
 *   true/false) analyzes exactly as the original, and reads back part by part as the
 *   original (so every reader sees what it saw);
 * - for a representative set, the Strict copy previews to the same pixels and generates
 *   the same deck as the original, Transitional, with no lint finding the template did not
 *   have and valid against the XSDs;
 * - every Strict file of the corpus (PowerPoint's own, `incoming/templates/clippit-strict-16x9`)
 *   analyzes, previews and generates a deck that passes lint and the XSD check and that
 *   LibreOffice opens with one page per slide.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { corpusFilesOf, corpusFilesOfFor, corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { ToolMissingError, convertToPdf, lintPptx, newFindings, pdfPageCount, refereeSkipped, renderingSkipReason, xsdCheck } from '../../helpers/referee.js';
import { analysisOf, deckOfEverything, packageDifferences, previewsOf, strictLeftovers, toStrict } from '../../helpers/strict.js';

const scratch = mkdtempSync(join(tmpdir(), 'sw-strict-corpus-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

t.test('every corpus template made Strict reads as the original', needsCorpus(), async (t) => {
  for (const name of corpusFilesOfFor(t, 'templates')) {
    await t.test(name, async (t) => {
      const original = readFileSync(corpusPath(name));
      if ((await OpcPackage.open(original)).conformance === 'strict') {
        t.pass('written Strict already: read as it is by the tests of Strict corpus files below');
        return;
      }
      const { bytes: strict, stats } = await toStrict(original);
      t.ok(stats.relationships > 0 && stats.percentages + stats.booleans > 0, `converted: ${JSON.stringify(stats)}`);
      const pkg = await OpcPackage.open(strict);
      t.equal(pkg.conformance, 'strict');
      t.same(await analysisOf(strict), await analysisOf(original), 'the same analysis');
      t.same(await packageDifferences(await pkg.toBytes(), original), [], 'every part reads back as the original');
    });
  }
});

/** Templates with the constructs a conversion could miss: charts, tables, SmartArt, groups, custom geometry, pictures, several masters, RTL. */
const REPRESENTATIVE = [
  'poi-mix10-keynote-template.pptx',
  'python-pptx-chart-types.pptx',
  'automizer-smartart-diagrams.pptx',
  'python-pptx-groupshape.pptx',
  'poi-japanese-table.pptx',
  'poi-uaeu-geometry-lecture.pptx',
  'automizer-svg-images.pptx',
  'poi-themes-7masters.pptx',
  'poi-stress021-hebrew-9masters.pptx',
];

for (const name of REPRESENTATIVE) {
  t.test(`${name} made Strict previews and generates as the original`, needsCorpus(`templates/${name}`), async (t) => {
    const original = readFileSync(corpusPath(`templates/${name}`));
    const { bytes: strict } = await toStrict(original);

    const limit = 24;
    const [a, b] = [await previewsOf(original, 240, limit), await previewsOf(strict, 240, limit)];
    t.equal(b.size, a.size, `${a.size} slides and layouts drawn`);
    let same = 0;
    for (const [part, png] of a) {
      if (Buffer.compare(Buffer.from(png), Buffer.from(b.get(part)!)) === 0) same++;
      else t.fail(`${part}: the previews differ`);
    }
    t.equal(same, a.size, 'every preview has the same pixels (PNG bytes equal)');

    const [deckA, deckB] = [await deckOfEverything(original), await deckOfEverything(strict)];
    t.same(deckB.errors, deckA.errors, 'the same slide errors (none expected)');
    t.same(deckB.errors, []);
    t.same(await packageDifferences(deckB.bytes!, deckA.bytes!), [], 'the same deck, part by part');
    t.same(await strictLeftovers(deckB.bytes!), [], 'the deck is Transitional');

    const file = join(scratch, `strict-${name.replace(/\.potx$/, '.pptx')}`);
    writeFileSync(file, deckB.bytes!);
    const lint = await lintPptx(file);
    if (!refereeSkipped(t, lint)) {
      const before = (await lintPptx(corpusPath(`templates/${name}`))).errors;
      t.same(newFindings(lint.errors, before), [], 'no lint finding the template did not have');
    }
    const xsd = await xsdCheck(file);
    if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
  });
}

/** The corpus files written as Strict (found by reading them, not by name). */
async function strictCorpusFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const rel of corpusFilesOf('templates')) {
    try {
      if ((await OpcPackage.open(readFileSync(corpusPath(rel)))).conformance === 'strict') found.push(rel);
    } catch {
      /* not a package: other tests' business */
    }
  }
  return found;
}

/** Share of pixels of a PNG that are not (near) white. */
async function inkShare(png: Uint8Array): Promise<number> {
  const img = await loadImage(Buffer.from(png));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) ink++;
  return ink / (img.width * img.height);
}

t.test('the Strict files of the corpus analyze, preview and generate cleanly', needsCorpus('incoming/templates/clippit-strict-16x9.pptx'), async (t) => {
  const files = await strictCorpusFiles();
  t.ok(files.includes('incoming/templates/clippit-strict-16x9.pptx'), `Strict files: ${files.join(', ')}`);
  for (const rel of files) {
    await t.test(rel, async (t) => {
      const bytes = readFileSync(corpusPath(rel));
      const results = await analysisOf(bytes);
      t.ok(results.layouts.length > 0 && results.masters.length > 0, `${results.layouts.length} layouts, ${results.masters.length} masters, ${results.slides.length} slides`);
      t.ok(Object.keys(results.presentation.theme_colors).length >= 12, 'theme colours read');
      t.ok(results.presentation.theme_fonts.minor !== '', `theme fonts read (${JSON.stringify(results.presentation.theme_fonts)})`);
      const shapes = [...results.layouts, ...results.slides].flatMap((s) => s.shapes);
      t.ok(shapes.length > 0 && shapes.filter((s) => s.placeholder).every((s) => s.cx !== null && s.cy !== null), `${shapes.length} shapes, every placeholder with its geometry`);
      t.ok(shapes.some((s) => s.placeholder?.type === 'title' || s.placeholder?.type === 'ctrTitle'), 'title placeholders found');
      if (rel.endsWith('clippit-strict-16x9.pptx')) {
        // what PowerPoint saved (checked by hand in its XML)
        t.equal(results.presentation.slide_width_emu, 12192000);
        t.equal(results.presentation.slide_height_emu, 6858000);
        t.equal(results.layouts.length, 11);
        t.equal(results.slides.length, 1);
        const title = results.layouts[0]!.shapes.find((s) => s.placeholder?.type === 'ctrTitle')!;
        t.same([title.x, title.y, title.cx, title.cy], [1524000, 1122363, 9144000, 2387600], 'the title slide title box');
        t.equal(title.font?.name, 'Calibri Light', 'the title font (the theme major font, through +mj-lt)');
        t.equal(title.paragraph_format?.line_spacing, 0.9, 'line spacing 90% (a:spcPct val="90%")');
        t.equal(results.presentation.theme_colors.accent1, '5B9BD5');
      }

      const previews = await previewsOf(bytes, 320);
      t.equal(previews.size, results.slides.length + results.layouts.length, 'every slide and layout drawn');
      const firstSlide = [...previews.values()][0]!;
      t.ok((await inkShare(firstSlide)) > 0.002, 'the first slide is not blank');

      const deck = await deckOfEverything(bytes);
      t.same(deck.errors, []);
      t.same(await strictLeftovers(deck.bytes!), [], 'the deck is Transitional');
      const file = join(scratch, rel.replace(/\//g, '_'));
      writeFileSync(file, deck.bytes!);
      const lint = await lintPptx(file);
      if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'lint clean');
      const xsd = await xsdCheck(file, { all: true });
      if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n'));
      const skip = await renderingSkipReason();
      if (skip) {
        void t.test(`LibreOffice: ${skip}`, { skip }, () => {});
        return;
      }
      try {
        const pdf = await convertToPdf(file, join(scratch, 'pdf'));
        t.equal(await pdfPageCount(pdf), deck.pages_generated, `LibreOffice opens the deck: ${deck.pages_generated} pages`);
      } catch (err) {
        if (err instanceof ToolMissingError) void t.test(err.message, { skip: err.message }, () => {});
        else throw err;
      }
    });
  }
});
