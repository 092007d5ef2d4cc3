/**
 * Decks made from corpus layouts, and the placeholders of their slides: what the tests of
 * `slide_data.header` (generation and matching) build and look at.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDeck, type DeckSlideSpec } from '../../core/src/generation/deck/build-deck.js';
import type { SlideData } from '../../core/src/domain/content.js';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { NS, attr, child, descendants, type Element } from '../../core/src/ooxml/xml.js';
import { corpusPath } from './corpus.js';

/** A placeholder `p:sp` of a slide with its `p:ph` type (default `obj`), idx (default 0) and text. */
export interface SlidePlaceholder {
  sp: Element;
  type: string;
  idx: number;
  /** Its `a:t` texts joined. */
  text: string;
}

/** The slide's placeholder `p:sp` elements, in document order. */
export function slidePlaceholders(slideXml: Element): SlidePlaceholder[] {
  const out: SlidePlaceholder[] = [];
  for (const sp of descendants(slideXml, NS.p, 'sp')) {
    const ph = descendants(sp, NS.p, 'ph')[0];
    if (!ph) continue;
    const body = child(sp, NS.p, 'txBody');
    const text = body ? descendants(body, NS.a, 't').map((e) => e.textContent ?? '').join('') : '';
    out.push({ sp, type: attr(ph, 'type') || 'obj', idx: Number(attr(ph, 'idx') || '0'), text });
  }
  return out;
}

/** The root element of slide `n` (1-based) of a built deck. */
export function slideRoot(pkg: OpcPackage, n: number): Element {
  return pkg.getXml(`/ppt/slides/slide${n}.xml`).documentElement!;
}

/** A built deck: the package, the build's warnings and where its bytes were written. */
export interface BuiltLayoutDeck {
  pkg: OpcPackage;
  warnings: Array<{ slide_index: number; code: string; message: string }>;
  path: string;
}

/**
 * Builds a deck from layouts of one corpus template, one slide per entry, and writes it
 * into `scratchDir`.
 *
 * @param file - corpus-relative path (`templates/x.pptx`)
 * @param slides - layout part names (absolute) and the slide data of each slide
 * @throws Error when the build makes no deck
 */
export async function buildFromLayouts(file: string, slides: ReadonlyArray<{ partName: string; data: SlideData }>, scratchDir: string): Promise<BuiltLayoutDeck> {
  const specs: DeckSlideSpec[] = slides.map((s, i) => ({
    template_id: file,
    template_slide_id: `${file}#${i}`,
    source: { kind: 'layout', part_name: s.partName },
    slide_data: s.data,
    options: {},
  }));
  const result = await buildDeck({ slides: specs, templates: new Map([[file, readFileSync(corpusPath(file))]]) });
  if (!result.bytes) throw new Error(`${file}: no deck: ${JSON.stringify(result.errors)}`);
  const path = join(scratchDir, `${file.replace(/[^A-Za-z0-9.-]+/g, '_')}-${slides.length}.pptx`);
  writeFileSync(path, result.bytes);
  return { pkg: await OpcPackage.open(result.bytes), warnings: result.warnings, path };
}
