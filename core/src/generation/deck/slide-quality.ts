/**
 * The quality report's per-slide checks run by the deck writer (issue 23): accessibility
 * and brand findings of a slide as built, read from its tree before it is written, with
 * what a template slide gives judged once per template slide (core/src/quality holds the
 * checks themselves).
 */
import { NS, attr, child, descendants, type Element } from '../../ooxml/xml.js';
import type { OpcPackage } from '../../ooxml/opc/package.js';
import type { RelationshipDraft } from '../../ooxml/opc/relationships.js';
import type { PmlModel } from '../../ooxml/pml/parts.js';
import type { Frame, Shape } from '../../ooxml/pml/shapes.js';
import { shapeBrand, themeBrand, type BrandContext, type TemplateVocabulary } from '../../quality/brand.js';
import { shapeAccessibility, shapeSlideFacts, slideAccessibilityOf, type ShapeSlideFacts, type SlideTitle } from '../../quality/accessibility.js';
import type { QualityFinding } from '../../quality/types.js';
import { GeneratedSlidePart, SlideDraft, type DeferredParagraphs } from '../draft/index.js';
import { materializeParagraphs } from '../slide/text.js';
import { shapeTree } from '../slide/shapes.js';
import { vocabularyOf, type FilledShapeQuality, type TemplateSlideQuality, type TemplateTopQuality, type TemplateSource } from './templates.js';

/** What {@link slideQuality} reads: the slide being written and where it comes from. */
export interface SlideQualityInput {
  /** The template the slide comes from. */
  src: TemplateSource;
  /** The template's reading model (fitting measured the slide with it). */
  model: PmlModel;
  /** The slide's layout part in the template. */
  layoutPart: string;
  /** The slide as built, not yet written. */
  draft: SlideDraft;
  /** The template slide copied; undefined for a slide made from a layout. */
  sourcePart: string | undefined;
  /** The slide's relationships as they will be written. */
  rels: readonly RelationshipDraft[];
  /** The slide's part name in the deck. */
  outSlide: string;
  /** The checks' settings (smallest text size accepted, pt). */
  options: { minTextPt?: number };
  /** The deck being written (pictures the slide shows are read from it). */
  out: OpcPackage;
}

/** The brand context of a slide being written: its pictures are read from the deck (an object with a method: no closure made per slide). */
class WrittenSlideBrand implements BrandContext {
  constructor(
    readonly themeFonts: ReadonlySet<string>,
    readonly palette: ReadonlySet<string>,
    readonly vocabulary: TemplateVocabulary | undefined,
    private readonly rels: readonly RelationshipDraft[],
    private readonly out: OpcPackage,
  ) {}

  imageBytes(_shape: Shape, rId: string): Uint8Array | undefined {
    // the slide's first internal relationship with that id, as written to its .rels part
    for (const r of this.rels) {
      if (r.id !== rId || r.external) continue;
      const target = r.targetPartName;
      return target && this.out.hasPart(target) ? this.out.getBytes(target) : undefined;
    }
    return undefined;
  }
}

/** A shape of the slide as written, its frame read once (the filled-shape key and the reading order both read it). */
class WrittenShape {
  private known = false;
  private box: Frame | undefined;
  constructor(readonly shape: Shape) {}

  get frame(): Frame | undefined {
    if (!this.known) {
      // a shape without a transform of its own is where its base placeholder is: the frame
      // of the layout's (or master's) placeholder, read once
      const s = this.shape;
      const base = s.xfrm === undefined ? s.basePlaceholder : undefined;
      this.box = base ? inheritedFrame(base) : s.frame;
      this.known = true;
    }
    return this.box;
  }

  /** The frame when read already, else undefined. */
  get knownFrame(): Frame | undefined {
    return this.box;
  }
}

const ELEMENT_NODE = 1;

/** Variants of a filled shape's findings kept per template element and layout. */
const MAX_FILLED_VARIANTS = 32;

/** The fitted run sizes of deferred paragraphs, copied (the model's arrays may change). */
function runSizesOf(sizes: DeferredParagraphs['sizes']): number[][] | undefined {
  return sizes?.map((p) => p.runs.slice());
}

