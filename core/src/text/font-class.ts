/**
 * The class of a typeface, for fonts Slidewright has no metrics of: which of the shipped
 * open faces stands in for it when it is measured (text fitting) and drawn (previews).
 * One rule for both: {@link resolveFace} in `font-metrics.ts` asks {@link classOfName}
 * and, for names it does not know, the class the template's own attributes give
 * ({@link shapeFromAttributes}).
 *
 * A class here has a *shape*, what the stand-in must share with the font (`serif`,
 * `sans` or `mono`: serif fonts are drawn and measured with a serif, monospaced ones with
 * a monospace), and a *kind* (`text`, `script`, `display`, `symbol`) that says what sort
 * of face it is; script and display faces take the shape closest to them.
 *
 * Where the class comes from, first match wins:
 *
 * 1. {@link FONT_FAMILY_CLASSES}: well-known families by name (their designers' and
 *    vendors' published classifications), including Japanese, Chinese and Korean names as
 *    templates write them. Names are compared after NFKC normalization, case folding and
 *    space collapsing, so `ＭＳ Ｐゴシック` (full-width) and `MS Pゴシック` are one name.
 * 2. The template's `a:latin/@panose` (ECMA-376 Part 1, §21.1.2.3.7; ST_Panose, §22.9.2.8:
 *    the ten PANOSE 2.0 digits as 20 hex characters), see {@link shapeFromPanose}.
 * 3. The template's `a:latin/@pitchFamily` (ST_PitchFamily, §20.1.10.41: the Windows
 *    LOGFONT `lfPitchAndFamily` byte written as a signed decimal, e.g. "34" for 0x22),
 *    see {@link shapeFromPitchFamily}.
 * 4. Words in the name ("Mono", "Serif", "Slab", "明朝", "ゴシック", "Script", …), see
 *    {@link shapeFromNameWords}.
 * 5. Otherwise sans serif, the shape most template fonts have.
 */

/** What a stand-in must share with the font it stands in for. */
export type FontShape = 'serif' | 'sans' | 'mono';
/** What sort of face a font is. */
export type FontKind = 'text' | 'script' | 'display' | 'symbol';

/** A font's class: its shape and its kind. */
export interface FontClass {
  shape: FontShape;
  kind: FontKind;
}

/** Where a class was found (see the module header). */
export type FontClassSource = 'name' | 'panose' | 'pitchFamily' | 'name words' | 'default';

/** A font's class and where it was found. */
export interface FontClassification extends FontClass {
  source: FontClassSource;
}

/** The attributes DrawingML writes beside a typeface (`a:latin`, `a:ea`, `a:cs`, `a:font`). */
export interface FontAttributes {
  /** `@panose`: 20 hex digits. */
  panose?: string;
  /** `@pitchFamily`: signed decimal byte, as written. */
  pitchFamily?: string | number;
}

const SERIF: FontClass = { shape: 'serif', kind: 'text' };
const SANS: FontClass = { shape: 'sans', kind: 'text' };
const MONO: FontClass = { shape: 'mono', kind: 'text' };
const SCRIPT_SERIF: FontClass = { shape: 'serif', kind: 'script' };
const SCRIPT_SANS: FontClass = { shape: 'sans', kind: 'script' };
const DISPLAY_SERIF: FontClass = { shape: 'serif', kind: 'display' };
const DISPLAY_SANS: FontClass = { shape: 'sans', kind: 'display' };
const SYMBOL: FontClass = { shape: 'sans', kind: 'symbol' };

