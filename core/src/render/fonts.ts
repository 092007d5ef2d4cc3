/**
 * Fonts for drawing: the metric-compatible open fonts found on the machine are registered
 * with Skia (`GlobalFonts`) once per process, and every template font name is drawn with
 * the face its metrics come from (`text/font-metrics.ts` {@link resolveFace}): Carlito for
 * Calibri, Caladea for Cambria, Liberation Sans/Serif/Mono for Arial/Helvetica, Times New
 * Roman and Courier New, DejaVu Sans/Serif for everything else. When a family's files are
 * missing, DejaVu Sans, then whatever Skia has, draws instead (reported as a substitution).
 *
 * Font directories searched: `SLIDEWRIGHT_FONT_DIRS` (colon-separated), then the Debian
 * locations of fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-liberation2,
 * fonts-liberation and fonts-dejavu-core.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { resolveFace } from '../text/font-metrics.js';

const FAMILY_FILES: Readonly<Record<string, RegExp>> = {
  Carlito: /^Carlito-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  Caladea: /^Caladea-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'Liberation Sans': /^LiberationSans-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'Liberation Serif': /^LiberationSerif-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'Liberation Mono': /^LiberationMono-(Regular|Bold|Italic|BoldItalic)\.ttf$/,
  'DejaVu Sans': /^DejaVuSans(-Bold|-Oblique|-BoldOblique)?\.ttf$/,
  'DejaVu Serif': /^DejaVuSerif(-Bold|-Italic|-BoldItalic)?\.ttf$/,
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

/** The family drawn for a template font name, and whether that is a substitution. */
export function drawFamily(name: string): { family: string; substituted: boolean } {
  const available = ensureFonts();
  const face = resolveFace(name);
  let family = face.family;
  if (!available.has(family)) family = available.has('DejaVu Sans') ? 'DejaVu Sans' : 'sans-serif';
  return { family, substituted: family.toLowerCase() !== name.trim().toLowerCase() };
}

/** CSS font shorthand for canvas (size in the canvas's current user units). */
export function cssFont(family: string, size: number, bold: boolean, italic: boolean): string {
  return `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}${Math.max(0.1, size).toFixed(2)}px "${family}"`;
}