/** Whether kept run sizes equal deferred paragraphs' fitted run sizes. */
function sameRunSizes(kept: readonly (readonly number[])[] | undefined, sizes: DeferredParagraphs['sizes']): boolean {
  if (!kept || !sizes) return kept === undefined && sizes === undefined;
  if (kept.length !== sizes.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const a = kept[i]!;
    const b = sizes[i]!.runs;
    if (a.length !== b.length) return false;
    for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  }
  return true;
}

/** Whether deferred paragraphs' lines hold text other than whitespace. */
function hasText(lines: DeferredParagraphs['lines']): boolean {
  for (const segments of lines) for (const x of segments) if (x.trim() !== '') return true;
  return false;
}

/** Frames of layout and master placeholders that written shapes inherit, by placeholder. */
const inheritedFrames = new WeakMap<Shape, { frame: Frame | undefined }>();

/**
 * The frame of a shape with no transform of its own whose base placeholder is `base`:
 * `base.frame` (the first transform along the placeholder chain from `base` on, as
 * `Shape.frame` reads it), read once per base placeholder.
 */
function inheritedFrame(base: Shape): Frame | undefined {
  let known = inheritedFrames.get(base);
  if (!known) inheritedFrames.set(base, (known = { frame: base.frame }));
  return known.frame;
}

/** Whether two frames are the same box (EMU), or both absent. */
function sameFrame(a: FilledShapeQuality['frame'], b: FilledShapeQuality['frame']): boolean {
  if (!a || !b) return a === b;
  return a.x === b.x && a.y === b.y && a.cx === b.cx && a.cy === b.cy;
}

/** The child of `tree` that holds `el` (itself when it is one). */
function topLevelOf(el: Element, tree: Element | undefined): Element | undefined {
  for (let n: Element | null = el; n; n = n.parentNode as Element | null) if (n.parentNode === tree) return n;
  return undefined;
}

/**
 * The accessibility and brand findings of a slide as built (core/src/quality), read from
 * its tree before it is written: shapes written from the template (stand-ins) are judged
 * once per template slide, the others on every slide.
 *
 * @param sourcePart - the template slide copied, undefined for a slide made from a layout
 */
