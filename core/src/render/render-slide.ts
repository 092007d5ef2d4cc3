/**
 * Renders one slide or slide layout of a presentation package to a PNG, in process, with
 * Skia (@napi-rs/canvas). Pure: package bytes in, PNG bytes out; safe in a worker thread.
 *
 * Drawing order (ECMA-376 Part 1, §19.3.1): the background (`p:bg` of the slide, else its
 * layout, else its master; `p:bgPr` fills or `p:bgRef` style references), the master's
 * shapes then the layout's shapes (placeholders excluded; hidden by `showMasterSp="0"`,
 * §19.3.1.38), then the part's own shapes in document order. A layout renders like its
 * thumbnail: master shapes, then all of its shapes, placeholders with their prompt text.
 *
 * The parts drawn are repaired first as analysis repairs them (core/src/ooxml/repair.ts), so
 * a preview shows the template as it is analyzed and generated from. A picture with no
 * image to show (none referenced, a link, an image that cannot be decoded) is drawn as an
 * empty picture frame, as PowerPoint shows "picture can't be displayed".
 */
import type { Path2D as SkPath2D, SKRSContext2D } from '@napi-rs/canvas';
import type { OpcPackage } from '../ooxml/opc/package.js';
import { RT } from '../ooxml/opc/constants.js';
import { repairTemplateParts } from '../ooxml/repair.js';
import { graphicKind } from '../ooxml/pml/graphic.js';
import type { PmlModel, ShapeTreePart } from '../ooxml/pml/parts.js';
import { openedTemplates } from '../ooxml/pml/opened-templates.js';
import { effective, type Frame, type Shape } from '../ooxml/pml/shapes.js';
import { NS, attr, attrNS, child, children, isElement, type Document, type Element } from '../ooxml/xml.js';
import { layoutDiagram } from './smartart-layout.js';
import { colorIn, type ColorContext } from '../ooxml/pml/color.js';
import { drawChart } from './chart.js';
import {
  DrawContext, EMU_PT, annotateLink, type DrawSurface, drawCropped, drawShadow, recolor, drawTurnedTextBody, fillOf, paintFill, resolveOutline, shapeShadow, textShrinkScale, fillOverlayOf, type FillOverlay, strokeOutline, styleFill, toPath2D,
  type Outline, type OuterShadow, type RectPt, type ResolvedFill,
} from './draw-context.js';
import { giveCanvas, takeCanvas } from './canvas-pool.js';
import { ensureFonts } from './fonts.js';
import { evaluateGeometry, presetGeometry, readAdjustValues, readCustomGeometry, type EvaluatedGeometry } from './geometry.js';
import { MAX_IMAGE_PIXELS } from './images.js';
import { legacyOlePreview } from './ole-preview.js';
import { encodeOpaquePngAsync } from './png.js';
import { drawTable } from './table.js';
import { readTextBody, shapeTextSources } from '../ooxml/pml/text-style.js';
import type { TextBodyInput } from '../text/layout.js';

/** Options of {@link renderSlide}. */
export interface RenderSlideOptions {
  /** Output width in pixels (the height follows the slide's aspect ratio). */
  widthPx: number;
  /** Largest picture decoded, pixels (default 50 megapixels); larger ones draw as a grey box. */
  maxImagePixels?: number;
}

/** A rendered slide. */
export interface RenderedSlide {
  png: Uint8Array;
  width_px: number;
  height_px: number;
  /** Slide size, EMU (`p:sldSz`). */
  width_emu: number;
  height_emu: number;
  /** Template font name → the family drawn in its place (only names that were substituted). */
  font_substitutions: Record<string, string>;
}

/** Largest output width accepted, px. */
export const MAX_WIDTH_PX = 8192;

/**
 * Renders a slide part (`/ppt/slides/slideN.xml`) or slide layout part
 * (`/ppt/slideLayouts/slideLayoutN.xml`) to PNG at `widthPx` wide.
 *
 * @throws PackageError `bad_structure` when the part is neither a slide nor a layout, or
 *   the package cannot be read as a presentation; RangeError for a width outside 1–8192 px
 */
export async function renderSlide(pkg: OpcPackage, slidePartName: string, opts: RenderSlideOptions): Promise<RenderedSlide> {
  const widthPx = Math.round(opts.widthPx);
  if (!(widthPx >= 1 && widthPx <= MAX_WIDTH_PX)) throw new RangeError(`widthPx must be 1–${MAX_WIDTH_PX}, got ${opts.widthPx}`);
  ensureFonts();
  // Repaired before the reading model first reads the parts (drawSlide repairs them too; once per package).
  repairForDrawing(pkg, slidePartName);
  const { widthEmu: wEmu, heightEmu: hEmu } = slideSizeEmu(pkg);
  const heightPx = Math.max(1, Math.round((widthPx * hEmu) / wEmu));
  const canvas = takeCanvas(widthPx, heightPx);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(0, 0, widthPx, heightPx);
  const drawn = await drawSlide(ctx, pkg, slidePartName, {
    scale: widthPx / (wEmu / EMU_PT),
    surface: { width: widthPx, height: heightPx, oversample: 1, pdf: false },
    maxImagePixels: opts.maxImagePixels,
  });
  // The canvas is opaque (white first), so its premultiplied pixels are plain RGB.
  const pixels = canvas.data();
  giveCanvas(canvas);
  const png = await encodeOpaquePngAsync(pixels, widthPx, heightPx);
  return {
    png,
    width_px: widthPx,
    height_px: heightPx,
    width_emu: wEmu,
    height_emu: hEmu,
    font_substitutions: drawn.font_substitutions,
  };
}

