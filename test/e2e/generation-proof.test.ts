/**
 * Proof on real files (issue 4, item 9): for every template of the shared corpus, a deck
 * that uses each of its layouts with realistic content (long and short text, a long
 * table that paginates, two columns with headers, footers and slide numbers on) is built
 * with `buildDeck`, and
 *
 * - passes `ooxml-lint.py` (no check the template itself does not already fail) and
 *   `ooxml-xsd-check.sh`;
 * - LibreOffice renders it with one PDF page per generated slide (pagination included);
 * - `pdftotext -bbox` shows every word of the generated content inside the box of a shape
 *   that holds text on that slide, within {@link TOLERANCE_PT}, and no word at all off
 *   the slide; the exceptions, counted apart, are a slide whose build reported that its text
 *   still overflows at the minimum size (`text_overflow` / `table_overflow`) and a word
 *   spilling from a box whose face LibreOffice draws in a substitute with other metrics
 *   (a face not installed here: fitting measures the named face, as PowerPoint draws it). (Words of the template's own decorations are not ours to fit: a quote mark
 *   drawn past its own text box by the template is not counted.)
 *
 * LibreOffice runs in batches (one soffice call converts several decks; two calls at a
 * time, each with its own profile, under `timeout`). Set SLIDEWRIGHT_PROOF_KEEP=1 to keep
 * the decks and PDFs (the path is printed), SLIDEWRIGHT_PROOF_ONLY=name,name to run some
 * templates only.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import type { Column, SlideData, Table } from '../../core/src/domain/content.js';
import { createCanvas } from '@napi-rs/canvas';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import type { Shape } from '../../core/src/ooxml/pml/shapes.js';
import { attr } from '../../core/src/ooxml/xml.js';
import { readTextBody, shapeTextSources } from '../../core/src/ooxml/pml/text-style.js';
import { corpusFilesOfFor, corpusPath, scratchName } from '../helpers/corpus.js';
import { convertDecksToPdf, libreOfficeSubstitute, lintPptx, newFindings, pdfPageCount, pdfWordBoxes, refereeSkipped, renderingSkipReason, xsdCheck } from '../helpers/referee.js';

/**
 * How far (pt) a word may reach past the box that holds it: 4 pt, or 15 % of the word's
 * height for large type (pdftotext's word boxes span the font's whole ascent and descent,
 * which for a 96 pt title reaches past the line box the layout uses).
 */
const TOLERANCE_PT = 4;
const tolerance = (w: { y0: number; y1: number }): number => Math.max(TOLERANCE_PT, 0.15 * (w.y1 - w.y0));
/** Decks per soffice call. */
const BATCH = 6;

// LibreOffice needs a few minutes for every layout of 35 templates on 2 cores
t.setTimeout(1_500_000);

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-proof-'));
if (process.env.SLIDEWRIGHT_PROOF_KEEP) t.comment(`decks and PDFs kept in ${scratch}`);
// removed when the process exits: without a corpus tap's root test ends at the first await below, before its teardown could be relied on
else process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const LONG = [
  'Revenue grew 14 % year over year, driven by new enterprise contracts in the northern region and strong renewals among mid-market customers',
  'Gross margin improved by 2.1 points as cloud hosting costs fell after the migration to reserved capacity',
  'Operating expenses stayed flat despite two new offices, because travel and recruiting spend came in well below plan',
  'Customer churn dropped to its lowest level in three years following the launch of the onboarding programme',
  'The sales pipeline for the next two quarters is the largest in the company’s history, with a healthy mix of new logos and expansions',
  'Risks: currency movements, a slower public sector, and the timing of two large renewals that slipped into the next quarter',
  'Next steps: finalise the pricing review, hire the remaining account executives, and ship the analytics add-on to all customers',
  'Headcount reached 412 employees across engineering, sales, customer success and operations',
];
const SHORT = ['Faster onboarding', 'Lower churn', 'Bigger pipeline'];

function longTable(rows: number): Table {
  const out: Table = { rows: [{ is_header: true, cells: [{ value: 'Region' }, { value: 'Revenue (k€)' }, { value: 'Growth' }, { value: 'Comment' }] }] };
  for (let i = 1; i <= rows; i++) {
    out.rows.push({
      cells: [
        { value: `Region ${i}` },
        { value: String(1000 + i * 37) },
        { value: `${(i % 7) + 2} %` },
        { value: i % 4 === 0 ? 'Two large renewals slipped into the next quarter' : 'On plan' },
      ],
    });
  }
  return out;
}

const text = (bullets: string[]): Column['blocks'][number] => ({ type: 'text', text: { bullets } });

