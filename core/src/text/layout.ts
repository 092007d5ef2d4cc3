/**
 * Text layout for DrawingML text bodies (ECMA-376 Part 1, §21.1.2): paragraphs of runs
 * wrapped by measured advance widths into lines inside a box, with the text body's insets
 * (§21.1.2.1.1 `a:bodyPr` lIns/tIns/rIns/bIns), vertical anchor (`anchor`), the paragraph
 * properties of §21.1.2.2.7 `a:pPr` (marL, indent, algn, `a:lnSpc` §21.1.2.2.5,
 * `a:spcBef` §21.1.2.2.10, `a:spcAft` §21.1.2.2.9, bullets §21.1.2.4) and the font scale of
 * `a:normAutofit` (§21.1.2.1.3 fontScale / lnSpcReduction).
 *
 * Units: box geometry and insets in EMU (12700 EMU = 1 pt); every output position in
 * points from the box's top-left corner. Inputs are already-resolved values (the caller
 * walks the inheritance chain); this module only measures and places.
 *
 * Shared by the renderer (which draws the lines) and text fitting ({@link fitText}).
 */
import { CJK_FALLBACK_FAMILY, COMPLEX_SCRIPT_FALLBACK_FAMILY, defaultFontMetrics, faceHasGlyph, isCjk, type FontMetrics, type FontSpec } from './font-metrics.js';
import { embeddingLevels, visualOrder } from './bidi.js';
import { breakPieces } from './line-break.js';
import { hasEastAsian, hasNonLatinScript, hasRightToLeft, isEastAsian, isRightToLeft, slotOf } from './script.js';

/** EMU per point (ECMA-376 §20.1.10.16 ST_Coordinate: 914400 EMU per inch, 72 pt per inch). */
export const EMU_PER_PT = 12700;

/**
 * An outer shadow (§20.1.8.49 `a:outerShdw`) as text and shapes cast it: colour (channels
 * 0–255, alpha 0–1), offset and blur radius in points, scale (`sx`, `sy`; 1 = 100 %) about
 * the point of the box `align` names (ST_RectAlignment: tl, t, tr, l, ctr, r, bl, b, br).
 */
export interface TextShadow {
  color: { r: number; g: number; b: number; a: number };
  dxPt: number;
  dyPt: number;
  blurPt: number;
  sx: number;
  sy: number;
  align: string;
}

/** One run of text with its resolved character properties (§21.1.2.3.9 `a:rPr`). */
export interface TextRunInput {
  text: string;
  font: FontSpec;
  /** Colour as `RRGGBB` (optionally with alpha 0–1 in {@link TextRunInput.alpha}). */
  color?: string;
  alpha?: number;
  underline?: boolean;
  strike?: boolean;
  /** Highlight behind the text (`a:highlight`, §21.1.2.3.4) as `RRGGBB`. */
  highlight?: string;
  /** The run's outer shadow (`a:rPr/a:effectLst/a:outerShdw`, §20.1.8.49). */
  shadow?: TextShadow;
  /** Baseline shift in percent of the size (`baseline`, 30 = superscript); 0 by default. */
  baseline_pct?: number;
  /** Extra letter spacing, pt (`spc` / 100). */
  spacing_pt?: number;
  /** Capitalisation (`cap`): none, all, small (small caps drawn as all caps at 0.8 size). */
  cap?: 'none' | 'all' | 'small';
  /** True for an `a:br` line break (its text is ignored). */
  lineBreak?: boolean;
  /** Relationship id of the run's hyperlink (`a:hlinkClick/@r:id`), resolved by the renderer. */
  link_rid?: string;
}

/** Line or paragraph spacing: a percentage of the line (`a:spcPct`, 100 = single) or points (`a:spcPts`). */
export type Spacing = { pct: number } | { pts: number };

/** A bullet (§21.1.2.4): a character or an auto number, already formatted. */
export interface BulletInput {
  /** The text drawn as the bullet (a character, or "3." for auto numbering). */
  text: string;
  font: FontSpec;
  color?: string;
}

/** One paragraph (§21.1.2.2.6 `a:p`) with resolved paragraph properties. */
export interface ParagraphInput {
  runs: TextRunInput[];
  /** `algn`: l (default), ctr, r, just, dist. */
  align?: 'l' | 'ctr' | 'r' | 'just' | 'dist';
  /** Left margin `marL`, EMU. */
  marL_emu?: number;
  /** First-line indent `indent` (negative = hanging), EMU. */
  indent_emu?: number;
  /** Right margin `marR`, EMU. */
  marR_emu?: number;
  /** Line spacing (`a:lnSpc`); single (100 %) by default. */
  lineSpacing?: Spacing;
  spaceBefore?: Spacing;
  spaceAfter?: Spacing;
  bullet?: BulletInput;
  /** Font of an empty paragraph's line (`a:endParaRPr`), used for its height. */
  endFont?: FontSpec;
  /**
   * Right-to-left paragraph (`rtl`, §21.1.2.2.7): lines start at the right (margins,
   * indent and bullet mirrored) and their pieces are ordered by the Unicode
   * Bidirectional Algorithm with a right-to-left base; `algn` stays absolute (`r` puts
   * the text against the right edge, as PowerPoint and LibreOffice draw it).
   */
  rtl?: boolean;
  /**
   * `hangingPunct` (§21.1.2.2.7): East Asian text may end its paragraph with punctuation
   * past the line's end ({@link LayoutOptions.hangingPunctuation}); absent counts as on.
   */
  hangingPunct?: boolean;
}

/** A text body's paragraphs and frame properties (§21.1.2.1.1 `a:bodyPr`). */
export interface TextBodyInput {
  paragraphs: ParagraphInput[];
  /** Insets, EMU; schema defaults 91440 / 45720 / 91440 / 45720. */
  lIns_emu?: number;
  tIns_emu?: number;
  rIns_emu?: number;
  bIns_emu?: number;
  /** `anchor`: t (default), ctr, b (just/dist are treated as t). */
  anchor?: 't' | 'ctr' | 'b' | 'just' | 'dist';
  /** `wrap="square"` (true, default) or `none`. */
  wrap?: boolean;
  /** `a:normAutofit/@fontScale` as a fraction (1 = 100 %). */
  fontScale?: number;
  /** `a:normAutofit/@lnSpcReduction` as a fraction (0.2 = 20 % less line spacing). */
  lnSpcReduction?: number;
}

/**
 * True for the `vert` values of ST_TextVerticalType (§20.1.10.82; `a:bodyPr/@vert`,
 * `a:tcPr/@vert`) whose lines run along the box's height: the text is laid out in the box
 * turned a quarter (`vert270` the other way round).
 */
export function isVerticalText(vert: string | undefined): boolean {
  return vert === 'vert' || vert === 'vert270' || vert === 'eaVert' || vert === 'mongolianVert' || vert === 'wordArtVert' || vert === 'wordArtVertRtl';
}

/** The box the text is laid out in (the shape's text rectangle), EMU. */
export interface TextBox {
  width_emu: number;
  height_emu: number;
}

/** A piece of one line set in one font. */
export interface LineFragment {
  text: string;
  /** Left edge from the box's left, pt. */
  x_pt: number;
  width_pt: number;
  /** Font with the scale applied. */
  font: FontSpec;
  color?: string;
  alpha?: number;
  underline?: boolean;
  strike?: boolean;
  /** Highlight colour behind the fragment ({@link TextRunInput.highlight}). */
  highlight?: string;
  /** The fragment's run's shadow ({@link TextRunInput.shadow}). */
  shadow?: TextShadow;
  /** Baseline shift upwards, pt. */
  rise_pt: number;
  /** Extra spacing after each character, pt. */
  spacing_pt: number;
  /** True for the bullet. */
  bullet?: boolean;
  /** Relationship id of the run's hyperlink ({@link TextRunInput.link_rid}). */
  link_rid?: string;
  /** True when the fragment's text is at an odd bidi embedding level (drawn right to left). */
  rtl?: boolean;
  /** The run's own typeface when the fragment is set in another face (complex-script text in its fallback face): a substitution to report. */
  substitutedFor?: string;
}

/** One laid-out line. */
export interface LayoutLine {
  paragraph: number;
  /** Baseline from the box's top, pt. */
  baseline_pt: number;
  /** Top of the line box from the box's top, pt. */
  top_pt: number;
  height_pt: number;
  /** Width of the text on the line (trailing spaces excluded), pt. */
  width_pt: number;
  /** Width the line's text may take (the inner width less the line's start and the right margin), pt. */
  avail_pt: number;
  fragments: LineFragment[];
}

/** Result of {@link layoutText}. */
export interface TextLayout {
  lines: LayoutLine[];
  /** Height of the text from the first line's top to the last line's bottom, pt (no insets). */
  textHeight_pt: number;
  /** Text height plus top and bottom insets, pt: what the box must offer. */
  totalHeight_pt: number;
  /** How far the text (with insets) runs past the box's bottom, pt (0 when it fits). */
  overflow_pt: number;
  /** How far the widest line runs past the box's inner width, pt (only unwrapped text can; 0 otherwise). */
  overflowX_pt: number;
  /** True when a single word had to be broken because it was wider than the line. */
  brokeWords: boolean;
  /** The font scale used (fontScale × any extra scale). */
  scale: number;
}

