/**
 * Fonts for drawing: the metric-compatible open fonts found on the machine are registered
 * with Skia (`GlobalFonts`) once per process, and every template font name is drawn with
 * the face its metrics come from (`text/font-metrics.ts` {@link resolveFace}, the same rule
 * text fitting measures with): Carlito for Calibri, Caladea for Cambria and Constantia,
 * Liberation Sans/Serif/Mono for Arial/Helvetica, Times New Roman and Courier New, and for
 * any other font a stand-in of its class (serif, sans serif, monospace: by name, else by
 * the template's `panose` / `pitchFamily`, see `text/font-class.ts`). When a family's
 * files are missing, another face of the same class draws instead
 * ({@link FALLBACK_WITHIN_CLASS}), then whatever Skia has. Every face drawn for a name
 * that is not itself is reported as a substitution.
 *
 * Font directories searched: `SLIDEWRIGHT_FONT_DIRS` (colon-separated), then the Debian
 * locations of fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-liberation2,
 * fonts-liberation and fonts-dejavu-core. The regional faces of Noto Sans CJK
 * (fonts-noto-cjk) are registered one by one when text of their language is first drawn
 * ({@link cjkFamilyFor}).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { FAMILY_SHAPE, resolveFace } from '../text/font-metrics.js';
import type { FontShape } from '../text/font-class.js';
import { cjkRegionOfLanguage } from '../text/script.js';
import { extractFace, FontFileError, readFontFaces, withFontFile } from './font-collection.js';

const FAMILY_FILES: Readonly<Record<string, RegExp>> = {
  Carlito: /^Carlito-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  Caladea: /^Caladea-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'Liberation Sans': /^LiberationSans-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'Liberation Serif': /^LiberationSerif-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'Liberation Mono': /^LiberationMono-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'DejaVu Sans': /^DejaVuSans(-Bold|-Oblique|-BoldOblique)?\.ttf$/,
  'DejaVu Serif': /^DejaVuSerif(-Bold|-Italic|-BoldItalic)?\.ttf$/,
  'DejaVu Sans Mono': /^DejaVuSansMono(-Bold|-Oblique|-BoldOblique)?\.ttf$/,
  OpenSymbol: /^opens___\.ttf$/,
};

const DEFAULT_DIRS = [
  '/usr/share/fonts/truetype/crosextra',
  '/usr/share/fonts/truetype/liberation2',
  '/usr/share/fonts/truetype/liberation',
  '/usr/share/fonts/truetype/dejavu',
  '/usr/share/fonts/truetype/libreoffice',
  '/usr/share/fonts/TTF',
  '/usr/share/fonts/dejavu',
  '/usr/share/fonts/liberation',
];

let registered: Set<string> | undefined;

/** The folders searched for font files: `SLIDEWRIGHT_FONT_DIRS` (colon-separated) first, then `defaults`. */
function fontDirs(defaults: readonly string[]): string[] {
  return [...(process.env.SLIDEWRIGHT_FONT_DIRS ?? '').split(':').filter(Boolean), ...defaults];
}

/** Registers the open fonts once; returns the families available for drawing. */
export function ensureFonts(): ReadonlySet<string> {
  if (registered) return registered;
  const found = new Set<string>();
  for (const dir of fontDirs(DEFAULT_DIRS)) {
    if (!existsSync(dir)) continue;
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const f of files) {
      for (const [family, re] of Object.entries(FAMILY_FILES)) {
        if (!re.test(f)) continue;
        if (GlobalFonts.registerFromPath(join(dir, f), family)) found.add(family);
      }
    }
  }
  registered = found;
  return found;
}

/**
 * The faces that draw a class when the stand-in's files are missing, in order of
 * preference; the last entry is Skia's generic family.
 */
export const FALLBACK_WITHIN_CLASS: Readonly<Record<FontShape, readonly string[]>> = {
  serif: ['Liberation Serif', 'DejaVu Serif', 'Caladea', 'serif'],
  sans: ['Liberation Sans', 'DejaVu Sans', 'Carlito', 'sans-serif'],
  mono: ['Liberation Mono', 'DejaVu Sans Mono', 'monospace'],
};

/**
 * The family drawn for a template font name, and whether that is a substitution: the
 * face {@link resolveFace} measures it with, or, when that face is not installed, the
 * first installed face of the same class.
 * @param shapeHint - the shape the template's `panose` / `pitchFamily` give the name (FontSpec.shapeHint)
 */
export function drawFamily(name: string, shapeHint?: FontShape): { family: string; substituted: boolean } {
  const available = ensureFonts();
  const face = resolveFace(name, shapeHint);
  let family = face.family;
  if (!available.has(family)) {
    const chain = FALLBACK_WITHIN_CLASS[FAMILY_SHAPE[family] ?? face.shape];
    family = chain.find((f) => available.has(f)) ?? chain[chain.length - 1]!;
  }
  return { family, substituted: family.toLowerCase() !== name.trim().toLowerCase() };
}

/**
 * CSS font shorthand for canvas (size in the canvas's current user units).
 * @param fallbacks - families that draw the characters `family` has no glyph for (Skia
 *   falls back per character through the list)
 */
export function cssFont(family: string, size: number, bold: boolean, italic: boolean, fallbacks: readonly string[] = []): string {
  const families = [family, ...fallbacks.filter((f) => f !== family)].map((f) => `"${f}"`).join(', ');
  return `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}${Math.max(0.1, size).toFixed(2)}px ${families}`;
}

