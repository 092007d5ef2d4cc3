/**
 * PresentationML reading model (ECMA-376 Part 1, §19): the presentation part, slide masters,
 * slide layouts and slides with their shape trees, placeholder inheritance, theme fonts and
 * colours, and effective text properties. The service reads a package's model through the
 * per-thread registry (`openedTemplates.modelOf(pkg)` in ./opened-templates.ts: one model per
 * package object, test/unit/architecture/one-reading-model.test.ts holds to it); tools and
 * tests may build one with `new PmlModel(pkg)`.
 */
export { checkPresentationPackage, readPresentation, DEFAULT_SLIDE_SIZE_EMU, type PresentationInfo, type PresentationPackageInfo, type SlideRef, type MasterRef } from './presentation.js';
export { PmlModel, ShapeTreePart, MasterPart, LayoutPart, SlidePart, MAX_SHAPES_PER_PART, type ShapeTreePartKind } from './parts.js';
export { Shape, effective, masterPlaceholderType, chooseAlternateContent, type Frame, type PlaceholderRef, type PlaceholderType, type ShapeKind, type RawXfrm, type GroupTransform } from './shapes.js';
export { bodyText, readParagraphs, paragraphLevel, effectiveFont, effectiveParagraph, effectiveTextFrame, type EffectiveFont, type EffectiveParagraph, type ParagraphText } from './text.js';
export { readTextBody, shapeTextSources, withSharedLevelStyles, appendParagraphModel, paragraphStyleOf, textFrameOf, masterTextStyleFor, type TextStyleSources, type ReadTextOptions, type ParagraphModel, type ParagraphFacts, type TextFrameProperties } from './text-style.js';
export { graphicKind, readTable, readChart, readChartEx, readPicture, oleProgId, type GraphicKind, type TableInfo, type ChartInfo, type PictureInfo } from './graphic.js';
export { readTheme, resolveThemeFont, scriptOfLanguage, EMPTY_THEME, THEME_COLOR_NAMES, type Theme, type ThemeFontCollection, type ThemeColorName } from './theme.js';
export { colorIn, resolveRgba, resolveColor, resolveColorIn, readColorMap, presetHex, DEFAULT_COLOR_MAP, type ColorMap, type ColorContext, type Rgba } from './color.js';
export { OpenedTemplates, PackageFacts, FactKind, openedTemplates, OPENED_TEMPLATES_ENTRIES, OPENED_TEMPLATES_BYTES, OPENED_TEMPLATE_MAX_BYTES, type TemplateSlot } from './opened-templates.js';
