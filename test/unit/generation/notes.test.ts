/**
 * Speaker notes (issue 24, item 1): `slide_data.notes` gives a generated slide a notes slide
 * (ECMA-376 Part 1, §13.3.5) whose body placeholder holds one paragraph per line; copied
 * template slides keep their notes unless `notes` replaces them (an empty string removes
 * them); the deck has one notes master (§13.3.4) — the template's, copied with a theme of
 * its own, or a minimal one — listed in `p:notesMasterIdLst`. Previews do not draw notes.
 *
 * python-pptx cannot be installed here, so {@link notesLikePythonPptx} reads notes the way
 * python-pptx's `slide.notes_slide.notes_text_frame.text` does: the slide part's notesSlide
 * relationship, then the notes slide's placeholder of type body, its text frame's
 * paragraphs joined by newlines (a line break `a:br` read as a vertical tab).
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import type { SlideData } from '../../../core/src/domain/content.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, attrNS, child, children, descendants, path, type Element } from '../../../core/src/ooxml/xml.js';
import { validateBody } from '../../../core/src/validation/index.js';
import { HOUSE_SLIDE2_NOTES, houseTemplate } from '../../fixtures/house-template.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { convertToPdf, lintPptx, pdfPageCount, refereeSkipped, renderingSkipReason, xsdCheck } from '../../helpers/referee.js';
import { previewsOf } from '../../helpers/strict.js';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-notes-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const HOUSE = 'house';
const HOUSE_NOTES = 'house-with-notes';
const AUTOMIZER = 'templates/automizer-additional-master.pptx';

function fromSlide(template: string, n: number, slide_data: SlideData): DeckSlideSpec {
  return { template_id: template, template_slide_id: `${template}#slide${n}`, source: { kind: 'slide', part_name: `/ppt/slides/slide${n}.xml` }, slide_data, options: {} };
}
function fromLayout(template: string, n: number, slide_data: SlideData): DeckSlideSpec {
  return { template_id: template, template_slide_id: `${template}#layout${n}`, source: { kind: 'layout', part_name: `/ppt/slideLayouts/slideLayout${n}.xml` }, slide_data, options: {} };
}

/** The deck's slide parts in presentation order. */
function slideParts(pkg: OpcPackage): string[] {
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  return descendants(pkg.getXml(pres), NS.p, 'sldId').map((s) => pkg.rel(pres, attrNS(s, NS.r, 'id')!)!.targetPartName!);
}

/** The text of a DrawingML paragraph as python-pptx gives it (`a:br` → `\v`). */
function paragraphText(p: Element): string {
  let s = '';
  for (const c of children(p, NS.a)) {
    if (c.localName === 'r' || c.localName === 'fld') s += descendants(c, NS.a, 't').map((x) => x.textContent ?? '').join('');
    else if (c.localName === 'br') s += '\v';
  }
  return s;
}

/**
 * `slide.notes_slide.notes_text_frame.text` of python-pptx, or undefined where python-pptx's
 * `slide.has_notes_slide` is false: the notesSlide relationship of the slide part, the
 * first placeholder of type body of the notes slide, its paragraphs joined by `\n`.
 */
function notesLikePythonPptx(pkg: OpcPackage, slidePart: string): string | undefined {
  const notesPart = pkg.relatedPartName(slidePart, RT.notesSlide);
  if (!notesPart) return undefined;
  const tree = path(pkg.getXml(notesPart).documentElement!, [NS.p, 'cSld'], [NS.p, 'spTree'])!;
  const body = children(tree, NS.p, 'sp').find((sp) => attr(path(sp, [NS.p, 'nvSpPr'], [NS.p, 'nvPr'], [NS.p, 'ph']), 'type') === 'body');
  if (!body) return '';
  const txBody = child(body, NS.p, 'txBody');
  return txBody ? children(txBody, NS.a, 'p').map(paragraphText).join('\n') : '';
}

