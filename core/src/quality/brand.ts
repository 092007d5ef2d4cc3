/**
 * Brand consistency of a deck (issue 23, item 5), all `info`:
 *
 * - `off_theme_font`: a typeface named on a slide (`a:latin`, `a:ea`, `a:cs` of its runs
 *   and list styles) that is neither one of the theme's fonts nor used anywhere in the
 *   template's own slides, layouts and masters.
 * - `off_palette_color`: an explicit colour (`a:srgbClr`) of a slide's text or shape fill
 *   that is neither a colour of the theme (the twelve scheme colours) nor used in the
 *   template's own parts. Scheme colours (`a:schemeClr`) are on-palette by definition.
 * - `stretched_picture`: a picture whose frame's aspect ratio differs by more than 5 % from
 *   its image's (after `a:srcRect` cropping): it is drawn distorted.
 */
import type { OpcPackage } from '../ooxml/opc/package.js';
import { NS, attr, attrNS, child, children, intAttr, type Element } from '../ooxml/xml.js';
import { readPictureHeader } from '../ooxml/image-header.js';
import type { SlidePart } from '../ooxml/pml/parts.js';
import type { Shape } from '../ooxml/pml/shapes.js';
import { THEME_COLOR_NAMES, type Theme } from '../ooxml/pml/theme.js';
import type { QualityFinding } from './types.js';

/** Fonts and colours a template uses itself (see {@link templateVocabulary}). */
export interface TemplateVocabulary {
  /** Typefaces, lower case. */
  fonts: ReadonlySet<string>;
  /** `RRGGBB`, upper case. */
  colors: ReadonlySet<string>;
}

/** Frame and image aspect ratios may differ this much before a picture counts as stretched. */
const STRETCH_TOLERANCE = 0.05;

const TYPEFACE_RE = /\btypeface="([^"]*)"/g;
const SRGB_RE = /<(?:a:)?srgbClr\s+val="([0-9A-Fa-f]{6})"/g;

/**
 * The typefaces and explicit colours written in a template's XML parts (slides, layouts,
 * masters, themes), read from the part bytes without building trees.
 *
 * @param parts - the parts to read (absolute names)
 */
export function templateVocabulary(pkg: OpcPackage, parts: readonly string[]): TemplateVocabulary {
  const fonts = new Set<string>();
  const colors = new Set<string>();
  const decoder = new TextDecoder();
  for (const part of parts) {
    let text: string;
    try {
      text = decoder.decode(pkg.getBytes(part));
    } catch {
      continue;
    }
    for (const m of text.matchAll(TYPEFACE_RE)) if (m[1]) fonts.add(m[1].toLowerCase());
    for (const m of text.matchAll(SRGB_RE)) colors.add(m[1]!.toUpperCase());
  }
  return { fonts, colors };
}

/** What the brand checks of one slide's shapes compare against. */
export interface BrandContext {
  /** The theme's typefaces, lower case. */
  themeFonts: ReadonlySet<string>;
  /** The theme's twelve scheme colours, `RRGGBB`. */
  palette: ReadonlySet<string>;
  vocabulary: TemplateVocabulary | undefined;
  /** The bytes of a picture's image (its `a:blip/@r:embed`), undefined when unknown. */
  imageBytes(shape: Shape, rId: string): Uint8Array | undefined;
}

const themeBrands = new WeakMap<Theme, { themeFonts: Set<string>; palette: Set<string> }>();

/** The theme's fonts and palette, as {@link BrandContext} takes them (made once per theme). */
export function themeBrand(theme: Theme): { themeFonts: ReadonlySet<string>; palette: ReadonlySet<string> } {
  const known = themeBrands.get(theme);
  if (known) return known;
  const themeFonts = new Set<string>();
  for (const c of [theme.major, theme.minor]) {
    for (const f of [c.latin, c.eastAsian, c.complexScript, ...Object.values(c.scripts)]) if (f) themeFonts.add(f.toLowerCase());
  }
  const palette = new Set<string>();
  for (const n of THEME_COLOR_NAMES) {
    const c = theme.colors[n];
    if (c) palette.add(c.toUpperCase());
  }
  const made = { themeFonts, palette };
  themeBrands.set(theme, made);
  return made;
}

/** Brand findings of one top-level shape and its group members, without a slide index (-1). */
export function shapeBrand(top: Shape, ctx: BrandContext): QualityFinding[] {
  const out: QualityFinding[] = [];
  // a shape without members is the whole walk (no generator made)
  if (top.children.length === 0) shapeBrandOne(top, ctx, out);
  else for (const shape of top.walk()) shapeBrandOne(shape, ctx, out);
  return out;
}

function shapeBrandOne(shape: Shape, ctx: BrandContext, out: QualityFinding[]): void {
  if (shape.hidden) return;
  checkFonts(shape, -1, ctx.themeFonts, ctx.vocabulary, out);
  checkColors(shape, -1, ctx.palette, ctx.vocabulary, out);
  if (shape.kind === 'pic') checkStretch(shape, -1, ctx, out);
}

/** Runs the brand checks over the slides of a deck, in deck order. */
export function checkBrand(slides: readonly SlidePart[], vocabulary: TemplateVocabulary | undefined): QualityFinding[] {
  const out: QualityFinding[] = [];
  slides.forEach((slide, index) => {
    const pkg = slide.model.pkg;
    const ctx: BrandContext = {
      ...themeBrand(slide.theme),
      vocabulary,
      imageBytes: (_shape, rId) => {
        const rel = pkg.rel(slide.partName, rId);
        return rel && !rel.external && rel.targetPartName && pkg.hasPart(rel.targetPartName) ? pkg.getBytes(rel.targetPartName) : undefined;
      },
    };
    for (const top of slide.shapes) for (const f of shapeBrand(top, ctx)) out.push({ ...f, slide_index: index });
  });
  return out;
}

