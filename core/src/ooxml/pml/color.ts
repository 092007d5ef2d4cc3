/**
 * DrawingML colour resolution, the one used by analysis, fitting and rendering
 * (ECMA-376 Part 1, §20.1.2.3 colour elements): scheme colours through the colour map
 * (§19.3.1.6 `p:clrMap`, §20.1.6.2 `a:clrScheme`), the placeholder colour of style-matrix
 * references (`a:schemeClr val="phClr"`, §20.1.4.2), preset and system colours, and every
 * colour transform in document order, alpha included. Analysis reports the result as
 * `RRGGBB` hex ({@link resolveColor}); drawing takes it as RGBA ({@link resolveRgba}).
 */
import { NS, attr, children, intAttr, type Element } from '../xml.js';
import type { Theme, ThemeColorName } from './theme.js';

/** A colour map (`p:clrMap`, §19.3.1.6): `bg1`, `tx1`, `bg2`, `tx2`, `accent1..6`, `hlink`, `folHlink` → theme slot. */
export type ColorMap = Readonly<Record<string, string>>;

/** The colour map PowerPoint writes by default (light background). */
export const DEFAULT_COLOR_MAP: ColorMap = {
  bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2',
  accent1: 'accent1', accent2: 'accent2', accent3: 'accent3', accent4: 'accent4', accent5: 'accent5', accent6: 'accent6',
  hlink: 'hlink', folHlink: 'folHlink',
};

/** Reads `p:clrMap` or `a:overrideClrMapping` attributes onto `base`. */
export function readColorMap(el: Element | undefined, base: ColorMap = DEFAULT_COLOR_MAP): ColorMap {
  if (!el) return base;
  const out: Record<string, string> = { ...base };
  for (const key of Object.keys(DEFAULT_COLOR_MAP)) {
    const v = attr(el, key);
    if (v) out[key] = v;
  }
  return out;
}

/** A colour in 0–255 channels (unrounded) and alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** What scheme colours resolve through. */
export interface ColorContext {
  theme: Theme;
  colorMap: ColorMap;
  /** The colour `phClr` stands for (from a style reference), when any; black otherwise. */
  phClr?: Rgba;
}

/**
 * Preset colours (§20.1.10.48 ST_PresetColorVal): the CSS named colours, written in
 * camel case, plus the schema's short forms (`dk…`, `lt…`, `med…`) of the dark, light and
 * medium names, resolved in {@link presetHex}.
 */