export function slideQuality(input: SlideQualityInput): { findings: QualityFinding[]; title: SlideTitle } | undefined {
  const { src, model, layoutPart, draft, sourcePart, rels, outSlide, options, out } = input;
  const { doc, stubs, sourceOf } = draft;
  const tree = shapeTree(doc);
  if (!tree) return undefined;
  // the reading model fitting measured the slide with (its shape list is read only here,
  // after the tree is final)
  const gen: GeneratedSlidePart | undefined = draft.readAs(() => model.layout(layoutPart), outSlide);
  if (!gen) return undefined;
  // theme fonts and palette are made once per theme; no spreads into the contexts
  const { themeFonts, palette } = themeBrand(gen.theme);
  const vocabulary = vocabularyOf(src);
  const outCtx = new WrittenSlideBrand(themeFonts, palette, vocabulary, rels, out);
  let tpl: TemplateSlideQuality | undefined;
  if (stubs && sourcePart) {
    src.lazy.quality ??= new Map();
    tpl = src.lazy.quality.get(sourcePart);
    if (!tpl) {
      const byTop = new Map<Element, TemplateTopQuality>();
      const srcTree = shapeTree(src.pkg.getXml(sourcePart));
      for (const s of model.slide(sourcePart).shapes) {
        const top = topLevelOf(s.element, srcTree);
        if (!top) continue;
        const known = byTop.get(top);
        if (known) known.shapes.push(s);
        else byTop.set(top, { shapes: [s] });
      }
      tpl = { byTop };
      src.lazy.quality.set(sourcePart, tpl);
    }
  }
  // per top-level shape in tree order, the facts the slide-level checks read: a stand-in's
  // (read once per template shape), or a written shape's, read after the loop in the state
  // the checks leave it (its place here kept by `pending`)
  const facts: ShapeSlideFacts[] = [];
  const pending: Array<{ at: number; written: WrittenShape }> = [];
  const findings: QualityFinding[] = [];
  for (let node = tree.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT_NODE) continue;
    const el = node as Element;
    const source = stubs?.get(el);
    if (source && tpl) {
      const stand = tpl.byTop.get(source);
      if (!stand) continue;
      if (!stand.facts) stand.facts = stand.shapes.map((s) => shapeSlideFacts(s));
      if (!stand.findings) {
        const ctx: BrandContext = {
          themeFonts,
          palette,
          vocabulary,
          imageBytes: (shape, rId) => {
            const rel = src.pkg.rel(shape.part.partName, rId);
            return rel && !rel.external && rel.targetPartName && src.pkg.hasPart(rel.targetPartName) ? src.pkg.getBytes(rel.targetPartName) : undefined;
          },
        };
        const found: QualityFinding[] = [];
        for (const s of stand.shapes) found.push(...shapeAccessibility(s, options), ...shapeBrand(s, ctx));
        stand.findings = found;
      }
      for (const f of stand.facts) facts.push(f);
      for (const f of stand.findings) findings.push(f);
      continue;
    }
    // only the written elements are read as shapes: stand-ins were judged on the template
    const written = gen.shapesOf(el);
    for (const s of written) {
      const w = new WrittenShape(s);
      pending.push({ at: facts.length, written: w });
      facts.push(NO_FACTS);
      const m = s.kind === 'sp' && s.group === undefined ? SlideDraft.paragraphsOf(s.txBody) : undefined;
      if (!m || !s.txBody) {
        // (the slide is written already: deferred paragraphs elsewhere may become nodes the reading model reads)
        // (only shapes and groups hold text bodies: a table's frame is not walked)
        if (s.kind === 'sp' || s.kind === 'grpSp') for (const txBody of descendants(s.element, NS.p, 'txBody')) materializeParagraphs(doc, txBody);
        for (const f of shapeAccessibility(s, options)) findings.push(f);
        for (const f of shapeBrand(s, outCtx)) findings.push(f);
        continue;
      }
      // a filled text shape: what is judged (colours, fonts, sizes) is its template's formatting
      // and the fitted sizes, the same on every slide filled from that shape; kept by the
      // template element it was filled from and the layout (a master placeholder serves several
      // layouts, whose backgrounds differ), then compared field by field with the latest
      // variants seen (no key string built and hashed per shape)
      src.lazy.filledQuality ??= new WeakMap();
      const from: object = sourceOf?.get(el) ?? s.basePlaceholder?.element ?? src.lazy;
      let byLayout = src.lazy.filledQuality.get(from);
      if (!byLayout) src.lazy.filledQuality.set(from, (byLayout = new Map()));
      let variants = byLayout.get(layoutPart);
      if (!variants) byLayout.set(layoutPart, (variants = []));
      const fontScale = attr(child(child(s.txBody, NS.a, 'bodyPr'), NS.a, 'normAutofit'), 'fontScale');
      const withText = hasText(m.lines);
      // what lies behind the text depends on where the box is
      const frame = w.frame;
      let known: QualityFinding[] | undefined;
      for (const v of variants) {
        if (v.runProps === m.runProps && v.paraProps === m.paraProps && v.fontScale === fontScale && v.minTextPt === options.minTextPt && v.withText === withText && sameFrame(v.frame, frame) && sameRunSizes(v.sizes, m.sizes)) {
          known = v.findings;
          break;
        }
      }
      if (!known) {
        materializeParagraphs(doc, s.txBody);
        known = [...shapeAccessibility(s, options), ...shapeBrand(s, outCtx)];
        // bounded: the latest variants of formatting, fitted sizes and box
        if (variants.length >= MAX_FILLED_VARIANTS) variants.pop();
        variants.unshift({ runProps: m.runProps, paraProps: m.paraProps, sizes: runSizesOf(m.sizes), fontScale, minTextPt: options.minTextPt, withText, frame, findings: known });
      }
      for (const f of known) findings.push({ ...f, shape_id: s.id, shape_name: s.name });
    }
  }
  for (const { at, written } of pending) facts[at] = shapeSlideFacts(written.shape, written.knownFrame);
  const slide = slideAccessibilityOf(facts, -1);
  for (const f of slide.findings) findings.push(f);
  return { findings, title: slide.title };
}

/** A place held in a slide's facts until the written shape's are read. */
const NO_FACTS: ShapeSlideFacts = { title: undefined, placed: undefined };
