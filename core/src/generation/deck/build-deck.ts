/**
 * Deck assembly: slides copied from template slides or made from slide layouts, from one
 * or several template packages, filled with the request's content and written as one
 * presentation (ECMA-376 Part 1, §13.3.6 presentation part, §19.2.1 `p:presentation`).
 *
 * - The output starts from the first slide's template: its presentation part (slide
 *   size, default text style, ...), presProps, viewProps, tableStyles and document
 *   properties. Its own slides, comments, custom shows and sections are not kept.
 * - Each slide brings the closure of its relationships: its layout, that layout's master
 *   and theme, pictures, charts with their workbooks, OLE objects, diagrams, hyperlinks.
 *   Comments, slide-to-slide links, macros and signatures are dropped, and every reference
 *   to a dropped relationship is removed with it.
 * - Speaker notes (issue 24): `slide_data.notes` gives a slide a notes slide written from
 *   it (./notes.ts; an empty string gives none); without it a copied template slide keeps
 *   its template notes slide. The deck has one notes master (PowerPoint allows one): the
 *   base template's, else that of the first template with one whose slide has notes, else
 *   a minimal one (./notes.ts) on a copy of the first slide master's theme; a notes master
 *   always has a theme part of its own (§13.3.4).
 * - Layouts, masters, themes and binary parts (media, OLE) are shared: stored once per
 *   content (SHA-1 over the part and, recursively, what it relates to), so two slides on
 *   one layout, or two templates with an identical master, share parts. A master keeps only
 *   the layouts the deck uses.
 * - Each template package is opened once and each source part parsed once; slides are
 *   cloned DOM trees.
 * - A template slide the template hides (`p:sld/@show` false, §19.3.1.38) is generated
 *   shown: the request asked for it. It is warned as `hidden_template_slide`.
 * - Template pictures past the pixel limits (50 megapixels, 32767 px a side) are never
 *   copied as they are: a downsampled copy or a plain stand-in takes their place, warned
 *   as `image_too_large` (see ./picture-limits.ts).
 */
import { createHash } from 'node:crypto';
import type { GenerationOptions, SlideData, SlideError, SlideWarning } from '../../domain/content.js';
import { PackageError } from '../../ooxml/errors.js';
import { repairTemplateParts } from '../../ooxml/repair.js';
import { CT, RT } from '../../ooxml/opc/constants.js';
import { OpcPackage } from '../../ooxml/opc/package.js';
import { appendRelationship, RelIdAllocator, type RelationshipDraft } from '../../ooxml/opc/relationships.js';
import { compressEntry } from '../../ooxml/opc/zip-codec.js';
import { extensionOf } from '../../ooxml/opc/part-names.js';
import { NS, attr, child, children, createElement, decodeXmlBytes, descendants, insertInOrder, intAttr, parseXml, type Document, type Element } from '../../ooxml/xml.js';
import { fillSlide, newSlideFromLayout, sortByPosition } from '../slide/fill-slide.js';
import { blockFailure, hasChartBlocks, isChartFrame, SlideRichContent, type BlockErrorCode, type RichHost } from '../charts/blocks.js';
import { PmlModel } from '../../ooxml/pml/parts.js';
import { GeneratedSlidePart } from '../fit/text-fit.js';
import { finishSlide, measureShapeText, type FilledShape } from '../slide/finish-slide.js';
import { isTableOnly, pageSlideData, type PaginationPlan } from '../fit/paginate.js';
import { cloneDocument, cloneInto, cloneRootWithStubs, cloneWithStubs } from '../draft/clone.js';
import { serializeDocument } from '../draft/serialize.js';
import { TemplateCache } from './template-cache.js';
import { cNvPr as cNvPrOf, placeholderElement, placeholders, renumberDuplicateShapeIds, shapeIdStats, shapeTree, type PlaceholderShape } from '../slide/shapes.js';
import { materializeParagraphs, plainText } from '../slide/text.js';
import { deliverOversizedPicture, planOversizedPicture, TEMPLATE_PICTURE_LIMITS, type DeliveredPicture, type OversizedPicture, type TemplatePictureLimits } from './picture-limits.js';
import { DEFAULT_TABLE_STYLE_ID, frameTable, tableStyleIds } from '../slide/tables.js';
import { shapeBrand, templateVocabulary, themeBrand, type BrandContext, type TemplateVocabulary } from '../../quality/brand.js';
import { shapeAccessibility, slideAccessibility, type SlideTitle } from '../../quality/accessibility.js';
import type { QualityFinding } from '../../quality/types.js';
import { checkSlideText, type PackageProblem } from '../../quality/package.js';
import { deferredParagraphs } from '../draft/deferred-paragraphs.js';
import type { Shape } from '../../ooxml/pml/shapes.js';
import { DEFAULT_NOTES_SIZE, minimalNotesMasterXml, minimalThemeXml, notesSlideXml } from './notes.js';

/** One slide of the deck to build. */
export interface DeckSlideSpec {
  /** Which template package (a key of {@link BuildDeckInput.templates}) the slide comes from. */
  template_id: string;
  /** The requested template slide id; echoed into errors. */
  template_slide_id: string;
  /** A template slide to copy, or a slide layout to make a new slide from (absolute part names). */
  source: { kind: 'slide' | 'layout'; part_name: string };
  slide_data: SlideData;
  /** Already effective: per-slide options replace the deck's. */
  options: GenerationOptions;
}

export interface BuildDeckInput {
  /** In deck order. */
  slides: DeckSlideSpec[];
  /** Template package bytes by template id. */
  templates: ReadonlyMap<string, Uint8Array>;
  /**
   * Reuse templates opened by earlier builds on this thread (and keep these for later
   * ones), matched by the SHA-256 of their bytes; default true.
   */
  reuseOpenedTemplates?: boolean;
  /**
   * The quality report's per-slide checks (accessibility, brand; core/src/quality), run on
   * each slide's tree while it is built (default on; `false` skips them).
   */
  quality?: { minTextPt?: number } | false;
  /**
   * What template pictures are held to (default {@link TEMPLATE_PICTURE_LIMITS}: 50
   * megapixels, 32767 px a side); tests pass smaller limits. Builds with other limits
   * neither reuse nor keep opened templates' downsampled pictures.
   */
  pictureLimits?: TemplatePictureLimits;
}

export interface BuildDeckResult {
  /** The .pptx (presentation main content type, ECMA-376 Part 1 §13.3.6), or undefined when every slide failed. */
  bytes: Uint8Array | undefined;
  /** Slides written (equals the requested slides minus the failed ones until tables paginate). */
  pages_generated: number;
  /** One entry per slide that could not be built (`slide_index` is 0-based in the request). */
  errors: SlideError[];
  /**
   * Text still overflowing at the minimum size, content that could not be placed,
   * slide-size mismatches, ... (`slide_index` 0-based in the request, -1 for the deck).
   */
  warnings: SlideWarning[];
  /** One record per slide written, in deck order (what the quality report's `fit` check reads). */
  slides: DeckSlideRecord[];
  /** Typefaces and explicit colours of the templates the slides came from (the quality report's `brand` check). */
  vocabulary: { fonts: string[]; colors: string[] };
}

/** How one placeholder or text shape of a deck slide was fitted. */
export interface PlaceholderFitRecord {
  /** `p:cNvPr/@id` of the filled shape. */
  shape_id: number;
  shape_name: string;
  /** What filled it: title, subtitle, body, textbox, footer, header, column_header or table. */
  role: string;
  /** The template's (or `slide_format`'s) largest run size, pt. */
  template_size_pt: number;
  /** The largest run size written, pt. */
  size_pt: number;
  /** How far the text still runs past its box at that size, pt (0 when it fits). */
  overflow_pt: number;
}

/** A slide written to the deck. */
export interface DeckSlideRecord {
  /** The deck's slide part. */
  part_name: string;
  /** 0-based index of the request slide it was made for (several deck slides share one when a table paginates). */
  slide_index: number;
  template_slide_id: string;
  fits: PlaceholderFitRecord[];
  /** The slide's accessibility and brand findings (`slide_index` -1: the report sets it), when the build ran them. */
  findings?: QualityFinding[];
  /** The slide's title as the accessibility check read it. */
  title?: SlideTitle;
  /** What the package check found in the slide's text as written (core/src/quality/package.ts `checkSlideText`), when the build ran it. */
  package_problems?: PackageProblem[];
}