const PRESET_COLORS: Readonly<Record<string, string>> = {
  aliceBlue: 'F0F8FF', antiqueWhite: 'FAEBD7', aqua: '00FFFF', aquamarine: '7FFFD4', azure: 'F0FFFF', beige: 'F5F5DC',
  bisque: 'FFE4C4', black: '000000', blanchedAlmond: 'FFEBCD', blue: '0000FF', blueViolet: '8A2BE2', brown: 'A52A2A',
  burlyWood: 'DEB887', cadetBlue: '5F9EA0', chartreuse: '7FFF00', chocolate: 'D2691E', coral: 'FF7F50', cornflowerBlue: '6495ED',
  cornsilk: 'FFF8DC', crimson: 'DC143C', cyan: '00FFFF', darkBlue: '00008B', darkCyan: '008B8B', darkGoldenrod: 'B8860B',
  darkGray: 'A9A9A9', darkGrey: 'A9A9A9', darkGreen: '006400', darkKhaki: 'BDB76B', darkMagenta: '8B008B', darkOliveGreen: '556B2F',
  darkOrange: 'FF8C00', darkOrchid: '9932CC', darkRed: '8B0000', darkSalmon: 'E9967A', darkSeaGreen: '8FBC8F', darkSlateBlue: '483D8B',
  darkSlateGray: '2F4F4F', darkSlateGrey: '2F4F4F', darkTurquoise: '00CED1', darkViolet: '9400D3', deepPink: 'FF1493', deepSkyBlue: '00BFFF',
  dimGray: '696969', dimGrey: '696969', dodgerBlue: '1E90FF', firebrick: 'B22222', floralWhite: 'FFFAF0', forestGreen: '228B22',
  fuchsia: 'FF00FF', gainsboro: 'DCDCDC', ghostWhite: 'F8F8FF', gold: 'FFD700', goldenrod: 'DAA520', gray: '808080', grey: '808080',
  green: '008000', greenYellow: 'ADFF2F', honeydew: 'F0FFF0', hotPink: 'FF69B4', indianRed: 'CD5C5C', indigo: '4B0082', ivory: 'FFFFF0',
  khaki: 'F0E68C', lavender: 'E6E6FA', lavenderBlush: 'FFF0F5', lawnGreen: '7CFC00', lemonChiffon: 'FFFACD', lightBlue: 'ADD8E6',
  lightCoral: 'F08080', lightCyan: 'E0FFFF', lightGoldenrodYellow: 'FAFAD2', lightGray: 'D3D3D3', lightGrey: 'D3D3D3', lightGreen: '90EE90',
  lightPink: 'FFB6C1', lightSalmon: 'FFA07A', lightSeaGreen: '20B2AA', lightSkyBlue: '87CEFA', lightSlateGray: '778899', lightSlateGrey: '778899',
  lightSteelBlue: 'B0C4DE', lightYellow: 'FFFFE0', lime: '00FF00', limeGreen: '32CD32', linen: 'FAF0E6', magenta: 'FF00FF', maroon: '800000',
  mediumAquamarine: '66CDAA', mediumBlue: '0000CD', mediumOrchid: 'BA55D3', mediumPurple: '9370DB', mediumSeaGreen: '3CB371',
  mediumSlateBlue: '7B68EE', mediumSpringGreen: '00FA9A', mediumTurquoise: '48D1CC', mediumVioletRed: 'C71585', midnightBlue: '191970',
  mintCream: 'F5FFFA', mistyRose: 'FFE4E1', moccasin: 'FFE4B5', navajoWhite: 'FFDEAD', navy: '000080', oldLace: 'FDF5E6', olive: '808000',
  oliveDrab: '6B8E23', orange: 'FFA500', orangeRed: 'FF4500', orchid: 'DA70D6', paleGoldenrod: 'EEE8AA', paleGreen: '98FB98',
  paleTurquoise: 'AFEEEE', paleVioletRed: 'DB7093', papayaWhip: 'FFEFD5', peachPuff: 'FFDAB9', peru: 'CD853F', pink: 'FFC0CB', plum: 'DDA0DD',
  powderBlue: 'B0E0E6', purple: '800080', red: 'FF0000', rosyBrown: 'BC8F8F', royalBlue: '4169E1', saddleBrown: '8B4513', salmon: 'FA8072',
  sandyBrown: 'F4A460', seaGreen: '2E8B57', seaShell: 'FFF5EE', sienna: 'A0522D', silver: 'C0C0C0', skyBlue: '87CEEB', slateBlue: '6A5ACD',
  slateGray: '708090', slateGrey: '708090', snow: 'FFFAFA', springGreen: '00FF7F', steelBlue: '4682B4', tan: 'D2B48C', teal: '008080',
  thistle: 'D8BFD8', tomato: 'FF6347', turquoise: '40E0D0', violet: 'EE82EE', wheat: 'F5DEB3', white: 'FFFFFF', whiteSmoke: 'F5F5F5',
  yellow: 'FFFF00', yellowGreen: '9ACD32',
};

/** `RRGGBB` of a preset colour name (§20.1.10.48), short forms (`dkBlue`, `ltGray`, `medPurple`) included. */
export function presetHex(name: string): string | undefined {
  const direct = PRESET_COLORS[name];
  if (direct) return direct;
  const m = /^(dk|lt|med)([A-Z].*)$/.exec(name);
  if (!m) return undefined;
  const prefix = m[1] === 'dk' ? 'dark' : m[1] === 'lt' ? 'light' : 'medium';
  return PRESET_COLORS[prefix + m[2]];
}

/** System colours (§20.1.10.58 ST_SystemColorVal) used when `lastClr` is missing: Windows' defaults. */
const SYSTEM_COLORS: Readonly<Record<string, string>> = {
  windowText: '000000', window: 'FFFFFF', btnFace: 'F0F0F0', btnText: '000000', highlight: '3399FF', highlightText: 'FFFFFF',
  grayText: '6D6D6D', menu: 'F0F0F0', menuText: '000000', btnShadow: 'A0A0A0', '3dDkShadow': '696969', '3dLight': 'E3E3E3',
};