/** The notes slide of a slide, its relationships and the deck's notes master, checked both ways; returns the notes master part. */
function checkNotesWiring(t: Test, pkg: OpcPackage, slidePart: string): string {
  const notesPart = pkg.relatedPartName(slidePart, RT.notesSlide)!;
  t.equal(pkg.contentType(notesPart), CT.notesSlide, `${notesPart} has the notes slide content type`);
  t.equal(pkg.getXml(notesPart).documentElement!.localName, 'notes');
  const back = pkg.rels(notesPart).filter((r) => r.type === RT.slide);
  t.same(back.map((r) => r.targetPartName), [slidePart], `${notesPart} points back at ${slidePart}`);
  const masters = pkg.rels(notesPart).filter((r) => r.type === RT.notesMaster);
  t.equal(masters.length, 1, 'one notes master relationship');
  const master = masters[0]!.targetPartName!;
  t.equal(pkg.contentType(master), CT.notesMaster, 'the notes master has its content type');
  const phTypes = descendants(pkg.getXml(notesPart), NS.p, 'ph').map((ph) => attr(ph, 'type'));
  t.ok(phTypes.includes('sldImg') && phTypes.includes('body'), 'slide image and body placeholders');
  return master;
}

/** The deck's notes master: listed once in `p:notesMasterIdLst`, with a theme no slide master uses. */
function checkNotesMaster(t: Test, pkg: OpcPackage, expected: string): void {
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  const root = pkg.getXml(pres).documentElement!;
  const ids = descendants(root, NS.p, 'notesMasterId');
  t.equal(ids.length, 1, 'one p:notesMasterId');
  t.equal(pkg.rel(pres, attrNS(ids[0], NS.r, 'id')!)?.targetPartName, expected, 'it names the notes master the notes slides use');
  t.same(
    children(root).map((e) => e.localName).slice(0, 3),
    ['sldMasterIdLst', 'notesMasterIdLst', 'sldIdLst'],
    'p:notesMasterIdLst between the slide master and slide lists (CT_Presentation order)',
  );
  t.same(pkg.partsOfType(CT.notesMaster), [expected], 'one notes master in the package');
  const themes = pkg.rels(expected).filter((r) => r.type === RT.theme);
  t.equal(themes.length, 1, 'the notes master has one theme');
  const masterThemes = new Set(pkg.partsOfType(CT.slideMaster).map((m) => pkg.relatedPartName(m, RT.theme)));
  t.notOk(masterThemes.has(themes[0]!.targetPartName), 'a theme part of its own, not a slide master’s');
  t.equal(pkg.contentType(themes[0]!.targetPartName!), CT.theme);
}

async function referees(t: Test, name: string, bytes: Uint8Array, pages: number): Promise<void> {
  const file = join(scratch, name);
  writeFileSync(file, bytes);
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint is clean');
  const xsd = await xsdCheck(file, { all: true });
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, `every part (notes slides and master included) validates against the XSDs\n${xsd.ok ? '' : xsd.output}`);
  const skip = await renderingSkipReason();
  if (skip) {
    void t.test('LibreOffice opens the deck', { skip }, () => {});
    return;
  }
  const pdf = await convertToPdf(file, join(scratch, `${name}-pdf`));
  t.equal(await pdfPageCount(pdf), pages, 'LibreOffice opens the deck: one page per slide');
}

const NOTES = 'Say hello & <welcome> everyone\n\nThen: the numbers\u0001 (bell removed)\r\nLast line\vwith a soft break';
const NOTES_READ = ['Say hello & <welcome> everyone', '', 'Then: the numbers (bell removed)', 'Last line\vwith a soft break'].join('\n');

