/**
 * Vertical and rotated text fitted as LibreOffice lays it out (issue 21, item 4): for every
 * template of the corpus, the first layout with a title placeholder is changed so its title
 * stands in a tall, narrow box at the slide's left edge — written vertically
 * (`a:bodyPr/@vert` `vert`, `vert270` or `eaVert`, ECMA-376 Part 1 §21.1.2.1.1 and
 * §20.1.10.82) or as horizontal text in a box turned a quarter (`a:xfrm/@rot`, §20.1.7.6) —
 * one variant per template in turn. A deck of two slides from that layout, a long and a
 * short title, is built and LibreOffice converts it; then, from `pdftotext -bbox`, every
 * word of each title lies inside the box on the page (within a small tolerance), unless the
 * build reported that the title still overflows at the minimum size, or LibreOffice draws
 * the title in a substitute face with other metrics than the one fitting measured (a face
 * not installed here, e.g. Segoe UI drawn in DejaVu Sans: counted apart in the table). Before the fitting
 * measured vertical lines along the box's height, LibreOffice wrapped such titles past the
 * slide's edge.
 *
 * SLIDEWRIGHT_VERTICAL_ONLY=a,b limits the run to templates whose name contains a or b;
 * SLIDEWRIGHT_VERTICAL_KEEP=1 keeps the decks and PDFs (the folder is printed).
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import { NS, child, createElement, type Element } from '../../core/src/ooxml/xml.js';
import { readTextBody, shapeTextSources } from '../../core/src/ooxml/pml/text-style.js';
import { corpusFilesOfFor, corpusPath, scratchName } from '../helpers/corpus.js';
import { convertDecksToPdf, libreOfficeSubstitute, pdfWordBoxes, renderingSkipReason } from '../helpers/referee.js';

t.setTimeout(1_800_000);

const EMU_PT = 12700;

/** The ways a title is made vertical, one per template in turn. */
const VARIANTS = [
  { name: 'vert', vert: 'vert', rot: 0 },
  { name: 'vert270', vert: 'vert270', rot: 0 },
  { name: 'eaVert', vert: 'eaVert', rot: 0 },
  { name: 'box turned 90°', vert: undefined, rot: 90 },
] as const;
type Variant = (typeof VARIANTS)[number];

const TITLES = ['Quarterly results for the northern region and the outlook for the coming year', 'Results and outlook'];
const TITLE_WORDS = new Set(TITLES.flatMap((s) => s.toLowerCase().split(/\s+/)));

/** How far (pt) a word may reach past the box: 6 pt, or 15 % of the word's smaller side (pdftotext's boxes span the font's whole ascent and descent). */
const tolerance = (w: { x0: number; x1: number; y0: number; y1: number }): number => Math.max(6, 0.15 * Math.min(w.x1 - w.x0, w.y1 - w.y0));

/** The title's box on the slide, EMU: at the left edge, 14 % of the slide wide and 80 % tall. */
function tallBox(sw: number, sh: number): { x: number; y: number; cx: number; cy: number } {
  return { x: Math.round(sw * 0.04), y: Math.round(sh * 0.1), cx: Math.round(sw * 0.14), cy: Math.round(sh * 0.8) };
}

/**
 * Makes the title placeholder `sp` of a layout vertical per `variant`: its own `a:xfrm`
 * (placed and sized, turned for the rotated variant so that the turned box covers the tall
 * box) and its `a:bodyPr/@vert`.
 */