/** A column chart of four quarters and two series (its text is drawn in the chart, not checked as words). */
const CHART: Column['blocks'][number] = {
  type: 'chart',
  chart: { chart_type: 'column', title: 'Revenue by quarter', categories: ['Q1', 'Q2', 'Q3', 'Q4'], series: [{ name: 'Plan', values: [120, 135, 150, 170] }, { name: 'Actual', values: [118, 141, 149, 181] }] },
};

/** A 640 × 400 px picture (a PNG drawn here): an image block placed in the content area. */
const PICTURE: Column['blocks'][number] = (() => {
  const canvas = createCanvas(640, 400);
  const g = canvas.getContext('2d');
  g.fillStyle = '#2563eb';
  g.fillRect(0, 0, 640, 400);
  g.fillStyle = '#f59e0b';
  g.fillRect(80, 80, 480, 240);
  return { type: 'image', image: { data_base64: canvas.toBuffer('image/png').toString('base64'), content_type: 'image/png', alt_text: 'Blue and amber panels' } };
})();

/** Every word the generated content contains (what the bbox check looks at). */
const OUR_WORDS = new Set<string>();
function remember(...texts: string[]): void {
  for (const x of texts) for (const w of x.split(/\s+/)) if (w) OUR_WORDS.add(w);
}
remember(...LONG, ...SHORT, 'Quarterly business review: results, risks and the plan for the next two quarters', 'Prepared for the board · November', 'Highlights', 'Next steps', 'Slidewright · confidential', '(cont.)');
for (const r of longTable(40).rows) remember(...r.cells.map((c) => c.value));

/**
 * Realistic content for a layout, by what its placeholders offer: long text where the
 * content area is large (at least a third of the slide high and wide), short text in
 * small areas (a caption under a picture placeholder).
 */
function contentFor(layoutIndex: number, types: string[], large: boolean): SlideData {
  const content = types.filter((x) => x === 'obj' || x === 'tbl').length || types.filter((x) => x === 'body').length;
  const title = layoutIndex % 3 === 0 ? 'Quarterly business review: results, risks and the plan for the next two quarters' : `Results ${layoutIndex + 1}`;
  remember(title);
  if (types.includes('subTitle')) return { title, subtitle: 'Prepared for the board · November' };
  if (content >= 2) {
    return {
      title,
      content: [
        { header: 'Highlights', blocks: [text(large ? LONG.slice(0, 5) : SHORT)] },
        { header: 'Next steps', blocks: [text(SHORT)] },
      ],
    };
  }
  if (content === 1) {
    if (layoutIndex % 4 === 1) return { title, content: [{ blocks: [{ type: 'table', table: { table: longTable(30) } }] }] };
    if (layoutIndex % 8 === 2) return { title, content: [{ blocks: [CHART] }] };
    if (layoutIndex % 8 === 6) return { title, content: [{ blocks: [PICTURE] }] };
    return { title, content: [{ blocks: [text(large ? LONG : SHORT)] }] };
  }
  return { title };
}

interface Built {
  name: string;
  file: string;
  pages: number;
  requested: number;
  errors: unknown[];
  warnings: number;
  /** Request indexes with a `text_overflow` or `table_overflow` warning (reported, so not counted as failures). */
  reported: Set<number>;
  /** `text_overflow` and `table_overflow` warnings of the build. */
  overflowWarnings: number;
  /** Per request split across several slides, the table rows (`a:tr`, repeated header rows included) on each of its slides. */
  paginated: Array<{ request: number; rows: number[] }>;
}

/** Per request whose table was split across slides, the rows of the table on each slide, from the written deck. */
function paginationOf(result: Awaited<ReturnType<typeof buildDeck>>): Built['paginated'] {
  const byRequest = new Map<number, number[]>();
  for (const record of result.slides) {
    if (!result.package) break;
    const xml = new TextDecoder().decode(result.package.getBytes(record.part_name));
    if (!xml.includes('<a:tbl>')) continue;
    const rows = (xml.match(/<a:tr\b/g) ?? []).length;
    byRequest.set(record.slide_index, [...(byRequest.get(record.slide_index) ?? []), rows]);
  }
  return [...byRequest].filter(([, rows]) => rows.length > 1).map(([request, rows]) => ({ request, rows }));
}

