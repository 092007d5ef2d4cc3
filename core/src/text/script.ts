/**
 * Scripts of text as DrawingML sorts them: every character of a run is drawn with one of
 * the run's three font slots (ECMA-376 Part 1, §21.1.2.3.7 `a:latin`, §21.1.2.3.3 `a:ea`
 * East Asian, §21.1.2.3.1 `a:cs` complex script), and a paragraph whose text is written
 * right to left carries `rtl="1"` (§21.1.2.2.7 `a:pPr`).
 *
 * Which slot a character takes follows PowerPoint: Han, kana, Hangul, Bopomofo and the
 * full-width forms are East Asian; Hebrew, Arabic, Syriac, Thaana, N'Ko, Thai, Lao,
 * Tibetan, Khmer, Myanmar and the Indic scripts are complex; the rest (Latin, Greek,
 * Cyrillic, digits, punctuation) is Latin. Spaces and punctuation are neutral: they go
 * with the text around them rather than opening a run of their own.
 */

/** A DrawingML font slot. */
export type FontSlot = 'latin' | 'ea' | 'cs';

/** True for East Asian code points: Hangul Jamo, CJK radicals to Yi, Hangul, compatibility ideographs, vertical and full-width forms, the supplementary ideographs. */
export function isEastAsian(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xac00 && cp <= 0xd7ff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x20000 && cp <= 0x3ffff)
  );
}

/** True for code points of scripts written right to left: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and their presentation forms. */
export function isRightToLeft(cp: number): boolean {
  return (
    (cp >= 0x0590 && cp <= 0x08ff) ||
    (cp >= 0xfb1d && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfeff && cp !== 0xfeff) ||
    (cp >= 0x10800 && cp <= 0x10fff) ||
    (cp >= 0x1e800 && cp <= 0x1efff)
  );
}

/** True for complex-script code points (the `a:cs` slot): right-to-left scripts, Indic scripts, Thai, Lao, Tibetan, Myanmar, Khmer. */
export function isComplexScript(cp: number): boolean {
  return isRightToLeft(cp) || (cp >= 0x0900 && cp <= 0x0fff) || (cp >= 0x1000 && cp <= 0x109f) || (cp >= 0x1780 && cp <= 0x17ff);
}

/** Neutral characters: spaces, punctuation, symbols and digits of the ASCII and general punctuation blocks, joiners and marks. */
function isNeutral(cp: number): boolean {
  if (cp < 0x80) return !((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a));
  return cp === 0xa0 || (cp >= 0x2000 && cp <= 0x206f) || cp === 0x3000 || cp === 0x060c || cp === 0x061f || cp === 0x061b;
}

/** The slot a code point is drawn with (neutral characters: `undefined`). */
export function slotOf(cp: number): FontSlot | undefined {
  if (isNeutral(cp)) return undefined;
  if (isEastAsian(cp)) return 'ea';
  if (isComplexScript(cp)) return 'cs';
  return 'latin';
}

/** Whether a text holds a character that is not drawn with the Latin slot (the text needs script-aware handling). */
export function hasNonLatinScript(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0590) continue;
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const s = slotOf(cp);
    if (s === 'ea' || s === 'cs') return true;
  }
  return false;
}

/** Whether a text holds a right-to-left character. */
export function hasRightToLeft(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0590) continue;
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (isRightToLeft(cp)) return true;
  }
  return false;
}

/** Whether a text holds an East Asian character. */
export function hasEastAsian(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x1100) continue;
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (isEastAsian(cp)) return true;
  }
  return false;
}

/** One stretch of text drawn with one slot. */
export interface ScriptRun {
  text: string;
  slot: FontSlot;
}

/**
 * Splits text into runs by font slot: neutral characters (spaces, punctuation, digits)
 * join the run before them, or the first run when the text starts with them; text of
 * neutrals only is one Latin run.
 */
export function splitByScript(text: string): ScriptRun[] {
  const runs: ScriptRun[] = [];
  let cur: FontSlot | undefined;
  let start = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const s = slotOf(cp);
    if (s !== undefined && s !== cur) {
      if (cur !== undefined && i > start) {
        runs.push({ text: text.slice(start, i), slot: cur });
        start = i;
      }
      cur = s;
    }
    i += len;
  }
  if (text.length > start || runs.length === 0) runs.push({ text: text.slice(start), slot: cur ?? 'latin' });
  return runs;
}