/** The presentation's slide size (`p:sldSz`), EMU. @throws PackageError when the package is not a presentation */
export function slideSizeEmu(pkg: OpcPackage): { widthEmu: number; heightEmu: number } {
  const model = openedTemplates.modelOf(pkg);
  return { widthEmu: model.presentation.slideWidthEmu, heightEmu: model.presentation.slideHeightEmu };
}

/** Options of {@link drawSlide}. */
export interface DrawSlideOptions {
  /** Device units per point (px per pt on a canvas; about 1 on a PDF page, whose unit is the point). */
  scale: number;
  /** Device units per point vertically, when not {@link scale} (a PDF page rounded to whole points). */
  scaleY?: number;
  /** The surface drawn on, device units. */
  surface: DrawSurface;
  /** Largest picture decoded, pixels (default 50 megapixels); larger ones draw as a grey box. */
  maxImagePixels?: number;
}

/** What {@link drawSlide} reports. */
export interface DrawnSlide {
  /** Template font name → the family drawn in its place (only names that were substituted). */
  font_substitutions: Record<string, string>;
  /** Things not drawn as the template has them. */
  warnings: string[];
}

/**
 * Draws a slide or slide layout part onto a 2D context (a raster canvas or a PDF page) with
 * an identity transform: the slide's point coordinates are scaled by `opts.scale`. Nothing
 * is painted where the slide has no background (the caller chooses the paper).
 *
 * @throws PackageError `bad_structure` when the part is neither a slide nor a layout
 */
export async function drawSlide(ctx: SKRSContext2D, pkg: OpcPackage, slidePartName: string, opts: DrawSlideOptions): Promise<DrawnSlide> {
  ensureFonts();
  repairForDrawing(pkg, slidePartName);
  const model = openedTemplates.modelOf(pkg);
  const root = pkg.getXml(slidePartName).documentElement;
  const part: ShapeTreePart = root?.localName === 'sldLayout' ? model.layout(slidePartName) : model.slide(slidePartName);
  const wEmu = model.presentation.slideWidthEmu;
  const hEmu = model.presentation.slideHeightEmu;
  ctx.scale(opts.scale, opts.scaleY ?? opts.scale);
  const colorCtx: ColorContext = { theme: part.theme, colorMap: part.colorMap };
  const dc = new DrawContext(ctx, pkg, model, part.theme, colorCtx, opts.maxImagePixels ?? MAX_IMAGE_PIXELS, opts.surface);
  const slideRect: RectPt = { x: 0, y: 0, w: wEmu / EMU_PT, h: hEmu / EMU_PT };

  await drawBackground(dc, part, slideRect);
  const showMaster = (p: ShapeTreePart): boolean => attr(p.root, 'showMasterSp') !== '0';
  const slideNumber = slideNumberOf(model, part);
  if (part.kind === 'slide') {
    const layout = part.parent!;
    if (showMaster(part)) {
      if (showMaster(layout)) for (const s of layout.master.shapes) await drawShape(dc, s, { placeholders: false, slideNumber });
      for (const s of layout.shapes) await drawShape(dc, s, { placeholders: false, slideNumber });
    }
    for (const s of part.shapes) await drawShape(dc, s, { placeholders: true, slideNumber, emptyPlaceholders: false });
  } else {
    if (showMaster(part)) for (const s of part.master.shapes) await drawShape(dc, s, { placeholders: false, slideNumber });
    for (const s of part.shapes) await drawShape(dc, s, { placeholders: true, slideNumber, emptyPlaceholders: true });
  }
  if (process.env.SLIDEWRIGHT_RENDER_DEBUG && dc.warnings.length) console.error(slidePartName, dc.warnings);
  return { font_substitutions: { ...dc.fontSubstitutions }, warnings: dc.warnings };
}

/**
 * Repairs (once per package) the part drawn, its layout and its master before the reading
 * model reads them: the preview shows the repaired template that analysis lists.
 */
function repairForDrawing(pkg: OpcPackage, partName: string): void {
  if (!pkg.hasPart(partName)) return;
  const parts = [partName];
  const layout = pkg.relatedPartName(partName, RT.slideLayout);
  if (layout) parts.push(layout);
  const master = pkg.relatedPartName(layout ?? partName, RT.slideMaster);
  if (master) parts.push(master);
  repairTemplateParts(pkg, parts);
}

function slideNumberOf(model: PmlModel, part: ShapeTreePart): string | undefined {
  if (part.kind !== 'slide') return undefined;
  const i = model.presentation.slides.findIndex((s) => s.partName === part.partName);
  return i < 0 ? undefined : String(i + model.presentation.firstSlideNumber);
}

async function drawBackground(dc: DrawContext, part: ShapeTreePart, rect: RectPt): Promise<void> {
  for (let p: ShapeTreePart | undefined = part; p; p = p.parent) {
    const bg = child(p.cSld, NS.p, 'bg');
    if (!bg) continue;
    const bgPr = child(bg, NS.p, 'bgPr');
    let fill: ResolvedFill | undefined;
    if (bgPr) {
      const f = fillOf(bgPr);
      if (f) fill = { el: f, colors: dc.colors, part: p.partName };
    } else {
      fill = styleFill(dc, child(bg, NS.p, 'bgRef'), p.partName);
    }
    if (fill) {
      const path = toPath2D([['M', rect.x, rect.y], ['L', rect.x + rect.w, rect.y], ['L', rect.x + rect.w, rect.y + rect.h], ['L', rect.x, rect.y + rect.h], ['Z']]);
      await paintFill(dc, fill, path, rect);
    }
    return;
  }
}

interface DrawOptions {
  /** Draw placeholders (false for master/layout shapes behind a slide). */
  placeholders: boolean;
  /** Draw placeholders that hold no text (layout thumbnails show their prompts). */
  emptyPlaceholders?: boolean;
  slideNumber: string | undefined;
  /** The enclosing group's fill, for `a:grpFill`. */
  groupFill?: ResolvedFill;
}

