/**
 * Text of a shape's text body (ECMA-376 Part 1, §21.1.2 DrawingML text: `a:p` §21.1.2.2.6,
 * `a:r` §21.1.2.3.8, `a:fld` §21.1.2.2.4, `a:br` §21.1.2.2.1) and its effective character
 * properties (`a:rPr` / `a:defRPr` §21.1.2.3.9 / §21.1.2.3.2), resolved along the
 * PresentationML inheritance chain:
 *
 * run `a:rPr` → paragraph `a:pPr/a:defRPr` → the shape's `a:lstStyle` → each base
 * placeholder's `a:lstStyle` (layout, then master) → the shape's `p:style/a:fontRef`
 * (§20.1.4.2.10) → for placeholders, the master's `p:txStyles` (§19.3.1.52: `titleStyle`
 * for title placeholders, `otherStyle` for date/footer/slide-number/header, `bodyStyle` for
 * the other placeholders) then the presentation's `p:defaultTextStyle` (§19.2.1.8); for
 * plain text boxes `p:defaultTextStyle` then the master's `otherStyle` → the theme fonts. Within a list style the paragraph's level (`lvlNpPr`, N = `a:pPr/@lvl` + 1) is read
 * before `a:defPPr`.
 */
import { NS, attr, boolAttr, child, children, descendants, intAttr, parseXml, resolveAlternateContent, type Element } from '../xml.js';
import { resolveColorIn, type ColorContext } from './color.js';
import type { Shape } from './shapes.js';
import { resolveThemeFont, scriptOfLanguage } from './theme.js';

/** Office Math Markup Language (ECMA-376 Part 1, §22.1). */
const OMML_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

/** One paragraph: its level (`a:pPr/@lvl`, 0–8) and text. */
export interface ParagraphText {
  level: number;
  /** Text of the runs and fields; a line break (`a:br`) is a vertical tab `\v`, as python-pptx reads it. */
  text: string;
}

/** Paragraphs of a text body (`p:txBody` or `a:txBody`) in order, empty ones included. */
export function readParagraphs(txBody: Element | undefined): ParagraphText[] {
  if (!txBody) return [];
  return children(txBody, NS.a, 'p').map((p) => ({ level: paragraphLevel(p), text: paragraphText(p) }));
}

/** Text of a text body: paragraphs joined by `\n`. */
export function bodyText(txBody: Element | undefined): string {
  return readParagraphs(txBody)
    .map((p) => p.text)
    .join('\n');
}

/** `a:pPr/@lvl` of a paragraph, clamped to 0–8 (ST_TextIndentLevelType). */
export function paragraphLevel(p: Element): number {
  const lvl = intAttr(child(p, NS.a, 'pPr'), 'lvl', 0);
  return lvl < 0 ? 0 : lvl > 8 ? 8 : lvl;
}

function paragraphText(p: Element): string {
  let s = '';
  for (const el of children(p)) {
    if (el.namespaceURI === NS.mc && el.localName === 'AlternateContent') {
      // e.g. an equation (a14:m) with a plain-run fallback: read the branch a consumer sees.
      const branch = resolveAlternateContent(el);
      if (branch) s += paragraphText(branch);
      continue;
    }
    if (el.namespaceURI === NS.a14 && el.localName === 'm') {
      // An Office Math zone: its text is in the OMML m:t elements.
      for (const t of descendants(el, OMML_NS, 't')) s += t.textContent ?? '';
      continue;
    }
    if (el.namespaceURI !== NS.a) continue;
    if (el.localName === 'r' || el.localName === 'fld') {
      const t = child(el, NS.a, 't');
      if (t) s += t.textContent ?? '';
    } else if (el.localName === 'br') s += '\v';
  }
  return s;
}

