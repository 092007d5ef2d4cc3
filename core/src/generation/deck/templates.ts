/**
 * The templates one deck build reads: each template package of the request opened once
 * (kept between builds on this thread, by the SHA-256 of its bytes, in generation's slot of
 * the thread's registry, ooxml/pml/opened-templates.ts), with what the build learns about it
 * once however often it is used (content keys of its parts, placeholders, new slides made
 * from its layouts, facts about its slides, its vocabulary, quality findings of its shapes,
 * its pictures past the pixel limits as delivered). Its reading model is the registry's
 * model of the package object ({@link modelOf}), not one of its own.
 */
import type { Document, Element } from '../../ooxml/xml.js';
import { NS, attr, child, children, intAttr } from '../../ooxml/xml.js';
import { PackageError } from '../../ooxml/errors.js';
import { repairTemplateParts } from '../../ooxml/repair.js';
import { CT, RT } from '../../ooxml/opc/constants.js';
import { OpcPackage } from '../../ooxml/opc/package.js';
import type { PmlModel } from '../../ooxml/pml/parts.js';
import { headerPlaceholderOfPart } from '../../doctor/header.js';
import type { Shape } from '../../ooxml/pml/shapes.js';
import { templateVocabulary, type TemplateVocabulary } from '../../quality/brand.js';
import type { QualityFinding } from '../../quality/types.js';
import type { ShapeSlideFacts } from '../../quality/accessibility.js';
import { sortByPosition } from '../slide/fill-slide.js';
import { placeholders, shapeIdStats, shapeTree, type PlaceholderShape } from '../slide/shapes.js';
import { DEFAULT_TABLE_STYLE_ID, frameTable, tableStyleIds } from '../slide/tables.js';
import { TEMPLATE_PICTURE_LIMITS, type DeliveredPicture, type TemplatePictureLimits } from './picture-limits.js';
import { SlideFailure } from './slide-failure.js';
import { OpenedTemplates, openedTemplates as threadTemplates } from '../../ooxml/pml/opened-templates.js';

/** What is known about a template's bytes whatever id a request gives it (kept between builds). */
type OpenedTemplate = Omit<TemplateSource, 'id'>;

/** Opened templates of earlier builds on this thread: generation's slot in the thread's registry (ooxml/pml/opened-templates.ts). */
const openedTemplates = threadTemplates.slot<OpenedTemplate>('generation');

/**
 * A template this thread has open, held for one build so that the build reads it even if
 * the thread's registry lets it go meanwhile (a deck of more templates than the registry
 * keeps). Opaque outside this module.
 */
export interface KeptTemplate {
  readonly opened: OpenedTemplate;
}

/**
 * The template this thread keeps open under `key` (the SHA-256 of its bytes, hex), held for
 * a build ({@link BuildDeckInput.kept}); undefined when this thread has not opened those
 * bytes or has let them go. Counts as a use (the registry keeps recently used templates).
 */
export function keptTemplate(key: string): KeptTemplate | undefined {
  const opened = openedTemplates.get(key);
  return opened ? { opened } : undefined;
}

export interface TemplateSource {
  id: string;
  pkg: OpcPackage;
  mainPart: string;
  /** Deep content keys by part name. */
  keys: Map<string, string>;
  /** Placeholders of layouts and masters by part name. */
  phs: Map<string, PlaceholderShape[]>;
  /** Unfilled new slides made from layouts, by layout part name (copied for each use). */
  newSlides: Map<string, Document>;
  /** Facts about source slides, by part name. */
  slideInfo: Map<string, SourceSlideInfo>;
  /** `p:sldSz` (EMU). */
  slideSize: { cx: number; cy: number } | undefined;
  tableStylesPart: string | undefined;
  /**
   * Made on first use and shared by every build reusing the template: whether its reading
   * model cannot be built (so a build does not try again for every slide); the fonts and
   * colours its own parts use.
   */
  lazy: { unreadableModel?: true; vocabulary?: TemplateVocabulary; quality?: Map<string, TemplateSlideQuality>; filledQuality?: WeakMap<object, Map<string, FilledShapeQuality[]>>; headers?: Map<string, LayoutHeaderPlaceholder | null> };
  /** What is delivered for the template's pictures past the pixel limits (default limits only), by part name; made on first use, shared like `lazy`. */
  oversized: Map<string, Promise<DeliveredPicture>>;
}

/** The quality findings of a template slide's shapes, made once: a shape written from the template gives the same findings on every slide. */
export interface TemplateSlideQuality {
  /** What a top-level element of the template slide's shape tree gives when written unchanged, by that element. */
  byTop: Map<Element, TemplateTopQuality>;
}

