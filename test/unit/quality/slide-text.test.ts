/**
 * The package check of a slide's text as the build serializes it (`checkSlideText`, issue
 * 23, item 2) finds what the general check of the written package finds, on every slide
 * of decks made from every template of the corpus bench folder and from the house
 * template: as written, and with a fault planted in the text — a shape id used twice, a
 * relationship attribute naming no relationship, a table row short of a cell — read from the
 * string and from the UTF-8 bytes the build compresses. Table rows the serializer writes
 * from a row model are counted by the model, and that count is the one the bytes give.
 */
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { checkPackage, checkSlideText, type PackageProblem } from '../../../core/src/quality/package.js';
import { houseTemplate } from '../../fixtures/house-template.js';
import { cloneWithStubs } from '../../../core/src/generation/draft/clone.js';
import { serializeDocument, serializeDocumentBytes } from '../../../core/src/generation/draft/serialize.js';
import { NS, child, children, descendants, type Document, type Element } from '../../../core/src/ooxml/xml.js';
import { corpusFilesFor, corpusPath } from '../../helpers/corpus.js';
import { corpusSlides, openCorpusOrPass } from '../../helpers/corpus-slides.js';
import { cloneDocument } from '../../../core/src/generation/draft/clone.js';
import { SlideDraft } from '../../../core/src/generation/draft/slide-draft.js';
import { frameTable, replaceTableContent } from '../../../core/src/generation/slide/tables.js';
import type { Table } from '../../../core/src/domain/content.js';
import { needsCorpus } from '../../helpers/corpus.js';