/** Why a slide could not be built; becomes a {@link SlideError}. */
export class SlideFailure extends Error {
  override readonly name = 'SlideFailure';
  constructor(
    readonly code: 'template_not_found' | 'template_unreadable' | 'source_not_found' | 'source_wrong_type' | 'source_corrupt' | 'generation_failed' | BlockErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Relationship types never carried into a generated deck. */
const DROPPED_REL_TYPES: ReadonlySet<string> = new Set([
  RT.notesSlide,
  RT.notesMaster,
  RT.handoutMaster,
  RT.comments,
  RT.commentAuthors,
  'http://schemas.microsoft.com/office/2018/10/relationships/comments',
  'http://schemas.microsoft.com/office/2018/10/relationships/authors',
  RT.vbaProject,
  'http://schemas.microsoft.com/office/2006/relationships/vbaProjectSignature',
  RT.digitalSignatureOrigin,
  `${PKG_REL}/digital-signature/signature`,
  `${PKG_REL}/metadata/thumbnail`,
  RT.slide,
  `${OFFICE_REL}/customXml`,
  `${OFFICE_REL}/printerSettings`,
  `${OFFICE_REL}/slideUpdateInfo`,
]);

/**
 * Parts that are never copied as the target of an ordinary relationship (a hyperlink to
 * another slide): the deck decides which slides, layouts and masters it has.
 */
const STRUCTURAL_CONTENT_TYPES: ReadonlySet<string> = new Set([
  CT.slide,
  CT.slideLayout,
  CT.slideMaster,
  CT.notesSlide,
  CT.notesMaster,
  CT.presentationMain,
  CT.templateMain,
  CT.slideshowMain,
  CT.macroPresentationMain,
  CT.macroTemplateMain,
  CT.macroSlideshowMain,
]);

const CUSTOM_PROPERTIES_REL = `${OFFICE_REL}/custom-properties`;
const FONT_REL = `${OFFICE_REL}/font`;
/** `p14:sectionLst` extension of `p:presentation/p:extLst` (lists slide ids of the template). */
const SECTION_LIST_EXT_URI = '{521415D9-36F7-43E2-AB2F-B90AF26B5E84}';
/** First id of `p:sldMasterId`/`p:sldLayoutId` (ST_SlideMasterId, §19.7.17: ≥ 2^31). */
const FIRST_MASTER_OR_LAYOUT_ID = 2_147_483_648;
/** Children of `p:sldMaster` that a deck edits (§19.3.1.42): the rest is written from the template. */
const MASTER_EDITED_CHILDREN: ReadonlySet<string> = new Set(['sldLayoutIdLst']);
/** First `p:sldId/@id` (ST_SlideId, §19.7.13: 256 ≤ id < 2^31). */
const FIRST_SLIDE_ID = 256;

function isDroppedContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  return ct === CT.vbaProject || /macroEnabled|digital-signature/i.test(ct);
}

function isXmlContentType(ct: string | undefined): boolean {
  return !!ct && (ct.endsWith('+xml') || ct.endsWith('/xml'));
}

/** A relationship as `OpcPackage.setRels` takes it. */
type RelOut = RelationshipDraft;

/** What is known about a template's bytes whatever id a request gives it (kept between builds). */
type OpenedTemplate = Omit<TemplateSource, 'id'>;

/** Opened templates of earlier builds on this thread (see template-cache.ts). */
const openedTemplates = new TemplateCache<OpenedTemplate>();

interface TemplateSource {
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
   * Made on first use and shared by every build reusing the template: the reading model
   * (for measuring text), null when it cannot be read; the fonts and colours its own parts use.
   */
  lazy: { model?: PmlModel | null; vocabulary?: TemplateVocabulary; quality?: Map<string, TemplateSlideQuality>; filledQuality?: Map<string, QualityFinding[]> };
  /** What is delivered for the template's pictures past the pixel limits (default limits only), by part name; made on first use, shared like `lazy`. */
  oversized: Map<string, Promise<DeliveredPicture>>;
}

/** A template picture past the pixel limits, copied into the deck as an empty part until it is made ({@link DeckWriter.deliverPictures}). */
interface PendingPicture {
  src: TemplateSource;
  /** The template's part. */
  part: string;
  /** The deck's part. */
  outName: string;
  /** The part whose relationship brought it. */
  from: string | undefined;
  plan: OversizedPicture;
}

/**
 * The warnings of one requested slide built as several pages, one per cause: the same
 * warning (code and message) raised on several pages is kept once, saying on which pages
 * ("on pages 1–13 of 13"), instead of once per page.
 *
 * @param pageOf - the page (0-based) each warning was raised on
 */
function oncePerCause(warnings: readonly SlideWarning[], pageOf: readonly number[], pageCount: number): SlideWarning[] {
  const byCause = new Map<string, { warning: SlideWarning; pages: number[] }>();
  warnings.forEach((w, i) => {
    const key = `${w.code}\u0000${w.message}`;
    const seen = byCause.get(key);
    if (seen) seen.pages.push(pageOf[i] ?? 0);
    else byCause.set(key, { warning: w, pages: [pageOf[i] ?? 0] });
  });
  return [...byCause.values()].map(({ warning, pages }) => {
    if (pages.length < 2) return warning;
    const first = pages[0]! + 1;
    const last = pages[pages.length - 1]! + 1;
    const where = pages.length === last - first + 1 ? `pages ${first}–${last}` : `pages ${pages.map((p) => p + 1).join(', ')}`;
    return { ...warning, message: `${warning.message} (on ${where} of ${pageCount})` };
  });
}

/** The quality findings of a template slide's shapes, made once: a shape written from the template gives the same findings on every slide. */
interface TemplateSlideQuality {
  /** The template slide's reading-model shapes by the top-level element of its shape tree that holds them. */
  byTop: Map<Element, Shape[]>;
  findings: Map<Shape, QualityFinding[]>;
}

interface SourceSlideInfo {
  /** Largest `p:cNvPr/@id` of the slide. */
  maxShapeId: number;
  duplicateShapeIds: boolean;
  tableStyleIds: string[];
  /** Top-level table frames, left to right then top to bottom (the order table blocks fill them). */
  tableFrames: Element[];
}

/** The notes slide of one deck slide, written by {@link DeckWriter.finish} once the deck's notes master is known. */
interface NotesPlan {
  /** The template of the deck slide. */
  src: TemplateSource;
  /** The requested slide (0-based index in the request, template slide id), for warnings. */
  slideIndex: number;
  templateSlideId: string;
  /** The deck's slide part. */
  slidePart: string;
  /** The deck's notes slide part. */
  outName: string;
  /** The notes text asked for, or the template notes slide kept (with the template slide it belongs to). */
  content: { text: string } | { part: string; sourceSlide: string };
}

interface MasterRecord {
  /** The template and its master part this record copies. */
  src: TemplateSource;
  srcPart: string;
  outName: string;
  doc: Document;
  /** Stand-ins in `doc` for the template's children written unchanged (see `cloneRootWithStubs`). */
  stubs?: Map<Element, Element>;
  rels: RelOut[];
  /** Output layout part names, in the order they were first used. */
  layouts: string[];
}

/**
 * Builds a deck. Slides that cannot be built are reported in `errors` (with their index
 * and template slide id) and the others are still produced; when none can be built,
 * `bytes` is undefined.
 *
 * @param onProgress - called with the fraction done (0–1) after each slide and at the end
 */
export async function buildDeck(input: BuildDeckInput, onProgress?: (fraction: number) => void): Promise<BuildDeckResult> {
  const writer = new DeckWriter(input.templates, input.reuseOpenedTemplates ?? true, input.pictureLimits ?? TEMPLATE_PICTURE_LIMITS, input);
  const errors: SlideError[] = [];
  const n = input.slides.length;
  // the first slide's template gives the deck its presentation part, even if that slide fails
  if (n > 0) await writer.adoptBaseFrom(input.slides[0]!.template_id);
  for (let i = 0; i < n; i++) {
    const spec = input.slides[i]!;
    try {
      await writer.addSlide(spec, i);
    } catch (err) {
      const f = err instanceof SlideFailure ? err : toFailure(err);
      errors.push({ slide_index: i, template_slide_id: spec.template_slide_id, code: f.code, message: f.message });
    }
    onProgress?.(((i + 1) / Math.max(1, n)) * 0.9);
  }
  if (writer.slideCount === 0) {
    onProgress?.(1);
    return { bytes: undefined, pages_generated: 0, errors, warnings: writer.warnings, slides: [], vocabulary: { fonts: [], colors: [] } };
  }
  const bytes = await writer.finish();
  onProgress?.(1);
  return { bytes, pages_generated: writer.slideCount, errors, warnings: writer.warnings, slides: writer.slideRecords, vocabulary: writer.vocabulary() };
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

/** A number naming an object for cache keys ('' for none). */
function objectId(o: object | undefined): string {
  if (!o) return '';
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = nextObjectId++));
  return String(id);
}

/** The child of `tree` that holds `el` (itself when it is one). */
function topLevelOf(el: Element, tree: Element | undefined): Element | undefined {
  for (let n: Element | null = el; n; n = n.parentNode as Element | null) if (n.parentNode === tree) return n;
  return undefined;
}

function toFailure(err: unknown): SlideFailure {
  const block = blockFailure(err);
  if (block) return new SlideFailure(block.code, block.message);
  if (err instanceof PackageError) {
    const code = err.code === 'missing_part' ? 'source_not_found' : 'source_corrupt';
    return new SlideFailure(code, err.message);
  }
  return new SlideFailure('generation_failed', err instanceof Error ? err.message : String(err));
}

/** Accumulates the output package slide by slide; each slide is all-or-nothing. */
class DeckWriter {
  readonly warnings: SlideWarning[] = [];
  /** The slides written, in deck order, with their fitting outcomes. */
  readonly slideRecords: DeckSlideRecord[] = [];
  private readonly out = OpcPackage.create();
  private readonly opened = new Map<string, TemplateSource | SlideFailure>();
  private readonly sharedBySource = new Map<string, string>();
  private readonly sharedByKey = new Map<string, string>();
  private readonly masters: MasterRecord[] = [];
  private readonly masterByOut = new Map<string, MasterRecord>();
  private readonly slides: string[] = [];
  /** Notes slides of the deck's slides, in slide order. */
  private readonly notes: NotesPlan[] = [];
  private base: TemplateSource | undefined;
  private tableStyles: Document | undefined;
  private readonly sizeWarned = new Set<string>();
  private journal: Array<() => void> | undefined;

