/**
 * Colour resolution for drawing (ECMA-376 Part 1, §20.1.2.3): like the analysis's
 * `pml/color.ts`, but keeping alpha (`a:alpha` §20.1.2.3.1), the placeholder colour of
 * style matrix references (`a:schemeClr val="phClr"`, §20.1.4.2), and the saturation and
 * hue modifiers, in RGBA.
 */
import { NS, attr, children, intAttr, type Element } from '../ooxml/xml.js';
import { hslToRgb, rgbToHsl, type ColorMap } from '../ooxml/pml/color.js';
import type { Theme, ThemeColorName } from '../ooxml/pml/theme.js';

/** A colour in 0–255 channels and alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** What scheme colours resolve through. */
export interface DrawColorContext {
  theme: Theme;
  colorMap: ColorMap;
  /** The colour `phClr` stands for (from a style reference), when any. */
  phClr?: Rgba;
}

const PRESET: Record<string, string> = {
  black: '000000', white: 'FFFFFF', red: 'FF0000', green: '008000', blue: '0000FF', yellow: 'FFFF00', gray: '808080', grey: '808080',
  darkGray: 'A9A9A9', lightGray: 'D3D3D3', orange: 'FFA500', purple: '800080', navy: '000080', silver: 'C0C0C0', maroon: '800000',
  teal: '008080', cyan: '00FFFF', magenta: 'FF00FF', ltGray: 'D3D3D3', dkGray: 'A9A9A9', lime: '00FF00', aqua: '00FFFF',
};
const SYS: Record<string, string> = { windowText: '000000', window: 'FFFFFF', btnFace: 'F0F0F0', btnText: '000000', highlight: '3399FF', highlightText: 'FFFFFF', grayText: '6D6D6D', menu: 'F0F0F0', menuText: '000000', btnShadow: 'A0A0A0', '3dDkShadow': '696969', '3dLight': 'E3E3E3' };
const COLOR_ELEMENTS = new Set(['srgbClr', 'schemeClr', 'sysClr', 'prstClr', 'scrgbClr', 'hslClr']);

/** Parses `RRGGBB` into RGBA (opaque). */
export function hexToRgba(hex: string | undefined): Rgba | undefined {
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return undefined;
  const n = Number.parseInt(hex, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: 1 };
}

/** CSS colour string for canvas. */
export function css(c: Rgba): string {
  return `rgba(${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)},${Math.max(0, Math.min(1, c.a)).toFixed(3)})`;
}

/** First colour element inside `container` resolved, or undefined. */
export function colorIn(container: Element | undefined, ctx: DrawColorContext): Rgba | undefined {
  if (!container) return undefined;
  for (const el of children(container, NS.a)) if (COLOR_ELEMENTS.has(el.localName ?? '')) return resolveRgba(el, ctx);
  return undefined;
}

/** Resolves one colour element with its modifiers. */
export function resolveRgba(el: Element, ctx: DrawColorContext): Rgba | undefined {
  let c: Rgba | undefined;
  switch (el.localName) {
    case 'srgbClr': c = hexToRgba(attr(el, 'val')); break;
    case 'sysClr': c = hexToRgba(attr(el, 'lastClr')) ?? hexToRgba(SYS[attr(el, 'val') ?? '']); break;
    case 'prstClr': c = hexToRgba(PRESET[attr(el, 'val') ?? '']); break;
    case 'scrgbClr': c = { r: lin(intAttr(el, 'r', 0)), g: lin(intAttr(el, 'g', 0)), b: lin(intAttr(el, 'b', 0)), a: 1 }; break;
    case 'hslClr': {
      const [r, g, b] = hslToRgb(intAttr(el, 'hue', 0) / 21600000, intAttr(el, 'sat', 0) / 100000, intAttr(el, 'lum', 0) / 100000);
      c = { r, g, b, a: 1 };
      break;
    }
    case 'schemeClr': {
      const val = attr(el, 'val') ?? '';
      if (val === 'phClr') c = ctx.phClr ? { ...ctx.phClr } : { r: 0, g: 0, b: 0, a: 1 };
      else {
        const slot = (ctx.colorMap[val] ?? val) as ThemeColorName;
        c = hexToRgba(ctx.theme.colors[slot]) ?? hexToRgba(FALLBACK_SLOTS[slot]);
      }
      break;
    }
    default: return undefined;
  }
  return c ? applyModifiers(c, el) : undefined;
}