/** Options of {@link layoutText}. */
export interface LayoutOptions {
  metrics?: FontMetrics;
  /** Extra scale multiplied into the body's fontScale (used by {@link fitText}). */
  extraScale?: number;
  /** Extra line spacing reduction (fraction) added to the body's lnSpcReduction. */
  extraLnSpcReduction?: number;
  /**
   * Lays the text out as if every run, bullet and end-of-paragraph size were written at
   * `sizeScale` times its size: rounded to hundredths of a point and at least 1 pt, as a
   * size written into the file (`a:rPr/@sz`) is. Unlike the body's fontScale and
   * {@link LayoutOptions.extraScale} (which still apply on top), spacing given in points
   * stays as it is; spacing given as a percentage follows the sizes. 1 (the default)
   * takes the sizes exactly as they are. Text fitting measures candidate sizes with it
   * instead of copying the body at each size.
   */
  sizeScale?: number;
  /**
   * Only measure: lines get their positions, heights and widths but no fragments (what
   * text fitting needs; drawing needs the fragments).
   */
  measureOnly?: boolean;
  /**
   * Widens the text where East Asian text meets other text, as LibreOffice sets it
   * ({@link asianSpacing}); PowerPoint adds nothing there (DrawingML has no such paragraph
   * property, ECMA-376 §21.1.2.2.7). Text fitting measures it, so that fitted text fits in
   * both; previews, drawn as LibreOffice draws the deck, draw it too: the text after each
   * such space is placed past it, and the lines break where LibreOffice breaks them.
   */
  asianSpacing?: boolean;
  /**
   * How a line's height and baseline follow from its fonts, where LibreOffice's differ from
   * PowerPoint's (the faces' win ascent and descent, at least 1.2 × the largest size, which
   * text fitting measures). Previews draw what LibreOffice 7 draws:
   * - `fontIndependent`: a shape's text body, which LibreOffice's PPTX import sets at font
   *   independent line spacing: ascent 1 × the line's largest size, single line 1.2 ×,
   *   whatever the faces (a 44 pt Carlito title's baseline 2 pt lower than by Carlito's
   *   0.952 em win ascent);
   * - `face`: a table cell's text, which LibreOffice 7 sets by the faces' own metrics as it
   *   reads them (`VerticalMetrics.faceAscent_pt`: Carlito 0.75 + 0.25 em, Noto Sans
   *   CJK 1.16 + 0.288 em for the East Asian glyphs it draws), without the 1.2 minimum: an
   *   18 pt Latin line 1 em apart and its baseline 3.6 pt higher than by win metrics, an East
   *   Asian one 1.448 em apart and 3.7 pt lower.
   *
   * Both then space lines as LibreOffice's EditEngine does: proportional spacing above 100 %
   * adds the surplus above the text, below it caps the ascent at 80 % of the shrunk line;
   * exact spacing (`a:spcPts`) keeps the descent and gives the rest to the ascent.
   */
  lineMetrics?: 'fontIndependent' | 'face';
  /**
   * Sets a line of single or wider proportional spacing that holds East Asian glyphs from
   * the CJK fallback face as tall as that face (ascent + descent 1.448 em), as PowerPoint
   * may with a tall East Asian face (Meiryo, Yu Gothic) the machine lacks. LibreOffice sets
   * PPTX text at font-independent line spacing (1.2 × the size, whatever the faces), so
   * previews leave it out; text fitting measures it, so that fitted text fits in both.
   */
  tallEastAsianLines?: boolean;
  /**
   * Takes paragraph spacing given as a percentage (`a:spcPct` in `a:spcBef` or `a:spcAft`,
   * ECMA-376 Part 1 §21.1.2.2.10, §21.1.2.2.9, §21.1.2.3.11) as that share of the
   * paragraph's font size, as LibreOffice sets it (20 % before 21.5 pt text: 4.3 pt).
   * Without it the share is of a single line, 1.2 × the size (5.16 pt there), as PowerPoint
   * counts it ("0.2 lines"): more space, so text fitting measures that and previews, drawn
   * as LibreOffice draws the deck, set this ({@link PREVIEW_LAYOUT}).
   */
  percentSpacingOfSize?: boolean;
  /**
   * Lets a paragraph of East Asian text end in punctuation past the line's end, as
   * LibreOffice sets it where the paragraph allows hanging punctuation
   * ({@link ParagraphInput.hangingPunct}): when the last piece of the paragraph does not fit
   * but would without its last character — one of {@link HANGING_PUNCTUATION}, after an
   * East Asian character or itself East Asian, in a run of an East Asian language — the
   * character (and the space {@link asianSpacing} puts before it) hangs instead of taking
   * the piece to a new line. LibreOffice's line breaking lets only the paragraph's last
   * character hang. Hanging text counts toward no overflow.
   */
  hangingPunctuation?: boolean;
  /**
   * With {@link asianSpacing}: sets a space that follows East Asian text (between Korean
   * words) {@link EAST_ASIAN_SPACE_EM} wide, as LibreOffice does: it takes such a space in the
   * run's East Asian face, and the faces templates name there (맑은 고딕, ＭＳ Ｐゴシック, 宋体)
   * are missing here and replaced by one with Liberation Sans's space (5.99 pt at 21.5 pt
   * between Hangul words on its pages), wider than the Latin face's (Carlito 4.87 pt).
   */
  eastAsianSpaces?: boolean;
  /**
   * Sets complex-script text in the face the run inherits past an empty theme slot
   * ({@link FontSpec.inheritedComplexScript}: a master's `+mn-cs` where the theme's `a:cs` is
   * empty, then `p:defaultTextStyle`'s Arial), as LibreOffice does, where the run names no
   * complex-script face of its own. Without it such text is set in
   * {@link COMPLEX_SCRIPT_FALLBACK_FAMILY}, whose spaces and digits are wider: what text
   * fitting measures.
   */
  inheritedComplexFace?: boolean;
  /**
   * Sets the spaces, digits and punctuation of complex-script text in the run's
   * complex-script face even when that face lacks the script's letters (Arial/Liberation
   * Sans and Arabic): LibreOffice falls back to another face glyph by glyph, so only the
   * letters go to {@link COMPLEX_SCRIPT_FALLBACK_FAMILY}. Without it the whole stretch is set
   * in the fallback face, whose spaces and digits are wider: what text fitting measures.
   */
  complexFaceGlyphFallback?: boolean;
  /**
   * Sets a paragraph without letters (digits, spaces, punctuation only: a table cell "1200")
   * in the complex-script face when its first run's language is written right to left
   * ({@link FontSpec.rightToLeftLang}), as LibreOffice takes such a paragraph's script from
   * the language. Without it the paragraph is Latin text.
   */
  weakTextByLanguage?: boolean;
}

/**
 * The layout options of previews and PDF pages, which follow LibreOffice's rendering of the
 * deck: paragraph spacing as it sets it ({@link LayoutOptions.percentSpacingOfSize}), its
 * space between East Asian and other text ({@link LayoutOptions.asianSpacing}), its spaces
 * after East Asian text ({@link LayoutOptions.eastAsianSpaces}), its hanging punctuation
 * ({@link LayoutOptions.hangingPunctuation}), its choice of complex-script faces
 * ({@link LayoutOptions.inheritedComplexFace}, {@link LayoutOptions.complexFaceGlyphFallback},
 * {@link LayoutOptions.weakTextByLanguage}) and its font-independent lines of a shape's text
 * ({@link LayoutOptions.lineMetrics}; table cells: `face`, see `render/table.ts`).
 */
export const PREVIEW_LAYOUT = {
  percentSpacingOfSize: true,
  asianSpacing: true,
  hangingPunctuation: true,
  eastAsianSpaces: true,
  inheritedComplexFace: true,
  complexFaceGlyphFallback: true,
  weakTextByLanguage: true,
  lineMetrics: 'fontIndependent',
} as const satisfies LayoutOptions;

/** The width of a space after East Asian text in LibreOffice's rendering, em (Liberation Sans's: 569/2048; {@link LayoutOptions.eastAsianSpaces}). */
export const EAST_ASIAN_SPACE_EM = 569 / 2048;

/** The characters that may hang past a line's end in East Asian text (LibreOffice's Japanese, Chinese and Korean locale data). */
export const HANGING_PUNCTUATION = '!,.:;?、。！，．：；？｡､';

// Kinds of pieces (break opportunities): spaces may hang at the end of a line, words glue
// together, CJK characters break anywhere, breaks end the line; units are the stretches
// between two UAX #14 break opportunities of text in other scripts than Latin (a line may
// end before each; one alone wider than the line is broken between characters).
const WORD = 0;
const SPACE = 1;
const CJK = 2;
const BREAK = 3;
const UNIT = 4;

/**
 * A run's text split into pieces: maximal stretches of word or of space characters, CJK
 * characters one by one. The split does not depend on sizes, so it is kept (while the
 * run's text and capitalisation stay the same) and reused by the next layouts of the same
 * body: text fitting lays one body out at several sizes, table fitting every cell.
 */
