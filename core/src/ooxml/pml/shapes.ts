/**
 * The shape tree (ECMA-376 Part 1, §19.3.1.45 `p:spTree`) of a slide, slide layout or slide
 * master, walked into {@link Shape} objects in document order: shapes (`p:sp` §19.3.1.43),
 * group shapes (`p:grpSp` §19.3.1.22), graphic frames (`p:graphicFrame` §19.3.1.21),
 * connectors (`p:cxnSp` §19.3.1.19), pictures (`p:pic` §19.3.1.37) and content parts
 * (`p:contentPart` §19.3.1.14, `p14:contentPart`), with `mc:AlternateContent` read through
 * its chosen branch (Part 3, §10.2).
 *
 * Geometry is in EMU. Placeholders (`p:ph` §19.3.1.36) know their base placeholder on the
 * layout or master, and {@link effective} walks that chain for any property.
 */
import { NS, attr, boolAttr, child, children, intAttr, isElement, resolveAlternateContent, type Element } from '../xml.js';
import { PackageError } from '../errors.js';
import type { ShapeTreePart } from './parts.js';

/** The element a shape was read from. */
export type ShapeKind = 'sp' | 'pic' | 'graphicFrame' | 'grpSp' | 'cxnSp' | 'contentPart';

/**
 * ST_PlaceholderType (§19.7.10). The schema default, used when `p:ph` has no `type`, is
 * `obj` (§19.3.1.36).
 */
export type PlaceholderType =
  | 'title' | 'body' | 'ctrTitle' | 'subTitle' | 'dt' | 'sldNum' | 'ftr' | 'hdr' | 'obj'
  | 'chart' | 'tbl' | 'clipArt' | 'dgm' | 'media' | 'sldImg' | 'pic';

const PLACEHOLDER_TYPES: ReadonlySet<string> = new Set(['title', 'body', 'ctrTitle', 'subTitle', 'dt', 'sldNum', 'ftr', 'hdr', 'obj', 'chart', 'tbl', 'clipArt', 'dgm', 'media', 'sldImg', 'pic']);

/** A shape's `p:ph` (§19.3.1.36) with the schema defaults applied. */
export interface PlaceholderRef {
  /** ST_PlaceholderType; `obj` when the attribute is absent. */
  type: PlaceholderType;
  /** `idx` (xsd:unsignedInt); 0 when absent. */
  idx: number;
  /** True when `type` was written (not the `obj` default). */
  typeExplicit: boolean;
  /** `orient` (ST_Direction): `horz` (default) or `vert`. */
  orient: 'horz' | 'vert';
  /** `sz` (ST_PlaceholderSize): `full` (default), `half`, `quarter`. */
  size: 'full' | 'half' | 'quarter';
  /** `hasCustomPrompt`. */
  hasCustomPrompt: boolean;
}

/**
 * The master placeholder type a layout placeholder inherits from (python-pptx
 * `LayoutPlaceholder._base_placeholder` makes the same mapping): titles to `title`, the
 * header/footer family to their own type, every content type to `body`.
 */
export function masterPlaceholderType(type: PlaceholderType): PlaceholderType {
  switch (type) {
    case 'title':
    case 'ctrTitle':
      return 'title';
    case 'dt':
    case 'ftr':
    case 'sldNum':
    case 'hdr':
    case 'sldImg':
      return type;
    default:
      return 'body';
  }
}

/** How a part's placeholders are found: by `idx` and by type, each the first in document order. */
export interface PlaceholderLookup<T> {
  byIdx(idx: number): T | undefined;
  byType(type: string): T | undefined;
}

const isTitleType = (type: string): boolean => type === 'title' || type === 'ctrTitle';