function makeVertical(sp: Element, variant: Variant, box: ReturnType<typeof tallBox>): void {
  const doc = sp.ownerDocument!;
  let spPr = child(sp, NS.p, 'spPr');
  if (!spPr) {
    spPr = createElement(doc, NS.p, 'p:spPr');
    sp.insertBefore(spPr, child(sp, NS.p, 'style') ?? child(sp, NS.p, 'txBody') ?? null);
  }
  const old = child(spPr, NS.a, 'xfrm');
  if (old) spPr.removeChild(old);
  // a box turned a quarter shows its cy across and its cx down: the unturned box is the tall one's transpose about its centre
  const [cx, cy] = variant.rot ? [box.cy, box.cx] : [box.cx, box.cy];
  const x = Math.round(box.x + box.cx / 2 - cx / 2);
  const y = Math.round(box.y + box.cy / 2 - cy / 2);
  const xfrm = createElement(doc, NS.a, 'a:xfrm', variant.rot ? { rot: variant.rot * 60000 } : {});
  xfrm.appendChild(createElement(doc, NS.a, 'a:off', { x, y }));
  xfrm.appendChild(createElement(doc, NS.a, 'a:ext', { cx, cy }));
  spPr.insertBefore(xfrm, spPr.firstChild);
  let txBody = child(sp, NS.p, 'txBody');
  if (!txBody) {
    txBody = createElement(doc, NS.p, 'p:txBody');
    sp.appendChild(txBody);
    txBody.appendChild(createElement(doc, NS.a, 'a:bodyPr'));
    txBody.appendChild(createElement(doc, NS.a, 'a:lstStyle'));
    txBody.appendChild(createElement(doc, NS.a, 'a:p'));
  }
  let bodyPr = child(txBody, NS.a, 'bodyPr');
  if (!bodyPr) {
    bodyPr = createElement(doc, NS.a, 'a:bodyPr');
    txBody.insertBefore(bodyPr, txBody.firstChild);
  }
  if (variant.vert) bodyPr.setAttribute('vert', variant.vert);
  else bodyPr.setAttribute('vert', 'horz');
}

interface Built {
  name: string;
  variant: Variant;
  file: string;
  /** The title's box on the page, pt. */
  box: { x0: number; y0: number; x1: number; y1: number };
  /** Slides (0-based) whose build reported text overflowing at the minimum size. */
  reported: Set<number>;
  errors: number;
  /** The title's typeface, and the face LibreOffice draws it in when that one is not installed with the same metrics. */
  face: string;
  substitute: string | undefined;
}


const scratch = mkdtempSync(join(tmpdir(), 'slidewright-vertical-'));
if (process.env.SLIDEWRIGHT_VERTICAL_KEEP) t.comment(`decks and PDFs kept in ${scratch}`);
// removed when the process exits: without a corpus tap's root test ends at the first await below, before its teardown could be relied on
else process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const only = process.env.SLIDEWRIGHT_VERTICAL_ONLY?.split(',').filter(Boolean);
const templates = corpusFilesOfFor(t, 'templates').filter((n) => !only || only.some((o) => n.includes(o)));
const built: Built[] = [];
let withoutTitleLayout = 0;
for (const [i, name] of templates.entries()) {
  const pkg = await OpcPackage.open(readFileSync(corpusPath(name)));
  const model = new PmlModel(pkg);
  const layout = model.layoutsInOrder().find((l) => l.placeholders.some((p) => p.placeholder?.type === 'title' || p.placeholder?.type === 'ctrTitle'));
  if (!layout) {
    withoutTitleLayout++;
    continue;
  }
  const variant = VARIANTS[i % VARIANTS.length]!;
  const { slideWidthEmu: sw, slideHeightEmu: sh } = model.presentation;
  const box = tallBox(sw, sh);
  const title = layout.placeholders.find((p) => p.placeholder?.type === 'title' || p.placeholder?.type === 'ctrTitle')!;
  const doc = pkg.getXml(layout.partName);
  makeVertical(title.element, variant, box);
  pkg.setXml(layout.partName, doc);
  const bytes = await pkg.toBytes();
  const slides: DeckSlideSpec[] = TITLES.map((text, k) => ({
    template_id: name,
    template_slide_id: `${name}#${k}`,
    source: { kind: 'layout', part_name: layout.partName },
    slide_data: { title: text },
    options: {},
  }));
  const result = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
  const file = join(scratch, scratchName(name));
  if (result.bytes) writeFileSync(file, result.bytes);
  const reported = new Set(result.warnings.filter((w) => w.code === 'text_overflow').map((w) => w.slide_index));
  let face = '';
  if (result.bytes) {
    const out = new PmlModel(await OpcPackage.open(result.bytes));
    const slide = out.slide(out.presentation.slides[0]!.partName);
    const sp = slide.shapes.find((x) => x.placeholder?.type === 'title' || x.placeholder?.type === 'ctrTitle');
    if (sp) face = readTextBody(sp.txBody, shapeTextSources(sp, { theme: slide.theme, colorMap: slide.colorMap })).paragraphs[0]?.runs[0]?.font.name ?? '';
  }
  built.push({ name, variant, file, box: { x0: box.x / EMU_PT, y0: box.y / EMU_PT, x1: (box.x + box.cx) / EMU_PT, y1: (box.y + box.cy) / EMU_PT }, reported, errors: result.errors.length, face, substitute: face ? libreOfficeSubstitute(face) : undefined });
}