interface RunSplit {
  /** The run, its text and its capitalisation the split was made from. */
  run: TextRunInput;
  text: string;
  cap: TextRunInput['cap'];
  texts: string[];
  kinds: number[];
  /** Characters (code points) of each piece: letter spacing is added once per character. */
  counts: number[];
  /** Per piece, true when it holds East Asian characters; undefined when no piece does. */
  eastAsian?: boolean[];
  /** Per piece, its script for the complex-script face ({@link strongScripts}: a right-to-left code point, 0 other strong text, -1 weak); set when a piece is right to left, else made on demand. */
  strong?: number[];
  /** True when a piece is right to left (the paragraph's pieces are then resolved by {@link resolveScripts}). */
  rtl?: boolean;

  /** The run's font at the last size it was laid out at, and the font it was made from. */
  font?: FontSpec;
  fontOf?: FontSpec;
}

/** Per paragraph, per run: the splits of a body's runs (undefined for line breaks and runs not split yet). */
type BodySplits = Array<Array<RunSplit | undefined> | undefined>;

/** How many recently laid-out bodies keep their runs' splits. */
const RECENT_BODIES = 32;
const recentBodies: Array<TextBodyInput | undefined> = [];
const recentSplits: BodySplits[] = [];
let recentNext = 0;

/** The kept splits of a body's runs (by identity of the body object), or a fresh place for them. */
function splitsFor(body: TextBodyInput): BodySplits {
  for (let i = 0; i < recentBodies.length; i++) if (recentBodies[i] === body) return recentSplits[i]!;
  const splits: BodySplits = [];
  recentBodies[recentNext] = body;
  recentSplits[recentNext] = splits;
  recentNext = (recentNext + 1) % RECENT_BODIES;
  return splits;
}

function displayText(run: TextRunInput): string {
  return run.cap === 'all' || run.cap === 'small' ? run.text.toUpperCase() : run.text;
}

/** Characters the split rewrites first (tab → four spaces, line ends → space). */
const TAB_OR_BREAK = /[\t\r\n\v]/;

/**
 * Splits a run's displayed text into pieces: text in East Asian or complex scripts at its
 * UAX #14 break opportunities (units and their trailing spaces), other text into words,
 * spaces and CJK characters in one pass over its UTF-16 units.
 */
function splitRun(run: TextRunInput): RunSplit {
  const texts: string[] = [];
  const kinds: number[] = [];
  const counts: number[] = [];
  const text = TAB_OR_BREAK.test(run.text) ? displayText(run).replace(/[\t]/g, '    ').replace(/[\r\n\v]/g, ' ') : displayText(run);
  if (hasNonLatinScript(text)) return splitByBreakOpportunities(run, text);
  let start = 0;
  let count = 0;
  let cur = WORD;
  for (let i = 0; i < text.length; ) {
    let cp = text.charCodeAt(i);
    let len = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      cp = text.codePointAt(i)!;
      len = 2;
    }
    const kind = cp === 0x20 || cp === 0x3000 ? SPACE : cp >= 0x1100 && isCjk(cp) ? CJK : WORD;
    if (kind === CJK) {
      if (i > start) {
        texts.push(text.slice(start, i));
        kinds.push(cur);
        counts.push(count);
      }
      texts.push(text.slice(i, i + len));
      kinds.push(CJK);
      counts.push(1);
      start = i + len;
      count = 0;
      cur = WORD;
    } else {
      if (kind !== cur) {
        if (i > start) {
          texts.push(text.slice(start, i));
          kinds.push(cur);
          counts.push(count);
        }
        start = i;
        count = 0;
      }
      cur = kind;
      count++;
      // A line may end after a hyphen inside a word ("at-|risk"): the word is cut there.
      if (kind === WORD && i > start && isHyphen(cp) && i + 1 < text.length && mayFollowHyphenBreak(text.charCodeAt(i + 1))) {
        texts.push(text.slice(start, i + 1));
        kinds.push(WORD);
        counts.push(count);
        start = i + 1;
        count = 0;
      }
    }
    i += len;
  }
  if (text.length > start) {
    texts.push(text.slice(start));
    kinds.push(cur);
    counts.push(count);
  }
  return { run, text: run.text, cap: run.cap, texts, kinds, counts };
}

/** Hyphen-minus and the hyphen (U+2010): UAX #14 classes HY and BA, a line may end after them. */
function isHyphen(cp: number): boolean {
  return cp === 0x2d || cp === 0x2010;
}

/**
 * Whether a line may end between a hyphen and the character after it (UTF-16 unit): not
 * before a space (the space breaks) nor before a digit (UAX #14 LB25: "-5" stays whole).
 */
function mayFollowHyphenBreak(next: number): boolean {
  return next !== 0x20 && next !== 0x3000 && !(next >= 0x30 && next <= 0x39);
}

/**
 * Whether a word piece ends at a break opportunity after a hyphen, so the word piece after
 * it (`next`, the following run's text) need not stay on its line: the hyphen ends a word
 * of at least one more character (UAX #14 LB20.1: no break after a hyphen opening a word).
 */
function endsAtHyphenBreak(piece: string, next: string): boolean {
  return piece.length >= 2 && isHyphen(piece.charCodeAt(piece.length - 1)) && next.length > 0 && mayFollowHyphenBreak(next.charCodeAt(0));
}

/** The split of text in other scripts than Latin: units between UAX #14 break opportunities, their trailing spaces apart. */
function splitByBreakOpportunities(run: TextRunInput, text: string): RunSplit {
  const texts: string[] = [];
  const kinds: number[] = [];
  const counts: number[] = [];
  const eastAsian: boolean[] = [];
  const push = (t: string, kind: number): void => {
    texts.push(t);
    kinds.push(kind);
    counts.push([...t].length);
    eastAsian.push(kind === UNIT && hasEastAsian(t));
  };
  for (const piece of breakPieces(text)) {
    let end = piece.length;
    while (end > 0 && (piece.charCodeAt(end - 1) === 0x20 || piece.charCodeAt(end - 1) === 0x3000)) end--;
    if (end > 0) push(piece.slice(0, end), UNIT);
    if (end < piece.length) push(piece.slice(end), SPACE);
  }
  const strong = strongScripts(texts);
  return { run, text: run.text, cap: run.cap, texts, kinds, counts, eastAsian, ...(strong ? { strong, rtl: true } : {}) };
}

/**
 * The script of each piece of a run as LibreOffice sorts it for the complex-script face: it
 * gives every character a script (i18n script types), and a right-to-left stretch (Hebrew,
 * Arabic, …) is drawn with the run's complex-script font (§21.1.2.3.1 `a:cs`) as a whole.
 * Per piece: the first right-to-left code point of its strong characters (complex when it
 * holds any), 0 for a piece of other strong text, -1 for a weak piece (spaces, digits,
 * punctuation only), which takes its script from the text around it in the paragraph
 * ({@link resolveScripts}). Undefined when no piece is right to left.
 */
function strongScripts(texts: readonly string[]): number[] | undefined {
  let any = false;
  const strong = texts.map((t) => {
    let latin = false;
    for (const ch of t) {
      const cp = ch.codePointAt(0)!;
      const slot = slotOf(cp);
      // right-to-left scripts only: the fallback face (DejaVu Sans) has Hebrew and Arabic,
      // not the other complex scripts (Thai, Devanagari, …), which keep their own faces
      if (slot === 'cs' && isRightToLeft(cp)) {
        any = true;
        return cp;
      }
      if (slot !== undefined) latin = true;
    }
    return latin ? 0 : -1;
  });
  return any ? strong : undefined;
}

/** {@link strongScripts} of a split made without scripts (no right-to-left piece): 0 for strong pieces, -1 for weak ones; kept on the split. */
function weakOrLatin(split: RunSplit): number[] {
  if (split.strong === undefined) split.strong = split.texts.map((t) => (hasStrong(t) ? 0 : -1));
  return split.strong;
}

/** Whether a text holds a character of a script (a letter, an ideograph…), not only spaces, digits and punctuation. */
function hasStrong(text: string): boolean {
  for (const ch of text) if (slotOf(ch.codePointAt(0)!) !== undefined) return true;
  return false;
}

/**
 * Which pieces of a paragraph LibreOffice (and PowerPoint) set in the complex-script face:
 * a weak piece (space, digit, punctuation) takes the script of the strong text before it in
 * the paragraph, across run boundaries, or of the first strong text after it at the start
 * of the paragraph. Writes per run the resolved value of each piece into `out` (the first
 * right-to-left code point of the stretch a piece is set with, 0 for other text).
 */
function resolveScripts(splits: ReadonlyArray<RunSplit | undefined>, runs: readonly TextRunInput[], out: number[][]): void {
  let prev = -1;
  for (let ri = 0; ri < runs.length && prev < 0; ri++) {
    const split = splits[ri];
    if (!split || runs[ri]!.lineBreak) continue;
    for (const v of split.strong ?? weakOrLatin(split)) {
      if (v >= 0) {
        prev = v;
        break;
      }
    }
  }
  if (prev < 0) prev = 0;
  for (let ri = 0; ri < runs.length; ri++) {
    const split = splits[ri];
    const o = (out[ri] ??= []);
    o.length = 0;
    if (!split || runs[ri]!.lineBreak) continue;
    for (const v of split.strong ?? weakOrLatin(split)) {
      if (v >= 0) prev = v;
      o.push(prev);
    }
  }
}