/**
 * The one placeholder-inheritance rule (§19.3.1.36), used wherever a placeholder's base is
 * looked up — analysis, doctor, fitting, filling and rendering:
 *
 * - a slide placeholder inherits from the layout placeholder with the same `idx`, when the
 *   idx is not 0 (the absent-attribute default, which layouts written without idx give
 *   every placeholder, so it identifies nothing); else from the layout placeholder of the
 *   same type; titles are interchangeable (`title` ↔ `ctrTitle`), as PowerPoint and
 *   LibreOffice match them; when the layout has none, from the master placeholder of the
 *   mapped type ({@link masterBasePlaceholder}), as both render a title put on a Blank layout;
 * - a layout placeholder inherits from the master placeholder of the mapped type.
 *
 * @returns the base on the layout, undefined when the layout has none (the caller then
 *   asks the master)
 */
export function layoutBasePlaceholder<T>(layout: PlaceholderLookup<T>, ph: { type: string; idx: number }): T | undefined {
  return (
    (ph.idx > 0 ? layout.byIdx(ph.idx) : undefined) ??
    layout.byType(ph.type) ??
    (isTitleType(ph.type) ? layout.byType(ph.type === 'title' ? 'ctrTitle' : 'title') : undefined)
  );
}

/** The master placeholder a layout placeholder of `type` inherits from ({@link masterPlaceholderType}; a master's `ctrTitle` serves as its title). */
export function masterBasePlaceholder<T>(master: PlaceholderLookup<T>, type: string): T | undefined {
  const want = masterPlaceholderType(type as PlaceholderType);
  return master.byType(want) ?? (want === 'title' ? master.byType('ctrTitle') : undefined);
}

/** A {@link PlaceholderLookup} over a list of placeholders (first match in list order). */
export function lookupIn<T>(list: readonly T[], keyOf: (item: T) => { type: string; idx: number }): PlaceholderLookup<T> {
  return {
    byIdx: (idx) => list.find((p) => keyOf(p).idx === idx),
    byType: (type) => list.find((p) => keyOf(p).type === type),
  };
}

/** A 2-D transform as written (`a:xfrm` §20.1.7.6 / `p:xfrm` §19.3.1.53), EMU and 60000ths of a degree. */
export interface RawXfrm {
  off: { x: number; y: number } | undefined;
  ext: { cx: number; cy: number } | undefined;
  /** `rot`, in 60000ths of a degree (clockwise). */
  rot: number;
  flipH: boolean;
  flipV: boolean;
  /** Group transforms only (`a:chOff`, `a:chExt`, §20.1.7.5). */
  chOff: { x: number; y: number } | undefined;
  chExt: { cx: number; cy: number } | undefined;
}

/** Resolved position and size on the slide, EMU, plus rotation and flips. */
export interface Frame {
  x: number;
  y: number;
  cx: number;
  cy: number;
  /** Clockwise rotation in degrees (`rot` / 60000). */
  rotation: number;
  flipH: boolean;
  flipV: boolean;
}

/**
 * How a group's child coordinate space lands on the slide: a point map (x' = a·x + b·y + c,
 * y' = d·x + e·y + f), the scale applied to extents along the child's own axes, and the
 * rotation and mirroring the enclosing groups add (§20.1.7.5: members are scaled from
 * `chOff`/`chExt` into the group's box, then flipped and rotated with it about its centre).
 */
export interface GroupTransform {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  /** Extent scale along the child's x and y axes. */
  scaleX: number;
  scaleY: number;
  /** Degrees the enclosing groups rotate their members, clockwise. */
  rotation: number;
  /** The enclosing groups mirror horizontally / vertically (an odd number of flips). */
  flipH: boolean;
  flipV: boolean;
}

/** The transform of a top-level shape: its own coordinates are slide coordinates (EMU). */
export const IDENTITY: GroupTransform = { a: 1, b: 0, c: 0, d: 0, e: 1, f: 0, scaleX: 1, scaleY: 1, rotation: 0, flipH: false, flipV: false };

