/**
 * Pair kerning of an OpenType font, read from its GPOS table (OpenType spec, "GPOS — Glyph
 * Positioning Table": lookup type 2, pair adjustment, formats 1 and 2, also behind lookup
 * type 9 extensions) for the `kern` feature of the Latin script (its default language
 * system), falling back to the default script. Only the first glyph's horizontal advance
 * adjustment (ValueRecord XAdvance) is read: that is what moves the next glyph in
 * horizontal text. Used by gen-font-metrics.ts; opentype.js leaves extension lookups
 * unread (Carlito's kerning sits behind one).
 */

const KERN = 'kern';

class Reader {
  constructor(private readonly view: DataView) {}
  u16(at: number): number {
    return this.view.getUint16(at);
  }
  i16(at: number): number {
    return this.view.getInt16(at);
  }
  u32(at: number): number {
    return this.view.getUint32(at);
  }
  tag(at: number): string {
    return String.fromCharCode(this.view.getUint8(at), this.view.getUint8(at + 1), this.view.getUint8(at + 2), this.view.getUint8(at + 3));
  }
}

/** Offset of a table in the font file (sfnt table directory), or undefined. */
function tableOffset(r: Reader, tag: string): number | undefined {
  const count = r.u16(4);
  for (let i = 0; i < count; i++) {
    const rec = 12 + i * 16;
    if (r.tag(rec) === tag) return r.u32(rec + 8);
  }
  return undefined;
}

/** Glyph ids a coverage table lists, in coverage index order. */
function coverage(r: Reader, at: number): number[] {
  const format = r.u16(at);
  const out: number[] = [];
  if (format === 1) {
    const n = r.u16(at + 2);
    for (let i = 0; i < n; i++) out.push(r.u16(at + 4 + i * 2));
  } else if (format === 2) {
    const n = r.u16(at + 2);
    for (let i = 0; i < n; i++) {
      const rec = at + 4 + i * 6;
      const start = r.u16(rec);
      const end = r.u16(rec + 2);
      const first = r.u16(rec + 4);
      for (let g = start; g <= end; g++) out[first + g - start] = g;
    }
  }
  return out;
}

/** Class of each glyph a class definition table names (glyphs not named are class 0). */
function classDef(r: Reader, at: number): Map<number, number> {
  const format = r.u16(at);
  const out = new Map<number, number>();
  if (format === 1) {
    const start = r.u16(at + 2);
    const n = r.u16(at + 4);
    for (let i = 0; i < n; i++) out.set(start + i, r.u16(at + 6 + i * 2));
  } else if (format === 2) {
    const n = r.u16(at + 2);
    for (let i = 0; i < n; i++) {
      const rec = at + 4 + i * 6;
      const cls = r.u16(rec + 4);
      for (let g = r.u16(rec); g <= r.u16(rec + 2); g++) out.set(g, cls);
    }
  }
  return out;
}

/** Size of a ValueRecord of this format, bytes (one 16-bit field per bit set). */
function valueSize(format: number): number {
  let n = 0;
  for (let f = format; f; f >>= 1) n += f & 1;
  return n * 2;
}

/** XAdvance of a ValueRecord (0 when the format has none). */
function xAdvance(r: Reader, at: number, format: number): number {
  if (!(format & 0x0004)) return 0;
  // XPlacement and YPlacement come before XAdvance when present
  return r.i16(at + ((format & 0x0001) ? 2 : 0) + ((format & 0x0002) ? 2 : 0));
}

/**
 * Kerning of the pairs of `glyphs` (glyph ids), font units: `(left, right) → adjustment`
 * for every pair the font adjusts. The first subtable that covers a pair decides it, as a
 * shaper applies a lookup. Empty when the font has no GPOS kerning.
 */
export function gposPairKerning(font: Uint8Array, glyphs: ReadonlySet<number>): Map<number, Map<number, number>> {
  const r = new Reader(new DataView(font.buffer, font.byteOffset, font.byteLength));
  const out = new Map<number, Map<number, number>>();
  const gpos = tableOffset(r, 'GPOS');
  if (gpos === undefined) return out;
  const scriptList = gpos + r.u16(gpos + 4);
  const featureList = gpos + r.u16(gpos + 6);
  const lookupList = gpos + r.u16(gpos + 8);
  // the Latin script's default language system, else the default script's
  let langSys: number | undefined;
  for (const want of ['latn', 'DFLT']) {
    for (let i = 0; i < r.u16(scriptList) && langSys === undefined; i++) {
      const rec = scriptList + 2 + i * 6;
      if (r.tag(rec) !== want) continue;
      const script = scriptList + r.u16(rec + 4);
      const def = r.u16(script);
      if (def) langSys = script + def;
    }
    if (langSys !== undefined) break;
  }
  if (langSys === undefined) return out;
  const lookups: number[] = [];
  const featureCount = r.u16(langSys + 4);
  for (let i = 0; i < featureCount; i++) {
    const index = r.u16(langSys + 6 + i * 2);
    const rec = featureList + 2 + index * 6;
    if (r.tag(rec) !== KERN) continue;
    const feature = featureList + r.u16(rec + 4);
    for (let k = 0; k < r.u16(feature + 2); k++) lookups.push(r.u16(feature + 4 + k * 2));
  }
  // lookups apply in lookup-list order
  lookups.sort((a, b) => a - b);
  const decided = new Set<number>();
  const set = (left: number, right: number, value: number): void => {
    const key = left * 65536 + right;
    if (decided.has(key)) return;
    decided.add(key);
    if (value === 0) return;
    let row = out.get(left);
    if (!row) out.set(left, (row = new Map()));
    row.set(right, value);
  };
  for (const index of lookups) {
    const lookup = lookupList + r.u16(lookupList + 2 + index * 2);
    const lookupType = r.u16(lookup);
    for (let s = 0; s < r.u16(lookup + 4); s++) {
      let sub = lookup + r.u16(lookup + 6 + s * 2);
      let type = lookupType;
      if (type === 9) {
        // extension: the real subtable at a 32-bit offset
        type = r.u16(sub + 2);
        sub += r.u32(sub + 4);
      }
      if (type !== 2) continue;
      const format = r.u16(sub);
      const firsts = coverage(r, sub + r.u16(sub + 2));
      const vf1 = r.u16(sub + 4);
      const vf2 = r.u16(sub + 6);
      const recordSize = valueSize(vf1) + valueSize(vf2);
      if (format === 1) {
        firsts.forEach((left, ci) => {
          if (!glyphs.has(left)) return;
          const pairSet = sub + r.u16(sub + 10 + ci * 2);
          for (let p = 0; p < r.u16(pairSet); p++) {
            // PairValueRecord: the second glyph, then the two value records
            const rec = pairSet + 2 + p * (2 + recordSize);
            const right = r.u16(rec);
            if (glyphs.has(right)) set(left, right, xAdvance(r, rec + 2, vf1));
          }
        });
      } else if (format === 2) {
        const class1 = classDef(r, sub + r.u16(sub + 8));
        const class2 = classDef(r, sub + r.u16(sub + 10));
        const class2Count = r.u16(sub + 14);
        const records = sub + 16;
        for (const left of firsts) {
          if (left === undefined || !glyphs.has(left)) continue;
          const c1 = class1.get(left) ?? 0;
          for (const right of glyphs) {
            const c2 = class2.get(right) ?? 0;
            set(left, right, xAdvance(r, records + (c1 * class2Count + c2) * recordSize, vf1));
          }
        }
      }
    }
  }
  return out;
}
