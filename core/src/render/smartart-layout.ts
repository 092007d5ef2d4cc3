/**
 * SmartArt laid out from its definition, for a diagram whose drawing part (`dsp:drawing`) is
 * missing or holds no shapes (as WPS Office writes it): PowerPoint and LibreOffice then lay
 * the diagram out from the data model (`dgm:dataModel`, ECMA-376 Part 1 §21.4.3) and the
 * layout definition (`dgm:layoutDef`, §21.4.2), coloured by the colours definition
 * (`dgm:colorsDef`, §21.4.4) and styled by the style definition (`dgm:styleDef`, §21.4.5).
 *
 * The result is a `dsp:spTree` of `dsp:sp` shapes in EMU relative to the graphic frame, the
 * same shape the drawing part has, so the preview and PDF code draw it unchanged.
 *
 * Implemented: the layout-node tree with `forEach` (axes self, ch, des, par, root, followSib,
 * precedSib; ptType filters; st/cnt/step), `choose`/`if` (functions cnt, var, pos, revPos,
 * posEven, posOdd, depth, maxDepth), `presOf`, the `w`/`h`/`l`/`t`/`r`/`b`/`ctrX`/`ctrY`
 * constraints (values, references to the node itself and to its children by name, factors),
 * and the algorithms `composite`, `lin`, `snake`, `cycle`, `tx`, `sp`. Other algorithms
 * (`pyra`, `hierChild`, `hierRoot`, `conn`, …) stack their children top to bottom. When the
 * definition cannot be used (missing, over the limits, or a point's text would not be
 * shown), the top-level points are drawn as boxes stacked in the frame with their
 * children's text inside, so no text is lost; each such case is named in the warnings.
 *
 * The definition is hostile input: nesting depth, the number of layout nodes and the
 * number of `forEach` iterations are bounded.
 */
import { NS, attr, child, children, createElement, parseXml, type Document, type Element } from '../ooxml/xml.js';

const DSP = 'http://schemas.microsoft.com/office/drawing/2008/diagram';

/** Deepest layout-node / forEach / choose nesting followed. */
export const MAX_LAYOUT_DEPTH = 40;
/** Most layout nodes built for one diagram. */
export const MAX_LAYOUT_NODES = 2000;
/** Most forEach iterations (points visited) for one diagram. */
export const MAX_FOREACH_STEPS = 20000;
/** Most data-model points read. */
export const MAX_POINTS = 5000;
/** Most paragraphs copied into the shapes of one diagram (nodes presenting many points each). */
export const MAX_PARAGRAPHS = 20000;

/**
 * A constraint's value (ECMA-376 Part 1 §21.4.2.2): `fact` × the referenced value `base`
 * when it names one (a font size, in points, read as millimetres where a geometry refers to
 * it, as the definitions are written), else its own `val` (millimetres for geometry, points
 * for font sizes); undefined when neither is known. Geometry comes out in EMU.
 */
function constraintValue(k: Element, font: boolean, refType: string | undefined, base: number | undefined): number | undefined {
  if (refType && refType !== 'none') {
    if (base === undefined) return undefined;
    const fact = Number(attr(k, 'fact') ?? 1);
    return base * (Number.isFinite(fact) ? fact : 1) * (FONT.test(refType) && !font ? MM : 1);
  }
  const written = attr(k, 'val');
  // `val` defaults to 0 (`dgm:constr`, §21.4.2.8): `<constr type="l" for="ch" forName="tile1"/>` puts an
  // edge at the origin. Without a value an `op` (equ, lte, gte) only relates values, and a
  // font size of 0 is no size.
  if (written === undefined && (font || (attr(k, 'op') ?? 'none') !== 'none')) return undefined;
  const val = Number(written ?? 0);
  if (!Number.isFinite(val)) return undefined;
  return font ? val : val * MM;
}

/** The parsed parts of one diagram; only the data model is required. */
export interface DiagramDefinition {
  /** `dgm:dataModel` (diagramData part). */
  data: Document;
  /** `dgm:layoutDef` (diagramLayout part). */
  layout?: Document;
  /** `dgm:colorsDef` (diagramColors part). */
  colors?: Document;
  /** `dgm:styleDef` (diagramQuickStyle part). */
  style?: Document;
}

/** Shapes of a diagram laid out from its definition. */
export interface DiagramLayout {
  /** A `dsp:spTree` (namespace of the Office 2008 diagram drawing) of `dsp:sp`, EMU relative to the frame. */
  spTree: Element;
  /** What was approximated, for the render warnings. */
  warnings: string[];
  /**
   * Shapes of `spTree` whose text takes one size (an `op="equ"` font-size constraint,
   * §21.4.2.8, over the nodes it names): each group is drawn at the size its fullest member
   * fits at, as PowerPoint sizes such nodes alike. Custom-formatted text is in none.
   */
  sizeGroups: Element[][];
}

interface Pt {
  id: string;
  /** `dgm:prSet` of the point (a presentation point's presAssocID, presName, presStyleIdx, presStyleCnt). */
  prSet?: Element;
  type: string;
  t?: Element;
  spPr?: Element;
  parent?: Pt;
  children: Pt[];
  sibTrans?: Pt;
  parTrans?: Pt;
}

interface Rect { x: number; y: number; w: number; h: number }

interface LNode {
  name: string;
  styleLbl?: string;
  alg?: { type: string; params: Map<string, string> };
  shape?: { type?: string; rot: number; hide: boolean; zOrderOff: number };
  texts?: { pts: Pt[]; axis: string };
  pt: Pt;
  constrs: Element[];
  children: LNode[];
  /** Index among the nodes of the same name, and their number (for colour lists). */
  index: number;
  count?: number;
  rect?: Rect;
  vals?: Map<string, number>;
  /** Types of `vals` derived from the node's other dimension (scaled with it). */
  crossRef?: Set<string>;
}

class LimitError extends Error {}

/** State of one layout pass: warnings, and the latest constraint values of nodes by name (for `for`/`refFor` `des`). */
interface Ctx {
  warn: Set<string>;
  named: Map<string, Map<string, number>>;
}

const isNode = (p: Pt): boolean => p.type === 'node' || p.type === 'asst';

