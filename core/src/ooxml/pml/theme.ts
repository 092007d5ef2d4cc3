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
  /** Per-script typefaces (`a:font/@script` → `@typeface`, §20.1.4.1.16), e.g. `Jpan` → "ＭＳ Ｐゴシック". */
  scripts: Readonly<Record<string, string>>;
  /**
   * `a:latin/@panose` (§21.1.2.3.7; ST_Panose §22.9.2.8, 20 hex digits) and
   * `a:latin/@pitchFamily` (ST_PitchFamily §20.1.10.41, a signed decimal byte) as written;
   * absent when the theme leaves them out. They tell the class of a font without metrics.
   */
  latinPanose?: string;
  latinPitchFamily?: string;
}

/** The twelve colours of `a:clrScheme` (§20.1.6.2), as `RRGGBB` hex (upper case). */
export type ThemeColorName = 'dk1' | 'lt1' | 'dk2' | 'lt2' | 'accent1' | 'accent2' | 'accent3' | 'accent4' | 'accent5' | 'accent6' | 'hlink' | 'folHlink';

/** The colour scheme slots in schema order (§20.1.6.2). */
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
  major: { latin: '', eastAsian: '', complexScript: '', scripts: {} },
  minor: { latin: '', eastAsian: '', complexScript: '', scripts: {} },
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
  const scripts: Record<string, string> = {};
  for (const f of el ? children(el, NS.a, 'font') : []) {
    const script = attr(f, 'script');
    const face = attr(f, 'typeface');
    if (script && face && !(script in scripts)) scripts[script] = face;
  }
  const latin = path(el, [NS.a, 'latin']);
  const panose = attr(latin, 'panose');
  const pitchFamily = attr(latin, 'pitchFamily');
  return {
    latin: attr(latin, 'typeface') ?? '',
    eastAsian: attr(path(el, [NS.a, 'ea']), 'typeface') ?? '',
    complexScript: attr(path(el, [NS.a, 'cs']), 'typeface') ?? '',
    scripts,
    ...(panose !== undefined ? { latinPanose: panose } : {}),
    ...(pitchFamily !== undefined ? { latinPitchFamily: pitchFamily } : {}),
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
 * The script a language tag is written in, as theme `a:font/@script` names it (ISO 15924),
 * for the East Asian and complex-script languages whose theme slot is often empty.
 */
export function scriptOfLanguage(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const [primary = '', region = ''] = lang.split('-');
  switch (primary.toLowerCase()) {
    case 'ja':
      return 'Jpan';
    case 'ko':
      return 'Hang';
    case 'zh':
      return ['TW', 'HK', 'MO'].includes(region.toUpperCase()) ? 'Hant' : 'Hans';
    case 'ar':
    case 'fa':
    case 'ur':
      return 'Arab';
    case 'he':
    case 'yi':
      return 'Hebr';
    case 'th':
      return 'Thai';
    case 'hi':
    case 'mr':
    case 'ne':
      return 'Deva';
    case 'bn':
      return 'Beng';
    case 'ta':
      return 'Taml';
    default:
      return undefined;
  }
}

/**
 * Resolves a theme font reference (§20.1.4.1.16/.17: `+mj-lt`, `+mn-lt`, `+mj-ea`, `+mn-ea`,
 * `+mj-cs`, `+mn-cs`) to the typeface the theme names; other typefaces come back unchanged.
 * An East Asian or complex-script slot that the theme leaves empty falls back to the
 * theme's typeface for the script of `lang` (the run's language), as PowerPoint does; a
 * reference that still finds nothing resolves to ''.
 */
export function resolveThemeFont(typeface: string, theme: Theme, lang?: string): string {
  const m = /^\+(mj|mn)-(lt|ea|cs)$/.exec(typeface);
  if (!m) return typeface;
  const coll = m[1] === 'mj' ? theme.major : theme.minor;
  const direct = m[2] === 'lt' ? coll.latin : m[2] === 'ea' ? coll.eastAsian : coll.complexScript;
  if (direct !== '' || m[2] === 'lt') return direct;
  const script = scriptOfLanguage(lang);
  return (script && coll.scripts[script]) || '';
}
