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
 *
 * This file builds each slide, all or nothing (a journal undoes a failed slide), and
 * decides its notes; ./templates.ts opens the request's templates once, ./part-copier.ts
 * copies and de-duplicates the parts slides bring, ./presentation-part.ts writes the
 * masters' layout lists and the presentation part once the slides are known.
 */
import type { GenerationOptions, SlideData, SlideError, SlideWarning } from '../../domain/content.js';
import { repairTemplateParts } from '../../ooxml/repair.js';
import { CT, RT } from '../../ooxml/opc/constants.js';
import { OpcPackage } from '../../ooxml/opc/package.js';
import { appendRelationship, RelIdAllocator, type RelationshipDraft } from '../../ooxml/opc/relationships.js';
import { compressEntry } from '../../ooxml/opc/zip-codec.js';
import { NS, attr, child, children, decodeXmlBytes, intAttr, parseXml, type Document, type Element } from '../../ooxml/xml.js';
import { fillSlide, newSlideFromLayout } from '../slide/fill-slide.js';
import { hasChartBlocks, isChartFrame, SlideRichContent, type RichHost } from '../charts/blocks.js';
import { cloneDocument, cloneInto, SlideDraft } from '../draft/index.js';
import { finishSlide, measureShapeText, type FilledShape } from '../slide/finish-slide.js';
import { isTableOnly, pageSlideData, type PaginationPlan } from '../fit/paginate.js';
import { cNvPr as cNvPrOf, placeholderElement, placeholders, renumberDuplicateShapeIds, shapeTree } from '../slide/shapes.js';
import { plainText } from '../slide/text.js';
import { TEMPLATE_PICTURE_LIMITS, type TemplatePictureLimits } from './picture-limits.js';
import { DEFAULT_TABLE_STYLE_ID, tableStyleIds } from '../slide/tables.js';
import type { QualityFinding } from '../../quality/types.js';
import type { SlideTitle } from '../../quality/accessibility.js';
import { checkSlideText, type PackageProblem } from '../../quality/package.js';
import { DEFAULT_NOTES_SIZE, minimalNotesMasterXml, minimalThemeXml, notesSlideXml } from './notes.js';
import { PartCopier, removeDanglingReferences } from './part-copier.js';
import { writeMasters, writePresentation } from './presentation-part.js';
import { SlideFailure, toFailure } from './slide-failure.js';
import { slideQuality } from './slide-quality.js';
import { DeckTemplates, defaultTableStyle, layoutHeaderPlaceholder, type KeptTemplate, modelOf, placeholdersOf, sourceSlideInfo, type TemplateSource } from './templates.js';


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
   * Templates this thread already has open, by template id (`keptTemplate` of ./templates.ts): read
   * instead of `templates` (whose bytes then need not be sent at all). Ignored when
   * `reuseOpenedTemplates` is false.
   */
  kept?: ReadonlyMap<string, KeptTemplate>;
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
  /** The deck as written (the parts `bytes` holds): the quality report's package check reads it instead of opening `bytes` again. Absent without a deck. */
  package?: OpcPackage;
  /**
   * The bytes `bytes` holds for the parts {@link package} keeps as XML trees (the
   * presentation part, its properties), serialized once when the deck was written: the
   * package check reads them instead of serializing the trees again. Absent without a deck.
   */
  treeBytes?: ReadonlyMap<string, Uint8Array>;
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
  /** The slide's effective `language` option (BCP 47), for notes written from text. */
  language: string | undefined;
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
  return { bytes, pages_generated: writer.slideCount, errors, warnings: writer.warnings, slides: writer.slideRecords, vocabulary: writer.vocabulary(), package: writer.written, treeBytes: writer.treeBytes };
}

/** Accumulates the output package slide by slide; each slide is all-or-nothing. */
class DeckWriter {
  readonly warnings: SlideWarning[] = [];
  /** The slides written, in deck order, with their fitting outcomes. */
  readonly slideRecords: DeckSlideRecord[] = [];
  private readonly out = OpcPackage.create();
  /** The output package (complete once {@link finish} returned). */
  get written(): OpcPackage {
    return this.out;
  }