function framePt(f: Frame): RectPt {
  return { x: f.x / EMU_PT, y: f.y / EMU_PT, w: f.cx / EMU_PT, h: f.cy / EMU_PT };
}

/** Sets the transform for a shape's frame: rotation about its centre, then flips. */
function enterFrame(ctx: SKRSContext2D, r: RectPt, f: Frame, withFlips: boolean): void {
  const cx = r.x + r.w / 2;
  const cy = r.y + r.h / 2;
  ctx.translate(cx, cy);
  if (f.rotation) ctx.rotate((f.rotation * Math.PI) / 180);
  if (withFlips) ctx.scale(f.flipH ? -1 : 1, f.flipV ? -1 : 1);
  ctx.translate(-cx, -cy);
}

function spPrOf(shape: Shape): Element | undefined {
  if (shape.kind === 'grpSp') return child(shape.element, NS.p, 'grpSpPr');
  return child(shape.element, NS.p, 'spPr');
}

function hasText(txBody: Element | undefined): boolean {
  if (!txBody) return false;
  for (const p of children(txBody, NS.a, 'p')) {
    for (const r of children(p, NS.a)) {
      if ((r.localName === 'r' || r.localName === 'fld') && (child(r, NS.a, 't')?.textContent ?? '').trim() !== '') return true;
    }
  }
  return false;
}

async function drawShape(dc: DrawContext, shape: Shape, o: DrawOptions): Promise<void> {
  if (shape.hidden) return;
  if (shape.placeholder && !o.placeholders) return;
  try {
    dc.linkPart = shape.part.partName;
    if (dc.surface.pdf) shapeLink(dc, shape);
    switch (shape.kind) {
      case 'grpSp': {
        const gf = fillOf(spPrOf(shape));
        const groupFill = gf && gf.localName !== 'grpFill' ? { el: gf, colors: dc.colors, part: shape.part.partName } : o.groupFill;
        for (const c of shape.children) await drawShape(dc, c, { ...o, groupFill });
        return;
      }
      case 'sp':
      case 'cxnSp':
        await drawSp(dc, shape, o);
        return;
      case 'pic':
        await drawPic(dc, shape, o);
        return;
      case 'graphicFrame':
        await drawGraphicFrame(dc, shape, o);
        return;
      default:
        return;
    }
  } catch (err) {
    dc.warnings.push(`shape ${shape.id} (${shape.name}) not drawn: ${(err as Error).message}`);
  }
}

/**
 * A link annotation over a shape's frame for its click hyperlink (`p:cNvPr/a:hlinkClick`,
 * §19.3.1.12), on a PDF page. A rotated frame's annotation covers its bounding box (PDF
 * link areas are upright rectangles).
 */
function shapeLink(dc: DrawContext, shape: Shape): void {
  const nv = children(shape.element, NS.p).find((c) => (c.localName ?? '').startsWith('nv'));
  const rId = attrNS(child(child(nv, NS.p, 'cNvPr'), NS.a, 'hlinkClick'), NS.r, 'id');
  if (!rId || !shape.frame) return;
  const r = framePt(shape.frame);
  const ctx = dc.ctx;
  ctx.save();
  enterFrame(ctx, r, shape.frame, false);
  annotateLink(dc, rId, r.x, r.y, r.x + r.w, r.y + r.h);
  ctx.restore();
}

/** Geometry of a shape: own prstGeom/custGeom, else inherited through placeholders, else a rectangle. */
function geometryOf(shape: Shape, w: number, h: number): EvaluatedGeometry {
  const geomEl = effective(shape, (s) => {
    const spPr = spPrOf(s);
    return child(spPr, NS.a, 'custGeom') ?? child(spPr, NS.a, 'prstGeom');
  });
  if (geomEl?.localName === 'custGeom') {
    const def = readCustomGeometry(geomEl);
    if (def.p.length) return evaluateGeometry(def, w, h, new Map(), shape.xfrm?.ext ?? shape.frame);
  }
  const prst = attr(geomEl, 'prst') ?? 'rect';
  const def = presetGeometry(prst) ?? presetGeometry('rect')!;
  return evaluateGeometry(def, w, h, readAdjustValues(geomEl));
}

/** The effective fill of a shape: own spPr, inherited spPr, group fill, else the style's fillRef. */
function shapeFill(dc: DrawContext, shape: Shape, o: DrawOptions): ResolvedFill | undefined {
  // Each shape on the chain: its own spPr fill, then its own style's fillRef (a slide shape's
  // style beats the fill its layout placeholder sets).
  for (const s of shape.chain()) {
    const f = fillOf(spPrOf(s));
    if (f) {
      if (f.localName === 'grpFill') return o.groupFill;
      return { el: f, colors: dc.colors, part: s.part.partName };
    }
    const ref = child(child(s.element, NS.p, 'style'), NS.a, 'fillRef');
    if (ref) return styleFill(dc, ref, s.part.partName);
  }
  return undefined;
}

/** Outline sources: own `a:ln`s along the chain up to the first shape with a style, and that style's lnRef. */
function shapeOutline(dc: DrawContext, shape: Shape): ReturnType<typeof resolveOutline> {
  const lns: Element[] = [];
  for (const s of shape.chain()) {
    const ln = child(spPrOf(s), NS.a, 'ln');
    if (ln) lns.push(ln);
    const ref = child(child(s.element, NS.p, 'style'), NS.a, 'lnRef');
    if (ref) return resolveOutline(dc, lns, ref, s.part.partName);
  }
  return resolveOutline(dc, lns, undefined, shape.part.partName);
}

