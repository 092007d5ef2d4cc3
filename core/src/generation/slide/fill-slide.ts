/**
 * Filling one slide's placeholders (ECMA-376 Part 1, §19.3.1.36 `p:ph`, types of
 * ST_PlaceholderType §19.7.10) with the request's slide data, and making a new slide from
 * a layout's placeholders.
 *
 * Text and tables are placed here; every filled shape is reported through
 * `FillContext.onFilled`, and `finish-slide.ts` then applies `slide_format`, fits text
 * and tables by measurement and decides table pagination.
 */
import type { Block, Column, GenerationOptions, SlideData, Table } from '../../domain/content.js';
import { PackageError } from '../../ooxml/errors.js';
import { NS, attr, child, children, createElement, descendants, parseXml, type Document, type Element } from '../../ooxml/xml.js';
import {
  cNvPr,
  maxShapeId,
  nonVisualProps,
  ownRect,
  placeholders,
  resolveRect,
  setRect,
  shapeTree,
  xfrmElement,
  type PlaceholderShape,
  type Rect,
} from './shapes.js';
import { buildTableFrame, frameTable, replaceTableContent } from './tables.js';
import { cloneInto } from '../draft/index.js';
import { ensureShapeTextBody, hasDateField, hasSlideNumberField, plainText, setDateField, setParagraphs, setRunFont, setSlideNumberField } from './text.js';
import type { TextRole } from './slide-format.js';
import { applyParagraphLanguages, inheritedAlignment } from './intl-text.js';
import { matchLayoutPlaceholder, matchMasterPlaceholder } from './shapes.js';
import type { RichFillArgs } from '../charts/blocks.js';

/** Placeholder types of the footer area (§19.7.10): date, footer, slide number, header. */
export const FOOTER_AREA_TYPES: ReadonlySet<string> = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

/** What {@link fillSlide} needs besides the slide document itself. */
export interface FillContext {
  /** The slide being built (a private copy; changed in place). */
  doc: Document;
  slideData: SlideData;
  /** Effective options of this slide. */
  options: GenerationOptions;
  /** Placeholders of the slide's layout and master, for geometry and footer copies. */
  layoutPhs: readonly PlaceholderShape[];
  masterPhs: readonly PlaceholderShape[];
  /** True for a slide made from a layout: placeholders left unfilled are removed. */
  fromLayout: boolean;
  /** 1-based position of the slide in the deck (shown by the slide-number field). */
  slideNumber: number;
  /**
   * Largest shape id used by parts of the slide not present in `doc` (shapes left in the
   * source, see `cloneWithStubs`); new shapes get ids above it.
   */
  reservedShapeIdMax?: number;
  /**
   * For shapes copied from a template slide, the source shape (see `cloneWithStubs`); a
   * table copied without its rows finds its row formatting there.
   */
  sourceOf?: ReadonlyMap<Element, Element>;
  /** Style GUID for tables created here (the template's default). */
  tableStyleId: string | undefined;
  /**
   * The layout's header-like placeholder (the template doctor's rule, `headerLikePlaceholder`
   * in core/src/doctor/header.ts: a short text band spanning the slide above the content),
   * by its `p:ph` type and idx and its layout shape id; `slide_data.header` goes there when
   * the slide, its layout and its master have no `hdr` placeholder. Undefined: none.
   */
  headerPlaceholder?: { type: string; idx: number; shapeId: number };
  /** Reports a problem that does not fail the slide; `code` defaults to `content_not_placed`. */
  warn(message: string, code?: string): void;
  /**
   * Told about every shape filled: text shapes with their role (for `slide_format` and
   * fitting), table frames with the area they may use (EMU; undefined for a template's
   * own table, which keeps its frame), the slide-number and date placeholders.
   */
  onFilled?(shape: Element, role: TextRole | 'table' | 'field', area?: Rect): void;
  /** Height (EMU) the text of `sp` needs at its template sizes when `cx` wide; used to split text from a table below it. */
  measureTextHeight?(sp: Element, cx: number): number | undefined;
  /** Today's date as shown in date placeholders (`a:fld type="datetime1"`, M/D/YYYY). */
  today?: Date;
  /** Places chart and image blocks (`charts/blocks.ts`) once text and tables have taken their placeholders. */
  placeRich?(args: RichFillArgs): void;
}