  /** The bytes written for the parts the deck keeps as XML trees, by part name (filled by {@link finish}). */
  readonly treeBytes = new Map<string, Uint8Array>();
  private readonly templates: DeckTemplates;
  private readonly parts: PartCopier;
  private readonly slides: string[] = [];
  /** Notes slides of the deck's slides, in slide order. */
  private readonly notes: NotesPlan[] = [];
  private base: TemplateSource | undefined;
  private tableStyles: Document | undefined;
  private readonly sizeWarned = new Set<string>();
  private journal: Array<() => void> | undefined;

  constructor(
    templates: ReadonlyMap<string, Uint8Array>,
    reuseOpened: boolean,
    pictureLimits: TemplatePictureLimits,
    private readonly input: Pick<BuildDeckInput, 'quality' | 'kept'> = {},
  ) {
    this.templates = new DeckTemplates(templates, reuseOpened, pictureLimits, input.kept);
    this.parts = new PartCopier(
      this.out,
      pictureLimits,
      (undo) => this.record(undo),
      (w) => this.warnings.push(w),
    );
    for (const n of ['/ppt/presentation.xml', '/ppt/presProps.xml', '/ppt/viewProps.xml', '/ppt/tableStyles.xml']) this.out.names.reserve(n);
  }

  get slideCount(): number {
    return this.slides.length;
  }

  /** Typefaces (lower case) and `RRGGBB` colours the templates of the deck use in their slides, layouts, masters and themes. */
  vocabulary(): { fonts: string[]; colors: string[] } {
    return this.templates.vocabulary();
  }

  private record(undo: () => void): void {
    this.journal?.push(undo);
  }

  // ---------------------------------------------------------------- slides