/** Per typeface name and code point: whether its face has the glyph (asked once per pair). */
const glyphCoverage = new Map<string, boolean>();
function hasGlyph(name: string, cp: number): boolean {
  const key = `${cp}|${name}`;
  let v = glyphCoverage.get(key);
  if (v === undefined) {
    if (glyphCoverage.size > 4096) glyphCoverage.clear();
    v = faceHasGlyph(name, cp);
    glyphCoverage.set(key, v);
  }
  return v;
}

/**
 * How a complex-script piece of a run in `font` is set: 2 in the run's own complex-script
 * face, 3 in the one it inherits past an empty theme slot
 * ({@link LayoutOptions.inheritedComplexFace}), when that face has the piece's script
 * (`cp`: the right-to-left code point the piece is resolved to); else 1, in the fallback
 * face. With {@link LayoutOptions.complexFaceGlyphFallback} a face that lacks the script
 * still sets the characters it has, as LibreOffice falls back glyph by glyph: a piece
 * without letters (a space, digits) all in it (2 or 3), a piece mixing such characters
 * with the script's letters ("14٪") in parts (4 or 5: {@link glyphParts}). Only a face
 * that is drawn as itself or its metric twin (Arial as Liberation Sans) does so: a face
 * the machine lacks ("Traditional Arabic") is replaced as a whole by the face fontconfig
 * gives the script, digits included.
 */
function complexSetting(font: FontSpec, cp: number, text: string, options: LayoutOptions, m: FontMetrics): number {
  const own = font.complexScript;
  const name = own ?? (options.inheritedComplexFace ? font.inheritedComplexScript : undefined);
  if (name === undefined) return 1;
  const setting = own !== undefined ? 2 : 3;
  if (hasGlyph(name, cp)) return setting;
  if (!options.complexFaceGlyphFallback || !m.resolve(name).exact) return 1;
  let has = false;
  let lacks = false;
  for (const ch of text) {
    if (hasGlyph(name, ch.codePointAt(0)!)) has = true;
    else lacks = true;
    if (has && lacks) return setting + 2;
  }
  return has ? setting : 1;
}

/** Whether a setting of {@link complexSetting} sets a piece in parts, glyph by glyph. */
function byGlyph(setting: number): boolean {
  return setting >= 4;
}

/**
 * The parts of a piece set glyph by glyph (setting 4 or 5 of {@link complexSetting}): the
 * longest stretches of characters the run's complex-script face has or lacks, each with the
 * face it is set in (that face, or the fallback face).
 */
function glyphParts(text: string, font: FontSpec, setting: number): Array<{ text: string; font: FontSpec; fallback: boolean }> {
  const face = complexFace(font, setting - 2);
  const fallback = complexFace(font, 1);
  const parts: Array<{ text: string; font: FontSpec; fallback: boolean }> = [];
  for (const ch of text) {
    const missing = !hasGlyph(face.name, ch.codePointAt(0)!);
    const last = parts[parts.length - 1];
    if (last && last.fallback === missing) last.text += ch;
    else parts.push({ text: ch, font: missing ? fallback : face, fallback: missing });
  }
  return parts;
}

/** Width of a piece's text as it is set: in `font`, or part by part ({@link glyphParts}). */
function measurePiece(text: string, font: FontSpec, setting: number, m: FontMetrics): number {
  if (!byGlyph(setting)) return m.measure(text, setting ? complexFace(font, setting) : font);
  let w = 0;
  for (const part of glyphParts(text, font, setting)) w += m.measure(part.text, part.font);
  return w;
}

/**
 * The script a paragraph without letters is set in when its first run's language is
 * written right to left ({@link LayoutOptions.weakTextByLanguage}): a code point of the
 * language's script (Hebrew for he/yi, Syriac, Thaana, else Arabic), for
 * {@link complexSetting}; undefined when the paragraph has a letter or no such language.
 */
function weakParagraphScript(splits: ReadonlyArray<RunSplit | undefined>, runs: readonly TextRunInput[]): number | undefined {
  let lang: string | undefined;
  let seen = false;
  for (let ri = 0; ri < runs.length; ri++) {
    const split = splits[ri];
    if (!split || runs[ri]!.lineBreak) continue;
    for (const v of weakOrLatin(split)) if (v >= 0) return undefined;
    if (!seen && split.texts.length > 0) {
      seen = true;
      lang = runs[ri]!.font.rightToLeftLang;
    }
  }
  if (lang === undefined) return undefined;
  const primary = lang.toLowerCase().split(/[-_]/)[0]!;
  if (primary === 'he' || primary === 'iw' || primary === 'yi' || primary === 'ji') return 0x05d0;
  if (primary === 'syr') return 0x0710;
  if (primary === 'dv') return 0x0780;
  return 0x0627;
}


/**
 * Where a paragraph's first line (and its bullet) starts from the left inset, pt: marL +
 * indent, never left of the inset — PowerPoint's indent markers stop at the margin.
 */
function firstLineX(marL: number, indent: number): number {
  return Math.max(0, marL + indent);
}

/** A size times `k` as written into a file: hundredths of a point, at least 1 pt. */
function writtenSize(pt: number, k: number): number {
  return Math.max(1, Math.round(pt * k * 100) / 100);
}

/** `font` with its size written at `s`, then times the font scale `k` (each rounded as written). */
function sized(font: FontSpec, s: number, k: number): FontSpec {
  let size = s === 1 ? font.size_pt : writtenSize(font.size_pt, s);
  if (k !== 1) size = writtenSize(size, k);
  return size === font.size_pt ? font : { ...font, size_pt: size };
}

/**
 * A run's font as laid out: its size written at `s`, small capitals at 0.8 of it, then
 * times the font scale `k`. The font object made for a size is kept on the run's split
 * and reused while the run's font and the size stay the same.
 */
function runFont(run: TextRunInput, split: RunSplit, s: number, k: number): FontSpec {
  const base = run.font;
  let size = s === 1 ? base.size_pt : writtenSize(base.size_pt, s);
  if (run.cap === 'small') size *= 0.8;
  if (k !== 1) size = writtenSize(size, k);
  if (size === base.size_pt) return base;
  const last = split.font;
  if (last !== undefined && split.fontOf === base && last.size_pt === size && last.name === base.name && last.bold === base.bold && last.italic === base.italic) return last;
  const made = { ...base, size_pt: size };
  split.font = made;
  split.fontOf = base;
  return made;
}

/** Font of a paragraph without runs or end-of-paragraph properties. */
const DEFAULT_FONT: FontSpec = Object.freeze({ name: 'Calibri', size_pt: 18 });

/**
 * Paragraph spacing in points: `a:spcPts` as written (times the body's scale), `a:spcPct`
 * a share of the line, 1.2 × `sizePt` (PowerPoint), or of `sizePt` itself with `ofSize`
 * (LibreOffice; {@link LayoutOptions.percentSpacingOfSize}).
 */
function spacingPts(s: Spacing | undefined, sizePt: number, k: number, ofSize: boolean): number {
  if (!s) return 0;
  return 'pts' in s ? s.pts * k : (s.pct / 100) * sizePt * (ofSize ? 1 : 1.2);
}

/** A typed array at least `need` long, keeping its contents. */
function atLeast<T extends Float64Array | Int32Array | Uint8Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = make(n);
  b.set(a);
  return b;
}

/**
 * Working storage of one paragraph's layout, kept between layouts (one per layout under
 * way) so that measuring allocates next to nothing. Pieces are numbered; the pieces of a
 * paragraph's runs come first, parts of broken words after them. Lines are stretches of
 * `placed` (piece numbers in line order).
 */
class Scratch {
  width = new Float64Array(64);
  kind = new Uint8Array(64);
  /** How the piece is set: 0 in its run's font, 1 in the complex-script fallback face, 2 in the run's complex-script face, 3 in the one it inherits ({@link complexFace}). */
  complex = new Uint8Array(64);
  /** Index of the piece's run in the paragraph. */
  run = new Int32Array(64);
  /** Index of the piece in its run's split, or -1 - index into `parts` for a part of a broken word. */
  seg = new Int32Array(64);
  /** Pieces in use. */
  size = 0;
  /** Texts of broken-word parts (the first `partCount`). */
  parts: string[] = [];
  partCount = 0;
  /** Per run of the paragraph: its font as laid out and its split (undefined for line breaks). */
  fonts: FontSpec[] = [];
  splits: Array<RunSplit | undefined> = [];
  /** Per run of the paragraph, when it has right-to-left text: each piece's resolved script ({@link resolveScripts}). */
  scripts: number[][] = [];
  placed = new Int32Array(64);
  placedLen = 0;
  /** Pieces put back (a word moved to the next line, the rest of a broken word): last put back first taken. */
  stack = new Int32Array(64);
  stackLen = 0;
  lineStart = new Int32Array(16);
  lineX = new Float64Array(16);
  lineAvail = new Float64Array(16);
  lines = 0;
  /**
   * The spaces {@link asianSpacing} added to the paragraph's pieces, for drawing: per piece,
   * [offset in its text (UTF-16), width pt] in text order; undefined when none (or only measuring).
   */
  gaps: Map<number, Array<[number, number]>> | undefined = undefined;
  // the line metrics being gathered by take()
  asc = 0;
  desc = 0;
  maxSize = 0;
  lastFont: FontSpec | undefined = undefined;
  /** The font last asked for its vertical metrics in this layout, and its ascent and descent. */
  metricsFont: FontSpec | undefined = undefined;
  metricsAscent = 0;
  metricsDescent = 0;
  /** Lines are measured by the faces' own ascent and descent (LayoutOptions.lineMetrics `face`). */
  faceMetrics = false;

