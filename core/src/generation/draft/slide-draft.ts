/**
 * The slide being written, as one object (issue 19, item 2): its tree, the template
 * children it writes unchanged (stand-ins, `clone.ts`), the template shape each copied
 * shape came from, the paragraphs and table rows it keeps as small models
 * (`deferred-paragraphs.ts`, `deferred-rows.ts`), how fitting reads its text (`read.ts`),
 * its reading-model view ({@link GeneratedSlidePart}) and its serialization
 * (`serialize.ts`). Filling, fitting and the deck writer go through it rather than through
 * the draft's modules one by one.
 */
import { NS, child, type Document, type Element } from '../../ooxml/xml.js';
import { ShapeTreePart, type LayoutPart, type MasterPart } from '../../ooxml/pml/parts.js';
import { IDENTITY, Shape, layoutBasePlaceholder, masterBasePlaceholder, type PlaceholderRef } from '../../ooxml/pml/shapes.js';
import type { TextStyleSources } from '../../ooxml/pml/text-style.js';
import type { TextBodyInput } from '../../text/layout.js';
import { cloneDocument, cloneWithStubs } from './clone.js';
import { deferredParagraphs, keepsRunAttribute, keepsRunChild, paragraphMarkers, type DeferredParagraphs } from './deferred-paragraphs.js';
import { deferredRows, MERGE_ATTRS, rowMarkers, type DeferredCell, type DeferredRows } from './deferred-rows.js';
import { readDeferredTextBody, readDraftTextBody } from './read.js';
import { serializeDocument, serializeDocumentBytes, type SerializedBytes } from './serialize.js';

export type { DeferredCell, DeferredParagraphs, DeferredRows };

/** A slide draft: a tree being filled and fitted before it is written as a slide part. */
export class SlideDraft {
  private viewOf: GeneratedSlidePart | undefined;

  /**
   * @param doc - the slide's tree (`p:sld`)
   * @param stubs - stand-ins in `doc` for template children written unchanged, with the template element each stands for
   * @param sourceOf - the template shape each copied shape of `doc` came from
   */
  constructor(
    readonly doc: Document,
    readonly stubs?: Map<Element, Element>,
    readonly sourceOf?: ReadonlyMap<Element, Element>,
  ) {}

  /** A draft holding a full copy of `src` (a slide made from a layout, or a template slide every shape of which may change). */
  static copyOf(src: Document): SlideDraft {
    return new SlideDraft(cloneDocument(src));
  }

  /**
   * A draft of the template slide `src` in which only the shapes `edited` selects are
   * copied (see `cloneWithStubs`: true copies a shape whole, a function copies it without
   * the descendants it selects); the others stay in the template and are written from there.
   */
  static withStandIns(src: Document, edited: Parameters<typeof cloneWithStubs>[1]): SlideDraft {
    const { doc, stubs, sources } = cloneWithStubs(src, edited);
    return new SlideDraft(doc, stubs, sources);
  }

  /** The slide's root element (`p:sld`). */
  get root(): Element {
    return this.doc.documentElement!;
  }

  /**
   * The draft seen by the reading model as a slide of `layout` named `partName` (made once;
   * undefined when the layout cannot be read).
   */
  readAs(layout: () => LayoutPart, partName: string): GeneratedSlidePart | undefined {
    if (!this.viewOf) {
      try {
        this.viewOf = new GeneratedSlidePart(layout(), this.root, partName, this);
      } catch {
        return undefined;
      }
    }
    return this.viewOf;
  }

  /** The template element a stand-in of this draft stands for. */
  standInFor(el: Element): Element | undefined {
    return this.stubs?.get(el);
  }

  /** The paragraphs a text body keeps as a model, if it does. */
  static paragraphsOf(txBody: Element | undefined): DeferredParagraphs | undefined {
    return deferredParagraphs(txBody);
  }

  /** The rows a table (`a:tbl`) keeps as a model, if it does. */
  static rowsOf(tbl: Element | undefined): DeferredRows | undefined {
    return deferredRows(tbl);
  }

  /** The paragraphs `el` stands for when it is the marker of a paragraph model (undefined for any other element). */
  static paragraphsStoodForBy(el: Element): DeferredParagraphs | undefined {
    return paragraphMarkers.modelOf(el);
  }

  /**
   * Keeps `model` as the paragraphs of `txBody` (a text body of `doc` holding no
   * paragraphs: after its `a:bodyPr` and `a:lstStyle`, where `a:p` go, §21.1.2.1.1).
   */
  static keepParagraphs(doc: Document, txBody: Element, model: DeferredParagraphs): void {
    txBody.appendChild(paragraphMarkers.create(doc, model));
  }