function openEnds(ops: EvaluatedGeometry['paths'][number]['ops'], ox: number, oy: number): Array<{ x: number; y: number; fromX: number; fromY: number; which: 'head' | 'tail' }> {
  if (ops.some((op) => op[0] === 'Z')) return [];
  const pts: Array<[number, number]> = [];
  for (const op of ops) {
    if (op[0] === 'M' || op[0] === 'L') pts.push([op[1]!, op[2]!]);
    else if (op[0] === 'C') { pts.push([op[3]!, op[4]!]); pts.push([op[5]!, op[6]!]); }
    else if (op[0] === 'Q') { pts.push([op[1]!, op[2]!]); pts.push([op[3]!, op[4]!]); }
    else if (op[0] === 'E') {
      const [, cx, cy, rx, ry, , a1] = op;
      pts.push([cx! + rx! * Math.cos(a1! - 0.05), cy! + ry! * Math.sin(a1! - 0.05)]);
      pts.push([cx! + rx! * Math.cos(a1!), cy! + ry! * Math.sin(a1!)]);
    }
  }
  if (pts.length < 2) return [];
  const [a, b] = [pts[0]!, pts[1]!];
  const [y2, z] = [pts[pts.length - 2]!, pts[pts.length - 1]!];
  return [
    { x: a[0] + ox, y: a[1] + oy, fromX: b[0] + ox, fromY: b[1] + oy, which: 'head' },
    { x: z[0] + ox, y: z[1] + oy, fromX: y2[0] + ox, fromY: y2[1] + oy, which: 'tail' },
  ];
}

async function drawSp(dc: DrawContext, shape: Shape, o: DrawOptions): Promise<void> {
  const frame = shape.frame;
  if (!frame) return;
  const isPh = !!shape.placeholder;
  const text = hasText(shape.txBody);
  if (isPh && !text && !o.emptyPlaceholders) {
    // An empty slide placeholder shows nothing in a slide show, unless it has its own fill or line.
    const spPr = spPrOf(shape);
    const own = fillOf(spPr);
    if (!(own && own.localName !== 'noFill') && !child(spPr, NS.a, 'ln')) return;
  }
  const r = framePt(frame);
  const ctx = dc.ctx;
  const geom = geometryOf(shape, r.w, r.h);
  ctx.save();
  enterFrame(ctx, r, frame, true);
  const fill = shapeFill(dc, shape, o);
  const outline = shapeOutline(dc, shape);
  const shadow = shapeEffect(dc, shape);
  // One path object per geometry path, for its shadow, fill and outline.
  const paths = geom.paths.map((p) => toPath2D(p.ops, r.x, r.y));
  if (shadow) drawGeometryShadow(ctx, dc.surface, shadow, geom, paths, r, fill, outline);
  const overlay = fill && fill.el.localName !== 'noFill' ? shapeFillOverlay(dc, shape) : undefined;
  for (const [i, p] of geom.paths.entries()) {
    if (!fill || p.fill === 'none') continue;
    await paintFill(dc, fill, paths[i]!, r, p.fill);
    if (overlay) {
      // blended with what the shape's fill left on the canvas (the fill's own transparency shows the slide through)
      ctx.save();
      ctx.globalCompositeOperation = overlay.blend;
      await paintFill(dc, overlay.fill, paths[i]!, r, p.fill);
      ctx.restore();
    }
  }
  if (outline) {
    for (const [i, p] of geom.paths.entries()) {
      if (!p.stroke) continue;
      strokeOutline(dc, outline, paths[i]!, openEnds(p.ops, r.x, r.y));
    }
  }
  ctx.restore();
  // Text: rotated with the shape, never mirrored (a vertical flip turns it upside down).
  if (shape.txBody || (isPh && o.emptyPlaceholders)) {
    const txBody = shape.txBody ?? undefined;
    if (!txBody || !hasText(txBody)) return;
    const src = shapeTextSources(shape, dc.colors);
    const body = readTextBody(txBody, src, { slideNumber: o.slideNumber });
    const tr = geom.textRect;
    let rect: RectPt = { x: r.x + tr.l, y: r.y + tr.t, w: Math.max(0, tr.r - tr.l), h: Math.max(0, tr.b - tr.t) };
    if (frame.flipH) rect = { ...rect, x: r.x + (r.w - tr.r) };
    if (frame.flipV) rect = { ...rect, y: r.y + (r.h - tr.b) };
    const vert = src.bodyPrs.map((b) => attr(b, 'vert')).find((v) => v !== undefined) ?? 'horz';
    ctx.save();
    const rotExtra = frame.flipV ? 180 : 0;
    enterFrame(ctx, r, { ...frame, rotation: frame.rotation + rotExtra }, false);
    // a shape with neither fill nor line casts its shadow from its text
    const castsFromText = shadow && !(fill && fill.el.localName !== 'noFill') && !outline;
    drawTurnedTextBody(dc, body, rect, vert, hasNormAutofit(src.bodyPrs), undefined, castsFromText ? shadow : undefined);
    ctx.restore();
  }
}

/**
 * Where a shape's effects come from: the first shape on its inheritance chain with an effect
 * list of its own (`a:effectLst`, or an `a:effectDag`, which previews do not draw) or a
 * style's effect reference decides; `part` is that shape's part.
 */
function effectSourceOf(shape: Shape): { spPr?: Element; ref?: Element; part: string } | undefined {
  for (const s of shape.chain()) {
    const spPr = spPrOf(s);
    if (child(spPr, NS.a, 'effectLst') || child(spPr, NS.a, 'effectDag')) return { spPr, part: s.part.partName };
    const ref = child(child(s.element, NS.p, 'style'), NS.a, 'effectRef');
    if (ref) return { ref, part: s.part.partName };
  }
  return undefined;
}

