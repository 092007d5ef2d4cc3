/**
 * The theme part (ECMA-376 Part 1, §14.2.7 Theme Part; `a:theme` §20.1.6.9): its name, font
 * scheme (§20.1.4.1.18 `a:fontScheme`) and colour scheme (§20.1.6.2 `a:clrScheme`).
 */
import { NS, attr, child, children, path, type Element } from '../xml.js';

/** Typefaces of one theme font collection (`a:majorFont` / `a:minorFont`, §20.1.4.1.24/.25). */
export interface ThemeFontCollection {
  /** `a:latin/@typeface`, e.g. "Calibri Light"; '' when absent. */
  latin: string;
  /** `a:ea/@typeface` (East Asian); '' when the theme leaves it empty. */
  eastAsian: string;
  /** `a:cs/@typeface` (complex script); '' when empty. */
  complexScript: string;
}

/** The twelve colours of `a:clrScheme` (§20.1.6.2), as `RRGGBB` hex (upper case). */
export type ThemeColorName = 'dk1' | 'lt1' | 'dk2' | 'lt2' | 'accent1' | 'accent2' | 'accent3' | 'accent4' | 'accent5' | 'accent6' | 'hlink' | 'folHlink';

export const THEME_COLOR_NAMES: readonly ThemeColorName[] = ['dk1', 'lt1', 'dk2', 'lt2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'];

/** What the engine reads from a theme. */
export interface Theme {
  partName: string | undefined;
  /** `a:theme/@name`; '' when absent. */
  name: string;
  /** `a:fontScheme/@name`. */
  fontSchemeName: string;
  major: ThemeFontCollection;
  minor: ThemeFontCollection;
  /** `a:clrScheme/@name`. */
  colorSchemeName: string;
  /** Scheme colours as `RRGGBB`; a name missing from the theme is absent from the map. */
  colors: Partial<Record<ThemeColorName, string>>;
}

/** A theme with nothing in it, for a master whose theme part is missing. */
export const EMPTY_THEME: Theme = {
  partName: undefined,
  name: '',
  fontSchemeName: '',
  major: { latin: '', eastAsian: '', complexScript: '' },
  minor: { latin: '', eastAsian: '', complexScript: '' },
  colorSchemeName: '',
  colors: {},
};

/** Reads a theme from its `a:theme` root element. */
export function readTheme(root: Element, partName: string): Theme {
  const elements = child(root, NS.a, 'themeElements');
  const fontScheme = child(elements, NS.a, 'fontScheme');
  const clrScheme = child(elements, NS.a, 'clrScheme');
  const colors: Partial<Record<ThemeColorName, string>> = {};
  if (clrScheme) {
    for (const name of THEME_COLOR_NAMES) {
      const el = child(clrScheme, NS.a, name);
      const hex = el ? baseColorOf(el) : undefined;
      if (hex) colors[name] = hex;
    }
  }
  return {
    partName,
    name: attr(root, 'name') ?? '',
    fontSchemeName: attr(fontScheme, 'name') ?? '',
    major: readFontCollection(child(fontScheme, NS.a, 'majorFont')),
    minor: readFontCollection(child(fontScheme, NS.a, 'minorFont')),
    colorSchemeName: attr(clrScheme, 'name') ?? '',
    colors,
  };
}

function readFontCollection(el: Element | undefined): ThemeFontCollection {
  return {
    latin: attr(path(el, [NS.a, 'latin']), 'typeface') ?? '',
    eastAsian: attr(path(el, [NS.a, 'ea']), 'typeface') ?? '',
    complexScript: attr(path(el, [NS.a, 'cs']), 'typeface') ?? '',
  };
}

/** The plain colour inside a scheme colour slot: `a:srgbClr/@val` or `a:sysClr/@lastClr`. */
function baseColorOf(slot: Element): string | undefined {
  for (const el of children(slot, NS.a)) {
    if (el.localName === 'srgbClr') return normHex(attr(el, 'val'));
    if (el.localName === 'sysClr') return normHex(attr(el, 'lastClr')) ?? SYSTEM_COLOR_DEFAULTS[attr(el, 'val') ?? ''];
  }
  return undefined;
}

function normHex(v: string | undefined): string | undefined {
  return v !== undefined && /^[0-9a-fA-F]{6}$/.test(v) ? v.toUpperCase() : undefined;
}

/** Usual values of the system colours a theme names most (`windowText`, `window`). */
const SYSTEM_COLOR_DEFAULTS: Record<string, string> = { windowText: '000000', window: 'FFFFFF' };

/**
 * Resolves a theme font reference (§20.1.4.1.16/.17: `+mj-lt`, `+mn-lt`, `+mj-ea`, `+mn-ea`,
 * `+mj-cs`, `+mn-cs`) to the typeface the theme names; other typefaces come back unchanged.
 * A reference whose theme slot is empty resolves to '' .
 */
export function resolveThemeFont(typeface: string, theme: Theme): string {
  const m = /^\+(mj|mn)-(lt|ea|cs)$/.exec(typeface);
  if (!m) return typeface;
  const coll = m[1] === 'mj' ? theme.major : theme.minor;
  return m[2] === 'lt' ? coll.latin : m[2] === 'ea' ? coll.eastAsian : coll.complexScript;
}