function readModel(data: Document): { root: Pt; points: Pt[]; pres: Map<string, Pt> } {
  const model = data.documentElement;
  const ptLst = child(model ?? undefined, NS.dgm, 'ptLst');
  const byId = new Map<string, Pt>();
  const points: Pt[] = [];
  for (const el of children(ptLst ?? (model as Element), NS.dgm, 'pt')) {
    if (points.length >= MAX_POINTS) break;
    const id = attr(el, 'modelId') ?? '';
    const p: Pt = { id, type: attr(el, 'type') ?? 'node', prSet: child(el, NS.dgm, 'prSet'), t: child(el, NS.dgm, 't'), spPr: child(el, NS.dgm, 'spPr'), children: [] };
    if (!byId.has(id)) byId.set(id, p);
    points.push(p);
  }
  const cxns = children(child(model ?? undefined, NS.dgm, 'cxnLst') ?? (model as Element), NS.dgm, 'cxn')
    .filter((c) => (attr(c, 'type') ?? 'parOf') === 'parOf')
    .map((c) => ({ src: byId.get(attr(c, 'srcId') ?? ''), dest: byId.get(attr(c, 'destId') ?? ''), ord: Number(attr(c, 'srcOrd') ?? 0), par: byId.get(attr(c, 'parTransId') ?? ''), sib: byId.get(attr(c, 'sibTransId') ?? '') }))
    .sort((a, b) => a.ord - b.ord);
  for (const c of cxns) {
    if (!c.src || !c.dest || c.dest.parent || c.dest === c.src) continue;
    // no cycles: the source must not descend from the destination
    let up: Pt | undefined = c.src;
    let loop = false;
    for (let k = 0; up && k < MAX_POINTS; k++, up = up.parent) if (up === c.dest) { loop = true; break; }
    if (loop) continue;
    c.dest.parent = c.src;
    c.dest.parTrans = c.par;
    c.dest.sibTrans = c.sib;
    c.src.children.push(c.dest);
  }
  const root = points.find((p) => p.type === 'doc') ?? { id: '', type: 'doc', children: points.filter((p) => isNode(p) && !p.parent) };
  // presentation points: the shape a layout node (presName) made for a data point (presAssocID)
  const pres = new Map<string, Pt>();
  for (const p of points) if (p.type === 'pres' && p.prSet) pres.set(`${attr(p.prSet, 'presAssocID') ?? ''}|${attr(p.prSet, 'presName') ?? ''}`, p);
  return { root, points, pres };
}

function textOf(p: Pt): string {
  if (!p.t) return '';
  let s = '';
  for (const t of Array.from(p.t.getElementsByTagNameNS(NS.a, 't'))) s += t.textContent ?? '';
  return s.trim();
}

function ptTypeOk(p: Pt, ptType: string): boolean {
  switch (ptType) {
    case 'all': return true;
    case 'node': return isNode(p);
    case 'asst': return p.type === 'asst';
    case 'nonAsst': return p.type === 'node';
    case 'norm': return p.type === 'node';
    case 'nonNorm': return p.type !== 'node';
    case 'parTrans': return p.type === 'parTrans';
    case 'sibTrans': return p.type === 'sibTrans';
    case 'pres': return p.type === 'pres';
    case 'doc': return p.type === 'doc';
    default: return isNode(p);
  }
}

class Builder {
  nodes = 0;
  steps = 0;
  counts = new Map<string, number>();
  warnings = new Set<string>();
  forEachByName = new Map<string, Element>();

  constructor(readonly root: Pt, layoutDef: Element) {
    for (const f of Array.from(layoutDef.getElementsByTagNameNS(NS.dgm, 'forEach'))) {
      const n = attr(f, 'name');
      if (n && !this.forEachByName.has(n)) this.forEachByName.set(n, f);
    }
  }

  private step(n = 1): void {
    this.steps += n;
    if (this.steps > MAX_FOREACH_STEPS) throw new LimitError('forEach expansion over the limit');
  }

  /** Points reached from `p` along one axis (§21.4.7.6 ST_AxisType). */
  private axis1(p: Pt, axis: string, ptType: string): Pt[] {
    let out: Pt[];
    switch (axis) {
      case 'self': out = [p]; break;
      case 'ch':
        out = ptType === 'sibTrans' ? p.children.slice(0, -1).map((c) => c.sibTrans).filter((x): x is Pt => !!x)
          : ptType === 'parTrans' ? p.children.map((c) => c.parTrans).filter((x): x is Pt => !!x) : p.children;
        break;
      case 'des': case 'desOrSelf': {
        out = axis === 'desOrSelf' ? [p] : [];
        const walk = (q: Pt, d: number): void => {
          if (d > MAX_LAYOUT_DEPTH) return;
          for (const c of q.children) { this.step(); out.push(c); walk(c, d + 1); }
        };
        walk(p, 0);
        break;
      }
      case 'par': out = p.parent ? [p.parent] : []; break;
      case 'ancst': case 'ancstOrSelf': {
        out = axis === 'ancstOrSelf' ? [p] : [];
        for (let q = p.parent, k = 0; q && k < MAX_LAYOUT_DEPTH; q = q.parent, k++) out.push(q);
        break;
      }
      case 'root': out = [this.root]; break;
      case 'followSib': case 'precedSib': {
        const sibs = p.parent?.children ?? [];
        const i = sibs.indexOf(p);
        if (i < 0) { out = []; break; }
        if (ptType === 'sibTrans') { out = axis === 'followSib' && i < sibs.length - 1 && p.sibTrans ? [p.sibTrans] : axis === 'precedSib' && i > 0 && sibs[i - 1]!.sibTrans ? [sibs[i - 1]!.sibTrans!] : []; break; }
        out = axis === 'followSib' ? sibs.slice(i + 1) : sibs.slice(0, i).reverse();
        break;
      }
      case 'none': out = []; break;
      default: out = [];
    }
    this.step(out.length);
    return out.filter((q) => ptTypeOk(q, ptType));
  }

  /** Points selected by an element with axis/ptType/st/cnt/step attributes (forEach, presOf, if). */
  select(p: Pt, el: Element): Pt[] {
    const axes = (attr(el, 'axis') ?? '').split(/\s+/).filter(Boolean);
    if (!axes.length) return [];
    const types = (attr(el, 'ptType') ?? '').split(/\s+/).filter(Boolean);
    const sts = (attr(el, 'st') ?? '').split(/\s+/).filter(Boolean).map(Number);
    const cnts = (attr(el, 'cnt') ?? '').split(/\s+/).filter(Boolean).map(Number);
    const stepsA = (attr(el, 'step') ?? '').split(/\s+/).filter(Boolean).map(Number);
    let cur = [p];
    for (const [k, a] of axes.slice(0, 8).entries()) {
      const next: Pt[] = [];
      for (const q of cur) next.push(...this.axis1(q, a, types[k] ?? 'all'));
      let sel = next;
      const st = sts[k] ?? 1;
      const cnt = cnts[k] ?? 0;
      const stp = stepsA[k] ?? 1;
      if (st !== 1 || cnt !== 0 || stp !== 1) {
        sel = [];
        const start = st > 0 ? st - 1 : next.length + st;
        for (let i = start; i >= 0 && i < next.length && (cnt <= 0 || sel.length < cnt); i += stp === 0 ? 1 : stp) sel.push(next[i]!);
      }
      cur = sel;
    }
    return cur;
  }

