import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import type { GenerationOptions, Table } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, children, descendants, intAttr, path, type Element } from '../../../core/src/ooxml/xml.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { convertToPdf, lintPptx, newFindings, pdfPageCount, pdfPages, refereeSkipped, renderingSkipReason, xsdCheck, type LintFinding } from '../../helpers/referee.js';

const PANDOC = 'pandoc-footer-reference.pptx';
const POI = 'poi-layouts-showcase.pptx';
const PPTX_PH = 'python-pptx-populated-placeholders.pptx';
const ONLYOFFICE = 'onlyoffice-sample-en.pptx';
const JSON2PPTX = 'json2pptx-modern-template.pptx';
const JAPANESE = 'poi-japanese-table.pptx';

const bytesCache = new Map<string, Uint8Array>();
function templateBytes(name: string): Uint8Array {
  let b = bytesCache.get(name);
  if (!b) {
    b = readFileSync(corpusPath(`templates/${name}`));
    bytesCache.set(name, b);
  }
  return b;
}
function templates(...names: string[]): Map<string, Uint8Array> {
  return new Map(names.map((n) => [n, templateBytes(n)]));
}

/** tap options of a test that reads these corpus templates (skipped without them). */
function needsTemplates(...names: string[]): { skip: string | false } {
  return needsCorpus(...names.map((n) => `templates/${n}`));
}

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-gen-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

function slide(template: string, kind: 'slide' | 'layout', n: number, data: DeckSlideSpec['slide_data'], options: GenerationOptions = {}): DeckSlideSpec {
  const part = kind === 'slide' ? `/ppt/slides/slide${n}.xml` : `/ppt/slideLayouts/slideLayout${n}.xml`;
  return { template_id: template, template_slide_id: `${template}#${kind}${n}`, source: { kind, part_name: part }, slide_data: data, options };
}

const salesTable: Table = {
  rows: [
    { is_header: true, cells: [{ value: 'Region' }, { value: 'Q1' }, { value: 'Q2' }] },
    { cells: [{ value: 'North' }, { value: '10' }, { value: '12' }] },
    { cells: [{ value: 'South & <East>' }, { value: '7' }, { value: '9' }] },
  ],
};
const bullets = (...b: string[]) => ({ type: 'text' as const, text: { bullets: b } });
const tableBlock = (table: Table) => ({ type: 'table' as const, table: { table } });

async function openDeck(bytes: Uint8Array | undefined): Promise<OpcPackage> {
  if (!bytes) throw new Error('no deck bytes');
  return OpcPackage.open(bytes);
}

function slideParts(pkg: OpcPackage): string[] {
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  const doc = pkg.getXml(pres);
  return descendants(doc, NS.p, 'sldId').map((s) => pkg.rel(pres, s.getAttributeNS(NS.r, 'id')!)!.targetPartName!);
}

function slideText(pkg: OpcPackage, part: string): string {
  return descendants(pkg.getXml(part), NS.a, 't')
    .map((e) => e.textContent ?? '')
    .join(' ');
}

/** The mixed deck: slides and layouts of five corpus templates, with titles, bullets, a table, columns, footers and slide numbers. */
const deckOptions: GenerationOptions = { footer_text: 'Slidewright footer', show_slide_numbers: true };
const mixedSlides: DeckSlideSpec[] = [
  slide(PANDOC, 'slide', 1, { title: 'Opening', subtitle: 'Generated subtitle' }, deckOptions),
  slide(PANDOC, 'layout', 2, { title: 'Bullets from a layout', content: [{ blocks: [bullets('First bullet', 'Second bullet', 'Ampersand & <angle> bullet')] }] }, deckOptions),
  slide(POI, 'layout', 5, { title: 'Comparison columns', content: [{ header: 'Left header', blocks: [bullets('Left one', 'Left two')] }, { header: 'Right header', blocks: [tableBlock(salesTable)] }] }, { footer_text: 'Per-slide footer', show_slide_numbers: true, footer_font_size: 10, footer_font_name: 'Arial' }),
  slide(PPTX_PH, 'slide', 3, { content: [{ blocks: [tableBlock(salesTable)] }] }, deckOptions),
  slide(ONLYOFFICE, 'layout', 2, { title: 'Onlyoffice table', content: [{ blocks: [tableBlock(salesTable)] }] }, deckOptions),
  slide(JSON2PPTX, 'layout', 4, { title: 'Modern bullets', content: [{ blocks: [bullets('Alpha point', 'Beta point')] }] }, deckOptions),
  slide(POI, 'slide', 2, { title: 'Template slide refilled', content: [{ blocks: [bullets('Refilled one', 'Refilled two')] }] }, deckOptions),
  slide(POI, 'slide', 10, { title: 'Template text kept' }, {}),
];
/** Text each page must show (pdftotext), in slide order. */
const expectedText: string[][] = [
  ['Opening', 'Generated subtitle', 'Slidewright footer'],
  ['Bullets from a layout', 'First bullet', 'Ampersand & <angle> bullet', 'Slidewright footer'],
  ['Comparison columns', 'Left header', 'Right header', 'Left one', 'Region', 'North', 'Per-slide footer'],
  ['Region', 'North'],
  ['Onlyoffice table', 'Region', 'South & <East>', 'Slidewright footer'],
  ['Modern bullets', 'Alpha point', 'Slidewright footer'],
  ['Template slide refilled', 'Refilled one', 'Slidewright footer'],
  ['Template text kept', 'This slide has the following stuff'],
];