const NV_NAMES: ReadonlySet<string> = new Set(['nvSpPr', 'nvGrpSpPr', 'nvGraphicFramePr', 'nvCxnSpPr', 'nvPicPr', 'nvContentPartPr']);
const P_LIKE: ReadonlySet<string> = new Set([NS.p, NS.p14]);

/** One shape of a shape tree. */
export class Shape {
  /** Group members in document order (empty for non-groups). */
  readonly children: Shape[] = [];
  /** `p:cNvPr/@id` (§19.3.1.12); 0 when absent. */
  readonly id: number;
  /** `p:cNvPr/@name`. */
  readonly name: string;
  /** `p:cNvPr/@descr` (alternative text). */
  readonly description: string;
  /** `p:cNvPr/@hidden`. */
  readonly hidden: boolean;
  readonly placeholder: PlaceholderRef | undefined;
  /** The transform as written, in the parent group's child coordinate space. */
  readonly xfrm: RawXfrm | undefined;
  /** The shape's `p:txBody` (§19.3.1.51), when it has text. */
  readonly txBody: Element | undefined;
  /** `a:graphic/a:graphicData` of a graphic frame (§20.1.2.2.17). */
  readonly graphicData: Element | undefined;
  /** `r:id` of a content part. */
  readonly contentPartRId: string | undefined;
  private baseResolved = false;
  private base: Shape | undefined;

  constructor(
    readonly kind: ShapeKind,
    readonly element: Element,
    readonly part: ShapeTreePart,
    /** Enclosing group, undefined at the top of the shape tree. */
    readonly group: Shape | undefined,
    /** Maps this shape's own `xfrm` coordinates (its parent's child space) to slide space. */
    readonly toSlide: GroupTransform,
  ) {
    const nv = nonVisual(element);
    const cNvPr = nv ? childIn(nv, P_LIKE, 'cNvPr') : undefined;
    this.id = intAttr(cNvPr, 'id', 0);
    this.name = attr(cNvPr, 'name') ?? '';
    this.description = attr(cNvPr, 'descr') ?? '';
    this.hidden = boolAttr(cNvPr, 'hidden') ?? false;
    const nvPr = nv ? childIn(nv, P_LIKE, 'nvPr') : undefined;
    this.placeholder = readPlaceholder(child(nvPr, NS.p, 'ph'));
    this.xfrm = readXfrm(xfrmElement(kind, element));
    this.txBody = kind === 'sp' ? child(element, NS.p, 'txBody') : undefined;
    this.graphicData = kind === 'graphicFrame' ? child(child(element, NS.a, 'graphic'), NS.a, 'graphicData') : undefined;
    this.contentPartRId = kind === 'contentPart' ? element.getAttributeNS(NS.r, 'id') || undefined : undefined;
  }

  /**
   * The placeholder this one inherits from: on a slide, the layout placeholder with the
   * same idx, else the same type; on a layout, the master placeholder of the mapped type
   * ({@link masterPlaceholderType}); none on a master or for non-placeholders.
   */
  get basePlaceholder(): Shape | undefined {
    if (!this.baseResolved) {
      this.baseResolved = true;
      this.base = this.placeholder ? this.part.basePlaceholderFor(this.placeholder) : undefined;
    }
    return this.base;
  }

  /** The inheritance chain: this shape, then its base placeholders up to the master. */
  *chain(): Generator<Shape> {
    const seen = new Set<Shape>();
    for (let s: Shape | undefined = this; s && !seen.has(s); s = s.basePlaceholder) {
      seen.add(s);
      yield s;
    }
  }

