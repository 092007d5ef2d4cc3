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
 * fonts-liberation and fonts-dejavu-core.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { FAMILY_SHAPE, resolveFace } from '../text/font-metrics.js';
import type { FontShape } from '../text/font-class.js';

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

/** Registers the open fonts once; returns the families available for drawing. */
export function ensureFonts(): ReadonlySet<string> {
  if (registered) return registered;
  const found = new Set<string>();
  const dirs = [...(process.env.SLIDEWRIGHT_FONT_DIRS ?? '').split(':').filter(Boolean), ...DEFAULT_DIRS];
  for (const dir of dirs) {
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
 */
export function scriptFallbackFamilies(base: readonly string[]): string[] {
  const out = [...base];
  for (const f of ['DejaVu Sans', 'Noto Sans CJK JP', 'Noto Sans CJK SC', 'Noto Sans CJK KR']) if (!out.includes(f)) out.push(f);
  return out;
}