/** Family names per class (written as their vendors spell them; looked up by {@link fontNameKey}). */
const FAMILIES: ReadonlyArray<readonly [FontClass, readonly string[]]> = [
  [SERIF, [
    // Microsoft and Monotype text serifs
    'Constantia', 'Georgia', 'Garamond', 'Book Antiqua', 'Palatino', 'Palatino Linotype', 'Century', 'Century Schoolbook', 'New Century Schoolbook',
    'Bookman Old Style', 'Baskerville Old Face', 'Bell MT', 'Bodoni MT', 'Californian FB', 'Calisto MT', 'Centaur', 'Footlight MT Light', 'Goudy Old Style',
    'High Tower Text', 'Perpetua', 'Sylfaen', 'Cambria Math', 'Times New Roman PS', 'Rockwell', 'Rockwell Condensed', 'Modern No. 20', 'Bookman',
    // Adobe, Apple, Linotype and others
    'Adobe Garamond Pro', 'Adobe Caslon Pro', 'Caslon', 'Big Caslon', 'Baskerville', 'Bodoni 72', 'Didot', 'Minion Pro', 'Minion', 'Sabon', 'Charter',
    'Bitstream Charter', 'Iowan Old Style', 'Hoefler Text', 'Cochin', 'Optima Serif', 'Trajan Pro', 'Tiempos Text', 'GT Sectra', 'GT Sectra Fine', 'Freight Text Pro',
    // open families
    'Lora', 'Merriweather', 'Playfair Display', 'PT Serif', 'Noto Serif', 'Source Serif Pro', 'Source Serif 4', 'Droid Serif', 'Crimson Text', 'Crimson Pro',
    'EB Garamond', 'Cormorant Garamond', 'Libre Baskerville', 'Libre Caslon Text', 'Roboto Slab', 'Zilla Slab', 'Arvo', 'Bitter', 'Noto Serif CJK JP',
    'Noto Serif CJK SC', 'Source Han Serif', 'IPAMincho', 'IPAPMincho', 'TeX Gyre Termes', 'TeX Gyre Pagella', 'Gelasio',
    // Japanese, Chinese and Korean serifs (mincho, song, ming, batang) that are proportional
    'MS P明朝', 'MS PMincho', '游明朝', 'Yu Mincho', 'HGP明朝B', 'HGP明朝E', 'ヒラギノ明朝 ProN', 'Hiragino Mincho ProN',
    '宋体', 'SimSun', '仿宋', 'FangSong', '华文宋体', 'STSong', '华文中宋', 'STZhongsong', '华文仿宋', 'STFangsong', '新細明體', 'PMingLiU',
    '바탕', 'Batang', '궁서', 'Gungsuh',
    // Hebrew and Arabic faces whose Latin letters are serifed
    'David', 'Frank Ruehl', 'FrankRuehl', 'Narkisim', 'Traditional Arabic', 'Simplified Arabic', 'Arabic Typesetting', 'Sakkal Majalla',
  ]],
  [SANS, [
    'Aptos', 'Aptos Display', 'Aptos Narrow', 'Open Sans', 'Roboto', 'Lato', 'Montserrat', 'Source Sans Pro', 'Source Sans 3', 'Noto Sans', 'Noto Sans Regular',
    'Fira Sans', 'PT Sans', 'Ubuntu', 'Inter', 'Futura', 'Avenir', 'Avenir Next', 'Gill Sans', 'Myriad Pro', 'Frutiger', 'Univers', 'DIN', 'Graphik',
    'Proxima Nova', 'Gotham', 'Tw Cen MT', 'Franklin Gothic', 'Franklin Gothic Demi', 'Microsoft Sans Serif', 'Arial Unicode MS', 'Poppins', 'Nunito',
    'Muli', 'Raleway', 'Titillium', 'Titillium Web', 'Work Sans', 'Barlow', 'IBM Plex Sans', 'SF Pro', 'SF Pro Display', 'SF Pro Text', '.AppleSystemUIFont',
    'Optima', 'Segoe', 'Selawik', 'Swiss 72 1 BT', 'Gisha', 'Miriam', 'Aharoni', 'Expert Sans Regular', 'Noto Sans CJK JP', 'Noto Sans CJK SC', 'Noto Sans JP',
    'Noto Sans SC', 'Source Han Sans',
    // Japanese, Chinese and Korean sans (gothic, hei, dotum, gulim) that are proportional
    'MS Pゴシック', 'MS PGothic', 'MS UI Gothic', 'メイリオ', 'Meiryo', 'Meiryo UI', '游ゴシック', 'Yu Gothic', 'Yu Gothic UI', 'HGPゴシックM', 'HGPゴシックE',
    'HGP創英角ゴシックUB', 'HGS創英角ゴシックUB', 'ヒラギノ角ゴ ProN', 'Hiragino Kaku Gothic ProN', 'Hiragino Sans',
    '微软雅黑', 'Microsoft YaHei', '等线', '等线 Light', 'DengXian', '黑体', 'SimHei', '微軟正黑體', 'Microsoft JhengHei', '华文黑体', 'STHeiti', 'PingFang SC',
    '맑은 고딕', 'Malgun Gothic', '돋움', 'Dotum', '굴림', 'Gulim',
  ]],
  [MONO, [
    'Consolas', 'Lucida Console', 'Lucida Sans Typewriter', 'Andale Mono', 'Menlo', 'Monaco', 'SF Mono', 'Source Code Pro', 'Fira Code', 'Fira Mono',
    'JetBrains Mono', 'Roboto Mono', 'Inconsolata', 'Cascadia Code', 'Cascadia Mono', 'DejaVu Sans Mono', 'Ubuntu Mono', 'IBM Plex Mono', 'Noto Sans Mono',
    'OCR A Extended', 'Letter Gothic', 'Prestige Elite', 'Courier Std', 'Everson Mono',
    // CJK faces whose Latin letters are fixed-pitch (half-width)
    'MS ゴシック', 'MS Gothic', 'MS 明朝', 'MS Mincho', '新宋体', 'NSimSun', '細明體', 'MingLiU', '바탕체', 'BatangChe', '굴림체', 'GulimChe', '돋움체', 'DotumChe',
  ]],
  [SCRIPT_SERIF, [
    'Brush Script MT', 'Brush Script Std', 'Edwardian Script ITC', 'Vladimir Script', 'Kunstler Script', 'French Script MT', 'Palace Script MT', 'Script MT Bold',
    'Monotype Corsiva', 'Vivaldi', 'Zapfino', 'Apple Chancery', 'Lucida Calligraphy', 'Lucida Handwriting', 'Freestyle Script', 'Mistral', 'Great Vibes',
    'Dancing Script', 'Pacifico', '楷体', 'KaiTi', '华文楷体', 'STKaiti', '標楷體', 'DFKai-SB',
  ]],
  [SCRIPT_SANS, ['Comic Sans MS', 'Segoe Print', 'Segoe Script', 'Ink Free', 'Kristen ITC', 'Bradley Hand', 'Chalkboard', 'Caveat']],
  [DISPLAY_SANS, [
    'Impact', 'Haettenschweiler', 'Bauhaus 93', 'Berlin Sans FB', 'Showcard Gothic', 'Gill Sans Ultra Bold', 'Britannic Bold', 'Tw Cen MT Condensed Extra Bold',
    'Agency FB', 'Bebas Neue', 'Oswald', 'Anton', 'Broadway', 'Jokerman', 'Snap ITC', 'Ravie', 'Magneto', 'Forte',
  ]],
  [DISPLAY_SERIF, ['Algerian', 'Castellar', 'Cooper Black', 'Stencil', 'Wide Latin', 'Bernard MT Condensed', 'Old English Text MT', 'Engravers MT', 'Felix Titling', 'Colonna MT', 'Playbill', 'Abril Fatface']],
  [SYMBOL, ['Wingdings', 'Wingdings 2', 'Wingdings 3', 'Webdings', 'Symbol', 'Marlett', 'MT Extra', 'OpenSymbol', 'StarSymbol', 'Segoe UI Symbol', 'Segoe UI Emoji', 'Segoe MDL2 Assets']],
];

