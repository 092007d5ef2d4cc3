/**
 * International text measured on real templates (issue 24, item 4): for every template of
 * the corpus (`templates` folders, incoming ones included) a deck with one slide per
 * language — Arabic, Hebrew, Japanese, Simplified Chinese, Korean and Latin mixed with
 * Arabic — each holding bullets and a table in the template's first layout with a title
 * and a content placeholder, is built and converted by LibreOffice; then
 *
 * - `pdftotext -bbox` shows every word of the generated content inside the box of a shape
 *   that holds text (as in `generation-proof.test.ts`), except on a slide whose build
 *   reported its text overflowing at the minimum size;
 * - on right-to-left slides each line's words come out right to left: two neighbouring
 *   words of a line, read from the right, follow each other in the text;
 * - the preview of each slide is structurally similar to LibreOffice's page (SSIM ≥ 0.85;
 *   ≥ 0.6 on the templates LibreOffice is known to draw apart from the file, each named
 *   with its reason in {@link LIBREOFFICE_DEPARTS}), and each language's mean is ≥ 0.85.
 *
 * Besides, per template, a second deck puts the same languages through everything else that
 * writes text — speaker notes, header, footer and footnote fields, footer text and slide
 * numbers in the language, a table that paginates, bullets whose text block names the
 * language, and the template's first slide copied with its text replaced — and the referee
 * tools check it: `ooxml-lint` finds nothing the template did not already have, every
 * part (`ooxml-xsd-check --all`: notes slides and masters included) validates or fails
 * only as the template's own parts do, and every right-to-left notes paragraph is marked
 * right to left. These run without LibreOffice.
 *
 * The teardown prints the per-language table (slides, words, words outside, right-to-left
 * order, mean and lowest SSIM) the closing note quotes. SLIDEWRIGHT_INTL_ONLY=a,b limits
 * the run to templates whose name contains a or b; SLIDEWRIGHT_INTL_KEEP=1 keeps the files.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import type { SlideData, Table } from '../../core/src/domain/content.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import type { Shape } from '../../core/src/ooxml/pml/shapes.js';
import { NS, attr, child, children, descendants, path } from '../../core/src/ooxml/xml.js';
import { renderSlide } from '../../core/src/render/index.js';
import { hasRightToLeft } from '../../core/src/text/script.js';
import { corpusFilesOfFor, corpusPath, scratchName } from '../helpers/corpus.js';
import { convertDecksToPdf, lintPptx, newFindings, pdfWordBoxes, refereeSkipped, renderingSkipReason, xsdCheck, type PdfWord } from '../helpers/referee.js';
import { CT } from '../../core/src/ooxml/opc/constants.js';
import { COMPARE_WIDTH_PX, rasterizePage, wordsOf } from '../helpers/pdf-tools.js';
import { grayFromPng, ssim } from '../fidelity/ssim.js';

t.setTimeout(1_800_000);

/** How far (pt) a word may reach past its box (as the generation proof allows). */
const tolerance = (w: { y0: number; y1: number }): number => Math.max(4, 0.15 * (w.y1 - w.y0));
const MIN_SSIM = 0.85;
/**
 * Templates whose pages LibreOffice draws apart from the file (each looked at, our preview
 * and LibreOffice's page side by side; the previews follow the file as PowerPoint shows it):
 * their slides are held to {@link DEPARTED_MIN_SSIM} instead of {@link MIN_SSIM}, so a
 * regression still fails. Every other slide meets {@link MIN_SSIM}, and every language's
 * mean does.
 */
const LIBREOFFICE_DEPARTS: ReadonlyArray<[string, string]> = [
  ['pandoc-footer-reference', "the masters' text is gradient-filled (a:gradFill in a:defRPr, light stops on a dark background); LibreOffice 7.4 draws it black"],
  ['poi-mix10-keynote-template', "the masters' text is gradient-filled; LibreOffice 7.4 draws it black"],
  ['poi-smartart-tiny-slide', 'LibreOffice draws the table style\'s bold header row (a:tcTxStyle b="on") regular in every script, Latin included'],
  ['json2pptx-modern-template', "the title's face (Lora, the theme's major font) is not installed: previews draw a serif stand-in, LibreOffice's fontconfig a sans, so the title wraps in three lines against two"],
];
const DEPARTED_MIN_SSIM = 0.6;
const BATCH = 6;
const EMU_PT = 12700;

