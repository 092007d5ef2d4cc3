/**
 * The one text-style resolver of PresentationML: reads a DrawingML text body (ECMA-376
 * Part 1, §21.1.2: `a:bodyPr` §21.1.2.1.1, `a:p` §21.1.2.2.6, `a:pPr` §21.1.2.2.7,
 * `a:r`/`a:rPr` §21.1.2.3.8/.9, bullets §21.1.2.4) into the intermediate text form
 * {@link TextBodyInput}, resolving every paragraph and run property along the
 * PresentationML inheritance chain (run `a:rPr` → paragraph `a:pPr/a:defRPr` → the shape's
 * and its base placeholders' `a:lstStyle` → the shape style's font reference §20.1.4.2.10 →
 * the master's `p:txStyles` §19.3.1.52 and the presentation's `p:defaultTextStyle`
 * §19.2.1.8), level by level (`lvlNpPr`, N = `lvl` + 1, then `a:defPPr`; §21.1.2.4.13).
 *
 * Analysis (ooxml/pml/text.ts `effectiveFont`, `effectiveParagraph`, `effectiveTextFrame`),
 * the doctor's capacity, text fitting and rendering all read text through this module, so
 * they agree by construction: rendering only draws the input it is given. Generation's
 * paragraphs still held as a model (generation/draft) are read by generation
 * ({@link appendParagraphModel}): this module never decodes a draft's markers.
 */
import { NS, attr, attrNS, boolAttr, child, children, intAttr, parseXml, type Document, type Element } from '../xml.js';
import type { Shape } from './shapes.js';
import { resolveThemeFont, scriptOfLanguage, type Theme, type ThemeFontCollection } from './theme.js';
import { shapeFromAttributes, type FontShape } from '../../text/font-class.js';
import type { ParagraphInput, Spacing, TextBodyInput, TextRunInput } from '../../text/layout.js';
import { readOuterShadow } from './effects.js';
import { isRightToLeftLanguage, slotOfLanguage } from '../../text/script.js';
import { colorIn, rgbaToHex, type ColorContext, type Rgba } from './color.js';
import { BoundedMemo } from '../../bounded-memo.js';

/**
 * Which master text style (`p:txStyles`, ECMA-376 Part 1, §19.3.1.52) a shape's text
 * inherits from: `titleStyle` for title placeholders, `otherStyle` for date, footer,
 * slide-number and header placeholders, `bodyStyle` for the other placeholders; undefined
 * for a shape that is no placeholder (a text box reads `p:defaultTextStyle` first).
 */
export function masterTextStyleFor(shape: Shape): 'titleStyle' | 'bodyStyle' | 'otherStyle' | undefined {
  const ph = shape.placeholder;
  if (!ph) return undefined;
  switch (ph.type) {
    case 'title':
    case 'ctrTitle':
      return 'titleStyle';
    case 'dt':
    case 'ftr':
    case 'sldNum':
    case 'hdr':
      return 'otherStyle';
    default:
      return 'bodyStyle';
  }
}

/** Where a text body's inherited properties come from. */
export interface TextStyleSources {
  /** List styles nearest first (the shape's own `a:lstStyle`, then its base placeholders'). */
  near: Element[];
  /** Master text style then presentation default (or the reverse for text boxes). */
  far: Element[];
  /** `p:style/a:fontRef` typeface reference (`+mj-lt`/`+mn-lt`) and colour. */
  fontRefFace?: string;
  fontRefColor?: Rgba;
  /** `a:bodyPr` elements nearest first. */
  bodyPrs: Element[];
  theme: Theme;
  colorCtx: ColorContext;
  /** Typeface used when nothing names one (`+mn-lt` or `+mj-lt` resolved, else a drawable fallback). */
  defaultFace: string;
  /**
   * The theme's typeface for text that names none (`+mj-lt` for titles, `+mn-lt` otherwise),
   * '' when the theme has none; unset reads as {@link defaultFace}. What analysis reports
   * (it never reports a drawing fallback).
   */
  themeDefaultFace?: string;
  /**
   * Outline levels resolved from these sources, filled by {@link readTextBody}: a cache
   * that lives and dies with the sources object (sources shared by many text bodies, such
   * as a table's cells, resolve each level once). Deliberately not a WeakMap beside the
   * sources: V8's scavenger keeps ephemeron values of young keys alive, which promoted
   * every slide's trees to the old generation and doubled a deck's peak memory.
   */
  levelStyles?: Array<LevelStyle | undefined>;
  /**
   * False for text LibreOffice does not set on the presentation's default text style (table
   * cells): a run there whose `a:cs` names an empty theme slot gets no inherited
   * complex-script face (`FontSpec.inheritedComplexScript`, text/font-metrics.ts). Unset: true.
   */
  inheritsComplexFace?: boolean;
}

/** The style sources for a PresentationML shape's text. */
export function shapeTextSources(shape: Shape, colorCtx: ColorContext): TextStyleSources {
  const near: Element[] = [];
  const bodyPrs: Element[] = [];
  // a shape whose own list style says something has sources of its own; otherwise they are
  // its placeholders', which every slide on the same layout shares
  let shareable = true;
  for (const s of shape.chain()) {
    const ls = child(s.txBody, NS.a, 'lstStyle');
    // an empty list style gives no level anything
    if (ls && hasElementChild(ls)) {
      if (s === shape) shareable = false;
      near.push(ls);
    }
    const bp = child(s.txBody, NS.a, 'bodyPr');
    if (bp) bodyPrs.push(bp);
  }
  const styleName = masterTextStyleFor(shape);
  const defaults = shape.part.model.presentation.defaultTextStyle;
  const far: Element[] = [];
  const master = shape.part.master;
  if (styleName) {
    const ms = master.textStyle(styleName);
    if (ms) far.push(ms);
    if (defaults) far.push(defaults);
  } else {
    if (defaults) far.push(defaults);
    const os = master.textStyle('otherStyle');
    if (os) far.push(os);
  }
  const fontRef = child(child(shape.element, NS.p, 'style'), NS.a, 'fontRef');
  const idx = attr(fontRef, 'idx');
  const theme = shape.part.theme;
  const fontRefFace = idx === 'major' ? '+mj-lt' : idx === 'minor' ? '+mn-lt' : undefined;
  const fontRefColor = fontRef ? colorIn(fontRef, colorCtx) : undefined;
  const themeDefaultFace = resolveThemeFont(styleName === 'titleStyle' ? '+mj-lt' : '+mn-lt', theme);
  return {
    near,
    far,
    fontRefFace,
    fontRefColor,
    bodyPrs,
    theme,
    colorCtx,
    defaultFace: themeDefaultFace || 'Calibri',
    themeDefaultFace,
    levelStyles: shareable ? sharedLevelStyles(theme, near, far, fontRefFace, fontRefColor, colorCtx) : undefined,
  };
}