/** Office's default theme colours, for a theme that lacks a slot. */
const FALLBACK_SLOTS: Record<string, string> = { dk1: '000000', lt1: 'FFFFFF', dk2: '1F497D', lt2: 'EEECE1', accent1: '4F81BD', accent2: 'C0504D', accent3: '9BBB59', accent4: '8064A2', accent5: '4BACC6', accent6: 'F79646', hlink: '0000FF', folHlink: '800080' };

function lin(p: number): number {
  // scRGB is linear; convert to sRGB.
  const x = Math.max(0, Math.min(1, p / 100000));
  const s = x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
  return Math.round(s * 255);
}

/** Applies colour transforms (§20.1.2.3) in document order. */
function applyModifiers(c0: Rgba, el: Element): Rgba {
  let c = c0;
  // Between a:gamma and a:invGamma (files converted from PowerPoint 97–2003) tint and shade
  // act on the gamma-encoded values.
  let encoded = false;
  for (const m of children(el, NS.a)) {
    const v = intAttr(m, 'val', 100000) / 100000;
    switch (m.localName) {
      case 'alpha': c = { ...c, a: v }; break;
      case 'alphaMod': c = { ...c, a: c.a * v }; break;
      case 'alphaOff': c = { ...c, a: c.a + v }; break;
      case 'lumMod': c = hsl(c, (h, s, l) => [h, s, l * v]); break;
      case 'lumOff': c = hsl(c, (h, s, l) => [h, s, l + v]); break;
      case 'satMod': c = hsl(c, (h, s, l) => [h, s * v, l]); break;
      case 'satOff': c = hsl(c, (h, s, l) => [h, s + v, l]); break;
      case 'hueMod': c = hsl(c, (h, s, l) => [h * v, s, l]); break;
      case 'hueOff': c = hsl(c, (h, s, l) => [h + intAttr(m, 'val', 0) / 21600000, s, l]); break;
      // tint and shade work on linear light (scRGB), as PowerPoint and LibreOffice apply them.
      case 'tint': c = encoded ? { ...c, r: 255 - (255 - c.r) * v, g: 255 - (255 - c.g) * v, b: 255 - (255 - c.b) * v } : linearly(c, (x) => 1 - (1 - x) * v); break;
      case 'shade': c = encoded ? { ...c, r: c.r * v, g: c.g * v, b: c.b * v } : linearly(c, (x) => x * v); break;
      case 'gamma': encoded = true; break;
      case 'invGamma': encoded = false; break;
      case 'inv': c = { ...c, r: 255 - c.r, g: 255 - c.g, b: 255 - c.b }; break;
      case 'gray': { const y = 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; c = { ...c, r: y, g: y, b: y }; break; }
      case 'comp': c = hsl(c, (h, s, l) => [h + 0.5, s, l]); break;
      default: break;
    }
  }
  return c;
}

/** sRGB component (0–255) to linear light (0–1), IEC 61966-2-1. */
function toLinear(c: number): number {
  const x = Math.max(0, Math.min(1, c / 255));
  return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
}

/** Linear light (0–1) to an sRGB component (0–255). */
function fromLinear(x: number): number {
  const y = Math.max(0, Math.min(1, x));
  return 255 * (y <= 0.0031308 ? 12.92 * y : 1.055 * Math.pow(y, 1 / 2.4) - 0.055);
}

/** Applies `f` to each colour component in linear light. */
function linearly(c: Rgba, f: (x: number) => number): Rgba {
  return { r: fromLinear(f(toLinear(c.r))), g: fromLinear(f(toLinear(c.g))), b: fromLinear(f(toLinear(c.b))), a: c.a };
}

function hsl(c: Rgba, f: (h: number, s: number, l: number) => [number, number, number]): Rgba {
  const [h, s, l] = rgbToHsl([c.r, c.g, c.b]);
  let [h2, s2, l2] = f(h, s, l);
  h2 = ((h2 % 1) + 1) % 1;
  s2 = Math.max(0, Math.min(1, s2));
  l2 = Math.max(0, Math.min(1, l2));
  const [r, g, b] = hslToRgb(h2, s2, l2);
  return { r, g, b, a: c.a };
}