interface Sample {
  language: string;
  tag: string;
  title: string;
  bullets: string[];
  table: string[][];
}

const SAMPLES: Sample[] = [
  {
    language: 'Arabic', tag: 'ar-SA', title: 'مراجعة الأعمال الفصلية',
    bullets: ['نمت الإيرادات بنسبة 14٪ على أساس سنوي بفضل العقود الجديدة في المنطقة الشمالية', 'تحسن هامش الربح الإجمالي بمقدار نقطتين بعد خفض تكاليف الاستضافة', 'انخفض معدل فقدان العملاء إلى أدنى مستوى له منذ ثلاث سنوات'],
    table: [['المنطقة', 'الإيرادات', 'النمو'], ['الشمال', '1200', '12٪'], ['الجنوب', '950', '8٪']],
  },
  {
    language: 'Hebrew', tag: 'he-IL', title: 'סקירה עסקית רבעונית',
    bullets: ['ההכנסות גדלו ב-14% לעומת השנה הקודמת בזכות חוזים חדשים באזור הצפון', 'שיעור הרווח הגולמי השתפר בשתי נקודות לאחר הורדת עלויות האירוח', 'נטישת הלקוחות ירדה לרמה הנמוכה ביותר מזה שלוש שנים'],
    table: [['אזור', 'הכנסות', 'צמיחה'], ['צפון', '1200', '12%'], ['דרום', '950', '8%']],
  },
  {
    language: 'Japanese', tag: 'ja-JP', title: '四半期業績レビュー',
    bullets: ['北部地域での新規法人契約により、売上高は前年比14％増加しました。', 'ホスティング費用の削減により、粗利益率は2.1ポイント改善しました。', '顧客の解約率は過去3年間で最低の水準になりました。'],
    table: [['地域', '売上高', '成長率'], ['北部', '1200', '12％'], ['南部', '950', '8％']],
  },
  {
    language: 'Chinese (Simplified)', tag: 'zh-CN', title: '季度业务回顾',
    bullets: ['受北部地区新企业合同的推动，收入同比增长百分之十四。', '托管成本下降后，毛利率提高了二点一个百分点。', '客户流失率降至三年来的最低水平。'],
    table: [['地区', '收入', '增长'], ['北部', '1200', '12%'], ['南部', '950', '8%']],
  },
  {
    language: 'Korean', tag: 'ko-KR', title: '분기별 사업 검토',
    bullets: ['북부 지역의 신규 기업 계약으로 매출이 전년 대비 14% 증가했습니다.', '호스팅 비용이 줄어들면서 매출총이익률이 2.1포인트 개선되었습니다.', '고객 이탈률은 3년 만에 최저 수준으로 떨어졌습니다.'],
    table: [['지역', '매출', '성장률'], ['북부', '1200', '12%'], ['남부', '950', '8%']],
  },
  {
    language: 'Latin + Arabic', tag: '', title: 'Quarterly review المراجعة الفصلية',
    bullets: ['Revenue grew 14% نمت الإيرادات بفضل العقود الجديدة', 'هامش الربح الإجمالي improved by 2.1 points', 'Customer churn انخفض إلى أدنى مستوى'],
    table: [['Region المنطقة', 'Revenue', 'Growth'], ['North الشمال', '1200', '12%'], ['South الجنوب', '950', '8%']],
  },
];

function tableOf(rows: string[][]): Table {
  return { rows: rows.map((cells, i) => ({ cells: cells.map((value) => ({ value })), ...(i === 0 ? { is_header: true } : {}) })) };
}

function slideData(s: Sample): SlideData {
  return { title: s.title, content: [{ blocks: [{ type: 'text', text: { bullets: s.bullets } }, { type: 'table', table: { table: tableOf(s.table) } }] }] };
}

/** A PDF word as its text reads in logical order: right-to-left words come out of pdftotext in glyph (visual) order. */
function logical(word: string): string {
  return hasRightToLeft(word) ? [...word].reverse().join('') : word;
}

/**
 * The comparison tokens of a text ({@link wordsOf}: NFKC, lower case, CJK one per
 * character), each as its sorted characters: pdftotext writes an Arabic lam-alef ligature
 * as two letters in logical order inside a word in visual order, so a right-to-left word
 * read back holds the right letters, not always in the right order.
 */
