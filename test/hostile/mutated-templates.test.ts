/**
 * Templates nobody here has seen, approximated: every corpus template with its slides,
 * layouts, masters, themes, charts and diagrams changed at random in ways real files differ
 * (an element or attribute left out, an attribute at a value out of its range or of the
 * wrong kind, an element repeated or emptied) goes through everything a thread does with an
 * upload — inspection, analysis, a deck built from its first slides and layouts with text
 * and a paginated table, previews of the template and of the deck, PDF export of both.
 *
 * Each step must either succeed or refuse with the engine's own reason: a failure coded
 * `internal` (an exception the engine did not expect: a TypeError, a RangeError, …) is a
 * crash a user would see as a 500 or a `failed` job with no reason, and fails the test. A
 * slide that fails inside a deck must fail with a reason too, not `generation_failed`
 * (the code of a slide whose build threw something unexpected).
 *
 * The mutations are drawn from a generator seeded by the file's name, so a failure replays;
 * `SLIDEWRIGHT_MUTATION_VARIANTS` (default 1) and `SLIDEWRIGHT_MUTATIONS` (default 8) set
 * the variants per template and the changes per variant, for a longer hunt than CI's.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import run from '../../core/src/threads/cpu-task.js';
import { writeZip } from '../../core/src/ooxml/opc/zip-codec.js';
import { packageFiles, unexpectedFailure } from './package-files.js';
import type { DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import { corpusFilesOfFor, corpusPath, needsCorpus } from '../helpers/corpus.js';

const VARIANTS = Number(process.env.SLIDEWRIGHT_MUTATION_VARIANTS ?? 1);
const MUTATIONS = Number(process.env.SLIDEWRIGHT_MUTATIONS ?? 8);
/** Parts whose content the mutations change. */
const MUTABLE_PART = /^ppt\/(presentation\.xml|(slides|slideLayouts|slideMasters|theme|charts|diagrams)\/[^/]+\.xml)$/;
/** Values an attribute is set to: empty, zero, negative, past 32 bits, not a number, a fraction, a percentage, a long word. */
const ODD_VALUES = ['', '0', '-1', '2147483647', '-2147483648', '99999999999', 'NaN', 'abc', '1e9', '0.5', '-0', '100%', '21600000', 'true', 'x'.repeat(300)];

/** A small deterministic generator (mulberry32) seeded by text. */
function generator(seedText: string): () => number {
  let a = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function elementsUnder(el: Element, out: Element[]): Element[] {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1) {
      out.push(c as Element);
      elementsUnder(c as Element, out);
    }
  }
  return out;
}

/** One random change to a part's XML, described; undefined when the part has no element to change. */
function mutatePart(xml: string, random: () => number): { xml: string; change: string } | undefined {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (!doc.documentElement) return undefined;
  const els = elementsUnder(doc.documentElement, []);
  if (els.length === 0) return undefined;
  const el = els[Math.floor(random() * els.length)]!;
  const attrs = Array.from({ length: el.attributes.length }, (_, i) => el.attributes.item(i)!).filter((a) => !a.name.startsWith('xmlns'));
  const r = random();
  let change: string;
  if (r < 0.25 || (attrs.length === 0 && r < 0.85)) {
    el.parentNode!.removeChild(el);
    change = `<${el.tagName}> removed`;
  } else if (r < 0.45) {
    const a = attrs[Math.floor(random() * attrs.length)]!;
    el.removeAttribute(a.name);
    change = `@${a.name} of <${el.tagName}> removed`;
  } else if (r < 0.85) {
    const a = attrs[Math.floor(random() * attrs.length)]!;
    const v = ODD_VALUES[Math.floor(random() * ODD_VALUES.length)]!;
    el.setAttribute(a.name, v);
    change = `@${a.name} of <${el.tagName}> = "${v.slice(0, 12)}"`;
  } else if (r < 0.93) {
    el.parentNode!.insertBefore(el.cloneNode(true), el.nextSibling);
    change = `<${el.tagName}> repeated`;
  } else {
    while (el.firstChild) el.removeChild(el.firstChild);
    change = `<${el.tagName}> emptied`;
  }
  return { xml: new XMLSerializer().serializeToString(doc), change };
}