const SLD_NS_DECL = `xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"`;

/**
 * A new slide document (§19.3.1.38 `p:sld`) holding a copy of each placeholder of a
 * layout: `p:ph` keeps type, orientation, size and idx; `p:spPr` is empty so geometry is
 * inherited; the text body is empty. Footer-area placeholders are not copied (they are
 * added when filled).
 */
export function newSlideFromLayout(layoutDoc: Document): Document {
  const doc = parseXml(
    `<p:sld ${SLD_NS_DECL}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
      `<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>` +
      `</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`,
    'new slide',
  );
  const tree = shapeTree(doc)!;
  let nextId = 2;
  const layoutPhs = placeholders(shapeTree(layoutDoc));
  // placeholders sharing an idx (LibreOffice writes layouts without any) are matched
  // differently by different applications (by idx first, or by type): those get their
  // geometry written explicitly, so every consumer places them where the layout does
  const seen = new Map<number, number>();
  for (const lp of layoutPhs) seen.set(lp.idx, (seen.get(lp.idx) ?? 0) + 1);
  for (const lp of layoutPhs) {
    if (lp.shape.localName !== 'sp' || FOOTER_AREA_TYPES.has(lp.type)) continue;
    const ambiguous = (seen.get(lp.idx) ?? 0) > 1;
    tree.appendChild(placeholderCopy(doc, lp, nextId++, ambiguous ? ownRect(lp.shape) : undefined));
  }
  return doc;
}

/** A slide `p:sp` linked to placeholder `lp` (same ph attributes), with an empty text body; `rect` makes its geometry explicit. */
function placeholderCopy(doc: Document, lp: PlaceholderShape, id: number, rect: Rect | undefined): Element {
  const sp = createElement(doc, NS.p, 'p:sp');
  const nv = createElement(doc, NS.p, 'p:nvSpPr');
  nv.appendChild(createElement(doc, NS.p, 'p:cNvPr', { id, name: attr(cNvPr(lp.shape), 'name') || `Placeholder ${id - 1}` }));
  const cNvSpPr = createElement(doc, NS.p, 'p:cNvSpPr');
  cNvSpPr.appendChild(createElement(doc, NS.a, 'a:spLocks', { noGrp: '1' }));
  nv.appendChild(cNvSpPr);
  nv.appendChild(nonVisualProps(doc, lp.ph));
  sp.appendChild(nv);
  const spPr = createElement(doc, NS.p, 'p:spPr');
  if (rect) {
    const xfrm = createElement(doc, NS.a, 'a:xfrm');
    // a slide's own a:xfrm replaces the inherited one whole (§20.1.7.6): the layout's turn
    // and flips are written with its position, or a turned placeholder comes out upright
    const from = xfrmElement(lp.shape);
    for (const name of ['rot', 'flipH', 'flipV']) {
      const value = attr(from, name);
      if (value !== undefined) xfrm.setAttribute(name, value);
    }
    setRect(doc, xfrm, rect);
    spPr.appendChild(xfrm);
  }
  sp.appendChild(spPr);
  ensureShapeTextBody(doc, sp);
  return sp;
}

/** A content area a column can fill: a text placeholder or an existing table. */
interface ContentArea {
  ph: PlaceholderShape;
  rect: Rect | undefined;
}

function textBullets(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  for (const b of blocks) if (b.type === 'text' && b.text) out.push(...b.text.bullets);
  return out;
}

/** Per bullet of {@link textBullets}, the language its text block gives (`TextBlock.language`). */
function bulletLanguages(blocks: readonly Block[]): Array<string | undefined> {
  const out: Array<string | undefined> = [];
  for (const b of blocks) if (b.type === 'text' && b.text) for (let i = 0; i < b.text.bullets.length; i++) out.push(b.text.language);
  return out;
}

function tables(blocks: readonly Block[]): Table[] {
  const out: Table[] = [];
  for (const b of blocks) if (b.type === 'table' && b.table?.table && b.table.table.rows.length > 0) out.push(b.table.table);
  return out;
}

/**
 * Fills a slide in place: title, subtitle, content columns (bullets and tables), column
 * headers, header, footer, footnote, slide number and footer fonts; on a slide made from a
 * layout, removes the placeholders left empty.
 */
export function fillSlide(ctx: FillContext): void {
  const { doc, slideData: data, options } = ctx;
  const tree = shapeTree(doc);
  // the schema requires one (ECMA-376 Part 1, §19.3.1.16 cSld): a source without it is broken, not our fault
  if (!tree) throw new PackageError('bad_structure', 'the source slide or layout has no shape tree (p:cSld/p:spTree)');
  let nextId = Math.max(maxShapeId(doc), ctx.reservedShapeIdMax ?? 0) + 1;
  const phs = placeholders(tree);
  const filled = new Set<Element>();
  const used = new Set<Element>();
  const rectOf = (p: PlaceholderShape): Rect | undefined => resolveRect(p, ctx.layoutPhs, ctx.masterPhs);
  const isTextShape = (p: PlaceholderShape): boolean => p.shape.localName === 'sp';

  const fillText = (p: PlaceholderShape, lines: readonly string[], role: TextRole, languages?: readonly (string | undefined)[]): void => {
    // the template shape's own formatting elements (a copy's are per slide): text
    // measuring resolves them once for every slide made from the template
    const source = ctx.sourceOf?.get(p.shape);
    const txBody = ensureShapeTextBody(doc, p.shape);
    setParagraphs(doc, txBody, lines, source ? child(source, NS.p, 'txBody') : undefined);
    // right-to-left paragraphs, languages and runs per script (Latin text without a language: nothing)
    const langs = lines.map((_, i) => languages?.[i] ?? options.language);
    if (langs.some((l) => l !== undefined) || lines.some((l) => /[^\u0000-\u058f]/.test(l))) {
      const lp = matchLayoutPlaceholder(ctx.layoutPhs, p.type, p.idx);
      const mp = matchMasterPlaceholder(ctx.masterPhs, lp?.type ?? p.type);
      applyParagraphLanguages(doc, txBody, lines, langs, inheritedAlignment([source ?? p.shape, lp?.shape], mp?.shape, p.type));
    }
    // an empty text clears a template placeholder; on a new slide the placeholder goes
    if (lines.some((l) => l !== '')) filled.add(p.shape);
    used.add(p.shape);
    ctx.onFilled?.(p.shape, role);
  };

  // Title (§19.7.10: title, ctrTitle)
  if (data.title != null) {
    const t = phs.find((p) => (p.type === 'title' || p.type === 'ctrTitle') && isTextShape(p));
    if (t) fillText(t, [data.title], 'title');
    else ctx.warn('slide has no title placeholder; title not placed');
  }

  // Header (placed below with the footer area): when no hdr placeholder can take it, the
  // layout's header-like placeholder is kept from content columns and the subtitle
  const headerTarget = data.header != null ? headerLikeTarget(ctx, phs) : undefined;
  if (headerTarget) used.add(headerTarget.shape);

  // Content columns
  const columns: Column[] = (data.content ?? []).filter((c) => c.blocks.length > 0 || (c.header != null && c.header !== ''));
  if (columns.length) fillColumns(ctx, tree, phs, columns, rectOf, fillText, used, filled, () => nextId++);
  if (columns.length && ctx.placeRich) ctx.placeRich({ doc, tree, phs, used, filled, rectOf, newId: () => nextId++, columns });

  // Subtitle: subTitle on title slides, else a free body placeholder
  if (data.subtitle != null) {
    const target =
      phs.find((p) => p.type === 'subTitle' && !used.has(p.shape) && isTextShape(p)) ??
      phs.find((p) => p.type === 'body' && !used.has(p.shape) && isTextShape(p)) ??
      (columns.length === 0 ? phs.find((p) => p.type === 'obj' && !used.has(p.shape) && isTextShape(p)) : undefined);
    if (target) fillText(target, [data.subtitle], 'subtitle');
    else ctx.warn('slide has no free subtitle or body placeholder; subtitle not placed');
  }

  // Footer area
  const footerArea = (type: string): PlaceholderShape | undefined => phs.find((p) => p.type === type && isTextShape(p));
  const addFooterArea = (type: string): PlaceholderShape | undefined => {
    const lp = ctx.layoutPhs.find((p) => p.type === type && p.shape.localName === 'sp');
    let sp: Element;
    let src: PlaceholderShape;
    if (lp) {
      src = lp;
      sp = placeholderCopy(doc, lp, nextId++, undefined);
    } else {
      const mp = ctx.masterPhs.find((p) => p.type === type && p.shape.localName === 'sp');
      if (!mp) return undefined;
      src = mp;
      sp = placeholderCopy(doc, { ...mp, ph: withoutIdx(mp.ph) }, nextId++, ownRect(mp.shape));
    }
    insertShape(tree, sp);
    const created: PlaceholderShape = { shape: sp, ph: src.ph, type, idx: src.idx };
    phs.push(created);
    return created;
  };

  const footerText = data.footer ?? options.footer_text ?? undefined;
  if (footerText != null) {
    const f = footerArea('ftr') ?? addFooterArea('ftr');
    if (f) fillText(f, [footerText], 'footer');
    else ctx.warn('slide, layout and master have no footer placeholder; footer not placed');
  }
  if (options.show_slide_numbers === true) {
    const n = footerArea('sldNum') ?? addFooterArea('sldNum');
    if (n) {
      const body = ensureShapeTextBody(doc, n.shape);
      if (!hasSlideNumberField(body)) setSlideNumberField(doc, body, ctx.slideNumber);
      filled.add(n.shape);
      ctx.onFilled?.(n.shape, 'field');
    } else ctx.warn('slide, layout and master have no slide-number placeholder; slide number not shown');
  }
  // Date: shown with the footer (footer text set for the slide or the deck). A template
  // slide's own date placeholder keeps what it holds; a missing one is added from the
  // layout (or master) with a date field PowerPoint updates, showing today's date.
  if (footerText != null) {
    const existing = footerArea('dt');
    const d = existing ?? addFooterArea('dt');
    if (d) {
      const body = ensureShapeTextBody(doc, d.shape);
      if (!existing || (!hasDateField(body) && plainText(body).trim() === '')) setDateField(doc, body, ctx.today ?? new Date());
      filled.add(d.shape);
      ctx.onFilled?.(d.shape, 'field');
    }
  }
  // Header: a header placeholder (hdr) of the slide, else one added from the layout or
  // master, like the other footer-area placeholders, else the layout's header-like placeholder
  if (data.header != null) {
    const h = headerTarget ?? footerArea('hdr') ?? addFooterArea('hdr');
    if (h) fillText(h, [data.header], 'header');
    else ctx.warn(headerNotPlaced(data, phs, used, columns.length > 0));
  }
  if (options.footer_font_size != null || options.footer_font_name != null) {
    for (const p of phs) {
      if ((p.type === 'ftr' || p.type === 'sldNum' || p.type === 'dt') && isTextShape(p) && p.shape.parentNode === tree) {
        setRunFont(doc, ensureShapeTextBody(doc, p.shape), options.footer_font_size ?? undefined, options.footer_font_name ?? undefined);
      }
    }
  }

  // Footnote: the text box holding the marker
  if (data.footnote != null) {
    const box = findFootnoteBox(tree);
    if (box) {
      setParagraphs(doc, ensureShapeTextBody(doc, box), [data.footnote]);
      filled.add(box);
      ctx.onFilled?.(box, 'textbox');
    } else ctx.warn('slide has no text box marked "footnote_placeholder" or "footnote"; footnote not placed');
  }

  // A slide made from a layout keeps only what was filled (no "Click to add" prompts)
  if (ctx.fromLayout) {
    for (const p of phs) {
      if (!filled.has(p.shape) && p.shape.parentNode) p.shape.parentNode.removeChild(p.shape);
    }
  }
}

/**
 * The slide placeholder that takes `slide_data.header` in place of a header placeholder:
 * undefined when the slide, its layout or its master has a `hdr` placeholder (ST_PlaceholderType,
 * ECMA-376 Part 1 §19.7.10; it is used first) or the layout has no header-like placeholder;
 * else the slide's free text placeholder that inherits from the layout's header-like one
 * (§19.3.1.36: by idx, else by type).
 */
function headerLikeTarget(ctx: FillContext, phs: readonly PlaceholderShape[]): PlaceholderShape | undefined {
  const want = ctx.headerPlaceholder;
  if (!want) return undefined;
  const isHdr = (p: PlaceholderShape): boolean => p.type === 'hdr' && p.shape.localName === 'sp';
  if (phs.some(isHdr) || ctx.layoutPhs.some(isHdr) || ctx.masterPhs.some(isHdr)) return undefined;
  const layoutShape = ctx.layoutPhs.find((p) => p.type === want.type && p.idx === want.idx && p.shape.localName === 'sp' && Number(attr(cNvPr(p.shape), 'id')) === want.shapeId);
  if (!layoutShape) return undefined;
  return phs.find((p) => p.shape.localName === 'sp' && p.type === want.type && matchLayoutPlaceholder(ctx.layoutPhs, p.type, p.idx) === layoutShape);
}

/** How a message names a placeholder: its type and shape name, e.g. `body placeholder "Text Placeholder 2"`. */
function describePlaceholder(p: PlaceholderShape): string {
  const name = attr(cNvPr(p.shape), 'name');
  return `${p.type} placeholder ${name ? `"${name}"` : `idx ${p.idx}`}`;
}

/**
 * The warning for a `slide_data.header` no placeholder takes. It says what was looked for
 * (a header placeholder, ST_PlaceholderType `hdr`, ECMA-376 Part 1 §19.7.10, on the slide,
 * its layout or its master, else the layout's header-like placeholder, see
 * {@link FillContext.headerPlaceholder}) and which request fields could carry the text on this slide
 * instead, naming the free placeholder each would fill by the rules of {@link fillSlide}:
 * `title` (a free `title`/`ctrTitle` placeholder) and `subtitle` (a free `subTitle`, else
 * `body`, else, on a slide without content columns, `obj` placeholder), each only when the
 * request leaves that field empty.
 * @param data the slide's data (which fields are set)
 * @param phs the slide's placeholders after title, columns and subtitle were placed
 * @param used the placeholders already filled
 * @param hasColumns whether the request places content columns on the slide
 */
function headerNotPlaced(data: SlideData, phs: readonly PlaceholderShape[], used: ReadonlySet<Element>, hasColumns: boolean): string {
  const free = (p: PlaceholderShape): boolean => p.shape.localName === 'sp' && !used.has(p.shape);
  const options: string[] = [];
  if (data.title == null) {
    const t = phs.find((p) => (p.type === 'title' || p.type === 'ctrTitle') && free(p));
    if (t) options.push(`\`title\` (fills the free ${describePlaceholder(t)})`);
  }
  if (data.subtitle == null) {
    const s =
      phs.find((p) => p.type === 'subTitle' && free(p)) ??
      phs.find((p) => p.type === 'body' && free(p)) ??
      (hasColumns ? undefined : phs.find((p) => p.type === 'obj' && free(p)));
    if (s) options.push(`\`subtitle\` (fills the free ${describePlaceholder(s)})`);
  }
  const lookedFor =
    'header not placed: slide_data.header goes into a header placeholder (type hdr) of the slide, its layout or its master, ' +
    "else into the layout's header-like text placeholder (a short band across the slide above the content; the template analysis marks it with role `header`), " +
    'and there is neither (PowerPoint gives header placeholders to notes and handout pages, not to slides)';
  return options.length
    ? `${lookedFor}; put the text in ${options.join(' or ')} instead`
    : `${lookedFor}; this slide has no free title or text placeholder left either: put the text in \`title\`, \`subtitle\` or a text block, or use a layout with a free subtitle or body placeholder`;
}