  add(kind: number, width: number, run: number, seg: number, complex = 0): void {
    const i = this.size;
    if (i === this.width.length) {
      this.width = atLeast(this.width, i + 1, (n) => new Float64Array(n));
      this.kind = atLeast(this.kind, i + 1, (n) => new Uint8Array(n));
      this.complex = atLeast(this.complex, i + 1, (n) => new Uint8Array(n));
      this.run = atLeast(this.run, i + 1, (n) => new Int32Array(n));
      this.seg = atLeast(this.seg, i + 1, (n) => new Int32Array(n));
    }
    this.width[i] = width;
    this.kind[i] = kind;
    this.complex[i] = complex;
    this.run[i] = run;
    this.seg[i] = seg;
    this.size = i + 1;
  }

  place(i: number): void {
    if (this.placedLen === this.placed.length) this.placed = atLeast(this.placed, this.placedLen + 1, (n) => new Int32Array(n));
    this.placed[this.placedLen++] = i;
  }

  putBack(i: number): void {
    if (this.stackLen === this.stack.length) this.stack = atLeast(this.stack, this.stackLen + 1, (n) => new Int32Array(n));
    this.stack[this.stackLen++] = i;
  }

  /** Starts a line: the first of the paragraph at marL + indent, the others at marL. */
  newLine(marL: number, indent: number, marR: number, innerW: number): void {
    const li = this.lines;
    if (li === this.lineStart.length) {
      this.lineStart = atLeast(this.lineStart, li + 1, (n) => new Int32Array(n));
      this.lineX = atLeast(this.lineX, li + 1, (n) => new Float64Array(n));
      this.lineAvail = atLeast(this.lineAvail, li + 1, (n) => new Float64Array(n));
    }
    const startX = li === 0 ? firstLineX(marL, indent) : marL;
    this.lineStart[li] = this.placedLen;
    this.lineX[li] = startX;
    this.lineAvail[li] = Math.max(1, innerW - startX - marR);
    this.lines = li + 1;
  }

  /** The font piece `i` is set in: its run's, or the complex-script face at the run's size. */
  font(i: number): FontSpec {
    const f = this.fonts[this.run[i]!]!;
    const c = this.complex[i]!;
    return c ? complexFace(f, c) : f;
  }

  /** The spaces recorded after the text of piece `i` ({@link gaps}), if any. */
  gapsOf(i: number): Array<[number, number]> | undefined {
    return this.gaps?.get(i);
  }

  text(i: number): string {
    const seg = this.seg[i]!;
    return seg >= 0 ? this.splits[this.run[i]!]!.texts[seg]! : this.parts[-1 - seg]!;
  }

  /** Takes a font's ascent, descent and size into the line's (the font object repeats along a run). */
  take(f: FontSpec, m: FontMetrics): void {
    if (f === this.lastFont) return;
    this.lastFont = f;
    if (f !== this.metricsFont) {
      const v = m.vertical(f);
      this.metricsFont = f;
      this.metricsAscent = this.faceMetrics ? v.faceAscent_pt ?? v.ascent_pt : v.ascent_pt;
      this.metricsDescent = this.faceMetrics ? v.faceDescent_pt ?? v.descent_pt : v.descent_pt;
    }
    if (this.metricsAscent > this.asc) this.asc = this.metricsAscent;
    if (this.metricsDescent > this.desc) this.desc = this.metricsDescent;
    if (f.size_pt > this.maxSize) this.maxSize = f.size_pt;
  }

  /**
   * Splits the too-long word piece `i` into parts no wider than `avail` (at least one
   * character each), added as new pieces; returns the number of the first.
   */
  breakWord(i: number, avail: number, m: FontMetrics, runs: readonly TextRunInput[]): number {
    const from = this.size;
    const run = this.run[i]!;
    const font = this.font(i);
    const complex = this.complex[i]!;
    const spc = runs[run]!.spacing_pt ?? 0;
    let cur = '';
    let curW = 0;
    for (const ch of this.text(i)) {
      const w = (byGlyph(complex) ? measurePiece(ch, this.fonts[run]!, complex, m) : m.measure(ch, font)) + spc;
      if (cur && curW + w > avail) {
        this.parts[this.partCount++] = cur;
        this.add(WORD, curW, run, -this.partCount, complex);
        cur = '';
        curW = 0;
      }
      cur += ch;
      curW += w;
    }
    if (cur) {
      this.parts[this.partCount++] = cur;
      this.add(WORD, curW, run, -this.partCount, complex);
    }
    return from;
  }
}

/** The space LibreOffice adds where East Asian text meets other text, in em of the size of the text before it (see {@link asianSpacing}). */
export const ASIAN_SPACING_EM = 0.25;

/**
 * Adds to a paragraph's measured pieces the space LibreOffice puts between East Asian and
 * other text (its paragraph attribute "space between Asian and non-Asian text",
 * `ParaIsCharacterDistance`, on by default and not written in PPTX): where the script
 * changes between an East Asian character and another one, the text before the change
 * is widened by a fifth of its font's height — measured 0.23–0.245 em with the faces
 * LibreOffice draws, taken here as {@link ASIAN_SPACING_EM}. Spaces take the script of the
 * text before them (the space goes after them); the change is found across runs. Fitting
 * measures it so that a line LibreOffice breaks is broken when fitting too (issue 24: a
 * Japanese bullet with a digit wrapped one line later in LibreOffice than fitting found);
 * with `record` (drawing) each space is noted in {@link Scratch.gaps}, so that the text
 * after it is drawn past it. With `spaces`, a space after East Asian text is widened to
 * `spaces.em` ({@link LayoutOptions.eastAsianSpaces}) and noted so too.
 */
function asianSpacing(S: Scratch, count: number, record: boolean, spaces: { m: FontMetrics; em: number } | undefined): void {
  const widen = (at: number, offset: number, gap: number): void => {
    S.width[at] = S.width[at]! + gap;
    if (!record) return;
    S.gaps ??= new Map();
    let list = S.gaps.get(at);
    if (list === undefined) S.gaps.set(at, (list = []));
    list.push([offset, gap]);
  };
  // 1 East Asian, 2 other, 0 none yet (spaces only)
  let prev = 0;
  /** The piece holding the last character seen. */
  let last = -1;
  for (let i = 0; i < count; i++) {
    if (S.kind[i] === BREAK) {
      prev = 0;
      continue;
    }
    const text = S.text(i);
    for (let j = 0; j < text.length; j++) {
      const start = j;
      let cp = text.charCodeAt(j);
      if (cp >= 0xd800 && cp <= 0xdbff && j + 1 < text.length) {
        cp = text.codePointAt(j)!;
        j++;
      }
      if (cp === 0x20 || cp === 0xa0 || cp === 0x09) {
        // a space after East Asian text, as wide as in LibreOffice's face for it
        if (spaces && prev === 1 && cp === 0x20) {
          const font = S.font(i);
          const gap = spaces.em * font.size_pt - spaces.m.measure(' ', font);
          if (gap > 0) widen(i, j + 1, gap);
        }
        last = i;
        continue;
      }
      const cls = isEastAsian(cp) ? 1 : 2;
      if (prev !== 0 && cls !== prev) {
        // the change falls before this character: the piece of the character before it is widened
        const at = start === 0 ? last : i;
        if (at >= 0) widen(at, at === i ? start : S.text(at).length, ASIAN_SPACING_EM * S.font(at).size_pt);
      }
      prev = cls;
      last = i;
    }
  }
}

/**
 * The width of piece `i`'s end that may hang past the line ({@link LayoutOptions.hangingPunctuation}):
 * its last character when that is hanging punctuation after East Asian text (or East Asian
 * itself) in a run of an East Asian language, with the space {@link asianSpacing} puts
 * before it when `spaced`, and the run's letter spacing `spc`; 0 when it may not hang.
 */
function hangingWidth(S: Scratch, i: number, m: FontMetrics, spaced: boolean, spc: number): number {
  const kind = S.kind[i];
  if (kind !== WORD && kind !== UNIT && kind !== CJK) return 0;
  const font = S.font(i);
  if (!S.fonts[S.run[i]!]!.eastAsianLang) return 0;
  const chars = [...S.text(i)];
  const last = chars[chars.length - 1]!;
  if (!HANGING_PUNCTUATION.includes(last)) return 0;
  const before = chars.length > 1 ? chars[chars.length - 2]! : i > 0 && S.kind[i - 1] !== SPACE && S.kind[i - 1] !== BREAK ? [...S.text(i - 1)].pop() : undefined;
  const lastEastAsian = isEastAsian(last.codePointAt(0)!);
  const beforeEastAsian = before !== undefined && isEastAsian(before.codePointAt(0)!);
  if (!lastEastAsian && !beforeEastAsian) return 0;
  return m.measure(last, font) + spc + (spaced && beforeEastAsian && !lastEastAsian ? ASIAN_SPACING_EM * font.size_pt : 0);
}