/**
 * `src` with level styles shared by every text body with the same sources (see
 * {@link shapeTextSources}); for sources made of template elements only, such as a
 * table's cells that have no list style of their own.
 */
export function withSharedLevelStyles(src: TextStyleSources): TextStyleSources {
  return { ...src, levelStyles: sharedLevelStyles(src.theme, src.near, src.far, src.fontRefFace, src.fontRefColor, src.colorCtx) };
}

/**
 * Level styles shared by every text body with the same style sources (the same template
 * list styles, font reference and colour context): the placeholders of all slides on one
 * layout resolve each outline level once. Kept per theme (so per opened template), at
 * most {@link MAX_SHARED_STYLE_SETS} sets each.
 *
 * A memo of the theme object, not a cache of its own: it lives and dies with the `Theme` of
 * a reading model, which the thread's opened templates (opened-templates.ts) hold, and
 * cannot go stale (keys are element identities). It stays keyed by the theme because
 * sources built without a package (a table's cells in fitting) know only their theme.
 */
const sharedStyles = new WeakMap<Theme, BoundedMemo<Array<LevelStyle | undefined>>>();
const MAX_SHARED_STYLE_SETS = 512;
/** Identities of the template elements and colour maps keying {@link sharedStyles}. */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;

function rgbaKey(c: Rgba | undefined): string {
  return c ? `${c.r},${c.g},${c.b},${c.a}` : '';
}

function hasElementChild(e: Element): boolean {
  for (let c = e.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) return true;
  return false;
}

function identity(o: object): number {
  let id = identities.get(o);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(o, id);
  }
  return id;
}

function sharedLevelStyles(theme: Theme, near: readonly Element[], far: readonly Element[], face: string | undefined, color: Rgba | undefined, ctx: ColorContext): Array<LevelStyle | undefined> {
  let sets = sharedStyles.get(theme);
  if (!sets) {
    sets = new BoundedMemo(MAX_SHARED_STYLE_SETS);
    sharedStyles.set(theme, sets);
  }
  let key = `${face ?? ''}|${rgbaKey(color)}|${identity(ctx.colorMap)}|${identity(ctx.theme)}|${rgbaKey(ctx.phClr)}|`;
  for (const e of near) key += `${identity(e)},`;
  key += '|';
  for (const e of far) key += `${identity(e)},`;
  return sets.get(key) ?? sets.set(key, []);
}

/** Wingdings / Symbol bullet characters mapped to Unicode look-alikes. */
const SYMBOL_BULLETS: Record<string, Record<string, string>> = {
  wingdings: { '§': '▪', 'Ø': '➢', 'ü': '✓', 'û': '✗', 'ý': '☒', 'þ': '☑', 'w': '⬥', 'F': '☞', 'J': '☺', 'q': '❑', 'v': '❖', 'l': '●', 'n': '■', 'Ÿ': '•', 'ð': '⇨', 'è': '➔', 'à': '➔', 'Ü': '✓', 'o': '□', 'p': '◆', 'u': '◆', 's': '♦', 'Ê': '☺', 'ª': '▪', '¡': '○' },
  symbol: { '·': '•', '¨': '♦', 'Þ': '⇒', '®': '→' },
  'wingdings 2': { '': '▪', '¨': '■', 'ê': '✓' },
  'wingdings 3': { '}': '▶', 'u': '▶', 'Ø': '▶', 'Ú': '▶', 'Æ': '▶', '': '➢' },
};

/**
 * The Unicode look-alike of a bullet character of a symbol font. Symbol fonts' characters
 * come either as their 8-bit codes or moved into the Private Use Area at U+F000 + code (as
 * PowerPoint writes `buChar` for them, §21.1.2.4.3 with `buFont` charset 2); both are
 * looked up by the code.
 */
function mapBulletChar(ch: string, font: string | undefined): string {
  const table = SYMBOL_BULLETS[(font ?? '').toLowerCase()];
  const code = ch.charCodeAt(0);
  const symbolArea = code >= 0xf000 && code <= 0xf0ff;
  if (table) return table[ch] ?? (symbolArea ? table[String.fromCharCode(code - 0xf000)] : undefined) ?? '•';
  if (symbolArea) return '•';
  return ch;
}

function toRoman(n: number): string {
  const t: Array<[number, string]> = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  let s = '';
  let x = n;
  for (const [v, r] of t) while (x >= v) { s += r; x -= v; }
  return s;
}

function autoNumber(type: string, n: number): string {
  const alpha = (k: number): string => { let s = ''; let x = k; while (x > 0) { x--; s = String.fromCharCode(97 + (x % 26)) + s; x = Math.floor(x / 26); } return s; };
  const m = /^(arabic|alphaLc|alphaUc|romanLc|romanUc)(Period|ParenR|ParenBoth|Plain|Minus)?/.exec(type);
  const kind = m?.[1] ?? 'arabic';
  const punct = m?.[2] ?? 'Period';
  let core = String(n);
  if (kind === 'alphaLc') core = alpha(n);
  else if (kind === 'alphaUc') core = alpha(n).toUpperCase();
  else if (kind === 'romanLc') core = toRoman(n);
  else if (kind === 'romanUc') core = toRoman(n).toUpperCase();
  switch (punct) {
    case 'ParenR': return `${core})`;
    case 'ParenBoth': return `(${core})`;
    case 'Plain': return core;
    case 'Minus': return `${core} -`;
    default: return `${core}.`;
  }
}

/** Child names looked up in paragraph properties (constant arrays: level styles cache by identity). */
const BULLET_KIND = ['buNone', 'buAutoNum', 'buChar', 'buBlip'] as const;
const BU_FONT = ['buFontTx', 'buFont'] as const;
const BU_CLR = ['buClrTx', 'buClr'] as const;
const BU_SZ = ['buSzTx', 'buSzPct', 'buSzPts'] as const;
const LN_SPC = ['lnSpc'] as const;
const SPC_BEF = ['spcBef'] as const;
const SPC_AFT = ['spcAft'] as const;

/** Options of {@link readTextBody}. */
export interface ReadTextOptions {
  /** Replace `a:fld type="slidenum"` text with this (e.g. the slide number). */
  slideNumber?: string;
}