function finding(index: number, shape: Shape, code: string, message: string, details: QualityFinding['details']): QualityFinding {
  return { slide_index: index, shape_id: shape.id, shape_name: shape.name, category: 'brand', code, severity: 'info', message, details };
}

/** Run and list-style property elements of a text body. */
function runProperties(txBody: Element): Element[] {
  const out: Element[] = [];
  const lst = child(txBody, NS.a, 'lstStyle');
  if (lst) for (const lvl of children(lst, NS.a)) {
    const d = child(lvl, NS.a, 'defRPr');
    if (d) out.push(d);
  }
  for (const p of children(txBody, NS.a, 'p')) {
    for (const r of children(p, NS.a)) {
      if (r.localName !== 'r' && r.localName !== 'fld') continue;
      if ((child(r, NS.a, 't')?.textContent ?? '').trim() === '') continue;
      const rPr = child(r, NS.a, 'rPr');
      if (rPr) out.push(rPr);
    }
  }
  return out;
}

function checkFonts(shape: Shape, index: number, themeFonts: ReadonlySet<string>, vocabulary: TemplateVocabulary | undefined, out: QualityFinding[]): void {
  if (!shape.txBody) return;
  const off = new Set<string>();
  for (const rPr of runProperties(shape.txBody)) {
    for (const slot of ['latin', 'ea', 'cs']) {
      const face = attr(child(rPr, NS.a, slot), 'typeface');
      // theme references (+mj-lt, +mn-ea, ...) are the theme's fonts
      if (!face || face.startsWith('+')) continue;
      const lower = face.toLowerCase();
      if (themeFonts.has(lower) || vocabulary?.fonts.has(lower)) continue;
      off.add(face);
    }
  }
  if (off.size === 0) return;
  const list = [...off];
  out.push(finding(index, shape, 'off_theme_font', `"${shape.name}" uses ${list.map((f) => `"${f}"`).join(', ')}, which the template's theme and its own text do not use`, { fonts: list.join(', ') }));
}

function checkColors(shape: Shape, index: number, palette: ReadonlySet<string>, vocabulary: TemplateVocabulary | undefined, out: QualityFinding[]): void {
  const candidates: Element[] = [];
  const spPr = child(shape.element, NS.p, 'spPr');
  const solid = child(spPr, NS.a, 'solidFill');
  if (solid) candidates.push(solid);
  if (shape.txBody) for (const rPr of runProperties(shape.txBody)) {
    const f = child(rPr, NS.a, 'solidFill');
    if (f) candidates.push(f);
  }
  const off = new Set<string>();
  for (const fill of candidates) {
    const srgb = child(fill, NS.a, 'srgbClr');
    const val = attr(srgb, 'val')?.toUpperCase();
    if (!val || !/^[0-9A-F]{6}$/.test(val)) continue;
    if (palette.has(val) || vocabulary?.colors.has(val)) continue;
    off.add(val);
  }
  if (off.size === 0) return;
  const list = [...off];
  out.push(finding(index, shape, 'off_palette_color', `"${shape.name}" uses the colour${list.length > 1 ? 's' : ''} ${list.map((c) => `#${c}`).join(', ')}, outside the theme's palette`, { colors: list.join(', ') }));
}

function checkStretch(shape: Shape, index: number, ctx: BrandContext, out: QualityFinding[]): void {
  const frame = shape.frame;
  if (!frame || frame.cx <= 0 || frame.cy <= 0) return;
  const blipFill = child(shape.element, NS.p, 'blipFill');
  const embed = attrNS(child(blipFill, NS.a, 'blip'), NS.r, 'embed');
  if (!embed) return;
  let w: number;
  let h: number;
  try {
    const bytes = ctx.imageBytes(shape, embed);
    if (!bytes) return;
    const head = readPictureHeader(bytes.subarray(0, 64 * 1024));
    w = head.width;
    h = head.height;
  } catch {
    return;
  }
  if (!w || !h) return;
  // a:srcRect crops (1/1000 %) change the shown part of the image
  const src = child(blipFill, NS.a, 'srcRect');
  const keepX = 1 - (intAttr(src, 'l', 0) + intAttr(src, 'r', 0)) / 100_000;
  const keepY = 1 - (intAttr(src, 't', 0) + intAttr(src, 'b', 0)) / 100_000;
  if (keepX <= 0 || keepY <= 0) return;
  // a tiled fill is not stretched
  if (child(blipFill, NS.a, 'tile')) return;
  const image = (w * keepX) / (h * keepY);
  const shown = frame.cx / frame.cy;
  const distortion = Math.abs(shown / image - 1);
  if (distortion <= STRETCH_TOLERANCE) return;
  out.push(
    finding(index, shape, 'stretched_picture', `picture "${shape.name}" is drawn ${Math.round(distortion * 100)} % out of its aspect ratio (image ${(image).toFixed(2)}:1, frame ${shown.toFixed(2)}:1)`, {
      image_aspect: Math.round(image * 1000) / 1000,
      frame_aspect: Math.round(shown * 1000) / 1000,
    }),
  );
}