  private cond(p: Pt, el: Element): boolean {
    const func = attr(el, 'func') ?? '';
    const op = attr(el, 'op') ?? 'equ';
    const val = attr(el, 'val') ?? '';
    let v: number | string;
    const sibs = p.parent?.children ?? [p];
    const pos = Math.max(1, sibs.indexOf(p) + 1);
    switch (func) {
      case 'cnt': v = this.select(p, el).length; break;
      case 'pos': v = pos; break;
      case 'revPos': v = sibs.length - pos + 1; break;
      case 'posEven': v = pos % 2 === 0 ? 1 : 0; break;
      case 'posOdd': v = pos % 2 === 1 ? 1 : 0; break;
      case 'depth': { let d = 0; for (let q = p.parent; q && d < MAX_LAYOUT_DEPTH; q = q.parent) d++; v = d; break; }
      case 'maxDepth': {
        const depth = (q: Pt, d: number): number => d > MAX_LAYOUT_DEPTH ? d : q.children.reduce((m, c) => Math.max(m, depth(c, d + 1)), d);
        v = depth(p, 0);
        break;
      }
      case 'var': {
        const a = attr(el, 'arg') ?? '';
        v = a === 'dir' ? 'norm' : a === 'hierBranch' ? 'std' : a === 'animLvl' || a === 'animOne' ? 'none' : a === 'resizeHandles' ? 'rel' : a === 'bulletEnabled' ? 'true' : 'false';
        break;
      }
      default: return false;
    }
    const num = Number(val);
    const a = typeof v === 'number' && val !== '' && !Number.isNaN(num) ? v - num : String(v) === (val === '1' ? 'true' : val === '0' ? 'false' : val) ? 0 : String(v) < val ? -1 : 1;
    switch (op) {
      case 'equ': return a === 0;
      case 'neq': return a !== 0;
      case 'gt': return a > 0;
      case 'lt': return a < 0;
      case 'gte': return a >= 0;
      case 'lte': return a <= 0;
      default: return false;
    }
  }

  build(el: Element, p: Pt, depth: number): LNode {
    if (depth > MAX_LAYOUT_DEPTH) throw new LimitError('layout definition nested too deeply');
    if (++this.nodes > MAX_LAYOUT_NODES) throw new LimitError('too many layout nodes');
    const name = attr(el, 'name') ?? '';
    const index = this.counts.get(name) ?? 0;
    this.counts.set(name, index + 1);
    const node: LNode = { name, styleLbl: attr(el, 'styleLbl'), pt: p, constrs: [], children: [], index };
    this.fill(el, p, node, depth + 1);
    return node;
  }

  private fill(container: Element, p: Pt, node: LNode, depth: number): void {
    if (depth > MAX_LAYOUT_DEPTH) throw new LimitError('layout definition nested too deeply');
    for (const c of children(container, NS.dgm)) {
      switch (c.localName) {
        case 'alg':
          if (!node.alg) node.alg = { type: attr(c, 'type') ?? 'sp', params: new Map(children(c, NS.dgm, 'param').map((x) => [attr(x, 'type') ?? '', attr(x, 'val') ?? ''] as const)) };
          break;
        case 'shape':
          if (!node.shape) node.shape = { type: attr(c, 'type'), rot: Number(attr(c, 'rot') ?? 0) || 0, hide: attr(c, 'hideGeom') === '1' || attr(c, 'hideGeom') === 'true', zOrderOff: Math.max(-1000, Math.min(1000, Math.trunc(Number(attr(c, 'zOrderOff') ?? 0)) || 0)) };
          break;
        case 'presOf':
          if (!node.texts) node.texts = { pts: this.select(p, c), axis: attr(c, 'axis') ?? '' };
          break;
        case 'constrLst':
          node.constrs.push(...children(c, NS.dgm, 'constr'));
          break;
        case 'layoutNode':
          node.children.push(this.build(c, p, depth));
          break;
        case 'forEach': {
          const ref = attr(c, 'ref');
          const body = ref ? this.forEachByName.get(ref) : c;
          if (!body) break;
          const sel = this.select(p, ref ? body : c);
          for (const q of sel) { this.step(); this.fill(body, q, node, depth + 1); }
          break;
        }
        case 'choose': {
          for (const br of children(c, NS.dgm)) {
            if (br.localName === 'if' && this.cond(p, br)) { this.fill(br, p, node, depth + 1); break; }
            if (br.localName === 'else') { this.fill(br, p, node, depth + 1); break; }
          }
          break;
        }
        default:
      }
    }
  }
}

const MM = 36000;

const FONT = /^(primFontSz|secFontSz)$/;
const GEOMETRY = /^(w|h|l|t|r|b|ctrX|ctrY|wOff|hOff|lOff|tOff|rOff|bOff|ctrXOff|ctrYOff)$/;

/**
 * Constraint values of each child of `node` (EMU), from the child's own constraints and then
 * the node's constraints for its children (§21.4.2.8): a value (millimetres), or a factor of
 * a reference (the node's own size, or a named child's value); `op` `lte`/`gte` bound the
 * value set so far instead of replacing it. References to other children are resolved in
 * up to three passes.
 */
function childValues(node: LNode, rect: Rect, cx: Ctx): void {
  const own = new Map<string, number>([['w', rect.w], ['h', rect.h], ['l', 0], ['t', 0], ['r', rect.w], ['b', rect.h], ['ctrX', rect.w / 2], ['ctrY', rect.h / 2]]);
  let prev = new Map<LNode, Map<string, number>>();
  for (let pass = 0; pass < 3; pass++) {
    const cur = new Map<LNode, Map<string, number>>();
    for (const c of node.children) { cur.set(c, new Map()); c.crossRef = new Set(); }
    const lookup = (name: string | undefined, type: string): number | undefined => {
      const c = node.children.find((x) => !name || x.name === name);
      return c ? cur.get(c)!.get(type) ?? prev.get(c)?.get(type) : undefined;
    };
    const apply = (k: Element, targets: LNode[], selfRect: Map<string, number> | undefined): void => {
      const type = attr(k, 'type') ?? '';
      const font = FONT.test(type);
      if (!GEOMETRY.test(type) && !font) return;
      const refType = attr(k, 'refType');
      const refFor = attr(k, 'refFor') ?? 'self';
      const refForName = attr(k, 'refForName');
      const op = attr(k, 'op') ?? 'none';
      let base: number | undefined;
      let cross = false;
      if (refType && refType !== 'none') {
        if (refFor === 'self') base = (selfRect ?? own).get(refType);
        else if (refFor === 'ch' && !selfRect) { base = lookup(refForName, refType); cross = (type === 'h' && refType === 'w') || (type === 'w' && refType === 'h'); }
        else if (refFor === 'des' && refForName) base = cx.named.get(refForName)?.get(refType);
      }
      // (without a value the constraint only groups equal values, op="equ")
      const v = constraintValue(k, font, refType, base);
      if (v === undefined) return;
      for (const c of targets) {
        const m = cur.get(c)!;
        const had = m.get(type);
        if (op === 'lte') { if (had === undefined || v < had) m.set(type, v); }
        else if (op === 'gte') { if (had === undefined || v > had) m.set(type, v); }
        else m.set(type, v);
        if (cross) c.crossRef!.add(type);
      }
    };
    // values set for the child's name by an ancestor (for="des"), then the child's own value
    // constraints (no reference: the child is not yet sized), then this node's for="ch"
    for (const c of node.children) for (const [k, v] of cx.named.get(c.name) ?? []) if (!cur.get(c)!.has(k)) cur.get(c)!.set(k, v);
    for (const c of node.children) for (const k of c.constrs) if ((attr(k, 'for') ?? 'self') === 'self' && !attr(k, 'refType')) apply(k, [c], new Map());
    for (const k of node.constrs) {
      if (attr(k, 'for') !== 'ch') continue;
      const forName = attr(k, 'forName');
      apply(k, node.children.filter((c) => !forName || c.name === forName), undefined);
    }
    for (const m of cur.values()) complete(m);
    prev = cur;
  }
  for (const c of node.children) {
    c.vals = prev.get(c)!;
    if (c.name && cx.named.size < MAX_LAYOUT_NODES) cx.named.set(c.name, new Map([...(cx.named.get(c.name) ?? []), ...c.vals]));
  }
}