/** A copy of a master's `p:ph` without `idx`: the slide placeholder then links by type alone. */
function withoutIdx(ph: Element): Element {
  const copy = cloneInto(ph.ownerDocument!, ph);
  copy.removeAttribute('idx');
  return copy;
}

/** Appends a shape to the tree, before its `p:extLst`. */
function insertShape(tree: Element, shape: Element): void {
  const ext = child(tree, NS.p, 'extLst');
  if (ext) tree.insertBefore(shape, ext);
  else tree.appendChild(shape);
}

/**
 * The `p:sp` (at any depth) holding the footnote marker: a text containing
 * `footnote_placeholder`, else `footnote` (case-insensitive); among several, the one with
 * the shortest text (the box that is the marker rather than prose mentioning a footnote).
 */
export function findFootnoteBox(tree: Element): Element | undefined {
  let best: { sp: Element; rank: number; length: number } | undefined;
  for (const sp of descendants(tree, NS.p, 'sp')) {
    const body = child(sp, NS.p, 'txBody');
    if (!body) continue;
    const text = plainText(body).toLowerCase();
    const rank = text.includes('footnote_placeholder') ? 0 : text.includes('footnote') ? 1 : -1;
    if (rank < 0) continue;
    const length = text.trim().length;
    if (!best || rank < best.rank || (rank === best.rank && length < best.length)) best = { sp, rank, length };
  }
  return best?.sp;
}