/**
 * Reads `txBody` with `src` into the layout input. Font names are the template's names
 * (theme references resolved); the caller maps them to drawable faces.
 */
export function readTextBody(txBody: Element | undefined, src: TextStyleSources, options: ReadTextOptions = {}): TextBodyInput {
  const frame = textFrameOf(src.bodyPrs);
  const body: TextBodyInput = {
    paragraphs: [],
    lIns_emu: frame.insetLeft,
    tIns_emu: frame.insetTop,
    rIns_emu: frame.insetRight,
    bIns_emu: frame.insetBottom,
    // the layout engine anchors top, middle or bottom; `just`/`dist` lay out from the top
    anchor: (frame.anchor === 'ctr' || frame.anchor === 'b' ? frame.anchor : 't') as TextBodyInput['anchor'],
    wrap: frame.wrap,
    fontScale: frame.fontScale,
    lnSpcReduction: frame.lnSpcReduction,
  };
  if (!txBody) return body;
  const counters = new Map<number, number>();
  for (const p of children(txBody, NS.a, 'p')) {
    const pPr = child(p, NS.a, 'pPr');
    const level = Math.max(0, Math.min(8, intAttr(pPr, 'lvl', 0)));
    const style = new ParagraphStyle(src, levelStyleOf(src, level), pPr);
    const runs: TextRunInput[] = [];
    for (const r of children(p, NS.a)) {
      if (r.localName !== 'r' && r.localName !== 'fld' && r.localName !== 'br') continue;
      const rPr = child(r, NS.a, 'rPr');
      const rp = style.runProps(rPr);
      if (r.localName === 'br') {
        runs.push({ text: '', font: rp.font, lineBreak: true });
        continue;
      }
      let text = child(r, NS.a, 't')?.textContent ?? '';
      // Hyperlinked runs show in the theme's hyperlink colour, underlined (as PowerPoint and LibreOffice draw them).
      const linkRid = attrNS(child(rPr, NS.a, 'hlinkClick'), NS.r, 'id');
      if (linkRid) {
        const link = colorIn(HLINK, src.colorCtx);
        if (link) {
          runs.push({ ...rp.withText(text), color: rgbaToHex(link), alpha: 1, underline: true, link_rid: linkRid });
          continue;
        }
      }
      if (r.localName === 'fld' && attr(r, 'type') === 'slidenum' && options.slideNumber !== undefined) text = options.slideNumber;
      runs.push(rp.withText(text));
    }
    const end = style.runProps(child(p, NS.a, 'endParaRPr'));
    body.paragraphs.push(style.input(runs, end.font, level, counters));
  }
  return body;
}

/** Text frame properties (`a:bodyPr`, ECMA-376 Part 1, §21.1.2.1.1) resolved along the placeholder chain. */
export interface TextFrameProperties {
  /** Insets in EMU (schema defaults 91440 left/right, 45720 top/bottom). */
  insetLeft: number;
  insetTop: number;
  insetRight: number;
  insetBottom: number;
  /** `anchor` (ST_TextAnchoringType) as written: `t` (default), `ctr`, `b`, `just`, `dist`. */
  anchor: string;
  /** `wrap="square"` (default) wraps; `none` does not. */
  wrap: boolean;
  /** `a:noAutofit` / `a:normAutofit` (shrink text on overflow) / `a:spAutoFit` (resize shape); `none` when unset. */
  autofit: 'none' | 'normal' | 'shape';
  /** `a:normAutofit/@fontScale` as a fraction (1 = 100 %). */
  fontScale: number;
  /** `a:normAutofit/@lnSpcReduction` as a fraction (0 = none). */
  lnSpcReduction: number;
  /** `vert` (ST_TextVerticalType), `horz` by default. */
  vertical: string;
  /** `numCol`, 1 by default. */
  columns: number;
}

/**
 * The effective text frame of `bodyPrs` (nearest first, as in {@link TextStyleSources}):
 * each attribute from the nearest `a:bodyPr` that sets it, the autofit choice from the
 * nearest that holds one of `a:noAutofit`, `a:normAutofit`, `a:spAutoFit`, else the schema
 * defaults.
 */