t.test('a template without a notes master: notes slides on a minimal notes master', async (t) => {
  const house = await houseTemplate();
  t.notOk((await OpcPackage.open(house)).partsOfType(CT.notesMaster).length, 'the house template has no notes master');
  const r = await buildDeck({
    templates: new Map([[HOUSE, house]]),
    slides: [fromSlide(HOUSE, 2, { title: 'Agenda', notes: NOTES }), fromLayout(HOUSE, 2, { title: 'No notes' }), fromLayout(HOUSE, 4, { title: 'Short', notes: 'One line' })],
  });
  t.same(r.errors, []);
  t.same(r.warnings, []);
  const pkg = await OpcPackage.open(r.bytes!);
  const slides = slideParts(pkg);
  t.equal(notesLikePythonPptx(pkg, slides[0]!), NOTES_READ, 'lines become paragraphs, empty line kept, text escaped, forbidden characters removed');
  t.equal(notesLikePythonPptx(pkg, slides[1]!), undefined, 'a slide without notes has no notes slide');
  t.equal(notesLikePythonPptx(pkg, slides[2]!), 'One line');
  const body = descendants(pkg.getXml(pkg.relatedPartName(slides[0]!, RT.notesSlide)!), NS.p, 'ph').find((ph) => attr(ph, 'type') === 'body')!;
  t.equal(attr(body, 'idx'), '1', 'the body placeholder is idx 1');
  const master = checkNotesWiring(t, pkg, slides[0]!);
  t.equal(checkNotesWiring(t, pkg, slides[2]!), master, 'both notes slides use the one notes master');
  checkNotesMaster(t, pkg, master);
  const masterPh = descendants(pkg.getXml(master), NS.p, 'ph').map((ph) => attr(ph, 'type'));
  t.same(masterPh, ['sldImg', 'body'], 'the minimal notes master has the slide image and body placeholders');
  const app = pkg.getXml(pkg.relatedPartName('/', RT.extendedProperties)!).documentElement!;
  t.equal(child(app, NS.extendedProperties, 'Notes')?.textContent, '2', 'docProps/app.xml counts two notes');
  await referees(t, 'minimal-master.pptx', r.bytes!, 3);
});

t.test("a template with a notes master: it is copied once with its own theme; template notes kept unless replaced", async (t) => {
  const tpl = await houseTemplate({ speakerNotes: true });
  const r = await buildDeck({
    templates: new Map([[HOUSE_NOTES, tpl]]),
    slides: [
      fromSlide(HOUSE_NOTES, 2, { title: 'Kept' }),
      fromSlide(HOUSE_NOTES, 2, { title: 'Replaced', notes: 'New notes\nTwo lines' }),
      fromSlide(HOUSE_NOTES, 2, { title: 'Removed', notes: '' }),
      fromSlide(HOUSE_NOTES, 1, { title: 'Added', notes: 'Opening words' }),
      fromSlide(HOUSE_NOTES, 1, { title: 'None' }),
    ],
  });
  t.same(r.errors, []);
  t.same(r.warnings, []);
  const pkg = await OpcPackage.open(r.bytes!);
  const slides = slideParts(pkg);
  t.same(
    slides.map((s) => notesLikePythonPptx(pkg, s)),
    [HOUSE_SLIDE2_NOTES.join('\n'), 'New notes\nTwo lines', undefined, 'Opening words', undefined],
    'template notes kept, replaced, removed by an empty string, added, and none where neither has any',
  );
  const masters = [0, 1, 3].map((i) => checkNotesWiring(t, pkg, slides[i]!));
  t.same(new Set(masters).size, 1, 'every notes slide uses the one notes master');
  checkNotesMaster(t, pkg, masters[0]!);
  t.equal(attr(path(pkg.getXml(masters[0]!).documentElement!, [NS.p, 'cSld']), 'name'), 'House Notes Master', "the template's notes master is copied");
  const theme = pkg.relatedPartName(masters[0]!, RT.theme)!;
  t.equal(attr(pkg.getXml(theme).documentElement!, 'name'), 'Slidewright House Notes', 'with its own theme');
  t.equal(pkg.partsOfType(CT.notesSlide).length, 3);
  await referees(t, 'template-master.pptx', r.bytes!, 5);
});

t.test('slides from two templates with notes masters share one notes master; the base template has none', needsCorpus(AUTOMIZER), async (t) => {
  const automizer = readFileSync(corpusPath(AUTOMIZER));
  const src = await OpcPackage.open(automizer);
  const kept = notesLikePythonPptx(src, '/ppt/slides/slide2.xml');
  t.ok(kept && kept.length > 0, 'automizer slide 2 has notes text');
  const r = await buildDeck({
    templates: new Map<string, Uint8Array>([
      [HOUSE, await houseTemplate()],
      [HOUSE_NOTES, await houseTemplate({ speakerNotes: true })],
      ['automizer', automizer],
    ]),
    slides: [fromSlide(HOUSE, 1, { title: 'Base without notes master' }), fromSlide('automizer', 2, {}), fromSlide(HOUSE_NOTES, 2, {}), fromSlide('automizer', 3, { notes: 'Replaced' })],
  });
  t.same(r.errors, []);
  const pkg = await OpcPackage.open(r.bytes!);
  const slides = slideParts(pkg);
  t.same(slides.map((s) => notesLikePythonPptx(pkg, s)), [undefined, kept, HOUSE_SLIDE2_NOTES.join('\n'), 'Replaced']);
  const masters = [1, 2, 3].map((i) => checkNotesWiring(t, pkg, slides[i]!));
  t.equal(new Set(masters).size, 1, 'one notes master for the deck');
  checkNotesMaster(t, pkg, masters[0]!);
  const srcMaster = src.relatedPartName(src.relatedPartName('/', RT.officeDocument)!, RT.notesMaster)!;
  t.equal(
    Buffer.from(pkg.getBytes(masters[0]!)).toString('utf8'),
    Buffer.from(src.getBytes(srcMaster)).toString('utf8'),
    'the notes master of the first template with one (in slide order) is the one copied',
  );
  await referees(t, 'two-templates.pptx', r.bytes!, 4);
});