t.test('a deck mixing slides and layouts of five templates passes lint and XSD and renders one page per slide with the requested text', needsTemplates(PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX), async (t) => {
  const result = await buildDeck({ slides: mixedSlides, templates: templates(PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX) });
  t.same(result.errors, [], 'no slide failed');
  t.equal(result.pages_generated, mixedSlides.length);
  const file = join(scratch, 'mixed.pptx');
  writeFileSync(file, result.bytes!);

  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) {
    const before: LintFinding[] = [];
    for (const name of [PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX]) before.push(...(await lintPptx(corpusPath(`templates/${name}`))).errors);
    t.same(newFindings(lint.errors, before), [], 'ooxml-lint finds nothing the source templates did not already have');
  }
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, `XSD check passes:\n${xsd.output.split('\n').filter((l) => !/validates$/.test(l)).join('\n')}`);

  if (refereeSkipped(t, { skipped: await renderingSkipReason() })) return;
  const pdf = await convertToPdf(file, scratch);
  t.equal(await pdfPageCount(pdf), mixedSlides.length, 'one PDF page per slide');
  // words, case-insensitively: a title may wrap or be set in capitals by its style
  const pages = (await pdfPages(pdf)).map((p) => p.toLowerCase());
  expectedText.forEach((want, i) => {
    for (const w of want) t.ok(w.toLowerCase().split(/\s+/).every((word) => pages[i]?.includes(word)), `page ${i + 1} shows "${w}"`);
  });
});

t.test('templates reused from earlier builds give the same file, byte for byte, as templates opened afresh', needsTemplates(PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX), async (t) => {
  // a build must never change an opened template: the second and third builds reuse what
  // the first opened (same bytes under other ids too), and every file must be identical
  const names = [PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX];
  const fresh = await buildDeck({ slides: mixedSlides, templates: templates(...names), reuseOpenedTemplates: false });
  const first = await buildDeck({ slides: mixedSlides, templates: templates(...names) });
  const second = await buildDeck({ slides: mixedSlides, templates: templates(...names) });
  // the same bytes under other ids (and in fresh arrays, as a service reads them from storage)
  const renamed = mixedSlides.map((s) => ({ ...s, template_id: `copy-of-${s.template_id}` }));
  const third = await buildDeck({ slides: renamed, templates: new Map(names.map((n) => [`copy-of-${n}`, Uint8Array.from(templateBytes(n))])) });
  const sha = (b: Uint8Array | undefined): string => createHash('sha256').update(b ?? new Uint8Array()).digest('hex');
  t.same(fresh.errors, []);
  t.equal(sha(first.bytes), sha(fresh.bytes), 'first build (templates opened and kept) equals a build without reuse');
  t.equal(sha(second.bytes), sha(fresh.bytes), 'a build reusing the opened templates writes the same file');
  t.equal(sha(third.bytes), sha(fresh.bytes), 'the same bytes under other template ids are reused and give the same file');
  t.same(second.warnings, fresh.warnings, 'same warnings');
});

t.test("docProps/app.xml counts the deck's slides and lists none of the template's slide titles", needsTemplates(POI), async (t) => {
  // poi-layouts-showcase's app.xml says 10 slides, 1 note and lists its slide titles
  const specs = [1, 2, 3].map((n) => slide(POI, 'slide', n, { title: `Generated ${n}` }));
  const result = await buildDeck({ slides: specs, templates: templates(POI) });
  t.same(result.errors, []);
  const pkg = await openDeck(result.bytes);
  const appPart = pkg.relatedPartName('/', RT.extendedProperties);
  t.ok(appPart, 'the deck has extended properties');
  const root = pkg.getXml(appPart!).documentElement!;
  const text = (local: string): string | undefined => children(root).find((e) => e.localName === local)?.textContent ?? undefined;
  t.equal(text('Slides'), '3', 'Slides counts the generated slides');
  t.equal(text('Notes'), '0');
  t.equal(text('HiddenSlides'), '0');
  t.notOk(children(root).some((e) => e.localName === 'TitlesOfParts' || e.localName === 'HeadingPairs'), "the template's titles of parts are gone");
  t.equal(text('Application'), 'Microsoft Office PowerPoint', 'the rest is kept');
});