  /**
   * This shape's own frame on the slide, from its own `xfrm` only (undefined without off
   * and ext). Inside groups the box's centre goes through the groups' transforms, the
   * extent is scaled, and the groups' rotation and flips are added to the shape's own.
   */
  get ownFrame(): Frame | undefined {
    const x = this.xfrm;
    if (!x?.off || !x.ext) return undefined;
    const t = this.toSlide;
    const rot = x.rot / 60000;
    if (t === IDENTITY) {
      return { x: x.off.x, y: x.off.y, cx: x.ext.cx, cy: x.ext.cy, rotation: normDegrees(rot), flipH: x.flipH, flipV: x.flipV };
    }
    const qx = x.off.x + x.ext.cx / 2;
    const qy = x.off.y + x.ext.cy / 2;
    const cx = x.ext.cx * t.scaleX;
    const cy = x.ext.cy * t.scaleY;
    const mirrored = t.flipH !== t.flipV;
    return {
      x: Math.round(t.a * qx + t.b * qy + t.c - cx / 2),
      y: Math.round(t.d * qx + t.e * qy + t.f - cy / 2),
      cx: Math.round(cx),
      cy: Math.round(cy),
      rotation: normDegrees(t.rotation + (mirrored ? -rot : rot)),
      flipH: x.flipH !== t.flipH,
      flipV: x.flipV !== t.flipV,
    };
  }

  /**
   * The effective frame (EMU): own, else inherited through the placeholder chain. As in
   * python-pptx, position and size are inherited separately, so an `a:xfrm` holding only
   * `a:off` keeps the base placeholder's size; rotation and flips come with the position.
   */
  get frame(): Frame | undefined {
    const own = this.ownFrame;
    if (own) return own;
    const posFrom = effective(this, (s) => (s.xfrm?.off ? s : undefined));
    const sizeFrom = effective(this, (s) => (s.xfrm?.ext ? s : undefined));
    if (!posFrom || !sizeFrom) return undefined;
    if (posFrom === sizeFrom) return posFrom.ownFrame;
    const pos = posFrom.xfrm!;
    const size = sizeFrom.xfrm!.ext!;
    // Split sources only happen on placeholders, which sit at the top of their shape trees.
    return { x: pos.off!.x, y: pos.off!.y, cx: size.cx, cy: size.cy, rotation: normDegrees(pos.rot / 60000), flipH: pos.flipH, flipV: pos.flipV };
  }

  /** Every shape of this subtree in document order, this one first. */
  *walk(): Generator<Shape> {
    yield this;
    for (const c of this.children) yield* c.walk();
  }
}

/**
 * The first value `pick` finds walking from `shape` through its base placeholders
 * (slide → layout → master); undefined means "not set anywhere on the chain".
 */
export function effective<T>(shape: Shape | undefined, pick: (s: Shape) => T | undefined): T | undefined {
  if (!shape) return undefined;
  for (const s of shape.chain()) {
    const v = pick(s);
    if (v !== undefined) return v;
  }
  return undefined;
}

const SHAPE_ELEMENTS: Readonly<Record<string, ShapeKind>> = {
  sp: 'sp',
  pic: 'pic',
  graphicFrame: 'graphicFrame',
  grpSp: 'grpSp',
  cxnSp: 'cxnSp',
  contentPart: 'contentPart',
};

/**
 * Walks the children of a shape tree or group (`p:spTree`, `p:grpSp`) into shapes in
 * document order. `mc:AlternateContent` contributes the shapes of its chosen branch.
 *
 * @param budget - shapes still allowed (protects against hostile trees)
 * @throws PackageError `too_large` when the tree holds more shapes than the budget
 */
export function readShapeTree(container: Element, part: ShapeTreePart, group: Shape | undefined, toSlide: GroupTransform, out: Shape[], budget: ShapeBudget): void {
  for (const el of children(container)) readShapeElement(el, part, group, toSlide, out, budget);
}

/** Shapes still allowed in one part's shape tree, and the limit they count down from. */
export interface ShapeBudget {
  remaining: number;
  readonly limit: number;
}

/**
 * Reads one child element of a shape tree or group into `out`: a shape (a group with its
 * members), the shapes of the chosen branch of an `mc:AlternateContent`, or nothing for
 * an element that is no shape (`p:nvGrpSpPr`, extensions).
 *
 * @throws PackageError `too_large` when the budget runs out
 */