t.test('notes in right-to-left and East Asian languages carry their direction and language, as the slide text does', needsCorpus(AUTOMIZER), async (t) => {
  const automizer = readFileSync(corpusPath(AUTOMIZER));
  const withLanguage = (spec: DeckSlideSpec, language: string): DeckSlideSpec => ({ ...spec, options: { language } });
  const r = await buildDeck({
    templates: new Map([['automizer', automizer]]),
    slides: [
      withLanguage(fromLayout('automizer', 2, { title: 'סקירה', notes: 'הערות הדובר\nההכנסות גדלו ב-14%' }), 'he'),
      fromLayout('automizer', 2, { title: 'مراجعة', notes: 'ملاحظات Q3 المتحدث' }),
      withLanguage(fromLayout('automizer', 2, { title: '四半期', notes: '発表者ノート\vsecond line' }), 'ja-JP'),
      fromLayout('automizer', 2, { title: 'Latin', notes: 'Plain notes' }),
      withLanguage(fromSlide('automizer', 2, { notes: '분기별 검토' }), 'ko-KR'),
    ],
  });
  t.same(r.errors, []);
  const pkg = await OpcPackage.open(r.bytes!);
  const slides = slideParts(pkg);
  t.same(
    slides.map((s) => notesLikePythonPptx(pkg, s)),
    ['הערות הדובר\nההכנסות גדלו ב-14%', 'ملاحظات Q3 المتحدث', '発表者ノート\vsecond line', 'Plain notes', '분기별 검토'],
    'the text reads back unchanged (runs split by script join up again)',
  );
  /** Per paragraph of a slide's notes body: [rtl, algn, the runs' lang values]. */
  const shape = (slide: string): Array<[string | undefined, string | undefined, string[]]> => {
    const notes = pkg.getXml(pkg.relatedPartName(slide, RT.notesSlide)!);
    const body = children(path(notes.documentElement!, [NS.p, 'cSld'], [NS.p, 'spTree'])!, NS.p, 'sp').find((sp) => attr(path(sp, [NS.p, 'nvSpPr'], [NS.p, 'nvPr'], [NS.p, 'ph']), 'type') === 'body')!;
    return children(child(body, NS.p, 'txBody')!, NS.a, 'p').map((p) => {
      const pPr = child(p, NS.a, 'pPr');
      return [attr(pPr, 'rtl'), attr(pPr, 'algn'), children(p, NS.a, 'r').map((r) => attr(child(r, NS.a, 'rPr'), 'lang') ?? '-')];
    });
  };
  t.same(shape(slides[0]!), [['1', 'r', ['he']], ['1', 'r', ['he']]], 'Hebrew (language he): every paragraph right to left, aligned right, runs lang he');
  t.same(shape(slides[1]!), [['1', 'r', ['ar-SA', 'en-US', 'ar-SA']]], 'Arabic without a language: right to left from its first strong character, one run per script');
  t.same(shape(slides[2]!), [['0', undefined, ['ja-JP', 'ja-JP']]], 'Japanese (language ja-JP): left to right, runs lang ja-JP');
  const ea = child(descendants(pkg.getXml(pkg.relatedPartName(slides[2]!, RT.notesSlide)!), NS.a, 'r')[0]!, NS.a, 'rPr');
  t.equal(attr(ea, 'altLang'), 'en-US', 'an East Asian run names en-US as altLang, as PowerPoint writes');
  t.same(shape(slides[3]!), [[undefined, undefined, ['-']]], 'Latin notes without a language are written as before: no pPr, no lang');
  t.same(shape(slides[4]!), [['0', undefined, ['ko-KR']]], 'notes replacing a copied template slide\'s take the slide\'s language too');
  await referees(t, 'international-notes.pptx', r.bytes!, 5);
});