/** A top-level element of a template slide's shape tree written unchanged: its shapes, and what the checks found in them (made when first written). */
export interface TemplateTopQuality {
  /** The reading-model shapes the element holds (itself, or the shape an `mc:AlternateContent` chooses). */
  shapes: Shape[];
  /** What the slide-level checks read of each shape (title, reading-order box), in order. */
  facts?: ShapeSlideFacts[];
  /** The shapes' accessibility and brand findings, in order. */
  findings?: QualityFinding[];
}

/**
 * The findings of a shape filled from one template element on one layout, with what they
 * depend on: the text's formatting (the deferred paragraphs' property elements, by
 * identity), the fitted run sizes, `normAutofit/@fontScale`, the smallest text size
 * accepted, whether there is text, and the box (what lies behind the text).
 */
export interface FilledShapeQuality {
  runProps: Element | undefined;
  paraProps: Element | undefined;
  /** Per paragraph, the fitted sizes of its runs, hundredths of a point. */
  sizes: number[][] | undefined;
  fontScale: string | undefined;
  /** pt */
  minTextPt: number | undefined;
  withText: boolean;
  /** EMU */
  frame: { x: number; y: number; cx: number; cy: number } | undefined;
  findings: QualityFinding[];
}

export interface SourceSlideInfo {
  /** Largest `p:cNvPr/@id` of the slide. */
  maxShapeId: number;
  duplicateShapeIds: boolean;
  tableStyleIds: string[];
  /** Top-level table frames, left to right then top to bottom (the order table blocks fill them). */
  tableFrames: Element[];
}

/** The templates of one build, by the ids the request gives them. */
export class DeckTemplates {
  private readonly opened = new Map<string, TemplateSource | SlideFailure>();

  /**
   * @param templates - template package bytes by template id
   * @param reuseOpened - reuse (and keep) templates opened by builds on this thread
   * @param pictureLimits - what template pictures are held to
   * @param kept - templates this thread already has open, by template id (see {@link keptTemplate}); used before `templates`
   */
  constructor(
    private readonly templates: ReadonlyMap<string, Uint8Array>,
    private readonly reuseOpened: boolean,
    private readonly pictureLimits: TemplatePictureLimits,
    private readonly kept: ReadonlyMap<string, KeptTemplate> = new Map(),
  ) {}