t.test('slides keep their own layout, master and theme; the presentation ids are unique and in range', needsTemplates(PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX), async (t) => {
  const result = await buildDeck({ slides: mixedSlides, templates: templates(PANDOC, POI, PPTX_PH, ONLYOFFICE, JSON2PPTX) });
  const pkg = await openDeck(result.bytes);
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  t.equal(pkg.contentType(pres), CT.presentationMain);
  const presDoc = pkg.getXml(pres);
  const sldIds = descendants(presDoc, NS.p, 'sldId').map((e) => intAttr(e, 'id', 0));
  t.ok(sldIds.every((id) => id >= 256 && id < 2 ** 31), 'slide ids in [256, 2^31)');
  t.equal(new Set(sldIds).size, sldIds.length, 'slide ids unique');
  const masterIds = descendants(presDoc, NS.p, 'sldMasterId').map((e) => intAttr(e, 'id', 0));
  const layoutIds: number[] = [];
  for (const m of pkg.partsOfType(CT.slideMaster)) layoutIds.push(...descendants(pkg.getXml(m), NS.p, 'sldLayoutId').map((e) => intAttr(e, 'id', 0)));
  const all = [...masterIds, ...layoutIds];
  t.ok(all.every((id) => id >= 2 ** 31), 'master and layout ids ≥ 2^31');
  t.equal(new Set(all).size, all.length, 'master and layout ids unique across the package');
  t.equal(masterIds.length, 5, 'one master per template (each template has one master used here)');
  t.equal(pkg.partsOfType(CT.slideMaster).length, 5);

  // each slide's layout and master come from its own template (names from the templates)
  const layoutName = (slidePart: string): string => {
    const layout = pkg.relatedPartName(slidePart, RT.slideLayout)!;
    return attr(path(pkg.getXml(layout), [NS.p, 'sldLayout'], [NS.p, 'cSld']), 'name') ?? '';
  };
  const slides = slideParts(pkg);
  t.equal(layoutName(slides[2]!), 'Comparison');
  t.equal(layoutName(slides[5]!), 'One Content');
  const themeOf = (slidePart: string) => pkg.relatedPartName(pkg.relatedPartName(pkg.relatedPartName(slidePart, RT.slideLayout)!, RT.slideMaster)!, RT.theme);
  t.not(themeOf(slides[0]!), themeOf(slides[4]!), 'pandoc and onlyoffice slides use different themes');
  for (const p of pkg.partNames()) {
    t.notMatch(p, /comment|_xmlsignatures|vbaProject/i, `${p} is not comments, signature or macro`);
  }
  // POI slide 10 (the last) is the only source slide with notes: its notes slide is kept (issue 24)
  const notesOf = slides.map((s) => pkg.relatedPartName(s, RT.notesSlide));
  t.same(notesOf.map((n) => n !== undefined), [false, false, false, false, false, false, false, true], 'only the template slide with notes has a notes slide');
  t.equal(pkg.partsOfType(CT.notesMaster).length, 1, 'one notes master');
});

