/**
 * DrawingML shape geometry (ECMA-376 Part 1, §20.1.9): preset geometries (§20.1.9.18
 * `a:prstGeom`, definitions from Annex D) and custom geometries (§20.1.9.8 `a:custGeom`)
 * evaluated into paths. Guide formulas follow §20.1.9.11 (`a:gd/@fmla`); angles are in
 * 60000ths of a degree. Coordinates come out in the unit the caller gives `w` and `h` in
 * (the renderer uses points).
 */
import { NS, attr, child, children, type Element } from '../ooxml/xml.js';
import type { GeometryDef, GeometryPath, PathCommand } from './geometry-types.js';
import { PRESETS } from './preset-data.js';

/** One evaluated path segment list, in the caller's units. */
export interface EvaluatedPath {
  /** Segments: M x y | L x y | C x1 y1 x2 y2 x y | Q x1 y1 x y | E cx cy rx ry a0 a1 ccw (ellipse arc, radians) | Z. */
  ops: Array<[string, ...number[]]>;
  /** Fill mode: none / norm / lighten / lightenLess / darken / darkenLess. */
  fill: string;
  stroke: boolean;
}

/** A geometry evaluated for a box. */
export interface EvaluatedGeometry {
  paths: EvaluatedPath[];
  /** Text rectangle (left, top, right, bottom) in the caller's units. */
  textRect: { l: number; t: number; r: number; b: number };
}

const DEG = 60000;
const toRad = (a: number): number => (a / DEG) * (Math.PI / 180);

/** Evaluates one guide formula with the given guide values. */
function evalFormula(fmla: string, get: (name: string) => number): number {
  const parts = fmla.trim().split(/\s+/);
  const op = parts[0]!;
  const a = (i: number): number => get(parts[i] ?? '0');
  switch (op) {
    case 'val': return a(1);
    case '*/': return (a(1) * a(2)) / (a(3) || 1);
    case '+-': return a(1) + a(2) - a(3);
    case '+/': return (a(1) + a(2)) / (a(3) || 1);
    case '?:': return a(1) > 0 ? a(2) : a(3);
    case 'abs': return Math.abs(a(1));
    case 'at2': return (Math.atan2(a(2), a(1)) * 180 / Math.PI) * DEG;
    case 'cat2': return a(1) * Math.cos(Math.atan2(a(3), a(2)));
    case 'sat2': return a(1) * Math.sin(Math.atan2(a(3), a(2)));
    case 'cos': return a(1) * Math.cos(toRad(a(2)));
    case 'sin': return a(1) * Math.sin(toRad(a(2)));
    case 'tan': return a(1) * Math.tan(toRad(a(2)));
    case 'max': return Math.max(a(1), a(2));
    case 'min': return Math.min(a(1), a(2));
    case 'mod': return Math.sqrt(a(1) ** 2 + a(2) ** 2 + a(3) ** 2);
    case 'pin': { const x = a(1), y = a(2), z = a(3); return y < x ? x : y > z ? z : y; }
    case 'sqrt': return Math.sqrt(Math.max(0, a(1)));
    default: return 0;
  }
}

function builtins(w: number, h: number): Map<string, number> {
  const ss = Math.min(w, h);
  const ls = Math.max(w, h);
  const m = new Map<string, number>([
    ['w', w], ['h', h], ['l', 0], ['t', 0], ['r', w], ['b', h], ['hc', w / 2], ['vc', h / 2],
    ['ss', ss], ['ls', ls],
    ['cd2', 10800000], ['cd4', 5400000], ['cd8', 2700000], ['3cd4', 16200000], ['3cd8', 8100000], ['5cd8', 13500000], ['7cd8', 18900000],
  ]);
  for (const d of [2, 3, 4, 5, 6, 8, 10, 12, 16, 32]) {
    m.set(`wd${d}`, w / d);
    m.set(`hd${d}`, h / d);
    m.set(`ssd${d}`, ss / d);
  }
  return m;
}