/** The outer shadow of a shape, from its effect source ({@link effectSourceOf}). */
function shapeEffect(dc: DrawContext, shape: Shape): OuterShadow | undefined {
  const src = effectSourceOf(shape);
  return src ? shapeShadow(dc, src.spPr, src.ref) : undefined;
}

/** The fill overlay effect of a shape ({@link fillOverlayOf}), from the same effect source as its shadow. */
function shapeFillOverlay(dc: DrawContext, shape: Shape): FillOverlay | undefined {
  const src = effectSourceOf(shape);
  return src ? fillOverlayOf(dc, src.spPr, src.ref, src.part) : undefined;
}

/**
 * Draws the shadow a geometry's filled paths and outline cast (frame transform already set).
 * @param paths - the geometry's paths moved to the frame (`toPath2D(ops, r.x, r.y)`), one per path
 */
function drawGeometryShadow(ctx: SKRSContext2D, surface: DrawSurface, shadow: OuterShadow, geom: EvaluatedGeometry, paths: SkPath2D[], r: RectPt, fill: ResolvedFill | undefined, outline: Outline | undefined): void {
  const filled = !!fill && fill.el.localName !== 'noFill';
  const casters = geom.paths
    .map((p, i) => ({
      path: paths[i]!,
      fill: filled && p.fill !== 'none',
      strokePt: outline && p.stroke ? outline.width : 0,
      // PDF pages share one shadow picture among shapes of one outline (see ShadowCaster.local).
      ...(surface.shadowPictures ? { local: { ops: p.ops, x: r.x, y: r.y } } : {}),
    }))
    .filter((c) => c.fill || c.strokePt > 0);
  drawShadow(ctx, surface, shadow, casters);
}

/** True when the nearest `a:bodyPr` with an autofit choice chooses `a:normAutofit`. */
function hasNormAutofit(bodyPrs: Element[]): boolean {
  for (const b of bodyPrs) {
    for (const c of children(b, NS.a)) {
      if (c.localName === 'normAutofit') return true;
      if (c.localName === 'noAutofit' || c.localName === 'spAutoFit') return false;
    }
  }
  return false;
}

async function drawPic(dc: DrawContext, shape: Shape, o: DrawOptions): Promise<void> {
  const frame = shape.frame;
  if (!frame) return;
  const r = framePt(frame);
  const ctx = dc.ctx;
  const blipFill = child(shape.element, NS.p, 'blipFill');
  const blip = child(blipFill, NS.a, 'blip');
  // An SVG picture (asvg:svgBlip) always carries its PNG fallback in a:blip/@r:embed.
  const rId = attrNS(blip, NS.r, 'embed');
  const geom = geometryOf(shape, r.w, r.h);
  ctx.save();
  enterFrame(ctx, r, frame, true);
  const path = toPath2D(geom.paths[0]?.ops ?? [], r.x, r.y);
  const pending = dc.image(shape.part.partName, rId);
  const img = pending ? await pending : undefined;
  const shadow = shapeEffect(dc, shape);
  if (shadow && img && typeof img !== 'string') drawShadow(ctx, dc.surface, shadow, [{ path, fill: true, strokePt: 0 }]);
  if (img && typeof img !== 'string') {
    ctx.save();
    ctx.clip(path);
    const alphaMod = child(blip, NS.a, 'alphaModFix');
    if (alphaMod) ctx.globalAlpha = Number(attr(alphaMod, 'amt') ?? 100000) / 100000;
    drawCropped(ctx, recolor(img, blip, dc.colors), child(blipFill, NS.a, 'srcRect'), r, dc.surface.pdf);
    ctx.restore();
  } else if (img === 'too_large') {
    dc.warnings.push(`picture ${shape.name} is over the pixel limit; drawn as a box`);
    ctx.fillStyle = 'rgba(200,200,200,1)';
    ctx.fill(path);
  }
  const lns = [child(spPrOf(shape), NS.a, 'ln')].filter((x): x is Element => !!x);
  const outline = resolveOutline(dc, lns, child(child(shape.element, NS.p, 'style'), NS.a, 'lnRef'), shape.part.partName);
  // no image to show (none referenced, a link, undecodable): an empty picture frame
  const missing = img === undefined || img === 'undecodable';
  if (missing) {
    dc.warnings.push(`picture ${shape.name} has no image to show; drawn as an empty picture frame`);
    await drawMissingPicture(dc, shape, path, r, !outline);
  }
  if (outline) strokeOutline(dc, outline, path, []);
  ctx.restore();
  void o;
}

/** Grey of an empty picture frame's outline and of its icon's border (PowerPoint's placeholder grey). */
const MISSING_FRAME_GREY = '#A6A6A6';
/** Red of the cross in the icon. */
const MISSING_ICON_RED = '#C00000';
/** Outline width of an empty picture frame, pt. */
const MISSING_FRAME_LINE_PT = 0.75;
/** Largest side of the "picture can't be displayed" icon, pt, and its inset from the frame's corner. */
const MISSING_ICON_PT = 16;
const MISSING_ICON_INSET_PT = 4;

/**
 * Draws a picture that has no image to show the way PowerPoint shows one it cannot display:
 * the picture's own fill (`p:spPr`, §20.1.2.2.35) if it has one, a thin grey frame along its
 * geometry (unless it has an outline of its own, drawn by the caller), and a small
 * broken-picture icon (a box with a red cross) in its top-left corner. All sizes are points.
 */