/** Office's default theme colours, for a theme that lacks a slot. */
const FALLBACK_SLOTS: Readonly<Record<string, string>> = {
  dk1: '000000', lt1: 'FFFFFF', dk2: '1F497D', lt2: 'EEECE1', accent1: '4F81BD', accent2: 'C0504D', accent3: '9BBB59',
  accent4: '8064A2', accent5: '4BACC6', accent6: 'F79646', hlink: '0000FF', folHlink: '800080',
};

const COLOR_ELEMENTS: ReadonlySet<string> = new Set(['srgbClr', 'schemeClr', 'sysClr', 'prstClr', 'scrgbClr', 'hslClr']);

/** Parses `RRGGBB` into RGBA (opaque). */
export function hexToRgba(hex: string | undefined): Rgba | undefined {
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return undefined;
  const n = Number.parseInt(hex, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: 1 };
}

/** `RRGGBB` (upper case) of a colour, alpha dropped. */
export function rgbaToHex(c: Rgba): string {
  return [c.r, c.g, c.b].map((x) => Math.max(0, Math.min(255, Math.round(x))).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** CSS colour string for canvas. */
export function css(c: Rgba): string {
  return `rgba(${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)},${Math.max(0, Math.min(1, c.a)).toFixed(3)})`;
}

/**
 * The first colour element inside a fill-like element (`a:solidFill`, a `a:clrScheme` slot,
 * `a:buClr`, `a:fontRef`) resolved to RGBA; undefined when there is none.
 */
export function colorIn(container: Element | undefined, ctx: ColorContext): Rgba | undefined {
  if (!container) return undefined;
  for (const el of children(container, NS.a)) if (COLOR_ELEMENTS.has(el.localName ?? '')) return resolveRgba(el, ctx);
  return undefined;
}

/** {@link colorIn} as `RRGGBB` hex (alpha dropped), as analysis reports colours. */
export function resolveColorIn(container: Element | undefined, ctx: ColorContext): string | undefined {
  const c = colorIn(container, ctx);
  return c ? rgbaToHex(c) : undefined;
}

/** {@link resolveRgba} as `RRGGBB` hex (alpha dropped). */
export function resolveColor(el: Element, ctx: ColorContext): string | undefined {
  const c = resolveRgba(el, ctx);
  return c ? rgbaToHex(c) : undefined;
}

/** Resolves one colour element (§20.1.2.3.x) with its transforms; undefined for an unknown element or value. */
export function resolveRgba(el: Element, ctx: ColorContext): Rgba | undefined {
  let c: Rgba | undefined;
  switch (el.localName) {
    case 'srgbClr': c = hexToRgba(attr(el, 'val')); break;
    case 'sysClr': c = hexToRgba(attr(el, 'lastClr')) ?? hexToRgba(SYSTEM_COLORS[attr(el, 'val') ?? '']); break;
    case 'prstClr': c = hexToRgba(presetHex(attr(el, 'val') ?? '')); break;
    case 'scrgbClr': c = { r: linearToByte(intAttr(el, 'r', 0)), g: linearToByte(intAttr(el, 'g', 0)), b: linearToByte(intAttr(el, 'b', 0)), a: 1 }; break;
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
  return c ? applyTransforms(c, el) : undefined;
}

/** scRGB component (linear, 0–100000) to an sRGB byte. */
function linearToByte(p: number): number {
  return Math.round(fromLinear(p / 100000));
}

/** Applies colour transforms (§20.1.2.3) in document order. */
function applyTransforms(c0: Rgba, el: Element): Rgba {
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

/** RGB (0–255 each) → HSL (each 0–1). */
export function rgbToHsl([r8, g8, b8]: [number, number, number]): [number, number, number] {
  const r = r8 / 255, g = g8 / 255, b = b8 / 255;
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h / 6, s, l];
}

/** HSL (each 0–1) → RGB (0–255 each, unrounded). */
export function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const hue = (t: number): number => {
    let x = t;
    if (x < 0) x += 1;
    if (x > 1) x -= 1;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return [hue(h + 1 / 3) * 255, hue(h) * 255, hue(h - 1 / 3) * 255];
}