/** Primary language subtags of languages written right to left (BCP 47 / ISO 639). */
const RTL_LANGUAGES: ReadonlySet<string> = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ji', 'ks', 'ku-arab', 'pa-arab', 'prs', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);
/** Script subtags (ISO 15924) written right to left. */
const RTL_SCRIPTS: ReadonlySet<string> = new Set(['arab', 'hebr', 'syrc', 'thaa', 'nkoo', 'samr', 'mand', 'adlm', 'rohg']);

/** A BCP 47 language tag is well-formed enough to write into `lang` (ST_TextLanguageID, §20.1.10.57): letters and digits in subtags of 1–8 joined by hyphens. */
export function isLanguageTag(tag: string): boolean {
  return /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag);
}

/** Whether a BCP 47 tag names a language written right to left (by its script subtag, else its primary language). */
export function isRightToLeftLanguage(tag: string | undefined): boolean {
  if (!tag) return false;
  const parts = tag.toLowerCase().split(/[-_]/);
  const script = parts.slice(1).find((p) => p.length === 4);
  if (script) return RTL_SCRIPTS.has(script);
  return RTL_LANGUAGES.has(parts[0]!);
}

/** The slot a language's text is drawn with: East Asian for Chinese, Japanese and Korean, complex for right-to-left and Indic/Southeast Asian languages, else Latin. */
export function slotOfLanguage(tag: string): FontSlot {
  const primary = tag.toLowerCase().split(/[-_]/)[0]!;
  if (primary === 'zh' || primary === 'ja' || primary === 'ko' || primary === 'yue') return 'ea';
  if (isRightToLeftLanguage(tag) || ['hi', 'bn', 'ta', 'te', 'mr', 'gu', 'kn', 'ml', 'pa', 'th', 'lo', 'km', 'my', 'si', 'ne', 'bo'].includes(primary)) return 'cs';
  return 'latin';
}

/**
 * The language tag PowerPoint writes for a run in a script when no language is given: the
 * usual language of the script (Arabic, Hebrew, Japanese when kana appear, Korean for
 * Hangul, Chinese (PRC) for Han alone). Undefined for Latin text and scripts it cannot tell.
 */
export function languageOfText(text: string): string | undefined {
  let han = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x0590 && cp <= 0x05ff) return 'he-IL';
    if ((cp >= 0x0600 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0xfb50 && cp <= 0xfeff && cp !== 0xfeff)) return 'ar-SA';
    if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f)) return 'ja-JP';
    if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return 'ko-KR';
    if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || cp >= 0x20000) han = true;
  }
  return han ? 'zh-CN' : undefined;
}

/**
 * The regional face of Noto Sans/Serif CJK that draws Han characters in the forms a
 * language's readers expect (the faces share their kana and Hangul; their ideographs
 * differ, e.g. 直 骨 角 述): JP for Japanese, KR for Korean, SC for Chinese in simplified
 * characters (zh-CN, zh-SG, zh-Hans, plain zh), TC for traditional (zh-TW, zh-Hant), HK for
 * Hong Kong and Macao (zh-HK, zh-MO, Cantonese `yue`). Undefined for other languages and
 * no language.
 */
export function cjkRegionOfLanguage(tag: string | undefined): CjkRegion | undefined {
  if (!tag) return undefined;
  const parts = tag.toLowerCase().split(/[-_]/);
  const primary = parts[0]!;
  if (primary === 'ja') return 'JP';
  if (primary === 'ko') return 'KR';
  if (primary !== 'zh' && primary !== 'yue') return undefined;
  const region = parts.slice(1).find((p) => p.length === 2 || (p.length === 3 && /^\d+$/.test(p)));
  if (region === 'hk' || region === 'mo') return 'HK';
  const script = parts.slice(1).find((p) => p.length === 4);
  if (script === 'hant') return 'TC';
  if (script === 'hans') return 'SC';
  if (region === 'tw') return 'TC';
  return primary === 'yue' ? 'HK' : 'SC';
}

/** The regions of the CJK faces (see {@link cjkRegionOfLanguage}). */
export type CjkRegion = 'JP' | 'KR' | 'SC' | 'TC' | 'HK';
