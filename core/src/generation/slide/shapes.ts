/**
 * Small navigation helpers over the shape tree of a slide, layout or master (ECMA-376
 * Part 1, §19.3.1.45 `p:spTree`) as generation edits it; placeholder inheritance is the
 * reading model's one rule (`ooxml/pml/shapes.ts`).
 *
 * Geometry is in EMU (English Metric Units, 914 400 per inch, 12 700 per point).
 */
import { NS, attr, child, children, createElement, descendants, intAttr, path, type Document, type Element } from '../../ooxml/xml.js';
import { layoutBasePlaceholder, lookupIn, masterBasePlaceholder } from '../../ooxml/pml/shapes.js';

/** A rectangle in EMU: offset (`a:off`) and extent (`a:ext`) of an `a:xfrm` (§20.1.7.6). */
export interface Rect {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

/**
 * One placeholder shape (§19.3.1.36 `p:ph`) of a shape tree.
 * `type` is the ST_PlaceholderType (§19.7.10) with its default `obj` applied; `idx` is
 * the `idx` attribute (default 0).
 */
export interface PlaceholderShape {
  /** The shape: `p:sp`, `p:graphicFrame` or `p:pic`. */
  shape: Element;
  ph: Element;
  type: string;
  idx: number;
}

/** The non-visual properties wrapper of each shape kind (`p:nvSpPr`, `p:nvGraphicFramePr`, ...). */
const NV_WRAPPER: Readonly<Record<string, string>> = {
  sp: 'nvSpPr',
  graphicFrame: 'nvGraphicFramePr',
  pic: 'nvPicPr',
  cxnSp: 'nvCxnSpPr',
  grpSp: 'nvGrpSpPr',
  contentPart: 'nvContentPartPr',
};

/** `p:cSld/p:spTree` of a slide, layout or master document. */
export function shapeTree(doc: Document): Element | undefined {
  return path(doc.documentElement!, [NS.p, 'cSld'], [NS.p, 'spTree']);
}

/** The non-visual wrapper (`p:nvSpPr`, ...) of a shape, or undefined for non-shapes. */
export function nvWrapper(shape: Element): Element | undefined {
  const name = NV_WRAPPER[shape.localName ?? ''];
  return name ? child(shape, NS.p, name) : undefined;
}

/** `p:cNvPr` (§19.3.1.12) of a shape. */
export function cNvPr(shape: Element): Element | undefined {
  const nv = nvWrapper(shape);
  return nv ? child(nv, NS.p, 'cNvPr') : undefined;
}

/** `p:ph` of a shape, or undefined when the shape is not a placeholder. */
export function placeholderElement(shape: Element): Element | undefined {
  const nv = nvWrapper(shape);
  return nv ? path(nv, [NS.p, 'nvPr'], [NS.p, 'ph']) : undefined;
}

/** The placeholders at the top level of a shape tree, in document (z) order. */
export function placeholders(tree: Element | undefined): PlaceholderShape[] {
  if (!tree) return [];
  const out: PlaceholderShape[] = [];
  for (const shape of children(tree, NS.p)) {
    const ph = placeholderElement(shape);
    if (!ph) continue;
    out.push({ shape, ph, type: attr(ph, 'type') ?? 'obj', idx: intAttr(ph, 'idx', 0) });
  }
  return out;
}

/** The transform of a shape: `p:spPr/a:xfrm` (sp, pic, cxnSp), `p:xfrm` (graphicFrame), `p:grpSpPr/a:xfrm`. */
export function xfrmElement(shape: Element): Element | undefined {
  switch (shape.localName) {
    case 'graphicFrame':
      return child(shape, NS.p, 'xfrm');
    case 'grpSp':
      return path(shape, [NS.p, 'grpSpPr'], [NS.a, 'xfrm']);
    default:
      return path(shape, [NS.p, 'spPr'], [NS.a, 'xfrm']);
  }
}

/** The shape's own rectangle, when it states one completely. */
export function ownRect(shape: Element): Rect | undefined {
  const xfrm = xfrmElement(shape);
  const off = child(xfrm, NS.a, 'off');
  const ext = child(xfrm, NS.a, 'ext');
  if (!off || !ext) return undefined;
  const x = intAttr(off, 'x');
  const y = intAttr(off, 'y');
  const cx = intAttr(ext, 'cx');
  const cy = intAttr(ext, 'cy');
  if (x === undefined || y === undefined || cx === undefined || cy === undefined) return undefined;
  return { x, y, cx, cy };
}

const keyOf = (p: PlaceholderShape): { type: string; idx: number } => p;

/** The layout placeholder a slide placeholder inherits from: {@link layoutBasePlaceholder}, the one rule. */
export function matchLayoutPlaceholder(layoutPhs: readonly PlaceholderShape[], type: string, idx: number): PlaceholderShape | undefined {
  return layoutBasePlaceholder(lookupIn(layoutPhs, keyOf), { type, idx });
}

/** The master placeholder a layout placeholder of `type` inherits from: {@link masterBasePlaceholder}, the one rule. */
export function matchMasterPlaceholder(masterPhs: readonly PlaceholderShape[], type: string): PlaceholderShape | undefined {
  return masterBasePlaceholder(lookupIn(masterPhs, keyOf), type);
}

/**
 * A placeholder's effective rectangle: its own `a:xfrm`, else the layout placeholder's,
 * else the master placeholder's.
 */
export function resolveRect(ph: PlaceholderShape, layoutPhs: readonly PlaceholderShape[], masterPhs: readonly PlaceholderShape[]): Rect | undefined {
  const own = ownRect(ph.shape);
  if (own) return own;
  const lp = matchLayoutPlaceholder(layoutPhs, ph.type, ph.idx);
  const fromLayout = lp ? ownRect(lp.shape) : undefined;
  if (fromLayout) return fromLayout;
  const mp = matchMasterPlaceholder(masterPhs, lp?.type ?? ph.type);
  return mp ? ownRect(mp.shape) : undefined;
}

/** Largest `p:cNvPr/@id` used anywhere in a document (shape ids are unique per slide, §19.3.1.12). */
export function maxShapeId(doc: Document): number {
  let max = 0;
  for (const el of descendants(doc, NS.p, 'cNvPr')) {
    const id = intAttr(el, 'id', 0);
    if (id > max && id < 0x7fffffff) max = id;
  }
  return max;
}

/**
 * A `p:nvPr` (§19.3.1.33) for a new shape; with `ph`, it holds a `p:ph` (§19.3.2.5) naming
 * the same placeholder (type, orient, sz, idx copied), so the shape inherits from it.
 */
export function nonVisualProps(doc: Document, ph?: Element): Element {
  const nvPr = createElement(doc, NS.p, 'p:nvPr');
  if (ph) {
    const ref = createElement(doc, NS.p, 'p:ph');
    for (const name of ['type', 'orient', 'sz', 'idx']) {
      const v = attr(ph, name);
      if (v !== undefined) ref.setAttribute(name, v);
    }
    nvPr.appendChild(ref);
  }
  return nvPr;
}

/** Writes `a:off`/`a:ext` of an `a:xfrm` or `p:xfrm` element, creating them as needed. */
export function setRect(doc: Document, xfrm: Element, r: Rect): void {
  let off = child(xfrm, NS.a, 'off');
  let ext = child(xfrm, NS.a, 'ext');
  if (!off) {
    off = createElement(doc, NS.a, 'a:off');
    xfrm.insertBefore(off, xfrm.firstChild);
  }
  if (!ext) {
    ext = createElement(doc, NS.a, 'a:ext');
    if (off.nextSibling) xfrm.insertBefore(ext, off.nextSibling);
    else xfrm.appendChild(ext);
  }
  off.setAttribute('x', String(Math.round(r.x)));
  off.setAttribute('y', String(Math.round(r.y)));
  ext.setAttribute('cx', String(Math.max(0, Math.round(r.cx))));
  ext.setAttribute('cy', String(Math.max(0, Math.round(r.cy))));
}

/**
 * Gives every `p:cNvPr` that repeats an id already used in the document a new unique id
 * (shape ids are unique per slide, §19.3.1.12). Shapes inside `mc:Fallback` are left
 * alone: the branches of one `mc:AlternateContent` may share ids.
 *
 * @returns how many ids were changed
 */
export function renumberDuplicateShapeIds(doc: Document): number {
  const seen = new Set<number>();
  const dups: Element[] = [];
  let max = 0;
  const stack: Element[] = [doc.documentElement!];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.localName === 'Fallback' && el.namespaceURI === NS.mc) continue;
    if (el.localName === 'cNvPr' && el.namespaceURI === NS.p) {
      const id = intAttr(el, 'id', -1);
      if (id >= 0 && seen.has(id)) dups.push(el);
      else if (id >= 0) {
        seen.add(id);
        if (id > max && id < 0x7fffffff) max = id;
      }
    }
    const cs = children(el);
    for (let i = cs.length - 1; i >= 0; i--) stack.push(cs[i]!);
  }
  for (const el of dups) el.setAttribute('id', String(++max));
  return dups.length;
}

/** Largest shape id and whether any id repeats (outside `mc:Fallback`), read-only. */
export function shapeIdStats(doc: Document): { max: number; duplicates: boolean } {
  const seen = new Set<number>();
  let max = 0;
  let duplicates = false;
  const stack: Element[] = [doc.documentElement!];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.localName === 'Fallback' && el.namespaceURI === NS.mc) continue;
    if (el.localName === 'cNvPr' && el.namespaceURI === NS.p) {
      const id = intAttr(el, 'id', -1);
      if (seen.has(id)) duplicates = true;
      seen.add(id);
      if (id > max && id < 0x7fffffff) max = id;
    }
    for (const c of children(el)) stack.push(c);
  }
  return { max, duplicates };
}