/** Fills the edges, size and centre of a box that follow from the ones set (l + w = r, l + w / 2 = ctrX; same vertically). */
function complete(m: Map<string, number>): void {
  for (const [l, w, r, c] of [['l', 'w', 'r', 'ctrX'], ['t', 'h', 'b', 'ctrY']] as const) {
    const L = m.get(l), W = m.get(w), R = m.get(r), C = m.get(c);
    if (W === undefined && L !== undefined && R !== undefined) m.set(w, R - L);
    else if (L === undefined && W !== undefined && R !== undefined) m.set(l, R - W);
    else if (L === undefined && W !== undefined && C !== undefined) m.set(l, C - W / 2);
    const L2 = m.get(l), W2 = m.get(w);
    if (L2 !== undefined && W2 !== undefined) {
      if (R === undefined) m.set(r, L2 + W2);
      if (C === undefined) m.set(c, L2 + W2 / 2);
    }
  }
}

/**
 * Values a node's `for="des"` constraints give its descendants of a name (§21.4.2.8), kept
 * in `cx.named` for {@link childValues}: values, factors of the node's own size, or of
 * other named descendants' values (two passes).
 */
function descendantValues(node: LNode, rect: Rect, cx: Ctx): void {
  const des = node.constrs.filter((k) => attr(k, 'for') === 'des' && attr(k, 'forName'));
  if (!des.length) return;
  const own = new Map<string, number>([['w', rect.w], ['h', rect.h]]);
  for (let pass = 0; pass < 2; pass++) {
    for (const k of des) {
      const type = attr(k, 'type') ?? '';
      const font = FONT.test(type);
      if (!GEOMETRY.test(type) && !font) continue;
      const name = attr(k, 'forName')!;
      const refType = attr(k, 'refType');
      const refFor = attr(k, 'refFor') ?? 'self';
      const base = !refType || refType === 'none' ? undefined : refFor === 'self' ? own.get(refType) : cx.named.get(attr(k, 'refForName') ?? '')?.get(refType);
      const v = constraintValue(k, font, refType, base);
      if (v === undefined) continue;
      let m = cx.named.get(name);
      if (!m) { if (cx.named.size >= MAX_LAYOUT_NODES) continue; m = new Map(); cx.named.set(name, m); }
      const op = attr(k, 'op') ?? 'none';
      const had = m.get(type);
      if (op === 'lte') { if (had === undefined || v < had) m.set(type, v); }
      else if (op === 'gte') { if (had === undefined || v > had) m.set(type, v); }
      else m.set(type, v);
    }
  }
}

function placeComposite(node: LNode, r: Rect, cx: Ctx): void {
  const boxes: Array<{ c: LNode; b: Rect }> = [];
  for (const c of node.children) {
    const v = c.vals!;
    const w = v.get('w') ?? (v.has('l') && v.has('r') ? v.get('r')! - v.get('l')! : r.w);
    const h = v.get('h') ?? (v.has('t') && v.has('b') ? v.get('b')! - v.get('t')! : r.h);
    const x = v.get('l') ?? (v.has('ctrX') ? v.get('ctrX')! - w / 2 : v.has('r') ? v.get('r')! - w : 0);
    const y = v.get('t') ?? (v.has('ctrY') ? v.get('ctrY')! - h / 2 : v.has('b') ? v.get('b')! - h : 0);
    // offsets: l/t move the box, r/b/w/h change its size
    const bx = x + (v.get('lOff') ?? 0) + (v.get('ctrXOff') ?? 0);
    const by = y + (v.get('tOff') ?? 0) + (v.get('ctrYOff') ?? 0);
    const bw = w + (v.get('wOff') ?? 0) + (v.get('rOff') ?? 0) - (v.get('lOff') ?? 0);
    const bh = h + (v.get('hOff') ?? 0) + (v.get('bOff') ?? 0) - (v.get('tOff') ?? 0);
    boxes.push({ c, b: { x: bx, y: by, w: Math.max(0, bw), h: Math.max(0, bh) } });
  }
  if (!boxes.length) return;
  const minX = Math.min(0, ...boxes.map((b) => b.b.x));
  const minY = Math.min(0, ...boxes.map((b) => b.b.y));
  const maxX = Math.max(r.w, ...boxes.map((b) => b.b.x + b.b.w));
  const maxY = Math.max(r.h, ...boxes.map((b) => b.b.y + b.b.h));
  const s = Math.min(1, r.w / Math.max(1, maxX - minX), r.h / Math.max(1, maxY - minY));
  const ox = r.x + (r.w - (maxX - minX) * s) / 2;
  const oy = r.y + (r.h - (maxY - minY) * s) / 2;
  for (const { c, b } of boxes) layout(c, { x: ox + (b.x - minX) * s, y: oy + (b.y - minY) * s, w: b.w * s, h: b.h * s }, cx);
}