export function textFrameOf(bodyPrs: readonly Element[]): TextFrameProperties {
  const pick = <T>(f: (b: Element) => T | undefined): T | undefined => {
    for (const b of bodyPrs) {
      const v = f(b);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  let autofit: TextFrameProperties['autofit'] = 'none';
  let fontScale = 1;
  let lnSpcReduction = 0;
  fits: for (const b of bodyPrs) {
    for (const c of children(b, NS.a)) {
      if (c.localName === 'noAutofit') break fits;
      if (c.localName === 'spAutoFit') {
        autofit = 'shape';
        break fits;
      }
      if (c.localName === 'normAutofit') {
        autofit = 'normal';
        fontScale = intAttr(c, 'fontScale', 100000) / 100000;
        lnSpcReduction = intAttr(c, 'lnSpcReduction', 0) / 100000;
        break fits;
      }
    }
  }
  return {
    insetLeft: pick((b) => intAttr(b, 'lIns')) ?? 91440,
    insetTop: pick((b) => intAttr(b, 'tIns')) ?? 45720,
    insetRight: pick((b) => intAttr(b, 'rIns')) ?? 91440,
    insetBottom: pick((b) => intAttr(b, 'bIns')) ?? 45720,
    anchor: pick((b) => attr(b, 'anchor')) ?? 't',
    wrap: pick((b) => attr(b, 'wrap')) !== 'none',
    autofit,
    fontScale,
    lnSpcReduction,
    vertical: pick((b) => attr(b, 'vert')) ?? 'horz',
    columns: pick((b) => intAttr(b, 'numCol')) ?? 1,
  };
}

/**
 * The resolved properties of paragraphs with paragraph properties `pPr` at outline level
 * `level` (0–8) of a text body read with `src`: what {@link readTextBody} lays out, for
 * readers that want the facts of one paragraph (analysis).
 */
export function paragraphStyleOf(src: TextStyleSources, level: number, pPr: Element | undefined): ParagraphStyle {
  return new ParagraphStyle(src, levelStyleOf(src, Math.max(0, Math.min(8, level))), pPr);
}

/** The style of outline level `level` (0–8) resolved from `src`, made once and kept with it. */
function levelStyleOf(src: TextStyleSources, level: number): LevelStyle {
  const styles = (src.levelStyles ??= []);
  return styles[level] ?? (styles[level] = new LevelStyle(src, level));
}

/**
 * Paragraphs described by the template formatting every one of them shares and their
 * strings, all at level 0: what generation writes into most text bodies (its draft keeps
 * them so until the part is written). Paragraph `i` is `lines[i]` split at line breaks; an
 * empty piece writes no run.
 */
export interface ParagraphModel {
  /** `a:pPr` of every paragraph (its `lvl` ignored), if any. */
  readonly paraProps: Element | undefined;
  /** `a:rPr` of every run and break; undefined reads as `lang="en-US"`. */
  readonly runProps: Element | undefined;
  /** `a:endParaRPr` of every paragraph (same default). */
  readonly endProps: Element | undefined;
  readonly lines: readonly (readonly string[])[];
  /** Per paragraph, `sz` (hundredths of a point) of its runs and breaks in order and of its end; unset: inherited. */
  readonly sizes?: ReadonlyArray<{ runs: readonly number[]; end: number | undefined }>;
}

/**
 * Appends the paragraphs of `model` to `body`, read as the nodes they stand for would be
 * (level 0, the template's properties on every run), their shared formatting resolved once
 * per set of style sources.
 *
 * @param bodyDoc - the document the text body belongs to (whose own elements are not kept in shared styles)
 */
export function appendParagraphModel(body: TextBodyInput, model: ParagraphModel, bodyDoc: Document | null, src: TextStyleSources): void {
  const read = levelStyleOf(src, 0).modelParagraphs(model, bodyDoc);
  const counters = new Map<number, number>();
  model.lines.forEach((segments, pi) => {
    const sizes = model.sizes?.[pi];
    const runs: TextRunInput[] = [];
    let ri = 0;
    const runOf = (): ResolvedRun => {
      const sz = sizes?.runs[ri++];
      return sz !== undefined ? read.run.sized(sz) : read.run;
    };
    segments.forEach((seg, i) => {
      if (i > 0) runs.push({ text: '', font: runOf().font, lineBreak: true });
      if (seg !== '') runs.push(runOf().withText(seg));
    });
    const end = sizes?.end !== undefined ? read.end.sized(sizes.end) : read.end;
    body.paragraphs.push(read.paragraph.input(runs, end.font, 0, counters));
  });
}

/** What a run's resolved properties report beyond what is drawn (see {@link ResolvedRun}). */
interface RunFacts {
  /** The Latin typeface the template gives the run, theme references resolved; null when nothing names one. */
  readonly face: string | null;
  /** The colour of the run's text fill; null for `a:noFill`, a picture fill or a colour that does not resolve. */
  readonly fill: Rgba | null;
}

/**
 * A run's resolved properties (font, colour, decoration): what every run with the same
 * `a:rPr` under the same paragraph properties gets.
 */
export class ResolvedRun {
  private readonly hex: string | undefined;
  /** Sized copies by `sz` (hundredths of a point); a body's runs use one or two sizes. */
  private sizedCopies?: Map<number, ResolvedRun>;

  constructor(
    /** The font drawn: the template's typeface, else the theme's or a drawable fallback. */
    readonly font: TextRunInput['font'],
    /** The colour drawn (transparent for `a:noFill`). */
    readonly color: Rgba | undefined,
    private readonly decoration: Pick<TextRunInput, 'underline' | 'strike' | 'highlight' | 'shadow' | 'baseline_pct' | 'spacing_pt' | 'cap'>,
    /** What analysis reports of the run. */
    readonly facts: RunFacts,
    /** The inherited `kern` threshold, hundredths of a point ({@link kerningApplies}); a sized copy decides its kerning anew. */
    private readonly kernThreshold?: number,
  ) {
    this.hex = color ? rgbaToHex(color) : undefined;
  }

  /** A layout run of `text` with these properties. */
  withText(text: string): TextRunInput {
    return { text, font: this.font, color: this.hex, alpha: this.color?.a, ...this.decoration };
  }

  /** The same properties at `sz` hundredths of a point (an explicit `sz` overrides any inherited one). */
  sized(sz: number): ResolvedRun {
    let copy = this.sizedCopies?.get(sz);
    if (copy === undefined) {
      copy = new ResolvedRun({ ...this.font, size_pt: sz / 100, kerning: kerningApplies(this.kernThreshold, sz) }, this.color, this.decoration, this.facts, this.kernThreshold);
      (this.sizedCopies ??= new Map()).set(sz, copy);
    }
    return copy;
  }
}

/** How a paragraph's bullet is drawn, all but its text's size and number. */
interface BulletStyle {
  /** `a:buChar`, `a:buAutoNum` or `a:buBlip`. */
  kind: Element;
  /** The bullet's own typeface, theme reference resolved (`a:buFont`). */
  fontName: string | undefined;
  color: Rgba | undefined;
  /** `a:buSzPct` / `a:buSzPts`, if any. */
  size: Element | undefined;
  /** The character drawn for `a:buChar` (symbol fonts mapped to Unicode look-alikes). */
  char: string;
  /** True when the bullet font is a symbol font (the bullet is drawn in the text's font). */
  symbolic: boolean;
}

/** A paragraph's resolved properties as written (what analysis reports; {@link ParagraphStyle.input} lays them out). */
export interface ParagraphFacts {
  /** `algn` (ST_TextAlignType) as written: `l` (default), `ctr`, `r`, `just`, `justLow`, `dist`, `thaiDist`. */
  align: string;
  /** Right-to-left paragraph (`rtl`, xsd:boolean). */
  rtl: boolean;
  /** `marL`, `indent`, `marR` in EMU, 0 by default. */
  marL_emu: number;
  indent_emu: number;
  marR_emu: number;
  /** `a:lnSpc`, `a:spcBef`, `a:spcAft`; undefined when nothing sets them. */
  lineSpacing: Spacing | undefined;
  spaceBefore: Spacing | undefined;
  spaceAfter: Spacing | undefined;
  /** The paragraph shows a bullet or number (`a:buChar`, `a:buAutoNum`, `a:buBlip`; `a:buNone` or nothing: none). */
  bullet: boolean;
  /** `hangingPunct` (xsd:boolean); absent counts as true. */
  hangingPunct: boolean;
}

/**
 * The properties of paragraphs with one `a:pPr` at one outline level: the paragraph's own
 * properties first, then the level's inherited ones (§21.1.2.2.7).
 */
export class ParagraphStyle {
  private readonly ownDefRPr: Element | undefined;
  private fields?: Omit<ParagraphInput, 'runs' | 'endFont' | 'bullet'>;
  private paragraphFacts?: ParagraphFacts;
  private bulletStyle?: BulletStyle | null;

  constructor(private readonly src: TextStyleSources, private readonly lvl: LevelStyle, private readonly pPr: Element | undefined) {
    this.ownDefRPr = child(pPr, NS.a, 'defRPr');
  }

  private pAttr(name: string): string | undefined {
    return attr(this.pPr, name) ?? this.lvl.attr(name);
  }

  private pChild(names: readonly string[]): Element | undefined {
    if (this.pPr) for (const c of children(this.pPr, NS.a)) if (names.includes(c.localName ?? '')) return c;
    return this.lvl.child(names);
  }

  private spacing(names: readonly string[]): Spacing | undefined {
    const el = this.pChild(names);
    if (!el) return undefined;
    const pct = child(el, NS.a, 'spcPct');
    if (pct) return { pct: intAttr(pct, 'val', 100000) / 1000 };
    const pts = child(el, NS.a, 'spcPts');
    if (pts) return { pts: intAttr(pts, 'val', 0) / 100 };
    return undefined;
  }

  /** The properties of a run with `rPr` (or of the end of the paragraph, `a:endParaRPr`). */
  runProps(rPr: Element | undefined): ResolvedRun {
    const ownDefRPr = this.ownDefRPr;
    const src = this.src;
    const own = (f: (e: Element) => string | undefined): string | undefined => {
      if (rPr) { const v = f(rPr); if (v !== undefined) return v; }
      if (ownDefRPr) return f(ownDefRPr);
      return undefined;
    };
    const ownAttr = (name: string): string | undefined => (rPr ? attr(rPr, name) : undefined) ?? (ownDefRPr ? attr(ownDefRPr, name) : undefined);
    const d = this.lvl.runDefaults;
    // the a:latin that names the typeface also says its class (panose, pitchFamily)
    const ownLatin = latinNaming(rPr) ?? latinNaming(ownDefRPr);
    const face = ownLatin ? attr(ownLatin, 'typeface') : d.face;
    const lang = ownAttr('lang') ?? d.lang;
    const altLang = ownAttr('altLang') ?? d.altLang;
    // the run's Asian language: `lang` when it is one, else `altLang` (what LibreOffice imports as the Asian locale)
    const eastAsianLang = lang && slotOfLanguage(lang) === 'ea' ? lang : altLang && slotOfLanguage(altLang) === 'ea' ? altLang : undefined;
    const themed = face ? resolveThemeFont(face, src.theme, lang) : '';
    const name = themed || src.defaultFace;
    // the complex-script face as LibreOffice reads it: the theme's a:cs slot, not its per-script list
    const csFace = typefaceOf(child(rPr, NS.a, 'cs')) ?? typefaceOf(child(ownDefRPr, NS.a, 'cs')) ?? d.cs;
    const complexScript = csFace ? resolveThemeFont(csFace, src.theme) : '';
    // LibreOffice reads a reference to an empty theme slot as naming nothing: the next a:cs up the chain that names a face counts
    const inheritedComplexScript = complexScript === '' && src.inheritsComplexFace !== false ? this.inheritedComplexFace(rPr) : undefined;
    const shapeHint = themed ? (face!.startsWith('+') ? themeLatinShape(src.theme, face!) : ownLatin ? latinShape(ownLatin) : d.faceShape) : defaultFaceShape(src);
    const szOwn = ownAttr('sz');
    const sz = szOwn !== undefined && Number.isFinite(parseInt(szOwn, 10)) ? parseInt(szOwn, 10) : d.sz;
    let color = d.color;
    for (const e of [rPr, ownDefRPr]) {
      if (!e) continue;
      const c = fillColor(e, src.colorCtx);
      if (c !== undefined) { color = c; break; }
    }
    // a picture fill (§20.1.8.14) has no one colour: it is drawn in the text colour (the layout draws one colour per run)
    const picture = color === PICTURE_FILL;
    const fill = color === PICTURE_FILL ? undefined : color;
    const b = ownAttr('b');
    const i = ownAttr('i');
    const u = ownAttr('u') ?? d.u;
    const strike = ownAttr('strike') ?? d.strike;
    const cap = ownAttr('cap') ?? d.cap;
    const baseline = ownAttr('baseline');
    const spc = ownAttr('spc');
    const kernOwn = ownAttr('kern');
    const kern = kernOwn !== undefined ? intOr(kernOwn, 0) : d.kern;
    const highlightEl = child(rPr, NS.a, 'highlight') ?? child(ownDefRPr, NS.a, 'highlight');
    const highlight = highlightEl ? colorIn(highlightEl, src.colorCtx) : undefined;
    const shadow = readOuterShadow(child(rPr, NS.a, 'effectLst') ?? child(ownDefRPr, NS.a, 'effectLst'), src.colorCtx);
    return new ResolvedRun(
      { name, size_pt: (sz ?? 1800) / 100, bold: b !== undefined ? onOff(b) : d.bold, italic: i !== undefined ? onOff(i) : d.italic, kerning: kerningApplies(kern, sz ?? 1800), ...(shapeHint ? { shapeHint } : {}), ...(eastAsianLang ? { eastAsianLang } : {}), ...(complexScript ? { complexScript } : {}), ...(inheritedComplexScript ? { inheritedComplexScript } : {}), ...(lang && isRightToLeftLanguage(lang) ? { rightToLeftLang: lang } : {}) },
      fill === null ? { r: 0, g: 0, b: 0, a: 0 } : fill ?? this.lvl.textColor(),
      {
        underline: u !== undefined && u !== 'none',
        strike: strike !== undefined && strike !== 'noStrike',
        ...(highlight && highlight.a > 0 ? { highlight: rgbaToHex(highlight) } : {}),
        ...(shadow ? { shadow } : {}),
        baseline_pct: (baseline !== undefined ? intOr(baseline, 0) : d.baseline) / 1000,
        spacing_pt: (spc !== undefined ? intOr(spc, 0) : d.spc) / 100,
        cap: cap === 'all' ? 'all' : cap === 'small' ? 'small' : 'none',
      },
      {
        face: face ? themed || null : src.themeDefaultFace !== undefined ? src.themeDefaultFace || null : src.defaultFace || null,
        fill: picture ? null : fill === undefined ? this.lvl.textColor() ?? null : fill,
      },
      kern,
    );
  }

  /**
   * The first complex-script typeface (`a:cs`, §21.1.2.3.1) of a run with `rPr` that names a
   * face once theme references are resolved without a language (as LibreOffice resolves
   * them): the run's own, its paragraph's `a:defRPr`, then the level's list styles near to
   * far; undefined when none does (`FontSpec.inheritedComplexScript`, text/font-metrics.ts).
   */
  private inheritedComplexFace(rPr: Element | undefined): string | undefined {
    const theme = this.src.theme;
    return namedComplexFace(rPr, theme) ?? namedComplexFace(this.ownDefRPr, theme) ?? this.lvl.runDefaults.csNamed;
  }

  /**
   * The East Asian (`a:ea`) and complex-script (`a:cs`) typefaces of a run with `rPr`,
   * theme references resolved (an empty theme slot takes the theme's face for the run's
   * script, from `lang`, or `altLang` for East Asian text); null when nothing names one.
   * The shape style's font reference names only the Latin face, so it is not read here.
   */
  scriptFaces(rPr: Element | undefined): { eastAsian: string | null; complexScript: string | null } {
    const d = this.lvl.runDefaults;
    const own = (e: Element | undefined, local: string): string | undefined => typefaceOf(child(e, NS.a, local));
    const ownAttr = (name: string): string | undefined => (rPr ? attr(rPr, name) : undefined) ?? (this.ownDefRPr ? attr(this.ownDefRPr, name) : undefined);
    const ea = own(rPr, 'ea') ?? own(this.ownDefRPr, 'ea') ?? d.ea;
    const cs = own(rPr, 'cs') ?? own(this.ownDefRPr, 'cs') ?? d.cs;
    const lang = ownAttr('lang') ?? d.lang;
    const altLang = ownAttr('altLang') ?? d.altLang;
    const resolved = (face: string | undefined, language: string | undefined): string | null => (face === undefined ? null : resolveThemeFont(face, this.src.theme, language) || null);
    return { eastAsian: resolved(ea, scriptOfLanguage(lang) ? lang : altLang), complexScript: resolved(cs, lang) };
  }

  /** The paragraph's resolved properties as written. */
  facts(): ParagraphFacts {
    if (this.paragraphFacts) return this.paragraphFacts;
    const kind = this.pChild(BULLET_KIND);
    this.paragraphFacts = {
      align: this.pAttr('algn') ?? 'l',
      rtl: onOff(this.pAttr('rtl') ?? '0'),
      marL_emu: Number(this.pAttr('marL') ?? 0),
      indent_emu: Number(this.pAttr('indent') ?? 0),
      marR_emu: Number(this.pAttr('marR') ?? 0),
      lineSpacing: this.spacing(LN_SPC),
      spaceBefore: this.spacing(SPC_BEF),
      spaceAfter: this.spacing(SPC_AFT),
      bullet: kind !== undefined && kind.localName !== 'buNone',
      hangingPunct: onOff(this.pAttr('hangingPunct') ?? '1'),
    };
    return this.paragraphFacts;
  }

  private bullet(): BulletStyle | null {
    if (this.bulletStyle !== undefined) return this.bulletStyle;
    const kind = this.pChild(BULLET_KIND);
    if (!kind || kind.localName === 'buNone') return (this.bulletStyle = null);
    const buFontEl = this.pChild(BU_FONT);
    const fontName = buFontEl?.localName === 'buFont' ? resolveThemeFont(attr(buFontEl, 'typeface') ?? '', this.src.theme) : undefined;
    const buClrEl = this.pChild(BU_CLR);
    const buSzEl = this.pChild(BU_SZ);
    this.bulletStyle = {
      kind,
      fontName,
      color: buClrEl?.localName === 'buClr' ? colorIn(buClrEl, this.src.colorCtx) : undefined,
      size: buSzEl?.localName === 'buSzPct' || buSzEl?.localName === 'buSzPts' ? buSzEl : undefined,
      char: kind.localName === 'buChar' ? mapBulletChar(attr(kind, 'char') ?? '•', fontName) : '•',
      symbolic: /wingdings|symbol|webdings/i.test(fontName ?? ''),
    };
    return this.bulletStyle;
  }

  /**
   * The layout input of a paragraph of these properties holding `runs`. Auto-numbered
   * bullets count on in `counters` (per outline level, shared by a body's paragraphs).
   */
  input(runs: TextRunInput[], endFont: TextRunInput['font'], level: number, counters: Map<number, number>): ParagraphInput {
    if (!this.fields) {
      const facts = this.facts();
      const algnRaw = facts.align;
      this.fields = {
        align: (['l', 'ctr', 'r', 'just', 'dist'].includes(algnRaw) ? algnRaw : algnRaw === 'justLow' || algnRaw === 'thaiDist' ? 'just' : 'l') as ParagraphInput['align'],
        marL_emu: facts.marL_emu,
        indent_emu: facts.indent_emu,
        marR_emu: facts.marR_emu,
        lineSpacing: facts.lineSpacing,
        spaceBefore: facts.spaceBefore,
        spaceAfter: facts.spaceAfter,
        rtl: facts.rtl,
        hangingPunct: facts.hangingPunct,
      };
    }
    const f = this.fields;
    const para: ParagraphInput = {
      runs,
      align: f.align,
      marL_emu: f.marL_emu,
      indent_emu: f.indent_emu,
      marR_emu: f.marR_emu,
      lineSpacing: f.lineSpacing,
      spaceBefore: f.spaceBefore,
      spaceAfter: f.spaceAfter,
      endFont,
      rtl: f.rtl,
      hangingPunct: f.hangingPunct,
    };
    const hasText = runs.some((r) => !r.lineBreak && r.text.trim() !== '');
    const bu = this.bullet();
    if (bu && hasText) {
      const first = runs.find((r) => !r.lineBreak) ?? runs[0];
      const firstFont = first?.font ?? endFont;
      let size = firstFont.size_pt;
      if (bu.size?.localName === 'buSzPct') size = (firstFont.size_pt * intAttr(bu.size, 'val', 100000)) / 100000;
      else if (bu.size?.localName === 'buSzPts') size = intAttr(bu.size, 'val', 1800) / 100;
      let text = bu.char;
      const autoNum = bu.kind.localName === 'buAutoNum';
      if (autoNum) {
        const start = intAttr(bu.kind, 'startAt', 1);
        const n = counters.get(level) ?? start - 1;
        counters.set(level, n + 1);
        text = autoNumber(attr(bu.kind, 'type') ?? 'arabicPeriod', n + 1);
      }
      // Deeper levels restart their numbering.
      if (counters.size > 1 || !counters.has(level)) for (const l of [...counters.keys()]) if (l > level) counters.delete(l);
      para.bullet = {
        text: text + (autoNum ? ' ' : ''),
        font: { name: bu.symbolic || !bu.fontName ? firstFont.name : bu.fontName, size_pt: size, bold: autoNum ? firstFont.bold : false },
        color: bu.color ? rgbaToHex(bu.color) : first?.color,
      };
    } else if (!bu || bu.kind.localName !== 'buAutoNum') {
      if (hasText) counters.delete(level);
    }
    return para;
  }
}

/** Deferred paragraphs' formatting resolved once: the paragraph properties and the two run properties every paragraph of the model uses. */
interface ModelParagraphRead {
  readonly paraProps: Element | undefined;
  readonly runProps: Element | undefined;
  readonly endProps: Element | undefined;
  readonly paragraph: ParagraphStyle;
  readonly run: ResolvedRun;
  readonly end: ResolvedRun;
}

/** ST_OnOff (§22.9.2.7): `1`, `true` and `on` are true. */
function onOff(v: string): boolean {
  return v === '1' || v === 'true' || v === 'on';
}

/** An integer attribute value, or `fallback` when it is not one. */
function intOr(v: string, fallback: number): number {
  const n = parseInt(v, 10);
  return Number.isFinite(n) ? n : fallback;
}

/** A text fill of a picture (`a:blipFill`): no one colour. */
const PICTURE_FILL = Symbol('picture fill');

/**
 * The fill a run's properties give its text (ECMA-376 Part 1, §20.1.8): a colour; `null`
 * for `a:noFill` or a colour that does not resolve; {@link PICTURE_FILL} for `a:blipFill`;
 * undefined when the element names none. A gradient (§20.1.8.33) counts as its first
 * stop written (ECMA-376 names no one colour for it; the first written is the one the
 * template's author put first, and what previews have always drawn), a pattern (§20.1.8.47)
 * as its foreground colour.
 */
function fillColor(e: Element, ctx: ColorContext): Rgba | null | typeof PICTURE_FILL | undefined {
  for (const f of children(e, NS.a)) {
    switch (f.localName) {
      case 'solidFill':
        return colorIn(f, ctx) ?? null;
      case 'gradFill':
        return colorIn(child(child(f, NS.a, 'gsLst'), NS.a, 'gs'), ctx) ?? null;
      case 'pattFill':
        return colorIn(child(f, NS.a, 'fgClr'), ctx) ?? null;
      case 'noFill':
        return null;
      case 'blipFill':
        return PICTURE_FILL;
      default:
        break;
    }
  }
  return undefined;
}

/** The `typeface` of a font element (`a:latin`, `a:ea`, `a:cs`), undefined when unset or empty. */
function typefaceOf(font: Element | undefined): string | undefined {
  const v = attr(font, 'typeface');
  return v === undefined || v === '' ? undefined : v;
}

/** The face an element's `a:cs` names once a theme reference is resolved; undefined for none or an empty theme slot. */
function namedComplexFace(e: Element | undefined, theme: Theme): string | undefined {
  const t = typefaceOf(child(e, NS.a, 'cs'));
  return t === undefined ? undefined : resolveThemeFont(t, theme) || undefined;
}

/** Run properties a level's list styles give every run that does not say otherwise. */
interface RunDefaults {
  face?: string;
  /** The shape the attributes of the `a:latin` that named {@link face} give (not for theme references). */
  faceShape?: FontShape;
  lang?: string;
  /** East Asian and complex-script typefaces (`a:ea`, `a:cs`), as written. */
  ea?: string;
  cs?: string;
  /** The first `a:cs` typeface that names a face once theme references are resolved (an empty theme slot passed over), see `FontSpec.inheritedComplexScript` (text/font-metrics.ts). */
  csNamed?: string;
  altLang?: string;
  /** Hundredths of a point. */
  sz?: number;
  color?: Rgba | null | typeof PICTURE_FILL;
  bold: boolean;
  italic: boolean;
  u?: string;
  strike?: string;
  cap?: string;
  /** Thousandths of a percent. */
  baseline: number;
  /** Hundredths of a point. */
  spc: number;
  /** Kerning threshold (`kern`), hundredths of a point; undefined when no level writes one. */
  kern?: number;
}

/**
 * The inherited paragraph and run properties of one outline level (`a:lvlNpPr` then
 * `a:defPPr` of each list style, near before far; ECMA-376 Part 1, §21.1.2.4.13), looked
 * up once per text body and level instead of once per paragraph and run.
 */
export class LevelStyle {
  private readonly near: Element[];
  private readonly all: Element[];
  private readonly attrs = new Map<string, string | undefined>();
  private readonly childs = new Map<readonly string[], Element | undefined>();
  private defaults?: RunDefaults;
  private tx1?: Rgba;
  /** Resolved paragraph-model formattings by their run properties (see {@link modelParagraphs}). */
  private modelReads?: Map<Element | undefined, ModelParagraphRead[]>;
  private modelReadCount = 0;

  constructor(private readonly src: TextStyleSources, level: number) {
    const lvlName = `lvl${level + 1}pPr`;
    const fromLists = (lists: Element[]): Element[] => {
      const out: Element[] = [];
      for (const l of lists) {
        const a = child(l, NS.a, lvlName);
        if (a) out.push(a);
        const d = child(l, NS.a, 'defPPr');
        if (d) out.push(d);
      }
      return out;
    };
    this.near = fromLists(src.near);
    this.all = [...this.near, ...fromLists(src.far)];
  }

  attr(name: string): string | undefined {
    if (this.attrs.has(name)) return this.attrs.get(name);
    let v: string | undefined;
    for (const e of this.all) {
      v = attr(e, name);
      if (v !== undefined) break;
    }
    this.attrs.set(name, v);
    return v;
  }

  child(names: readonly string[]): Element | undefined {
    if (this.childs.has(names)) return this.childs.get(names);
    let found: Element | undefined;
    outer: for (const e of this.all) {
      for (const c of children(e, NS.a)) {
        if (names.includes(c.localName ?? '')) {
          found = c;
          break outer;
        }
      }
    }
    this.childs.set(names, found);
    return found;
  }

  /**
   * The formatting of model paragraphs ({@link ParagraphModel}) at this level, resolved once per distinct
   * template properties (the few a template's placeholders and cells use). Properties
   * that belong to the text body's own document (`bodyDoc`, a slide being built) are
   * resolved afresh and not kept: keeping them would keep the slide.
   */
  modelParagraphs(model: ParagraphModel, bodyDoc: Document | null): ModelParagraphRead {
    const reads = (this.modelReads ??= new Map());
    const same = reads.get(model.runProps);
    if (same) for (const r of same) if (r.paraProps === model.paraProps && r.endProps === model.endProps) return r;
    const own = (e: Element | undefined): boolean => e !== undefined && e.ownerDocument === bodyDoc;
    const keep = !own(model.paraProps) && !own(model.runProps) && !own(model.endProps);
    const paragraph = new ParagraphStyle(this.src, this, model.paraProps);
    const read: ModelParagraphRead = {
      paraProps: model.paraProps,
      runProps: model.runProps,
      endProps: model.endProps,
      paragraph,
      run: paragraph.runProps(model.runProps ?? EN_US_RUN),
      end: paragraph.runProps(model.endProps ?? EN_US_RUN),
    };
    if (!keep) return read;
    if (this.modelReadCount >= MAX_MODEL_READS) {
      reads.clear();
      this.modelReadCount = 0;
    }
    const list = reads.get(model.runProps);
    if (list) list.push(read);
    else reads.set(model.runProps, [read]);
    this.modelReadCount++;
    return read;
  }

  /** The theme's text colour (`tx1` through the colour map). */
  textColor(): Rgba | undefined {
    this.tx1 ??= colorIn(TX1, this.src.colorCtx);
    return this.tx1;
  }

  get runDefaults(): RunDefaults {
    if (this.defaults) return this.defaults;
    const nearR = this.near.map((e) => child(e, NS.a, 'defRPr')).filter((e): e is Element => !!e);
    const farR = this.all.slice(this.near.length).map((e) => child(e, NS.a, 'defRPr')).filter((e): e is Element => !!e);
    // near list styles, then the shape style's reference, then the master and defaults
    const pick = <T>(f: (e: Element) => T | undefined, fromStyle?: T): T | undefined => {
      for (const e of nearR) { const v = f(e); if (v !== undefined) return v; }
      if (fromStyle !== undefined) return fromStyle;
      for (const e of farR) { const v = f(e); if (v !== undefined) return v; }
      return undefined;
    };
    const src = this.src;
    const faceFrom = pick<Element | string>((e) => latinNaming(e), src.fontRefFace);
    this.defaults = {
      face: typeof faceFrom === 'string' ? faceFrom : faceFrom ? attr(faceFrom, 'typeface') : undefined,
      faceShape: typeof faceFrom === 'object' ? latinShape(faceFrom) : undefined,
      lang: pick((e) => attr(e, 'lang')),
      altLang: pick((e) => attr(e, 'altLang')),
      ea: pick((e) => typefaceOf(child(e, NS.a, 'ea'))),
      cs: pick((e) => typefaceOf(child(e, NS.a, 'cs'))),
      csNamed: pick((e) => namedComplexFace(e, src.theme)),
      sz: pick((e) => intAttr(e, 'sz')),
      color: pick<Rgba | null | typeof PICTURE_FILL>((e) => fillColor(e, src.colorCtx), src.fontRefColor ?? undefined),
      bold: pick((e) => boolAttr(e, 'b')) ?? false,
      italic: pick((e) => boolAttr(e, 'i')) ?? false,
      u: pick((e) => attr(e, 'u')),
      strike: pick((e) => attr(e, 'strike')),
      cap: pick((e) => attr(e, 'cap')),
      baseline: pick((e) => intAttr(e, 'baseline')) ?? 0,
      spc: pick((e) => intAttr(e, 'spc')) ?? 0,
      kern: pick((e) => intAttr(e, 'kern')),
    };
    return this.defaults;
  }
}

/** `a:solidFill` with `tx1`: text is tx1 unless something says otherwise. */
const HLINK: Element = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="hlink"/></a:solidFill>`, 'hyperlink colour').documentElement!;
/**
 * Distinct paragraph-model formattings a level style keeps resolved (a table's cells
 * may each have their own run properties); past it the style starts afresh.
 */
const MAX_MODEL_READS = 256;

/** What a run copied without template properties carries (`setParagraphs`): `lang="en-US"`. */
const EN_US_RUN: Element = parseXml(`<a:rPr xmlns:a="${NS.a}" lang="en-US" dirty="0"/>`, 'default run properties').documentElement!;
const TX1: Element = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="tx1"/></a:solidFill>`, 'default text colour').documentElement!;

/**
 * Whether a run of size `szHundredths` is kerned under the `kern` threshold its run
 * properties inherit (ECMA-376 Part 1, §21.1.2.3.9): kerned from the threshold up; 0 turns
 * kerning off, as PowerPoint's "Kerning for fonts" box writes it unticked; with no threshold
 * anywhere the text is kerned at every size.
 */
export function kerningApplies(kern: number | undefined, szHundredths: number): boolean {
  if (kern === undefined) return true;
  return kern > 0 && szHundredths >= kern;
}

/** The `a:latin` child of run properties when it names a typeface (ECMA-376 Part 1, §21.1.2.3.7). */
function latinNaming(rPr: Element | undefined): Element | undefined {
  const latin = rPr ? child(rPr, NS.a, 'latin') : undefined;
  return latin && attr(latin, 'typeface') ? latin : undefined;
}

/** The shape an element's `panose` / `pitchFamily` give its typeface (text/font-class.ts), if any. */
function latinShape(el: Element): FontShape | undefined {
  const panose = attr(el, 'panose');
  const pitchFamily = attr(el, 'pitchFamily');
  return panose === undefined && pitchFamily === undefined ? undefined : shapeFromAttributes({ panose, pitchFamily })?.shape;
}

/** The shape a theme font collection's `a:latin` attributes give, if any. */
function collectionShape(c: ThemeFontCollection): FontShape | undefined {
  return c.latinPanose === undefined && c.latinPitchFamily === undefined ? undefined : shapeFromAttributes({ panose: c.latinPanose, pitchFamily: c.latinPitchFamily })?.shape;
}

/** The shape of a theme's Latin font that `+mj-lt` / `+mn-lt` names; undefined for other references. */
function themeLatinShape(theme: Theme, ref: string): FontShape | undefined {
  return ref === '+mj-lt' ? collectionShape(theme.major) : ref === '+mn-lt' ? collectionShape(theme.minor) : undefined;
}

/** The shape of `src.defaultFace` when it is one of the theme's Latin fonts (minor first). */
function defaultFaceShape(src: TextStyleSources): FontShape | undefined {
  if (src.defaultFace === src.theme.minor.latin) return collectionShape(src.theme.minor);
  if (src.defaultFace === src.theme.major.latin) return collectionShape(src.theme.major);
  return undefined;
}