/** Storage free for the next layout (a layout started while another is under way makes its own). */
let freeScratch: Scratch | undefined;

/**
 * Lays out a text body in a box: wraps each paragraph by measured advance widths (breaks
 * at spaces; a word wider than the line is broken between characters; CJK text breaks
 * between any two characters), places lines with line spacing, paragraph spacing, indents
 * and bullets, then aligns horizontally and anchors vertically.
 *
 * Line height at single spacing is the font's ascent + descent (OS/2 win metrics) of the
 * line's largest font, at least 1.2 × its size (PowerPoint's single line pitch; the extra
 * leading goes above the text); `a:spcPct` multiplies it, `a:spcPts` replaces it.
 *
 * @param body - resolved paragraphs and frame properties
 * @param box - the shape's text rectangle, EMU
 */
export function layoutText(body: TextBodyInput, box: TextBox, options: LayoutOptions = {}): TextLayout {
  const scratch = freeScratch ?? new Scratch();
  freeScratch = undefined;
  try {
    // the box's fields read here: callers build boxes in many shapes, and a map that
    // layoutWith's optimized code has not seen deoptimizes the whole layout
    return layoutWith(scratch, body, box.width_emu, box.height_emu, options);
  } finally {
    freeScratch = scratch;
  }
}

function layoutWith(S: Scratch, body: TextBodyInput, boxWidthEmu: number, boxHeightEmu: number, options: LayoutOptions): TextLayout {
  const m = options.metrics ?? defaultFontMetrics;
  S.metricsFont = undefined;
  S.faceMetrics = options.lineMetrics === 'face';
  const k = (body.fontScale ?? 1) * (options.extraScale ?? 1);
  const s = options.sizeScale ?? 1;
  const measureOnly = !!options.measureOnly;
  const ofSize = !!options.percentSpacingOfSize;
  const lnRed = (body.lnSpcReduction ?? 0) + (options.extraLnSpcReduction ?? 0);
  const lIns = (body.lIns_emu ?? 91440) / EMU_PER_PT;
  const rIns = (body.rIns_emu ?? 91440) / EMU_PER_PT;
  const tIns = (body.tIns_emu ?? 45720) / EMU_PER_PT;
  const bIns = (body.bIns_emu ?? 45720) / EMU_PER_PT;
  const boxW = boxWidthEmu / EMU_PER_PT;
  const boxH = boxHeightEmu / EMU_PER_PT;
  const wrap = body.wrap ?? true;
  const innerW = Math.max(0, boxW - lIns - rIns);

  const lines: LayoutLine[] = [];
  let y = 0;
  let brokeWords = false;
  let overflowX = 0;
  const paragraphs = body.paragraphs;
  const bodySplits = splitsFor(body);
  for (let pi = 0; pi < paragraphs.length; pi++) {
    const p = paragraphs[pi]!;
    const runs = p.runs;
    let splits = bodySplits[pi];
    if (splits === undefined) {
      splits = [];
      bodySplits[pi] = splits;
    }
    S.splits = splits;
    const marL = (p.marL_emu ?? 0) / EMU_PER_PT;
    const indent = (p.indent_emu ?? 0) / EMU_PER_PT;
    const marR = (p.marR_emu ?? 0) / EMU_PER_PT;
    // the paragraph's pieces, measured
    S.size = 0;
    S.partCount = 0;
    let firstRun = -1;
    let visible = false;
    // the runs' splits; with a right-to-left piece, the script of every piece in the paragraph's context
    let rtlPieces = false;
    let eastAsianPieces = false;
    for (let ri = 0; ri < runs.length; ri++) {
      const run = runs[ri]!;
      if (run.lineBreak) continue;
      let split = splits[ri];
      if (split === undefined || split.run !== run || split.text !== run.text || split.cap !== run.cap) {
        split = splitRun(run);
        splits[ri] = split;
      }
      if (split.rtl) rtlPieces = true;
      if (split.eastAsian !== undefined) eastAsianPieces = true;
    }
    if (rtlPieces) resolveScripts(splits, runs, S.scripts);
    else if (options.weakTextByLanguage) {
      const script = weakParagraphScript(splits, runs);
      if (script !== undefined) {
        rtlPieces = true;
        for (let ri = 0; ri < runs.length; ri++) {
          const o = (S.scripts[ri] ??= []);
          o.length = 0;
          const split = splits[ri];
          if (split && !runs[ri]!.lineBreak) for (let j = 0; j < split.texts.length; j++) o.push(script);
        }
      }
    }
    for (let ri = 0; ri < runs.length; ri++) {
      const run = runs[ri]!;
      if (run.lineBreak) {
        S.fonts[ri] = run.font;
        S.add(BREAK, 0, ri, 0);
        continue;
      }
      if (firstRun < 0 && run.text !== '') firstRun = ri;
      const split = splits[ri]!;
      const font = runFont(run, split, s, k);
      S.fonts[ri] = font;
      const spc = (run.spacing_pt ?? 0) * k;
      const texts = split.texts;
      const scripts = rtlPieces ? S.scripts[ri] : undefined;
      for (let j = 0; j < texts.length; j++) {
        const cs = scripts !== undefined && scripts[j]! > 0 ? complexSetting(font, scripts[j]!, texts[j]!, options, m) : 0;
        S.add(split.kinds[j]!, measurePiece(texts[j]!, font, cs, m) + (spc === 0 ? 0 : spc * split.counts[j]!), ri, j, cs);
        visible = true;
      }
    }
    const count = S.size;
    // how much of the paragraph's last piece may hang past the line's end (0: none)
    const hang = options.hangingPunctuation && p.hangingPunct !== false && count > 0 ? hangingWidth(S, count - 1, m, !!options.asianSpacing, (runs[S.run[count - 1]!]!.spacing_pt ?? 0) * k) : 0;
    S.gaps = undefined;
    if (options.asianSpacing && eastAsianPieces) asianSpacing(S, count, !measureOnly, options.eastAsianSpaces ? { m, em: EAST_ASIAN_SPACE_EM } : undefined);
    const first = firstRun >= 0 ? runs[firstRun]! : undefined;
    const firstFont =
      first !== undefined ? (first.cap === 'small' ? sized(first.font, s, k) : S.fonts[firstRun]!) : p.endFont ? sized(p.endFont, s, k) : runs[0] ? sized(runs[0].font, s, k) : sized(DEFAULT_FONT, 1, k);
    const paraSize = firstFont.size_pt;
    if (pi > 0 || lines.length > 0) y += spacingPts(p.spaceBefore, paraSize, k, ofSize);
    // group the pieces into lines
    S.placedLen = 0;
    S.stackLen = 0;
    S.lines = 0;
    S.newLine(marL, indent, marR, innerW);
    let bulletW = 0;
    let bulletFont: FontSpec | undefined;
    if (p.bullet && visible) {
      bulletFont = sized(p.bullet.font, s, k);
      bulletW = m.measure(p.bullet.text, bulletFont);
      // A bullet sits at marL + indent (not left of the inset); the text starts at marL (hanging indent), or after the bullet when that is further.
      const bulletX = firstLineX(marL, indent);
      const startX = indent < 0 ? Math.max(marL, bulletX + bulletW) : bulletX + bulletW;
      S.lineX[0] = startX;
      S.lineAvail[0] = Math.max(1, innerW - startX - marR);
    }
    let width = 0;
    let next = 0;
    while (S.stackLen > 0 || next < count) {
      const i = S.stackLen > 0 ? S.stack[--S.stackLen]! : next++;
      const kind = S.kind[i]!;
      if (kind === BREAK) {
        S.place(i);
        S.newLine(marL, indent, marR, innerW);
        width = 0;
        continue;
      }
      const cur = S.lines - 1;
      const avail = S.lineAvail[cur]!;
      if (!wrap || kind === SPACE || width + S.width[i]! <= avail + 1e-6 || (hang > 0 && i === count - 1 && width + S.width[i]! - hang <= avail + 1e-6)) {
        S.place(i);
        width += S.width[i]!;
        continue;
      }
      // Does not fit. Words glue to the word pieces before them without a space (a word split
      // across runs or after a hyphen), back to a hyphen a line may end after.
      const begin = S.lineStart[cur]!;
      let glued = S.placedLen;
      if (kind === WORD) {
        while (glued > begin && S.kind[S.placed[glued - 1]!] === WORD && !endsAtHyphenBreak(S.text(S.placed[glued - 1]!), S.text(glued < S.placedLen ? S.placed[glued]! : i))) glued--;
      }
      let hasOther = false;
      for (let j = begin; j < glued; j++) {
        const kj = S.kind[S.placed[j]!];
        if (kj !== SPACE && kj !== BREAK) {
          hasOther = true;
          break;
        }
      }
      if (hasOther) {
        // Move the word to a new line.
        S.putBack(i);
        for (let j = S.placedLen - 1; j >= glued; j--) S.putBack(S.placed[j]!);
        S.placedLen = glued;
        S.newLine(marL, indent, marR, innerW);
        width = 0;
        continue;
      }
      // The word alone is wider than the line: break it between characters.
      width = 0;
      for (let j = glued; j < S.placedLen; j++) width += S.width[S.placed[j]!]!;
      if (kind === CJK || (kind === UNIT && [...S.text(i)].length === 1)) {
        if (S.placedLen > begin) {
          S.newLine(marL, indent, marR, innerW);
          width = 0;
        }
        S.place(i);
        width += S.width[i]!;
        continue;
      }
      brokeWords = true;
      const firstPart = S.breakWord(i, Math.max(1, avail - width), m, runs);
      if (width > 0 && S.width[firstPart]! > avail - width) {
        S.newLine(marL, indent, marR, innerW);
        width = 0;
        const from = S.breakWord(i, S.lineAvail[S.lines - 1]!, m, runs);
        for (let j = S.size - 1; j >= from; j--) S.putBack(j);
        continue;
      }
      const end = S.size;
      S.place(firstPart);
      S.newLine(marL, indent, marR, innerW);
      width = 0;
      for (let j = end - 1; j > firstPart; j--) S.putBack(j);
    }
    // Place the lines.
    const lineSpacing = p.lineSpacing;
    const lineCount = S.lines;
    const lineMetrics = options.lineMetrics;
    const tallCjk = (!!options.tallEastAsianLines && (lineSpacing === undefined || ('pct' in lineSpacing && lineSpacing.pct >= 100))) || lineMetrics === 'face';
    for (let li = 0; li < lineCount; li++) {
      const begin = S.lineStart[li]!;
      const end = li + 1 < lineCount ? S.lineStart[li + 1]! : S.placedLen;
      // ascent and descent of the line's largest fonts; the last piece that is not a space
      S.asc = 0;
      S.desc = 0;
      S.maxSize = 0;
      S.lastFont = undefined;
      let visibleCount = 0;
      let last = -1;
      let hasBreak = false;
      let complexLine = false;
      for (let j = begin; j < end; j++) {
        const i = S.placed[j]!;
        const kind = S.kind[i]!;
        if (kind === BREAK) {
          hasBreak = true;
          continue;
        }
        visibleCount++;
        if (S.complex[i] || S.splits[S.run[i]!]?.rtl) complexLine = true;
        if (kind !== SPACE) last = j;
        const font = S.fonts[S.run[i]!]!;
        S.take(S.complex[i] ? S.font(i) : font, m);
        if (byGlyph(S.complex[i]!)) S.take(complexFace(font, S.complex[i]! - 2), m);
        // East Asian glyphs from the fallback face make a line of single or wider proportional spacing as tall as that face's (LayoutOptions.tallEastAsianLines), and a line measured by its faces as tall as that face's (lineMetrics `face`)
        if (kind === UNIT && tallCjk && S.seg[i]! >= 0 && S.splits[S.run[i]!]!.eastAsian?.[S.seg[i]!]) S.take(cjkFace(font), m);
      }
      if (visibleCount === 0) S.take(p.endFont ? sized(p.endFont, s, k) : firstFont, m);
      // the bullet's face counts towards its line's height, except where lines are set by the
      // text's own faces (LibreOffice's table cells: a bullet in Arial beside Calibri text leaves
      // the line as tall as the text's)
      if (li === 0 && bulletFont && visibleCount && lineMetrics !== 'face') S.take(bulletFont, m);
      let asc = S.asc;
      let desc = S.desc;
      if (lineMetrics === 'fontIndependent') {
        asc = S.maxSize;
        desc = 0.2 * S.maxSize;
      } else if (lineMetrics !== 'face' || complexLine) {
        // Single spacing: the font's ascent + descent, at least 1.2 × the size (PowerPoint's line
        // pitch). Lines set by the faces' own heights keep that minimum where they hold
        // right-to-left or complex-script text: LibreOffice's pages of Hebrew and Arabic tables
        // show it there (poi-stress021 slide 38: 16 pt lines 19.2 pt apart).
        asc += Math.max(0, 1.2 * S.maxSize - (asc + desc));
      }
      let h = asc + desc;
      let ascUsed = asc;
      if (lineSpacing && 'pts' in lineSpacing) {
        h = lineSpacing.pts * k;
        // LibreOffice keeps the descent; the line's ascent and descent share it otherwise
        ascUsed = lineMetrics ? asc + (h - (asc + desc)) : h * (asc / (asc + desc));
      } else {
        const pct = Math.max(0, (lineSpacing ? lineSpacing.pct / 100 : 1) - lnRed);
        h = (asc + desc) * pct;
        // Proportional spacing above 100 % adds above the text; below, it shrinks the ascent
        // by as much, or (LibreOffice's EditEngine) to 80 % of the shrunk line where that is less
        ascUsed = lineMetrics && pct < 1 ? Math.min(asc, 0.8 * h) : asc + (h - (asc + desc));
      }
      const top = y;
      const baseline = top + ascUsed;
      y += h;
      // Width without trailing spaces (line breaks hold no width).
      let textW = 0;
      for (let j = begin; j <= last; j++) {
        const i = S.placed[j]!;
        if (S.kind[i] !== BREAK) textW += S.width[i]!;
      }
      const avail = S.lineAvail[li]!;
      overflowX = Math.max(overflowX, textW - (hang > 0 && last >= begin && S.placed[last] === count - 1 ? hang : 0) - avail);
      if (measureOnly) {
        lines.push({ paragraph: pi, baseline_pt: baseline, top_pt: top, height_pt: h, width_pt: textW, avail_pt: avail, fragments: [] });
        continue;
      }
      // Alignment is absolute (as PowerPoint and LibreOffice draw rtl paragraphs with algn="l"):
      // a right-to-left line is placed mirrored, so its alignment is mirrored first.
      const rtl = !!p.rtl;
      const align = rtl ? mirroredAlign(p.align ?? 'l') : p.align ?? 'l';
      let off = 0;
      if (align === 'ctr') off = (avail - textW) / 2;
      else if (align === 'r') off = avail - textW;
      if (!wrap && align !== 'l') {
        // Unwrapped text is aligned inside the box even when wider than it.
        off = align === 'ctr' ? (avail - textW) / 2 : avail - textW;
      }
      const justify = (align === 'just' && li < lineCount - 1 && !hasBreak) || align === 'dist';
      let spaces = 0;
      for (let j = begin; j <= last; j++) if (S.kind[S.placed[j]!] === SPACE) spaces++;
      const extra = justify && spaces > 0 && textW < avail ? (avail - textW) / spaces : 0;
      const frags: LineFragment[] = [];
      let lastRun: TextRunInput | undefined;
      let x = lIns + S.lineX[li]! + off;
      if (li === 0 && bulletFont && p.bullet && visibleCount) {
        // The bullet stays at marL + indent; centred or right-aligned text moves it along with the text.
        const bx = lIns + firstLineX(marL, indent) + (align === 'l' ? 0 : off);
        frags.push({ text: p.bullet.text, x_pt: bx, width_pt: bulletW, font: bulletFont, color: p.bullet.color, rise_pt: 0, spacing_pt: 0, bullet: true });
      }
      // after a space between East Asian and other text the next text starts a fragment of its own
      let afterGap = false;
      const emit = (text: string, w: number, run: TextRunInput, font: FontSpec, i: number): void => {
        const prev = frags[frags.length - 1];
        if (prev && lastRun === run && prev.font === font && !afterGap) {
          prev.text += text;
          prev.width_pt += w;
        } else {
          frags.push({
            text,
            x_pt: x,
            width_pt: w,
            font,
            color: run.color,
            alpha: run.alpha,
            underline: run.underline,
            strike: run.strike,
            ...(run.highlight ? { highlight: run.highlight } : {}),
            ...(run.shadow ? { shadow: run.shadow } : {}),
            rise_pt: ((run.baseline_pct ?? 0) / 100) * font.size_pt,
            spacing_pt: (run.spacing_pt ?? 0) * k,
            ...(run.link_rid ? { link_rid: run.link_rid } : {}),
            ...((S.complex[i] === 1 || (byGlyph(S.complex[i]!) && font.name === COMPLEX_SCRIPT_FALLBACK_FAMILY)) && font.name !== (run.font.complexScript ?? run.font.name) ? { substitutedFor: run.font.complexScript ?? run.font.name } : {}),
          });
          lastRun = run;
        }
        afterGap = false;
        x += w;
      };
      for (let j = begin; j <= last; j++) {
        const i = S.placed[j]!;
        const kind = S.kind[i]!;
        if (kind === BREAK) continue;
        const run = runs[S.run[i]!]!;
        const font = S.font(i);
        const w = S.width[i]! + (kind === SPACE ? extra : 0);
        const gaps = S.gapsOf(i);
        if (gaps === undefined && byGlyph(S.complex[i]!)) {
          // set glyph by glyph: each part in its face, the piece's width shared out by the parts' own
          const spc = (run.spacing_pt ?? 0) * k;
          const parts = glyphParts(S.text(i), S.fonts[S.run[i]!]!, S.complex[i]!);
          let used = 0;
          parts.forEach((part, n) => {
            const pw = n === parts.length - 1 ? Math.max(0, w - used) : m.measure(part.text, part.font) + spc * [...part.text].length;
            emit(part.text, pw, run, part.font, i);
            used += pw;
          });
          continue;
        }
        if (gaps === undefined) {
          emit(S.text(i), w, run, font, i);
          // a justified space widens the line between fragments: the next word starts one of its own
          if (kind === SPACE && extra > 0) afterGap = true;
          continue;
        }
        // the piece's text is drawn in parts, each space between them left empty
        const text = S.text(i);
        const spc = (run.spacing_pt ?? 0) * k;
        let used = 0;
        let from = 0;
        for (const [at, gap] of gaps) {
          if (at > from) {
            const part = text.slice(from, at);
            const pw = m.measure(part, font) + spc * [...part].length;
            emit(part, pw, run, font, i);
            used += pw;
          }
          x += gap;
          used += gap;
          afterGap = true;
          from = at;
        }
        // the rest of the piece's width (a justified space's share past a space at its end) goes to its last part
        if (from < text.length) emit(text.slice(from), Math.max(0, w - used), run, font, i);
        else x += Math.max(0, w - used);
      }
      if (rtl || frags.some((f) => !f.bullet && hasRightToLeft(f.text))) orderBidi(frags, rtl, 2 * lIns + innerW, m);
      lines.push({ paragraph: pi, baseline_pt: baseline, top_pt: top, height_pt: h, width_pt: textW, avail_pt: avail, fragments: frags });
    }
    y += spacingPts(p.spaceAfter, paraSize, k, ofSize);
  }
  // Space after the last paragraph does not count towards the text height.
  const lastLine = lines[lines.length - 1];
  const textHeight = lastLine ? lastLine.top_pt + lastLine.height_pt : 0;
  const totalHeight = textHeight + tIns + bIns;
  const anchor = body.anchor ?? 't';
  let dy = tIns;
  const free = boxH - totalHeight;
  if (anchor === 'ctr') dy = tIns + free / 2;
  else if (anchor === 'b') dy = tIns + free;
  for (const l of lines) {
    l.top_pt += dy;
    l.baseline_pt += dy;
  }
  return { lines, textHeight_pt: textHeight, totalHeight_pt: totalHeight, overflow_pt: Math.max(0, totalHeight - boxH), overflowX_pt: wrap ? 0 : Math.max(0, overflowX), brokeWords, scale: k };
}

