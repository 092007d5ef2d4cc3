/**
 * Capacity of a content area, measured with the text layout engine (`core/src/text`): how
 * many one-line bullet paragraphs fit in a text box, and how many one-line table rows fit
 * in a table area, at the template's size and at the minimum size. Measured as fitting
 * measures (`text/fit-metrics.ts`: the same metrics, the same share of the box's height),
 * so the room reported is the room generation finds (text keeps the
 * same safety share of the height; tables use all of it, as table fitting does).
 */
import type { AnalyzedParagraphFormat, AnalyzedTextFrame } from '../analysis/types.js';
import type { FontSpec } from '../text/font-metrics.js';
import { FIT_LAYOUT, fitMetrics, fittedBoxHeightPt, fittedHeightPt, HEIGHT_SAFETY } from '../text/fit-metrics.js';
import { NS, attr, parseXml, type Element } from '../ooxml/xml.js';
import type { Shape } from '../ooxml/pml/shapes.js';
import { readTextBody, shapeTextSources } from '../ooxml/pml/text-style.js';
import { EMU_PER_PT, isVerticalText, layoutText, type ParagraphInput, type Spacing, type TextBodyInput } from '../text/layout.js';

/** The minimum text size capacities are also given at (the contract's default auto-fit floor), pt. */
export const MIN_FONT_SIZE_PT = 8;

/**
 * Table text size when the template does not say, pt: PowerPoint's table text comes from the
 * master's `otherStyle` level 1, 18 pt in the default template (analysis does not resolve
 * table styles yet).
 */
export const DEFAULT_TABLE_FONT_PT = 18;

/** Default top plus bottom cell margins (`marT`/`marB` 45 720 EMU each, §21.1.3.17), pt. */
export const CELL_VERTICAL_MARGINS_PT = 7.2;

/** A text box to measure. */
export interface TextArea {
  /** Box size, EMU. */
  cx: number;
  cy: number;
  /** Resolved text frame (insets, vertical text); defaults when null. */
  frame: AnalyzedTextFrame | null;
  /** Resolved format of level-0 paragraphs; none when null. */
  paragraph: AnalyzedParagraphFormat | null;
  /** Effective font at the template's size. */
  font: FontSpec;
}

/** Result of {@link textCapacity}. */
export interface TextCapacity {
  /** One-line paragraphs that fit at the font's size. */
  lines: number;
  /** Line width left for level-0 text, pt. */
  width_pt: number;
}

function isVertical(frame: AnalyzedTextFrame | null): boolean {
  return !!frame && frame.vertical !== 'horz' && frame.vertical !== '';
}

/**
 * How many one-line bullet paragraphs (level 0, the area's paragraph format: bullet,
 * margins, line and paragraph spacing) fit in the box at `sizePt`. Spacing given by the
 * template scales with the size (as a percentage spacing does). Vertical text measures
 * along the box's width.
 */
export function textCapacity(area: TextArea, sizePt: number): TextCapacity {
  const k = area.font.size_pt > 0 ? sizePt / area.font.size_pt : 1;
  const font: FontSpec = { ...area.font, size_pt: sizePt };
  const pf = area.paragraph;
  const frame = area.frame;
  const vertical = isVertical(frame);
  const boxW = vertical ? area.cy : area.cx;
  const boxH = vertical ? area.cx : area.cy;
  const lineSpacing: Spacing | undefined = pf?.line_spacing_pt != null ? { pts: pf.line_spacing_pt * k } : pf?.line_spacing != null ? { pct: pf.line_spacing * 100 } : undefined;
  const para: ParagraphInput = {
    runs: [{ text: 'Xg', font }],
    marL_emu: pf?.margin_left ?? 0,
    indent_emu: pf?.indent ?? 0,
    lineSpacing,
    spaceBefore: { pts: (pf?.space_before_pt ?? 0) * k },
    spaceAfter: { pts: (pf?.space_after_pt ?? 0) * k },
    ...(pf?.bullet ? { bullet: { text: '•', font } } : {}),
  };
  const body = (n: number): TextBodyInput => ({
    paragraphs: Array.from({ length: n }, () => para),
    lIns_emu: frame?.inset_left,
    rIns_emu: frame?.inset_right,
    tIns_emu: frame?.inset_top,
    bIns_emu: frame?.inset_bottom,
    wrap: true,
  });
  const box = { width_emu: boxW, height_emu: boxH };
  const one = layoutText(body(1), box, FIT_LAYOUT);
  const two = layoutText(body(2), box, FIT_LAYOUT);
  const insets = ((frame?.inset_top ?? 45720) + (frame?.inset_bottom ?? 45720)) / EMU_PER_PT;
  const avail = Math.floor(boxH * HEIGHT_SAFETY) / EMU_PER_PT - insets;
  const step = two.textHeight_pt - one.textHeight_pt;
  let lines = 0;
  if (avail + 1e-6 >= one.textHeight_pt) lines = step > 0 ? 1 + Math.floor((avail - one.textHeight_pt) / step + 1e-9) : 1;
  const innerW = (boxW - (frame?.inset_left ?? 91440) - (frame?.inset_right ?? 91440)) / EMU_PER_PT;
  const width = Math.max(0, innerW - (pf?.margin_left ?? 0) / EMU_PER_PT);
  return { lines: Math.max(0, lines), width_pt: Math.round(width * 10) / 10 };
}

