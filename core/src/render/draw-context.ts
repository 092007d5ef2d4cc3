/**
 * Shared drawing state and the DrawingML fill/outline/geometry painters (ECMA-376 Part 1,
 * §20.1.8 fills, §20.1.2.2.24 `a:ln`, §20.1.4.2 style matrix references) used by the slide,
 * table and chart renderers. The canvas's user unit is the point (1/72 in).
 */
import type { Canvas, Image, Path2D as SkPath2D, SKRSContext2D } from '@napi-rs/canvas';
import { Path2D, createCanvas } from '@napi-rs/canvas';
import type { OpcPackage } from '../ooxml/opc/package.js';
import type { PmlModel } from '../ooxml/pml/parts.js';
import { FactKind, openedTemplates } from '../ooxml/pml/opened-templates.js';
import type { Theme } from '../ooxml/pml/theme.js';
import { NS, attr, attrNS, child, children, intAttr, parseXml, type Element } from '../ooxml/xml.js';
import { defaultFontMetrics } from '../text/font-metrics.js';
import { PREVIEW_LAYOUT, isVerticalText, layoutText, type LayoutOptions, type LineFragment, type TextBodyInput, type TextBox, type TextLayout, type TextShadow } from '../text/layout.js';
import { readOuterShadow } from '../ooxml/pml/effects.js';
import { colorIn, css, hexToRgba, resolveRgba, type ColorContext, type Rgba } from '../ooxml/pml/color.js';
import { cjkFamilyFor, cssFont, drawFamily, pdfFallbackFamilies, scriptFallbackFamilies } from './fonts.js';
import { hasEastAsian, hasNonLatinScript } from '../text/script.js';
import type { FontShape } from '../text/font-class.js';
import type { EvaluatedGeometry } from './geometry.js';
import type { Affine } from './geometry-types.js';
import { decodeImage, MAX_IMAGE_PIXELS, type ImageRefusal } from './images.js';
import { MetafilePicture } from './metafile/index.js';

/** EMU per point. */
export const EMU_PT = 12700;

/** A rectangle in points. */
export interface RectPt {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The surface a render draws on, in device units: a raster canvas (pixels) or a PDF page
 * (points). Raster-only effects (shadows) are clipped to it and drawn at `oversample`
 * device pixels per device unit.
 */
export interface DrawSurface {
  /** Width, device units (px for a canvas, pt for a PDF page). */
  width: number;
  /** Height, device units. */
  height: number;
  /** Raster pixels per device unit for effects drawn as pictures (1 on a canvas; more on a PDF page, whose unit is the point). */
  oversample: number;
  /** True on a PDF page: hyperlinks become link annotations. */
  pdf: boolean;
  /** Shadow pictures already drawn in this document, to draw again (PDF documents only). */
  shadowPictures?: ShadowPictures;
}

/**
 * Shadow pictures of one PDF document by what they show: drawing the same canvas again
 * makes Skia's PDF writer reuse one image object (a master's shape casts the same shadow on
 * every slide). Kept up to {@link ShadowPictures.maxPixels} pixels together; past that,
 * shadows are drawn afresh (a deck of hundreds of slides must not hold all its shadows).
 */
export class ShadowPictures {
  private readonly pictures = new Map<string, KeptShadow>();
  private pixels = 0;

  /** @param maxPixels - most pixels kept together (default 32 megapixels, about 128 MB) */
  constructor(readonly maxPixels = 32_000_000) {}

  get(key: string): KeptShadow | undefined {
    return this.pictures.get(key);
  }

  /** Keeps a picture while the budget allows. */
  keep(key: string, kept: KeptShadow): void {
    const size = kept.picture.width * kept.picture.height;
    if (this.pixels + size > this.maxPixels) return;
    this.pixels += size;
    this.pictures.set(key, kept);
  }
}

/** A shadow picture and where its top left lies from its casters' origin (a shadow cut to the page: from the page's top left), device pixels. */
export interface KeptShadow {
  picture: Canvas;
  left: number;
  top: number;
}

/** Decoded pictures of a package, by part name: a fact of the opened template, released with the package object. */
const DECODED_PICTURES = new FactKind<Map<string, Promise<Image | MetafilePicture | ImageRefusal>>>('decoded pictures', () => new Map());

/** Text without a colour of its own. */
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };

/** How far right of the canvas glyphs are drawn whose canvas shadow alone should show, device pixels. */
const OUT_OF_SIGHT = 1 << 14;

/** Per-render state. */
export class DrawContext {
  readonly fontSubstitutions: Record<string, string> = {};
  readonly warnings: string[] = [];
  /**
   * The part whose relationships resolve the hyperlinks (`a:hlinkClick/@r:id`) of the text
   * drawn next; set by the shape renderer before each text body.
   */
  linkPart: string | undefined;
  /** Families that draw characters a face lacks (PDF pages only; see {@link pdfFallbackFamilies}). */
  readonly fallbackFamilies: readonly string[];
  private readonly images: Map<string, Promise<Image | MetafilePicture | ImageRefusal>>;
  private fmt: { fill: Element[]; line: Element[]; bg: Element[]; effect: Element[] } | undefined;

  constructor(
    readonly ctx: SKRSContext2D,
    readonly pkg: OpcPackage,
    readonly model: PmlModel,
    readonly theme: Theme,
    readonly colors: ColorContext,
    readonly maxImagePixels: number = MAX_IMAGE_PIXELS,
    readonly surface: DrawSurface = { width: ctx.canvas.width, height: ctx.canvas.height, oversample: 1, pdf: false },
  ) {
    // Decoded pictures are shared by every slide rendered from the same package object.
    this.images = openedTemplates.factsOf(pkg).of(DECODED_PICTURES);
    this.fallbackFamilies = surface.pdf ? pdfFallbackFamilies() : [];
  }

  /** The theme's format scheme lists (§20.1.4.1.14 `a:fmtScheme`). */
  formatScheme(): { fill: Element[]; line: Element[]; bg: Element[]; effect: Element[] } {
    if (!this.fmt) {
      let fill: Element[] = [];
      let line: Element[] = [];
      let bg: Element[] = [];
      let effect: Element[] = [];
      try {
        const root = this.theme.partName ? this.pkg.getXml(this.theme.partName).documentElement : undefined;
        const fs = child(child(root ?? undefined, NS.a, 'themeElements'), NS.a, 'fmtScheme');
        const list = (name: string, local?: string): Element[] => {
          const el = child(fs, NS.a, name);
          return el ? children(el, NS.a, local) : [];
        };
        fill = list('fillStyleLst');
        line = list('lnStyleLst', 'ln');
        bg = list('bgFillStyleLst');
        effect = list('effectStyleLst', 'effectStyle');
      } catch {
        // A broken theme draws without style matrix fills.
      }
      this.fmt = { fill, line, bg, effect };
    }
    return this.fmt;
  }

  /** The image of a relationship from `sourcePart`, decoded once (or why not). */
  image(sourcePart: string, rId: string | undefined): Promise<Image | MetafilePicture | ImageRefusal> | undefined {
    if (!rId) return undefined;
    const rel = this.pkg.rel(sourcePart, rId);
    if (!rel || rel.external || !rel.targetPartName || !this.pkg.hasPart(rel.targetPartName)) return undefined;
    const name = `${rel.targetPartName}|${this.maxImagePixels}`;
    let p = this.images.get(name);
    if (!p) {
      p = decodeImage(this.pkg.getBytes(rel.targetPartName), this.maxImagePixels);
      this.images.set(name, p);
    }
    return p;
  }

  /**
   * Family drawn for a template font name; records substitutions.
   * @param shapeHint - the shape the template's `panose` / `pitchFamily` give the name (FontSpec.shapeHint)
   */
  family(name: string, shapeHint?: FontShape): string {
    const d = drawFamily(name, shapeHint);
    if (d.substituted && name) this.fontSubstitutions[name] = d.family;
    return d.family;
  }
}