/** Faults planted in a slide's text; undefined when the slide has nothing to plant it in. */
const FAULTS: Record<string, (text: string) => string | undefined> = {
  'shape id used twice': (text) => {
    const ids = [...text.matchAll(/<p:cNvPr id="(\d+)"/g)];
    if (ids.length < 2) return undefined;
    const second = ids[1]!;
    return text.slice(0, second.index) + `<p:cNvPr id="${ids[0]![1]}"` + text.slice(second.index! + second[0].length);
  },
  'relationship attribute naming no relationship': (text) => {
    if (!/xmlns:r="/.test(text.slice(0, 2000))) return undefined;
    return text.replace(/<p:cSld(?=[ >])/, '<p:cSld r:id="rId999"');
  },
  'table row short of a cell': (text) => {
    const at = text.search(/<a:tc[ >]/);
    if (at === -1) return undefined;
    const end = text.indexOf('</a:tc>', at);
    return text.slice(0, at) + text.slice(end + '</a:tc>'.length);
  },
};

function key(p: PackageProblem): string {
  return `${p.part} ${p.check} ${p.message}`;
}

async function checkDeck(t: Test, name: string, bytes: Uint8Array, slides: DeckSlideSpec[]): Promise<void> {
  const r = await buildDeck({ slides, templates: new Map([[name, bytes]]) });
  if (!r.bytes) {
    t.fail(`${name}: no deck (${JSON.stringify(r.errors)})`);
    return;
  }
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  for (const part of (await OpcPackage.open(r.bytes)).partsOfType(CT.slide)) {
    const deck = await OpcPackage.open(r.bytes);
    const text = decoder.decode(deck.getBytes(part));
    const relIds = new Set(deck.rels(part).map((x) => x.id));
    const general = (): string[] => checkPackage(deck).filter((p) => p.part === part).map(key).sort();
    t.same(checkSlideText(part, text, relIds).map(key).sort(), general(), `${name} ${part}: as written, the same problems (none: ${general().length === 0})`);
    t.same(checkSlideText(part, deck.getBytes(part)!, relIds).map(key).sort(), general(), `${name} ${part}: read from the bytes the build compresses, the same problems`);
    for (const [fault, plant] of Object.entries(FAULTS)) {
      const planted = plant(text);
      if (planted === undefined) continue;
      deck.setBytes(part, encoder.encode(planted));
      const found = checkSlideText(part, planted, relIds).map(key).sort();
      t.ok(found.length > 0, `${name} ${part}: ${fault} is found`);
      t.same(checkSlideText(part, encoder.encode(planted), relIds).map(key).sort(), found, `${name} ${part}: ${fault}: the same from the bytes`);
      t.same(found, general(), `${name} ${part}: ${fault}: the same problems as the check of the package`);
      deck.setBytes(part, encoder.encode(text));
    }
  }
}

t.test('house template: every layout', async (t) => {
  const bytes = new Uint8Array(await houseTemplate());
  const pkg = await OpcPackage.open(bytes);
  const slides = pkg.partsOfType(CT.slideLayout).map(
    (part): DeckSlideSpec => ({
      template_id: 'house',
      template_slide_id: part,
      source: { kind: 'layout', part_name: part },
      slide_data: { title: 'Title', content: [{ blocks: [{ type: 'table', table: { table: { rows: [{ cells: [{ value: 'a' }, { value: 'b' }] }, { cells: [{ value: 'c' }, { value: 'd' }] }] } } }] }] },
      options: { footer_text: 'Footer', show_slide_numbers: true },
    }),
  );
  await checkDeck(t, 'house', bytes, slides);
});

for (const file of corpusFilesFor(t, 'bench')) {
  t.test(`bench/${file}: every slide`, async (t) => {
    const bytes = new Uint8Array(readFileSync(corpusPath(`bench/${file}`)));
    const pkg = await OpcPackage.open(bytes);
    const slides = pkg.partsOfType(CT.slide).map((part): DeckSlideSpec => ({ template_id: file, template_slide_id: part, source: { kind: 'slide', part_name: part }, slide_data: { title: 'Generated title' }, options: {} }));
    await checkDeck(t, file, bytes, slides);
  });
}

t.test('names outside ASCII come back whole in the messages read from bytes', async (t) => {
  const bytes = new Uint8Array(await houseTemplate());
  const pkg = await OpcPackage.open(bytes);
  const part = pkg.partsOfType(CT.slideLayout)[1]!;
  const r = await buildDeck({ slides: [{ template_id: 'house', template_slide_id: part, source: { kind: 'layout', part_name: part }, slide_data: { title: 'שלום עולם', subtitle: '標題' }, options: {} }], templates: new Map([['house', bytes]]) });
  t.ok(r.bytes, `a deck (${JSON.stringify(r.errors)})`);
  const deck = await OpcPackage.open(r.bytes!);
  const slide = deck.partsOfType(CT.slide)[0]!;
  const text = new TextDecoder().decode(deck.getBytes(slide));
  const ids = [...text.matchAll(/<p:cNvPr id="(\d+)" name="[^"]*"/g)];
  t.ok(ids.length >= 2, 'the slide has two shapes');
  const second = ids[1]!;
  const planted = text.slice(0, second.index) + `<p:cNvPr id="${ids[0]![1]}" name="Überschrift “Ziel” 标题 &amp; כותרת"` + text.slice(second.index! + second[0].length);
  const found = checkSlideText(slide, new TextEncoder().encode(planted), new Set(deck.rels(slide).map((x) => x.id)));
  t.same(found.map((p) => p.message), [`the shape id ${ids[0]![1]} ("Überschrift “Ziel” 标题 & כותרת") is used twice`]);
});

/*
 * The build hands the check the byte ranges that repeat a template element's text (shapes
 * left to the template, written from its cached text): those are read once per template
 * element and the rest of the slide each time. Over every slide of every corpus template,
 * written with its non-text shapes (pictures, graphic frames, groups) or all of its shapes
 * left to the template: the bytes are the encoding of the text the serializer writes, the
 * ranges read apart find what reading the whole slide finds, also a second time (kept
 * facts) and with faults planted outside and inside the ranges.
 */
for (const file of corpusFilesFor(t, 'templates')) {
  t.test(`templates/${file}: repeated template text read once finds what the whole slide gives`, async (t) => {
    const pkg = await openCorpusOrPass(t, `templates/${file}`, 'a template the engine refuses has no slides to write');
    if (!pkg) return;
    const encoder = new TextEncoder();
    let ranges = 0;
    for (const part of pkg.partsOfType(CT.slide)) {
      const relIds = new Set(pkg.rels(part).map((x) => x.id));
      for (const [way, keep] of [['non-text shapes', (s: Element) => s.localName === 'sp'], ['every shape', () => false]] as const) {
        const { doc, stubs } = cloneWithStubs(pkg.getXml(part), keep);
        const { bytes, repeated } = serializeDocumentBytes(doc, stubs);
        ranges += repeated.length;
        t.ok(Buffer.from(bytes).equals(Buffer.from(encoder.encode(serializeDocument(doc, stubs)))), `${part} (${way} left to the template): the bytes encode the serialized text`);
        const whole = checkSlideText(part, bytes, relIds).map(key);
        t.same(checkSlideText(part, bytes, relIds, repeated).map(key), whole, `${part} (${way}): the same problems read by ranges`);
        t.same(checkSlideText(part, bytes, relIds, repeated).map(key), whole, `${part} (${way}): the same again from kept facts`);
        // a relationship attribute naming no relationship, planted before every range
        const text = Buffer.from(bytes).toString('utf8');
        const at = text.search(/<p:cSld(?=[ >])/);
        if (at === -1 || !/xmlns:r="/.test(text.slice(0, 3000))) continue;
        const insert = ' r:id="rId999"';
        const cut = at + '<p:cSld'.length;
        const planted = encoder.encode(text.slice(0, cut) + insert + text.slice(cut));
        const shift = encoder.encode(insert).length;
        const byteCut = encoder.encode(text.slice(0, cut)).length;
        const moved = repeated.map((r) => (r.start >= byteCut ? { ...r, start: r.start + shift, end: r.end + shift } : r));
        const found = checkSlideText(part, planted, relIds, moved).map(key);
        t.ok(found.some((k) => k.includes('r:id="rId999" names no relationship')), `${part} (${way}): a fault outside the ranges is found`);
        t.same(found, checkSlideText(part, planted, relIds).map(key), `${part} (${way}): with the fault, the same problems as the whole slide`);
      }
    }
    // a shape id used twice across a written shape and a shape left to the template
    const part = pkg.partsOfType(CT.slide).find((p) => {
      const d = pkg.getXml(p);
      return descendants(d, NS.p, 'sp').length > 0 && descendants(d, NS.p, 'cNvPr').length >= 2 && !serializeDocument(d).includes('AlternateContent');
    });
    if (part) {
      const { doc, stubs } = cloneWithStubs(pkg.getXml(part), (s) => s.localName === 'sp');
      const written = descendants(doc, NS.p, 'sp').map((sp) => descendants(sp, NS.p, 'cNvPr')[0]).find(Boolean);
      const left = [...stubs.values()].map((src) => descendants(src, NS.p, 'cNvPr')[0]).find(Boolean) ?? descendants(doc, NS.p, 'cNvPr').find((c) => c !== written);
      if (written && left) {
        written.setAttribute('id', left.getAttribute('id') ?? '');
        const { bytes, repeated } = serializeDocumentBytes(doc, stubs);
        const relIds = new Set(pkg.rels(part).map((x) => x.id));
        const found = checkSlideText(part, bytes, relIds, repeated).map(key);
        t.ok(found.some((k) => k.includes('shape-id')), `${part}: an id shared by a written shape and one left to the template is found (${found.join('; ')})`);
        t.same(found, checkSlideText(part, bytes, relIds).map(key), `${part}: the same as reading the whole slide`);
      }
    }
    // the shape tree's own p:cNvPr is not a shape
    const shapes = pkg.partsOfType(CT.slide).reduce((n, p) => n + Math.max(0, descendants(pkg.getXml(p), NS.p, 'cNvPr').length - 1), 0);
    t.ok(shapes === 0 || ranges > 0, `${ranges} repeated ranges read (${shapes} shapes)`);
  });
}

/*
 * Rows written from a row model come with their byte ranges and cell counts, which the
 * table rule takes instead of searching the rows' bytes: over every table of every corpus
 * slide rewritten with tables of more and fewer columns than the template's, each range is
 * whole rows whose `<a:tc` start tags are the counts given, and the problems found with the
 * counts are those found reading the bytes, also with rows passed over as plain (and a cell
 * whose text reads like a relationship attribute leaves its rows to be read). A count that
 * disagrees with the grid is reported, so the counts are what the rule reads.
 */
/** The table frames at the top of a slide's shape tree. */
function tableFrames(doc: Document): Element[] {
  const tree = child(child(doc.documentElement!, NS.p, 'cSld'), NS.p, 'spTree');
  return tree ? children(tree, NS.p, 'graphicFrame').filter((f) => frameTable(f) !== undefined) : [];
}

t.test('table rows written from a model are checked by their cell counts, with what the bytes give', needsCorpus(), async (t) => {
  const tables: readonly Table[] = [
    { rows: [{ is_header: true, cells: [{ value: 'A' }, { value: 'B & C' }, { value: '<D>' }] }, ...Array.from({ length: 3 }, (_, i) => ({ cells: [{ value: `r${i}` }, { value: 'two\nlines' }, { value: '' }] }))] },
    { rows: [{ cells: [{ value: 'one column' }] }, { cells: [{ value: 'b' }] }] },
    // text the relationship rule reads as an attribute, and a name the rules look for: rows not plain
    { rows: [{ cells: [{ value: 'see r:id="rId999"' }, { value: 'x' }] }, { cells: [{ value: 'an oleObj' }, { value: 'y' }] }] },
  ];
  let ranges = 0;
  let plain = 0;
  for await (const { file, pkg, slidePart, doc: src } of corpusSlides()) {
    const frames = tableFrames(src);
    if (frames.length === 0) continue;
    const relIds = new Set(pkg.rels(slidePart).map((x) => x.id));
    for (const [ti, table] of tables.entries()) {
      const doc = cloneDocument(src);
      tableFrames(doc).forEach((f, i) => replaceTableContent(doc, f, table, frames[i]));
      const { bytes, rows } = serializeDocumentBytes(doc);
      const where = `${file} ${slidePart} content ${ti}`;
      const buf = Buffer.from(bytes);
      for (const r of rows) {
        const text = buf.toString('utf8', r.start, r.end);
        // plain rows hold nothing else the rules look for; rows with such text are not plain
        const holds = / [\w.-]+:[\w.-]*="|cNvPr|AlternateContent|oleObj|tbl|gridCol/.test(text);
        if (r.plain && holds) {
          t.fail(`${where}: rows said plain hold what the rules look for`);
          return;
        }
        if (ti === 2 && r.plain) {
          t.fail(`${where}: rows with r:id="…" text said plain`);
          return;
        }
        if (r.plain) plain++;
        const written = [...text.matchAll(/<a:tr[ >][\s\S]*?<\/a:tr>/g)].map((m) => [...m[0].matchAll(/<a:tc(?!\w)/g)].length);
        if (!text.startsWith('<a:tr') || !text.endsWith('</a:tr>') || JSON.stringify(written) !== JSON.stringify(r.cells)) {
          t.same(written, r.cells, `${where}: bytes ${r.start}-${r.end} are whole rows with the cells counted`);
          return;
        }
      }
      ranges += rows.length;
      const read = checkSlideText(slidePart, bytes, relIds).map(key);
      const counted = checkSlideText(slidePart, bytes, relIds, [], rows).map(key);
      if (JSON.stringify(read) !== JSON.stringify(counted)) {
        t.same(counted, read, `${where}: the same problems counted as read`);
        return;
      }
      const first = rows.find((r) => r.cells.length > 0);
      // (the third content's text names an OLE object: such a slide is read the general way, without counts)
      if (first && ranges < 40 && ti !== 2) {
        const off = [{ ...first, cells: [first.cells[0]! + 1, ...first.cells.slice(1)] }, ...rows.filter((r) => r !== first)].sort((a, b) => a.start - b.start);
        const found = checkSlideText(slidePart, bytes, relIds, [], off).map(key);
        t.ok(found.some((k) => / table row \d+ has \d+ cells/.test(k) && !read.includes(k)), `${where}: a count off the grid is reported (${found.join('; ')})`);
      }
    }
  }
  t.ok(ranges > 50, `${ranges} ranges of model rows compared`);
  t.ok(plain > 30, `${plain} ranges of plain rows passed over`);
});

/*
 * Paragraphs written from a paragraph model come with their byte ranges when they hold
 * nothing the rules look for; the check passes over them and keeps what it read from the
 * bytes around them, by those bytes. Over every corpus slide with text shapes, filled twice
 * with texts of other lengths (as two deck slides from one template slide): each range is
 * whole paragraphs holding nothing the rules look for, the problems found are those of
 * reading the whole slide, and a fault planted around the paragraphs without changing any
 * length (an id made `x`) is found although the bytes were read before with its id.
 */
/** The slide `src` with every top-level text shape copied and filled from a paragraph model of `lines`, the rest left to the template. */
function filledSlide(src: Document, lines: string[][]): { doc: Document; stubs: Map<Element, Element> } {
  const { doc, stubs } = cloneWithStubs(src, (s) => s.localName === 'sp');
  for (const sp of descendants(doc, NS.p, 'sp')) {
    const txBody = child(sp, NS.p, 'txBody');
    if (!txBody) continue;
    const firstRun = descendants(txBody, NS.a, 'rPr')[0];
    const paraProps = descendants(txBody, NS.a, 'pPr')[0];
    for (const p of children(txBody, NS.a, 'p')) txBody.removeChild(p);
    SlideDraft.keepParagraphs(doc, txBody, { paraProps, runProps: firstRun, endProps: undefined, lines });
  }
  return { doc, stubs };
}

t.test('plain paragraphs are passed over and the bytes around them read once', needsCorpus(), async (t) => {
  let ranges = 0;
  let planted = 0;
  for await (const { file, pkg, slidePart, doc: src } of corpusSlides()) {
    if (!descendants(src, NS.p, 'sp').some((sp) => child(sp, NS.p, 'txBody'))) continue;
    const relIds = new Set(pkg.rels(slidePart).map((x) => x.id));
    const where = `${file} ${slidePart}`;
    const texts = [[['Quarterly results'], ['Revenue grew 14 %', 'margin 2 points']], [['Another title, longer than the first one'], ['One line only']], [['see r:id="rId999" in the text']]];
    let firstIds: Buffer | undefined;
    for (const [i, lines] of texts.entries()) {
      const { doc, stubs } = filledSlide(src, lines);
      const { bytes, repeated, rows, paragraphs } = serializeDocumentBytes(doc, stubs);
      const buf = Buffer.from(bytes);
      for (const r of paragraphs) {
        const text = buf.toString('utf8', r.start, r.end);
        if (!/^<a:p>[\s\S]*<\/a:p>$/.test(text) || / [\w.-]+:[\w.-]*="|cNvPr|AlternateContent|oleObj|tbl|gridCol|<\/?[\w.-]+:t[rc](?!\w)/.test(text)) {
          t.fail(`${where} text ${i}: bytes ${r.start}-${r.end} said plain paragraphs: ${text.slice(0, 200)}`);
          return;
        }
      }
      if (i === 2 && paragraphs.some((r) => buf.toString('utf8', r.start, r.end).includes('r:id='))) {
        t.fail(`${where}: paragraphs whose text reads like a relationship attribute said plain`);
        return;
      }
      ranges += paragraphs.length;
      const whole = checkSlideText(slidePart, bytes, relIds).map(key);
      const read = checkSlideText(slidePart, bytes, relIds, repeated, rows, paragraphs).map(key);
      if (JSON.stringify(read) !== JSON.stringify(whole)) {
        t.same(read, whole, `${where} text ${i}: the same problems as reading the whole slide`);
        return;
      }
      if (i === 0) firstIds = buf;
    }
    // a written shape's id made `x` (same length) in bytes read before
    if (!firstIds) continue;
    const { doc, stubs } = filledSlide(src, texts[0]!);
    const { bytes, repeated, rows, paragraphs } = serializeDocumentBytes(doc, stubs);
    const buf = Buffer.from(bytes);
    const inRange = (at: number): boolean => [...repeated, ...paragraphs].some((r) => at >= r.start && at < r.end);
    const text = buf.toString('latin1');
    let at = -1;
    for (const m of text.matchAll(/<p:cNvPr id="(\d)"/g)) {
      if (!inRange(m.index!)) {
        at = m.index! + '<p:cNvPr id="'.length;
        break;
      }
    }
    if (at === -1) continue;
    checkSlideText(slidePart, bytes, relIds, repeated, rows, paragraphs);
    buf[at] = 0x78; // x
    const found = checkSlideText(slidePart, buf, relIds, repeated, rows, paragraphs).map(key);
    if (!found.some((k) => k.includes('not an unsignedInt'))) {
      t.fail(`${where}: an id made "x" around kept bytes is not found (${found.join('; ')})`);
      return;
    }
    planted++;
  }
  t.ok(ranges > 100, `${ranges} plain paragraph ranges written and passed over`);
  t.ok(planted > 20, `${planted} slides with a fault planted around kept bytes, each found`);
});