/**
 * Height of one table row holding one line of `font` at `sizePt` with default cell margins,
 * measured with the fitting metrics, pt.
 */
export function tableRowHeightPt(fontName: string, sizePt: number): number {
  return fitMetrics.vertical({ name: fontName, size_pt: sizePt }).lineHeight_pt + CELL_VERTICAL_MARGINS_PT;
}

/** How many one-line table rows fit in a box `cyEmu` high (table fitting uses the whole height). */
export function tableRowCapacity(cyEmu: number, fontName: string, sizePt: number): number {
  if (cyEmu <= 0) return 0;
  return Math.max(0, Math.floor(cyEmu / EMU_PER_PT / tableRowHeightPt(fontName, sizePt) + 1e-9));
}

/** What {@link newTextCapacity} measures for one placeholder. */
export interface NewTextCapacity {
  /** The size new text gets there, pt (the largest run of a new paragraph, list styles resolved). */
  sizePt: number;
  /** One-line paragraphs fitting writes at that size, unshrunk. */
  lines: number;
  /** One-line paragraphs that fit at {@link MIN_FONT_SIZE_PT} (or the template's size when smaller). */
  linesAtMin: number;
}

/** A level-1 paragraph as generation writes one: a run with a language and nothing else of its own. */
const NEW_TEXT_BODY: Element = parseXml(
  `<p:txBody xmlns:p="${NS.p}" xmlns:a="${NS.a}"><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Xg</a:t></a:r></a:p></p:txBody>`,
  'new text',
).documentElement!;

/**
 * Capacity of a layout placeholder for the text a slide made from the layout puts there,
 * measured exactly as fitting will measure it: the text styles resolved by the same reader
 * (`ooxml/pml/text-style.ts`: the placeholder chain's list styles, the master's text styles, the
 * bullet and its font, spacing, insets, autofit), laid out with the same metrics and the same
 * share of the box's height (`text/fit-metrics.ts`). Vertical text is measured along the
 * box's height, as fitting lays it out.
 *
 * @param cx - box width, EMU
 * @param cy - box height, EMU
 * @returns undefined when the new text has no size (nothing to measure)
 */
export function newTextCapacity(shape: Shape, cx: number, cy: number): NewTextCapacity | undefined {
  const src = shapeTextSources(shape, { theme: shape.part.theme, colorMap: shape.part.colorMap });
  const one = readTextBody(NEW_TEXT_BODY, src);
  const paragraph = one.paragraphs[0];
  const sizePt = paragraph?.runs[0]?.font.size_pt;
  if (!paragraph || !sizePt) return undefined;
  const vert = src.bodyPrs.map((b) => attr(b, 'vert')).find((v) => v !== undefined);
  const [w, h] = isVerticalText(vert) ? [cy, cx] : [cx, cy];
  const box = fittedBoxHeightPt(h);
  const body = (n: number): TextBodyInput => ({ ...one, paragraphs: Array.from({ length: n }, () => paragraph) });
  // paragraphs after the first are alike: the height grows by one step a paragraph
  const lines = (scale: number): number => {
    const first = fittedHeightPt(body(1), w, h, scale);
    if (first > box + 0.01) return 0;
    const step = fittedHeightPt(body(2), w, h, scale) - first;
    return step > 0 ? 1 + Math.floor((box + 0.01 - first) / step + 1e-9) : 1;
  };
  const min = Math.min(MIN_FONT_SIZE_PT, sizePt);
  const atTemplate = lines(1);
  return { sizePt, lines: atTemplate, linesAtMin: Math.max(atTemplate, lines(min / sizePt)) };
}