/** SLIDEWRIGHT_PROOF_ONLY=a,b limits the run to templates whose name contains a or b (for debugging). */
const only = process.env.SLIDEWRIGHT_PROOF_ONLY?.split(',').filter(Boolean);
const templates = corpusFilesOfFor(t, 'templates').filter((n) => !only || only.some((o) => n.includes(o)));
const built: Built[] = [];
for (const name of templates) {
  const bytes = readFileSync(corpusPath(name));
  const pkg = await OpcPackage.open(bytes);
  const model = new PmlModel(pkg);
  const slides: DeckSlideSpec[] = [];
  model.layoutsInOrder().forEach((layout, i) => {
    const types = layout.placeholders.map((p) => p.placeholder!.type as string);
    const { slideWidthEmu: sw, slideHeightEmu: sh } = model.presentation;
    const areas = layout.placeholders.filter((p) => ['obj', 'tbl', 'body'].includes(p.placeholder!.type)).map((p) => p.frame);
    const large = areas.some((f) => !!f && f.cy >= sh / 3 && f.cx >= sw / 3);
    slides.push({
      template_id: name,
      template_slide_id: `${name}#${layout.partName}`,
      source: { kind: 'layout', part_name: layout.partName },
      slide_data: contentFor(i, types, large),
      options: { footer_text: 'Slidewright · confidential', show_slide_numbers: true, ...(i % 2 ? { footer_font_size: 10 } : {}) },
    });
  });
  const result = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
  const file = join(scratch, scratchName(name));
  if (result.bytes) writeFileSync(file, result.bytes);
  const overflow = result.warnings.filter((w) => w.code === 'text_overflow' || w.code === 'table_overflow');
  const reported = new Set(overflow.map((w) => w.slide_index));
  built.push({ name, file, pages: result.pages_generated, requested: slides.length, errors: result.errors, warnings: result.warnings.length, reported, overflowWarnings: overflow.length, paginated: paginationOf(result) });
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  name: string;
  /** LibreOffice's substitute for the box's text face when it draws other metrics than fitting measured (a face not installed here). */
  substitute?: string;
}

const EMU_PT = 12700;

function hasText(s: Shape): boolean {
  if (s.kind === 'graphicFrame') return true;
  const body = s.txBody;
  return !!body && (body.textContent ?? '').trim() !== '';
}

/** Boxes (pt) of the shapes that may show text on a slide: its own, and its layout's and master's non-placeholders. */
function textBoxes(model: PmlModel, slidePart: string): Box[] {
  const slide = model.slide(slidePart);
  const boxes: Box[] = [];
  const add = (s: Shape): void => {
    for (const d of s.walk()) {
      if (!hasText(d)) continue;
      const f = d.frame;
      if (!f) continue;
      let x0 = f.x / EMU_PT;
      let y0 = f.y / EMU_PT;
      let x1 = (f.x + f.cx) / EMU_PT;
      let y1 = (f.y + f.cy) / EMU_PT;
      if (f.rotation % 180 !== 0) {
        // a rotated box: its circumscribed square about the centre
        const cx = (x0 + x1) / 2;
        const cy = (y0 + y1) / 2;
        const r = Math.hypot(x1 - x0, y1 - y0) / 2;
        [x0, y0, x1, y1] = [cx - r, cy - r, cx + r, cy + r];
      }
      const face = d.txBody ? readTextBody(d.txBody, shapeTextSources(d, { theme: slide.theme, colorMap: slide.colorMap })).paragraphs[0]?.runs[0]?.font.name : undefined;
      const substitute = face ? libreOfficeSubstitute(face) : undefined;
      boxes.push({ x0, y0, x1, y1, name: d.name, ...(substitute ? { substitute } : {}) });
    }
  };
  for (const s of slide.shapes) add(s);
  const show = (root: { root: unknown }): boolean => attr(root.root as never, 'showMasterSp') !== '0';
  if (show(slide)) {
    for (const s of slide.layoutPart.shapes) if (!s.placeholder) add(s);
    if (show(slide.layoutPart)) for (const s of slide.master.shapes) if (!s.placeholder) add(s);
  }
  return boxes;
}