const skip = await renderingSkipReason();
if (!skip) await convertDecksToPdf(built.filter((b) => existsSync(b.file)).map((b) => b.file), scratch);

/** Per variant: titles, words checked, words outside the box unreported, titles reported overflowing. */
const totals = new Map<string, { titles: number; words: number; outside: number; reported: number; substituted: number }>();
/** Titles whose words were judged (not reported overflowing, and not outside their box in a substitute face). */
let judged = 0;
for (const b of built) {
  t.test(`${b.name}: a ${b.variant.name} title stays in its box`, async (t) => {
    t.equal(b.errors, 0, 'every slide was built');
    t.ok(existsSync(b.file), 'a deck was written');
    if (skip) return void t.test(`rendering checks: ${skip}`, { skip }, () => {});
    const pdf = b.file.replace(/\.pptx$/, '.pdf');
    t.ok(existsSync(pdf), 'LibreOffice wrote a PDF');
    if (!existsSync(pdf)) return;
    const pages = await pdfWordBoxes(pdf);
    t.equal(pages.length, TITLES.length, 'one page per slide');
    const row = totals.get(b.variant.name) ?? { titles: 0, words: 0, outside: 0, reported: 0, substituted: 0 };
    totals.set(b.variant.name, row);
    pages.forEach((page, k) => {
      row.titles++;
      const ours = page.words.filter((w) => TITLE_WORDS.has(w.text.toLowerCase()));
      row.words += ours.length;
      const expected = TITLES[k]!.split(/\s+/).length;
      t.ok(ours.length >= expected, `slide ${k + 1}: the title's ${expected} words are on the page (${ours.length} found)`);
      const outside = ours.filter((w) => {
        const tol = tolerance(w);
        return w.x0 < b.box.x0 - tol || w.x1 > b.box.x1 + tol || w.y0 < b.box.y0 - tol || w.y1 > b.box.y1 + tol;
      });
      if (b.reported.has(k)) {
        row.reported++;
        return;
      }
      if (b.substitute && outside.length) {
        // LibreOffice draws another face than the one fitting measured: counted, not judged
        row.substituted += outside.length;
        t.comment(`slide ${k + 1}: ${outside.length} words outside in ${b.substitute} (LibreOffice's face for ${b.face})`);
        return;
      }
      row.outside += outside.length;
      judged++;
      t.same(
        outside.map((w) => `"${w.text}" at (${w.x0.toFixed(0)}, ${w.y0.toFixed(0)})–(${w.x1.toFixed(0)}, ${w.y1.toFixed(0)})`),
        [],
        `slide ${k + 1}: every word inside the box (${b.box.x0.toFixed(0)}, ${b.box.y0.toFixed(0)})–(${b.box.x1.toFixed(0)}, ${b.box.y1.toFixed(0)}) pt`,
      );
    });
  });
}

// without a corpus, corpusFilesOfFor has reported it (and tap's root test has ended)
if (templates.length > 0) t.test('the corpus gave titles to check', async (t) => {
  t.ok(built.length >= Math.min(8, templates.length - withoutTitleLayout), `${built.length} templates with a title layout (${withoutTitleLayout} without)`);
  if (!skip) t.ok(judged >= built.length, `${judged} titles judged (at least one per template on average, of ${built.length * TITLES.length})`);
});

t.teardown(() => {
  const lines = ['variant | titles | words | outside their box, unreported | titles reported overflowing | outside where LibreOffice substitutes the face', '---|---|---|---|---|---'];
  for (const [k, v] of totals) lines.push(`${k} | ${v.titles} | ${v.words} | ${v.outside} | ${v.reported} | ${v.substituted}`);
  console.error(`vertical-text:\n${lines.join('\n')}`);
});