/** Shapes ordered left to right, then top to bottom, by their own offsets (stable). */
export function sortByPosition(shapes: readonly Element[]): Element[] {
  return shapes
    .map((shape, i) => ({ shape, i, r: ownRect(shape) }))
    .sort((a, b) => (a.r?.x ?? 0) - (b.r?.x ?? 0) || (a.r?.y ?? 0) - (b.r?.y ?? 0) || a.i - b.i)
    .map((e) => e.shape);
}

/**
 * The content areas that serve `wanted` columns best: when the slide offers more areas than
 * columns, the largest ones (box area, EMU²; the doctor names the largest text-capable
 * placeholder the main body area, so content goes where the doctor measured room), ties in
 * document order. A caption-sized body a hair to the left of the main one no longer takes
 * the bullets meant for the main one.
 */
function byRoom(areas: ContentArea[], wanted: number): ContentArea[] {
  if (wanted <= 0 || areas.length <= wanted) return areas;
  const room = (a: ContentArea): number => (a.rect ? a.rect.cx * a.rect.cy : -1);
  return areas
    .map((a, i) => ({ a, i }))
    .sort((x, y) => room(y.a) - room(x.a) || x.i - y.i)
    .slice(0, wanted)
    .sort((x, y) => x.i - y.i)
    .map((x) => x.a);
}