function placeLinear(node: LNode, r: Rect, dir: string, cx: Ctx): void {
  const horz = dir === 'fromL' || dir === 'fromR';
  const kids = dir === 'fromR' || dir === 'fromB' ? node.children.slice().reverse() : node.children;
  if (!kids.length) return;
  const P = horz ? 'w' : 'h';
  const S = horz ? 'h' : 'w';
  const parentP = horz ? r.w : r.h;
  const parentS = horz ? r.h : r.w;
  const content = kids.filter((c) => c.alg?.type !== 'sp').length || 1;
  const prim = kids.map((c) => c.vals!.get(P) ?? natural(c, P, cx) ?? (c.alg?.type === 'sp' ? 0 : parentP / content));
  const sec = kids.map((c) => c.vals!.get(S) ?? natural(c, S, cx) ?? parentS);
  const sum = prim.reduce((a, b) => a + b, 0) || 1;
  let s = Math.min(1, parentP / sum);
  const secS = kids.map((c, i) => (c.crossRef!.has(S) ? sec[i]! * s : sec[i]!));
  const maxSec = Math.max(...secS, 1);
  let t = 1;
  if (maxSec > parentS) t = parentS / maxSec;
  // a row too tall (or column too wide) is squeezed across, not along: sizes along come from the row's own constraints
  const align = node.alg?.params.get(horz ? 'nodeVertAlign' : 'nodeHorzAlign') ?? 'ctr';
  // the row or column as a whole: horzAlign / vertAlign (l, r, t, b; centred by default)
  const whole = node.alg?.params.get(horz ? 'horzAlign' : 'vertAlign') ?? 'ctr';
  let pos = whole === 'l' || whole === 't' ? 0 : whole === 'r' || whole === 'b' ? parentP - sum * s : (parentP - sum * s) / 2;
  for (const [i, c] of kids.entries()) {
    const p = prim[i]! * s;
    const q = Math.min(parentS, secS[i]! * t);
    const off = align === 'l' || align === 't' ? 0 : align === 'r' || align === 'b' ? parentS - q : (parentS - q) / 2;
    layout(c, horz ? { x: r.x + pos, y: r.y + off, w: p, h: q } : { x: r.x + off, y: r.y + pos, w: q, h: p }, cx);
    pos += p;
  }
}

/**
 * The size along `dim` a node without a constraint for it takes from its children's named
 * values (an unbounded size, `val="INF"`, is sized to the content): their sum when the node
 * stacks them along `dim`, else the largest.
 */
function natural(node: LNode, dim: 'w' | 'h', cx: Ctx): number | undefined {
  const vals = node.children.map((g) => cx.named.get(g.name)?.get(dim)).filter((v): v is number => v !== undefined);
  if (!vals.length) return undefined;
  const dir = node.alg?.type === 'lin' ? node.alg.params.get('linDir') ?? 'fromL' : undefined;
  const along = dir !== undefined && (dim === 'w') === (dir === 'fromL' || dir === 'fromR');
  return along ? vals.reduce((x, y) => x + y, 0) : Math.max(...vals);
}

function placeSnake(node: LNode, r: Rect, cx: Ctx): void {
  const items = node.children.filter((c) => c.alg?.type !== 'sp');
  if (!items.length) return;
  const sp = node.children.find((c) => c.alg?.type === 'sp');
  const w0 = items[0]!.vals!.get('w') ?? r.w;
  const h0 = items[0]!.vals!.get('h') ?? w0;
  const gap = sp ? (sp.vals!.get('w') ?? sp.vals!.get('h') ?? 0) / Math.max(1, w0) : 0.1;
  const ar = h0 / Math.max(1, w0);
  let best = { cols: 1, size: 0 };
  for (let cols = 1; cols <= items.length; cols++) {
    const rows = Math.ceil(items.length / cols);
    const cw = r.w / (cols + (cols - 1) * gap);
    const ch = r.h / (rows * ar + (rows - 1) * gap * ar);
    const size = Math.min(cw, ch / 1);
    if (size > best.size) best = { cols, size };
  }
  const cols = best.cols;
  const rows = Math.ceil(items.length / cols);
  const cw = best.size;
  const chh = cw * ar;
  const totalW = cols * cw + (cols - 1) * gap * cw;
  const totalH = rows * chh + (rows - 1) * gap * cw;
  const x0 = r.x + (r.w - totalW) / 2;
  const y0 = r.y + (r.h - totalH) / 2;
  for (const [i, c] of items.entries()) {
    const col = i % cols;
    const row = Math.floor(i / cols);
    layout(c, { x: x0 + col * cw * (1 + gap), y: y0 + row * (chh + gap * cw), w: cw, h: chh }, cx);
  }
}

function placeCycle(node: LNode, r: Rect, cx: Ctx): void {
  const items = node.children.filter((c) => c.alg?.type !== 'sp');
  if (!items.length) return;
  const centre = node.alg?.params.get('ctrShpMap') === 'fNode' ? items[0] : undefined;
  const ring = centre ? items.slice(1) : items;
  const d = Math.min(r.w, r.h);
  const mx = r.x + r.w / 2;
  const cy = r.y + r.h / 2;
  const n = Math.max(1, ring.length);
  const size = Math.min(d / 3, n > 1 ? (Math.PI * d * 0.7) / n / 1.3 : d / 3);
  const rad = (d - size) / 2;
  const start = Number(node.alg?.params.get('stAng') ?? 0);
  const span = Number(node.alg?.params.get('spanAng') ?? 360);
  if (centre) layout(centre, { x: mx - size * 0.7, y: cy - size * 0.7, w: size * 1.4, h: size * 1.4 }, cx);
  for (const [i, c] of ring.entries()) {
    const a = ((start + (span * i) / (span >= 360 ? n : Math.max(1, n - 1))) - 90) * (Math.PI / 180);
    layout(c, { x: mx + rad * Math.cos(a) - size / 2, y: cy + rad * Math.sin(a) - size / 2, w: size, h: size }, cx);
  }
}

/**
 * Places `node` in `r` (EMU, frame coordinates) and its children by its algorithm; an
 * algorithm not implemented stacks the children top to bottom and is named in `warn`.
 */
function layout(node: LNode, r: Rect, cx: Ctx): void {
  node.rect = r;
  if (!node.children.length) return;
  descendantValues(node, r, cx);
  childValues(node, r, cx);
  const type = node.alg?.type ?? 'composite';
  if (type === 'composite') placeComposite(node, r, cx);
  else if (type === 'lin') placeLinear(node, r, node.alg!.params.get('linDir') ?? 'fromL', cx);
  else if (type === 'snake') placeSnake(node, r, cx);
  else if (type === 'cycle') placeCycle(node, r, cx);
  else {
    if (type !== 'tx' && type !== 'sp') cx.warn.add(`SmartArt algorithm "${type}" approximated as a vertical stack`);
    placeLinear(node, r, 'fromT', cx);
  }
}

interface Styling { colors?: Document; style?: Document; pres?: Map<string, Pt> }

function styleLabel(doc: Document | undefined, name: string): Element | undefined {
  if (!doc?.documentElement) return undefined;
  const all = children(doc.documentElement, NS.dgm, 'styleLbl');
  return all.find((s) => attr(s, 'name') === name) ?? all.find((s) => attr(s, 'name') === 'node1');
}

/**
 * The colour of the `index`-th of `count` nodes from a colour list (§21.4.4.7): `repeat` and
 * `cycle` go round the list, `span` (the default) spreads it over the nodes (the nearest
 * listed colour; no blending).
 */
function pickColor(lbl: Element | undefined, list: string, index: number, count: number): Element | undefined {
  const l = child(lbl, NS.dgm, list);
  if (!l) return undefined;
  const cs = children(l, NS.a);
  if (!cs.length) return undefined;
  const meth = attr(l, 'meth') ?? 'span';
  if (meth !== 'span' || count <= 1) return cs[index % cs.length];
  return cs[Math.min(cs.length - 1, Math.round((index / (count - 1)) * (cs.length - 1)))];
}