/**
 * Families that draw, on a PDF page, the characters the slide's face lacks (Arabic, Hebrew,
 * Greek, Cyrillic, symbols: DejaVu covers them), among the installed ones. Without them
 * such text is drawn as empty boxes (.notdef glyphs) that carry no text, so it could not be
 * searched or copied. Previews keep drawing without them (their pixels stay as they were).
 */
export function pdfFallbackFamilies(): string[] {
  const available = ensureFonts();
  return ['DejaVu Sans', 'DejaVu Serif'].filter((f) => available.has(f));
}

/**
 * Families that draw text in scripts the slide's faces lack (Hebrew and Arabic: DejaVu Sans;
 * Chinese, Japanese, Korean: Noto Sans CJK from `fonts-noto-cjk`), after `base`: the faces
 * fontconfig gives LibreOffice for those scripts, so previews show the glyphs LibreOffice
 * and the measuring assume (`text/font-metrics.ts` CJK_FALLBACK_FAMILY). Skia takes each
 * character from the first family that has it and skips families it does not know.
 * @param cjkFamily - the regional CJK face for the run's language ({@link cjkFamilyFor}),
 *   tried before the Japanese face Skia finds on its own
 */
export function scriptFallbackFamilies(base: readonly string[], cjkFamily?: string): string[] {
  const out = [...base];
  for (const f of ['DejaVu Sans', cjkFamily, 'Noto Sans CJK JP', 'Noto Sans CJK SC', 'Noto Sans CJK KR']) if (f && !out.includes(f)) out.push(f);
  return out;
}

/** The collections of `fonts-noto-cjk` whose faces draw CJK text, by weight. */
const CJK_COLLECTIONS = { regular: 'NotoSansCJK-Regular.ttc', bold: 'NotoSansCJK-Bold.ttc' } as const;

/** Where distributions install the Noto CJK collections (Debian/Ubuntu, Fedora, Arch, Alpine). */
const CJK_DIRS = [
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/google-noto-cjk',
  '/usr/share/fonts/noto-cjk',
  '/usr/share/fonts/noto',
];

/** Outcome of registering a regional face, per region and weight: its family, or null when it cannot be had. */
const cjkRegistered = new Map<string, string | null>();

/** The file of a collection in `SLIDEWRIGHT_FONT_DIRS` or the usual directories, if any. */
function findCollection(file: string): string | undefined {
  for (const dir of fontDirs(CJK_DIRS)) {
    const path = join(dir, file);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** True when Skia already holds a face of `family` at `weight` (registered by another thread of the process, or found by Skia itself). */
function skiaHasFace(family: string, weight: number): boolean {
  return GlobalFonts.families.some((f) => f.family === family && f.styles.some((st) => st.weight === weight));
}

/**
 * The family that draws East Asian text of language `lang` (FontSpec.eastAsianLang) in its
 * regional forms: "Noto Sans CJK SC" for zh-CN, "… TC" for zh-TW, "… HK" for zh-HK, "… KR"
 * for Korean ({@link cjkRegionOfLanguage}); undefined for Japanese and for no language,
 * which keep the Japanese face Skia finds by itself (the first face of the collection, the
 * only one Skia registers from a collection), and when the collection is not installed.
 *
 * The face is copied out of the collection ({@link extractFace}) and registered with Skia
 * the first time text of its region and weight is drawn, not before: each face costs about
 * 16 MiB of resident memory (Skia keeps its own copy; the outlines are not shared with the
 * collection's first face), and most decks never need one. Measured with glibc: +16 MiB for
 * the first face; +31–33 MiB for each later one, as the allocator keeps the freed 16 MiB
 * extraction buffer in its heap once the first one raised its mmap threshold (+16–17 MiB
 * each with `MALLOC_MMAP_THRESHOLD_` fixed). A face that cannot be read is not tried again;
 * worker threads share Skia's fonts, so a face another thread registered is reused.
 */
export function cjkFamilyFor(lang: string | undefined, bold: boolean): string | undefined {
  const region = cjkRegionOfLanguage(lang);
  if (!region || region === 'JP') return undefined;
  const family = `Noto Sans CJK ${region}`;
  const key = `${region}|${bold ? 'bold' : 'regular'}`;
  const known = cjkRegistered.get(key);
  if (known !== undefined) return known ?? undefined;
  let result: string | null = null;
  const weight = bold ? 700 : 400;
  if (skiaHasFace(family, weight)) result = family;
  else {
    const path = findCollection(CJK_COLLECTIONS[bold ? 'bold' : 'regular']);
    if (path) {
      try {
        result = withFontFile(path, (bytes) => {
          const face = readFontFaces(bytes).find((f) => f.family === family);
          return face && GlobalFonts.register(extractFace(bytes, face), family) ? family : null;
        });
      } catch (e) {
        if (!(e instanceof FontFileError) && !(e instanceof Error && 'code' in e)) throw e;
        result = null; // an unreadable collection: the Japanese face keeps drawing
      }
    }
    // bold text whose bold face is missing is drawn with the regular face (Skia emboldens it)
    if (!result && bold) result = cjkFamilyFor(lang, false) ?? null;
  }
  cjkRegistered.set(key, result);
  return result ?? undefined;
}
