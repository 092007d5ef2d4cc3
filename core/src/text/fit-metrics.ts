/**
 * The one metrics choice of every capacity and fit measurement: the doctor's capacities
 * (`doctor/capacity.ts`) and generation's text and table fitting (`generation/fit/`)
 * measure with {@link fitMetrics} and keep {@link HEIGHT_SAFETY} of a box's height, so the
 * room the doctor reports is the room fitting finds.
 *
 * Sizes are points; advances are measured per code point.
 */
import { ShippedFontMetrics, type FontMetrics, type FontSpec, type ResolvedFace, type VerticalMetrics } from './font-metrics.js';
import type { FontShape } from './font-class.js';
import { FACE_DATA } from './metrics-data/fonts.js';
import { EMU_PER_PT, layoutText, type TextBodyInput } from './layout.js';

/**
 * How much taller than ascent + descent (OS/2 win metrics, what the layout engine uses) a
 * line may be drawn: LibreOffice sets single-spaced lines by the `hhea` ascender,
 * descender and line gap, which for Liberation Sans is 3 % taller.
 */
function lineGapFactor(family: string, bold: boolean, italic: boolean): number {
  const style = bold ? (italic ? 'bolditalic' : 'bold') : italic ? 'italic' : 'regular';
  const d = FACE_DATA[`${family}|${style}`] ?? FACE_DATA[`${family}|regular`];
  if (!d) return 1;
  const win = d.winAscent + d.winDescent;
  const hhea = d.hheaAscender - d.hheaDescender + d.hheaLineGap;
  const typo = d.typoAscender - d.typoDescender + d.typoLineGap;
  // Relative to what the layout engine sets the line by (typo for USE_TYPO_METRICS faces),
  // and never below the win metrics: PowerPoint sets a line by them.
  const used = d.useTypoMetrics ? d.typoAscender - d.typoDescender : win;
  return used > 0 ? Math.max(1, win / used, hhea / used, typo / used) : 1;
}

/** Family that fontconfig (and so LibreOffice) draws a font with when the machine lacks it. */
const FALLBACK_FAMILY = 'DejaVu Sans';

/**
 * Metrics for fitting that hold on every renderer: a font with an exact metric twin
 * (Calibri/Carlito, Arial/Liberation Sans, ...) is measured as itself; any other font may
 * be drawn either in itself (PowerPoint on a machine that has it, approximated by the
 * nearest shipped class) or in DejaVu Sans (LibreOffice on a machine that lacks it), so
 * each character is measured with the wider of the two and each line with the taller.
 * Text is measured without pair kerning (`FontSpec.kerning` is ignored): the twins' advances
 * are the originals', their kerning pairs are their own, and kerning only narrows text.
 * Text fitted this way fits in both; it may be a little smaller than needed in PowerPoint.
 */
export class ConservativeMetrics implements FontMetrics {
  /** Per font name (and the shape its attributes give, see FontSpec.shapeHint): whether it is measured conservatively, and its per-style tables. */
  private readonly named = new Map<string, ConservativeName>();
  private readonly hinted: Record<FontShape, Map<string, ConservativeName>> = { serif: new Map(), sans: new Map(), mono: new Map() };

  /** @param base - the metrics measured with (the shipped data, without pair kerning) */
  constructor(private readonly base: FontMetrics = new ShippedFontMetrics({ pairKerning: false })) {}

  private namedOf(font: FontSpec): ConservativeName {
    const map = font.shapeHint ? this.hinted[font.shapeHint] : this.named;
    let n = map.get(font.name);
    if (n === undefined) {
      n = { inexact: !this.base.resolve(font.name, font.shapeHint).exact, ems: [], verticals: [] };
      map.set(font.name, n);
    }
    return n;
  }

  resolve(name: string, shapeHint?: FontShape): ResolvedFace {
    return this.base.resolve(name, shapeHint);
  }

  /** The wider advance of a code point in the font and in the fallback, in em. */
  private em(cp: number, font: FontSpec): number {
    const unit = { ...font, size_pt: 1 };
    return Math.max(this.base.advance(cp, unit), this.base.advance(cp, { ...unit, name: FALLBACK_FAMILY, shapeHint: undefined }));
  }

  /** The font's table of wider advances (in em), kept per name and style. */
  private emsOf(n: ConservativeName, font: FontSpec): EmTable {
    const i = (font.bold ? 1 : 0) | (font.italic ? 2 : 0);
    return n.ems[i] ?? (n.ems[i] = { flat: new Float64Array(FLAT_CODE_POINTS).fill(NaN), other: new Map<number, number>() });
  }

  /** A code point's wider advance in em, from the table (measured on first use). */
  private emIn(table: EmTable, cp: number, font: FontSpec): number {
    if (cp < FLAT_CODE_POINTS) {
      let v = table.flat[cp]!;
      if (Number.isNaN(v)) {
        v = this.em(cp, font);
        table.flat[cp] = v;
      }
      return v;
    }
    let v = table.other.get(cp);
    if (v === undefined) {
      v = this.em(cp, font);
      table.other.set(cp, v);
    }
    return v;
  }