function tokens(text: string): string[] {
  return wordsOf(text).map((w) => [...w].sort().join(''));
}

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-intl-'));
if (process.env.SLIDEWRIGHT_INTL_KEEP) t.comment(`decks and PDFs kept in ${scratch}`);
// removed when the process exits: without a corpus tap's root test ends at the first await below, before its teardown could be relied on
else process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

interface Built {
  name: string;
  file: string;
  /** Per generated slide: the sample it shows. */
  samples: Sample[];
  reported: Set<number>;
  errors: unknown[];
}

/** The referee deck of one template (see the module comment). */
interface RefereeDeck {
  name: string;
  file: string | undefined;
  errors: unknown[];
  /** Slides asked for, and of them with notes written from `notes`. */
  requested: number;
}
const refereeDecks: RefereeDeck[] = [];

/**
 * Builds the referee deck of a template: per sample, a slide from `layout` with notes,
 * header, footer, footnote and footer options in the sample's language; a table-only slide
 * of 40 rows (paginates); bullets whose text block names the language (deck options
 * without one); the template's first slide, if any, copied with its text replaced.
 */
async function buildRefereeDeck(name: string, bytes: Uint8Array, model: PmlModel, layout: string): Promise<Omit<RefereeDeck, 'name'>> {
  const first = model.presentation.slides[0]?.partName;
  const slides: DeckSlideSpec[] = [];
  const fromLayout = (slide_data: SlideData, options: DeckSlideSpec['options']): DeckSlideSpec => ({ template_id: name, template_slide_id: `${name}#${layout}`, source: { kind: 'layout', part_name: layout }, slide_data, options });
  for (const s of SAMPLES) {
    const language = s.tag ? { language: s.tag } : {};
    const options = { ...language, footer_text: s.table[0]![0]!, show_slide_numbers: true, footer_font_size: 10 };
    const notes = `${s.title}\n${s.bullets[0]}`;
    slides.push(fromLayout({ ...slideData(s), header: s.title, footer: s.table[1]![0]!, footnote: s.bullets[2]!, notes }, { ...options, auto_paginate_tables: false }));
    const rows = [s.table[0]!, ...Array.from({ length: 40 }, (_, i) => [`${s.table[1]![0]} ${i + 1}`, String(i), s.table[2]![2]!])];
    slides.push(fromLayout({ title: s.title, notes, content: [{ blocks: [{ type: 'table', table: { table: tableOf(rows) } }] }] }, options));
    slides.push(fromLayout({ title: s.title, notes: '', content: [{ blocks: [{ type: 'text', text: { bullets: s.bullets, ...language } }] }] }, { show_slide_numbers: true }));
    if (first) slides.push({ template_id: name, template_slide_id: `${name}#${first}`, source: { kind: 'slide', part_name: first }, slide_data: { title: s.title, subtitle: s.bullets[0]!, notes, content: [{ blocks: [{ type: 'text', text: { bullets: s.bullets } }] }] }, options });
  }
  const result = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
  const file = result.bytes ? join(scratch, `referee-${scratchName(name)}`) : undefined;
  if (file) writeFileSync(file, result.bytes!);
  return { file, errors: result.errors, requested: slides.length };
}

/** xmllint's complaints in `ooxml-xsd-check` output, without the file, part and line in front (to compare a deck with its template). */
function xsdComplaints(output: string): Set<string> {
  const out = new Set<string>();
  for (const line of output.split('\n')) {
    const m = /:\d+: (.*(?:validity error|parser error).*)$/.exec(line);
    if (m) out.add(m[1]!);
  }
  return out;
}

