/**
 * DrawingML colour resolution (ECMA-376 Part 1, §20.1.2.3 colour elements): scheme colours
 * through the colour map (§19.3.1.6 `p:clrMap`, §20.1.6.2 `a:clrScheme`), then the common
 * luminance modifiers. Results are `RRGGBB` hex, upper case.
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

/** Context for resolving scheme colours. */
export interface ColorContext {
  theme: Theme;
  colorMap: ColorMap;
}

const PRESET_COLORS: Record<string, string> = {
  black: '000000', white: 'FFFFFF', red: 'FF0000', green: '008000', blue: '0000FF', yellow: 'FFFF00',
  gray: '808080', grey: '808080', darkGray: 'A9A9A9', lightGray: 'D3D3D3', orange: 'FFA500', purple: '800080',
  navy: '000080', silver: 'C0C0C0', maroon: '800000', teal: '008080', cyan: '00FFFF', magenta: 'FF00FF',
};

const COLOR_ELEMENTS = new Set(['srgbClr', 'schemeClr', 'sysClr', 'prstClr', 'scrgbClr', 'hslClr']);

/**
 * Resolves the colour element inside a fill-like element (`a:solidFill`, a `a:clrScheme`
 * slot, `a:buClr`) to `RRGGBB`; undefined when there is none or it cannot be known
 * (`phClr` outside a style matrix).
 */
export function resolveColorIn(container: Element | undefined, ctx: ColorContext): string | undefined {
  if (!container) return undefined;
  for (const el of children(container, NS.a)) {
    if (COLOR_ELEMENTS.has(el.localName ?? '')) return resolveColor(el, ctx);
  }
  return undefined;
}

/** Resolves one colour element (§20.1.2.3.x) with its modifiers to `RRGGBB`. */
export function resolveColor(el: Element, ctx: ColorContext): string | undefined {
  let rgb: [number, number, number] | undefined;
  switch (el.localName) {
    case 'srgbClr':
      rgb = hexToRgb(attr(el, 'val'));
      break;
    case 'sysClr':
      rgb = hexToRgb(attr(el, 'lastClr')) ?? (attr(el, 'val') === 'window' ? [255, 255, 255] : [0, 0, 0]);
      break;
    case 'prstClr':
      rgb = hexToRgb(PRESET_COLORS[attr(el, 'val') ?? '']);
      break;
    case 'scrgbClr':
      rgb = [pctToByte(intAttr(el, 'r', 0)), pctToByte(intAttr(el, 'g', 0)), pctToByte(intAttr(el, 'b', 0))];
      break;
    case 'hslClr':
      rgb = hslToRgb(intAttr(el, 'hue', 0) / 60000 / 360, intAttr(el, 'sat', 0) / 100000, intAttr(el, 'lum', 0) / 100000);
      break;
    case 'schemeClr': {
      const val = attr(el, 'val') ?? '';
      const slot = (ctx.colorMap[val] ?? val) as ThemeColorName;
      rgb = hexToRgb(ctx.theme.colors[slot]);
      break;
    }
    default:
      return undefined;
  }
  if (!rgb) return undefined;
  return rgbToHex(applyModifiers(rgb, el));
}

/** Applies `lumMod`, `lumOff`, `tint`, `shade` (§20.1.2.3.19/.20/.34/.31) in document order. */
function applyModifiers(rgb: [number, number, number], el: Element): [number, number, number] {
  let cur = rgb;
  for (const m of children(el, NS.a)) {
    const v = intAttr(m, 'val', 100000) / 100000;
    switch (m.localName) {
      case 'lumMod': {
        const [h, s, l] = rgbToHsl(cur);
        cur = hslToRgb(h, s, clamp01(l * v));
        break;
      }
      case 'lumOff': {
        const [h, s, l] = rgbToHsl(cur);
        cur = hslToRgb(h, s, clamp01(l + v));
        break;
      }
      case 'tint':
        cur = cur.map((c) => Math.round(c + (255 - c) * (1 - v))) as [number, number, number];
        break;
      case 'shade':
        cur = cur.map((c) => Math.round(c * v)) as [number, number, number];
        break;
      default:
        break;
    }
  }
  return cur;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function pctToByte(p: number): number {
  return Math.round(clamp01(p / 100000) * 255);
}

function hexToRgb(hex: string | undefined): [number, number, number] | undefined {
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return undefined;
  const n = Number.parseInt(hex, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function rgbToHex([r, g, b]: [number, number, number]): string {
  return [r, g, b].map((c) => Math.max(0, Math.min(255, Math.round(c))).toString(16).padStart(2, '0')).join('').toUpperCase();
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