  /**
   * The template `id` of the request, opened once per build (and, unless the build says
   * otherwise, reused from an earlier build on this thread with the same bytes).
   *
   * @throws SlideFailure `template_not_found` (no bytes given), `template_unreadable`
   */
  async get(id: string): Promise<TemplateSource> {
    const cached = this.opened.get(id);
    if (cached instanceof SlideFailure) throw cached;
    if (cached) return cached;
    const held = this.reuseOpened ? this.kept.get(id)?.opened : undefined;
    if (held) {
      const source: TemplateSource = { ...held, id, oversized: this.pictureLimits === TEMPLATE_PICTURE_LIMITS ? held.oversized : new Map() };
      this.opened.set(id, source);
      return source;
    }
    const bytes = this.templates.get(id);
    let result: TemplateSource | SlideFailure;
    if (!bytes) result = new SlideFailure('template_not_found', `template ${id} was not provided`);
    else {
      const key = this.reuseOpened ? OpenedTemplates.keyOf(bytes) : undefined;
      const known = key ? openedTemplates.get(key) : undefined;
      if (known) {
        const source: TemplateSource = { ...known, id, oversized: this.pictureLimits === TEMPLATE_PICTURE_LIMITS ? known.oversized : new Map() };
        this.opened.set(id, source);
        return source;
      }
      try {
        const pkg = await OpcPackage.open(bytes);
        const mainPart = pkg.relatedPartName('/', RT.officeDocument);
        if (!mainPart || !pkg.hasPart(mainPart)) throw new PackageError('not_presentation', 'the package has no main presentation part');
        // the template as analysis repaired it (content types, package and presentation relationships); its slides are repaired as they are used
        repairTemplateParts(pkg, []);
        const pres = pkg.getXml(mainPart).documentElement!;
        const sz = child(pres, NS.p, 'sldSz');
        result = {
          id,
          pkg,
          mainPart,
          keys: new Map(),
          phs: new Map(),
          slideInfo: new Map(),
          newSlides: new Map(),
          slideSize: sz ? { cx: intAttr(sz, 'cx', 0), cy: intAttr(sz, 'cy', 0) } : undefined,
          tableStylesPart: pkg.relatedPartName(mainPart, RT.tableStyles),
          lazy: {},
          oversized: new Map(),
        };
        if (key) openedTemplates.set(key, result, pkg.totalBytes());
        // pictures made under other limits are this build's own, never the cached template's
        if (this.pictureLimits !== TEMPLATE_PICTURE_LIMITS) result = { ...result, oversized: new Map() };
      } catch (err) {
        result = new SlideFailure('template_unreadable', `template ${id} cannot be read: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
    }
    this.opened.set(id, result);
    if (result instanceof SlideFailure) throw result;
    return result;
  }

  /** Typefaces (lower case) and `RRGGBB` colours the templates of the deck use in their slides, layouts, masters and themes. */
  vocabulary(): { fonts: string[]; colors: string[] } {
    const fonts = new Set<string>();
    const colors = new Set<string>();
    for (const src of this.opened.values()) {
      if (src instanceof SlideFailure) continue;
      const vocabulary = vocabularyOf(src);
      for (const f of vocabulary.fonts) fonts.add(f);
      for (const c of vocabulary.colors) colors.add(c);
    }
    return { fonts: [...fonts].sort(), colors: [...colors].sort() };
  }
}

/** The fonts and colours a template's slides, layouts, masters and themes use (made once per template). */
export function vocabularyOf(src: TemplateSource): TemplateVocabulary {
  return (src.lazy.vocabulary ??= templateVocabulary(src.pkg, [CT.slide, CT.slideLayout, CT.slideMaster, CT.theme].flatMap((ct) => src.pkg.partsOfType(ct))));
}

export function placeholdersOf(src: TemplateSource, part: string): PlaceholderShape[] {
  let phs = src.phs.get(part);
  if (!phs) {
    phs = placeholders(shapeTree(src.pkg.getXml(part)));
    src.phs.set(part, phs);
  }
  return phs;
}

/**
 * The template's reading model (for measuring text): the thread registry's model of the
 * template's package object, which lives as long as the package does, so a kept template
 * holds no model of its own; undefined when the model cannot be built.
 */
export function modelOf(src: TemplateSource): PmlModel | undefined {
  if (src.lazy.unreadableModel) return undefined;
  try {
    return threadTemplates.modelOf(src.pkg);
  } catch {
    src.lazy.unreadableModel = true;
    return undefined;
  }
}

/** A layout's header-like placeholder: its `p:ph` type and idx and its `p:cNvPr/@id` on the layout. */
export interface LayoutHeaderPlaceholder {
  type: string;
  idx: number;
  shapeId: number;
}

/**
 * The header-like placeholder of a layout by the doctor's rule (`headerLikePlaceholder`,
 * core/src/doctor/header.ts), made once per layout and shared like the model; undefined
 * when the layout has none or cannot be read.
 */
export function layoutHeaderPlaceholder(src: TemplateSource, layoutPart: string): LayoutHeaderPlaceholder | undefined {
  src.lazy.headers ??= new Map();
  let found = src.lazy.headers.get(layoutPart);
  if (found === undefined) {
    found = null;
    const model = modelOf(src);
    if (model) {
      try {
        const layout = model.layout(layoutPart);
        const hit = headerPlaceholderOfPart(layout, { cx: model.presentation.slideWidthEmu, cy: model.presentation.slideHeightEmu });
        if (hit) found = { type: hit.type, idx: hit.idx, shapeId: hit.shapeId };
      } catch {
        found = null;
      }
    }
    src.lazy.headers.set(layoutPart, found);
  }
  return found ?? undefined;
}

/** Facts about a source slide computed once however often the slide is used. */
export function sourceSlideInfo(src: TemplateSource, part: string): SourceSlideInfo {
  let info = src.slideInfo.get(part);
  if (!info) {
    const doc = src.pkg.getXml(part);
    const ids = shapeIdStats(doc);
    const tree = shapeTree(doc);
    const frames = tree ? children(tree, NS.p, 'graphicFrame').filter((f) => frameTable(f) !== undefined) : [];
    info = { maxShapeId: ids.max, duplicateShapeIds: ids.duplicates, tableStyleIds: tableStyleIds(doc), tableFrames: sortByPosition(frames) };
    src.slideInfo.set(part, info);
  }
  return info;
}

export function defaultTableStyle(src: TemplateSource): string {
  const def = src.tableStylesPart && src.pkg.hasPart(src.tableStylesPart) ? attr(src.pkg.getXml(src.tableStylesPart).documentElement!, 'def') : undefined;
  const id = def && def.trim() ? def.trim() : DEFAULT_TABLE_STYLE_ID;
  return id;
}