/** Builds a canvas path from an evaluated geometry path, offset by (x, y). */
export function toPath2D(ops: EvaluatedGeometry['paths'][number]['ops'], x = 0, y = 0): SkPath2D {
  const p = new Path2D();
  for (const op of ops) {
    switch (op[0]) {
      case 'M': p.moveTo(op[1]! + x, op[2]! + y); break;
      case 'L': p.lineTo(op[1]! + x, op[2]! + y); break;
      case 'C': p.bezierCurveTo(op[1]! + x, op[2]! + y, op[3]! + x, op[4]! + y, op[5]! + x, op[6]! + y); break;
      case 'Q': p.quadraticCurveTo(op[1]! + x, op[2]! + y, op[3]! + x, op[4]! + y); break;
      case 'E': p.ellipse(op[1]! + x, op[2]! + y, Math.max(op[3]!, 1e-6), Math.max(op[4]!, 1e-6), 0, op[5]!, op[6]!, op[7] === 1); break;
      case 'Z': p.closePath(); break;
      default: break;
    }
  }
  return p;
}

const FILL_NAMES: ReadonlySet<string> = new Set(['noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill']);

/** The fill element among `spPr`'s children, if any. */
export function fillOf(spPr: Element | undefined): Element | undefined {
  if (!spPr) return undefined;
  for (const c of children(spPr, NS.a)) if (FILL_NAMES.has(c.localName ?? '')) return c;
  return undefined;
}

/** A fill resolved for painting: the element plus the colour context (phClr). */
export interface ResolvedFill {
  el: Element;
  colors: ColorContext;
  /** Part the fill's relationships (blips) resolve from. */
  part: string;
}

/**
 * A style matrix fill reference (`a:fillRef`, ECMA-376 Part 1 §20.1.4.2.10: idx 1–3 fill
 * styles, 1001+ background styles; 0 no fill). A reference past the theme's list (the schema
 * requires at least three styles in each; a hand-made theme may have none) is painted as
 * a solid fill in the reference's own colour rather than dropped.
 */
export function styleFill(dc: DrawContext, ref: Element | undefined, part: string): ResolvedFill | undefined {
  if (!ref) return undefined;
  const idx = intAttr(ref, 'idx', 0);
  if (idx === 0) return undefined;
  const fs = dc.formatScheme();
  const ph = colorIn(ref, dc.colors);
  const el = (idx >= 1001 ? fs.bg[idx - 1001] : fs.fill[idx - 1]) ?? (ph ? SOLID_PLACEHOLDER_COLOR : undefined);
  if (!el) return undefined;
  return { el, colors: { ...dc.colors, phClr: ph }, part: dc.theme.partName ?? part };
}