/**
 * A typeface name as the class tables compare it: NFKC (full-width Latin and half-width
 * katakana folded), lower case, runs of spaces as one, trimmed.
 */
export function fontNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Well-known families by {@link fontNameKey}: their class. */
export const FONT_FAMILY_CLASSES: ReadonlyMap<string, FontClass> = new Map(FAMILIES.flatMap(([cls, names]) => names.map((n) => [fontNameKey(n), cls] as const)));

/** The class of a well-known family, or undefined for a name the table does not hold. */
export function classOfName(name: string): FontClass | undefined {
  return FONT_FAMILY_CLASSES.get(fontNameKey(name));
}

/** The PANOSE digits of an ST_Panose value (20 hex characters), or undefined when it is not one. */
function panoseDigits(panose: string): number[] | undefined {
  if (!/^[0-9A-Fa-f]{20}$/.test(panose)) return undefined;
  const out: number[] = [];
  for (let i = 0; i < 20; i += 2) out.push(parseInt(panose.slice(i, i + 2), 16));
  return out;
}

/** A PANOSE serif style or serif variant digit as a shape: 2–10 have serifs, 11–15 do not. */
function serifDigitShape(d: number | undefined): FontShape | undefined {
  if (d === undefined) return undefined;
  if (d >= 2 && d <= 10) return 'serif';
  if (d >= 11 && d <= 15) return 'sans';
  return undefined;
}