/** The `dsp:sp` of one laid-out node. */
/**
 * @param fixedText - the text keeps its sizes (`a:noAutofit`): a point with custom text
 *   formatting (`dgm:prSet/@custT`, data model §21.4.3), whose sizes PowerPoint no longer fits to
 *   the shape; otherwise the text shrinks to fit (`a:normAutofit`)
 */
function emitShape(doc: Document, node: LNode, st: Styling, id: number, paras: Element[] | undefined, spPrOwn0: Element | undefined, fixedText = false): Element | undefined {
  let spPrOwn = spPrOwn0;
  const r = node.rect!;
  const geomType = node.shape && !node.shape.hide && node.shape.type && node.shape.type !== 'none' && node.shape.type !== 'conn' ? node.shape.type : undefined;
  if (!geomType && !paras?.length) return undefined;
  const sp = createElement(doc, DSP, 'dsp:sp', { modelId: `{sw-${id}}` });
  const nv = createElement(doc, DSP, 'dsp:nvSpPr');
  nv.appendChild(createElement(doc, DSP, 'dsp:cNvPr', { id: 0, name: '' }));
  nv.appendChild(createElement(doc, DSP, 'dsp:cNvSpPr'));
  sp.appendChild(nv);
  const spPr = createElement(doc, DSP, 'dsp:spPr');
  const rot = node.shape?.rot ?? 0;
  const turned = Math.abs(rot % 180) === 90;
  const ew = turned ? r.h : r.w;
  const eh = turned ? r.w : r.h;
  const xfrm = createElement(doc, NS.a, 'a:xfrm', rot ? { rot: Math.round(rot * 60000) } : undefined);
  xfrm.appendChild(createElement(doc, NS.a, 'a:off', { x: Math.round(r.x + (r.w - ew) / 2), y: Math.round(r.y + (r.h - eh) / 2) }));
  xfrm.appendChild(createElement(doc, NS.a, 'a:ext', { cx: Math.round(ew), cy: Math.round(eh) }));
  spPr.appendChild(xfrm);
  const prst = createElement(doc, NS.a, 'a:prstGeom', { prst: geomType ?? 'rect' });
  prst.appendChild(createElement(doc, NS.a, 'a:avLst'));
  spPr.appendChild(prst);
  const presPt = st.pres?.get(`${node.pt.id}|${node.name}`);
  const lbl = node.styleLbl ?? (presPt?.prSet ? attr(presPt.prSet, 'presStyleLbl') : undefined) ?? (node.pt.type === 'sibTrans' ? 'sibTrans2D1' : 'node1');
  const cl = styleLabel(st.colors, lbl);
  // the index and count PowerPoint recorded for this shape, else the node's among its name
  const pIdx = Number(attr(presPt?.prSet, 'presStyleIdx') ?? NaN);
  const pCnt = Number(attr(presPt?.prSet, 'presStyleCnt') ?? NaN);
  if (Number.isInteger(pIdx) && pIdx >= 0 && Number.isInteger(pCnt) && pCnt > pIdx) { node.index = pIdx; node.count = pCnt; }
  // the presentation point's own shape properties come before the data point's
  if (presPt?.spPr && children(presPt.spPr, NS.a).some((e) => /Fill$|^ln$/.test(e.localName ?? ''))) spPrOwn = presPt.spPr;
  const fillC = pickColor(cl, 'fillClrLst', node.index, node.count ?? 1) ?? createElement(doc, NS.a, 'a:schemeClr', { val: 'accent1' });
  const lineC = pickColor(cl, 'linClrLst', node.index, node.count ?? 1) ?? createElement(doc, NS.a, 'a:schemeClr', { val: 'lt1' });
  const textC = pickColor(cl, 'txFillClrLst', node.index, node.count ?? 1);
  const ownFill = spPrOwn ? children(spPrOwn, NS.a).find((e) => /^(solidFill|gradFill|noFill|pattFill|blipFill|grpFill)$/.test(e.localName ?? '')) : undefined;
  const ownLn = spPrOwn ? child(spPrOwn, NS.a, 'ln') : undefined;
  // A shape's own fill and line, else none here: the style's fillRef and lnRef below pick the
  // theme's fill and line styles (§20.1.4.1.10 fillStyleLst, lnStyleLst) in the colours
  // definition's colour, as PowerPoint draws them — a gradient for fillRef 2 or 3, no line
  // for lnRef 0 (a colour written here would have replaced both with a flat one).
  if (!geomType) spPr.appendChild(createElement(doc, NS.a, 'a:noFill'));
  else if (ownFill) spPr.appendChild(doc.importNode(ownFill, true) as Element);
  if (!geomType) {
    const ln = createElement(doc, NS.a, 'a:ln');
    ln.appendChild(createElement(doc, NS.a, 'a:noFill'));
    spPr.appendChild(ln);
  } else if (ownLn) spPr.appendChild(doc.importNode(ownLn, true) as Element);
  sp.appendChild(spPr);
  // Style references from the style definition, coloured by the colours definition.
  const qs = child(styleLabel(st.style, lbl), NS.dgm, 'style');
  const style = createElement(doc, DSP, 'dsp:style');
  for (const [ref, idx, col] of [['lnRef', '2', lineC], ['fillRef', '1', fillC], ['effectRef', '0', undefined], ['fontRef', 'minor', textC]] as const) {
    const src = child(qs, NS.a, ref);
    const el = createElement(doc, NS.a, `a:${ref}`, { idx: attr(src, 'idx') ?? idx });
    const c = col ?? (src ? children(src, NS.a)[0] : undefined);
    if (c) el.appendChild(doc.importNode(c, true));
    else if (ref === 'fontRef') el.appendChild(createElement(doc, NS.a, 'a:schemeClr', { val: 'lt1' }));
    else el.appendChild(createElement(doc, NS.a, 'a:scrgbClr', { r: 0, g: 0, b: 0 }));
    style.appendChild(el);
  }
  sp.appendChild(style);
  if (paras?.length) {
    const tx = createElement(doc, DSP, 'dsp:txBody');
    const bp = createElement(doc, NS.a, 'a:bodyPr', { spcFirstLastPara: 0, vert: 'horz', wrap: 'square', lIns: Math.round(Math.min(r.w, r.h) * 0.04), tIns: Math.round(Math.min(r.w, r.h) * 0.03), rIns: Math.round(Math.min(r.w, r.h) * 0.04), bIns: Math.round(Math.min(r.w, r.h) * 0.03), numCol: 1, spcCol: 1270, anchor: 'ctr', anchorCtr: 0 });
    bp.appendChild(createElement(doc, NS.a, fixedText ? 'a:noAutofit' : 'a:normAutofit'));
    tx.appendChild(bp);
    tx.appendChild(createElement(doc, NS.a, 'a:lstStyle'));
    for (const p of paras) tx.appendChild(p);
    sp.appendChild(tx);
    // The text reads upright in its unturned box, as PowerPoint writes a turned shape's text:
    // the text box's rotation, relative to the shape's, undoes it.
    const tx2 = createElement(doc, DSP, 'dsp:txXfrm', { rot: rot ? -Math.round(rot * 60000) : 0 });
    tx2.appendChild(createElement(doc, NS.a, 'a:off', { x: Math.round(r.x), y: Math.round(r.y) }));
    tx2.appendChild(createElement(doc, NS.a, 'a:ext', { cx: Math.round(r.w), cy: Math.round(r.h) }));
    sp.appendChild(tx2);
  }
  return sp;
}