/** `algn` seen from the other side (l ↔ r). */
function mirroredAlign(a: NonNullable<ParagraphInput['align']>): NonNullable<ParagraphInput['align']> {
  return a === 'l' ? 'r' : a === 'r' ? 'l' : a;
}

/**
 * The face complex-script text is set in, at a run font's size and style (kept per font
 * object). LibreOffice sets such text in the run's complex-script font (`a:cs`,
 * {@link FontSpec.complexScript}; `setting` 2), which templates nearly always leave empty
 * (the theme's `a:cs typeface=""`; LibreOffice does not read the theme's per-script
 * `a:font` list) — then in the face named further up the inheritance
 * ({@link FontSpec.inheritedComplexScript}; `setting` 3), if any; with none, or one that
 * lacks the script, in the face fontconfig gives the script (`setting` 1):
 * {@link COMPLEX_SCRIPT_FALLBACK_FAMILY} for Hebrew and Arabic.
 */
const complexFaces = new WeakMap<FontSpec, Array<FontSpec | undefined>>();
function complexFace(font: FontSpec, setting: number): FontSpec {
  let faces = complexFaces.get(font);
  if (!faces) {
    faces = [];
    complexFaces.set(font, faces);
  }
  // a piece set glyph by glyph (4, 5) counts as set in the fallback face where one face is asked for
  const face = byGlyph(setting) ? 1 : setting;
  const name = face === 2 ? font.complexScript! : face === 3 ? font.inheritedComplexScript! : COMPLEX_SCRIPT_FALLBACK_FAMILY;
  return (faces[face] ??= { name, size_pt: font.size_pt, bold: font.bold, italic: font.italic });
}