/**
 * Evaluates a geometry definition for a box of `w` × `h`.
 *
 * @param adjust - adjust values from the shape's `a:avLst` (name → formula), overriding the definition's defaults
 * @param shapeEmu - the shape's own extent (`a:ext`), EMU: a custom path without `w`/`h`
 *   (§20.1.9.15, both default 0) is written in the shape's coordinates, so its numbers are
 *   EMU and are scaled from this extent onto the box (PowerPoint and LibreOffice draw such
 *   paths so; SmartArt drawing parts write their connectors that way). Without it such
 *   numbers are taken in the box's own unit.
 */
export function evaluateGeometry(def: GeometryDef, w: number, h: number, adjust: ReadonlyMap<string, string> = new Map(), shapeEmu?: { cx: number; cy: number }): EvaluatedGeometry {
  const vals = builtins(w, h);
  const get = (name: string): number => {
    const v = vals.get(name);
    if (v !== undefined) return v;
    const n = Number(name);
    return Number.isFinite(n) ? n : 0;
  };
  for (const [name, fmla] of def.av) vals.set(name!, evalFormula(adjust.get(name!) ?? fmla!, get));
  for (const [name, fmla] of adjust) if (!vals.has(name)) vals.set(name, evalFormula(fmla, get));
  for (const [name, fmla] of def.gd) vals.set(name!, evalFormula(fmla!, get));
  // numbers of a path without its own space are EMU of the shape's extent (a zero extent collapses them)
  const emuScale = shapeEmu ? { x: shapeEmu.cx > 0 ? w / shapeEmu.cx : 0, y: shapeEmu.cy > 0 ? h / shapeEmu.cy : 0 } : { x: 1, y: 1 };
  const paths = def.p.map((p) => evalPath(p, w, h, get, emuScale));
  const r = def.r;
  const textRect = r ? { l: get(r[0] ?? 'l'), t: get(r[1] ?? 't'), r: get(r[2] ?? 'r'), b: get(r[3] ?? 'b') } : { l: 0, t: 0, r: w, b: h };
  return { paths, textRect };
}

/** A path argument written as a number (not a guide name). */
const LITERAL = /^-?\d/;

function evalPath(p: GeometryPath, w: number, h: number, get: (n: string) => number, emuScale: { x: number; y: number }): EvaluatedPath {
  // A path with its own space (w, h) maps it onto the box. Without one, guide values are
  // already in the box's unit, and written numbers are shape EMU (scaled by emuScale).
  const sx = p.w ? w / p.w : 1;
  const sy = p.h ? h / p.h : 1;
  // factors of written numbers on top of sx, sy: 1 in a path's own space, emuScale without one
  const literalX = p.w ? 1 : emuScale.x;
  const literalY = p.h ? 1 : emuScale.y;
  const ops: EvaluatedPath['ops'] = [];
  let cx = 0;
  let cy = 0;
  let startX = 0;
  let startY = 0;
  for (const c of p.c as ReadonlyArray<PathCommand>) {
    // odd arguments are x (or a radius along x), even ones y; arcTo's angles (3, 4) are not lengths
    const v = (i: number): number => {
      const name = c[i] ?? '0';
      if (!LITERAL.test(name) || (c[0] === 'A' && i >= 3)) return get(name);
      return get(name) * (i % 2 === 1 ? literalX : literalY);
    };
    switch (c[0]) {
      case 'M':
        cx = v(1) * sx; cy = v(2) * sy; startX = cx; startY = cy;
        ops.push(['M', cx, cy]);
        break;
      case 'L':
        cx = v(1) * sx; cy = v(2) * sy;
        ops.push(['L', cx, cy]);
        break;
      case 'C':
        ops.push(['C', v(1) * sx, v(2) * sy, v(3) * sx, v(4) * sy, v(5) * sx, v(6) * sy]);
        cx = v(5) * sx; cy = v(6) * sy;
        break;
      case 'Q':
        ops.push(['Q', v(1) * sx, v(2) * sy, v(3) * sx, v(4) * sy]);
        cx = v(3) * sx; cy = v(4) * sy;
        break;
      case 'A': {
        const wR = v(1) * sx;
        const hR = v(2) * sy;
        const st = v(3);
        const sw = v(4);
        // Angles are visual angles on the ellipse; convert to the parametric angles of the arc.
        const param = (ang: number): number => {
          const a = toRad(ang);
          return Math.atan2(wR * Math.sin(a), hR * Math.cos(a));
        };
        const t0 = param(st);
        let t1 = param(st + sw);
        if (sw > 0) { while (t1 <= t0) t1 += 2 * Math.PI; if (Math.abs(sw) >= 21600000) t1 = t0 + 2 * Math.PI; }
        else if (sw < 0) { while (t1 >= t0) t1 -= 2 * Math.PI; if (Math.abs(sw) >= 21600000) t1 = t0 - 2 * Math.PI; }
        else t1 = t0;
        const ecx = cx - wR * Math.cos(t0);
        const ecy = cy - hR * Math.sin(t0);
        ops.push(['E', ecx, ecy, Math.abs(wR), Math.abs(hR), t0, t1, sw < 0 ? 1 : 0]);
        cx = ecx + wR * Math.cos(t1);
        cy = ecy + hR * Math.sin(t1);
        break;
      }
      case 'Z':
        ops.push(['Z']);
        cx = startX; cy = startY;
        break;
      default:
        break;
    }
  }
  return { ops, fill: p.f ?? 'norm', stroke: p.s ?? true };
}