/**
 * Paragraphs for the points a node presents: a point's own paragraphs centred; for several
 * points or descendants, bulleted and indented by level below `base`.
 */
function paragraphsOf(doc: Document, pts: Pt[], bulleted: boolean, base: Pt | undefined, fontPt: number, align: { ltr: string; rtl: string } = { ltr: 'ctr', rtl: 'ctr' }, budget = { left: MAX_PARAGRAPHS }): Element[] {
  const out: Element[] = [];
  for (const p of pts) {
    if (budget.left <= 0) break;
    if (!p.t || !textOf(p)) continue;
    let lvl = 0;
    for (let q = p.parent; base && q && q !== base && lvl < 8; q = q.parent) lvl++;
    for (const src of children(p.t, NS.a, 'p')) {
      if (budget.left-- <= 0) break;
      const para = doc.importNode(src, true) as Element;
      let pPr = child(para, NS.a, 'pPr');
      if (!pPr) { pPr = createElement(doc, NS.a, 'a:pPr'); para.insertBefore(pPr, para.firstChild); }
      const algn = pPr.getAttribute('rtl') === '1' ? align.rtl : align.ltr;
      if (bulleted) {
        pPr.setAttribute('marL', String(Math.round(114300 * (lvl + 1))));
        pPr.setAttribute('indent', '-114300');
        if (!pPr.getAttribute('algn')) pPr.setAttribute('algn', algn);
        if (!child(pPr, NS.a, 'buChar') && !child(pPr, NS.a, 'buNone')) pPr.appendChild(createElement(doc, NS.a, 'a:buChar', { char: '•' }));
      } else {
        if (!pPr.getAttribute('algn')) pPr.setAttribute('algn', algn);
        if (!child(pPr, NS.a, 'buNone')) pPr.appendChild(createElement(doc, NS.a, 'a:buNone'));
      }
      for (const rp of [...Array.from(para.getElementsByTagNameNS(NS.a, 'rPr')), ...Array.from(para.getElementsByTagNameNS(NS.a, 'endParaRPr'))]) {
        if (!rp.getAttribute('sz')) rp.setAttribute('sz', String(Math.round(fontPt * 100)));
      }
      for (const run of Array.from(para.getElementsByTagNameNS(NS.a, 'r'))) {
        if (!child(run, NS.a, 'rPr')) run.insertBefore(createElement(doc, NS.a, 'a:rPr', { sz: Math.round(fontPt * 100) }), run.firstChild);
      }
      out.push(para);
    }
  }
  return out;
}

/**
 * The font size a node's text starts from, pt (its own or an ancestor's constraint of the
 * kind; 65 when none says), and the constraint that sets it when that constraint makes the
 * nodes it names equal (`op="equ"`): their text shares one size.
 */
function fontSizeFor(node: LNode, ancestors: LNode[], kind: 'primFontSz' | 'secFontSz'): { pt: number; equal: Element | undefined } {
  let v: number | undefined;
  let from: Element | undefined;
  for (const a of ancestors) {
    for (const k of a.constrs) {
      if (attr(k, 'type') !== kind) continue;
      const f = attr(k, 'for') ?? 'self';
      const fn = attr(k, 'forName');
      if ((f === 'des' || f === 'ch') && (!fn || fn === node.name) && attr(k, 'val') !== undefined) { v = Number(attr(k, 'val')); from = k; }
    }
  }
  for (const k of node.constrs) if (attr(k, 'type') === kind && (attr(k, 'for') ?? 'self') === 'self' && attr(k, 'val') !== undefined) { v = Number(attr(k, 'val')); from = k; }
  const pt = v !== undefined && Number.isFinite(v) && v > 0 ? Math.min(v, 72) : 65;
  return { pt, equal: from && attr(from, 'op') === 'equ' ? from : undefined };
}

const ALIGN: Record<string, string> = { l: 'l', r: 'r', ctr: 'ctr', just: 'just' };

function emitTree(doc: Document, tree: Element, root: LNode, st: Styling, shown: Set<Pt>, sizeGroups: Map<Element, Element[]>): void {
  let id = 1;
  // shapes in layout order, moved by their zOrderOff (-2: below the two shapes before it, 1: above the next)
  const out: Array<{ z: number; sp: Element }> = [];
  const budget = { left: MAX_PARAGRAPHS };
  const walk = (n: LNode, anc: LNode[], depth: number): void => {
    if (depth > MAX_LAYOUT_DEPTH) return;
    if (n.rect && n.rect.w > 0 && n.rect.h > 0) {
      // a space node (alg sp) draws its shape, if it has one, never text
      const pts = n.alg?.type === 'sp' ? [] : n.texts?.pts ?? [];
      // descendants' text (bulleted, secondary size): an axis of `des` (not `desOrSelf`, which
      // presents a node's own text when it has no children), or several points
      const des = !!n.texts?.axis.split(/\s+/).includes('des') || pts.length > 1;
      const prm = n.alg?.params;
      const align = des
        ? { ltr: ALIGN[prm?.get('parTxLTRAlign') ?? ''] ?? 'l', rtl: ALIGN[prm?.get('parTxRTLAlign') ?? ''] ?? 'r' }
        : { ltr: ALIGN[prm?.get('parTxLTRAlign') ?? ''] ?? 'ctr', rtl: ALIGN[prm?.get('parTxRTLAlign') ?? ''] ?? 'ctr' };
      const size = fontSizeFor(n, anc, des ? 'secFontSz' : 'primFontSz');
      const paras = pts.length ? paragraphsOf(doc, pts, !!des, des ? n.pt : undefined, size.pt, align, budget) : undefined;
      if (paras?.length) for (const p of pts) shown.add(p);
      const spPrOwn = pts.length === 1 ? pts[0]!.spPr : n.pt.type !== 'doc' && n.texts?.axis === 'self' ? n.pt.spPr : undefined;
      const seq = id++;
      const custom = pts.length > 0 && pts.every((p) => attr(p.prSet, 'custT') === '1');
      const sp = emitShape(doc, n, st, seq, paras, spPrOwn, custom);
      if (sp && paras?.length && !custom && size.equal) {
        const group = sizeGroups.get(size.equal);
        if (group) group.push(sp);
        else sizeGroups.set(size.equal, [sp]);
      }
      const off = n.shape?.zOrderOff ?? 0;
      if (sp) out.push({ z: seq + (off < 0 ? off - 0.5 : off > 0 ? off + 0.5 : 0), sp });
    }
    for (const c of n.children) walk(c, [...anc, n], depth + 1);
  };
  walk(root, [], 0);
  out.sort((a, b) => a.z - b.z);
  for (const o of out) tree.appendChild(o.sp);
}

