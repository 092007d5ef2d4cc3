/**
 * Decks generated from templates that needed repairs carry the repaired form (issue 17,
 * item 2): built from every slide and the layout of the damaged template
 * (test/fixtures/damaged-template.ts) and from the incoming file with an empty picture fill,
 * they hold no dangling relationship id, no relationship to a missing part, no part without
 * a content type and no repeated shape id; the structural lint and the XSD check pass.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { CT } from '../../../core/src/ooxml/opc/constants.js';
import { NS, attr, attrNS, children, descendants } from '../../../core/src/ooxml/xml.js';
import { damagedTemplateBytes } from '../../fixtures/damaged-template.js';
import { corpusPath, needsCorpus } from '../../helpers/corpus.js';
import { lintPptx, refereeSkipped, xsdCheck } from '../../helpers/referee.js';

const scratch = mkdtempSync(join(tmpdir(), 'slidewright-repaired-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

const slide = (n: number, data: DeckSlideSpec['slide_data'] = {}): DeckSlideSpec => ({
  template_id: 't',
  template_slide_id: `s${n}`,
  source: { kind: 'slide', part_name: `/ppt/slides/slide${n}.xml` },
  slide_data: data,
  options: {},
});

/** Every relationship id used in the deck's XML parts names a relationship of its part whose internal target exists. */
function danglingIn(pkg: OpcPackage): string[] {
  const out: string[] = [];
  for (const part of pkg.partNames()) {
    const ct = pkg.contentType(part);
    if (ct === undefined) out.push(`${part}: no content type`);
    if (!ct?.endsWith('+xml') || part.endsWith('.rels')) continue;
    const rels = new Map(pkg.rels(part).map((r) => [r.id, r]));
    for (const r of rels.values()) if (!r.external && r.targetPartName && !pkg.hasPart(r.targetPartName)) out.push(`${part}: ${r.id} targets missing ${r.targetPartName}`);
    const stack = [pkg.getXml(part).documentElement!];
    while (stack.length) {
      const el = stack.pop()!;
      for (let i = 0; i < el.attributes.length; i++) {
        const a = el.attributes.item(i)!;
        if (a.namespaceURI === NS.r && a.value !== '' && !rels.has(a.value)) out.push(`${part}: ${a.name}="${a.value}" dangles`);
      }
      stack.push(...children(el));
    }
  }
  return out;
}

/** Shape ids used twice in one slide, layout or master (outside mc:Fallback). */
function repeatedIds(pkg: OpcPackage): string[] {
  const out: string[] = [];
  for (const ct of [CT.slide, CT.slideLayout, CT.slideMaster]) {
    for (const part of pkg.partsOfType(ct)) {
      const seen = new Set<string>();
      for (const c of descendants(pkg.getXml(part), NS.p, 'cNvPr')) {
        let inFallback = false;
        for (let p = c.parentNode as { localName?: string; parentNode: unknown } | null; p; p = p.parentNode as typeof p) if (p.localName === 'Fallback') inFallback = true;
        if (inFallback) continue;
        const id = attr(c, 'id')!;
        if (seen.has(id)) out.push(`${part}: id ${id}`);
        seen.add(id);
      }
    }
  }
  return out;
}

async function checkReferees(t: Test, file: string): Promise<void> {
  const lint = await lintPptx(file);
  if (!refereeSkipped(t, lint)) t.same(lint.errors, [], 'ooxml-lint finds nothing');
  // presentation, slides, layouts and masters against pml.xsd (the mini deck's theme has empty style lists of its own)
  const xsd = await xsdCheck(file);
  if (!refereeSkipped(t, xsd)) t.ok(xsd.ok, `XSD check passes:\n${xsd.output.split('\n').filter((l) => !/validates$|: OK$/.test(l)).join('\n')}`);
}

t.test('a deck of every slide and the layout of the damaged template carries the repaired form and lints clean', async (t) => {
  const bytes = await damagedTemplateBytes();
  const specs: DeckSlideSpec[] = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => slide(n));
  specs.push({ template_id: 't', template_slide_id: 'lay', source: { kind: 'layout', part_name: '/ppt/slideLayouts/slideLayout1.xml' }, slide_data: { title: 'From the layout' }, options: {} });
  const r = await buildDeck({ templates: new Map([['t', bytes]]), slides: specs, reuseOpenedTemplates: false });
  t.same(r.errors, [], 'no slide fails');
  t.equal(r.pages_generated, 9);
  const deck = await OpcPackage.open(r.bytes!);
  t.same(danglingIn(deck), [], 'no dangling id, no missing target, no part without a content type');
  t.same(repeatedIds(deck), [], 'no repeated shape id');
  const slides = deck.partsOfType(CT.slide);
  const xml = (n: number): string => new TextDecoder().decode(deck.getBytes(slides[n - 1]!));
  t.match(xml(1), /<p:blipFill><a:stretch>/, 'slide 1: the picture keeps its frame without an image');
  t.notMatch(xml(3), /rId9/, 'slide 3: the dangling link is gone');
  t.match(xml(3), /ppaction:\/\/hlinkshowjump\?jump=nextslide/, 'the action-only link stays');
  t.notMatch(xml(4), /graphicFrame/, 'slide 4: the chart frame is gone');
  t.ok(deck.partNames().some((p) => deck.contentType(p) === 'image/png'), 'slide 6: its PNG, with a content type');
  t.match(xml(7), /<a:noFill\/>/, 'slide 7: picture fills became no fill');
  t.match(xml(8), /Chart fallback/, 'slide 8: the fallback picture took the chart frame’s place');
  t.notMatch(xml(8), /mc:AlternateContent/);
  const ids = descendants(deck.getXml(slides[4]!), NS.p, 'cNvPr').map((c) => attr(c, 'id'));
  t.same(ids, ['1', '2', '3', '10', '12', '11'], 'slide 5: the repeat renumbered as analysis lists it');
  t.same(descendants(deck.getXml(slides[4]!), NS.a, 'stCxn').map((c) => attr(c, 'id')), ['12']);
  const layoutPic = deck.partsOfType(CT.slideLayout).flatMap((p) => descendants(deck.getXml(p), NS.a, 'blip'));
  t.same(layoutPic.map((b) => attrNS(b, NS.r, 'embed')), [], 'the layout picture lost its unknown image part');
  const file = join(scratch, 'damaged-deck.pptx');
  writeFileSync(file, r.bytes!);
  await checkReferees(t, file);
});

t.test('the incoming file with an empty picture fill makes a deck that lints clean', needsCorpus('incoming/templates/poi-missing-blip-fill.pptx'), async (t) => {
  const bytes = new Uint8Array(readFileSync(corpusPath('incoming/templates/poi-missing-blip-fill.pptx')));
  const r = await buildDeck({ templates: new Map([['t', bytes]]), slides: [slide(1)], reuseOpenedTemplates: false });
  t.same(r.errors, []);
  const deck = await OpcPackage.open(r.bytes!);
  t.same(danglingIn(deck), []);
  t.match(new TextDecoder().decode(deck.getBytes(deck.partsOfType(CT.slide)[0]!)), /<p:blipFill\/>/, 'the empty picture fill is kept as PowerPoint wrote it');
  const file = join(scratch, 'missing-blip-fill-deck.pptx');
  writeFileSync(file, r.bytes!);
  await checkReferees(t, file);
});