/** `<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>`: a fill in the style reference's colour. */
const SOLID_PLACEHOLDER_COLOR: Element = (() => {
  const doc = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="phClr"/></a:solidFill>`, 'fill');
  return doc.documentElement!;
})();

/** `a` moved towards `b` by the share `t` (0–1), alpha included. */
export function mix(a: Rgba, b: Rgba, t: number): Rgba {
  return { r: a.r * (1 - t) + b.r * t, g: a.g * (1 - t) + b.g * t, b: a.b * (1 - t) + b.b * t, a: a.a * (1 - t) + b.a * t };
}

/** Adjusts a colour for a path's fill mode (§20.1.10.37 ST_PathFillMode). */
function shadeFor(mode: string, c: Rgba): Rgba {
  switch (mode) {
    case 'darken': return mix(c, { r: 0, g: 0, b: 0, a: c.a }, 0.4);
    case 'darkenLess': return mix(c, { r: 0, g: 0, b: 0, a: c.a }, 0.2);
    case 'lighten': return mix(c, { r: 255, g: 255, b: 255, a: c.a }, 0.4);
    case 'lightenLess': return mix(c, { r: 255, g: 255, b: 255, a: c.a }, 0.2);
    default: return c;
  }
}

/** The single representative colour of a fill (used for pattern fills, text on fills, charts). */
export function fillColor(f: ResolvedFill): Rgba | undefined {
  const el = f.el;
  switch (el.localName) {
    case 'solidFill': return colorIn(el, f.colors);
    case 'gradFill': {
      const stops = children(child(el, NS.a, 'gsLst') ?? el, NS.a, 'gs');
      const cs = stops.map((s) => colorIn(s, f.colors)).filter((c): c is Rgba => !!c);
      if (!cs.length) return undefined;
      return cs.reduce((acc, c) => ({ r: acc.r + c.r / cs.length, g: acc.g + c.g / cs.length, b: acc.b + c.b / cs.length, a: acc.a + c.a / cs.length }), { r: 0, g: 0, b: 0, a: 0 });
    }
    case 'pattFill': {
      const fg = colorIn(child(el, NS.a, 'fgClr'), f.colors) ?? { r: 0, g: 0, b: 0, a: 1 };
      const bg = colorIn(child(el, NS.a, 'bgClr'), f.colors) ?? { r: 255, g: 255, b: 255, a: 1 };
      const prst = attr(el, 'prst') ?? 'pct50';
      const m = /^pct(\d+)$/.exec(prst);
      const share = m ? Number(m[1]) / 100 : /^(dk|wd)/.test(prst) ? 0.5 : /^lt|^narrow|^dash|^dot/.test(prst) ? 0.25 : 0.35;
      return mix(bg, fg, share);
    }
    default: return undefined;
  }
}

/**
 * Paints a fill inside `path` whose bounding box (for gradients and pictures) is `box`.
 * Pictures are drawn stretched (or tiled) over the box and clipped to the path.
 */
export async function paintFill(dc: DrawContext, f: ResolvedFill, path: SkPath2D, box: RectPt, mode = 'norm', evenOdd = false): Promise<void> {
  const ctx = dc.ctx;
  const el = f.el;
  const rule = evenOdd ? 'evenodd' : 'nonzero';
  switch (el.localName) {
    case 'noFill':
      return;
    case 'solidFill':
    case 'pattFill': {
      const c = fillColor(f);
      if (!c) return;
      ctx.fillStyle = css(shadeFor(mode, c));
      ctx.fill(path, rule);
      return;
    }
    case 'gradFill': {
      const stops = children(child(el, NS.a, 'gsLst') ?? el, NS.a, 'gs')
        .map((s) => ({ pos: intAttr(s, 'pos', 0) / 100000, c: colorIn(s, f.colors) }))
        .filter((s): s is { pos: number; c: Rgba } => !!s.c)
        .sort((a, b) => a.pos - b.pos);
      if (!stops.length) return;
      const lin = child(el, NS.a, 'lin');
      const pathEl = child(el, NS.a, 'path');
      let g;
      const cx = box.x + box.w / 2;
      const cy = box.y + box.h / 2;
      if (pathEl && !lin) {
        const ftr = child(pathEl, NS.a, 'fillToRect');
        const fx = box.x + box.w * ((intAttr(ftr, 'l', 0) + (100000 - intAttr(ftr, 'r', 0))) / 200000);
        const fy = box.y + box.h * ((intAttr(ftr, 't', 0) + (100000 - intAttr(ftr, 'b', 0))) / 200000);
        // The path gradient runs from the focus (fillToRect) out to the box's circumscribed radius.
        const r = Math.hypot(box.w, box.h) / 2;
        g = ctx.createRadialGradient(fx, fy, 0, fx, fy, Math.max(r, 0.01));
      } else {
        const ang = ((intAttr(lin, 'ang', 0) / 60000) * Math.PI) / 180;
        const dx = Math.cos(ang);
        const dy = Math.sin(ang);
        const half = (Math.abs(box.w * dx) + Math.abs(box.h * dy)) / 2;
        g = ctx.createLinearGradient(cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half);
      }
      for (const s of stops) g.addColorStop(Math.max(0, Math.min(1, s.pos)), css(shadeFor(mode, s.c)));
      ctx.fillStyle = g;
      ctx.fill(path, rule);
      return;
    }
    case 'blipFill': {
      const blip = child(el, NS.a, 'blip');
      const rId = attrNS(blip, NS.r, 'embed');
      const pending = dc.image(f.part, rId);
      const img = pending ? await pending : undefined;
      if (!img || typeof img === 'string') {
        if (img === 'too_large') dc.warnings.push('picture over the pixel limit not drawn');
        ctx.fillStyle = 'rgba(200,200,200,0.5)';
        ctx.fill(path, rule);
        return;
      }
      const recolored = recolor(img, blip, f.colors);
      ctx.save();
      ctx.clip(path, rule);
      const alphaMod = child(blip, NS.a, 'alphaModFix');
      if (alphaMod) ctx.globalAlpha = intAttr(alphaMod, 'amt', 100000) / 100000;
      const tile = child(el, NS.a, 'tile');
      // Tiles are pictures: a metafile tile is rasterized at its natural size.
      const pic = tile && recolored instanceof MetafilePicture ? recolored.toCanvas() : recolored;
      if (tile && !(pic instanceof MetafilePicture)) {
        const sx = intAttr(tile, 'sx', 100000) / 100000;
        const sy = intAttr(tile, 'sy', 100000) / 100000;
        // Tiles are at the picture's size at 96 dpi (0.75 pt per pixel), scaled.
        const tw = img.width * 0.75 * sx;
        const th = img.height * 0.75 * sy;
        if (tw > 0.5 && th > 0.5 && dc.surface.pdf) {
          // Tiled once into one picture at the tile's own resolution (at most
          // PDF_TILED_MAX_PX a side): tiles drawn one by one, or as a PDF tiling pattern,
          // leave hairline seams where a viewer antialiases each tile's edges.
          // The same fill on every slide is one canvas, so one image object in the PDF.
          const k = Math.min(pic.width / tw, PDF_TILED_MAX_PX / Math.max(box.w, box.h));
          const cw = Math.max(1, Math.ceil(box.w * k));
          const ch = Math.max(1, Math.ceil(box.h * k));
          const key = `${tw} ${th} ${intAttr(tile, 'tx', 0)} ${intAttr(tile, 'ty', 0)} ${cw} ${ch}`;
          let perPic = TILED.get(pic);
          let tiled = perPic?.get(key);
          if (!tiled) {
            tiled = createCanvas(cw, ch);
            const tc = tiled.getContext('2d');
            const pattern = tc.createPattern(pic, 'repeat');
            const ox = (intAttr(tile, 'tx', 0) / EMU_PT) * k;
            const oy = (intAttr(tile, 'ty', 0) / EMU_PT) * k;
            pattern.setTransform({ a: (tw * k) / pic.width, b: 0, c: 0, d: (th * k) / pic.height, e: ox, f: oy });
            tc.fillStyle = pattern;
            tc.fillRect(0, 0, cw, ch);
            if (!perPic) TILED.set(pic, (perPic = new Map()));
            // A few fills per picture at most are kept (slides of one size use one or two).
            if (perPic.size < 4) perPic.set(key, tiled);
          }
          ctx.drawImage(tiled, box.x, box.y, cw / k, ch / k);
        } else if (tw > 0.5 && th > 0.5) {
          // only the tiles over the canvas: a box far larger than the slide (a frame of 2^31 EMU)
          // would otherwise be tiled whole, millions of pictures drawn into the clip for nothing
          const view = visibleArea(ctx, dc.surface);
          const x0 = box.x + intAttr(tile, 'tx', 0) / EMU_PT;
          const y0 = box.y + intAttr(tile, 'ty', 0) / EMU_PT;
          const firstX = x0 + Math.max(0, Math.floor((view.x - x0) / tw)) * tw;
          const firstY = y0 + Math.max(0, Math.floor((view.y - y0) / th)) * th;
          const endX = Math.min(box.x + box.w, view.x + view.w);
          const endY = Math.min(box.y + box.h, view.y + view.h);
          for (let ty = firstY; ty < endY; ty += th) {
            for (let tx = firstX; tx < endX; tx += tw) ctx.drawImage(pic, tx, ty, tw, th);
          }
        }
      } else {
        drawCropped(ctx, pic, child(el, NS.a, 'srcRect'), box, dc.surface.pdf);
      }
      ctx.restore();
      return;
    }
    default:
      return;
  }
}

/**
 * The part of the current user space (points) the canvas shows: the bounding box of the
 * canvas's corners mapped back through the current transform (empty for a transform that
 * flattens everything, which shows nothing).
 */
function visibleArea(ctx: SKRSContext2D, surface: DrawSurface): RectPt {
  const m = ctx.getTransform();
  const det = m.a * m.d - m.b * m.c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return { x: 0, y: 0, w: 0, h: 0 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [X, Y] of [[0, 0], [surface.width, 0], [0, surface.height], [surface.width, surface.height]] as const) {
    const x = (m.d * (X - m.e) - m.c * (Y - m.f)) / det;
    const y = (-m.b * (X - m.e) + m.a * (Y - m.f)) / det;
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Largest side of a tiled picture fill composed for a PDF page, px (2048 over a 10 in slide: 205 dpi). */
const PDF_TILED_MAX_PX = 2048;
/** Tiled fills composed for PDF pages, per picture (released with the picture). */
const TILED = new WeakMap<Image | Canvas, Map<string, Canvas>>();

const RECOLORED = new WeakMap<Image | Canvas, Map<string, Canvas>>();
const RASTERS = new WeakMap<MetafilePicture, Canvas>();

/** A metafile's pixels for colour effects, made once per picture. */
function metafileRaster(m: MetafilePicture): Canvas {
  let c = RASTERS.get(m);
  if (!c) {
    const k = Math.min(1, 1024 / Math.max(m.width, m.height));
    c = m.toCanvas(m.width * k, m.height * k);
    RASTERS.set(m, c);
  }
  return c;
}

/**
 * Applies a blip's colour effects (§20.1.8: `a:duotone` maps luminance onto two colours,
 * `a:grayscl`, `a:lum` bright/contrast) to a picture, on a copy at most 1024 px wide.
 * Pictures without these effects come back unchanged.
 */
export function recolor(picture: Image | MetafilePicture, blip: Element | undefined, colors: ColorContext): Image | Canvas | MetafilePicture {
  if (!blip) return picture;
  const duo = child(blip, NS.a, 'duotone');
  const gray = child(blip, NS.a, 'grayscl');
  const lum = child(blip, NS.a, 'lum');
  if (!duo && !gray && !lum) return picture;
  // A metafile with colour effects is recoloured as pixels (rasterized at its natural size, at most 1024 px wide).
  const img = picture instanceof MetafilePicture ? metafileRaster(picture) : picture;
  const stops = duo ? children(duo, NS.a).slice(0, 2) : [];
  const c0 = stops[0] ? resolveStop(stops[0], colors) : undefined;
  const c1 = stops[1] ? resolveStop(stops[1], colors) : undefined;
  const bright = intAttr(lum, 'bright', 0) / 100000;
  const contrast = intAttr(lum, 'contrast', 0) / 100000;
  const key = `${c0 ? css(c0) : ''}|${c1 ? css(c1) : ''}|${gray ? 1 : 0}|${bright}|${contrast}`;
  let per = RECOLORED.get(img);
  const hit = per?.get(key);
  if (hit) return hit;
  const scale = Math.min(1, 1024 / Math.max(1, img.width));
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const canvas = createCanvas(w, h);
  const cx = canvas.getContext('2d');
  cx.drawImage(img, 0, 0, w, h);
  const data = cx.getImageData(0, 0, w, h);
  const d = data.data;
  const k = contrast >= 0 ? 1 / Math.max(0.01, 1 - contrast) : 1 + contrast;
  for (let i = 0; i < d.length; i += 4) {
    let r = d[i]!, g = d[i + 1]!, b = d[i + 2]!;
    if (lum) {
      r = (r / 255 - 0.5) * k + 0.5 + bright; g = (g / 255 - 0.5) * k + 0.5 + bright; b = (b / 255 - 0.5) * k + 0.5 + bright;
      r = Math.max(0, Math.min(255, r * 255)); g = Math.max(0, Math.min(255, g * 255)); b = Math.max(0, Math.min(255, b * 255));
    }
    const y = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    if (c0 && c1) {
      r = c0.r + (c1.r - c0.r) * y; g = c0.g + (c1.g - c0.g) * y; b = c0.b + (c1.b - c0.b) * y;
    } else if (gray) {
      r = g = b = y * 255;
    }
    d[i] = r; d[i + 1] = g; d[i + 2] = b;
  }
  cx.putImageData(data, 0, 0);
  if (!per) {
    per = new Map();
    RECOLORED.set(img, per);
  }
  per.set(key, canvas);
  return canvas;
}

/** One duotone colour element resolved (the element itself is the colour). */
function resolveStop(el: Element, colors: ColorContext): Rgba | undefined {
  return resolveRgba(el, colors);
}

/**
 * Draws an image into `box` honouring `a:srcRect` crops (§20.1.8.55; negative values pad).
 * A metafile is played as vectors into the uncropped frame, clipped to `box`; its cosmetic
 * pens (1 pixel wide in GDI) draw one device pixel wide on a canvas, 0.5 pt on a PDF page
 * (`pdf`), whose unit is the point.
 */
export function drawCropped(ctx: SKRSContext2D, img: Image | Canvas | MetafilePicture, srcRect: Element | undefined, box: RectPt, pdf = false): void {
  const l = intAttr(srcRect, 'l', 0) / 100000;
  const t = intAttr(srcRect, 't', 0) / 100000;
  const r = intAttr(srcRect, 'r', 0) / 100000;
  const b = intAttr(srcRect, 'b', 0) / 100000;
  const fw = 1 - l - r;
  const fh = 1 - t - b;
  if (fw <= 0 || fh <= 0) return;
  const dw = box.w / fw;
  const dh = box.h / fh;
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.x, box.y, box.w, box.h);
  ctx.clip();
  if (img instanceof MetafilePicture) img.draw(ctx, { x: box.x - l * dw, y: box.y - t * dh, w: dw, h: dh }, pdf ? 0.5 : 1 / deviceScale(ctx.getTransform()));
  else ctx.drawImage(img, box.x - l * dw, box.y - t * dh, dw, dh);
  ctx.restore();
}

/** An outer shadow (`a:outerShdw`, §20.1.8.49) as shapes and text cast it. */
export type OuterShadow = TextShadow;

/**
 * The outer shadow of a shape: its own `a:effectLst` (an empty list means none), else the
 * theme effect style its `a:effectRef` names (§20.1.4.2.8, `phClr` from the reference).
 * Other effects (glow, soft edges, reflection, 3-D) are not drawn.
 */
export function shapeShadow(dc: DrawContext, spPr: Element | undefined, effectRef: Element | undefined): OuterShadow | undefined {
  const effects = effectListOf(dc, spPr, effectRef);
  return effects ? readOuterShadow(effects.list, effects.colors) : undefined;
}

/**
 * The effect list of a shape: its own `a:effectLst`, else (when it has no `a:effectDag`
 * either) the theme's effect style its `a:effectRef` names (§20.1.4.2.8), whose `phClr` is
 * the reference's colour; undefined when none applies.
 */
export function effectListOf(dc: DrawContext, spPr: Element | undefined, effectRef: Element | undefined): { list: Element; colors: ColorContext; fromTheme: boolean } | undefined {
  const own = child(spPr, NS.a, 'effectLst');
  if (own) return { list: own, colors: dc.colors, fromTheme: false };
  if (child(spPr, NS.a, 'effectDag') || !effectRef) return undefined;
  const idx = intAttr(effectRef, 'idx', 0);
  const list = child(idx > 0 ? dc.formatScheme().effect[idx - 1] : undefined, NS.a, 'effectLst');
  return list ? { list, colors: { ...dc.colors, phClr: colorIn(effectRef, dc.colors) }, fromTheme: true } : undefined;
}

/** A second fill laid over a shape's own ({@link fillOverlayOf}) and how the two are blended (the canvas's composite operation). */
export interface FillOverlay {
  fill: ResolvedFill;
  blend: 'darken' | 'lighten' | 'multiply' | 'source-over' | 'screen';
}

/** Canvas composite operations of `ST_BlendMode` (§20.1.10.11). */
const BLEND_MODES: Readonly<Record<string, FillOverlay['blend']>> = { darken: 'darken', lighten: 'lighten', mult: 'multiply', over: 'source-over', screen: 'screen' };

/**
 * The fill overlay effect of a shape (`a:fillOverlay`, ECMA-376 Part 1 §20.1.8.29): a fill
 * painted over the shape's own and blended with it (`blend`, default over) — Office 2007
 * themes darken tiled-picture backgrounds with a gradient this way. Undefined without one.
 * @param part - the part the overlay's picture fills resolve from
 */
export function fillOverlayOf(dc: DrawContext, spPr: Element | undefined, effectRef: Element | undefined, part: string): FillOverlay | undefined {
  const effects = effectListOf(dc, spPr, effectRef);
  const overlay = child(effects?.list, NS.a, 'fillOverlay');
  if (!effects || !overlay) return undefined;
  const fill = children(overlay, NS.a).find((e) => FILL_NAMES.has(e.localName ?? ''));
  if (!fill || fill.localName === 'noFill') return undefined;
  const blend = BLEND_MODES[attr(overlay, 'blend') ?? 'over'] ?? 'source-over';
  return { fill: { el: fill, colors: effects.colors, part: effects.fromTheme ? dc.theme.partName ?? part : part }, blend };
}

/** A path whose shadow is cast: filled, and/or outlined `strokePt` wide (0: not outlined). */
export interface ShadowCaster {
  path: SkPath2D;
  fill: boolean;
  strokePt: number;
  /**
   * The operations `path` was made of (as {@link toPath2D} takes them) and the origin they
   * were moved to (`path` is `toPath2D(ops, x, y)`). On PDF pages shapes of one outline
   * share a shadow picture by them, drawn from the outline at (0, 0) (a path moved by Skia,
   * which keeps single precision, comes back a few millionths off). Without them a caster is
   * named by Skia's SVG text of its path, which turns every arc into curves first (about a
   * quarter of a millisecond for an ellipse).
   */
  local?: { ops: PathOps; x: number; y: number };
}

/** The operations of one path, as {@link toPath2D} takes them. */
type PathOps = EvaluatedGeometry['paths'][number]['ops'];

/** Path operations as text: equal for equal outlines. */
function pathOpsText(ops: PathOps): string {
  let s = '';
  for (const op of ops) s += `${op.join(',')};`;
  return s;
}

/**
 * What a caster casts, as text: filled and/or stroked, and its outline — from its own
 * origin (`placed` false: the same wherever the shape stands), or where it stands.
 */
function casterText(c: ShadowCaster, placed: boolean): string {
  const outline = c.local ? `ops ${pathOpsText(c.local.ops)}${placed ? ` at ${c.local.x},${c.local.y}` : ''}` : c.path.toSVGString();
  return `${c.fill ? 'f' : ''}${c.strokePt}:${outline}`;
}

/**
 * Draws the outer shadow that `casters` (in the current transform, points) cast, beneath
 * them. The canvas's own shadow blurs a layer the size of the canvas it is drawn on (about
 * 1.5 ms per shape on a 1280 px slide), so the silhouette is drawn on a small canvas around
 * the shadow only, at half resolution when the blur is wide enough to hide it, moved off that
 * canvas so only its shadow lands, and the result is drawn onto the slide. The offset is in
 * device space (`rotWithShape` off: shadows do not turn with the shape); a blur radius maps to
 * the canvas blur (twice the Gaussian σ).
 */
export function drawShadow(ctx: SKRSContext2D, surface: DrawSurface, sh: OuterShadow, casters: ShadowCaster[]): void {
  if (!casters.length) return;
  if (surface.pdf && !(sh.blurPt > 0)) {
    drawSharpShadow(ctx, sh, casters);
    return;
  }
  // On a PDF page the device unit is the point: the shadow picture is drawn `os` times finer.
  const os = surface.oversample;
  const m0 = ctx.getTransform();
  const m = os === 1 ? m0 : { a: m0.a * os, b: m0.b * os, c: m0.c * os, d: m0.d * os, e: m0.e * os, f: m0.f * os };
  const k = Math.hypot(m.a, m.b) || 1;
  const dx = sh.dxPt * k;
  const dy = sh.dyPt * k;
  const blur = sh.blurPt * k;
  // The casters' bounds in device pixels, moved by the offset and widened by the blur.
  let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
  for (const c of casters) {
    const [x0, y0, x1, y1] = c.path.getBounds();
    const pad = c.strokePt / 2;
    for (const [x, y] of [[x0 - pad, y0 - pad], [x1 + pad, y0 - pad], [x0 - pad, y1 + pad], [x1 + pad, y1 + pad]] as const) {
      const X = m.a * x + m.c * y + m.e + dx;
      const Y = m.b * x + m.d * y + m.f + dy;
      l = Math.min(l, X); t = Math.min(t, Y); r = Math.max(r, X); b = Math.max(b, Y);
    }
  }
  const margin = blur * 1.5 + 2;
  const q = blur >= 3 ? 0.5 : 1;
  if (surface.shadowPictures && drawKeptShadow(ctx, surface, surface.shadowPictures, sh, m, q, dx, dy, blur, margin, casters, { l, t, r, b })) return;
  l = Math.max(0, Math.floor(l - margin));
  t = Math.max(0, Math.floor(t - margin));
  r = Math.min(Math.ceil(surface.width * os), Math.ceil(r + margin));
  b = Math.min(Math.ceil(surface.height * os), Math.ceil(b + margin));
  if (!(r > l && b > t)) return;
  const w = Math.max(1, Math.ceil((r - l) * q));
  const h = Math.max(1, Math.ceil((b - t) * q));
  // Cut to the page, the picture depends on where it stands: kept by its place too.
  const key = surface.shadowPictures ? `${l} ${t} ${w} ${h} ${m.e} ${m.f} ${shadowKey(sh, m, q, casters.map((c) => casterText(c, true)))}` : '';
  const kept = surface.shadowPictures?.get(key)?.picture;
  const off = kept ?? createCanvas(w, h);
  if (!kept) {
    drawShadowPicture(off, sh, m, l, t, q, dx, dy, blur, casters);
    surface.shadowPictures?.keep(key, { picture: off, left: l, top: t });
  }
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (os === 1) ctx.drawImage(off, l, t, w / q, h / q);
  else ctx.drawImage(off, l / os, t / os, w / q / os, h / q / os);
  ctx.restore();
}

/**
 * A shadow without blur (`blurRad` 0) on a PDF page: the casters' own outlines, filled and
 * stroked in the shadow's colour and moved by its offset in device space, drawn as vector
 * paths rather than as a picture (which Skia would write as colours plus a soft mask). What
 * shows is what the picture shows: each caster's silhouette laid over the previous ones.
 */
function drawSharpShadow(ctx: SKRSContext2D, sh: OuterShadow, casters: ShadowCaster[]): void {
  const m = ctx.getTransform();
  const k = Math.hypot(m.a, m.b) || 1;
  ctx.save();
  ctx.setTransform(m.a, m.b, m.c, m.d, m.e + sh.dxPt * k, m.f + sh.dyPt * k);
  ctx.fillStyle = css(sh.color);
  ctx.strokeStyle = css(sh.color);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'butt';
  ctx.setLineDash([]);
  for (const c of casters) {
    if (c.fill) ctx.fill(c.path);
    if (c.strokePt > 0) {
      ctx.lineWidth = c.strokePt;
      ctx.stroke(c.path);
    }
  }
  ctx.restore();
}

/**
 * A PDF page's shadow: one picture for every shape of the same outline, size, turn and
 * shadow wherever it stands (a diagram's boxes, a master's shape on every slide). The
 * picture's pixels are laid out from the casters' own origin rather than from the page's
 * pixel grid, so where a shape stands does not change them, and the picture is placed at
 * the shadow's exact position (a PDF places a picture anywhere, not only on whole pixels).
 * Returns false, drawing nothing, for a shadow that crosses the page's edge (drawn cut to
 * the page, as on a canvas).
 *
 * @param box - the shadow's bounds, device pixels (`oversample` per point), before the margin
 */
function drawKeptShadow(
  ctx: SKRSContext2D, surface: DrawSurface, pictures: ShadowPictures, sh: OuterShadow, m: Affine, q: number,
  dx: number, dy: number, blur: number, margin: number, casters: ShadowCaster[], box: { l: number; t: number; r: number; b: number },
): boolean {
  const os = surface.oversample;
  if (box.l - margin < 0 || box.t - margin < 0 || box.r + margin > surface.width * os || box.b + margin > surface.height * os) return false;
  // The origin of the picture's layout: the casters' own (all the same), else their top left (user space).
  const first = casters[0]?.local;
  const sameOrigin = !!first && casters.every((c) => c.local && c.local.x === first.x && c.local.y === first.y);
  let ux: number, uy: number;
  // The casters from that origin: made only when a picture is drawn (most shadows reuse one).
  let local: () => ShadowCaster[];
  let key: string;
  if (sameOrigin) {
    ux = first.x;
    uy = first.y;
    key = shadowKey(sh, m, q, casters.map((c) => casterText(c, false)));
    local = () => casters.map((c) => ({ fill: c.fill, strokePt: c.strokePt, path: toPath2D(c.local!.ops) }));
  } else {
    ux = Infinity;
    uy = Infinity;
    for (const c of casters) {
      const [x0, y0] = c.path.getBounds();
      ux = Math.min(ux, x0);
      uy = Math.min(uy, y0);
    }
    const moved = casters.map((c) => {
      const path = new Path2D();
      path.addPath(c.path, { a: 1, b: 0, c: 0, d: 1, e: -ux, f: -uy });
      return { fill: c.fill, strokePt: c.strokePt, path };
    });
    key = shadowKey(sh, m, q, moved.map((c) => casterText(c, false)));
    local = () => moved;
  }
  // Where that origin lands on the page, device pixels.
  const ox = m.a * ux + m.c * uy + m.e;
  const oy = m.b * ux + m.d * uy + m.f;
  let kept = pictures.get(key);
  if (!kept) {
    // The picture's top left and size from the origin: the same for every shape of this key.
    const left = Math.floor(box.l - margin - ox);
    const top = Math.floor(box.t - margin - oy);
    const w = Math.max(1, Math.ceil((box.r + margin - ox - left) * q));
    const h = Math.max(1, Math.ceil((box.b + margin - oy - top) * q));
    const picture = createCanvas(w, h);
    drawShadowPicture(picture, sh, { a: m.a, b: m.b, c: m.c, d: m.d, e: 0, f: 0 }, left, top, q, dx, dy, blur, local());
    kept = { picture, left, top };
    pictures.keep(key, kept);
  }
  const { picture, left, top } = kept;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(picture, (ox + left) / os, (oy + top) / os, picture.width / q / os, picture.height / q / os);
  ctx.restore();
  return true;
}

/** What makes a shadow picture what it is (for {@link DrawSurface.shadowPictures}): the casters (see {@link casterText}), the transform's turn and scale, the shadow. */
function shadowKey(sh: OuterShadow, m: Affine, q: number, casters: string[]): string {
  return `${css(sh.color)} ${sh.blurPt} ${sh.dxPt} ${sh.dyPt} ${m.a} ${m.b} ${m.c} ${m.d} ${q} ${casters.join('|')}`;
}


/** Draws the shadow the casters cast onto `off`, whose top left is device pixel (l, t), at `q` pixels per device pixel. */
function drawShadowPicture(off: Canvas, sh: OuterShadow, m: Affine, l: number, t: number, q: number, dx: number, dy: number, blur: number, casters: ShadowCaster[]): void {
  const o = off.getContext('2d');
  const away = 1 << 14;
  o.setTransform(q * m.a, q * m.b, q * m.c, q * m.d, q * (m.e - l) + away, q * (m.f - t));
  o.shadowColor = css(sh.color);
  o.shadowBlur = blur * q;
  o.shadowOffsetX = dx * q - away;
  o.shadowOffsetY = dy * q;
  o.fillStyle = '#000000';
  o.strokeStyle = '#000000';
  o.lineJoin = 'round';
  for (const c of casters) {
    if (c.fill) o.fill(c.path);
    if (c.strokePt > 0) {
      o.lineWidth = c.strokePt;
      o.stroke(c.path);
    }
  }
}

/** An outline resolved from `a:ln` and the style's line reference. */
export interface Outline {
  fill: ResolvedFill | undefined;
  /** Width in points. */
  width: number;
  cap: 'butt' | 'round' | 'square';
  join: 'round' | 'bevel' | 'miter';
  dash: number[] | undefined;
  head: Element | undefined;
  tail: Element | undefined;
}

const DASHES: Record<string, number[]> = {
  dash: [4, 3], lgDash: [8, 3], dot: [1, 3], dashDot: [4, 3, 1, 3], lgDashDot: [8, 3, 1, 3], lgDashDotDot: [8, 3, 1, 3, 1, 3],
  sysDash: [3, 1], sysDot: [1, 1], sysDashDot: [3, 1, 1, 1], sysDashDotDot: [3, 1, 1, 1, 1, 1],
};

/**
 * Resolves an outline: attributes and children of the shape's own `a:ln` override the
 * style's (`a:lnRef` into `a:lnStyleLst`, with `phClr` from the reference).
 */
export function resolveOutline(dc: DrawContext, lns: Element[], lnRef: Element | undefined, part: string): Outline | undefined {
  const chain = [...lns];
  let colors = dc.colors;
  if (lnRef) {
    const idx = intAttr(lnRef, 'idx', 0);
    const st = idx > 0 ? dc.formatScheme().line[idx - 1] : undefined;
    if (st) {
      chain.push(st);
      colors = { ...dc.colors, phClr: colorIn(lnRef, dc.colors) };
    }
  }
  if (!chain.length) return undefined;
  let fillEl: Element | undefined;
  let fillColors = dc.colors;
  for (const ln of chain) {
    const f = fillOf(ln);
    if (f) {
      fillEl = f;
      fillColors = ln === chain[chain.length - 1] && lnRef && !lns.includes(ln) ? colors : dc.colors;
      break;
    }
  }
  if (!fillEl || fillEl.localName === 'noFill') return undefined;
  const pickAttr = (n: string): string | undefined => {
    for (const ln of chain) { const v = attr(ln, n); if (v !== undefined) return v; }
    return undefined;
  };
  const pickChild = (names: string[]): Element | undefined => {
    for (const ln of chain) for (const c of children(ln, NS.a)) if (names.includes(c.localName ?? '')) return c;
    return undefined;
  };
  const w = Number(pickAttr('w') ?? 9525) / EMU_PT;
  const capRaw = pickAttr('cap');
  const dashEl = pickChild(['prstDash', 'custDash']);
  let dash: number[] | undefined;
  const width = Math.max(w, 0.35);
  if (dashEl?.localName === 'prstDash') {
    const d = DASHES[attr(dashEl, 'val') ?? 'solid'];
    if (d) dash = d.map((x) => x * width);
  } else if (dashEl?.localName === 'custDash') {
    dash = children(dashEl, NS.a, 'ds').flatMap((ds) => [(intAttr(ds, 'd', 100000) / 100000) * width, (intAttr(ds, 'sp', 100000) / 100000) * width]);
  }
  const joinEl = pickChild(['round', 'bevel', 'miter']);
  return {
    fill: { el: fillEl, colors: fillColors, part },
    width,
    cap: capRaw === 'rnd' ? 'round' : capRaw === 'sq' ? 'square' : 'butt',
    join: joinEl?.localName === 'bevel' ? 'bevel' : joinEl?.localName === 'miter' ? 'miter' : 'round',
    dash,
    head: pickChild(['headEnd']),
    tail: pickChild(['tailEnd']),
  };
}

/** Strokes `path` with an outline, then draws its arrow heads at the open path's ends. */
export function strokeOutline(dc: DrawContext, o: Outline, path: SkPath2D, ends: Array<{ x: number; y: number; fromX: number; fromY: number; which: 'head' | 'tail' }>): void {
  const ctx = dc.ctx;
  const c = o.fill ? fillColor(o.fill) : undefined;
  if (!c) return;
  ctx.save();
  ctx.strokeStyle = css(c);
  ctx.lineWidth = o.width;
  ctx.lineCap = o.cap;
  ctx.lineJoin = o.join;
  ctx.setLineDash(o.dash ?? []);
  ctx.stroke(path);
  ctx.setLineDash([]);
  for (const e of ends) {
    const spec = e.which === 'head' ? o.head : o.tail;
    const type = attr(spec, 'type');
    if (!spec || !type || type === 'none') continue;
    const sz = (v: string | undefined): number => (v === 'sm' ? 2 : v === 'lg' ? 5 : 3);
    const len = sz(attr(spec, 'len')) * Math.max(o.width, 1);
    const wid = sz(attr(spec, 'w')) * Math.max(o.width, 1);
    const ang = Math.atan2(e.y - e.fromY, e.x - e.fromX);
    ctx.save();
    ctx.translate(e.x, e.y);
    ctx.rotate(ang);
    ctx.fillStyle = css(c);
    ctx.beginPath();
    if (type === 'oval') ctx.ellipse(0, 0, len / 2, wid / 2, 0, 0, Math.PI * 2);
    else if (type === 'diamond') { ctx.moveTo(len / 2, 0); ctx.lineTo(0, wid / 2); ctx.lineTo(-len / 2, 0); ctx.lineTo(0, -wid / 2); ctx.closePath(); }
    else if (type === 'arrow') {
      ctx.moveTo(-len, -wid / 2); ctx.lineTo(0, 0); ctx.lineTo(-len, wid / 2);
      ctx.lineWidth = o.width; ctx.stroke();
      ctx.restore();
      continue;
    } else if (type === 'stealth') { ctx.moveTo(0, 0); ctx.lineTo(-len, -wid / 2); ctx.lineTo(-len * 0.6, 0); ctx.lineTo(-len, wid / 2); ctx.closePath(); }
    else { ctx.moveTo(0, 0); ctx.lineTo(-len, -wid / 2); ctx.lineTo(-len, wid / 2); ctx.closePath(); }
    ctx.fill();
    ctx.restore();
  }
  ctx.restore();
}

/**
 * Lays out a shrink-on-overflow body (`a:normAutofit`, ECMA-376 Part 1 §21.1.2.1.3) as
 * LibreOffice shows it: the stored `fontScale` and `lnSpcReduction` (PowerPoint's result
 * with its own metrics) are ignored, and one scale ≤ 1 is applied to every font size and,
 * through them, to the line pitch: the largest at which the text fits the box by our
 * measurement (to 0.5 %), never taking the largest run below 4 pt. Trailing paragraphs
 * without runs are left out of the measurement (LibreOffice lets them overflow).
 *
 * @param box - the text rectangle, EMU
 * @param scale0 - the scale to draw at, when decided elsewhere (else searched: {@link shrinkScale})
 */
function autofitLayout(body: TextBodyInput, box: TextBox, options: LayoutOptions, scale0?: number): TextLayout {
  const base: TextBodyInput = { ...body, fontScale: 1, lnSpcReduction: 0 };
  const scale = scale0 ?? shrinkScale(body, box, options);
  return scale >= 1 ? layoutText(base, box, options) : layoutText(base, box, { ...shrinkingOptions(options), extraScale: scale });
}

/**
 * The options shrinking text is measured and drawn with: the lines it was matched to
 * LibreOffice's own shrinking with (the faces' win metrics, at least 1.2 em), not
 * `options.lineMetrics`. LibreOffice scales the spacing along with the font there, and with
 * its unscaled 1.2 em lines the search shrank less and lines came out closer than LibreOffice
 * draws them (poi-ecodesign-lecture-de slide 14: SSIM 0.87 -> 0.72, and 0.81 with only the
 * search kept). Text that fits unshrunk is placed as LibreOffice places it (lineMetrics).
 */
function shrinkingOptions(options: LayoutOptions): LayoutOptions {
  const { lineMetrics: _unscaledLines, ...rest } = options;
  return rest;
}

/**
 * The scale {@link autofitLayout} shrinks a body by: 1 when it fits, else the largest at
 * which it fits by our measurement (to 0.5 %), never taking the largest run below 4 pt.
 * Trailing paragraphs without runs are left out of the measurement.
 */
function shrinkScale(body: TextBodyInput, box: TextBox, options: LayoutOptions): number {
  const paras = body.paragraphs.slice();
  while (paras.length > 1 && paras[paras.length - 1]!.runs.length === 0) paras.pop();
  const measured: TextBodyInput = { ...body, fontScale: 1, lnSpcReduction: 0, paragraphs: paras };
  const searchOptions = shrinkingOptions(options);
  const fits = (s: number): boolean => {
    const l = layoutText(measured, box, { ...searchOptions, extraScale: s, measureOnly: true });
    return l.overflow_pt <= 0.5 && l.overflowX_pt <= 0.5;
  };
  if (fits(1)) return 1;
  let maxSize = 0;
  for (const p of body.paragraphs) for (const r of p.runs) maxSize = Math.max(maxSize, r.font.size_pt);
  let lo = Math.min(1, 4 / Math.max(maxSize, 4));
  let hi = 1;
  while (hi - lo > 0.005) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid; else hi = mid;
  }
  return lo;
}

/**
 * The scale a shrink-on-overflow body would be drawn at in `rect` (see {@link autofitLayout}),
 * the box turned for vertical text as {@link drawTurnedTextBody} turns it: what a group of
 * bodies that share one size (SmartArt nodes under an equal-size constraint) take the least of.
 */
export function textShrinkScale(dc: DrawContext, body: TextBodyInput, rect: RectPt, vert: string | undefined, options: LayoutOptions = PREVIEW_LAYOUT): number {
  const turned = isVerticalText(vert);
  const box = { width_emu: (turned ? rect.h : rect.w) * EMU_PT, height_emu: (turned ? rect.w : rect.h) * EMU_PT };
  return shrinkScale(drawableText(dc, body), box, options);
}

/**
 * Draws text in `rect`, turned a quarter for vertical text ({@link isVerticalText}: `vert`
 * of `a:bodyPr` §21.1.2.1.1 or `a:tcPr` §21.1.3.17; 90°, `vert270` 270°).
 * @param options - how the text is laid out ({@link drawTextBody})
 */
export function drawTurnedTextBody(dc: DrawContext, body: TextBodyInput, rect0: RectPt, vert: string | undefined, autofit: boolean | number = false, options: LayoutOptions = PREVIEW_LAYOUT, shadow?: OuterShadow): void {
  const ctx = dc.ctx;
  let rect = rect0;
  ctx.save();
  if (isVerticalText(vert)) {
    const cx = rect.x + rect.w / 2;
    const cy = rect.y + rect.h / 2;
    ctx.translate(cx, cy);
    ctx.rotate(vert === 'vert270' ? -Math.PI / 2 : Math.PI / 2);
    ctx.translate(-cx, -cy);
    rect = { x: cx - rect.h / 2, y: cy - rect.w / 2, w: rect.h, h: rect.w };
  }
  drawTextBody(dc, body, rect, autofit, options, shadow);
  ctx.restore();
}

/**
 * Most characters of one text body that are laid out and drawn: far more than a slide can
 * show legibly (a full 13.33 × 7.5 in slide of 6 pt text holds about 20,000), few enough
 * that laying them out stays cheap. Without it a hostile body of 10 million characters
 * (one XML part of 16 MiB holds that many) took 22 s of CPU and 700 MiB to draw, and one of
 * 4 million with shrink-on-overflow 32 s (the fitting search lays the text out once per
 * step); with it, about 0.5 and 1.5 s.
 */
export const MAX_DRAWN_TEXT_CHARS = 200_000;

/**
 * The body cut after {@link MAX_DRAWN_TEXT_CHARS} characters (whole paragraphs and runs
 * before the cut, the run at the cut shortened), with a warning; the body itself when it
 * is shorter.
 */
function drawableText(dc: DrawContext, body: TextBodyInput): TextBodyInput {
  let total = 0;
  for (const p of body.paragraphs) for (const r of p.runs) total += r.text.length;
  if (total <= MAX_DRAWN_TEXT_CHARS) return body;
  let left = MAX_DRAWN_TEXT_CHARS;
  const paragraphs: TextBodyInput['paragraphs'] = [];
  for (const p of body.paragraphs) {
    if (left <= 0) break;
    const runs: typeof p.runs = [];
    for (const r of p.runs) {
      if (left <= 0) break;
      runs.push(r.text.length <= left ? r : { ...r, text: r.text.slice(0, left) });
      left -= r.text.length;
    }
    paragraphs.push({ ...p, runs });
  }
  dc.warnings.push(`a text body of ${total} characters: only the first ${MAX_DRAWN_TEXT_CHARS} are drawn`);
  return { ...body, paragraphs };
}

/**
 * How many device pixels one unit of the current transform spans (the square root of its
 * determinant: the mean of the two axes' scales, for a group that stretches its children).
 */
export function deviceScale(m: Pick<Affine, 'a' | 'b' | 'c' | 'd'>): number {
  return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) || 1;
}

/**
 * Draws laid-out text in a text rectangle (points, in the current transform).
 *
 * Where the transform enlarges (a preview wider than the slide is in points, or a tiny
 * slide), the glyphs are drawn at their device size in a transform scaled back by the same
 * factor. Skia places a glyph on the baseline at the font size the canvas is given and only
 * then applies the transform, so at 4 pt drawn 6× (a 24 px em) Carlito's digits stood
 * 3 px above the baseline and Noto Sans CJK's ideographs 2 px below it, and at 12 pt drawn
 * 2× each was 1 px off; given the device size, both sit where a 24 px font puts them.
 * Advances are unchanged (positions come from the layout, in points).
 * @param autofit - the body shrinks on overflow (`a:normAutofit`): see {@link autofitLayout};
 *   a number is a shrink scale decided for it ({@link textShrinkScale} of a group)
 * @param options - how the text is laid out: {@link PREVIEW_LAYOUT} (a shape's text body, as
 *   LibreOffice sets it) unless the caller sets it otherwise (table cells: `table.ts`)
 * @returns false when there was nothing to draw
 */
export function drawTextBody(dc: DrawContext, body0: TextBodyInput, rect: RectPt, autofit: boolean | number = false, options: LayoutOptions = PREVIEW_LAYOUT, shadow?: OuterShadow): boolean {
  if (!body0.paragraphs.some((p) => p.runs.some((r) => !r.lineBreak && r.text.trim() !== ''))) return false;
  const body = drawableText(dc, body0);
  const box = { width_emu: rect.w * EMU_PT, height_emu: rect.h * EMU_PT };
  const layout = autofit === false ? layoutText(body, box, options) : autofitLayout(body, box, options, autofit === true ? undefined : autofit);
  const ctx = dc.ctx;
  ctx.save();
  // q: device pixels per point of the text (1 where the transform does not enlarge)
  const q = Math.max(1, deviceScale(ctx.getTransform()));
  if (q !== 1) ctx.scale(1 / q, 1 / q);
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  // Font, colour and spacing are set only when they change (the canvas parses each font string).
  let font = '';
  let fill = '';
  let spacing = '0px';
  ctx.letterSpacing = spacing;
  // Skia kerns unless told not to; runs set without kerning (FontSpec.kerning false) are drawn so.
  let kerning: SKRSContext2D['fontKerning'] = 'normal';
  ctx.fontKerning = kerning;
  // The font a fragment is drawn in: text in other scripts than Latin with the faces
  // LibreOffice falls back to for them (Han characters in the regional face of the run's
  // language, registered when first needed). Font and spacing are set only when they change
  // (the canvas parses each font string).
  const useFontOf = (f: LineFragment): string => {
    const fallbacks = hasNonLatinScript(f.text)
      ? scriptFallbackFamilies(dc.fallbackFamilies, f.font.eastAsianLang && hasEastAsian(f.text) ? cjkFamilyFor(f.font.eastAsianLang, !!f.font.bold) : undefined)
      : dc.fallbackFamilies;
    const family = dc.family(f.font.name, f.font.shapeHint);
    const nextFont = cssFont(family, f.font.size_pt * q, !!f.font.bold, !!f.font.italic, fallbacks);
    if (nextFont !== font) ctx.font = font = nextFont;
    const nextSpacing = f.spacing_pt ? `${f.spacing_pt * q}px` : '0px';
    if (nextSpacing !== spacing) ctx.letterSpacing = spacing = nextSpacing;
    const nextKerning: SKRSContext2D['fontKerning'] = f.font.kerning === false ? 'none' : 'normal';
    if (nextKerning !== kerning) ctx.fontKerning = kerning = nextKerning;
    return family;
  };
  // x, y: in the scaled-back transform (points × q); a right-to-left piece is shaped from its
  // right edge (the shaper orders its glyphs and joins Arabic)
  const glyphs = (f: LineFragment, baseline: number): void => {
    const x = (rect.x + f.x_pt) * q;
    const y = (rect.y + baseline - f.rise_pt) * q;
    if (f.rtl) {
      ctx.direction = 'rtl';
      ctx.textAlign = 'right';
      ctx.fillText(f.text, x + f.width_pt * q, y);
      ctx.direction = 'ltr';
      ctx.textAlign = 'left';
    } else ctx.fillText(f.text, x, y);
  };
  const drawn = (f: LineFragment): boolean => !!f.text.trim() && (f.alpha ?? 1) > 0;
  // Shadows first, under all the text: a run's own (a:rPr/a:effectLst), else the one the shape
  // casts from its text (a shape without fill or line, as PowerPoint draws it) — the glyphs in
  // the shadow's colour, scaled by sx/sy about its alignment point of the text box, moved by
  // its offset, blurred on a canvas and sharp on a PDF page. The blur is the canvas's own
  // shadow of glyphs drawn out of sight (shadowBlur is device pixels, twice σ): Skia blurs
  // glyph masks for it, where a blur filter made a layer per fragment (a slide of shadowed
  // runs took 110 ms to rasterize instead of 2).
  for (const line of layout.lines) {
    for (const f of line.fragments) {
      const sh = f.shadow ?? shadow;
      if (!sh || !drawn(f)) continue;
      useFontOf(f);
      const [ax, ay] = alignPoint(sh.align, rect);
      ctx.save();
      ctx.translate((ax + sh.dxPt) * q, (ay + sh.dyPt) * q);
      ctx.scale(sh.sx, sh.sy);
      ctx.translate(-ax * q, -ay * q);
      const color = css({ ...sh.color, a: sh.color.a * (f.alpha ?? 1) });
      if (sh.blurPt > 0 && !dc.surface.pdf) {
        const m = ctx.getTransform();
        ctx.shadowBlur = sh.blurPt * deviceScale(m) * q;
        ctx.shadowColor = color;
        ctx.shadowOffsetX = -OUT_OF_SIGHT;
        ctx.shadowOffsetY = 0;
        ctx.setTransform(m.a, m.b, m.c, m.d, m.e + OUT_OF_SIGHT, m.f);
        ctx.fillStyle = '#000000';
      } else ctx.fillStyle = color;
      glyphs(f, line.baseline_pt);
      ctx.restore();
    }
  }
  for (const line of layout.lines) {
    // Highlights (a:highlight) under the line's text, spaces included: each fragment's width
    // from its font's ascent to its descent.
    for (const f of line.fragments) {
      const highlight = f.bullet ? undefined : hexToRgba(f.highlight);
      if (!highlight) continue;
      const v = defaultFontMetrics.vertical(f.font);
      ctx.fillStyle = fill = css(highlight);
      ctx.fillRect((rect.x + f.x_pt) * q, (rect.y + line.baseline_pt - f.rise_pt - v.ascent_pt) * q, f.width_pt * q, (v.ascent_pt + v.descent_pt) * q);
    }
    for (const f of line.fragments) {
      if (!drawn(f)) continue;
      const family = useFontOf(f);
      // a run whose Latin text draws in a face of its own keeps that face as its reported substitute
      if (f.substitutedFor && family.toLowerCase() !== f.substitutedFor.trim().toLowerCase()) dc.fontSubstitutions[f.substitutedFor] ??= family;
      const nextFill = css({ ...(hexToRgba(f.color) ?? BLACK), a: f.alpha ?? 1 });
      if (nextFill !== fill) ctx.fillStyle = fill = nextFill;
      glyphs(f, line.baseline_pt);
      const x = (rect.x + f.x_pt) * q;
      const y = (rect.y + line.baseline_pt - f.rise_pt) * q;
      const size = f.font.size_pt * q;
      const width = f.width_pt * q;
      if (f.link_rid && dc.surface.pdf) annotateLink(dc, f.link_rid, x, y - size, x + width, y + size * 0.25);
      if (f.underline || f.strike) {
        const th = Math.max(f.font.size_pt / 18, 0.5) * q;
        if (f.underline) ctx.fillRect(x, y + size * 0.1, width, th);
        if (f.strike) ctx.fillRect(x, y - size * 0.3, width, th);
      }
    }
  }
  ctx.restore();
  return true;
}

/** The point of `r` an ST_RectAlignment value names (§20.1.10.53), points. */
function alignPoint(align: string, r: RectPt): [number, number] {
  if (align === 'ctr') return [r.x + r.w / 2, r.y + r.h / 2];
  const x = align.endsWith('l') ? r.x : align.endsWith('r') ? r.x + r.w : r.x + r.w / 2;
  const y = align.startsWith('t') ? r.y : align.startsWith('b') ? r.y + r.h : r.y + r.h / 2;
  return [x, y];
}

/** Name of the PDF destination at the top of a slide's page (internal links jump there). */
export function slideDestination(slidePartName: string): string {
  return `slide:${slidePartName}`;
}

/**
 * A link annotation over a rectangle (points, current transform) for the hyperlink
 * `rId` of {@link DrawContext.linkPart}: an external target becomes a URI link, a jump to
 * another slide of the deck (`ppaction://hlinksldjump`, an internal slide target) a link to
 * that slide's page. Other actions (first/next slide, programs, macros) have no PDF link.
 */
export function annotateLink(dc: DrawContext, rId: string, left: number, top: number, right: number, bottom: number): void {
  if (!dc.linkPart) return;
  const rel = dc.pkg.rel(dc.linkPart, rId);
  if (!rel) return;
  if (rel.external) {
    // Only schemes a reader opens as documents: no javascript:, file: or relative targets.
    if (/^(https?|mailto|ftp):/i.test(rel.target.trim())) dc.ctx.annotateLinkUrl(left, top, right, bottom, rel.target.trim());
    return;
  }
  if (rel.targetPartName && /\/slides\/slide\d+\.xml$/.test(rel.targetPartName)) dc.ctx.annotateLinkToDestination(left, top, right, bottom, slideDestination(rel.targetPartName));
}
