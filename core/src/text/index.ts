/**
 * Text measurement and layout shared by the renderer and text fitting: font metrics from
 * shipped data ({@link measure}, {@link resolveFace}, {@link defaultFontMetrics}), the
 * DrawingML text layout engine ({@link layoutText}) and fitting ({@link fitText}).
 */
export { defaultFontMetrics, isCjk, measure, NEAREST_CLASS, resolveFace, ShippedFontMetrics } from './font-metrics.js';
export type { FontMetrics, FontSpec, ResolvedFace, VerticalMetrics } from './font-metrics.js';
export { EMU_PER_PT, fitText, layoutText } from './layout.js';
export type {
  BulletInput, FitOptions, FitResult, LayoutLine, LayoutOptions, LineFragment, ParagraphInput, Spacing, TextBodyInput, TextBox, TextLayout, TextRunInput,
} from './layout.js';