export function readShapeElement(el: Element, part: ShapeTreePart, group: Shape | undefined, toSlide: GroupTransform, out: Shape[], budget: ShapeBudget): void {
  if (el.namespaceURI === NS.mc && el.localName === 'AlternateContent') {
    const branch = chooseAlternateContent(el);
    if (branch) readShapeTree(branch, part, group, toSlide, out, budget);
    return;
  }
  if (!P_LIKE.has(el.namespaceURI ?? '')) return;
  const kind = SHAPE_ELEMENTS[el.localName ?? ''];
  if (!kind) return;
  // p14:contentPart is a content part; other p14 elements are not shapes.
  if (el.namespaceURI === NS.p14 && kind !== 'contentPart') return;
  if (--budget.remaining < 0) {
    throw new PackageError('too_large', `${part.partName} holds more shapes than the ${budget.limit} Slidewright reads in one slide, layout or master`);
  }
  const shape = new Shape(kind, el, part, group, toSlide);
  out.push(shape);
  if (kind === 'grpSp') readShapeTree(el, part, shape, childTransform(shape), shape.children, budget);
}

/**
 * The transform of a group's members: child point p goes to off + (p − chOff)·ext/chExt in
 * the group's parent space (§20.1.7.5), is flipped and rotated about the group's centre,
 * then goes through the group's own parent transform.
 */
