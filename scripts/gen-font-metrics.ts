/**
 * Generates `core/src/text/metrics-data/fonts.ts`: advance widths and vertical metrics of
 * the metric-compatible open fonts (Carlito = Calibri, Caladea = Cambria, Liberation Sans
 * = Arial/Helvetica, Liberation Serif = Times New Roman, Liberation Mono = Courier New) and
 * DejaVu Sans/Serif (the last-resort faces), read from the installed font files.
 *
 * The output is committed, so measuring text never depends on the fonts of the machine
 * that runs the service. Run after installing fonts-crosextra-carlito,
 * fonts-crosextra-caladea, fonts-liberation2 and fonts-dejavu-core:
 *
 *   npx tsx scripts/gen-font-metrics.ts
 *
 * Widths are kept in font units (integers) per code point for the ranges below; code
 * points the font lacks are omitted (the measurer falls back for them). Pair kerning (the
 * GPOS `kern` feature, read by gpos-kerning.ts) is kept for the pairs of
 * {@link KERNING_CHARACTERS}; the measurer kerns accented Latin letters as their base letter.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import opentypeModule from 'opentype.js';
import { gposPairKerning } from './gpos-kerning.js';

/** The few opentype.js members used here (the package ships no types). */
interface OtGlyph { advanceWidth?: number; index: number }
interface OtFont {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  tables: {
    hhea: { lineGap: number; ascender: number; descender: number };
    os2: { usWinAscent: number; usWinDescent: number; sTypoAscender: number; sTypoDescender: number; sTypoLineGap: number; sxHeight?: number; sCapHeight?: number; fsSelection?: number };
    post: { underlinePosition: number; underlineThickness: number };
  };
  charToGlyph(ch: string): OtGlyph;
}
const opentype = opentypeModule as unknown as { parse(buf: ArrayBuffer): OtFont };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(ROOT, 'core/src/text/metrics-data/fonts.ts');

/** Code point ranges measured (inclusive). */
const RANGES: Array<[number, number]> = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0x24f], // Latin-1 Supplement, Latin Extended-A/B
  [0x370, 0x3ff], // Greek
  [0x400, 0x4ff], // Cyrillic
  [0x5b0, 0x5ff], // Hebrew (DejaVu)
  [0x600, 0x6ff], // Arabic (DejaVu)
  [0x2000, 0x206f], // General Punctuation
  [0x20a0, 0x20cf], // Currency
  [0x2100, 0x215f], // Letterlike
  [0x2190, 0x21ff], // Arrows
  [0x2200, 0x22ff], // Math operators
  [0x25a0, 0x25ff], // Geometric shapes (bullets)
  [0x2600, 0x26ff], // Misc symbols
  [0x2700, 0x27bf], // Dingbats
  [0x1f300, 0x1f5ff], // Miscellaneous Symbols and Pictographs (emoji)
  [0x1f600, 0x1f64f], // Emoticons (DejaVu Sans has them)
  [0x1f680, 0x1f6ff], // Transport and Map Symbols
  [0x1f900, 0x1f9ff], // Supplemental Symbols and Pictographs
];

/**
 * Characters whose pairs keep their kerning: printable ASCII, curly quotes, en and em dash,
 * ellipsis (Latin-1 and Extended-A letters would multiply the data tenfold; their pairs are
 * kerned as their base letters').
 */
const KERNING_CHARACTERS: number[] = [...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i), 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2026];

/**
 * A face's kerning as one string: per pair, the left and right character, the adjustment
 * (font units, signed) and a comma — `AV-82,` — read positionally by the measurer.
 */
function kerningOf(buf: Uint8Array, font: OtFont): string {
  const glyphOf = new Map<number, number>();
  for (const cp of KERNING_CHARACTERS) {
    const g = font.charToGlyph(String.fromCodePoint(cp)).index;
    if (g !== 0) glyphOf.set(cp, g);
  }
  const pairs = gposPairKerning(buf, new Set(glyphOf.values()));
  let out = '';
  for (const [left, lg] of glyphOf) {
    const row = pairs.get(lg);
    if (!row) continue;
    for (const [right, rg] of glyphOf) {
      const v = row.get(rg);
      if (v) out += `${String.fromCodePoint(left)}${String.fromCodePoint(right)}${v},`;
    }
  }
  return out;
}