/** The CJK fallback face at a run font's size and weight (kept per font object). */
const cjkFaces = new WeakMap<FontSpec, FontSpec>();
function cjkFace(font: FontSpec): FontSpec {
  let f = cjkFaces.get(font);
  if (!f) {
    f = { name: CJK_FALLBACK_FAMILY, size_pt: font.size_pt, bold: font.bold };
    cjkFaces.set(font, f);
  }
  return f;
}

/**
 * Puts a line's fragments (in logical order, placed left to right) into visual order:
 * splits them where the bidi embedding level changes (UAX #9 with the paragraph's base
 * direction), orders the pieces by rule L2 and places them one after the other over the
 * line's span. A right-to-left paragraph's line is first mirrored inside the box
 * (`mirrorSum` = twice the left inset plus the inner width), bullet included.
 */
function orderBidi(frags: LineFragment[], rtl: boolean, mirrorSum: number, m: FontMetrics): void {
  const text: LineFragment[] = [];
  for (const f of frags) {
    if (rtl) f.x_pt = mirrorSum - f.x_pt - f.width_pt;
    if (!f.bullet) text.push(f);
  }
  if (text.length === 0) return;
  let left = Infinity;
  let right = -Infinity;
  let joined = '';
  for (const f of text) {
    left = Math.min(left, f.x_pt);
    right = Math.max(right, f.x_pt + f.width_pt);
    joined += f.text;
  }
  const levels = embeddingLevels(joined, rtl);
  const pieces: LineFragment[] = [];
  const pieceLevels: number[] = [];
  let at = 0;
  for (const f of text) {
    let start = 0;
    for (let i = 1; i <= f.text.length; i++) {
      if (i < f.text.length && levels[at + i] === levels[at + start]) continue;
      const part = f.text.slice(start, i);
      const whole = start === 0 && i === f.text.length;
      const width = whole ? f.width_pt : m.measure(part, f.font) + f.spacing_pt * [...part].length;
      const level = levels[at + start]!;
      pieces.push({ ...f, text: part, width_pt: width, ...(level % 2 === 1 ? { rtl: true } : {}) });
      pieceLevels.push(level);
      start = i;
    }
    at += f.text.length;
  }
  // the pieces' widths may differ from the fragments' (measured apart): keep the span's side the line is aligned to
  const total = pieces.reduce((sum, f) => sum + f.width_pt, 0);
  let x = rtl ? right - total : left;
  const placed: LineFragment[] = [];
  for (const i of visualOrder(pieceLevels)) {
    const f = pieces[i]!;
    f.x_pt = x;
    x += f.width_pt;
    placed.push(f);
  }
  const bullets = frags.filter((f) => f.bullet);
  frags.length = 0;
  frags.push(...bullets, ...placed);
}

/** Options of {@link fitText}. */
export interface FitOptions {
  /** Smallest size any run may shrink to, pt (default 8). */
  minSizePt?: number;
  metrics?: FontMetrics;
  /** Also allow line spacing reduction up to this fraction (PowerPoint uses up to 0.2); default 0. */
  maxLnSpcReduction?: number;
}

/** True when a layout fits its box in both directions (0.01 pt tolerance). */
function fitsIn(l: TextLayout): boolean {
  return l.overflow_pt <= 0.01 && l.overflowX_pt <= 0.01;
}

/** Result of {@link fitText}. */
export interface FitResult {
  /** Scale applied to every run's template size (1 = as the template says). */
  scale: number;
  /** The largest run size after scaling, pt. */
  sizePt: number;
  /** True when the text fits the box at `scale`. */
  fits: boolean;
  /** Overflow at the chosen scale, pt (0 when it fits). */
  overflow_pt: number;
  /** Line spacing reduction used (fraction). */
  lnSpcReduction: number;
  layout: TextLayout;
}

/**
 * Finds the largest font scale ≤ 1 (relative to the sizes in `body`, its own fontScale
 * ignored) at which the text fits `box` (height, and width for unwrapped text), without taking the largest run below
 * `minSizePt`. Binary search over the scale (text height is monotone in it), accurate to
 * 0.1 pt of the largest size; reports the overflow when even the minimum does not fit.
 */
export function fitText(body: TextBodyInput, box: TextBox, options: FitOptions = {}): FitResult {
  const metrics = options.metrics ?? defaultFontMetrics;
  const base: TextBodyInput = { ...body, fontScale: 1, lnSpcReduction: 0 };
  let maxSize = 0;
  for (const p of body.paragraphs) for (const r of p.runs) maxSize = Math.max(maxSize, r.font.size_pt);
  if (maxSize === 0) maxSize = 18;
  const minScale = Math.min(1, (options.minSizePt ?? 8) / maxSize);
  const red = options.maxLnSpcReduction ?? 0;
  const at = (s: number, r: number): TextLayout => layoutText(base, box, { metrics, extraScale: s, extraLnSpcReduction: r });
  const full = at(1, 0);
  if (fitsIn(full)) return { scale: 1, sizePt: maxSize, fits: true, overflow_pt: 0, lnSpcReduction: 0, layout: full };
  const lowest = at(minScale, red);
  if (!fitsIn(lowest)) {
    return { scale: minScale, sizePt: maxSize * minScale, fits: false, overflow_pt: lowest.overflow_pt, lnSpcReduction: red, layout: lowest };
  }
  let lo = minScale;
  let hi = 1;
  let best = lowest;
  const step = 0.1 / maxSize;
  while (hi - lo > step) {
    const mid = (lo + hi) / 2;
    const l = at(mid, red);
    if (fitsIn(l)) {
      lo = mid;
      best = l;
    } else hi = mid;
  }
  return { scale: lo, sizePt: maxSize * lo, fits: true, overflow_pt: 0, lnSpcReduction: red, layout: best };
}
