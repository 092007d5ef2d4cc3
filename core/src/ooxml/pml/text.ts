/**
 * Text of a shape's text body (ECMA-376 Part 1, §21.1.2 DrawingML text: `a:p` §21.1.2.2.6,
 * `a:r` §21.1.2.3.8, `a:fld` §21.1.2.2.4, `a:br` §21.1.2.2.1) and the effective character,
 * paragraph and text-frame properties that stand for it, as analysis reports them.
 *
 * The properties are not resolved here: they are what the one text-style resolver
 * (./text-style.ts, the inheritance chain of `a:rPr` / `a:pPr` / list styles / the shape
 * style's font reference / the master's `p:txStyles` / `p:defaultTextStyle`) gives the
 * paragraph and run that stand for the shape, so analysis reports what rendering draws,
 * fitting fits and the doctor measures. This module only picks that paragraph and run.
 */
import { NS, child, children, descendants, intAttr, resolveAlternateContent, type Element } from '../xml.js';
import { rgbaToHex } from './color.js';
import type { Shape } from './shapes.js';
import { masterTextStyleFor, paragraphStyleOf, shapeTextSources, textFrameOf, type TextFrameProperties } from './text-style.js';

export { masterTextStyleFor, type TextFrameProperties };

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

/**
 * Whether a text body shows any text other than whitespace: `bodyText(txBody).trim() !== ''`,
 * stopping at the first paragraph that has some (checks that only ask whether a shape holds
 * text need not join a whole body).
 */
export function hasVisibleText(txBody: Element | undefined): boolean {
  if (!txBody) return false;
  for (const p of children(txBody, NS.a, 'p')) if (paragraphText(p).trim() !== '') return true;
  return false;
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

/** A shape that can hold text: an `p:sp` with a text body, or a placeholder (whose text body may be inherited). */
function holdsText(shape: Shape): boolean {
  return shape.kind === 'sp' && (shape.txBody !== undefined || shape.placeholder !== undefined);
}

/** The resolved style of the paragraph that stands for `shape`'s text ({@link representativeOf}). */
function representativeStyle(shape: Shape): { style: ReturnType<typeof paragraphStyleOf>; run: Element | undefined } {
  const { paragraph, run } = representativeOf(shape);
  const src = shapeTextSources(shape, { theme: shape.part.theme, colorMap: shape.part.colorMap });
  const level = paragraph ? paragraphLevel(paragraph) : 0;
  return { style: paragraphStyleOf(src, level, child(paragraph, NS.a, 'pPr')), run };
}

/**
 * The effective font of a shape's text: the properties of its first run with text (or, for
 * an empty text body, of its first paragraph's end-of-paragraph properties), as the text-style
 * resolver gives them (./text-style.ts).
 *
 * @returns undefined for shapes without a text body (pictures, graphic frames, groups, and
 *   shapes with no `p:txBody`)
 */
export function effectiveFont(shape: Shape): EffectiveFont | undefined {
  if (!holdsText(shape)) return undefined;
  const { style, run } = representativeStyle(shape);
  const resolved = style.runProps(run);
  const scripts = style.scriptFaces(run);
  return {
    name: resolved.facts.face,
    eastAsianName: scripts.eastAsian,
    complexScriptName: scripts.complexScript,
    sizePt: resolved.font.size_pt,
    bold: resolved.font.bold ?? false,
    italic: resolved.font.italic ?? false,
    color: resolved.facts.fill ? rgbaToHex(resolved.facts.fill) : null,
  };
}

/**
 * The effective text frame of a shape (`a:bodyPr`, §21.1.2.1.1) along its placeholder
 * chain, as the text-style resolver reads it ({@link textFrameOf}). Undefined for shapes
 * that cannot hold text.
 */
export function effectiveTextFrame(shape: Shape): TextFrameProperties | undefined {
  if (!holdsText(shape)) return undefined;
  const bodies: Element[] = [];
  for (const s of shape.chain()) {
    const b = child(s.txBody, NS.a, 'bodyPr');
    if (b) bodies.push(b);
  }
  return textFrameOf(bodies);
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
 * The effective paragraph properties of the paragraph {@link effectiveFont} reads, as the
 * text-style resolver gives them.
 *
 * @param fontSizePt - the paragraph's effective font size when already known (spacing given
 *   as a percentage is taken of it); computed with {@link effectiveFont} otherwise
 */
export function effectiveParagraph(shape: Shape, fontSizePt?: number): EffectiveParagraph | undefined {
  if (!holdsText(shape)) return undefined;
  const { style, run } = representativeStyle(shape);
  const facts = style.facts();
  const sizePt = fontSizePt ?? style.runProps(run).font.size_pt;
  // the resolver keeps percentages in percent (thousandths of a percent / 1000): back to the written value
  const fraction = (pct: number): number => Math.round(pct * 1000) / 100000;
  const toPt = (v: typeof facts.spaceBefore): number => (v === undefined ? 0 : 'pts' in v ? v.pts : fraction(v.pct) * sizePt);
  const line = facts.lineSpacing;
  return {
    alignment: facts.align,
    rtl: facts.rtl,
    lineSpacing: line === undefined ? 1 : 'pct' in line ? fraction(line.pct) : null,
    lineSpacingPt: line !== undefined && 'pts' in line ? line.pts : null,
    spaceBeforePt: toPt(facts.spaceBefore),
    spaceAfterPt: toPt(facts.spaceAfter),
    marginLeft: facts.marL_emu,
    indent: facts.indent_emu,
    bullet: facts.bullet,
  };
}