  async addSlide(spec: DeckSlideSpec, index: number): Promise<void> {
    const src = await this.templates.get(spec.template_id);
    const journal: Array<() => void> = [];
    const warningsBefore = this.warnings.length;
    const undo = (): void => {
      for (let i = journal.length - 1; i >= 0; i--) journal[i]!();
      journal.length = 0;
      this.warnings.length = warningsBefore;
      this.richPending.length = 0;
      this.parts.picturesPending.length = 0;
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
      await this.parts.deliverPictures(index, spec.template_slide_id);
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
  private richHost(rels: () => RelationshipDraft[], warn: (message: string, code?: string) => void): RichHost {
    return {
      pkg: this.out,
      newPartName: (example) => this.parts.allocate(example, true),
      created: (name) => this.record(() => this.out.removePart(name)),
      addSlideRel: (type, target) => appendRelationship(rels(), type, target),
      slideRelTarget: (rId) => rels().find((r) => r.id === rId && !r.external)?.targetPartName,
      storeMedia: (bytes, contentType, extension) => this.parts.storeMedia(bytes, contentType, extension),
      warn,
    };
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
    const layoutPhs = placeholdersOf(src, layoutPart);
    const masterPhs = placeholdersOf(src, masterPart);

    if (!this.base) this.adoptBase(src);
    this.checkSlideSize(src);
    const outLayout = this.parts.importShared(src, layoutPart);
    const outSlide = this.parts.allocate('/ppt/slides/slide1.xml', true);

    let draft: SlideDraft;
    let rels: RelationshipDraft[];
    let reservedShapeIdMax = 0;
    let sourceStyleIds: readonly string[] = [];
    let hiddenSource = false;
    if (spec.source.kind === 'slide') {
      const srcDoc = pkg.getXml(partName);
      // `p:sld/@show` (ST_Boolean, §19.3.1.38): false hides the slide in a slide show
      const show = srcDoc.documentElement!.getAttribute('show');
      hiddenSource = show === '0' || show === 'false';
      const info = sourceSlideInfo(src, partName);
      const copied = this.parts.copyRels(src, partName, new Map([[partName, outSlide]]), outLayout);
      rels = copied.rels;
      const text = copied.dropped.size ? decodeXmlBytes(pkg.getBytes(partName)) : '';
      const referencesDropped = [...copied.dropped].some((id) => text.includes(`"${id}"`));
      if (info.duplicateShapeIds || referencesDropped) {
        // rare: every shape may need a change, so copy them all
        draft = SlideDraft.copyOf(srcDoc);
        removeDanglingReferences(draft.doc, copied.dropped);
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
        draft = SlideDraft.withStandIns(srcDoc, (shape) => {
          // a table to be rewritten is copied without its rows: they are read from the source
          if (editedTables.has(shape)) return isTableRow;
          if (placeholderElement(shape)) return true;
          // charts that chart blocks fill (their chart parts are this slide's copies)
          if (charts && isChartFrame(shape)) return true;
          // text boxes a growing table may push down
          // (and text boxes that bound a table's room)
          if ((reposition || tableBlocks > 0) && shape.localName === 'sp') return true;
          return footnote && plainText(shape).toLowerCase().includes('footnote');
        });
        reservedShapeIdMax = info.maxShapeId;
        sourceStyleIds = info.tableStyleIds;
      }
      // a hidden template slide asked for by id is shown: the request put it in the deck (warned below)
      draft.root.removeAttribute('show');
    } else {
      let proto = src.newSlides.get(layoutPart);
      if (!proto) {
        proto = newSlideFromLayout(layoutDoc);
        src.newSlides.set(layoutPart, proto);
      }
      draft = SlideDraft.copyOf(proto);
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
    const model = modelOf(src);
    const part = model ? draft.readAs(() => model.layout(layoutPart), outSlide) : undefined;
    const { doc, stubs, sourceOf } = draft;
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
      tableStyleId: defaultTableStyle(src),
      headerPlaceholder: spec.slide_data.header != null ? layoutHeaderPlaceholder(src, layoutPart) : undefined,
      warn: (m, code) => warn(code ?? 'content_not_placed', m),
      onFilled: (shape, role, area) => filled.push({ shape, role, area }),
      measureTextHeight: part ? (sp, cx) => measureShapeText(part!, sp, cx) : undefined,
      placeRich: (args) => rich.place(args),
    });
    if (part) {
      const size = this.base?.slideSize ?? src.slideSize ?? { cx: 12_192_000, cy: 6_858_000 };
      const plan = finishSlide({
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
    const { bytes: xmlBytes, repeated, rows, paragraphs } = draft.serializeBytes();
    // the text as written is checked here (core/src/quality/package.ts), so the package check need not read it back
    let packageProblems: PackageProblem[] | undefined;
    try {
      packageProblems = this.input.quality === false ? undefined : checkSlideText(outSlide, xmlBytes, new Set(rels.map((r) => r.id)), repeated, rows, paragraphs);
    } catch {
      packageProblems = undefined; // the package check then reads the slide from the deck
    }
    this.out.setCompressed(outSlide, compressEntry(xmlBytes), CT.slide);
    this.out.setRels(outSlide, rels);
    this.record(() => this.out.removePart(outSlide));
    this.slides.push(outSlide);
    this.record(() => this.slides.pop());
    let quality: ReturnType<typeof slideQuality>;
    try {
      quality =
        this.input.quality === false || !model
          ? undefined
          : slideQuality({ src, model, layoutPart, draft, sourcePart: spec.source.kind === 'slide' ? partName : undefined, rels, outSlide, options: this.input.quality ?? {}, out: this.out });
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
    const outName = this.parts.allocate('/ppt/notesSlides/notesSlide1.xml', true);
    this.notes.push({ src, slideIndex, templateSlideId: spec.template_slide_id, slidePart, outName, content, language: spec.options.language });
    this.record(() => this.notes.pop());
    return outName;
  }

  private checkSlideSize(src: TemplateSource): void {
    const a = this.base?.slideSize;
    const b = src.slideSize;
    if (!a || !b || (a.cx === b.cx && a.cy === b.cy) || this.sizeWarned.has(src.id)) return;
    this.sizeWarned.add(src.id);
    this.warnings.push({ slide_index: -1, template_slide_id: '', code: 'slide_size_mismatch', message: `template ${src.id} has slide size ${b.cx}x${b.cy} EMU, the deck ${a.cx}x${a.cy} EMU; its slides are not rescaled` });
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
        outName = this.parts.allocate('/ppt/notesMasters/notesMaster1.xml', true);
        const rels = this.parts.writeCopy(src, part, outName, new Map([[part, outName]]), true);
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
    const outName = this.parts.allocate('/ppt/notesMasters/notesMaster1.xml', true);
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
    const first = this.parts.masters[0];
    const theme = first ? first.src.pkg.relatedPartName(first.srcPart, RT.theme) : undefined;
    if (first && theme && first.src.pkg.hasPart(theme) && first.src.pkg.contentType(theme) === CT.theme) {
      try {
        return this.parts.importOwned(first.src, theme, new Map());
      } catch {
        /* a theme that cannot be read: the minimal one */
      }
    }
    const name = this.parts.allocate('/ppt/theme/theme1.xml', true);
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
    const linksFor = (ids: { master: string; slide: string }): RelationshipDraft[] => [
      { id: ids.master, type: RT.notesMaster, external: false, targetPartName: master },
      { id: ids.slide, type: RT.slide, external: false, targetPartName: n.slidePart },
    ];
    const written = (xml: string): void => {
      this.out.setBytes(n.outName, utf8(xml), CT.notesSlide);
      const ids = new RelIdAllocator();
      this.out.setRels(n.outName, linksFor({ master: ids.next(), slide: ids.next() }));
    };
    if ('text' in n.content) {
      written(notesSlideXml(n.content.text, n.language));
      return;
    }
    const { part, sourceSlide } = n.content;
    try {
      const { rels, dropped } = this.parts.copyRels(n.src, part, new Map([[part, n.outName]]));
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
      this.parts.writeCopyWithRels(n.src, part, n.outName, [...linksFor({ master: masterId, slide: slideId }), ...rels], dropped);
    } catch (err) {
      const text = notesText(n.src.pkg.getXml(part));
      written(notesSlideXml(text, n.language));
      this.warnings.push({
        slide_index: n.slideIndex,
        template_slide_id: n.templateSlideId,
        code: 'notes_rewritten',
        message: `the notes of ${sourceSlide} in template ${n.src.id} (${part}) cannot be copied as they are (${err instanceof Error ? err.message : String(err)}); their text is kept, without their formatting`,
      });
    }
  }

  // ---------------------------------------------------------------- table styles

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
      this.adoptBase(await this.templates.get(templateId));
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


  /** Writes the masters' layout lists, the notes, the presentation part, its relationships and the package relationships; returns the .pptx bytes. */
  async finish(): Promise<Uint8Array> {
    this.journal = undefined;
    const masterIds = writeMasters(this.out, this.parts.masters);
    // Notes: the notes master, then each slide's notes slide
    const notesMaster = this.notes.length ? this.writeNotesMaster() : undefined;
    if (notesMaster) for (const n of this.notes) this.writeNotesSlide(n, notesMaster);
    writePresentation({ out: this.out, parts: this.parts, base: this.base!, masterIds, slides: this.slides, notesMaster, notesCount: this.notes.length, tableStyles: this.tableStyles });
    await this.parts.deliverPictures(-1, '');
    return this.out.toBytes(undefined, (name, bytes) => this.treeBytes.set(name, bytes));
  }
}

/** The text of a notes slide's body placeholder (`p:ph type="body"`), one line per paragraph. */
function notesText(doc: Document): string {
  const body = placeholders(shapeTree(doc)).find((ph) => ph.type === 'body');
  const txBody = body ? child(body.shape, NS.p, 'txBody') : undefined;
  return txBody ? children(txBody, NS.a, 'p').map((p) => plainText(p)).join('\n') : '';
}

/** UTF-8 bytes of a string (Node's native encoder). */
function utf8(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}

function isTableRow(el: Element): boolean {
  return el.localName === 'tr' && el.namespaceURI === NS.a;
}