async function drawMissingPicture(dc: DrawContext, shape: Shape, path: ReturnType<typeof toPath2D>, r: RectPt, frame: boolean): Promise<void> {
  const ctx = dc.ctx;
  const own = fillOf(spPrOf(shape));
  if (own && own.localName !== 'blipFill') await paintFill(dc, { el: own, colors: dc.colors, part: shape.part.partName }, path, r);
  if (frame) {
    ctx.save();
    ctx.strokeStyle = MISSING_FRAME_GREY;
    ctx.lineWidth = MISSING_FRAME_LINE_PT;
    ctx.setLineDash([]);
    ctx.stroke(path);
    ctx.restore();
  }
  const side = Math.min(MISSING_ICON_PT, (r.w - 2 * MISSING_ICON_INSET_PT) / 2, (r.h - 2 * MISSING_ICON_INSET_PT) / 2);
  if (!(side >= 4)) return;
  const x = r.x + MISSING_ICON_INSET_PT;
  const y = r.y + MISSING_ICON_INSET_PT;
  ctx.save();
  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(x, y, side, side);
  ctx.strokeStyle = MISSING_FRAME_GREY;
  ctx.lineWidth = Math.max(0.5, side / 16);
  ctx.strokeRect(x, y, side, side);
  const m = side * 0.25;
  ctx.strokeStyle = MISSING_ICON_RED;
  ctx.lineWidth = Math.max(1, side / 8);
  ctx.beginPath();
  ctx.moveTo(x + m, y + m);
  ctx.lineTo(x + side - m, y + side - m);
  ctx.moveTo(x + side - m, y + m);
  ctx.lineTo(x + m, y + side - m);
  ctx.stroke();
  ctx.restore();
}

async function drawGraphicFrame(dc: DrawContext, shape: Shape, o: DrawOptions): Promise<void> {
  const frame = shape.frame;
  if (!frame) return;
  const r = framePt(frame);
  const kind = graphicKind(shape.graphicData);
  const ctx = dc.ctx;
  ctx.save();
  enterFrame(ctx, r, frame, false);
  try {
    if (kind === 'table') {
      const tbl = child(shape.graphicData, NS.a, 'tbl');
      if (tbl) drawTable(dc, tbl, r, shape);
    } else if (kind === 'chart') {
      await drawChart(dc, shape, r);
    } else if (kind === 'ole' || kind === 'other' || kind === 'chartex') {
      // OLE objects and others: their preview picture when there is one (p:oleObj/p:pic or mc fallback);
      // a chartex frame is chosen over its mc:Fallback, whose picture is PowerPoint's own drawing of the chart.
      const pic = (shape.graphicData ? shape.graphicData.getElementsByTagNameNS(NS.p, 'pic')[0] : undefined) ?? fallbackPicture(shape.element);
      const blip = pic ? child(child(pic, NS.p, 'blipFill'), NS.a, 'blip') : undefined;
      // A legacy OLE object (no p:pic) keeps its preview in the slide's VML drawing.
      const legacy = !blip && kind === 'ole' ? legacyOlePreview(dc.pkg, shape.part.partName, shape.graphicData?.getElementsByTagNameNS(NS.p, 'oleObj')[0]) : undefined;
      const pending = legacy ? dc.image(legacy.part, legacy.rId) : dc.image(shape.part.partName, attrNS(blip, NS.r, 'embed'));
      const img = pending ? await pending : undefined;
      if (img && typeof img !== 'string') drawCropped(ctx, img, undefined, r, dc.surface.pdf);
    } else if (kind === 'diagram') {
      await drawDiagram(dc, shape, r, o);
    }
  } finally {
    ctx.restore();
  }
}

/**
 * The picture in the `mc:Fallback` of the `mc:AlternateContent` whose chosen `mc:Choice` holds
 * `frame` (ECMA-376 Part 3, §10.2): PowerPoint writes one beside every chartex frame (Office 2016
 * chart types, drawn by consumers that cannot read `cx:chart` — as LibreOffice does).
 */
function fallbackPicture(frame: Element): Element | undefined {
  const choice = frame.parentNode;
  const ac = choice?.parentNode;
  if (!isElement(choice) || !isElement(ac) || choice.namespaceURI !== NS.mc || ac.namespaceURI !== NS.mc || ac.localName !== 'AlternateContent') return undefined;
  return child(child(ac, NS.mc, 'Fallback'), NS.p, 'pic');
}