/** The template with `count` random changes, and what they were. */
function mutated(bytes: Uint8Array, count: number, random: () => number): { bytes: Uint8Array; changes: string[] } {
  const parts = packageFiles(bytes);
  const mutable = parts.filter((p) => MUTABLE_PART.test(p.name));
  const changes: string[] = [];
  for (let i = 0; i < count && mutable.length > 0; i++) {
    const part = mutable[Math.floor(random() * mutable.length)]!;
    let m: ReturnType<typeof mutatePart>;
    try {
      m = mutatePart(new TextDecoder().decode(part.bytes), random);
    } catch {
      continue; // a part xmldom reads back differently (namespace declarations moved): left as it was
    }
    if (!m) continue;
    part.bytes = new TextEncoder().encode(m.xml);
    changes.push(`${part.name}: ${m.change}`);
  }
  return { bytes: writeZip(parts), changes };
}

const slideData = (i: number): DeckSlideSpec['slide_data'] =>
  i % 2 === 0
    ? { title: `Quarterly review ${i + 1}`, content: [{ blocks: [{ type: 'text', text: { bullets: ['Revenue grew in every region', 'A longer point that has to wrap across the width of most content placeholders', 'Next steps'] } }] }] }
    : {
        title: `Figures ${i + 1}`,
        content: [{ blocks: [{ type: 'table', table: { table: { rows: Array.from({ length: 14 }, (_, r) => ({ is_header: r === 0, cells: [0, 1, 2].map((c) => ({ value: r === 0 ? `Column ${c + 1}` : `${r * 10 + c}` })) })) } } }] }],
      };

for (const rel of corpusFilesOfFor(t, 'templates')) {
  t.test(`${rel} changed at random: every step succeeds or refuses with a reason`, needsCorpus(rel), async (t) => {
    const original = new Uint8Array(readFileSync(corpusPath(rel)));
    for (let v = 0; v < VARIANTS; v++) {
      const { bytes, changes } = mutated(original, MUTATIONS, generator(`${rel}#${v}`));
      const label = `variant ${v + 1}`;
      // the changes are printed with a failure only
      const changed = { changes };
      const inspected = await run({ op: 'inspect', bytes });
      t.notOk(unexpectedFailure(inspected), `inspection: ${label}`, changed);
      if (!inspected.ok) continue;
      const analysed = await run({ op: 'analyze', bytes, templateId: 'mutated', options: {} });
      t.notOk(unexpectedFailure(analysed), `analysis: ${label}`, changed);
      if (!analysed.ok || !('results' in analysed)) continue;
      const { slides, layouts } = analysed.results;
      const specs: DeckSlideSpec[] = [...slides.slice(0, 3).map((s) => ({ kind: 'slide' as const, part_name: s.part_name })), ...layouts.slice(0, 3).map((l) => ({ kind: 'layout' as const, part_name: l.part_name }))].map((source, i) => ({
        template_id: 'mutated',
        template_slide_id: `slide-${i}`,
        source,
        slide_data: slideData(i),
        options: { auto_paginate_tables: true },
      }));
      const built = await run({ op: 'build', templates: [{ id: 'mutated', bytes }], slides: specs });
      t.notOk(unexpectedFailure(built), `deck: ${label}`, changed);
      if (built.ok && 'errors' in built) {
        // generation_failed: what a slide gets for an exception the engine did not expect (deck/slide-failure.ts)
        t.same(built.errors.filter((e) => e.code === 'generation_failed'), [], `every slide that failed has a reason: ${label}`, changed);
      }
      const previews = await run({ op: 'render', bytes, cacheKey: `mutated-${rel}-${v}`, slides: slides.slice(0, 3).map((s) => ({ part_name: s.part_name })), widthPx: 320 });
      t.notOk(unexpectedFailure(previews), `template previews: ${label}`, changed);
      const pdf = await run({ op: 'pdf', bytes, cacheKey: `mutated-${rel}-${v}`, pdfa: false });
      t.notOk(unexpectedFailure(pdf), `template PDF: ${label}`, changed);
      if (built.ok && 'pages_generated' in built && built.bytes) {
        const deckPreviews = await run({ op: 'render', bytes: built.bytes, cacheKey: `mutated-deck-${rel}-${v}`, slides: [{ slide_number: 1 }, { slide_number: 2 }].slice(0, built.pages_generated), widthPx: 320 });
        t.notOk(unexpectedFailure(deckPreviews), `deck previews: ${label}`, changed);
        const deckPdf = await run({ op: 'pdf', bytes: built.bytes, cacheKey: `mutated-deck-${rel}-${v}`, pdfa: false });
        t.notOk(unexpectedFailure(deckPdf), `deck PDF: ${label}`, changed);
      }
    }
  });
}