t.test('layouts, masters, themes and media shared by several slides are stored once', needsTemplates(PANDOC, POI), async (t) => {
  // two slides on one pandoc layout, two POI template slides on one layout, and the same
  // POI template under a second id (identical content: stored once by hash)
  const tpl = templates(PANDOC, POI);
  tpl.set('poi-copy', templateBytes(POI));
  const result = await buildDeck({
    slides: [
      slide(PANDOC, 'layout', 2, { title: 'A', content: [{ blocks: [bullets('a')] }] }),
      slide(PANDOC, 'layout', 2, { title: 'B', content: [{ blocks: [bullets('b')] }] }),
      slide(POI, 'slide', 2, { title: 'C' }),
      slide(POI, 'slide', 10, { title: 'D' }),
      { ...slide(POI, 'slide', 9, { title: 'E' }), template_id: 'poi-copy' },
      slide(POI, 'slide', 9, { title: 'F' }),
    ],
    templates: tpl,
  });
  t.same(result.errors, []);
  const pkg = await openDeck(result.bytes);
  t.equal(pkg.partsOfType(CT.slide).length, 6);
  t.equal(pkg.partsOfType(CT.slideLayout).length, 3, 'pandoc layout 2, POI layouts 2 and 9');
  t.equal(pkg.partsOfType(CT.slideMaster).length, 2, 'one master per distinct template content');
  const masterThemes = new Set(pkg.partsOfType(CT.slideMaster).map((m) => pkg.relatedPartName(m, RT.theme)));
  t.equal(masterThemes.size, 2, 'one theme per distinct master');
  // POI slide 10 keeps its notes (issue 24): the notes master brings a theme of its own
  t.equal(pkg.partsOfType(CT.theme).length, 3, "the masters' two themes and the notes master's own");
  const media = pkg.partNames().filter((n) => n.startsWith('/ppt/media/'));
  const poiSlide9Media = (await OpcPackage.open(templateBytes(POI))).rels('/ppt/slides/slide9.xml').filter((r) => r.type === RT.image).length;
  t.ok(poiSlide9Media >= 1, 'POI slide 9 has a picture');
  // the picture of slide 9 (used twice, from two template ids) and the master's picture are each stored once
  const distinct = new Set(media.map((m) => Buffer.from(pkg.getBytes(m)).toString('base64')));
  t.equal(distinct.size, media.length, 'no two media parts hold the same bytes');
  const lint = await lintPptx(writeTemp('shared.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'lint clean');
});

function writeTemp(name: string, bytes: Uint8Array): string {
  const file = join(scratch, name);
  writeFileSync(file, bytes);
  return file;
}

t.test('per-slide options replace deck options: footer, slide number and footer font only where asked', needsTemplates(PANDOC), async (t) => {
  const result = await buildDeck({
    slides: [
      slide(PANDOC, 'layout', 2, { title: 'With footer', content: [{ blocks: [bullets('x')] }] }, { footer_text: 'Deck footer', show_slide_numbers: true, footer_font_size: 9, footer_font_name: 'Arial' }),
      slide(PANDOC, 'layout', 2, { title: 'Without', content: [{ blocks: [bullets('y')] }] }, {}),
    ],
    templates: templates(PANDOC),
  });
  const pkg = await openDeck(result.bytes);
  const [s1, s2] = slideParts(pkg);
  const phTypes = (part: string) => descendants(pkg.getXml(part), NS.p, 'ph').map((ph) => attr(ph, 'type') ?? 'obj');
  t.ok(phTypes(s1!).includes('ftr') && phTypes(s1!).includes('sldNum'), 'slide 1 has footer and slide number');
  t.notOk(phTypes(s2!).includes('ftr') || phTypes(s2!).includes('sldNum'), 'slide 2 has neither');
  t.ok(phTypes(s1!).includes('dt'), 'the footer brings the date placeholder');
  const dateFld = descendants(pkg.getXml(s1!), NS.a, 'fld').find((f) => attr(f, 'type') === 'datetime1');
  t.match(dateFld?.textContent ?? '', /^\d{1,2}\/\d{1,2}\/\d{4}$/, 'a date field showing today');
  t.notOk(phTypes(s2!).includes('dt'), 'no date without a footer');
  const fld = descendants(pkg.getXml(s1!), NS.a, 'fld').find((f) => attr(f, 'type') === 'slidenum');
  t.equal(attr(fld, 'type'), 'slidenum', 'native slide-number field');
  t.equal(fld?.textContent, '1');
  const ftrRun = descendants(pkg.getXml(s1!), NS.a, 'r').find((r) => r.textContent === 'Deck footer');
  const rPr = ftrRun ? children(ftrRun, NS.a, 'rPr')[0] : undefined;
  t.equal(attr(rPr, 'sz'), '900', 'footer size 9 pt');
  t.equal(attr(rPr ? children(rPr, NS.a, 'latin')[0] : undefined, 'typeface'), 'Arial');
  t.notMatch(slideText(pkg, s2!), /Deck footer/);
});

t.test('a new slide from a layout keeps only the placeholders it fills', needsTemplates(POI), async (t) => {
  const result = await buildDeck({ slides: [slide(POI, 'layout', 4, { title: 'Only a title' })], templates: templates(POI) });
  const pkg = await openDeck(result.bytes);
  const [s] = slideParts(pkg);
  const phs = descendants(pkg.getXml(s!), NS.p, 'ph');
  t.equal(phs.length, 1);
  t.equal(attr(phs[0], 'type'), 'title');
  t.equal(descendants(pkg.getXml(s!), NS.p, 'spPr')[0]?.firstChild, null, 'geometry inherited: empty spPr');
});

t.test('bullets become one paragraph each, escaped, with the placeholder formatting kept', needsTemplates(POI), async (t) => {
  const result = await buildDeck({ slides: [slide(POI, 'slide', 2, { content: [{ blocks: [bullets('one', 'two & <three>', 'line\nbreak')] }] })], templates: templates(POI) });
  const pkg = await openDeck(result.bytes);
  const [s] = slideParts(pkg);
  const body = descendants(pkg.getXml(s!), NS.p, 'sp').find((sp) => attr(descendants(sp, NS.p, 'ph')[0], 'idx') === '1')!;
  const paras = descendants(body, NS.a, 'p');
  t.equal(paras.length, 3);
  t.equal(paras[1]!.textContent, 'two & <three>');
  t.equal(descendants(paras[2]!, NS.a, 'br').length, 1, 'a newline is a line break');
  const raw = new TextDecoder().decode(pkg.getBytes(s!));
  t.match(raw, /two &amp; &lt;three>|two &amp; &lt;three&gt;/);
  t.notMatch(slideText(pkg, s!), /Click to|This slide has/, 'template body text replaced');
});

/** `a:off`/`a:ext` of the first `p:sp` of a part whose placeholder matches. */
function placeholderRect(pkg: OpcPackage, part: string, match: (ph: Element) => boolean): { x: number; y: number; cx: number } {
  const sp = descendants(pkg.getXml(part), NS.p, 'sp').find((e) => {
    const ph = descendants(e, NS.p, 'ph')[0];
    return ph !== undefined && match(ph);
  })!;
  const off = path(sp, [NS.p, 'spPr'], [NS.a, 'xfrm'], [NS.a, 'off']);
  const ext = path(sp, [NS.p, 'spPr'], [NS.a, 'xfrm'], [NS.a, 'ext']);
  return { x: intAttr(off, 'x', -1), y: intAttr(off, 'y', -1), cx: intAttr(ext, 'cx', -1) };
}

async function tableFrameOf(template: string, layout: number): Promise<Element> {
  const result = await buildDeck({ slides: [slide(template, 'layout', layout, { title: 'T', content: [{ blocks: [tableBlock(salesTable)] }] })], templates: templates(template) });
  const pkg = await openDeck(result.bytes);
  const [s] = slideParts(pkg);
  return descendants(pkg.getXml(s!), NS.p, 'graphicFrame')[0]!;
}

function frameRect(frame: Element): { x: number; y: number; cx: number } {
  const off = path(frame, [NS.p, 'xfrm'], [NS.a, 'off']);
  const ext = path(frame, [NS.p, 'xfrm'], [NS.a, 'ext']);
  return { x: intAttr(off, 'x', -1), y: intAttr(off, 'y', -1), cx: intAttr(ext, 'cx', -1) };
}

t.test('a table block becomes a real table at the placeholder geometry', needsTemplates(JSON2PPTX), async (t) => {
  const frame = await tableFrameOf(JSON2PPTX, 4);
  t.equal(attr(path(frame, [NS.a, 'graphic'], [NS.a, 'graphicData']), 'uri'), 'http://schemas.openxmlformats.org/drawingml/2006/table');
  const tbl = descendants(frame, NS.a, 'tbl')[0]!;
  t.equal(attr(children(tbl, NS.a, 'tblPr')[0], 'firstRow'), '1', 'header row styled as header');
  t.ok(children(tbl, NS.a, 'tblPr')[0] && descendants(tbl, NS.a, 'tableStyleId').length === 1, 'a table style is named');
  const cols = descendants(tbl, NS.a, 'gridCol').map((g) => intAttr(g, 'w', 0));
  t.equal(cols.length, 3);
  t.equal(children(tbl, NS.a, 'tr').length, 3);
  t.ok(children(tbl, NS.a, 'tr').every((tr) => intAttr(tr, 'h', 0) > 0), 'rows have heights');
  const src = await OpcPackage.open(templateBytes(JSON2PPTX));
  const want = placeholderRect(src, '/ppt/slideLayouts/slideLayout4.xml', (ph) => attr(ph, 'idx') === '1');
  t.same(frameRect(frame), want, 'placed at the layout placeholder');
  t.equal(cols.reduce((a, b) => a + b, 0), want.cx, 'column widths split the placeholder width');
  t.equal(descendants(frame, NS.p, 'ph').length, 0, 'a text-only (body) placeholder is replaced, not linked');
});

t.test('placeholder geometry missing on the layout is resolved through the master', needsTemplates(PANDOC), async (t) => {
  const frame = await tableFrameOf(PANDOC, 2);
  const src = await OpcPackage.open(templateBytes(PANDOC));
  t.same(placeholderRect(src, '/ppt/slideLayouts/slideLayout2.xml', (ph) => attr(ph, 'idx') === '1'), { x: -1, y: -1, cx: -1 }, 'the layout placeholder has no xfrm');
  t.same(frameRect(frame), placeholderRect(src, '/ppt/slideMasters/slideMaster1.xml', (ph) => attr(ph, 'type') === 'body'));
  t.equal(attr(descendants(frame, NS.p, 'ph')[0], 'idx'), '1', 'the frame stays linked to the content (obj) placeholder');
});

t.test('a template slide with a table gets its content replaced, keeping its style; the footnote box is filled', needsTemplates(JAPANESE), async (t) => {
  const src = await OpcPackage.open(templateBytes(JAPANESE));
  const styleBefore = descendants(src.getXml('/ppt/slides/slide1.xml'), NS.a, 'tableStyleId')[0]?.textContent;
  const result = await buildDeck({
    slides: [slide(JAPANESE, 'slide', 1, { footnote: 'Source: Slidewright test', content: [{ blocks: [tableBlock(salesTable)] }] })],
    templates: templates(JAPANESE),
  });
  t.same(result.errors, []);
  const pkg = await openDeck(result.bytes);
  const [s] = slideParts(pkg);
  const doc = pkg.getXml(s!);
  const tbls = descendants(doc, NS.a, 'tbl');
  t.equal(tbls.length, 1, 'no second table added');
  t.equal(descendants(doc, NS.a, 'tableStyleId')[0]?.textContent, styleBefore, 'table style kept');
  t.equal(children(tbls[0]!, NS.a, 'tr').length, 3);
  const text = slideText(pkg, s!);
  t.match(text, /South & <East>/);
  t.match(text, /Source: Slidewright test/);
  t.notMatch(text, /This is a footnote|Row 1 Col 1/, 'the footnote box (the shortest text with the marker) and the table are replaced');
  t.match(text, /Footnote appears here/, 'prose that merely mentions a footnote is kept');
  const lint = await lintPptx(writeTemp('japanese.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, []);
});

t.test('charts come with their embedded workbook; comments are dropped without dangling ids, notes kept', needsTemplates(PPTX_PH, 'poi-comments-11slides.pptx', 'poi-signed-hello-world.pptx'), async (t) => {
  const result = await buildDeck({
    slides: [slide(PPTX_PH, 'slide', 4, {}), slide('poi-comments-11slides.pptx', 'slide', 1, { title: 'Commented slide' }), slide('poi-signed-hello-world.pptx', 'slide', 1, { title: 'Signed source' })],
    templates: templates(PPTX_PH, 'poi-comments-11slides.pptx', 'poi-signed-hello-world.pptx'),
  });
  t.same(result.errors, []);
  const pkg = await openDeck(result.bytes);
  const charts = pkg.partsOfType(CT.chart);
  t.equal(charts.length, 1);
  const wb = pkg.rels(charts[0]!).find((r) => r.type === RT.package);
  t.ok(wb && pkg.hasPart(wb.targetPartName!), 'chart keeps its embedded workbook');
  t.equal(pkg.partNames().filter((p) => /comment|_xmlsignatures|origin\.sigs/i.test(p)).length, 0);
  t.equal(pkg.partsOfType(CT.notesSlide).length, 1, 'the commented slide keeps its notes slide (issue 24)');
  const lint = await lintPptx(writeTemp('closure.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'every rId resolves, content types complete');
});

t.test('a bad source yields an entry in errors and the other slides are still produced', needsTemplates(PANDOC), async (t) => {
  const result = await buildDeck({
    slides: [
      slide(PANDOC, 'layout', 2, { title: 'Good one' }),
      slide(PANDOC, 'slide', 99, { title: 'Missing part' }),
      slide(PANDOC, 'slide', 1, { title: 'Good two' }),
      { ...slide(PANDOC, 'slide', 1, { title: 'A layout given as a slide' }), source: { kind: 'slide', part_name: '/ppt/slideLayouts/slideLayout1.xml' } },
      slide('no-such-template', 'slide', 1, { title: 'Unknown template' }),
      { ...slide(PANDOC, 'slide', 1, {}), template_id: 'corrupt' },
    ],
    templates: new Map([...templates(PANDOC), ['corrupt', new TextEncoder().encode('PK not really a zip')]]),
  });
  t.equal(result.pages_generated, 2);
  t.same(
    result.errors.map((e) => [e.slide_index, e.code]),
    [
      [1, 'source_not_found'],
      [3, 'source_wrong_type'],
      [4, 'template_not_found'],
      [5, 'template_unreadable'],
    ],
  );
  t.equal(result.errors[0]!.template_slide_id, `${PANDOC}#slide99`);
  const pkg = await openDeck(result.bytes);
  const slides = slideParts(pkg);
  t.equal(slides.length, 2);
  t.match(slideText(pkg, slides[0]!), /Good one/);
  t.match(slideText(pkg, slides[1]!), /Good two/);
  const lint = await lintPptx(writeTemp('partial.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'no part of a failed slide is left behind');
});

t.test('when every slide fails there are no bytes', needsTemplates(PANDOC), async (t) => {
  const result = await buildDeck({ slides: [slide(PANDOC, 'slide', 42, {})], templates: templates(PANDOC) });
  t.equal(result.bytes, undefined);
  t.equal(result.pages_generated, 0);
  t.equal(result.errors.length, 1);
});

t.test('a .potx template becomes a presentation; progress reaches 1', needsTemplates('poi-bug59273-template.potx'), async (t) => {
  const progress: number[] = [];
  const result = await buildDeck({ slides: [slide('poi-bug59273-template.potx', 'layout', 1, { title: 'From a template file', subtitle: 'potx' })], templates: templates('poi-bug59273-template.potx') }, (f) => progress.push(f));
  t.same(result.errors, []);
  const pkg = await openDeck(result.bytes);
  t.equal(pkg.contentType(pkg.relatedPartName('/', RT.officeDocument)!), CT.presentationMain);
  t.equal(progress[progress.length - 1], 1);
  t.ok(progress.every((p, i) => i === 0 || p >= progress[i - 1]!), 'progress never goes back');
  const lint = await lintPptx(writeTemp('potx.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, []);
});

/** The `p:sp`/`p:graphicFrame` of a slide whose placeholder idx is `idx`. */
function shapeWithIdx(pkg: OpcPackage, part: string, idx: string): Element | undefined {
  const tree = path(pkg.getXml(part), [NS.p, 'sld'], [NS.p, 'cSld'], [NS.p, 'spTree'])!;
  return children(tree).find((s) => attr(descendants(s, NS.p, 'ph')[0], 'idx') === idx);
}

t.test('columns fill a two-content layout left to right, and a comparison layout with its column headers', needsTemplates(POI), async (t) => {
  const result = await buildDeck({
    slides: [
      slide(POI, 'layout', 4, { title: 'Two content', content: [{ blocks: [bullets('left text')] }, { blocks: [bullets('right text')] }] }),
      slide(POI, 'layout', 5, { title: 'Comparison', content: [{ header: 'Left head', blocks: [bullets('left body')] }, { header: 'Right head', blocks: [tableBlock(salesTable)] }] }),
    ],
    templates: templates(POI),
  });
  t.same(result.errors, []);
  t.same(result.warnings.filter((w) => w.code === 'content_not_placed'), [], 'nothing left unplaced');
  const pkg = await openDeck(result.bytes);
  const [two, cmp] = slideParts(pkg);
  // POI "Two Content": idx 1 is the left half, idx 2 the right half
  t.equal(plainTextOf(shapeWithIdx(pkg, two!, '1')), 'left text');
  t.equal(plainTextOf(shapeWithIdx(pkg, two!, '2')), 'right text');
  // POI "Comparison": body 1 heads obj 2 (left), body 3 heads obj 4 (right)
  t.equal(plainTextOf(shapeWithIdx(pkg, cmp!, '1')), 'Left head');
  t.equal(plainTextOf(shapeWithIdx(pkg, cmp!, '2')), 'left body');
  t.equal(plainTextOf(shapeWithIdx(pkg, cmp!, '3')), 'Right head');
  t.equal(shapeWithIdx(pkg, cmp!, '4')?.localName, 'graphicFrame', 'the right column table replaces obj 4');
});

function plainTextOf(el: Element | undefined): string {
  return el ? descendants(el, NS.a, 't').map((e) => e.textContent ?? '').join('') : '';
}

t.test('external hyperlinks and pictures of a template slide are kept', needsTemplates(ONLYOFFICE), async (t) => {
  const result = await buildDeck({ slides: [slide(ONLYOFFICE, 'slide', 8, { title: 'Links kept' })], templates: templates(ONLYOFFICE) });
  t.same(result.errors, []);
  const pkg = await openDeck(result.bytes);
  const [s] = slideParts(pkg);
  const link = pkg.rels(s!).find((r) => r.type === RT.hyperlink);
  t.equal(link?.target, 'http://www.onlyoffice.com/');
  t.ok(link?.external);
  const ids = descendants(pkg.getXml(s!), NS.a, 'hlinkClick').map((h) => h.getAttributeNS(NS.r, 'id'));
  t.ok(ids.includes(link!.id), 'the run still points at it');
  t.ok(pkg.rels(s!).some((r) => r.type === RT.notesSlide), "the template slide's notes slide is kept (issue 24)");
});

t.test('header without a header placeholder and unplaceable content give warnings, not errors', needsTemplates(POI), async (t) => {
  const result = await buildDeck({ slides: [slide(POI, 'layout', 6, { title: 'Title only', header: 'Head', footnote: 'Note', content: [{ blocks: [bullets('nowhere')] }] })], templates: templates(POI) });
  t.same(result.errors, []);
  t.equal(result.pages_generated, 1);
  t.ok(result.warnings.some((w) => /header/.test(w.message)));
  t.ok(result.warnings.some((w) => /footnote/.test(w.message)));
  t.ok(result.warnings.some((w) => /content placeholder/.test(w.message)));
  t.ok(result.warnings.every((w) => w.slide_index === 0 && w.template_slide_id === `${POI}#layout6` && w.code === 'content_not_placed'), 'warnings name the slide');
});

t.test('a slide whose XML is not well-formed fails alone with source_corrupt', needsTemplates(POI), async (t) => {
  const pkg = await OpcPackage.open(templateBytes(POI));
  pkg.setBytes('/ppt/slides/slide3.xml', new TextEncoder().encode('<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld>'));
  const broken = await pkg.toBytes();
  const result = await buildDeck({
    slides: [
      { ...slide(POI, 'slide', 3, { title: 'broken' }), template_id: 'broken' },
      { ...slide(POI, 'slide', 2, { title: 'fine' }), template_id: 'broken' },
    ],
    templates: new Map([['broken', broken]]),
  });
  t.same(
    result.errors.map((e) => e.code),
    ['source_corrupt'],
  );
  t.equal(result.pages_generated, 1);
  const lint = await lintPptx(writeTemp('corrupt-source.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, []);
});

t.test('identical media of two different templates (the English and Russian samples) are stored once', needsTemplates(ONLYOFFICE, 'onlyoffice-sample-ru.pptx'), async (t) => {
  const RU = 'onlyoffice-sample-ru.pptx';
  const en = [slide(ONLYOFFICE, 'slide', 1, { title: 'en 1' }), slide(ONLYOFFICE, 'slide', 2, { title: 'en 2' })];
  const ru = [slide(RU, 'slide', 1, { title: 'ru 1' }), slide(RU, 'slide', 2, { title: 'ru 2' })];
  const both = await buildDeck({ slides: [en[0]!, ru[0]!, en[1]!, ru[1]!], templates: templates(ONLYOFFICE, RU) });
  t.same(both.errors, []);
  const mediaHashes = async (bytes: Uint8Array | undefined) => {
    const pkg = await openDeck(bytes);
    return pkg.partNames().filter((n) => n.startsWith('/ppt/media/')).map((n) => createHash('sha1').update(pkg.getBytes(n)).digest('hex'));
  };
  const all = await mediaHashes(both.bytes);
  const enOnly = await mediaHashes((await buildDeck({ slides: en, templates: templates(ONLYOFFICE) })).bytes);
  const ruOnly = await mediaHashes((await buildDeck({ slides: ru, templates: templates(RU) })).bytes);
  t.equal(new Set(all).size, all.length, 'no two media parts hold the same bytes');
  t.same(new Set(all), new Set([...enOnly, ...ruOnly]), 'every picture either deck needs is there');
  t.ok(all.length < enOnly.length + ruOnly.length, `the master picture both templates share is stored once (${all.length} < ${enOnly.length} + ${ruOnly.length})`);
});

t.test('a slide whose chart part is corrupt fails alone; the deck stays valid', needsTemplates(PPTX_PH), async (t) => {
  const pkg = await OpcPackage.open(templateBytes(PPTX_PH));
  const chart = pkg.rels('/ppt/slides/slide4.xml').find((r) => r.type === RT.chart)!.targetPartName!;
  pkg.setBytes(chart, new TextEncoder().encode('<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart>'));
  const result = await buildDeck({
    slides: [
      { ...slide(PPTX_PH, 'slide', 4, {}), template_id: 'bad-chart' },
      { ...slide(PPTX_PH, 'slide', 5, { title: 'still here' }), template_id: 'bad-chart' },
    ],
    templates: new Map([['bad-chart', await pkg.toBytes()]]),
  });
  t.same(result.errors.map((e) => [e.slide_index, e.code]), [[0, 'source_corrupt']]);
  t.equal(result.pages_generated, 1);
  const out = await openDeck(result.bytes);
  t.equal(out.partsOfType(CT.chart).length, 0, 'nothing of the failed slide is left');
  const lint = await lintPptx(writeTemp('bad-chart.pptx', result.bytes!));
  if (!refereeSkipped(t, lint)) t.same(lint.errors, []);
});

t.test('table styles the slides use come with them from their template, also into another template\'s deck', needsCorpus('bench/pp_test_slides.pptx', 'bench/SlideWithTables.pptx'), async (t) => {
  const files = new Map([
    ['text', readFileSync(corpusPath('bench/pp_test_slides.pptx'))],
    ['tables', readFileSync(corpusPath('bench/SlideWithTables.pptx'))],
  ]);
  const table: Table = { rows: [{ is_header: true, cells: [{ value: 'A' }, { value: 'B' }] }, { cells: [{ value: '1' }, { value: '2' }] }] };
  const r = await buildDeck({
    slides: [
      { template_id: 'text', template_slide_id: 'text#1', source: { kind: 'slide', part_name: '/ppt/slides/slide1.xml' }, slide_data: { title: 'Text' }, options: {} },
      { template_id: 'tables', template_slide_id: 'tables#3', source: { kind: 'slide', part_name: '/ppt/slides/slide3.xml' }, slide_data: { title: 'Table', content: [{ blocks: [{ type: 'table', table: { table } }] }] }, options: {} },
    ],
    templates: files,
  });
  t.same(r.errors, []);
  const out = await OpcPackage.open(r.bytes!);
  const src = await OpcPackage.open(files.get('tables')!);
  const defined = (pkg: OpcPackage): Set<string> => {
    const part = pkg.relatedPartName(pkg.relatedPartName('/', RT.officeDocument)!, RT.tableStyles);
    return new Set(part ? descendants(pkg.getXml(part), NS.a, 'tblStyle').map((s) => attr(s, 'styleId') ?? '') : []);
  };
  const fromTemplate = defined(src);
  const inDeck = defined(out);
  const used = new Set(out.partsOfType(CT.slide).flatMap((p) => descendants(out.getXml(p), NS.a, 'tableStyleId').map((e) => (e.textContent ?? '').trim())));
  t.ok(used.has('{00A15C55-8517-42AA-B614-E9B94910E393}'), 'the edited table and the untouched ones name their styles');
  for (const id of used) if (fromTemplate.has(id)) t.ok(inDeck.has(id), `${id} is defined in the deck's tableStyles part`);
});