/** Effective character properties of a shape's text. */
export interface EffectiveFont {
  /** Latin typeface, theme references (`+mj-lt`, `+mn-lt`) resolved; null when nothing names one. */
  name: string | null;
  /** East Asian typeface (`a:ea`), resolved; null when unset. */
  eastAsianName: string | null;
  /** Complex-script typeface (`a:cs`), resolved; null when unset. */
  complexScriptName: string | null;
  /** Size in points (`sz` / 100); 18 when nothing sets it (PowerPoint's default). */
  sizePt: number;
  bold: boolean;
  italic: boolean;
  /** Text colour `RRGGBB`, resolved through the colour map and theme; null when unknown. */
  color: string | null;
}

/** Which master text style a shape's text inherits from. */
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

/**
 * The paragraph-property elements (`a:pPr`, list-style `a:lvlNpPr` and `a:defPPr`) that
 * apply to a paragraph at `level` of `shape`, nearest first, split where the shape's own
 * style reference (`p:style/a:fontRef`) takes its turn for run properties: `near` are the
 * paragraph itself and the list styles on the placeholder chain; `far` the master text
 * style and the presentation default text style.
 */
function paragraphSources(shape: Shape, paragraph: Element | undefined, level: number): { near: Element[]; far: Element[] } {
  const near: Element[] = [];
  const far: Element[] = [];
  const lvlName = `lvl${level + 1}pPr`;
  const fromList = (list: Element | undefined, out: Element[]): void => {
    if (!list) return;
    const lvl = child(list, NS.a, lvlName);
    if (lvl) out.push(lvl);
    const def = child(list, NS.a, 'defPPr');
    if (def) out.push(def);
  };
  const pPr = child(paragraph, NS.a, 'pPr');
  if (pPr) near.push(pPr);
  for (const s of shape.chain()) fromList(child(s.txBody, NS.a, 'lstStyle'), near);
  const styleName = masterTextStyleFor(shape);
  const defaults = shape.part.model.presentation.defaultTextStyle;
  if (styleName) {
    fromList(shape.part.master.textStyle(styleName), far);
    fromList(defaults, far);
  } else {
    // A plain text box: the presentation defaults, then the master's otherStyle (as Apache POI reads it).
    fromList(defaults, far);
    fromList(shape.part.master.textStyle('otherStyle'), far);
  }
  return { near, far };
}

/** The run-property sources (`a:rPr`, then each paragraph source's `a:defRPr`), split as {@link paragraphSources}. */
function propertySources(shape: Shape, paragraph: Element | undefined, run: Element | undefined, level: number): { near: Element[]; far: Element[] } {
  const p = paragraphSources(shape, paragraph, level);
  const defRPr = (list: Element[]): Element[] => list.map((el) => child(el, NS.a, 'defRPr')).filter((el): el is Element => el !== undefined);
  return { near: [...(run ? [run] : []), ...defRPr(p.near)], far: defRPr(p.far) };
}

/** First paragraph with visible text, and its first run with text; else the first paragraph. */
function representativeRun(txBody: Element | undefined): { paragraph: Element | undefined; run: Element | undefined } {
  const paras = txBody ? children(txBody, NS.a, 'p') : [];
  for (const p of paras) {
    for (const r of children(p, NS.a)) {
      if (r.localName !== 'r' && r.localName !== 'fld') continue;
      const t = child(r, NS.a, 't');
      if (t && (t.textContent ?? '').trim() !== '') return { paragraph: p, run: child(r, NS.a, 'rPr') };
    }
  }
  const p = paras[0];
  return { paragraph: p, run: child(p, NS.a, 'endParaRPr') };
}

/**
 * The paragraph and run whose properties stand for a shape's text. A placeholder on a
 * layout or master holds prompt text ("Click to edit…"), never shown on a slide: the text a
 * slide puts there inherits the list styles only, not the prompt's own run and paragraph
 * properties (which tools such as LibreOffice write, e.g. `sz="3200"` on the prompt while
 * the master's body style says 18 pt), so for it nothing of its own is read — the level-1
 * list styles answer, as for new text. Everywhere else, its first run with text.
 */