t.test('previews are unaffected by notes', async (t) => {
  const house = await houseTemplate();
  const build = (notes: string | undefined) =>
    buildDeck({ templates: new Map([[HOUSE, house]]), slides: [fromSlide(HOUSE, 2, { title: 'Same slide', ...(notes === undefined ? {} : { notes }) })] });
  const [withNotes, without] = await Promise.all([build('Notes that are never drawn'), build(undefined)]);
  const a = await previewsOf(withNotes.bytes!, 320, 1);
  const b = await previewsOf(without.bytes!, 320, 1);
  t.equal(a.size, 1);
  t.same([...a.values()].map((png) => Buffer.from(png).toString('base64')), [...b.values()].map((png) => Buffer.from(png).toString('base64')), 'the same PNG with and without notes');
});

t.test('a paginated table slide repeats its notes on every page', async (t) => {
  const rows = [{ is_header: true, cells: [{ value: 'Item' }, { value: 'Value' }] }, ...Array.from({ length: 60 }, (_, i) => ({ cells: [{ value: `Item ${i + 1}` }, { value: String(i) }] }))];
  const r = await buildDeck({ templates: new Map([[HOUSE, await houseTemplate()]]), slides: [fromLayout(HOUSE, 7, { title: 'Items', notes: 'About the items', content: [{ blocks: [{ type: 'table', table: { table: { rows } } }] }] })] });
  t.same(r.errors, []);
  t.ok(r.pages_generated > 1, `${r.pages_generated} pages`);
  const pkg = await OpcPackage.open(r.bytes!);
  t.same(
    slideParts(pkg).map((s) => notesLikePythonPptx(pkg, s)),
    new Array<string>(r.pages_generated).fill('About the items'),
  );
  await referees(t, 'paginated.pptx', r.bytes!, r.pages_generated);
});

t.test('validation: notes are a string of at most 10000 characters', async (t) => {
  const deck = (notes: unknown) => ({ slides: [{ template_slide_id: 'sld_1', slide_data: { notes } }] });
  const DECK = 'slidewright.v1.PresentationService/GenerateDeck';
  t.same(validateBody(DECK, deck('x'.repeat(10_000))), [], '10000 characters pass');
  t.same(validateBody(DECK, deck(null)), [], 'null passes');
  const tooLong = validateBody(DECK, deck('x'.repeat(10_001)));
  t.equal(tooLong.length, 1);
  t.match(tooLong[0], { loc: ['body', 'slides', 0, 'slide_data', 'notes'], type: 'string_too_long', ctx: { max_length: 10_000 } });
  const notString = validateBody(DECK, deck(['a']));
  t.match(notString[0], { loc: ['body', 'slides', 0, 'slide_data', 'notes'], type: 'string_type' });
});

t.test('a template notes slide that cannot be read is left out with a notes_dropped warning; the slide is built', async (t) => {
  const pkg = await OpcPackage.open(await houseTemplate({ speakerNotes: true }));
  pkg.setBytes('/ppt/notesSlides/notesSlide1.xml', Buffer.from('<p:notes xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld>'), CT.notesSlide);
  const r = await buildDeck({ templates: new Map([[HOUSE_NOTES, await pkg.toBytes()]]), slides: [fromSlide(HOUSE_NOTES, 2, { title: 'Still built' }), fromSlide(HOUSE_NOTES, 2, { title: 'Replaced', notes: 'Fine' })] });
  t.same(r.errors, []);
  t.same(
    r.warnings.map((w) => [w.slide_index, w.code]),
    [[0, 'notes_dropped']],
    'warned for the slide that would have kept them, not for the one that replaces them',
  );
  const deck = await OpcPackage.open(r.bytes!);
  t.same(slideParts(deck).map((s) => notesLikePythonPptx(deck, s)), [undefined, 'Fine']);
  await referees(t, 'unreadable-notes.pptx', r.bytes!, 2);
});