  advance(cp: number, font: FontSpec): number {
    const n = this.namedOf(font);
    return n.inexact ? this.emIn(this.emsOf(n, font), cp, font) * font.size_pt : this.base.advance(cp, font);
  }

  measure(text: string, font: FontSpec): number {
    const n = this.namedOf(font);
    if (!n.inexact) return this.base.measure(text, font);
    const table = this.emsOf(n, font);
    let w = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
      }
      w += this.emIn(table, cp, font);
    }
    return w * font.size_pt;
  }

  /**
   * Vertical metrics at 1 pt (they scale linearly with the size), cached per font name
   * and style: the face's own, grown by its line gap, and for inexact faces the larger of
   * it and the fallback's.
   */
  private unitVertical(font: FontSpec): VerticalMetrics {
    const n = this.namedOf(font);
    const i = (font.bold ? 1 : 0) | (font.italic ? 2 : 0);
    let v = n.verticals[i];
    if (v === undefined) {
      const unit = { ...font, size_pt: 1 };
      const own = grown(this.base.vertical(unit), lineGapFactor(this.base.resolve(font.name, font.shapeHint).family, !!font.bold, !!font.italic));
      if (!n.inexact) v = own;
      else {
        const fb = grown(this.base.vertical({ ...unit, name: FALLBACK_FAMILY, shapeHint: undefined }), lineGapFactor(FALLBACK_FAMILY, !!font.bold, !!font.italic));
        const ascent = Math.max(own.ascent_pt, fb.ascent_pt);
        const descent = Math.max(own.descent_pt, fb.descent_pt);
        v = { ...own, ascent_pt: ascent, descent_pt: descent, lineHeight_pt: ascent + descent };
      }
      n.verticals[i] = v;
    }
    return v;
  }

  vertical(font: FontSpec): VerticalMetrics {
    const u = this.unitVertical(font);
    const k = font.size_pt;
    return {
      ascent_pt: u.ascent_pt * k,
      descent_pt: u.descent_pt * k,
      lineHeight_pt: u.lineHeight_pt * k,
      underlineOffset_pt: u.underlineOffset_pt * k,
      underlineThickness_pt: u.underlineThickness_pt * k,
    };
  }
}

/** Code points below this have their advances kept in a flat table, the others in a map. */
const FLAT_CODE_POINTS = 0x800;

/** Wider advances of one font name and style, in em (NaN in `flat`: not measured yet). */
interface EmTable {
  flat: Float64Array;
  other: Map<number, number>;
}

/** What {@link ConservativeMetrics} keeps per font name. */
interface ConservativeName {
  /** True when the name has no exact metric twin: measured with the wider of it and the fallback. */
  inexact: boolean;
  /** Per style (bit 0 bold, bit 1 italic). */
  ems: Array<EmTable | undefined>;
  verticals: Array<VerticalMetrics | undefined>;
}

/** Vertical metrics with ascent and descent grown by `k`. */
function grown(v: VerticalMetrics, k: number): VerticalMetrics {
  return k === 1 ? v : { ...v, ascent_pt: v.ascent_pt * k, descent_pt: v.descent_pt * k, lineHeight_pt: v.lineHeight_pt * k };
}

/** The metrics fitting measures with. */
export const fitMetrics: FontMetrics = new ConservativeMetrics();

/**
 * Share of a box's height that fitted text may use: 2 % is kept free so that small
 * differences between our line heights and an application's (rounding, leading) never
 * push the last line out.
 */
export const HEIGHT_SAFETY = 0.98;


/**
 * The height (pt, insets included) text needs when fitting lays it out in a box `widthEmu`
 * wide along its lines and `heightEmu` high, its sizes times `sizeScale` (as written: rounded
 * to hundredths of a point), its own `normAutofit` font scale and line-spacing reduction
 * dropped (fitting writes sizes and resets them). Fitting keeps a size when this is at most
 * {@link fittedBoxHeightPt} of the box.
 */
export function fittedHeightPt(body: TextBodyInput, widthEmu: number, heightEmu: number, sizeScale = 1): number {
  const written = (body.fontScale ?? 1) === 1 && (body.lnSpcReduction ?? 0) === 0 ? body : { ...body, fontScale: 1, lnSpcReduction: 0 };
  const box = { width_emu: widthEmu, height_emu: Math.floor(heightEmu * HEIGHT_SAFETY) };
  return layoutText(written, box, sizeScale === 1 ? FIT_LAYOUT : { ...FIT_LAYOUT, sizeScale }).totalHeight_pt;
}

/** The share of a box `heightEmu` high that fitted text may fill, pt ({@link HEIGHT_SAFETY}). */
export function fittedBoxHeightPt(heightEmu: number): number {
  return Math.floor(heightEmu * HEIGHT_SAFETY) / EMU_PER_PT;
}

/**
 * Layout options of every fitting measurement: {@link fitMetrics}, LibreOffice's space
 * between East Asian and other text (`layout.ts` asianSpacing; PowerPoint adds none, so
 * text fitted with it fits in both), heights only.
 */
export const FIT_LAYOUT = { metrics: fitMetrics, asianSpacing: true, tallEastAsianLines: true, measureOnly: true } as const;