function representativeOf(shape: Shape): { paragraph: Element | undefined; run: Element | undefined } {
  if (shape.placeholder && shape.part.kind !== 'slide') return { paragraph: undefined, run: undefined };
  return representativeRun(shape.txBody);
}

/**
 * The effective font of a shape's text: the properties of its first run with text (or, for
 * an empty text body, of its first paragraph's end-of-paragraph properties), each resolved
 * independently along the inheritance chain described in this module's header.
 *
 * @returns undefined for shapes without a text body (pictures, graphic frames, groups, and
 *   shapes with no `p:txBody`)
 */
export function effectiveFont(shape: Shape): EffectiveFont | undefined {
  // A placeholder's text body may be inherited: an empty slide placeholder still has text
  // properties from its layout. Only a shape that can hold text is answered.
  if (shape.kind !== 'sp') return undefined;
  if (!shape.txBody && !shape.placeholder) return undefined;
  const { paragraph, run } = representativeOf(shape);
  const level = paragraph ? paragraphLevel(paragraph) : 0;
  const { near, far } = propertySources(shape, paragraph, run, level);
  const theme = shape.part.theme;
  const ctx: ColorContext = { theme, colorMap: shape.part.colorMap };
  const styleName = masterTextStyleFor(shape);
  // The shape style's font reference (§20.1.4.2.10) sits between the shape's own list
  // styles and the master/presentation defaults: it is how a filled autoshape gets white text.
  const fontRef = child(child(shape.element, NS.p, 'style'), NS.a, 'fontRef');
  const fontRefIdx = attr(fontRef, 'idx');
  const fontRefFace = fontRefIdx === 'major' ? '+mj-lt' : fontRefIdx === 'minor' ? '+mn-lt' : undefined;
  const fontRefColor = fontRef ? resolveColorIn(fontRef, ctx) : undefined;

  const first = <T>(list: Element[], pick: (el: Element) => T | undefined): T | undefined => {
    for (const el of list) {
      const v = pick(el);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  /** Near sources, then the style reference, then far sources; `null` is a value and stops the walk. */
  const walk = <T>(pick: (el: Element) => T | undefined, fromStyle?: T): T | undefined => {
    const n = first(near, pick);
    if (n !== undefined) return n;
    if (fromStyle !== undefined) return fromStyle;
    return first(far, pick);
  };

  const typeface = (local: string) => (el: Element): string | undefined => {
    const v = attr(child(el, NS.a, local), 'typeface');
    return v === undefined || v === '' ? undefined : v;
  };
  const latin = walk(typeface('latin'), fontRefFace) ?? (styleName === 'titleStyle' ? '+mj-lt' : '+mn-lt');
  const ea = walk(typeface('ea'));
  const cs = walk(typeface('cs'));
  const sz = walk((el) => intAttr(el, 'sz'));
  const bold = walk((el) => boolAttr(el, 'b'));
  const italic = walk((el) => boolAttr(el, 'i'));
  // A text fill (§20.1.8): solid → its colour; gradient → its first stop by position;
  // pattern → its foreground; no fill → none (null stops the walk).
  const fillColor = (el: Element): string | null | undefined => {
    for (const f of children(el, NS.a)) {
      switch (f.localName) {
        case 'solidFill':
          return resolveColorIn(f, ctx) ?? null;
        case 'gradFill': {
          const stops = children(child(f, NS.a, 'gsLst') ?? f, NS.a, 'gs');
          const firstStop = stops.reduce<Element | undefined>((best, gs) => (best === undefined || intAttr(gs, 'pos', 0) < intAttr(best, 'pos', 0) ? gs : best), undefined);
          return resolveColorIn(firstStop, ctx) ?? null;
        }
        case 'pattFill':
          return resolveColorIn(child(f, NS.a, 'fgClr'), ctx) ?? null;
        case 'noFill':
        case 'blipFill':
          return null;
        default:
          break;
      }
    }
    return undefined;
  };
  const walked = walk(fillColor, fontRefColor);
  const color = walked === undefined ? resolveColorIn(schemeTx1, ctx) : walked;

  // The run's language picks the theme's per-script face when an ea/cs slot is empty.
  const lang = walk((el) => attr(el, 'lang'));
  const altLang = walk((el) => attr(el, 'altLang'));
  const resolved = (face: string | undefined, language: string | undefined): string | null => {
    if (face === undefined) return null;
    const r = resolveThemeFont(face, theme, language);
    return r === '' ? null : r;
  };
  return {
    name: resolved(latin, lang),
    eastAsianName: resolved(ea, scriptOfLanguage(lang) ? lang : altLang),
    complexScriptName: resolved(cs, lang),
    sizePt: sz !== undefined ? sz / 100 : 18,
    bold: bold ?? false,
    italic: italic ?? false,
    color: color ?? null,
  };
}

/** A stand-in `a:solidFill` holding `a:schemeClr val="tx1"`: text is tx1 unless something says otherwise. */
const schemeTx1: Element = parseXml(`<a:solidFill xmlns:a="${NS.a}"><a:schemeClr val="tx1"/></a:solidFill>`, 'default text colour').documentElement!;

/** Text frame properties of a shape (`a:bodyPr`, §21.1.2.1.1), resolved along the placeholder chain. */
export interface TextFrameProperties {
  /** Insets in EMU (schema defaults 91440 left/right, 45720 top/bottom). */
  insetLeft: number;
  insetTop: number;
  insetRight: number;
  insetBottom: number;
  /** `anchor` (ST_TextAnchoringType): `t` (default), `ctr`, `b`, `just`, `dist`. */
  anchor: string;
  /** `wrap="square"` (default) wraps; `none` does not. */
  wrap: boolean;
  /** `a:noAutofit` / `a:normAutofit` (shrink text on overflow) / `a:spAutoFit` (resize shape); `none` when unset. */
  autofit: 'none' | 'normal' | 'shape';
  /** `a:normAutofit/@fontScale` as a fraction (1 = 100 %). */
  fontScale: number;
  /** `vert` (ST_TextVerticalType), `horz` by default. */
  vertical: string;
  /** `numCol`, 1 by default. */
  columns: number;
}

/**
 * The effective text frame of a shape: each `a:bodyPr` attribute and the autofit choice
 * taken from the nearest shape on the placeholder chain that sets it, else the schema
 * default. Undefined for shapes that cannot hold text.
 */
export function effectiveTextFrame(shape: Shape): TextFrameProperties | undefined {
  if (shape.kind !== 'sp' || (!shape.txBody && !shape.placeholder)) return undefined;
  const bodies: Element[] = [];
  for (const s of shape.chain()) {
    const b = child(s.txBody, NS.a, 'bodyPr');
    if (b) bodies.push(b);
  }
  const pick = <T>(f: (b: Element) => T | undefined): T | undefined => {
    for (const b of bodies) {
      const v = f(b);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const fit = pick((b): { kind: 'none' | 'normal' | 'shape'; scale: number } | undefined => {
    for (const c of children(b, NS.a)) {
      if (c.localName === 'noAutofit') return { kind: 'none', scale: 1 };
      if (c.localName === 'normAutofit') return { kind: 'normal', scale: intAttr(c, 'fontScale', 100000) / 100000 };
      if (c.localName === 'spAutoFit') return { kind: 'shape', scale: 1 };
    }
    return undefined;
  });
  return {
    insetLeft: pick((b) => intAttr(b, 'lIns')) ?? 91440,
    insetTop: pick((b) => intAttr(b, 'tIns')) ?? 45720,
    insetRight: pick((b) => intAttr(b, 'rIns')) ?? 91440,
    insetBottom: pick((b) => intAttr(b, 'bIns')) ?? 45720,
    anchor: pick((b) => attr(b, 'anchor')) ?? 't',
    wrap: (pick((b) => attr(b, 'wrap')) ?? 'square') !== 'none',
    autofit: fit?.kind ?? 'none',
    fontScale: fit?.scale ?? 1,
    vertical: pick((b) => attr(b, 'vert')) ?? 'horz',
    columns: pick((b) => intAttr(b, 'numCol')) ?? 1,
  };
}

/** Effective paragraph properties of a shape's first text paragraph (§21.1.2.2.7 `a:pPr`). */
export interface EffectiveParagraph {
  /** `algn` (ST_TextAlignType): `l` (default), `ctr`, `r`, `just`, `dist`, ... */
  alignment: string;
  /** Right-to-left paragraph (`rtl`). */
  rtl: boolean;
  /** Line spacing as a multiple of single spacing (`a:lnSpc/a:spcPct` / 100000); null when set in points. */
  lineSpacing: number | null;
  /** Line spacing in points (`a:lnSpc/a:spcPts` / 100); null when set as a percentage. */
  lineSpacingPt: number | null;
  /** Space before and after in points (`a:spcBef`/`a:spcAft`; a percentage is taken of the font size). */
  spaceBeforePt: number;
  spaceAfterPt: number;
  /** Left margin and first-line indent in EMU (`marL`, `indent`). */
  marginLeft: number;
  indent: number;
  /** The paragraph shows a bullet or number (`a:buChar`, `a:buAutoNum`, `a:buBlip`; `a:buNone` hides it). */
  bullet: boolean;
}

/**
 * The effective paragraph properties of the paragraph {@link effectiveFont} reads, each
 * attribute or child taken from the nearest source: the paragraph's `a:pPr`, the list
 * styles on the placeholder chain, the master text style, the presentation defaults.
 *
 * @param fontSizePt - the paragraph's effective font size when already known (spacing given
 *   as a percentage is taken of it); computed with {@link effectiveFont} otherwise
 */
export function effectiveParagraph(shape: Shape, fontSizePt?: number): EffectiveParagraph | undefined {
  if (shape.kind !== 'sp' || (!shape.txBody && !shape.placeholder)) return undefined;
  const { paragraph } = representativeOf(shape);
  const level = paragraph ? paragraphLevel(paragraph) : 0;
  const { near, far } = paragraphSources(shape, paragraph, level);
  const sources = [...near, ...far];
  const pick = <T>(f: (el: Element) => T | undefined): T | undefined => {
    for (const el of sources) {
      const v = f(el);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const sizePt = fontSizePt ?? effectiveFont(shape)?.sizePt ?? 18;
  const spacing = (local: 'lnSpc' | 'spcBef' | 'spcAft'): { pct?: number; pts?: number } | undefined =>
    pick((el) => {
      const sp = child(el, NS.a, local);
      if (!sp) return undefined;
      const pct = child(sp, NS.a, 'spcPct');
      if (pct) return { pct: intAttr(pct, 'val', 100000) / 100000 };
      const pts = child(sp, NS.a, 'spcPts');
      if (pts) return { pts: intAttr(pts, 'val', 0) / 100 };
      return undefined;
    });
  const toPt = (v: { pct?: number; pts?: number } | undefined): number => (v === undefined ? 0 : v.pts ?? (v.pct ?? 0) * sizePt);
  const line = spacing('lnSpc');
  const bullet = pick((el) => {
    for (const c of children(el, NS.a)) {
      if (c.localName === 'buNone') return false;
      if (c.localName === 'buChar' || c.localName === 'buAutoNum' || c.localName === 'buBlip') return true;
    }
    return undefined;
  });
  return {
    alignment: pick((el) => attr(el, 'algn')) ?? 'l',
    rtl: pick((el) => boolAttr(el, 'rtl')) ?? false,
    lineSpacing: line === undefined ? 1 : line.pct ?? null,
    lineSpacingPt: line?.pts ?? null,
    spaceBeforePt: toPt(spacing('spcBef')),
    spaceAfterPt: toPt(spacing('spcAft')),
    marginLeft: pick((el) => intAttr(el, 'marL')) ?? 0,
    indent: pick((el) => intAttr(el, 'indent')) ?? 0,
    bullet: bullet ?? false,
  };
}