const skip = await renderingSkipReason();
let rendered = false;
if (!skip) {
  const started = Date.now();
  await convertDecksToPdf(built.filter((b) => existsSync(b.file)).map((b) => b.file), scratch, { batch: BATCH });
  rendered = true;
  t.comment(`LibreOffice converted ${built.length} decks in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const totals = { templates: 0, slides: 0, pages: 0, words: 0, outside: 0, offSlide: 0, reportedOverflowWords: 0, reportedSlides: 0, substitutedOutside: 0 };
/** The corpus-wide table of issue 21, item 7: one row per template. */
const table: string[] = [];
for (const b of built) {
  t.test(`${b.name}: every layout generates; lint, XSD, one page per slide, text inside its boxes`, async (t) => {
    t.same(b.errors, [], 'no slide failed');
    t.ok(existsSync(b.file), 'a deck was written');
    totals.templates++;
    totals.slides += b.requested;
    totals.pages += b.pages;
    const lint = await lintPptx(b.file);
    if (!refereeSkipped(t, lint)) {
      const before = (await lintPptx(corpusPath(b.name))).errors;
      t.same(newFindings(lint.errors, before), [], 'no lint finding the template did not already have');
    }
    const xsd = await xsdCheck(b.file);
    if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, 'XSD-valid', { output: xsd.output.split('\n').filter((l) => !/validates$/.test(l)).slice(0, 20).join('\n') });
    if (!rendered) return void t.test(`rendering checks: ${skip}`, { skip: skip ?? true }, () => {});
    const pdf = b.file.replace(/\.pptx$/, '.pdf');
    t.ok(existsSync(pdf), 'LibreOffice wrote a PDF');
    if (!existsSync(pdf)) return;
    t.equal(await pdfPageCount(pdf), b.pages, 'one page per generated slide');
    // balanced pagination (issue 21, item 2): the pages of a split table differ by at most one row
    for (const p of b.paginated) t.ok(Math.max(...p.rows) - Math.min(...p.rows) <= 1, `request ${p.request}: table pages within one row of each other (${p.rows.join(' + ')} rows)`);
    const wordsBefore = totals.words;
    let substituted = 0;
    const outsideBefore = totals.outside;
    const pkg = await OpcPackage.open(readFileSync(b.file));
    const model = new PmlModel(pkg);
    const slides = model.presentation.slides;
    const pages = await pdfWordBoxes(pdf);
    const outside: string[] = [];
    const off: string[] = [];
    totals.reportedSlides += b.reported.size;
    // which request each page comes from: continuation pages carry "(cont.)" in their title
    let request = -1;
    pages.forEach((page, i) => {
      const ref = slides[i];
      if (!ref) return;
      if (!new TextDecoder().decode(pkg.getBytes(ref.partName)).includes('(cont.)')) request++;
      const reported = b.reported.has(request);
      const boxes = textBoxes(model, ref.partName);
      for (const w of page.words) {
        if (!OUR_WORDS.has(w.text)) continue;
        totals.words++;
        const tol = tolerance(w);
        if (w.x0 < -tol || w.y0 < -tol || w.x1 > page.width + tol || w.y1 > page.height + tol) {
          totals.offSlide++;
          off.push(`slide ${i + 1}: "${w.text}" at (${w.x0.toFixed(0)}, ${w.y0.toFixed(0)})`);
          continue;
        }
        const inside = boxes.some((bx) => w.x0 >= bx.x0 - tol && w.x1 <= bx.x1 + tol && w.y0 >= bx.y0 - tol && w.y1 <= bx.y1 + tol);
        // a word spilling from a box whose face LibreOffice substitutes (below it, or beside it)
        const spilledFromSubstitute = (): boolean =>
          boxes.some((bx) => !!bx.substitute && ((w.x0 + w.x1) / 2 >= bx.x0 && (w.x0 + w.x1) / 2 <= bx.x1 && w.y0 >= bx.y0 - tol ? true : (w.y0 + w.y1) / 2 >= bx.y0 && (w.y0 + w.y1) / 2 <= bx.y1));
        if (!inside && reported) totals.reportedOverflowWords++;
        else if (!inside && spilledFromSubstitute()) {
          totals.substitutedOutside++;
          substituted++;
        } else if (!inside) {
          totals.outside++;
          outside.push(`slide ${i + 1}: "${w.text}" at (${w.x0.toFixed(0)}, ${w.y0.toFixed(0)})–(${w.x1.toFixed(0)}, ${w.y1.toFixed(0)})`);
        }
      }
    });
    const balanced = b.paginated.filter((p) => Math.max(...p.rows) - Math.min(...p.rows) <= 1).length;
    table.push(
      `${b.name} | ${b.requested} | ${b.pages} | ${totals.words - wordsBefore} | ${totals.outside - outsideBefore} | ${substituted} | ${off.length} | ${b.overflowWarnings} | ` +
        `${b.paginated.length ? `${balanced}/${b.paginated.length} (${b.paginated.map((p) => p.rows.join('+')).join(', ')})` : '–'}`,
    );
    t.same(off, [], 'no text off the slide');
    t.same(outside.slice(0, 15), [], `no text outside its box (${outside.length} words)`);
  });
}

t.teardown(() => {
  // the figures the issue note reports
  console.error(
    ['template | requested slides | pages | words checked | outside their box, unreported | outside, spilled from a face LibreOffice substitutes | off the slide | overflow warnings | paginated tables balanced (rows per page)', '---|---|---|---|---|---|---|---|---', ...table].join('\n'),
  );
  console.error(
    `generation-proof: ${totals.templates} templates, ${totals.slides} requested slides, ${totals.pages} generated pages, ${totals.words} words checked, ` +
      `${totals.outside} outside their box unreported, ${totals.substitutedOutside} outside spilled from a face LibreOffice substitutes, ${totals.offSlide} off the slide; ${totals.reportedSlides} slides reported overflowing at the minimum size (${totals.reportedOverflowWords} words past their box there)`,
  );
});



