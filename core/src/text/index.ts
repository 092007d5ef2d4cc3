/**
 * Text measurement and layout shared by the renderer and text fitting: font metrics from
 * shipped data ({@link measure}, {@link resolveFace}, {@link defaultFontMetrics}), the
 * class a font without metrics falls back within ({@link classifyFont}), the
 * DrawingML text layout engine ({@link layoutText}) and fitting ({@link fitText}).
 */
export { CLASS_STAND_IN, defaultFontMetrics, FAMILY_SHAPE, isCjk, measure, NEAREST_CLASS, resolveFace, ShippedFontMetrics } from './font-metrics.js';
export type { FaceSource, FontMetrics, FontSpec, ResolvedFace, VerticalMetrics } from './font-metrics.js';
export { classifyFont, classOfName, FONT_FAMILY_CLASSES, fontNameKey, shapeFromAttributes, shapeFromNameWords, shapeFromPanose, shapeFromPitchFamily } from './font-class.js';
export type { FontAttributes, FontClass, FontClassification, FontClassSource, FontKind, FontShape } from './font-class.js';
export { EMU_PER_PT, fitText, layoutText } from './layout.js';
export type {
  BulletInput, FitOptions, FitResult, LayoutLine, LayoutOptions, LineFragment, ParagraphInput, Spacing, TextBodyInput, TextBox, TextLayout, TextRunInput,
} from './layout.js';
export { embeddingLevels, visualOrder } from './bidi.js';
export { breakPieces } from './line-break.js';
export {
  hasEastAsian, hasNonLatinScript, hasRightToLeft, isComplexScript, isEastAsian, isLanguageTag, isRightToLeft, isRightToLeftLanguage, languageOfText, slotOf, slotOfLanguage, splitByScript,
} from './script.js';
export type { FontSlot, ScriptRun } from './script.js';