/**
 * The diagram's background (`dgm:bg`, §21.4.3.1) and outline (`dgm:whole`, §21.4.3.12) as a
 * rectangle over the whole frame, first in the tree; nothing when neither is set.
 */
function background(doc: Document, tree: Element, data: Document, wEmu: number, hEmu: number): void {
  const model = data.documentElement ?? undefined;
  const bg = child(model, NS.dgm, 'bg');
  // dgm:bg and dgm:whole are optional (a data model may have neither)
  const fill = bg ? children(bg, NS.a).find((e) => /Fill$/.test(e.localName ?? '')) : undefined;
  const ln = child(child(model, NS.dgm, 'whole'), NS.a, 'ln');
  if (!fill && !ln) return;
  const sp = createElement(doc, DSP, 'dsp:sp', { modelId: '{sw-bg}' });
  const spPr = createElement(doc, DSP, 'dsp:spPr');
  const xfrm = createElement(doc, NS.a, 'a:xfrm');
  xfrm.appendChild(createElement(doc, NS.a, 'a:off', { x: 0, y: 0 }));
  xfrm.appendChild(createElement(doc, NS.a, 'a:ext', { cx: Math.round(wEmu), cy: Math.round(hEmu) }));
  spPr.appendChild(xfrm);
  const prst = createElement(doc, NS.a, 'a:prstGeom', { prst: 'rect' });
  prst.appendChild(createElement(doc, NS.a, 'a:avLst'));
  spPr.appendChild(prst);
  spPr.appendChild(fill ? doc.importNode(fill, true) : createElement(doc, NS.a, 'a:noFill'));
  if (ln) spPr.appendChild(doc.importNode(ln, true));
  else { const l = createElement(doc, NS.a, 'a:ln'); l.appendChild(createElement(doc, NS.a, 'a:noFill')); spPr.appendChild(l); }
  sp.appendChild(spPr);
  tree.insertBefore(sp, tree.firstChild);
}

function newTree(): { doc: Document; tree: Element } {
  const doc = parseXml(`<dsp:drawing xmlns:dsp="${DSP}" xmlns:a="${NS.a}"><dsp:spTree/></dsp:drawing>`, 'diagram layout');
  const tree = child(doc.documentElement ?? undefined, DSP, 'spTree')!;
  return { doc, tree };
}

/** Top-level points as boxes stacked in the frame, their descendants' text bulleted inside. */
function fallback(root: Pt, wEmu: number, hEmu: number, st: Styling): Element {
  const { doc, tree } = newTree();
  const tops = root.children.filter(isNode).slice(0, 200);
  const n = tops.length;
  if (!n) return tree;
  const gap = 0.12;
  const budget = { left: MAX_PARAGRAPHS };
  const h = hEmu / (n + (n - 1) * gap);
  for (const [i, p] of tops.entries()) {
    const node: LNode = { name: 'fallback', styleLbl: 'node1', pt: p, constrs: [], children: [], index: i, shape: { type: 'roundRect', rot: 0, hide: false, zOrderOff: 0 }, rect: { x: 0, y: i * h * (1 + gap), w: wEmu, h } };
    const des: Pt[] = [];
    const walk = (q: Pt, d: number): void => { if (d > MAX_LAYOUT_DEPTH || des.length > MAX_POINTS) return; for (const c of q.children) { if (isNode(c)) des.push(c); walk(c, d + 1); } };
    walk(p, 0);
    const paras = [...paragraphsOf(doc, [p], false, undefined, 28, undefined, budget), ...paragraphsOf(doc, des, true, p, 20, undefined, budget)];
    const sp = emitShape(doc, node, st, i + 1, paras, p.spPr);
    if (sp) tree.appendChild(sp);
  }
  return tree;
}

/**
 * Lays a diagram out from its definition (see the module comment).
 *
 * @param def - the diagram's parsed parts
 * @param wEmu - the graphic frame's width, EMU
 * @param hEmu - the graphic frame's height, EMU
 * @returns the shapes (EMU relative to the frame) and what was approximated; never throws
 *   for a malformed or hostile definition (it falls back to stacked boxes)
 */
export function layoutDiagram(def: DiagramDefinition, wEmu: number, hEmu: number): DiagramLayout {
  const { root, points, pres } = readModel(def.data);
  const st: Styling = { colors: def.colors, style: def.style, pres };
  const warnings: string[] = [];
  const layoutDef = def.layout?.documentElement ?? undefined;
  const topNode = layoutDef ? child(layoutDef, NS.dgm, 'layoutNode') : undefined;
  const withText = points.filter((p) => isNode(p) && textOf(p));
  if (layoutDef && topNode) {
    const warn = new Set<string>();
    const cx: Ctx = { warn, named: new Map() };
    try {
      const b = new Builder(root, layoutDef);
      const tree0 = b.build(topNode, root, 0);
      const setCount = (n: LNode, d: number): void => { n.count = b.counts.get(n.name) ?? 1; if (d < MAX_LAYOUT_DEPTH) for (const c of n.children) setCount(c, d + 1); };
      setCount(tree0, 0);
      layout(tree0, { x: 0, y: 0, w: wEmu, h: hEmu }, cx);
      const { doc, tree } = newTree();
      const shown = new Set<Pt>();
      const sizeGroups = new Map<Element, Element[]>();
      emitTree(doc, tree, tree0, st, shown, sizeGroups);
      const lost = withText.filter((p) => !shown.has(p));
      if (!lost.length) {
        background(doc, tree, def.data, wEmu, hEmu);
        warnings.push(...warn);
        return { spTree: tree, warnings, sizeGroups: [...sizeGroups.values()].filter((g) => g.length > 1) };
      }
      warnings.push(`SmartArt layout ${attr(layoutDef, 'uniqueId') ?? ''} would leave ${lost.length} point(s) without their text; drawn as stacked boxes`);
    } catch (err) {
      if (!(err instanceof LimitError)) throw err;
      warnings.push(`SmartArt layout definition not used (${err.message}); drawn as stacked boxes`);
    }
  } else {
    warnings.push('SmartArt has no layout definition; drawn as stacked boxes');
  }
  const tree = fallback(root, wEmu, hEmu, st);
  if (tree.ownerDocument) background(tree.ownerDocument, tree, def.data, wEmu, hEmu);
  return { spTree: tree, warnings, sizeGroups: [] };
}