  /** Drops the paragraph model `txBody` keeps, if any (its `a:p` nodes are the caller's). */
  static dropParagraphs(txBody: Element): void {
    const marker = paragraphMarkers.markerIn(txBody);
    if (marker) txBody.removeChild(marker);
  }

  /**
   * Replaces the paragraph model `txBody` keeps with the `a:p` nodes `build` makes of it,
   * in its place; a body without a model is left alone.
   */
  static expandParagraphs(txBody: Element, build: (model: DeferredParagraphs) => Element[]): void {
    paragraphMarkers.expandIn(txBody, build);
  }

  /**
   * Keeps `model` as the rows of `tbl` (an `a:tbl` of `doc`), where `a:tr` go: before its
   * `a:extLst` (§21.1.3.13), replacing a model it kept (its `a:tr` nodes are the caller's).
   */
  static keepRows(doc: Document, tbl: Element, model: DeferredRows): void {
    const old = rowMarkers.markerIn(tbl);
    if (old) tbl.removeChild(old);
    const marker = rowMarkers.create(doc, model);
    const trailing = child(tbl, NS.a, 'extLst');
    if (trailing) tbl.insertBefore(marker, trailing);
    else tbl.appendChild(marker);
  }

  /**
   * Replaces the row model `tbl` keeps with the `a:tr` nodes `build` makes of it, in its
   * place; a table without a model is left alone.
   */
  static expandRows(tbl: Element, build: (model: DeferredRows) => Element[]): void {
    rowMarkers.expandIn(tbl, build);
  }

  /** Whether a run-properties copy in a draft keeps an attribute of its template (spell-check marks and `dirty` are left out). */
  static readonly keepsRunAttribute = keepsRunAttribute;

  /** Whether a run-properties copy in a draft keeps a child of its template (hyperlinks are left out). */
  static readonly keepsRunChild = keepsRunChild;

  /** Cell attributes a cell of a row model does not take from its template (merges are not carried over). */
  static readonly MERGE_ATTRS = MERGE_ATTRS;

  /** A text body of the draft as layout input, its paragraphs read from their model or their nodes. */
  readTextBody(txBody: Element | undefined, src: TextStyleSources): TextBodyInput {
    return readDraftTextBody(txBody, src);
  }

  /** Paragraphs kept as a model that are not in the tree (a table cell of a row model), as layout input. */
  readParagraphs(model: DeferredParagraphs, src: TextStyleSources): TextBodyInput {
    return readDeferredTextBody(model, this.doc, src);
  }

  /** The slide part's XML: models written as the nodes they stand for, stand-ins as the template's text. */
  serialize(): string {
    return serializeDocument(this.doc, this.stubs);
  }

  /**
   * {@link serialize} as UTF-8 bytes, with the ranges that repeat template text (the
   * package check reads each of those once per template element, not once per slide).
   */
  serializeBytes(): SerializedBytes {
    return serializeDocumentBytes(this.doc, this.stubs);
  }
}

/**
 * A slide being generated, seen by the reading model: its shapes inherit from `layout`
 * (and its master) exactly as a slide part's do (§19.3.1.36), although the slide is not
 * (yet) a part of any package.
 */
export class GeneratedSlidePart extends ShapeTreePart {
  readonly kind = 'slide' as const;

  /** @param draft - the draft whose tree `root` is (by default a draft of `root`'s document alone) */
  constructor(
    readonly layoutPart: LayoutPart,
    root: Element,
    partName: string,
    readonly draft: SlideDraft = new SlideDraft(root.ownerDocument!),
  ) {
    super(layoutPart.model, partName, root);
  }

  get master(): MasterPart {
    return this.layoutPart.masterPart;
  }

  get parent(): ShapeTreePart {
    return this.layoutPart;
  }

  /** As a slide part's placeholders inherit ({@link layoutBasePlaceholder}, else the master's). */
  basePlaceholderFor(ph: PlaceholderRef): Shape | undefined {
    return layoutBasePlaceholder(this.layoutPart.placeholderLookup, ph) ?? masterBasePlaceholder(this.layoutPart.masterPart.placeholderLookup, ph.type);
  }

  /**
   * A stand-in is read as the template element it stands for: the slide's shapes include
   * the template shapes written unchanged (what lies under a filled shape, for one), read
   * from the template's tree; the draft's own elements are read as they are.
   */
  protected override shapeElementOf(el: Element): Element {
    return this.draft.standInFor(el) ?? el;
  }

  /** A reading-model view of one top-level `p:sp` of this slide. */
  shapeOf(sp: Element): Shape {
    return new Shape('sp', sp, this, undefined, IDENTITY);
  }
}