const only = process.env.SLIDEWRIGHT_INTL_ONLY?.split(',').filter(Boolean);
const templates = corpusFilesOfFor(t, 'templates').filter((n) => !only || only.some((o) => n.includes(o)));
const built: Built[] = [];
for (const name of templates) {
  const bytes = readFileSync(corpusPath(name));
  let model: PmlModel;
  try {
    model = new PmlModel(await OpcPackage.open(bytes));
  } catch {
    continue; // a template the reader refuses is another test's subject
  }
  const layout = model.layoutsInOrder().find((l) => {
    const types = l.placeholders.map((p) => p.placeholder!.type as string);
    return types.includes('title') && types.some((x) => x === 'obj' || x === 'body');
  });
  if (!layout) continue;
  const slides: DeckSlideSpec[] = SAMPLES.map((s) => ({
    template_id: name,
    template_slide_id: `${name}#${layout.partName}`,
    source: { kind: 'layout', part_name: layout.partName },
    slide_data: slideData(s),
    options: { auto_paginate_tables: false, ...(s.tag ? { language: s.tag } : {}) },
  }));
  const result = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
  const file = join(scratch, scratchName(name));
  if (result.bytes) writeFileSync(file, result.bytes);
  const reported = new Set(result.warnings.filter((w) => w.code === 'text_overflow' || w.code === 'table_overflow').map((w) => w.slide_index));
  built.push({ name, file, samples: SAMPLES, reported, errors: result.errors });
  refereeDecks.push({ name, ...(await buildRefereeDeck(name, bytes, model, layout.partName)) });
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function hasText(s: Shape): boolean {
  if (s.kind === 'graphicFrame') return true;
  return !!s.txBody && (s.txBody.textContent ?? '').trim() !== '';
}

/** Boxes (pt) of the shapes that may show text on a slide: its own, and its layout's and master's non-placeholders. */
function textBoxes(model: PmlModel, slidePart: string): Box[] {
  const slide = model.slide(slidePart);
  const boxes: Box[] = [];
  const add = (s: Shape): void => {
    for (const d of s.walk()) {
      const f = d.frame;
      if (!hasText(d) || !f) continue;
      let [x0, y0, x1, y1] = [f.x / EMU_PT, f.y / EMU_PT, (f.x + f.cx) / EMU_PT, (f.y + f.cy) / EMU_PT];
      if (f.rotation % 180 !== 0) {
        const cx = (x0 + x1) / 2;
        const cy = (y0 + y1) / 2;
        const r = Math.hypot(x1 - x0, y1 - y0) / 2;
        [x0, y0, x1, y1] = [cx - r, cy - r, cx + r, cy + r];
      }
      boxes.push({ x0, y0, x1, y1 });
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

/**
 * Whether a page's right-to-left lines read right to left: on each line (words whose
 * vertical middles are within a third of their height), neighbouring right-to-left words
 * taken from the right must follow each other (within three tokens) in the paragraph
 * (title, bullet or cell) that holds both; a pair no one paragraph holds (two cells of a
 * table row) says nothing.
 * @returns lines checked and lines in order
 */
function rtlOrder(words: PdfWord[], paragraphs: string[][], cells: string[][]): { lines: number; ok: number; bad: string[] } {
  const rtl = words.filter((w) => hasRightToLeft(w.text));
  const lines: PdfWord[][] = [];
  for (const w of rtl.sort((a, b) => a.y0 - b.y0)) {
    const mid = (w.y0 + w.y1) / 2;
    const line = lines.find((l) => Math.abs((l[0]!.y0 + l[0]!.y1) / 2 - mid) < (w.y1 - w.y0) / 3);
    if (line) line.push(w);
    else lines.push([w]);
  }
  let ok = 0;
  let checked = 0;
  const bad: string[] = [];
  for (const line of lines) {
    const seq = line.sort((a, b) => b.x1 - a.x1).map((w) => tokens(logical(w.text))[0]).filter((x): x is string => !!x);
    let pairs = 0;
    let inOrder = true;
    for (let i = 0; i + 1 < seq.length; i++) {
      const a = seq[i]!;
      const b = seq[i + 1]!;
      // two cells of one table row have no order between them
      if (cells.some((c) => c.includes(a)) && cells.some((c) => c.includes(b)) && !cells.some((c) => c.includes(a) && c.includes(b))) continue;
      const holders = paragraphs.filter((p) => p.includes(a) && p.includes(b));
      if (holders.length === 0) continue;
      pairs++;
      if (!holders.some((p) => p.some((tok, k) => tok === a && p.slice(k + 1, k + 4).includes(b)))) {
        inOrder = false;
        bad.push(`${a} → ${b}`);
        break;
      }
    }
    if (pairs === 0) continue;
    checked++;
    if (inOrder) ok++;
  }
  return { lines: checked, ok, bad };
}

interface Row {
  slides: number;
  words: number;
  outside: number;
  reportedWords: number;
  rtlLines: number;
  rtlOk: number;
  ssims: number[];
}
const table = new Map<string, Row>(SAMPLES.map((s) => [s.language, { slides: 0, words: 0, outside: 0, reportedWords: 0, rtlLines: 0, rtlOk: 0, ssims: [] }]));

for (const d of refereeDecks) {
  t.test(`${d.name}: international notes, headers, footers, paginated tables and copied slides pass the referee tools`, async (t) => {
    t.same(d.errors, [], 'no slide failed');
    if (!d.file) return void t.fail('no deck was written');
    const pkg = await OpcPackage.open(readFileSync(d.file));
    const notesParts = pkg.partsOfType(CT.notesSlide);
    // per sample: the filled slide, at least one table page and the copied slide have notes
    t.ok(notesParts.length >= SAMPLES.length * 2, `notes slides written (${notesParts.length})`);
    let rtlParagraphs = 0;
    const unmarked: string[] = [];
    for (const part of notesParts) {
      const tree = path(pkg.getXml(part).documentElement!, [NS.p, 'cSld'], [NS.p, 'spTree']);
      const body = tree ? children(tree, NS.p, 'sp').find((sp) => attr(path(sp, [NS.p, 'nvSpPr'], [NS.p, 'nvPr'], [NS.p, 'ph']), 'type') === 'body') : undefined;
      for (const p of body ? descendants(body, NS.a, 'p') : []) {
        const text = descendants(p, NS.a, 't').map((x) => x.textContent ?? '').join('');
        if (!SAMPLES.some((s) => s.tag && hasRightToLeft(s.title) && text === s.title)) continue;
        rtlParagraphs++;
        if (attr(child(p, NS.a, 'pPr'), 'rtl') !== '1') unmarked.push(`${part}: ${text}`);
      }
    }
    t.ok(rtlParagraphs > 0, `right-to-left notes paragraphs found (${rtlParagraphs})`);
    t.same(unmarked.slice(0, 5), [], 'every right-to-left notes paragraph is marked rtl="1"');
    const lint = await lintPptx(d.file);
    if (!refereeSkipped(t, lint)) {
      const before = (await lintPptx(corpusPath(d.name))).errors;
      t.same(newFindings(lint.errors, before).slice(0, 10), [], 'ooxml-lint: no finding the template did not have');
    }
    const xsd = await xsdCheck(d.file, { all: true });
    if (!refereeSkipped(t, xsd) && !xsd.ok) {
      // a template part that is invalid already (a chart with an element out of order) stays so in the copy
      const template = await xsdCheck(corpusPath(d.name), { all: true });
      const known = xsdComplaints(template.output);
      const fresh = [...xsdComplaints(xsd.output)].filter((c) => !known.has(c));
      t.ok(!template.ok, 'the XSD check fails only where the template fails too');
      t.same(fresh.slice(0, 10), [], 'ooxml-xsd-check --all: no complaint the template does not have');
      t.ok(xsdComplaints(xsd.output).size > 0, 'the failure is an xmllint complaint, not an unreadable deck');
    } else if (!xsd.skipped) t.ok(xsd.ok, 'ooxml-xsd-check --all: every part validates');
  });
}

const skip = await renderingSkipReason();
if (!skip) await convertDecksToPdf(built.filter((b) => existsSync(b.file)).map((b) => b.file), scratch, { batch: BATCH });

for (const b of built) {
  t.test(`${b.name}: international slides stay in their boxes, read right to left where they should, and preview like LibreOffice`, async (t) => {
    t.same(b.errors, [], 'no slide failed');
    if (skip) return void t.test(`rendering checks: ${skip}`, { skip }, () => {});
    const pdf = b.file.replace(/\.pptx$/, '.pdf');
    t.ok(existsSync(pdf), 'LibreOffice wrote a PDF');
    if (!existsSync(pdf)) return;
    const pkg = await OpcPackage.open(readFileSync(b.file));
    const model = new PmlModel(pkg);
    const slides = model.presentation.slides;
    const pages = await pdfWordBoxes(pdf);
    t.equal(pages.length, b.samples.length, 'one page per slide');
    for (let i = 0; i < Math.min(pages.length, slides.length, b.samples.length); i++) {
      const sample = b.samples[i]!;
      const row = table.get(sample.language)!;
      const page = pages[i]!;
      const ref = slides[i]!;
      row.slides++;
      const source = tokens([sample.title, ...sample.bullets, ...sample.table.flat()].join(' '));
      const ours = new Set(source);
      const boxes = textBoxes(model, ref.partName);
      const outside: string[] = [];
      for (const w of page.words) {
        if (!tokens(logical(w.text)).some((x) => ours.has(x))) continue;
        row.words++;
        const tol = tolerance(w);
        const inside = boxes.some((bx) => w.x0 >= bx.x0 - tol && w.x1 <= bx.x1 + tol && w.y0 >= bx.y0 - tol && w.y1 <= bx.y1 + tol);
        if (inside) continue;
        if (b.reported.has(i)) row.reportedWords++;
        else {
          row.outside++;
          outside.push(`"${w.text}" at (${w.x0.toFixed(0)}, ${w.y0.toFixed(0)})–(${w.x1.toFixed(0)}, ${w.y1.toFixed(0)})`);
        }
      }
      t.same(outside.slice(0, 10), [], `${sample.language}: no word outside its box (${outside.length})`);
      if (hasRightToLeft(sample.bullets.join(''))) {
        const order = rtlOrder(page.words, [sample.title, ...sample.bullets, ...sample.table.flat()].map(tokens), sample.table.flat().map(tokens));
        row.rtlLines += order.lines;
        row.rtlOk += order.ok;
        t.same(order.bad.slice(0, 5), [], `${sample.language}: right-to-left lines read right to left (${order.ok}/${order.lines})`);
      }
      const widthPx = COMPARE_WIDTH_PX * 2;
      const preview = await renderSlide(pkg, ref.partName, { widthPx });
      const heightPx = Math.round((widthPx * page.height) / page.width);
      const lo = rasterizePage(pdf, i + 1, widthPx, heightPx);
      const score = ssim(await grayFromPng(preview.png, COMPARE_WIDTH_PX), await grayFromPng(lo, COMPARE_WIDTH_PX));
      row.ssims.push(score);
      // (The quarter em LibreOffice puts between East Asian and other text, which PowerPoint
      // does not, previews draw as LibreOffice does; fitting measures it.)
      const departs = LIBREOFFICE_DEPARTS.find(([name]) => b.name.includes(name));
      if (departs && score < MIN_SSIM) t.ok(score >= DEPARTED_MIN_SSIM, `${sample.language}: preview vs LibreOffice SSIM ${score.toFixed(3)} ≥ ${DEPARTED_MIN_SSIM} (LibreOffice departs from the file: ${departs[1]})`);
      else t.ok(score >= MIN_SSIM, `${sample.language}: preview vs LibreOffice SSIM ${score.toFixed(3)} ≥ ${MIN_SSIM}`);
    }
  });
}

t.test('per language, the previews are like LibreOffice\'s pages on average (mean SSIM ≥ 0.85)', async (t) => {
  if (skip) return void t.test(`rendering checks: ${skip}`, { skip }, () => {});
  // a selection of templates is no corpus: its mean says nothing of the whole
  if (only?.length) return void t.test('means over the whole corpus only', { skip: 'SLIDEWRIGHT_INTL_ONLY selects templates' }, () => {});
  for (const [language, r] of table) {
    if (!r.ssims.length) continue;
    const mean = r.ssims.reduce((a, x) => a + x, 0) / r.ssims.length;
    t.ok(mean >= MIN_SSIM, `${language}: mean SSIM ${mean.toFixed(3)} over ${r.ssims.length} slides ≥ ${MIN_SSIM}`);
  }
});

t.teardown(() => {
  const lines = ['language | slides | words | words outside (unreported) | words past their box on reported slides | RTL lines in order | SSIM mean (min)', '---|---|---|---|---|---|---'];
  for (const [language, r] of table) {
    const mean = r.ssims.length ? r.ssims.reduce((a, b) => a + b, 0) / r.ssims.length : NaN;
    const min = r.ssims.length ? Math.min(...r.ssims) : NaN;
    lines.push(`${language} | ${r.slides} | ${r.words} | ${r.outside} | ${r.reportedWords} | ${r.rtlLines ? `${r.rtlOk}/${r.rtlLines}` : '—'} | ${mean.toFixed(3)} (${min.toFixed(3)})`);
  }
  console.error(`international-text:\n${lines.join('\n')}`);
});