/** Height one bullet is given above a table until text is measured (issue 4): 0.5 in, a 28 pt line with spacing. */
const ESTIMATED_LINE_EMU = 457_200;

/** Vertical tolerance (EMU) when deciding that a header placeholder sits above a content area: 0.1 in. */
const ABOVE_TOLERANCE_EMU = 91_440;

function fillColumns(
  ctx: FillContext,
  tree: Element,
  phs: PlaceholderShape[],
  columns: readonly Column[],
  rectOf: (p: PlaceholderShape) => Rect | undefined,
  fillText: (p: PlaceholderShape, lines: readonly string[], role: TextRole, languages?: readonly (string | undefined)[]) => void,
  used: Set<Element>,
  filled: Set<Element>,
  newId: () => number,
): void {
  const { doc } = ctx;
  // Existing tables (template slides): table blocks replace their content first, left to right.
  const existingTables = sortByPosition(children(tree, NS.p, 'graphicFrame').filter((f) => frameTable(f) !== undefined)).map((frame) => ({ frame }));

  // Content placeholders of the kinds that accept the blocks: obj, and tbl when a column
  // holds a table (a table placeholder takes no typed text in PowerPoint); when there are
  // none, body placeholders; a text-only slide whose layout has only table placeholders
  // still gets them rather than losing its text.
  const free = (p: PlaceholderShape): boolean => p.shape.localName === 'sp' && !used.has(p.shape);
  const anyTable = columns.some((col) => tables(col.blocks).length > 0);
  let candidates = phs.filter((p) => free(p) && (p.type === 'obj' || (anyTable && p.type === 'tbl')));
  const bodyAreas = candidates.length === 0;
  if (bodyAreas) candidates = phs.filter((p) => free(p) && p.type === 'body');
  if (candidates.length === 0 && !anyTable) candidates = phs.filter((p) => free(p) && p.type === 'tbl');
  const areas: ContentArea[] = byRoom(
    candidates.map((ph) => ({ ph, rect: rectOf(ph) })),
    columns.filter((col) => textBullets(col.blocks).length > 0 || tables(col.blocks).length > 0 || (col.header != null && col.header !== '')).length,
  ).sort((a, b) => (a.rect?.x ?? 0) - (b.rect?.x ?? 0) || (a.rect?.y ?? 0) - (b.rect?.y ?? 0));
  // Column headers: body placeholders not used as content areas.
  const headerPhs = phs.filter((p) => p.shape.localName === 'sp' && p.type === 'body' && !candidates.includes(p));

  let areaIndex = 0;
  columns.forEach((col, ci) => {
    const bullets = textBullets(col.blocks);
    const tbls = tables(col.blocks);
    const needsArea = bullets.length > 0 || tbls.length > existingTables.length;
    const area = needsArea || col.header ? areas[areaIndex] : undefined;
    if (needsArea || (col.header && area)) areaIndex++;

    if (col.header != null && col.header !== '') {
      const h = area?.rect ? headerAbove(area.rect, headerPhs, rectOf, used) : undefined;
      if (h) fillText(h, [col.header], 'column_header');
      else ctx.warn(columnHeaderNotPlaced(ci + 1, area, areas.length, bodyAreas, headerPhs, used));
    }

    // Tables into existing tables first
    const remaining: Table[] = [];
    for (const t of tbls) {
      const existing = existingTables.shift();
      if (existing) {
        replaceTableContent(doc, existing.frame, t, ctx.sourceOf?.get(existing.frame), ctx.options.language);
        filled.add(existing.frame);
        ctx.onFilled?.(existing.frame, 'table');
      } else remaining.push(t);
    }
    if (!needsArea) return;
    if (!area || !area.rect) {
      ctx.warn(`column ${ci + 1}: no free content placeholder on the slide; its ${bullets.length ? 'text' : ''}${bullets.length && remaining.length ? ' and ' : ''}${remaining.length ? 'table' : ''} not placed`);
      return;
    }
    const rect = area.rect;
    if (remaining.length === 0) {
      fillText(area.ph, bullets, 'body', bulletLanguages(col.blocks));
      return;
    }
    let tableRect = rect;
    if (bullets.length) {
      // text above, tables below: the text gets the height it needs at its template size
      // (measured; at most half the area), the tables the rest
      fillText(area.ph, bullets, 'body', bulletLanguages(col.blocks));
      const measured = ctx.measureTextHeight?.(area.ph.shape, rect.cx);
      const estimate = bullets.length * ESTIMATED_LINE_EMU + 2 * 91_440;
      const textCy = Math.min(Math.round(rect.cy * 0.5), Math.ceil(measured ?? estimate));
      const spPr = child(area.ph.shape, NS.p, 'spPr');
      if (spPr) {
        let xfrm = child(spPr, NS.a, 'xfrm');
        if (!xfrm) {
          xfrm = createElement(doc, NS.a, 'a:xfrm');
          spPr.insertBefore(xfrm, spPr.firstChild);
        }
        setRect(doc, xfrm, { ...rect, cy: textCy });
      }
      tableRect = { x: rect.x, y: rect.y + textCy, cx: rect.cx, cy: rect.cy - textCy };
    }
    const each = Math.floor(tableRect.cy / remaining.length);
    remaining.forEach((t, ti) => {
      const r: Rect = { x: tableRect.x, y: tableRect.y + ti * each, cx: tableRect.cx, cy: each };
      const replaceHolder = bullets.length === 0 && ti === 0;
      const id = newId();
      const frame = buildTableFrame(doc, t, r, {
        shapeId: id,
        name: `Table ${id - 1}`,
        // a table frame stays linked only to a placeholder that may hold one (obj, tbl)
        ph: replaceHolder && (area.ph.type === 'obj' || area.ph.type === 'tbl') ? area.ph.ph : undefined,
        tableStyleId: ctx.tableStyleId,
        options: ctx.options,
      });
      ctx.onFilled?.(frame, 'table', r);
      if (replaceHolder) {
        tree.replaceChild(frame, area.ph.shape);
        used.add(area.ph.shape);
        filled.add(frame);
        // the removed placeholder must not be looked up again
        const i = phs.indexOf(area.ph);
        if (i >= 0) phs.splice(i, 1);
      } else {
        const after = area.ph.shape.nextSibling;
        if (after) tree.insertBefore(frame, after);
        else insertShape(tree, frame);
        filled.add(frame);
      }
    });
  });
}