function childTransform(group: Shape): GroupTransform {
  const x = group.xfrm;
  const parent = group.toSlide;
  if (!x?.off || !x.ext) return parent;
  const chOff = x.chOff ?? x.off;
  const chExt = x.chExt ?? x.ext;
  const sx = chExt.cx === 0 ? 1 : x.ext.cx / chExt.cx;
  const sy = chExt.cy === 0 ? 1 : x.ext.cy / chExt.cy;
  // Local map as a matrix: scale/translate, flip about the centre, rotate about the centre.
  const centerX = x.off.x + x.ext.cx / 2;
  const centerY = x.off.y + x.ext.cy / 2;
  const fx = x.flipH ? -1 : 1;
  const fy = x.flipV ? -1 : 1;
  const theta = ((x.rot / 60000) * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  // u = off + (p − chOff)·s ; v = C + F(u − C) ; w = C + R(v − C)  ⇒ w = C + R·F·(off − C + (p − chOff)·s)
  const la = cos * fx * sx;
  const lb = -sin * fy * sy;
  const ld = sin * fx * sx;
  const le = cos * fy * sy;
  const k0x = x.off.x - centerX - chOff.x * sx;
  const k0y = x.off.y - centerY - chOff.y * sy;
  const lc = centerX + cos * fx * k0x - sin * fy * k0y;
  const lf = centerY + sin * fx * k0x + cos * fy * k0y;
  const p = parent;
  const mirrored = p.flipH !== p.flipV;
  const groupRot = normDegrees(x.rot / 60000);
  return {
    a: p.a * la + p.b * ld,
    b: p.a * lb + p.b * le,
    c: p.a * lc + p.b * lf + p.c,
    d: p.d * la + p.e * ld,
    e: p.d * lb + p.e * le,
    f: p.d * lc + p.e * lf + p.f,
    scaleX: p.scaleX * sx,
    scaleY: p.scaleY * sy,
    rotation: normDegrees(p.rotation + (mirrored ? -groupRot : groupRot)),
    flipH: p.flipH !== x.flipH,
    flipV: p.flipV !== x.flipV,
  };
}

/** Degrees in [0, 360). */
function normDegrees(d: number): number {
  const r = d % 360;
  return r < 0 ? r + 360 : r === 0 ? 0 : r;
}

/** Namespaces of Office 2016 chart extensions (`cx:` chartex), which the analysis reads. */
const CHARTEX_NS = /^http:\/\/schemas\.microsoft\.com\/office\/drawing\/20\d\d\/[\d/]*chartex$/;

/**
 * The branch of `mc:AlternateContent` the shape tree is read from: a `mc:Choice` that
 * requires only chartex namespaces (the analysis reads `cx:chartSpace` for its type and
 * counts, rather than the fallback picture), else what {@link resolveAlternateContent}
 * chooses (Part 3, §10.2).
 */
export function chooseAlternateContent(ac: Element): Element | undefined {
  for (const choice of children(ac, NS.mc, 'Choice')) {
    const requires = (attr(choice, 'Requires') ?? '').split(/\s+/).filter(Boolean);
    if (requires.length && requires.every((prefix) => CHARTEX_NS.test(choice.lookupNamespaceURI(prefix) ?? ''))) return choice;
  }
  return resolveAlternateContent(ac);
}

// (sibling walks, not lists of children: every shape of every slide generated is read through them)
function nonVisual(el: Element): Element | undefined {
  for (let c = el.firstChild; c; c = c.nextSibling) if (isElement(c) && NV_NAMES.has(c.localName ?? '') && P_LIKE.has(c.namespaceURI ?? '')) return c;
  return undefined;
}

function childIn(parent: Element, nss: ReadonlySet<string>, local: string): Element | undefined {
  for (let c = parent.firstChild; c; c = c.nextSibling) if (isElement(c) && c.localName === local && nss.has(c.namespaceURI ?? '')) return c;
  return undefined;
}

function xfrmElement(kind: ShapeKind, el: Element): Element | undefined {
  switch (kind) {
    case 'graphicFrame':
      return child(el, NS.p, 'xfrm');
    case 'grpSp':
      return child(child(el, NS.p, 'grpSpPr'), NS.a, 'xfrm');
    case 'contentPart':
      return child(el, NS.p14, 'xfrm') ?? child(el, NS.p, 'xfrm');
    default:
      return child(child(el, NS.p, 'spPr'), NS.a, 'xfrm');
  }
}

function readXfrm(el: Element | undefined): RawXfrm | undefined {
  if (!el) return undefined;
  return {
    off: readPoint(el, 'off'),
    ext: readSize(el, 'ext'),
    rot: intAttr(el, 'rot', 0),
    flipH: boolAttr(el, 'flipH') ?? false,
    flipV: boolAttr(el, 'flipV') ?? false,
    chOff: readPoint(el, 'chOff'),
    chExt: readSize(el, 'chExt'),
  };
}

// (module functions, not closures made on every read: shapes are read for every slide generated)
/** An `a:off`/`a:chOff` child of a transform (EMU). */
function readPoint(xfrm: Element, local: string): { x: number; y: number } | undefined {
  const c = child(xfrm, NS.a, local);
  return c ? { x: intAttr(c, 'x', 0), y: intAttr(c, 'y', 0) } : undefined;
}

/** An `a:ext`/`a:chExt` child of a transform (EMU). */
function readSize(xfrm: Element, local: string): { cx: number; cy: number } | undefined {
  const c = child(xfrm, NS.a, local);
  return c ? { cx: intAttr(c, 'cx', 0), cy: intAttr(c, 'cy', 0) } : undefined;
}

function readPlaceholder(ph: Element | undefined): PlaceholderRef | undefined {
  if (!ph) return undefined;
  const rawType = attr(ph, 'type');
  const type = (rawType !== undefined && PLACEHOLDER_TYPES.has(rawType) ? rawType : 'obj') as PlaceholderType;
  const idxRaw = attr(ph, 'idx');
  const idx = idxRaw !== undefined && /^\d+$/.test(idxRaw) ? Number(idxRaw) : 0;
  const orient = attr(ph, 'orient') === 'vert' ? 'vert' : 'horz';
  const szRaw = attr(ph, 'sz');
  const size = szRaw === 'half' || szRaw === 'quarter' ? szRaw : 'full';
  return { type, idx, typeExplicit: rawType !== undefined, orient, size, hasCustomPrompt: boolAttr(ph, 'hasCustomPrompt') ?? false };
}