/** The preset geometry named by ST_ShapeType, or undefined when unknown. */
export function presetGeometry(name: string): GeometryDef | undefined {
  return PRESETS[name];
}

/** Reads a custom geometry (`a:custGeom`, §20.1.9.8) into a definition. */
export function readCustomGeometry(custGeom: Element): GeometryDef {
  const gds = (list: string): string[][] => children(child(custGeom, NS.a, list) ?? custGeom, NS.a, 'gd').map((g) => [attr(g, 'name') ?? '', attr(g, 'fmla') ?? 'val 0']);
  const paths: GeometryPath[] = [];
  for (const p of children(child(custGeom, NS.a, 'pathLst') ?? custGeom, NS.a, 'path')) {
    const cmds: string[][] = [];
    for (const c of children(p, NS.a)) {
      const pts = children(c, NS.a, 'pt').flatMap((pt) => [attr(pt, 'x') ?? '0', attr(pt, 'y') ?? '0']);
      switch (c.localName) {
        case 'moveTo': cmds.push(['M', ...pts]); break;
        case 'lnTo': cmds.push(['L', ...pts]); break;
        case 'cubicBezTo': cmds.push(['C', ...pts]); break;
        case 'quadBezTo': cmds.push(['Q', ...pts]); break;
        case 'arcTo': cmds.push(['A', attr(c, 'wR') ?? '0', attr(c, 'hR') ?? '0', attr(c, 'stAng') ?? '0', attr(c, 'swAng') ?? '0']); break;
        case 'close': cmds.push(['Z']); break;
        default: break;
      }
    }
    const gp: GeometryPath = { c: cmds };
    const pw = attr(p, 'w');
    const ph = attr(p, 'h');
    if (pw) gp.w = Number(pw);
    if (ph) gp.h = Number(ph);
    const f = attr(p, 'fill');
    if (f) gp.f = f;
    const s = attr(p, 'stroke');
    if (s === '0' || s === 'false') gp.s = false;
    paths.push(gp);
  }
  const rect = child(custGeom, NS.a, 'rect');
  return { av: gds('avLst'), gd: gds('gdLst'), p: paths, ...(rect ? { r: [attr(rect, 'l') ?? 'l', attr(rect, 't') ?? 't', attr(rect, 'r') ?? 'r', attr(rect, 'b') ?? 'b'] } : {}) };
}

/** Adjust values of a `a:prstGeom` (its `a:avLst/a:gd`). */
export function readAdjustValues(prstGeom: Element | undefined): Map<string, string> {
  const m = new Map<string, string>();
  const avLst = child(prstGeom, NS.a, 'avLst');
  if (!avLst) return m;
  for (const g of children(avLst, NS.a, 'gd')) {
    const n = attr(g, 'name');
    const f = attr(g, 'fmla');
    if (n && f) m.set(n, f);
  }
  return m;
}