  /** Template pictures past the pixel limits copied for the slide being added, made once it is built. */
  private readonly picturesPending: PendingPicture[] = [];

  constructor(
    private readonly templates: ReadonlyMap<string, Uint8Array>,
    private readonly reuseOpened: boolean,
    private readonly pictureLimits: TemplatePictureLimits,
    private readonly input: Pick<BuildDeckInput, 'quality'> = {},
  ) {
    for (const n of ['/ppt/presentation.xml', '/ppt/presProps.xml', '/ppt/viewProps.xml', '/ppt/tableStyles.xml']) this.out.names.reserve(n);
  }

  get slideCount(): number {
    return this.slides.length;
  }

  /** Typefaces (lower case) and `RRGGBB` colours the templates of the deck use in their slides, layouts, masters and themes. */
  vocabulary(): { fonts: string[]; colors: string[] } {
    const fonts = new Set<string>();
    const colors = new Set<string>();
    for (const src of this.opened.values()) {
      if (src instanceof SlideFailure) continue;
      src.lazy.vocabulary ??= templateVocabulary(src.pkg, [CT.slide, CT.slideLayout, CT.slideMaster, CT.theme].flatMap((ct) => src.pkg.partsOfType(ct)));
      for (const f of src.lazy.vocabulary.fonts) fonts.add(f);
      for (const c of src.lazy.vocabulary.colors) colors.add(c);
    }
    return { fonts: [...fonts].sort(), colors: [...colors].sort() };
  }

