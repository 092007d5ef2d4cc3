/**
 * The drawing state shared by the WMF and EMF players: the playback device context (mapping
 * mode, window/viewport, world transform, selected pen/brush/font, text settings, clip,
 * path bracket, saved states) and the GDI primitives drawn as vectors onto a 2D context, in
 * the destination's units (points on a slide or PDF page). Semantics follow [MS-WMF] §3.1
 * and [MS-EMF] §3.1 (playback device context).
 */
import { Path2D, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { TextDecoder } from 'node:util';
import { cssFont, drawFamily } from '../fonts.js';
import type { Affine } from '../geometry-types.js';

/** A metafile's transforms (world, page, device) are plain affine ones. */
export type Xform = Affine;

export const IDENTITY: Xform = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };

/** `p` applied first, then `q`. */
export function compose(p: Xform, q: Xform): Xform {
  return {
    a: p.a * q.a + p.b * q.c,
    b: p.a * q.b + p.b * q.d,
    c: p.c * q.a + p.d * q.c,
    d: p.c * q.b + p.d * q.d,
    e: p.e * q.a + p.f * q.c + q.e,
    f: p.e * q.b + p.f * q.d + q.f,
  };
}

/** A GDI pen: style bits (PS_*), width in logical units, colour 0xRRGGBB. */
export interface Pen {
  kind: 'pen';
  style: number;
  width: number;
  color: number;
}
/** A GDI brush: null (hollow) or a colour. */
export interface Brush {
  kind: 'brush';
  color: number | null;
}
/** A GDI logical font (LOGFONT): height in logical units (negative: character height), escapement in tenths of a degree. */
export interface Font {
  kind: 'font';
  height: number;
  escapement: number;
  weight: number;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  /** LOGFONT charset: how a WMF's or ANSI record's bytes are decoded. */
  charset: number;
  face: string;
}
/** Anything else a create record puts in the object table (palette, region): selected without effect. */
export interface OtherObject {
  kind: 'other';
}
export type GdiObject = Pen | Brush | Font | OtherObject;

/** Mapping modes (MM_*). */
export const MM_TEXT = 1, MM_ISOTROPIC = 7, MM_ANISOTROPIC = 8;

interface Pt {
  x: number;
  y: number;
}

/** The playback device context's state saved by SaveDC. */
interface DcState {
  world: Xform;
  mapMode: number;
  winOrg: Pt;
  winExt: Pt;
  vpOrg: Pt;
  vpExt: Pt;
  pen: Pen;
  brush: Brush;
  font: Font;
  textColor: number;
  bkColor: number;
  bkOpaque: boolean;
  textAlign: number;
  evenOdd: boolean;
  cur: Pt;
  /** Clip paths in destination units, intersected (empty: no clip). */
  clip: readonly Path2D[];
}

const BLACK_PEN: Pen = { kind: 'pen', style: 0, width: 0, color: 0 };
const WHITE_BRUSH: Brush = { kind: 'brush', color: 0xffffff };
const DEFAULT_FONT: Font = { kind: 'font', height: -12, escapement: 0, weight: 400, italic: false, underline: false, strike: false, charset: 0, face: 'Arial' };

/** Stock objects (handles with the high bit set, [MS-EMF] §2.1.31). */
export function stockObject(index: number): GdiObject | undefined {
  switch (index) {
    case 0: return { kind: 'brush', color: 0xffffff };
    case 1: return { kind: 'brush', color: 0xc0c0c0 };
    case 2: return { kind: 'brush', color: 0x808080 };
    case 3: return { kind: 'brush', color: 0x404040 };
    case 4: return { kind: 'brush', color: 0 };
    case 5: return { kind: 'brush', color: null };
    case 6: return { kind: 'pen', style: 0, width: 0, color: 0xffffff };
    case 7: return BLACK_PEN;
    case 8: return { kind: 'pen', style: 5, width: 0, color: 0 };
    case 0xa: case 0xb: case 0x10: return { ...DEFAULT_FONT, face: 'Courier New' };
    case 0xc: case 0xd: case 0xe: case 0x11: return DEFAULT_FONT;
    default: return undefined;
  }
}

/** Most SaveDC levels kept; deeper saves are ignored (a hostile file cannot grow the stack). */
const MAX_SAVED = 256;
/** Largest |coordinate| in destination units accepted for drawing (beyond it a figure is dropped). */
const MAX_COORD = 1e7;