/** SmartArt: draws the diagram's pre-rendered drawing part (`dsp:drawing`, the Office 2007 diagramDrawing relationship) when present. */
async function drawDiagram(dc: DrawContext, shape: Shape, r: RectPt, o: DrawOptions): Promise<void> {
  const rels = dc.pkg.rels(shape.part.partName);
  const relIds = child(shape.graphicData, NS.dgm, 'relIds');
  const dmId = attrNS(relIds, NS.r, 'dm');
  const dataPart = dmId ? dc.pkg.rel(shape.part.partName, dmId)?.targetPartName : undefined;
  // The data part names its drawing through dsp:dataModelExt/@relId, resolved from the slide.
  let drawingPart: string | undefined;
  if (dataPart && dc.pkg.hasPart(dataPart)) {
    const relId = dataModelExtRelId(dc.pkg.getBytes(dataPart));
    if (relId) drawingPart = dc.pkg.rel(shape.part.partName, relId)?.targetPartName;
  }
  // Without the extension: a drawing related from the data part itself, else the slide's
  // drawing of the data part's number (data3.xml ↔ drawing3.xml, as Office names them), else
  // the slide's only drawing — never another diagram's when there are several.
  if (!drawingPart && dataPart && dc.pkg.hasPart(dataPart)) drawingPart = dc.pkg.rels(dataPart).find((x) => /diagramDrawing$/.test(x.type))?.targetPartName;
  if (!drawingPart) {
    const drawings = rels.filter((x) => /diagramDrawing$/.test(x.type) && x.targetPartName).map((x) => x.targetPartName!);
    const number = /(\d+)\.xml$/.exec(dataPart ?? '')?.[1];
    drawingPart = drawings.find((d) => number !== undefined && new RegExp(`\\D${number}\\.xml$`).test(d)) ?? (drawings.length === 1 ? drawings[0] : undefined);
  }
  const root = drawingPart && dc.pkg.hasPart(drawingPart) ? dc.pkg.getXml(drawingPart).documentElement : undefined;
  const spTree = child(root ?? undefined, DSP_NS, 'spTree');
  if (spTree && drawingPart && children(spTree, DSP_NS).some((e) => e.localName === 'sp' || e.localName === 'grpSp')) {
    // the drawing is laid out in the frame's own extent; a group may have scaled the frame since
    const ext = shape.xfrm?.ext;
    const scale = ext && ext.cx > 0 && ext.cy > 0 ? { x: (r.w * EMU_PT) / ext.cx, y: (r.h * EMU_PT) / ext.cy } : { x: 1, y: 1 };
    await drawDspTree(dc, spTree, drawingPart, r, shape, o, scale);
    return;
  }
  // No drawing, or an empty one (WPS Office): laid out from the data model and the layout definition.
  if (!dataPart || !dc.pkg.hasPart(dataPart)) return;
  const part = (id: string): Document | undefined => {
    const name = id ? dc.pkg.rel(shape.part.partName, id)?.targetPartName : undefined;
    return name && dc.pkg.hasPart(name) ? dc.pkg.getXml(name) : undefined;
  };
  const laid = layoutDiagram({
    data: dc.pkg.getXml(dataPart),
    layout: part(attrNS(relIds, NS.r, 'lo') ?? ''),
    colors: part(attrNS(relIds, NS.r, 'cs') ?? ''),
    style: part(attrNS(relIds, NS.r, 'qs') ?? ''),
  }, r.w * EMU_PT, r.h * EMU_PT);
  dc.warnings.push(`diagram ${shape.name}: drawing part ${drawingPart ? 'has no shapes' : 'missing'}; laid out from its data model and layout definition`, ...laid.warnings.map((w) => `diagram ${shape.name}: ${w}`));
  await drawDspTree(dc, laid.spTree, dataPart, r, shape, o, undefined, laid.sizeGroups);
}

const DSP_NS = 'http://schemas.microsoft.com/office/drawing/2008/diagram';

const DATA_MODEL_EXT = /<(?:[A-Za-z_][\w.-]*:)?dataModelExt\b[^>]*?\brelId\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/**
 * The `relId` of a diagram data part's `dsp:dataModelExt` (Office 2010 extension: the
 * relationship, from the slide, of the diagram's drawing part). Read from the part's text
 * rather than a parsed tree: data parts are large (the whole SmartArt model) and this one
 * attribute is all a preview needs from them. The element is matched by local name in any
 * prefix, as the extension is always written.
 */
function dataModelExtRelId(bytes: Uint8Array): string | undefined {
  const m = DATA_MODEL_EXT.exec(new TextDecoder().decode(bytes));
  return m ? m[1] ?? m[2] : undefined;
}

/**
 * Draws the shapes of a diagram drawing (`dsp:sp`), whose offsets and sizes are EMU from the
 * frame's corner in the extent the drawing was laid out in; `scale` maps that extent onto the
 * frame as drawn (a group that resized the frame scales its diagram with it; text keeps its size).
 */
async function drawDspTree(dc: DrawContext, tree: Element, partName: string, frameRect: RectPt, owner: Shape, o: DrawOptions, scale = { x: 1, y: 1 }, sizeGroups: readonly Element[][] = []): Promise<void> {
  // Shapes whose text shares one size: each drawn at the least scale its group's bodies shrink
  // to. Their text, read for that, is kept for drawing.
  const texts = new Map<Element, DspText | undefined>();
  const textOf = (sp: Element): DspText | undefined => {
    if (!texts.has(sp)) texts.set(sp, dspText(dc, sp, partName, frameRect, owner, o, scale));
    return texts.get(sp);
  };
  const sharedScale = new Map<Element, number>();
  for (const group of sizeGroups) {
    const shrinking = group.map(textOf).filter((x): x is DspText => !!x?.autofit);
    const least = Math.min(...shrinking.map((x) => textShrinkScale(dc, x.body, x.rect, x.vert)));
    if (Number.isFinite(least)) for (const sp of group) sharedScale.set(sp, least);
  }
  await drawDspShapes(dc, tree, partName, frameRect, scale, textOf, sharedScale);
}