  private async template(id: string): Promise<TemplateSource> {
    const cached = this.opened.get(id);
    if (cached instanceof SlideFailure) throw cached;
    if (cached) return cached;
    const bytes = this.templates.get(id);
    let result: TemplateSource | SlideFailure;
    if (!bytes) result = new SlideFailure('template_not_found', `template ${id} was not provided`);
    else {
      const key = this.reuseOpened ? TemplateCache.keyOf(bytes) : undefined;
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
        result = new SlideFailure('template_unreadable', `template ${id} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.opened.set(id, result);
    if (result instanceof SlideFailure) throw result;
    return result;
  }

  private record(undo: () => void): void {
    this.journal?.push(undo);
  }

  private placeholdersOf(src: TemplateSource, part: string): PlaceholderShape[] {
    let phs = src.phs.get(part);
    if (!phs) {
      phs = placeholders(shapeTree(src.pkg.getXml(part)));
      src.phs.set(part, phs);
    }
    return phs;
  }

  // ---------------------------------------------------------------- slides

  async addSlide(spec: DeckSlideSpec, index: number): Promise<void> {
    const src = await this.template(spec.template_id);
    const journal: Array<() => void> = [];
    const warningsBefore = this.warnings.length;
    const undo = (): void => {
      for (let i = journal.length - 1; i >= 0; i--) journal[i]!();
      journal.length = 0;
      this.warnings.length = warningsBefore;
      this.richPending.length = 0;
      this.picturesPending.length = 0;
    };
    this.journal = journal;
    try {
      const plan = this.buildSlide(src, spec, index);
      if (plan) {
        // a table-only slide whose rows do not fit: one slide per page, all or nothing
        undo();
        const { pages, sizePt } = plan;
        const pageOf: number[] = [];
        pages.forEach((rows, page) => {
          this.buildSlide(src, { ...spec, slide_data: pageSlideData(spec.slide_data, rows, page) }, index, sizePt);
          while (pageOf.length < this.warnings.length - warningsBefore) pageOf.push(page);
        });
        this.warnings.splice(warningsBefore, Infinity, ...oncePerCause(this.warnings.slice(warningsBefore), pageOf, pages.length));
      }
      // chart parts and workbooks of chart blocks (async: the workbook library)
      for (const rich of this.richPending.splice(0)) await rich.finish();
      // template pictures past the pixel limits (async: decoding)
      await this.deliverPictures(index, spec.template_slide_id);
      this.journal = undefined;
    } catch (err) {
      this.journal = undefined;
      undo();
      throw err;
    }
  }

  /** Chart and image blocks of the slides being added (written before the slide is done). */
  private readonly richPending: SlideRichContent[] = [];

  /** What chart and image blocks of one slide need: its relationships, part names, media storage. */
  private richHost(rels: () => RelOut[], warn: (message: string, code?: string) => void): RichHost {
    return {
      pkg: this.out,
      newPartName: (example) => this.allocate(example, true),
      created: (name) => this.record(() => this.out.removePart(name)),
      addSlideRel: (type, target) => appendRelationship(rels(), type, target),
      slideRelTarget: (rId) => rels().find((r) => r.id === rId && !r.external)?.targetPartName,
      storeMedia: (bytes, contentType, extension) => this.storeMedia(bytes, contentType, extension),
      warn,
    };
  }

  /** A picture part stored once per content (the key {@link contentKey} gives a binary part without relationships). */
  private storeMedia(bytes: Uint8Array, contentType: string, extension: string): string {
    const h = createHash('sha1');
    h.update(contentType);
    h.update('\u0000');
    h.update(bytes);
    const key = h.digest('hex');
    const same = this.sharedByKey.get(key);
    if (same) return same;
    const name = this.allocate(`/ppt/media/image1.${extension}`, true);
    this.sharedByKey.set(key, name);
    this.out.setBytes(name, bytes, contentType);
    this.record(() => {
      this.sharedByKey.delete(key);
      this.out.removePart(name);
    });
    return name;
  }

  private modelOf(src: TemplateSource): PmlModel | undefined {
    if (src.lazy.model === undefined) {
      try {
        src.lazy.model = new PmlModel(src.pkg);
      } catch {
        src.lazy.model = null;
      }
    }
    return src.lazy.model ?? undefined;
  }

  /**
   * Builds one slide into the deck, or decides it must be split: then it returns the
   * {@link PaginationPlan} and what it wrote so far is to be undone (the caller builds one
   * slide per page).
   *
   * @param tablePt - the cell size of a page of a paginated table (the slide is then never
   *   split again)
   */
  private buildSlide(src: TemplateSource, spec: DeckSlideSpec, index: number, tablePt?: number): PaginationPlan | undefined {
    const pkg = src.pkg;
    const partName = spec.source.part_name.startsWith('/') ? spec.source.part_name : `/${spec.source.part_name}`;
    if (!pkg.hasPart(partName)) throw new SlideFailure('source_not_found', `template ${spec.template_id} has no part ${partName}`);
    const ct = pkg.contentType(partName);
    const wanted = spec.source.kind === 'slide' ? CT.slide : CT.slideLayout;
    if (ct !== wanted) throw new SlideFailure('source_wrong_type', `${partName} is a ${ct ?? 'part of unknown type'}, not a ${spec.source.kind}`);
    const layoutPart = spec.source.kind === 'layout' ? partName : pkg.relatedPartName(partName, RT.slideLayout);
    if (!layoutPart || !pkg.hasPart(layoutPart)) throw new SlideFailure('source_corrupt', `${partName} has no slide layout`);
    const masterPart = pkg.relatedPartName(layoutPart, RT.slideMaster);
    if (!masterPart || !pkg.hasPart(masterPart)) throw new SlideFailure('source_corrupt', `${layoutPart} has no slide master`);
    // the parts as analysis repaired them, with what they relate to (core/src/ooxml/repair.ts), before anything reads them
    repairTemplateParts(pkg, [partName, layoutPart, masterPart]);
    const layoutDoc = pkg.getXml(layoutPart);
    const layoutPhs = this.placeholdersOf(src, layoutPart);
    const masterPhs = this.placeholdersOf(src, masterPart);

    if (!this.base) this.adoptBase(src);
    this.checkSlideSize(src);
    const outLayout = this.importShared(src, layoutPart);
    const outSlide = this.allocate('/ppt/slides/slide1.xml', true);

    let doc: Document;
    let rels: RelOut[];
    let stubs: Map<Element, Element> | undefined;
    let reservedShapeIdMax = 0;
    let sourceStyleIds: readonly string[] = [];
    let sourceOf: ReadonlyMap<Element, Element> | undefined;
    let hiddenSource = false;
    if (spec.source.kind === 'slide') {
      const srcDoc = pkg.getXml(partName);
      // `p:sld/@show` (ST_Boolean, §19.3.1.38): false hides the slide in a slide show
      const show = srcDoc.documentElement!.getAttribute('show');
      hiddenSource = show === '0' || show === 'false';
      const info = this.sourceSlideInfo(src, partName);
      const copied = this.copyRels(src, partName, new Map([[partName, outSlide]]), outLayout);
      rels = copied.rels;
      const text = copied.dropped.size ? decodeXmlBytes(pkg.getBytes(partName)) : '';
      const referencesDropped = [...copied.dropped].some((id) => text.includes(`"${id}"`));
      if (info.duplicateShapeIds || referencesDropped) {
        // rare: every shape may need a change, so copy them all
        doc = cloneDocument(srcDoc);
        removeDanglingReferences(doc, copied.dropped);
      } else {
        // shapes the content cannot touch stay in the source and are written from there
        const data = spec.slide_data;
        // table blocks go into the slide's tables left to right (see fillSlide): copy those
        let tableBlocks = 0;
        for (const c of data.content ?? []) for (const b of c.blocks) if (b.type === 'table') tableBlocks++;
        const editedTables = new Set(info.tableFrames.slice(0, tableBlocks));
        const footnote = data.footnote != null;
        const reposition = spec.options.allow_textbox_reposition === true;
        const charts = hasChartBlocks(data);
        let sources: Map<Element, Element>;
        ({ doc, stubs, sources } = cloneWithStubs(srcDoc, (shape) => {
          // a table to be rewritten is copied without its rows: they are read from the source
          if (editedTables.has(shape)) return isTableRow;
          if (placeholderElement(shape)) return true;
          // charts that chart blocks fill (their chart parts are this slide's copies)
          if (charts && isChartFrame(shape)) return true;
          // text boxes a growing table may push down
          // (and text boxes that bound a table's room)
          if ((reposition || tableBlocks > 0) && shape.localName === 'sp') return true;
          return footnote && plainText(shape).toLowerCase().includes('footnote');
        }));
        sourceOf = sources;
        reservedShapeIdMax = info.maxShapeId;
        sourceStyleIds = info.tableStyleIds;
      }
      // a hidden template slide asked for by id is shown: the request put it in the deck (warned below)
      doc.documentElement!.removeAttribute('show');
    } else {
      let proto = src.newSlides.get(layoutPart);
      if (!proto) {
        proto = newSlideFromLayout(layoutDoc);
        src.newSlides.set(layoutPart, proto);
      }
      doc = cloneDocument(proto);
      rels = [];
      appendRelationship(rels, RT.slideLayout, outLayout);
    }

    const firstSlideNum = intAttr(this.base ? this.base.pkg.getXml(this.base.mainPart).documentElement! : undefined, 'firstSlideNum', 1);
    const warn = (code: string, message: string): void => {
      this.warnings.push({ slide_index: index, template_slide_id: spec.template_slide_id, code, message });
    };
    if (hiddenSource && !this.warnings.some((w) => w.slide_index === index && w.code === 'hidden_template_slide')) {
      warn('hidden_template_slide', `${partName} is hidden in template ${spec.template_id} (show="0"); the generated slide is shown, since the request asks for it`);
    }
    const model = this.modelOf(src);
    let part: GeneratedSlidePart | undefined;
    if (model) {
      try {
        part = new GeneratedSlidePart(model.layout(layoutPart), doc.documentElement!, outSlide);
      } catch {
        part = undefined;
      }
    }
    const filled: FilledShape[] = [];
    // ids are read once the slide is final (duplicate ids are renumbered after fitting)
    const fits: Array<{ shape: Element; fit: Omit<PlaceholderFitRecord, 'shape_id' | 'shape_name'> }> = [];
    const rich = new SlideRichContent(this.richHost(() => rels, (m, code) => warn(code ?? 'content_not_placed', m)));
    this.richPending.push(rich);
    fillSlide({
      doc,
      slideData: spec.slide_data,
      options: spec.options,
      layoutPhs,
      masterPhs,
      fromLayout: spec.source.kind === 'layout',
      slideNumber: firstSlideNum + this.slides.length,
      reservedShapeIdMax,
      sourceOf,
      tableStyleId: this.defaultTableStyle(src),
      warn: (m, code) => warn(code ?? 'content_not_placed', m),
      onFilled: (shape, role, area) => filled.push({ shape, role, area }),
      measureTextHeight: part ? (sp, cx) => measureShapeText(part!, sp, cx) : undefined,
      placeRich: (args) => rich.place(args),
    });
    if (part) {
      const size = this.base?.slideSize ?? src.slideSize ?? { cx: 12_192_000, cy: 6_858_000 };
      const plan = finishSlide({
        doc,
        part,
        filled,
        slideData: spec.slide_data,
        options: spec.options,
        slideSize: src.slideSize ?? size,
        paginate: tablePt === undefined && spec.options.auto_paginate_tables !== false && isTableOnly(spec.slide_data),
        forcedTablePt: tablePt,
        warn,
        onFit: (f) => fits.push({ shape: f.shape, fit: { role: f.role, template_size_pt: f.templateSizePt, size_pt: f.sizePt, overflow_pt: f.overflowPt } }),
      });
      if (plan) return plan;
    } else warn('not_fitted', 'the template cannot be read for measuring; text and tables are placed at their template sizes');
    for (const id of new Set([...tableStyleIds(doc), ...sourceStyleIds])) this.ensureTableStyle(src, id);
    if (!stubs) renumberDuplicateShapeIds(doc);
    const notesPart = this.planNotes(src, spec, index, partName, outSlide, warn);
    if (notesPart) appendRelationship(rels, RT.notesSlide, notesPart);

    // written at once: the tree is garbage while young, which keeps large decks cheap; and
    // compressed at once, so a deck's slides wait for the zip in their compressed size
    const xml = serializeDocument(doc, stubs);
    // the text as written is checked here (core/src/quality/package.ts), so the package check need not read it back
    let packageProblems: PackageProblem[] | undefined;
    try {
      packageProblems = this.input.quality === false ? undefined : checkSlideText(outSlide, xml, new Set(rels.map((r) => r.id)));
    } catch {
      packageProblems = undefined; // the package check then reads the slide from the deck
    }
    this.out.setCompressed(outSlide, compressEntry(utf8(xml)), CT.slide);
    this.out.setRels(outSlide, rels);
    this.record(() => this.out.removePart(outSlide));
    this.slides.push(outSlide);
    this.record(() => this.slides.pop());
    let quality: ReturnType<DeckWriter['slideQuality']>;
    try {
      quality = this.input.quality === false || !model ? undefined : this.slideQuality(src, model, layoutPart, doc, stubs, sourceOf, spec.source.kind === 'slide' ? partName : undefined, rels, outSlide);
    } catch {
      // a check never costs a slide: without its findings the report reads the slide from the deck
      quality = undefined;
    }
    const fitRecords = fits.map(({ shape, fit }): PlaceholderFitRecord => {
      const nv = cNvPrOf(shape);
      return { shape_id: intAttr(nv, 'id', 0), shape_name: attr(nv, 'name') ?? '', ...fit };
    });
    this.slideRecords.push({ part_name: outSlide, slide_index: index, template_slide_id: spec.template_slide_id, fits: fitRecords, ...quality, package_problems: packageProblems });
    this.record(() => this.slideRecords.pop());
    return undefined;
  }

  /**
   * The accessibility and brand findings of a slide as built (core/src/quality), read from
   * its tree before it is written: shapes written from the template (stand-ins) are judged
   * once per template slide, the others on every slide.
   *
   * @param sourcePart - the template slide copied, undefined for a slide made from a layout
   */
  private slideQuality(
    src: TemplateSource,
    model: PmlModel,
    layoutPart: string,
    doc: Document,
    stubs: Map<Element, Element> | undefined,
    sourceOf: ReadonlyMap<Element, Element> | undefined,
    sourcePart: string | undefined,
    rels: readonly RelOut[],
    outSlide: string,
  ): { findings: QualityFinding[]; title: SlideTitle } | undefined {
    const tree = shapeTree(doc);
    if (!tree) return undefined;
    let gen: GeneratedSlidePart;
    try {
      gen = new GeneratedSlidePart(model.layout(layoutPart), doc.documentElement!, outSlide);
    } catch {
      return undefined;
    }
    const options = this.input.quality || {};
    src.lazy.vocabulary ??= templateVocabulary(src.pkg, [CT.slide, CT.slideLayout, CT.slideMaster, CT.theme].flatMap((ct) => src.pkg.partsOfType(ct)));
    const brand = { ...themeBrand(gen.theme), vocabulary: src.lazy.vocabulary };
    const outCtx: BrandContext = {
      ...brand,
      imageBytes: (_shape, rId) => {
        const target = rels.find((r) => r.id === rId && !r.external)?.targetPartName;
        return target && this.out.hasPart(target) ? this.out.getBytes(target) : undefined;
      },
    };
    let tpl: TemplateSlideQuality | undefined;
    if (stubs && sourcePart) {
      src.lazy.quality ??= new Map();
      tpl = src.lazy.quality.get(sourcePart);
      if (!tpl) {
        const byTop = new Map<Element, Shape[]>();
        const srcTree = shapeTree(src.pkg.getXml(sourcePart));
        for (const s of model.slide(sourcePart).shapes) {
          const top = topLevelOf(s.element, srcTree);
          if (top) byTop.set(top, [...(byTop.get(top) ?? []), s]);
        }
        tpl = { byTop, findings: new Map() };
        src.lazy.quality.set(sourcePart, tpl);
      }
    }
    const tplCtx: BrandContext = {
      ...brand,
      imageBytes: (shape, rId) => {
        const rel = src.pkg.rel(shape.part.partName, rId);
        return rel && !rel.external && rel.targetPartName && src.pkg.hasPart(rel.targetPartName) ? src.pkg.getBytes(rel.targetPartName) : undefined;
      },
    };
    const genByTop = new Map<Element, Shape[]>();
    for (const s of gen.shapes) {
      const top = topLevelOf(s.element, tree);
      if (top) genByTop.set(top, [...(genByTop.get(top) ?? []), s]);
    }
    const shapes: Shape[] = [];
    const findings: QualityFinding[] = [];
    for (const el of children(tree)) {
      const source = stubs?.get(el);
      if (source && tpl) {
        for (const s of tpl.byTop.get(source) ?? []) {
          shapes.push(s);
          let cached = tpl.findings.get(s);
          if (!cached) {
            cached = [...shapeAccessibility(s, options), ...shapeBrand(s, tplCtx)];
            tpl.findings.set(s, cached);
          }
          findings.push(...cached);
        }
        continue;
      }
      for (const s of genByTop.get(el) ?? []) {
        shapes.push(s);
        const m = s.kind === 'sp' && s.group === undefined ? deferredParagraphs(s.txBody) : undefined;
        if (!m || !s.txBody) {
          // (the slide is written already: deferred paragraphs elsewhere may become nodes the reading model reads)
          for (const txBody of descendants(s.element, NS.p, 'txBody')) materializeParagraphs(doc, txBody);
          findings.push(...shapeAccessibility(s, options), ...shapeBrand(s, outCtx));
          continue;
        }
        // a filled text shape: what is judged (colours, fonts, sizes) is its template's formatting
        // and the fitted sizes, the same on every slide filled from that shape
        src.lazy.filledQuality ??= new Map();
        const key = [
          objectId(sourceOf?.get(el) ?? s.basePlaceholder?.element),
          layoutPart,
          objectId(m.runProps),
          objectId(m.paraProps),
          m.sizes?.map((p) => p.runs.join(',')).join(';') ?? '',
          attr(child(child(s.txBody, NS.a, 'bodyPr'), NS.a, 'normAutofit'), 'fontScale') ?? '',
          options.minTextPt ?? '',
          m.lines.some((segments) => segments.some((x) => x.trim() !== '')) ? 'text' : 'empty',
          // what lies behind the text depends on where the box is
          s.frame ? `${s.frame.x},${s.frame.y},${s.frame.cx},${s.frame.cy}` : '',
        ].join('|');
        let known = src.lazy.filledQuality.get(key);
        if (!known) {
          materializeParagraphs(doc, s.txBody);
          known = [...shapeAccessibility(s, options), ...shapeBrand(s, outCtx)];
          // bounded: one entry per formatting and fitted sizes seen (cleared if a template somehow sees thousands)
          if (src.lazy.filledQuality.size >= 4096) src.lazy.filledQuality.clear();
          src.lazy.filledQuality.set(key, known);
        }
        for (const f of known) findings.push({ ...f, shape_id: s.id, shape_name: s.name });
      }
    }
    const slide = slideAccessibility(shapes, -1);
    return { findings: [...findings, ...slide.findings], title: slide.title };
  }

  /**
   * Decides the notes slide of a deck slide (written by {@link finish}): `slide_data.notes`
   * when given (an empty string: none), else the template slide's own notes slide when it
   * has a readable one. Returns the deck's notes slide part name, or undefined for none.
   */
  private planNotes(src: TemplateSource, spec: DeckSlideSpec, slideIndex: number, sourcePart: string, slidePart: string, warn: (code: string, message: string) => void): string | undefined {
    const asked = spec.slide_data.notes;
    let content: NotesPlan['content'];
    if (asked !== undefined && asked !== null) {
      if (asked === '') return undefined;
      content = { text: asked };
    } else {
      if (spec.source.kind !== 'slide') return undefined;
      const part = src.pkg.relatedPartName(sourcePart, RT.notesSlide);
      if (!part || !src.pkg.hasPart(part) || src.pkg.contentType(part) !== CT.notesSlide) return undefined;
      try {
        const root = src.pkg.getXml(part).documentElement!;
        if (root.localName !== 'notes' || root.namespaceURI !== NS.p) throw new Error(`its root element is ${root.nodeName}, not p:notes`);
      } catch (err) {
        warn('notes_dropped', `the notes of ${sourcePart} in template ${spec.template_id} (${part}) cannot be read and are left out: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
      content = { part, sourceSlide: sourcePart };
    }
    const outName = this.allocate('/ppt/notesSlides/notesSlide1.xml', true);
    this.notes.push({ src, slideIndex, templateSlideId: spec.template_slide_id, slidePart, outName, content });
    this.record(() => this.notes.pop());
    return outName;
  }

  /** Facts about a source slide computed once however often the slide is used. */
  private sourceSlideInfo(src: TemplateSource, part: string): SourceSlideInfo {
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

  private checkSlideSize(src: TemplateSource): void {
    const a = this.base?.slideSize;
    const b = src.slideSize;
    if (!a || !b || (a.cx === b.cx && a.cy === b.cy) || this.sizeWarned.has(src.id)) return;
    this.sizeWarned.add(src.id);
    this.warnings.push({ slide_index: -1, template_slide_id: '', code: 'slide_size_mismatch', message: `template ${src.id} has slide size ${b.cx}x${b.cy} EMU, the deck ${a.cx}x${a.cy} EMU; its slides are not rescaled` });
  }

  // ---------------------------------------------------------------- part copying

  /**
   * A new part name like `srcName`: its own name when free (unless `numbered`), else the
   * same folder and stem with the next free number (`/ppt/media/image7.png`).
   */
  private allocate(srcName: string, numbered = false): string {
    const name = this.out.newPartName(srcName, numbered);
    this.record(() => this.out.names.release(name));
    return name;
  }

  /**
   * The relationships of `srcPart`, retargeted at copies in the output. Ids are kept, so
   * the part's XML needs no change except where a relationship is dropped (returned in
   * `dropped`). `layoutTarget` retargets a slide's layout relationship; a master's layout
   * relationships are skipped (rebuilt when the deck is finished). With `ownThemes`, a theme
   * is copied for this part alone instead of shared (a notes master's, §13.3.4).
   */
  private copyRels(src: TemplateSource, srcPart: string, memo: Map<string, string>, layoutTarget?: string, ownThemes = false): { rels: RelOut[]; dropped: Set<string> } {
    const rels: RelOut[] = [];
    const dropped = new Set<string>();
    const srcCt = src.pkg.contentType(srcPart);
    for (const r of src.pkg.rels(srcPart)) {
      if (r.external) {
        rels.push({ id: r.id, type: r.type, external: true, target: r.target, targetPartName: undefined });
        continue;
      }
      if (r.type === RT.slideLayout) {
        if (srcCt === CT.slideMaster) continue;
        if (layoutTarget !== undefined) {
          rels.push({ id: r.id, type: r.type, external: false, targetPartName: layoutTarget });
          layoutTarget = undefined;
        } else dropped.add(r.id);
        continue;
      }
      const target = r.targetPartName!;
      const ct = src.pkg.contentType(target);
      if (DROPPED_REL_TYPES.has(r.type) || isDroppedContentType(ct) || !src.pkg.hasPart(target)) {
        dropped.add(r.id);
        continue;
      }
      if (r.type !== RT.slideMaster && ct !== undefined && STRUCTURAL_CONTENT_TYPES.has(ct)) {
        // a hyperlink to a slide, layout or master: only a link to the part itself survives
        const self = target === srcPart ? memo.get(target) : undefined;
        if (self) rels.push({ id: r.id, type: r.type, external: false, targetPartName: self });
        else dropped.add(r.id);
        continue;
      }
      let outTarget: string;
      if (r.type === RT.slideMaster || (r.type === RT.theme && !ownThemes) || isSharedBinary(ct, r.type)) outTarget = this.importShared(src, target, srcPart);
      else outTarget = this.importOwned(src, target, memo);
      rels.push({ id: r.id, type: r.type, external: false, targetPartName: outTarget });
    }
    return { rels, dropped };
  }

  /** A part copied for one owner (a chart of one slide): once per `memo`. */
  private importOwned(src: TemplateSource, part: string, memo: Map<string, string>): string {
    const hit = memo.get(part);
    if (hit) return hit;
    const outName = this.allocate(part);
    memo.set(part, outName);
    this.writeCopy(src, part, outName, memo);
    return outName;
  }

  /**
   * A part stored once per content: layouts, masters, themes, media, fonts, OLE binaries.
   * A binary part whose header says it is a picture past the pixel limits gets a name with
   * the extension of what will be delivered and waits, empty, for {@link deliverPictures}.
   *
   * @param from - the part whose relationship brings it (for warnings)
   */
  private importShared(src: TemplateSource, part: string, from?: string): string {
    const sk = `${src.id}\u0000${part}`;
    const hit = this.sharedBySource.get(sk);
    if (hit) return hit;
    const key = this.contentKey(src, part, new Set());
    const same = this.sharedByKey.get(key);
    if (same) {
      this.sharedBySource.set(sk, same);
      this.record(() => this.sharedBySource.delete(sk));
      return same;
    }
    const ct = src.pkg.contentType(part);
    const oversized = isXmlContentType(ct) ? undefined : planOversizedPicture(src.pkg.getBytes(part), this.pictureLimits);
    const outName = this.allocate(oversized ? withExtension(part, oversized.extension) : part);
    this.sharedBySource.set(sk, outName);
    this.sharedByKey.set(key, outName);
    this.record(() => {
      this.sharedBySource.delete(sk);
      this.sharedByKey.delete(key);
    });
    if (ct === CT.slideMaster) this.copyMaster(src, part, outName);
    else if (oversized) {
      this.out.setBytes(outName, new Uint8Array(0), oversized.contentType);
      this.picturesPending.push({ src, part, outName, from, plan: oversized });
      this.record(() => this.out.removePart(outName));
    } else {
      const rels = this.writeCopy(src, part, outName, new Map());
      if (ct === CT.slideLayout) {
        const masterRel = rels.find((r) => r.type === RT.slideMaster);
        const master = masterRel ? this.masterByOut.get(masterRel.targetPartName!) : undefined;
        if (!master) throw new SlideFailure('source_corrupt', `${part} has no slide master`);
        master.layouts.push(outName);
        this.record(() => master.layouts.splice(master.layouts.indexOf(outName), 1));
      }
    }
    return outName;
  }

  /**
   * Makes the template pictures past the pixel limits copied since the last call (a
   * downsampled copy, or a stand-in; see picture-limits.ts) and warns `image_too_large` for
   * each, on the slide that first brought it into the deck (`slide_index` -1 when the deck
   * itself did). What is made is kept with the opened template for later builds.
   */
  private async deliverPictures(slideIndex: number, templateSlideId: string): Promise<void> {
    for (const p of this.picturesPending.splice(0)) {
      let made = p.src.oversized.get(p.part);
      if (!made) {
        made = deliverOversizedPicture(p.src.pkg.getBytes(p.part), p.plan, this.pictureLimits);
        p.src.oversized.set(p.part, made);
        // a failure fails this slide only: the next build tries again
        const { oversized } = p.src;
        const part = p.part;
        made.catch(() => oversized.delete(part));
      }
      const d = await made;
      this.out.setBytes(p.outName, d.bytes, p.plan.contentType);
      const { format, width, height } = p.plan.header;
      const limits = this.pictureLimits;
      const what =
        d.action === 'downsample'
          ? `downsampled to ${d.width} × ${d.height} px`
          : `${d.reason ? `it cannot be decoded (${d.reason})` : `too large to decode safely (over ${limits.maxDecodedPixels} pixels)`}, replaced by a plain grey ${d.width} × ${d.height} px picture of its aspect`;
      this.warnings.push({
        slide_index: slideIndex,
        template_slide_id: templateSlideId,
        code: 'image_too_large',
        message: `picture ${p.part} of template ${p.src.id}${p.from ? ` (used by ${p.from})` : ''} is a ${width} × ${height} px ${format.toUpperCase()} (${width * height} pixels), past the limits of ${limits.maxPixels} pixels and ${limits.maxSide} px a side: ${what} (${p.outName} in the deck)`,
      });
    }
  }

  /** Writes a copy of `part` (bytes as they are unless a dropped relationship is referenced) with its relationships. */
  private writeCopy(src: TemplateSource, part: string, outName: string, memo: Map<string, string>, ownThemes = false): RelOut[] {
    const ct = src.pkg.contentType(part);
    // an XML part is copied as bytes, but only once it is known to be well-formed (parsed
    // once per template and cached): a corrupt part fails its slide instead of the deck
    if (isXmlContentType(ct)) src.pkg.getXml(part);
    const { rels, dropped } = this.copyRels(src, part, memo, undefined, ownThemes);
    this.writeCopyWithRels(src, part, outName, rels, dropped);
    return rels;
  }

  /** Writes `part` of `src` as `outName` with `rels` (its XML copied as bytes unless it refers to a `dropped` relationship). */
  private writeCopyWithRels(src: TemplateSource, part: string, outName: string, rels: readonly RelOut[], dropped: ReadonlySet<string>): void {
    const ct = src.pkg.contentType(part);
    let doc: Document | undefined;
    if (dropped.size && isXmlContentType(ct)) {
      const text = decodeXmlBytes(src.pkg.getBytes(part));
      if ([...dropped].some((id) => text.includes(`"${id}"`))) {
        doc = cloneDocument(src.pkg.getXml(part));
        removeDanglingReferences(doc, dropped);
      }
    }
    if (doc) this.out.setXml(outName, doc, ct);
    else this.out.setBytes(outName, src.pkg.getBytes(part), ct);
    if (rels.length) this.out.setRels(outName, rels);
    this.record(() => this.out.removePart(outName));
  }

  private copyMaster(src: TemplateSource, part: string, outName: string): void {
    const srcDoc = src.pkg.getXml(part);
    const { rels, dropped } = this.copyRels(src, part, new Map());
    let doc: Document;
    let stubs: Map<Element, Element> | undefined;
    if (dropped.size === 0 && child(srcDoc.documentElement!, NS.p, 'sldLayoutIdLst') && !shapeIdStats(srcDoc).duplicates) {
      // usual case: only the layout list changes; the rest is written from the template
      ({ doc, stubs } = cloneRootWithStubs(srcDoc, MASTER_EDITED_CHILDREN));
    } else {
      doc = cloneDocument(srcDoc);
      removeDanglingReferences(doc, dropped);
      renumberDuplicateShapeIds(doc);
    }
    const rec: MasterRecord = { src, srcPart: part, outName, doc, stubs, rels, layouts: [] };
    this.masters.push(rec);
    this.masterByOut.set(outName, rec);
    // written by finish, once the deck's layouts are known
    this.out.setBytes(outName, new Uint8Array(0), CT.slideMaster);
    this.record(() => {
      this.masters.splice(this.masters.indexOf(rec), 1);
      this.masterByOut.delete(outName);
      this.out.removePart(outName);
    });
  }

  /**
   * A key equal for parts with equal content: SHA-1 over the content type, the bytes (a
   * master's without its `p:sldLayoutIdLst`) and, per relationship kept, its id, type and
   * the key of its target (or the external URI).
   */
  private contentKey(src: TemplateSource, part: string, stack: Set<string>): string {
    const cached = src.keys.get(part);
    if (cached) return cached;
    stack.add(part);
    const ct = src.pkg.contentType(part) ?? '';
    const h = createHash('sha1');
    h.update(ct);
    h.update('\u0000');
    if (ct === CT.slideMaster) h.update(decodeXmlBytes(src.pkg.getBytes(part)).replace(/<(\w+:)?sldLayoutIdLst\b[\s\S]*?<\/(\w+:)?sldLayoutIdLst>|<(\w+:)?sldLayoutIdLst\s*\/>/, ''));
    else h.update(src.pkg.getBytes(part));
    for (const r of src.pkg.rels(part)) {
      if (r.external) h.update(`\u0000E${r.id}|${r.type}|${r.target}`);
      else if (r.type === RT.slideLayout && ct === CT.slideMaster) continue;
      else if (DROPPED_REL_TYPES.has(r.type) || !src.pkg.hasPart(r.targetPartName!)) h.update(`\u0000D${r.id}`);
      else if (stack.has(r.targetPartName!)) h.update(`\u0000C${r.id}|${r.targetPartName}`);
      else h.update(`\u0000I${r.id}|${r.type}|${this.contentKey(src, r.targetPartName!, stack)}`);
    }
    stack.delete(part);
    const key = h.digest('hex');
    src.keys.set(part, key);
    return key;
  }

  // ---------------------------------------------------------------- notes

  /**
   * Writes the deck's one notes master and returns its part name: the base template's,
   * else that of the first template (in slide order) with one among the slides with notes,
   * else a minimal one. A copied notes master gets its own copy of its theme.
   */
  private writeNotesMaster(): string {
    const candidates: TemplateSource[] = this.base ? [this.base] : [];
    for (const n of this.notes) if (!candidates.includes(n.src)) candidates.push(n.src);
    for (const src of candidates) {
      const part = src.pkg.relatedPartName(src.mainPart, RT.notesMaster);
      if (!part || !src.pkg.hasPart(part) || src.pkg.contentType(part) !== CT.notesMaster) continue;
      let outName: string | undefined;
      try {
        const root = src.pkg.getXml(part).documentElement!;
        if (root.localName !== 'notesMaster' || root.namespaceURI !== NS.p) continue;
        outName = this.allocate('/ppt/notesMasters/notesMaster1.xml', true);
        const rels = this.writeCopy(src, part, outName, new Map([[part, outName]]), true);
        if (!rels.some((r) => r.type === RT.theme)) {
          // a notes master must have a theme (§13.3.4): give it one
          this.out.setRels(outName, [...rels, { id: new RelIdAllocator(rels.map((r) => r.id)).next(), type: RT.theme, external: false, targetPartName: this.notesTheme() }]);
        }
        return outName;
      } catch {
        // unreadable (a corrupt part it relates to): the next template's, or the minimal one
        if (outName) this.out.removePart(outName);
      }
    }
    const outName = this.allocate('/ppt/notesMasters/notesMaster1.xml', true);
    const presRoot = this.base?.pkg.getXml(this.base.mainPart).documentElement ?? undefined;
    const sz = presRoot ? child(presRoot, NS.p, 'notesSz') : undefined;
    const notesSize = sz ? { cx: intAttr(sz, 'cx', DEFAULT_NOTES_SIZE.cx), cy: intAttr(sz, 'cy', DEFAULT_NOTES_SIZE.cy) } : DEFAULT_NOTES_SIZE;
    const slideSize = this.base?.slideSize ?? { cx: 12_192_000, cy: 6_858_000 };
    this.out.setBytes(outName, utf8(minimalNotesMasterXml(notesSize, slideSize)), CT.notesMaster);
    this.out.setRels(outName, [{ id: new RelIdAllocator().next(), type: RT.theme, external: false, targetPartName: this.notesTheme() }]);
    return outName;
  }

  /** A theme part for a notes master alone: a copy of the deck's first slide master's theme, else a minimal theme. */
  private notesTheme(): string {
    const first = this.masters[0];
    const theme = first ? first.src.pkg.relatedPartName(first.srcPart, RT.theme) : undefined;
    if (first && theme && first.src.pkg.hasPart(theme) && first.src.pkg.contentType(theme) === CT.theme) {
      try {
        return this.importOwned(first.src, theme, new Map());
      } catch {
        /* a theme that cannot be read: the minimal one */
      }
    }
    const name = this.allocate('/ppt/theme/theme1.xml', true);
    this.out.setBytes(name, utf8(minimalThemeXml()), CT.theme);
    return name;
  }

  /**
   * Writes the notes slide of a deck slide, related to that slide and to the deck's notes
   * master (`master`), and the slide to it (done when the slide was built). A template notes
   * slide is copied with its relationship ids; one that cannot be copied is written from its
   * text and warned as `notes_rewritten`.
   */
  private writeNotesSlide(n: NotesPlan, master: string): void {
    const linksFor = (ids: { master: string; slide: string }): RelOut[] => [
      { id: ids.master, type: RT.notesMaster, external: false, targetPartName: master },
      { id: ids.slide, type: RT.slide, external: false, targetPartName: n.slidePart },
    ];
    const written = (xml: string): void => {
      this.out.setBytes(n.outName, utf8(xml), CT.notesSlide);
      const ids = new RelIdAllocator();
      this.out.setRels(n.outName, linksFor({ master: ids.next(), slide: ids.next() }));
    };
    if ('text' in n.content) {
      written(notesSlideXml(n.content.text));
      return;
    }
    const { part, sourceSlide } = n.content;
    try {
      const { rels, dropped } = this.copyRels(n.src, part, new Map([[part, n.outName]]));
      // the back link to the slide and the link to the notes master keep their ids
      let slideId: string | undefined;
      let masterId: string | undefined;
      for (const r of n.src.pkg.rels(part)) {
        if (r.external) continue;
        if (!slideId && r.type === RT.slide && r.targetPartName === sourceSlide) slideId = r.id;
        else if (!masterId && r.type === RT.notesMaster) masterId = r.id;
      }
      const ids = new RelIdAllocator([...rels.map((r) => r.id), ...(slideId ? [slideId] : []), ...(masterId ? [masterId] : [])]);
      masterId ??= ids.next();
      slideId ??= ids.next();
      dropped.delete(masterId);
      dropped.delete(slideId);
      this.writeCopyWithRels(n.src, part, n.outName, [...linksFor({ master: masterId, slide: slideId }), ...rels], dropped);
    } catch (err) {
      const text = notesText(n.src.pkg.getXml(part));
      written(notesSlideXml(text));
      this.warnings.push({
        slide_index: n.slideIndex,
        template_slide_id: n.templateSlideId,
        code: 'notes_rewritten',
        message: `the notes of ${sourceSlide} in template ${n.src.id} (${part}) cannot be copied as they are (${err instanceof Error ? err.message : String(err)}); their text is kept, without their formatting`,
      });
    }
  }

  // ---------------------------------------------------------------- table styles

  private defaultTableStyle(src: TemplateSource): string {
    const def = src.tableStylesPart && src.pkg.hasPart(src.tableStylesPart) ? attr(src.pkg.getXml(src.tableStylesPart).documentElement!, 'def') : undefined;
    const id = def && def.trim() ? def.trim() : DEFAULT_TABLE_STYLE_ID;
    return id;
  }

  /** Copies the `a:tblStyle` with `styleId` from the source's table styles into the deck's when missing (built-in styles need no entry). */
  private ensureTableStyle(src: TemplateSource, styleId: string): void {
    const out = this.tableStyles;
    if (!out) return;
    const root = out.documentElement!;
    if (children(root, NS.a, 'tblStyle').some((s) => attr(s, 'styleId') === styleId)) return;
    if (!src.tableStylesPart || !src.pkg.hasPart(src.tableStylesPart)) return;
    const found = children(src.pkg.getXml(src.tableStylesPart).documentElement!, NS.a, 'tblStyle').find((s) => attr(s, 'styleId') === styleId);
    if (found) root.appendChild(cloneInto(out, found));
  }

  // ---------------------------------------------------------------- presentation

  /** Makes `templateId` the base of the deck when it can be opened (else the first template that yields a slide is). */
  async adoptBaseFrom(templateId: string): Promise<void> {
    try {
      this.adoptBase(await this.template(templateId));
    } catch {
      /* reported with the slide */
    }
  }

  /** The template that gives the deck its presentation part (slide size, text styles), presProps, viewProps, tableStyles and document properties. */
  private adoptBase(src: TemplateSource): void {
    this.base = src;
    const styles = src.tableStylesPart && src.pkg.hasPart(src.tableStylesPart) ? cloneDocument(src.pkg.getXml(src.tableStylesPart)) : undefined;
    this.tableStyles = styles ?? parseXml(`<a:tblStyleLst xmlns:a="${NS.a}" def="${DEFAULT_TABLE_STYLE_ID}"/>`, 'tableStyles');
  }

  /**
   * Makes the copied extended properties (`docProps/app.xml`, ECMA-376 Part 1, §22.2) tell
   * the deck's truth: `Slides` counts its slides, `Notes` its notes slides, `HiddenSlides`
   * is 0 (generated slides are shown), and the counts and part titles of the
   * template (words, paragraphs, `HeadingPairs`/`TitlesOfParts`, which would list the
   * template's own slide titles) are removed; PowerPoint writes them again on save.
   * Application, company and the rest stay. A part that cannot be read is left as it is.
   */
  private refreshExtendedProperties(partName: string): void {
    let doc: Document;
    try {
      doc = this.out.getXml(partName);
    } catch {
      return;
    }
    const root = doc.documentElement!;
    if (root.localName !== 'Properties' || root.namespaceURI !== NS.extendedProperties) return;
    for (const el of children(root, NS.extendedProperties)) if (STALE_EXTENDED_PROPERTIES.includes(el.localName ?? '')) root.removeChild(el);
    const setCount = (local: string, value: number): void => {
      let el = child(root, NS.extendedProperties, local);
      if (!el) {
        el = doc.createElementNS(NS.extendedProperties, local);
        root.appendChild(el);
      }
      while (el.firstChild) el.removeChild(el.firstChild);
      el.appendChild(doc.createTextNode(String(value)));
    };
    setCount('Slides', this.slides.length);
    setCount('Notes', this.notes.length);
    setCount('HiddenSlides', 0);
    this.out.markDirty(partName);
  }

  /** Writes the presentation part, its relationships, the masters' layout lists and the package relationships; returns the .pptx bytes. */
  async finish(): Promise<Uint8Array> {
    const base = this.base!;
    const out = this.out;
    this.journal = undefined;

    // Masters: layout lists and relationships, ids ≥ 2^31 unique across the package
    let nextId = FIRST_MASTER_OR_LAYOUT_ID;
    const masterIds: Array<{ id: number; master: MasterRecord }> = [];
    for (const m of this.masters) {
      masterIds.push({ id: nextId++, master: m });
      const root = m.doc.documentElement!;
      let lst = child(root, NS.p, 'sldLayoutIdLst');
      if (!lst) lst = insertInOrder(root, createElement(m.doc, NS.p, 'p:sldLayoutIdLst'), ['transition', 'timing', 'hf', 'txStyles', 'extLst']);
      while (lst.firstChild) lst.removeChild(lst.firstChild);
      const rels = [...m.rels];
      const ids = new RelIdAllocator(rels.map((r) => r.id));
      for (const layout of m.layouts) {
        const rid = ids.next();
        rels.push({ id: rid, type: RT.slideLayout, external: false, targetPartName: layout });
        const el = createElement(m.doc, NS.p, 'p:sldLayoutId', { id: nextId++ });
        el.setAttributeNS(NS.r, 'r:id', rid);
        lst.appendChild(el);
      }
      out.setBytes(m.outName, utf8(serializeDocument(m.doc, m.stubs)), CT.slideMaster);
      out.setRels(m.outName, rels);
    }

    // Notes: the notes master, then each slide's notes slide
    const notesMaster = this.notes.length ? this.writeNotesMaster() : undefined;
    if (notesMaster) for (const n of this.notes) this.writeNotesSlide(n, notesMaster);

    // Presentation part
    const srcPres = base.pkg.getXml(base.mainPart);
    const pres = cloneDocument(srcPres);
    const root = pres.documentElement!;
    for (const name of ['sldMasterIdLst', 'notesMasterIdLst', 'handoutMasterIdLst', 'sldIdLst', 'custShowLst', 'custDataLst', 'photoAlbum', 'smartTags', 'modifyVerifier']) {
      for (const el of children(root, NS.p, name)) root.removeChild(el);
    }
    const extLst = child(root, NS.p, 'extLst');
    if (extLst) {
      for (const ext of children(extLst, NS.p, 'ext')) if (attr(ext, 'uri') === SECTION_LIST_EXT_URI) extLst.removeChild(ext);
      if (children(extLst).length === 0) root.removeChild(extLst);
    }
    const presName = '/ppt/presentation.xml';
    const rels: RelOut[] = [];
    const relIds = new RelIdAllocator();
    const addRel = (type: string, target: string): string => {
      const id = relIds.next();
      rels.push({ id, type, external: false, targetPartName: target });
      return id;
    };
    const masterLst = createElement(pres, NS.p, 'p:sldMasterIdLst');
    for (const { id, master } of masterIds) {
      const el = createElement(pres, NS.p, 'p:sldMasterId', { id });
      el.setAttributeNS(NS.r, 'r:id', addRel(RT.slideMaster, master.outName));
      masterLst.appendChild(el);
    }
    root.insertBefore(masterLst, children(root)[0] ?? null);
    if (notesMaster) {
      // p:notesMasterIdLst follows p:sldMasterIdLst (CT_Presentation, §19.2.1.26)
      const lst = createElement(pres, NS.p, 'p:notesMasterIdLst');
      const el = createElement(pres, NS.p, 'p:notesMasterId');
      el.setAttributeNS(NS.r, 'r:id', addRel(RT.notesMaster, notesMaster));
      lst.appendChild(el);
      root.insertBefore(lst, masterLst.nextSibling);
    }
    if (!child(root, NS.p, 'notesSz')) {
      // required (§19.2.1.23); a template without one gets the default portrait page
      const sz = createElement(pres, NS.p, 'p:notesSz', { cx: DEFAULT_NOTES_SIZE.cx, cy: DEFAULT_NOTES_SIZE.cy });
      insertInOrder(root, sz, ['smartTags', 'embeddedFontLst', 'custShowLst', 'photoAlbum', 'custDataLst', 'kinsoku', 'defaultTextStyle', 'modifyVerifier', 'extLst']);
    }
    const sldLst = createElement(pres, NS.p, 'p:sldIdLst');
    this.slides.forEach((s, i) => {
      const el = createElement(pres, NS.p, 'p:sldId', { id: FIRST_SLIDE_ID + i });
      el.setAttributeNS(NS.r, 'r:id', addRel(RT.slide, s));
      sldLst.appendChild(el);
    });
    insertInOrder(root, sldLst, ['sldSz', 'notesSz', 'smartTags', 'embeddedFontLst', 'custShowLst', 'photoAlbum', 'custDataLst', 'kinsoku', 'defaultTextStyle', 'modifyVerifier', 'extLst']);

    // Embedded fonts (§19.2.1.9): the font parts come along with new relationship ids
    const fontLst = child(root, NS.p, 'embeddedFontLst');
    if (fontLst) {
      for (const font of children(fontLst, NS.p, 'embeddedFont')) {
        for (const face of children(font)) {
          if (face.localName === 'font') continue;
          const old = face.getAttributeNS(NS.r, 'id');
          const r = old ? base.pkg.rel(base.mainPart, old) : undefined;
          if (r && !r.external && r.targetPartName && base.pkg.hasPart(r.targetPartName)) {
            face.setAttributeNS(NS.r, 'r:id', addRel(r.type, this.importShared(base, r.targetPartName)));
          } else font.removeChild(face);
        }
        if (children(font).length <= 1) fontLst.removeChild(font);
      }
      if (children(fontLst).length === 0) root.removeChild(fontLst);
    }

    // presProps, viewProps, theme, tableStyles
    const srcRel = (type: string): string | undefined => {
      const p = base.pkg.relatedPartName(base.mainPart, type);
      return p && base.pkg.hasPart(p) ? p : undefined;
    };
    const presProps = srcRel(RT.presProps);
    if (presProps) {
      const doc = cloneDocument(base.pkg.getXml(presProps));
      const showPr = child(doc.documentElement!, NS.p, 'showPr');
      const custShow = showPr ? child(showPr, NS.p, 'custShow') : undefined;
      if (showPr && custShow) showPr.replaceChild(createElement(doc, NS.p, 'p:sldAll'), custShow);
      stripRelationshipReferences(doc);
      out.setXml('/ppt/presProps.xml', doc, base.pkg.contentType(presProps));
      addRel(RT.presProps, '/ppt/presProps.xml');
    }
    const viewProps = srcRel(RT.viewProps);
    if (viewProps) {
      const doc = cloneDocument(base.pkg.getXml(viewProps));
      stripRelationshipReferences(doc);
      out.setXml('/ppt/viewProps.xml', doc, base.pkg.contentType(viewProps));
      addRel(RT.viewProps, '/ppt/viewProps.xml');
    }
    const firstTheme = this.masters[0]?.rels.find((r) => r.type === RT.theme)?.targetPartName;
    if (firstTheme) addRel(RT.theme, firstTheme);
    if (this.tableStyles) {
      out.setXml('/ppt/tableStyles.xml', this.tableStyles, 'application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml');
      addRel(RT.tableStyles, '/ppt/tableStyles.xml');
    }
    stripRelationshipReferences(pres, new Set(rels.map((r) => r.id)));
    out.setXml(presName, pres, CT.presentationMain);
    out.setRels(presName, rels);

    // Package relationships: the main part and the document properties
    const pkgRelIds = new RelIdAllocator();
    const pkgRels: RelOut[] = [{ id: pkgRelIds.next(), type: RT.officeDocument, external: false, targetPartName: presName }];
    for (const r of base.pkg.rels('/')) {
      if (r.external || !r.targetPartName || !base.pkg.hasPart(r.targetPartName)) continue;
      if (r.type !== RT.corePropertiesPackage && r.type !== RT.extendedProperties && r.type !== CUSTOM_PROPERTIES_REL) continue;
      const name = this.importOwned(base, r.targetPartName, new Map());
      if (r.type === RT.extendedProperties) this.refreshExtendedProperties(name);
      pkgRels.push({ id: pkgRelIds.next(), type: r.type, external: false, targetPartName: name });
    }
    out.setRels('/', pkgRels);
    await this.deliverPictures(-1, '');
    return out.toBytes();
  }
}

/** The text of a notes slide's body placeholder (`p:ph type="body"`), one line per paragraph. */
function notesText(doc: Document): string {
  const body = placeholders(shapeTree(doc)).find((ph) => ph.type === 'body');
  const txBody = body ? child(body.shape, NS.p, 'txBody') : undefined;
  return txBody ? children(txBody, NS.a, 'p').map((p) => plainText(p)).join('\n') : '';
}

/** Extended-properties elements that describe the template's content, not the deck's (ECMA-376 Part 1, §22.2.2). */
const STALE_EXTENDED_PROPERTIES = ['Words', 'Paragraphs', 'Lines', 'Characters', 'CharactersWithSpaces', 'MMClips', 'HeadingPairs', 'TitlesOfParts', 'TotalTime'];

/** UTF-8 bytes of a string (Node's native encoder). */
function utf8(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}

function isTableRow(el: Element): boolean {
  return el.localName === 'tr' && el.namespaceURI === NS.a;
}

/** `part` with its extension (if any) replaced by `extension`: `/ppt/media/image3.gif` → `/ppt/media/image3.png`. */
function withExtension(part: string, extension: string): string {
  const ext = extensionOf(part);
  return `${ext ? part.slice(0, part.length - ext.length - 1) : part}.${extension}`;
}

/** Binary parts other than embedded packages (pictures, media, OLE objects) and fonts are shared by content. */
function isSharedBinary(ct: string | undefined, relType: string): boolean {
  return relType === FONT_REL || (!isXmlContentType(ct) && relType !== RT.package);
}

/**
 * Removes what refers to a dropped relationship: an element carrying an `r:` attribute
 * with a dropped id goes (inside an extension list, its whole `ext` goes), so no `r:id`
 * is left dangling (ECMA-376 Part 2, §9.3).
 */
export function removeDanglingReferences(doc: Document, dropped: ReadonlySet<string>): void {
  if (dropped.size === 0) return;
  stripRelationshipReferences(doc, undefined, dropped);
}

/**
 * Removes elements whose relationship attributes (`r:id`, `r:embed`, ...) name an id that
 * is not in `keep` (when given) or is in `drop` (when given); with neither, every element
 * carrying a relationship attribute goes (for parts copied without relationships).
 */
function stripRelationshipReferences(doc: Document, keep?: ReadonlySet<string>, drop?: ReadonlySet<string>): void {
  const root = doc.documentElement!;
  const victims: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs.item(i)!;
      if (a.namespaceURI !== NS.r || a.value === '') continue;
      const bad = drop ? drop.has(a.value) : keep ? !keep.has(a.value) : true;
      if (bad) {
        victims.push(el);
        break;
      }
    }
    for (const c of children(el)) stack.push(c);
  }
  for (const el of victims) {
    if (el === root) continue;
    let target: Element = el;
    for (let p = el.parentNode as Element | null; p && p !== (root as unknown); p = p.parentNode as Element | null) {
      if (p.localName === 'ext' && (p.parentNode as Element | null)?.localName === 'extLst') {
        target = p;
        break;
      }
    }
    target.parentNode?.removeChild(target);
  }
}