/**
 * The class a PANOSE 2.0 classification gives, or undefined when it says nothing usable
 * (family kind 0 "any" or 1 "no fit", digits out of range). By family kind (digit 1):
 *
 * - 2, Latin Text: digit 4 (proportion) 9 = monospaced → mono; else digit 2 (serif
 *   style) 2–10 (cove … triangle) → serif, 11–15 (normal, obtuse and perpendicular sans,
 *   flared, rounded) → sans.
 * - 3, Latin Hand Written (script): digit 4 (spacing) 3 = monospaced → mono; else
 *   digit 6 (contrast) 5–9 (medium low … very high, calligraphic strokes) → a serif,
 *   2–4 (none … low, monoline) → a sans; unknown contrast → a serif.
 * - 4, Latin Decorative (display): digit 6 (serif variant) 2–10 → a serif, 11–15 → a sans,
 *   16 (script) → a script with a serif; otherwise a sans (most display faces are heavy
 *   sans forms).
 * - 5, Latin Symbol → symbol (drawn with a sans).
 */
export function shapeFromPanose(panose: string | undefined): FontClass | undefined {
  const d = panose === undefined ? undefined : panoseDigits(panose);
  if (!d) return undefined;
  switch (d[0]) {
    case 2: {
      if (d[3] === 9) return MONO;
      const s = serifDigitShape(d[1]);
      return s === 'serif' ? SERIF : s === 'sans' ? SANS : undefined;
    }
    case 3:
      if (d[3] === 3) return { shape: 'mono', kind: 'script' };
      return d[5]! >= 2 && d[5]! <= 4 ? SCRIPT_SANS : SCRIPT_SERIF;
    case 4: {
      if (d[5] === 16) return SCRIPT_SERIF;
      return serifDigitShape(d[5]) === 'serif' ? DISPLAY_SERIF : DISPLAY_SANS;
    }
    case 5:
      return SYMBOL;
    default:
      return undefined;
  }
}

/** `lfPitchAndFamily` pitch bits (low two): FIXED_PITCH. */
const FIXED_PITCH = 1;
/** `lfPitchAndFamily` family values (high nibble). */
const FF = { roman: 0x10, swiss: 0x20, modern: 0x30, script: 0x40, decorative: 0x50 } as const;