const FACES: Array<{ key: string; family: string; file: string }> = [];
function add(family: string, dir: string, base: string, styles: Record<string, string>): void {
  for (const [style, suffix] of Object.entries(styles)) FACES.push({ key: `${family}|${style}`, family, file: `${dir}/${base}${suffix}.ttf` });
}
const RBIBI = { regular: '-Regular', bold: '-Bold', italic: '-Italic', bolditalic: '-BoldItalic' };
add('Carlito', '/usr/share/fonts/truetype/crosextra', 'Carlito', RBIBI);
add('Caladea', '/usr/share/fonts/truetype/crosextra', 'Caladea', RBIBI);
add('Liberation Sans', '/usr/share/fonts/truetype/liberation2', 'LiberationSans', RBIBI);
add('Liberation Serif', '/usr/share/fonts/truetype/liberation2', 'LiberationSerif', RBIBI);
add('Liberation Mono', '/usr/share/fonts/truetype/liberation2', 'LiberationMono', RBIBI);
add('DejaVu Sans', '/usr/share/fonts/truetype/dejavu', 'DejaVuSans', { regular: '', bold: '-Bold', italic: '-Oblique', bolditalic: '-BoldOblique' });
add('DejaVu Serif', '/usr/share/fonts/truetype/dejavu', 'DejaVuSerif', { regular: '', bold: '-Bold', italic: '-Italic', bolditalic: '-BoldItalic' });

const lines: string[] = [];
lines.push('/* eslint-disable */');
lines.push('/**');
lines.push(' * GENERATED by scripts/gen-font-metrics.ts from the installed font files; do not edit.');
lines.push(' * Per face: units per em, vertical metrics (font units) and advance widths (font units)');
lines.push(' * as runs: `[firstCodePoint, w0, w1, ...]` for consecutive code points (-1 = glyph missing).');
lines.push(' */');
lines.push("import type { FaceMetricsData } from '../metrics-types.js';");
lines.push('');
lines.push('export const FACE_DATA: Readonly<Record<string, FaceMetricsData>> = {');
for (const face of FACES) {
  if (!existsSync(face.file)) throw new Error(`font file missing: ${face.file}`);
  const buf = readFileSync(face.file);
  const font = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const runs: number[][] = [];
  for (const [a, b] of RANGES) {
    let run: number[] | undefined;
    for (let cp = a; cp <= b; cp++) {
      const g = font.charToGlyph(String.fromCodePoint(cp));
      const w = g.index === 0 ? -1 : Math.round(g.advanceWidth ?? 0);
      if (!run) {
        run = [cp];
        runs.push(run);
      }
      run.push(w);
    }
  }
  // Trim runs that are entirely missing.
  const kept = runs.filter((r) => r.slice(1).some((w) => w >= 0));
  const os2 = font.tables.os2;
  const hhea = font.tables.hhea;
  lines.push(`  ${JSON.stringify(face.key)}: {`);
  lines.push(`    family: ${JSON.stringify(face.family)}, unitsPerEm: ${font.unitsPerEm},`);
  lines.push(`    hheaAscender: ${hhea.ascender}, hheaDescender: ${hhea.descender}, hheaLineGap: ${hhea.lineGap},`);
  lines.push(`    winAscent: ${os2.usWinAscent}, winDescent: ${os2.usWinDescent},`);
  lines.push(`    typoAscender: ${os2.sTypoAscender}, typoDescender: ${os2.sTypoDescender}, typoLineGap: ${os2.sTypoLineGap},`);
  // fsSelection bit 7: USE_TYPO_METRICS.
  if ((os2.fsSelection ?? 0) & 0x80) lines.push('    useTypoMetrics: true,');
  lines.push(`    underlinePosition: ${font.tables.post.underlinePosition}, underlineThickness: ${font.tables.post.underlineThickness},`);
  const kerning = kerningOf(buf, font);
  if (kerning) lines.push(`    kerning: ${JSON.stringify(kerning)},`);
  lines.push(`    runs: [`);
  for (const r of kept) lines.push(`      [${r.join(',')}],`);
  lines.push('    ],');
  lines.push('  },');
}
lines.push('};');
lines.push('');
writeFileSync(OUT, lines.join('\n'));
console.log(`wrote ${OUT} (${FACES.length} faces)`);