/** CSS colour of a COLORREF-style 0xRRGGBB. */
export function cssColor(c: number): string {
  return `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
}

/** Options of a playback. */
export interface PlayOptions {
  /** Thinnest line drawn, destination units (a cosmetic 1-pixel pen). */
  hairline: number;
}

/**
 * A playback device context drawing onto `ctx`. The format players set `device` (metafile
 * device units → destination) and feed records through the methods below.
 */
export class Player {
  st: DcState;
  private saved: DcState[] = [];
  private appliedClip: readonly Path2D[] = [];
  /** Path bracket being recorded (BeginPath..EndPath), destination units. */
  path: Path2D | undefined;
  inPath = false;
  /** Device units → destination. */
  device: Xform = IDENTITY;
  /** WMF without a viewport: the window maps onto this reference window (its first one). */
  reference: { org: Pt; ext: Pt } | undefined;
  private xf: Xform | undefined;

  constructor(readonly ctx: SKRSContext2D, readonly opts: PlayOptions) {
    this.st = {
      world: IDENTITY, mapMode: MM_TEXT, winOrg: { x: 0, y: 0 }, winExt: { x: 1, y: 1 }, vpOrg: { x: 0, y: 0 }, vpExt: { x: 1, y: 1 },
      pen: BLACK_PEN, brush: WHITE_BRUSH, font: DEFAULT_FONT, textColor: 0, bkColor: 0xffffff, bkOpaque: true, textAlign: 0, evenOdd: true,
      cur: { x: 0, y: 0 }, clip: [],
    };
    ctx.save();
    ctx.save();
  }

  /** Ends playback: the context is as it was before. */
  finish(): void {
    this.ctx.restore();
    this.ctx.restore();
  }

  /** State changed that affects the transform. */
  touch(): void {
    this.xf = undefined;
  }

  /** Logical units → destination. */
  xform(): Xform {
    if (this.xf) return this.xf;
    const s = this.st;
    let page: Xform;
    if (this.reference) {
      const r = this.reference;
      // Whatever the mapping mode, WMF players take the window as the picture's extent (files leave MM_TEXT set and give a window).
      const sx = !s.winExt.x ? 1 : r.ext.x / s.winExt.x;
      const sy = !s.winExt.y ? 1 : r.ext.y / s.winExt.y;
      page = { a: sx, b: 0, c: 0, d: sy, e: r.org.x - s.winOrg.x * sx, f: r.org.y - s.winOrg.y * sy };
    } else {
      let sx = 1, sy = 1;
      if (s.mapMode === MM_ISOTROPIC || s.mapMode === MM_ANISOTROPIC) {
        sx = s.winExt.x ? s.vpExt.x / s.winExt.x : 1;
        sy = s.winExt.y ? s.vpExt.y / s.winExt.y : 1;
        if (s.mapMode === MM_ISOTROPIC) {
          const m = Math.min(Math.abs(sx), Math.abs(sy));
          sx = Math.sign(sx || 1) * m;
          sy = Math.sign(sy || 1) * m;
        }
      } else if (s.mapMode !== MM_TEXT) {
        const u = fixedModeScale(s.mapMode, this.devicePerMm);
        sx = u.x;
        sy = -u.y;
      }
      page = { a: sx, b: 0, c: 0, d: sy, e: s.vpOrg.x - s.winOrg.x * sx, f: s.vpOrg.y - s.winOrg.y * sy };
    }
    this.xf = compose(compose(s.world, page), this.device);
    return this.xf;
  }

  /** Device pixels per millimetre (EMF reference device), for the metric mapping modes. */
  devicePerMm: Pt = { x: 96 / 25.4, y: 96 / 25.4 };

  /** A logical point in destination units. */
  pt(x: number, y: number): Pt {
    const m = this.xform();
    return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
  }

  /** Length of a logical unit along x / y in destination units. */
  scale(): { x: number; y: number } {
    const m = this.xform();
    return { x: Math.hypot(m.a, m.b), y: Math.hypot(m.c, m.d) };
  }

  save(): void {
    if (this.saved.length < MAX_SAVED) this.saved.push({ ...this.st });
  }

  /** RestoreDC: `n` < 0 is relative (−1 the last saved), > 0 absolute. */
  restore(n: number): void {
    const depth = n < 0 ? this.saved.length + n : n - 1;
    if (depth < 0 || depth >= this.saved.length) return;
    this.st = this.saved[depth]!;
    this.saved.length = depth;
    this.touch();
  }

  /** Makes the drawing context's clip the state's clip. */
  private applyClip(): void {
    if (this.appliedClip === this.st.clip) return;
    this.ctx.restore();
    this.ctx.save();
    for (const c of this.st.clip) this.ctx.clip(c);
    this.appliedClip = this.st.clip;
  }

  /** Intersects the clip with a destination path. */
  clipTo(p: Path2D): void {
    this.st.clip = [...this.st.clip.slice(-31), p];
  }

  resetClip(): void {
    this.st.clip = [];
  }

  /** A logical rectangle as a destination path. */
  rectPath(l: number, t: number, r: number, b: number, into = new Path2D()): Path2D {
    const pts = [this.pt(l, t), this.pt(r, t), this.pt(r, b), this.pt(l, b)];
    if (!pts.every(okPt)) return into;
    into.moveTo(pts[0]!.x, pts[0]!.y);
    for (let i = 1; i < 4; i++) into.lineTo(pts[i]!.x, pts[i]!.y);
    into.closePath();
    return into;
  }

  /** Where figures go: the path bracket, or a fresh path to paint. */
  private sink(): Path2D {
    return this.inPath && this.path ? this.path : new Path2D();
  }

  /** Polygon / polyline through logical points (flat x,y pairs). */
  poly(xy: ArrayLike<number>, closed: boolean, fill: boolean): void {
    const n = xy.length >> 1;
    if (n < 2) return;
    const p = this.sink();
    let ok = true;
    for (let i = 0; i < n; i++) {
      const q = this.pt(xy[2 * i]!, xy[2 * i + 1]!);
      if (!okPt(q)) { ok = false; break; }
      if (i === 0) p.moveTo(q.x, q.y);
      else p.lineTo(q.x, q.y);
    }
    if (!ok) return;
    if (closed) p.closePath();
    if (!this.inPath) this.paint(p, fill && closed, true);
  }

  /** Several polygons (or polylines) filled together, as PolyPolygon does. */
  polyPoly(figures: ArrayLike<number>[], closed: boolean): void {
    const p = this.sink();
    for (const xy of figures) {
      const n = xy.length >> 1;
      for (let i = 0; i < n; i++) {
        const q = this.pt(xy[2 * i]!, xy[2 * i + 1]!);
        if (!okPt(q)) return;
        if (i === 0) p.moveTo(q.x, q.y);
        else p.lineTo(q.x, q.y);
      }
      if (closed && n > 1) p.closePath();
    }
    if (!this.inPath) this.paint(p, closed, true);
  }

  /** Bézier runs from the first point (PolyBezier) or from the current position (PolyBezierTo). */
  bezier(xy: ArrayLike<number>, fromCurrent: boolean): void {
    const n = xy.length >> 1;
    const p = this.inPath && this.path ? this.path : new Path2D();
    let i = 0;
    const start = fromCurrent ? this.st.cur : { x: xy[0]!, y: xy[1]! };
    if (!fromCurrent) i = 1;
    const s = this.pt(start.x, start.y);
    if (!okPt(s)) return;
    if (!(this.inPath && fromCurrent)) p.moveTo(s.x, s.y);
    for (; i + 2 < n; i += 3) {
      const c1 = this.pt(xy[2 * i]!, xy[2 * i + 1]!);
      const c2 = this.pt(xy[2 * i + 2]!, xy[2 * i + 3]!);
      const e = this.pt(xy[2 * i + 4]!, xy[2 * i + 5]!);
      if (!okPt(c1) || !okPt(c2) || !okPt(e)) return;
      p.bezierCurveTo(c1.x, c1.y, c2.x, c2.y, e.x, e.y);
    }
    if (n > 0) this.st.cur = { x: xy[2 * n - 2]!, y: xy[2 * n - 1]! };
    if (!this.inPath) this.paint(p, false, true);
  }

  moveTo(x: number, y: number): void {
    this.st.cur = { x, y };
    if (this.inPath && this.path) {
      const q = this.pt(x, y);
      if (okPt(q)) this.path.moveTo(q.x, q.y);
    }
  }

  /** LineTo / PolylineTo: lines from the current position. */
  lineTo(xy: ArrayLike<number>): void {
    const n = xy.length >> 1;
    if (!n) return;
    if (this.inPath && this.path) {
      for (let i = 0; i < n; i++) {
        const q = this.pt(xy[2 * i]!, xy[2 * i + 1]!);
        if (okPt(q)) this.path.lineTo(q.x, q.y);
      }
    } else {
      const all = [this.st.cur.x, this.st.cur.y, ...Array.from(xy)];
      this.poly(all, false, false);
    }
    this.st.cur = { x: xy[2 * n - 2]!, y: xy[2 * n - 1]! };
  }

  rectangle(l: number, t: number, r: number, b: number): void {
    const p = this.rectPath(l, t, r, b, this.sink());
    if (!this.inPath) this.paint(p, true, true);
  }

  /** Ellipse / arc family on the box, by flattening in logical units (any world transform). */
  ellipseLike(l: number, t: number, r: number, b: number, kind: 'ellipse' | 'arc' | 'pie' | 'chord', sx = 0, sy = 0, ex = 0, ey = 0): void {
    const cx = (l + r) / 2, cy = (t + b) / 2, rx = Math.abs(r - l) / 2, ry = Math.abs(b - t) / 2;
    let a0 = 0, sweep = Math.PI * 2;
    if (kind !== 'ellipse') {
      // Arcs run counter-clockwise (the default arc direction) from the start radial to the end radial.
      a0 = Math.atan2(-(sy - cy) / (ry || 1), (sx - cx) / (rx || 1));
      const a1 = Math.atan2(-(ey - cy) / (ry || 1), (ex - cx) / (rx || 1));
      sweep = a1 - a0;
      if (sweep <= 0) sweep += Math.PI * 2;
    }
    const steps = Math.max(8, Math.ceil((sweep / (Math.PI * 2)) * 64));
    const xy: number[] = [];
    if (kind === 'pie') xy.push(cx, cy);
    for (let i = 0; i <= steps; i++) {
      const a = a0 + (sweep * i) / steps;
      xy.push(cx + rx * Math.cos(a), cy - ry * Math.sin(a));
    }
    this.poly(xy, kind !== 'arc', kind !== 'arc');
  }

  roundRect(l: number, t: number, r: number, b: number, w: number, h: number): void {
    const rx = Math.min(Math.abs(w) / 2, Math.abs(r - l) / 2), ry = Math.min(Math.abs(h) / 2, Math.abs(b - t) / 2);
    const x0 = Math.min(l, r), x1 = Math.max(l, r), y0 = Math.min(t, b), y1 = Math.max(t, b);
    const xy: number[] = [];
    const corner = (cx: number, cy: number, from: number): void => {
      for (let i = 0; i <= 8; i++) {
        const a = from + (Math.PI / 2) * (i / 8);
        xy.push(cx + rx * Math.cos(a), cy + ry * Math.sin(a));
      }
    };
    corner(x1 - rx, y0 + ry, -Math.PI / 2);
    corner(x1 - rx, y1 - ry, 0);
    corner(x0 + rx, y1 - ry, Math.PI / 2);
    corner(x0 + rx, y0 + ry, Math.PI);
    this.poly(xy, true, true);
  }

  /** Fills with the brush and strokes with the pen, as GDI paints a closed figure. */
  paint(p: Path2D, fill: boolean, stroke: boolean): void {
    this.applyClip();
    const ctx = this.ctx;
    if (fill && this.st.brush.color !== null) {
      ctx.fillStyle = cssColor(this.st.brush.color);
      ctx.fill(p, this.st.evenOdd ? 'evenodd' : 'nonzero');
    }
    if (stroke) this.stroke(p);
  }

  stroke(p: Path2D): void {
    const pen = this.st.pen;
    const style = pen.style & 0xf;
    if (style === 5) return;
    this.applyClip();
    const ctx = this.ctx;
    const s = this.scale();
    const geometric = (pen.style & 0x10000) !== 0;
    let w = pen.width * (s.x + s.y) / 2;
    if (!geometric && pen.width <= 1) w = 0;
    w = Math.max(w, this.opts.hairline);
    ctx.lineWidth = w;
    ctx.strokeStyle = cssColor(pen.color);
    const cap = pen.style & 0xf00;
    ctx.lineCap = cap === 0x100 ? 'square' : cap === 0x200 ? 'butt' : 'round';
    const join = pen.style & 0xf000;
    ctx.lineJoin = join === 0x1000 ? 'bevel' : join === 0x2000 ? 'miter' : 'round';
    const dash = style === 1 ? [6, 2] : style === 2 ? [1, 1] : style === 3 ? [3, 2, 1, 2] : style === 4 ? [3, 1, 1, 1, 1, 1] : [];
    ctx.setLineDash(dash.map((d) => d * Math.max(w, this.opts.hairline * 2)));
    if (dash.length) ctx.lineCap = 'butt';
    ctx.stroke(p);
    ctx.setLineDash([]);
  }

  /** Fills a logical rectangle with a colour (PatBlt, ETO_OPAQUE). */
  fillRect(l: number, t: number, r: number, b: number, color: number): void {
    this.applyClip();
    this.ctx.fillStyle = cssColor(color);
    this.ctx.fill(this.rectPath(l, t, r, b));
  }

  /**
   * Text at logical (x, y) with the selected font, colour and alignment; `dx` are the
   * advances of each character (logical units) when the record gives them.
   */
  text(x: number, y: number, str: string, dx: number[] | undefined, clipRect?: [number, number, number, number]): void {
    if (!str || str.length > 8192) return;
    const st = this.st;
    const f = st.font;
    const sc = this.scale();
    const size = Math.abs(f.height) * sc.y * (f.height > 0 ? 0.85 : 1) || 12 * sc.y;
    if (!(size > 0.01) || size > MAX_COORD) return;
    const updateCp = (st.textAlign & 1) !== 0;
    if (updateCp) ({ x, y } = st.cur);
    const ctx = this.ctx;
    this.applyClip();
    ctx.save();
    if (clipRect) ctx.clip(this.rectPath(...clipRect));
    const family = drawFamily(f.face || 'Arial').family;
    ctx.font = cssFont(family, size, f.weight >= 600, f.italic);
    ctx.fillStyle = cssColor(st.textColor);
    // Baseline direction in the destination: the logical x axis turned by the escapement (counter-clockwise as seen).
    const esc = (f.escapement / 10) * (Math.PI / 180);
    const m = this.xform();
    const ux = m.a * Math.cos(esc) - m.c * Math.sin(esc), uy = m.b * Math.cos(esc) - m.d * Math.sin(esc);
    const angle = Math.atan2(uy, ux);
    const o = this.pt(x, y);
    if (!okPt(o)) { ctx.restore(); return; }
    const flipX = m.a < 0 ? -1 : 1;
    let total: number;
    const offsets: number[] = [];
    if (dx && dx.length >= str.length) {
      let acc = 0;
      for (let i = 0; i < str.length; i++) { offsets.push(acc); acc += dx[i]! * sc.x * flipX; }
      total = Math.abs(acc);
    } else {
      total = ctx.measureText(str).width;
    }
    const h = st.textAlign & 6;
    const shift = h === 6 ? -total / 2 : h === 2 ? -total : 0;
    const v = st.textAlign & 24;
    ctx.textBaseline = v === 24 ? 'alphabetic' : v === 8 ? 'bottom' : 'top';
    ctx.textAlign = 'left';
    ctx.translate(o.x, o.y);
    ctx.rotate(angle);
    if (offsets.length) {
      const chars = Array.from(str);
      if (chars.length === str.length) {
        for (let i = 0; i < chars.length; i++) if (chars[i] !== ' ') ctx.fillText(chars[i]!, shift + offsets[i]!, 0);
      } else {
        ctx.fillText(str, shift, 0);
      }
    } else {
      ctx.fillText(str, shift, 0);
    }
    if (f.underline || f.strike) {
      ctx.fillRect(shift, f.underline ? size * 0.12 : -size * 0.3, total, Math.max(size / 18, this.opts.hairline));
    }
    ctx.restore();
    if (updateCp) {
      const back = this.xform();
      const det = back.a * back.d - back.b * back.c;
      if (det) {
        const ex = o.x + (total + shift) * Math.cos(angle) - back.e, ey = o.y + (total + shift) * Math.sin(angle) - back.f;
        st.cur = { x: (back.d * ex - back.c * ey) / det, y: (-back.b * ex + back.a * ey) / det };
      }
    }
  }

  /**
   * Draws a bitmap's source rectangle (pixels, top-down) into a logical destination
   * rectangle; `rop` is the ternary raster operation (SRCAND multiplies, SRCPAINT lightens).
   */
  bitmap(img: Canvas, sx: number, sy: number, sw: number, sh: number, x: number, y: number, w: number, h: number, rop: number): void {
    const p0 = this.pt(x, y), px = this.pt(x + w, y), py = this.pt(x, y + h);
    if (!okPt(p0) || !okPt(px) || !okPt(py)) return;
    if (sw <= 0 || sh <= 0) return;
    this.applyClip();
    const ctx = this.ctx;
    ctx.save();
    if (rop === 0x008800c6) ctx.globalCompositeOperation = 'multiply';
    else if (rop === 0x00ee0086) ctx.globalCompositeOperation = 'screen';
    ctx.transform(px.x - p0.x, px.y - p0.y, py.x - p0.x, py.y - p0.y, p0.x, p0.y);
    ctx.drawImage(img, sx, sy, sw, sh, 0, 0, 1, 1);
    ctx.restore();
  }

  beginPath(): void {
    this.path = new Path2D();
    this.inPath = true;
  }

  endPath(): void {
    this.inPath = false;
  }

  /** FillPath / StrokePath / StrokeAndFillPath on the recorded path; the path is then discarded. */
  paintPath(fill: boolean, stroke: boolean): void {
    if (!this.path) return;
    this.inPath = false;
    this.paint(this.path, fill, stroke);
    this.path = undefined;
  }

  /** SelectClipPath with RGN_AND / RGN_COPY. */
  clipPath(copy: boolean): void {
    if (!this.path) return;
    if (copy) this.resetClip();
    this.clipTo(this.path);
    this.inPath = false;
    this.path = undefined;
  }

  closeFigure(): void {
    if (this.inPath && this.path) this.path.closePath();
  }
}

function okPt(p: Pt): boolean {
  return Number.isFinite(p.x) && Number.isFinite(p.y) && Math.abs(p.x) < MAX_COORD && Math.abs(p.y) < MAX_COORD;
}

/** Device pixels per logical unit of the fixed mapping modes (MM_LOMETRIC … MM_TWIPS). */
function fixedModeScale(mode: number, perMm: Pt): Pt {
  const mm = mode === 2 ? 0.1 : mode === 3 ? 0.01 : mode === 4 ? 0.254 : mode === 5 ? 0.0254 : mode === 6 ? 25.4 / 1440 : 1;
  return { x: mm * perMm.x, y: mm * perMm.y };
}

/**
 * The text encoding of a LOGFONT charset (ANSI_CHARSET and unknown ones: windows-1252).
 * DEFAULT_CHARSET (1) means the writer's system code page: guessed from an East Asian face.
 */
export function charsetEncoding(charset: number, face = ''): string {
  if (charset === 1) {
    if (/yahei|simsun|simhei|nsimsun|kaiti|fangsong|dengxian|\u5b8b\u4f53|\u9ed1\u4f53/i.test(face)) return 'gbk';
    if (/mingliu|jhenghei|\u65b0\u7d30\u660e\u9ad4/i.test(face)) return 'big5';
    if (/mincho|gothic|meiryo|yu |ms ui|\uff2d\uff33/i.test(face)) return 'shift_jis';
    if (/malgun|gulim|batang|dotum|gungsuh/i.test(face)) return 'euc-kr';
  }
  const map: Record<number, string> = {
    128: 'shift_jis', 129: 'euc-kr', 134: 'gbk', 136: 'big5', 161: 'windows-1253', 162: 'windows-1254', 163: 'windows-1258',
    177: 'windows-1255', 178: 'windows-1256', 186: 'windows-1257', 204: 'windows-1251', 222: 'windows-874', 238: 'windows-1250',
  };
  return map[charset] ?? 'windows-1252';
}

const DECODERS = new Map<string, TextDecoder>();

/** Decodes a metafile's 8-bit text in the font's charset. */
export function decodeText(bytes: Uint8Array, charset: number, face = ''): string {
  const enc = charsetEncoding(charset, face);
  let d = DECODERS.get(enc);
  if (!d) {
    try {
      d = new TextDecoder(enc);
    } catch {
      d = new TextDecoder('windows-1252');
    }
    DECODERS.set(enc, d);
  }
  return d.decode(bytes);
}