/**
 * The class a `pitchFamily` value gives (the Windows LOGFONT `lfPitchAndFamily` byte:
 * pitch in the low two bits, 0 default, 1 fixed, 2 variable; family in the high nibble),
 * or undefined when it says nothing (no family and no fixed pitch, or not a number):
 *
 * - fixed pitch, whatever the family → mono;
 * - FF_ROMAN (0x10, e.g. "18" = 0x12, roman with variable pitch: Times New Roman, Cambria)
 *   → serif;
 * - FF_SWISS (0x20, e.g. "34" = 0x22: Arial, Calibri) → sans;
 * - FF_MODERN (0x30: constant stroke width) with variable pitch (e.g. "50": MS PGothic,
 *   Meiryo UI) → sans;
 * - FF_SCRIPT (0x40) → a script, drawn with a serif (calligraphic scripts are the usual case);
 * - FF_DECORATIVE (0x50) → a display face, drawn with a sans.
 *
 * The value is a signed byte in the file (ST_PitchFamily); it is read modulo 256.
 */
export function shapeFromPitchFamily(pitchFamily: string | number | undefined): FontClass | undefined {
  if (pitchFamily === undefined || pitchFamily === '') return undefined;
  const n = typeof pitchFamily === 'number' ? pitchFamily : Number(pitchFamily);
  if (!Number.isInteger(n)) return undefined;
  const v = n & 0xff;
  const family = v & 0xf0;
  if ((v & 0x03) === FIXED_PITCH) return family === FF.script ? { shape: 'mono', kind: 'script' } : family === FF.decorative ? { shape: 'mono', kind: 'display' } : MONO;
  switch (family) {
    case FF.roman:
      return SERIF;
    case FF.swiss:
    case FF.modern:
      return SANS;
    case FF.script:
      return SCRIPT_SERIF;
    case FF.decorative:
      return DISPLAY_SANS;
    default:
      return undefined;
  }
}

/**
 * The class the attributes beside a typeface give: PANOSE first (it describes the face
 * itself), then pitchFamily; undefined when neither says anything.
 */
export function shapeFromAttributes(attrs: FontAttributes | undefined): FontClassification | undefined {
  if (!attrs) return undefined;
  const p = shapeFromPanose(attrs.panose);
  if (p) return { ...p, source: 'panose' };
  const f = shapeFromPitchFamily(attrs.pitchFamily);
  if (f) return { ...f, source: 'pitchFamily' };
  return undefined;
}

/**
 * The class words in a name suggest, or undefined: "mono", "courier", "code", "console",
 * "typewriter" → mono; "serif" (without "sans"), "roman", "times", "slab", "mincho"/"明朝",
 * "song"/"宋", "ming"/"明體" → serif; "script", "hand", "brush", "callig", "kai"/"楷" → a
 * script with a serif; "sans", "gothic"/"ゴシック", "hei"/"黑" → sans.
 */
export function shapeFromNameWords(name: string): FontClass | undefined {
  const key = fontNameKey(name);
  if (/mono|courier|\bcode\b|console|typewriter|等幅/.test(key)) return MONO;
  if ((/serif/.test(key) && !/sans/.test(key)) || /roman|times|\bslab\b|mincho|明朝|\bsong\b|宋|\bming|明體|明体/.test(key)) return SERIF;
  if (/script|\bhand|brush|callig|\bkai\b|楷/.test(key)) return SCRIPT_SERIF;
  if (/sans|gothic|ゴシック|\bhei\b|黑|黒/.test(key)) return SANS;
  return undefined;
}

/**
 * The class of a font Slidewright has no metrics of, and where it was found: the name
 * table, then the attributes, then words in the name, then sans (see the module header).
 */
export function classifyFont(name: string, attrs?: FontAttributes): FontClassification {
  const known = classOfName(name);
  if (known) return { ...known, source: 'name' };
  const fromAttrs = shapeFromAttributes(attrs);
  if (fromAttrs) return fromAttrs;
  const words = shapeFromNameWords(name);
  if (words) return { ...words, source: 'name words' };
  return { ...SANS, source: 'default' };
}