/**
 * The warning for a column `header` no placeholder takes. It states the rule of
 * {@link headerAbove} (a free `body` placeholder right above the column's content area,
 * content areas being the `obj`/`tbl` placeholders, else the `body` ones), which part of it
 * failed, and what to do instead.
 * @param column 1-based column number
 * @param area the column's content area; undefined when the slide has none left for it
 * @param areaCount content areas of the slide
 * @param bodyAreas whether the content areas are `body` placeholders (no `obj`/`tbl` on the slide)
 * @param headerPhs body placeholders that are not content areas
 * @param used placeholders already filled
 */
function columnHeaderNotPlaced(
  column: number,
  area: ContentArea | undefined,
  areaCount: number,
  bodyAreas: boolean,
  headerPhs: readonly PlaceholderShape[],
  used: ReadonlySet<Element>,
): string {
  const rule = `column ${column}: header not placed: a column header goes into a free body placeholder right above the column's content area`;
  let why: string;
  if (!area) why = `and the slide has ${areaCount === 0 ? 'no free content placeholder' : `only ${areaCount} free content placeholder${areaCount > 1 ? 's' : ''}`} (obj or tbl, else body), none left for column ${column}`;
  else if (!area.rect) why = `and the position of the column's ${describePlaceholder(area.ph)} is not stated on the slide, its layout or its master`;
  else if (bodyAreas) why = `and this slide's body placeholders are its content areas (it has no obj or tbl placeholder), so none is left for headings`;
  else {
    const elsewhere = headerPhs.filter((h) => !used.has(h.shape)).map(describePlaceholder);
    why = `and none is above the column's ${describePlaceholder(area.ph)}${elsewhere.length ? ` (free elsewhere: ${elsewhere.join(', ')})` : ''}`;
  }
  return (
    `${rule}, ${why}; make the heading the column's first bullet, or use a layout with a heading placeholder above each content area ` +
    '(the template analysis gives such layouts the role `comparison`)'
  );
}

/** The unused body placeholder right above `rect` (overlapping at least half its width), nearest first. */
function headerAbove(rect: Rect, headerPhs: readonly PlaceholderShape[], rectOf: (p: PlaceholderShape) => Rect | undefined, used: Set<Element>): PlaceholderShape | undefined {
  let best: PlaceholderShape | undefined;
  let bestGap = Infinity;
  for (const h of headerPhs) {
    if (used.has(h.shape)) continue;
    const r = rectOf(h);
    if (!r) continue;
    const bottom = r.y + r.cy;
    if (bottom > rect.y + ABOVE_TOLERANCE_EMU) continue;
    const overlap = Math.min(r.x + r.cx, rect.x + rect.cx) - Math.max(r.x, rect.x);
    if (overlap < Math.min(r.cx, rect.cx) / 2) continue;
    const gap = rect.y - bottom;
    if (gap < bestGap) {
      bestGap = gap;
      best = h;
    }
  }
  return best;
}