/** Draws the shapes of a diagram drawing's tree or group ({@link drawDspTree}), groups' shapes in place. */
async function drawDspShapes(dc: DrawContext, tree: Element, partName: string, frameRect: RectPt, scale: { x: number; y: number }, textOf: (sp: Element) => DspText | undefined, sharedScale: ReadonlyMap<Element, number>): Promise<void> {
  for (const el of children(tree, DSP_NS)) {
    if (el.localName === 'grpSp') {
      await drawDspShapes(dc, el, partName, frameRect, scale, textOf, sharedScale);
      continue;
    }
    if (el.localName !== 'sp') continue;
    const spPr = child(el, DSP_NS, 'spPr');
    const xfrm = child(spPr, NS.a, 'xfrm');
    const off = child(xfrm, NS.a, 'off');
    const ext = child(xfrm, NS.a, 'ext');
    if (!off || !ext) continue;
    const r = placedOnFrame(off, ext, frameRect, scale);
    const rot = Number(attr(xfrm, 'rot') ?? 0) / 60000;
    const frame: Frame = { x: 0, y: 0, cx: 0, cy: 0, rotation: rot, flipH: attr(xfrm, 'flipH') === '1', flipV: attr(xfrm, 'flipV') === '1' };
    const ctx = dc.ctx;
    const geomEl = child(spPr, NS.a, 'custGeom') ?? child(spPr, NS.a, 'prstGeom');
    const def = geomEl?.localName === 'custGeom' ? readCustomGeometry(geomEl) : presetGeometry(attr(geomEl, 'prst') ?? 'rect') ?? presetGeometry('rect')!;
    const geom = evaluateGeometry(def, r.w, r.h, geomEl?.localName === 'prstGeom' ? readAdjustValues(geomEl) : new Map(), { cx: Number(attr(ext, 'cx') ?? 0), cy: Number(attr(ext, 'cy') ?? 0) });
    ctx.save();
    enterFrame(ctx, r, frame, true);
    const style = child(el, DSP_NS, 'style');
    const own = fillOf(spPr);
    const fill = own ? { el: own, colors: dc.colors, part: partName } : styleFill(dc, child(style, NS.a, 'fillRef'), partName);
    const ln = child(spPr, NS.a, 'ln');
    const outline = resolveOutline(dc, ln ? [ln] : [], child(style, NS.a, 'lnRef'), partName);
    const ownEffects = !!(child(spPr, NS.a, 'effectLst') || child(spPr, NS.a, 'effectDag'));
    const shadow = shapeShadow(dc, spPr, ownEffects ? undefined : child(style, NS.a, 'effectRef'));
    const paths = geom.paths.map((p) => toPath2D(p.ops, r.x, r.y));
    if (shadow) drawGeometryShadow(ctx, dc.surface, shadow, geom, paths, r, fill, outline);
    for (const [i, p] of geom.paths.entries()) if (fill && p.fill !== 'none') await paintFill(dc, fill, paths[i]!, r, p.fill);
    if (outline) for (const [i, p] of geom.paths.entries()) if (p.stroke) strokeOutline(dc, outline, paths[i]!, []);
    ctx.restore();
    const text = textOf(el);
    if (text) {
      dc.linkPart = partName;
      ctx.save();
      enterFrame(ctx, text.rect, { ...frame, rotation: text.rotation }, false);
      drawTurnedTextBody(dc, text.body, text.rect, text.vert, text.autofit ? sharedScale.get(el) ?? true : false);
      ctx.restore();
    }
  }
}

/** An `a:off`/`a:ext` pair of a diagram drawing (EMU from the frame's corner) placed on the frame as drawn, pt. */
function placedOnFrame(off: Element, ext: Element, frameRect: RectPt, scale: { x: number; y: number }): RectPt {
  return {
    x: frameRect.x + (Number(attr(off, 'x') ?? 0) / EMU_PT) * scale.x,
    y: frameRect.y + (Number(attr(off, 'y') ?? 0) / EMU_PT) * scale.y,
    w: (Number(attr(ext, 'cx') ?? 0) / EMU_PT) * scale.x,
    h: (Number(attr(ext, 'cy') ?? 0) / EMU_PT) * scale.y,
  };
}

/** A diagram shape's text as {@link dspText} reads it: body, text box (pt), rotation (degrees), `vert`, and whether it shrinks on overflow. */
interface DspText {
  body: TextBodyInput;
  rect: RectPt;
  rotation: number;
  vert: string;
  autofit: boolean;
}

/**
 * The text of a diagram drawing's shape (`dsp:sp`), read and placed as {@link drawDspTree}
 * draws it: the text box (`dsp:txXfrm`, else the shape's box) on the frame, its rotation (the
 * text box's own on top of the shape's: PowerPoint writes rot="5400000" on the text of a
 * shape turned 270° so that it reads upright), `vert`, and whether it shrinks on overflow;
 * undefined when the shape has no text.
 */
function dspText(dc: DrawContext, el: Element, partName: string, frameRect: RectPt, owner: Shape, o: DrawOptions, scale: { x: number; y: number }): DspText | undefined {
  const txBody = child(el, DSP_NS, 'txBody');
  if (!txBody || !hasText(txBody)) return undefined;
  const xfrm = child(child(el, DSP_NS, 'spPr'), NS.a, 'xfrm');
  const txXfrm = child(el, DSP_NS, 'txXfrm');
  const [tOff, tExt, off, ext] = [child(txXfrm, NS.a, 'off'), child(txXfrm, NS.a, 'ext'), child(xfrm, NS.a, 'off'), child(xfrm, NS.a, 'ext')];
  const rect = tOff && tExt ? placedOnFrame(tOff, tExt, frameRect, scale) : off && ext ? placedOnFrame(off, ext, frameRect, scale) : undefined;
  if (!rect) return undefined;
  const fontRef = child(child(el, DSP_NS, 'style'), NS.a, 'fontRef');
  const bodyPr = child(txBody, NS.a, 'bodyPr');
  const src = {
    near: [child(txBody, NS.a, 'lstStyle')].filter((x): x is Element => !!x),
    far: [owner.part.model.presentation.defaultTextStyle, owner.part.master.textStyle('otherStyle')].filter((x): x is Element => !!x),
    fontRefFace: attr(fontRef, 'idx') === 'major' ? '+mj-lt' : '+mn-lt',
    fontRefColor: fontRef ? colorIn(fontRef, dc.colors) : undefined,
    bodyPrs: bodyPr ? [bodyPr] : [],
    theme: dc.theme,
    colorCtx: dc.colors,
    defaultFace: dc.theme.minor.latin || 'Calibri',
  };
  return {
    body: readTextBody(txBody, src, { slideNumber: o.slideNumber }),
    rect,
    rotation: (Number(attr(xfrm, 'rot') ?? 0) + Number(attr(txXfrm, 'rot') ?? 0)) / 60000,
    vert: attr(bodyPr, 'vert') ?? 'horz',
    autofit: bodyPr ? hasNormAutofit([bodyPr]) : false,
  };
}
